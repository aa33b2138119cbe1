//! `user_mobile` (a phone number's one account) and `user_claim` (an ID number's or
//! an email's one account, and an account's claim turn): the statements of
//! `crate::accounts::claims`, which holds the rules (who may take over, how long a turn lasts,
//! which error answers a value held by another account).

use chrono::{DateTime, Utc};
use projections::projection::time_text;
use projections::store::Database;
use uuid::Uuid;

use super::with_pool;

/// Claims `mobile` for `user_id` at `now`: a unique violation when it is held.
pub async fn insert_mobile(
    database: &Database,
    mobile: &str,
    user_id: Uuid,
    now: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let claim = "insert into user_mobile (mobile, user_id, created_at) values ($1, $2, $3)";
    with_pool!(database, pool => sqlx::query(claim)
        .bind(mobile).bind(user_id.to_string()).bind(time_text(now))
        .execute(pool).await.map(|r| r.rows_affected()))
}

/// Who holds a phone number, since when.
#[derive(Debug, sqlx::FromRow)]
pub struct MobileHolder {
    /// The account holding it.
    pub user_id: String,
    /// When it was claimed.
    pub created_at: String,
}

/// The holder of `mobile`, if any.
pub async fn mobile_holder(
    database: &Database,
    mobile: &str,
) -> Result<Option<MobileHolder>, sqlx::Error> {
    let holder_sql = "select user_id, created_at from user_mobile where mobile = $1";
    with_pool!(database, pool =>
        sqlx::query_as(holder_sql).bind(mobile).fetch_optional(pool).await)
}

/// Moves the claim on `mobile` from `holder` (as read: its holder and claim time) to
/// `user_id` at `now`, in one conditional update: 1 when it moved, 0 when the claim
/// changed meanwhile.
pub async fn take_over_mobile(
    database: &Database,
    mobile: &str,
    holder: &MobileHolder,
    user_id: Uuid,
    now: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let take = "update user_mobile set user_id = $1, created_at = $2 \
                where mobile = $3 and user_id = $4 and created_at = $5";
    with_pool!(database, pool => sqlx::query(take)
        .bind(user_id.to_string()).bind(time_text(now)).bind(mobile)
        .bind(&holder.user_id).bind(&holder.created_at)
        .execute(pool).await.map(|r| r.rows_affected()))
}

/// Releases `user_id`'s claim on `mobile`.
pub async fn release_mobile(
    database: &Database,
    mobile: &str,
    user_id: Uuid,
) -> Result<u64, sqlx::Error> {
    let release = "delete from user_mobile where mobile = $1 and user_id = $2";
    with_pool!(database, pool => sqlx::query(release)
        .bind(mobile).bind(user_id.to_string()).execute(pool).await.map(|r| r.rows_affected()))
}

/// The phone number `user_id` holds, if any.
pub async fn mobile_of(database: &Database, user_id: &str) -> Result<Option<String>, sqlx::Error> {
    let sql = "select mobile from user_mobile where user_id = $1";
    with_pool!(database, pool => sqlx::query_scalar(sql)
        .bind(user_id).fetch_optional(pool).await)
}

/// Claims `value` of `kind` for `user_id` at `now`: 1 when claimed, 0 when held
/// (by anyone, `user_id` included).
pub async fn insert_claim(
    database: &Database,
    kind: &str,
    value: &str,
    user_id: &str,
    now: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let insert = "insert into user_claim (kind, value, user_id, created_at) \
                  values ($1, $2, $3, $4) on conflict (kind, value) do nothing";
    with_pool!(database, pool => sqlx::query(insert)
        .bind(kind).bind(value).bind(user_id).bind(time_text(now))
        .execute(pool).await.map(|r| r.rows_affected()))
}

/// The account holding `value` of `kind`, if any.
pub async fn claim_holder(
    database: &Database,
    kind: &str,
    value: &str,
) -> Result<Option<String>, sqlx::Error> {
    let holder_sql = "select user_id from user_claim where kind = $1 and value = $2";
    with_pool!(database, pool =>
        sqlx::query_scalar(holder_sql).bind(kind).bind(value).fetch_optional(pool).await)
}

/// Takes the claim of `kind` (the turn's kind) whose value is `user_id` at `now`, or
/// renews one claimed before `stale`: 1 when taken, 0 when another request holds it.
pub async fn take_turn(
    database: &Database,
    kind: &str,
    user_id: Uuid,
    now: DateTime<Utc>,
    stale: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let take = "insert into user_claim (kind, value, user_id, created_at) values ($1, $2, $2, $3) \
                on conflict (kind, value) do update set created_at = excluded.created_at \
                where user_claim.created_at < $4";
    with_pool!(database, pool => sqlx::query(take)
        .bind(kind).bind(user_id.to_string()).bind(time_text(now)).bind(time_text(stale))
        .execute(pool).await.map(|r| r.rows_affected()))
}

/// Deletes the claim of `kind` on `value` (an account's turn, freed).
pub async fn delete_claim(
    database: &Database,
    kind: &str,
    value: &str,
) -> Result<u64, sqlx::Error> {
    let free = "delete from user_claim where kind = $1 and value = $2";
    with_pool!(database, pool => sqlx::query(free)
        .bind(kind).bind(value).execute(pool).await.map(|r| r.rows_affected()))
}

/// Which of `user_id`'s claims of a kind [`release`] deletes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Release {
    /// Every value but the one named (the previous values, after a success).
    AllBut,
    /// Only the value named (the claim a refused request made).
    Only,
}

/// Deletes `user_id`'s claims of `kind` that `which` names against `value`.
pub async fn release(
    database: &Database,
    kind: &str,
    user_id: &str,
    value: &str,
    which: Release,
) -> Result<u64, sqlx::Error> {
    let sql = match which {
        Release::AllBut => {
            "delete from user_claim where kind = $1 and user_id = $2 and value <> $3"
        }
        Release::Only => "delete from user_claim where kind = $1 and user_id = $2 and value = $3",
    };
    with_pool!(database, pool => sqlx::query(sql)
        .bind(kind).bind(user_id).bind(value)
        .execute(pool).await.map(|r| r.rows_affected()))
}

/// Deletes every claim of `user_id`: its phone number, then its ID number, email and
/// turn (an erasure).
pub async fn erase_user(database: &Database, user_id: &str) -> Result<(), sqlx::Error> {
    for sql in [
        "delete from user_mobile where user_id = $1",
        "delete from user_claim where user_id = $1",
    ] {
        with_pool!(database, pool => sqlx::query(sql)
            .bind(user_id).execute(pool).await.map(|r| r.rows_affected()))?;
    }
    Ok(())
}
