//! `auditor` (loan officers' accounts: argon2id password hashes, disabled time and
//! reason) and `auditor_login_failure` (the per-username run of login attempts): the
//! statements of `crate::accounts::auditors`, which holds the rules (username pattern, password
//! length, the lock after five failures).

use chrono::{DateTime, Utc};
use projections::projection::time_text;
use projections::store::Database;
use uuid::Uuid;

use super::with_pool;

/// Stores a new auditor: a unique violation when the username is taken.
pub async fn insert(
    database: &Database,
    auditor_id: Uuid,
    username: &str,
    password_hash: &str,
    created_at: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let sql = "insert into auditor (auditor_id, username, password_hash, created_at) \
               values ($1, $2, $3, $4)";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(auditor_id.to_string())
        .bind(username)
        .bind(password_hash)
        .bind(time_text(created_at))
        .execute(pool)
        .await
        .map(|r| r.rows_affected()))
}

/// The id of the auditor named `username`, disabled or not.
pub async fn id_of(database: &Database, username: &str) -> Result<Option<String>, sqlx::Error> {
    let found = "select auditor_id from auditor where username = $1";
    with_pool!(database, pool =>
        sqlx::query_scalar(found).bind(username).fetch_optional(pool).await)
}

/// Disables the auditor `auditor_id` with `reason` (`Some`), or enables it again
/// (`None`), at `now`, and revokes its sessions, in one transaction: after a disable
/// (again too: a retry revokes what a login racing the first one issued), and after
/// an enable that lifted one. Answers how many rows the change touched (0: it already
/// was so).
pub async fn set_disabled(
    database: &Database,
    auditor_id: &str,
    reason: Option<&str>,
    now: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let now = time_text(now);
    let disable = "update auditor set disabled_at = $2, disabled_reason = $3 \
                   where auditor_id = $1 and disabled_at is null";
    let enable = "update auditor set disabled_at = null, disabled_reason = null \
                  where auditor_id = $1 and disabled_at is not null";
    let revoke = super::sessions::REVOKE_AUDITOR;
    with_pool!(database, pool => async {
        let mut tx = pool.begin().await?;
        let update = match reason {
            Some(reason) => sqlx::query(disable).bind(auditor_id).bind(&now).bind(reason),
            None => sqlx::query(enable).bind(auditor_id),
        };
        let changed = update.execute(&mut *tx).await?.rows_affected();
        // Enabling an enabled account signs nobody out.
        if reason.is_some() || changed > 0 {
            sqlx::query(revoke).bind(auditor_id).bind(&now).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok::<u64, sqlx::Error>(changed)
    }.await)
}

/// An auditor who may log in.
#[derive(Debug, sqlx::FromRow)]
pub struct Login {
    /// The auditor id.
    pub auditor_id: String,
    /// The (normalized) username.
    pub username: String,
    /// The argon2id hash of the password.
    pub password_hash: String,
}

/// The enabled auditor named `username`, if any.
pub async fn find_enabled(
    database: &Database,
    username: &str,
) -> Result<Option<Login>, sqlx::Error> {
    let sql = "select auditor_id, username, password_hash from auditor \
               where username = $1 and disabled_at is null";
    with_pool!(database, pool =>
        sqlx::query_as(sql).bind(username).fetch_optional(pool).await)
}

/// Ends the run of login attempts of `username`.
pub async fn clear_login_attempts(database: &Database, username: &str) -> Result<u64, sqlx::Error> {
    let clear = "delete from auditor_login_failure where username = $1";
    with_pool!(database, pool => sqlx::query(clear)
        .bind(username).execute(pool).await.map(|r| r.rows_affected()))
}

/// Counts one login attempt of `username` at `now` in one upsert and answers its
/// number in the current run: a run starts at 1 after a success (which deleted the
/// row), after a lock has passed, or when the last attempt is older than `window`;
/// the attempt that reaches `max` locks the username for `window`, and attempts
/// during a lock keep counting.
pub async fn take_login_attempt(
    database: &Database,
    username: &str,
    now: DateTime<Utc>,
    window: chrono::Duration,
    max: i64,
) -> Result<i64, sqlx::Error> {
    // `last_failed_at` holds the time of the last attempt of the run.
    let take = "insert into auditor_login_failure (username, failures, last_failed_at, locked_until) \
                values ($1, 1, $2, case when 1 >= $5 then $4 end) \
                on conflict (username) do update set \
                failures = case \
                  when auditor_login_failure.locked_until > $2 then auditor_login_failure.failures + 1 \
                  when auditor_login_failure.locked_until is not null \
                    or auditor_login_failure.last_failed_at < $3 then 1 \
                  else auditor_login_failure.failures + 1 end, \
                locked_until = case \
                  when auditor_login_failure.locked_until > $2 then auditor_login_failure.locked_until \
                  when auditor_login_failure.locked_until is null \
                    and auditor_login_failure.last_failed_at >= $3 \
                    and auditor_login_failure.failures + 1 >= $5 then $4 \
                  else null end, \
                last_failed_at = $2 \
                returning failures";
    with_pool!(database, pool => sqlx::query_scalar(take)
        .bind(username).bind(time_text(now)).bind(time_text(now - window))
        .bind(time_text(now + window)).bind(max)
        .fetch_one(pool).await)
}
