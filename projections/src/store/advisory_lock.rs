//! PostgreSQL session-level advisory locks, keyed by a class and a name within the
//! current schema (so two deployments sharing a server never take each other's).
//! `crate::consumer::lease` holds one per log consumer this process leads.

use sqlx::PgConnection;

/// Takes the lock `(class, hashtext(current_schema() || ':' || name))` on
/// `connection` if no other session holds it; answers whether this session holds it
/// now. The lock lasts as long as the session (or until unlocked).
pub async fn try_lock(
    connection: &mut PgConnection,
    class: i32,
    name: &str,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select pg_try_advisory_lock($1, hashtext(current_schema() || ':' || $2))")
        .bind(class)
        .bind(name)
        .fetch_one(connection)
        .await
}
