//! `idempotency`: one row per (caller, `Idempotency-Key`): the request's fingerprint,
//! its answer once it succeeded, when the key was first claimed and when the current
//! claim was written. The statements of the middleware `crate::http::middleware::idempotency`, which
//! holds the rules (which calls take a key, when a claim is abandoned, what a repeat
//! answers). Every statement on a claim matches the `claimed_at` its request wrote,
//! so a request that outlived a takeover never touches the newer run's claim.

use chrono::{DateTime, Utc};
use projections::projection::time_text;
use projections::store::Database;

use super::with_pool;

/// Claims `key` for `scope` at `at` with `request_hash`, or replaces a claim created
/// before `expired_before` (an answer past its time), in one statement: 1 when this
/// call claimed it, 0 when it is held.
pub async fn claim(
    database: &Database,
    scope: &str,
    key: &str,
    request_hash: &str,
    at: &str,
    expired_before: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let sql =
        "insert into idempotency (scope, key, request_hash, response, created_at, claimed_at) \
         values ($1, $2, $3, null, $4, $4) on conflict (scope, key) do update set \
         request_hash = excluded.request_hash, response = null, \
         created_at = excluded.created_at, claimed_at = excluded.claimed_at \
         where idempotency.created_at < $5";
    let expired_before = time_text(expired_before);
    with_pool!(database, pool => sqlx::query(sql)
        .bind(scope).bind(key).bind(request_hash).bind(at).bind(&expired_before)
        .execute(pool).await.map(|r| r.rows_affected()))
}

/// A key as stored.
#[derive(Debug, sqlx::FromRow)]
pub struct KeyRow {
    /// The fingerprint of the request that claimed it.
    pub request_hash: String,
    /// Its answer, once it succeeded.
    pub response: Option<String>,
    /// When it was first claimed.
    pub created_at: String,
    /// When the current claim was written.
    pub claimed_at: Option<String>,
}

/// The key `key` of `scope`, if claimed.
pub async fn find(
    database: &Database,
    scope: &str,
    key: &str,
) -> Result<Option<KeyRow>, sqlx::Error> {
    let sql = "select request_hash, response, created_at, claimed_at from idempotency \
               where scope = $1 and key = $2";
    with_pool!(database, pool =>
        sqlx::query_as(sql).bind(scope).bind(key).fetch_optional(pool).await)
}

/// Takes over the unanswered claim written at `claimed_at`, writing `at`
/// (compare-and-set): 1 when this call now holds it.
pub async fn take_over(
    database: &Database,
    scope: &str,
    key: &str,
    claimed_at: &str,
    at: &str,
) -> Result<u64, sqlx::Error> {
    let sql = "update idempotency set claimed_at = $1 \
               where scope = $2 and key = $3 and response is null \
               and coalesce(claimed_at, created_at) = $4";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(at).bind(scope).bind(key).bind(claimed_at)
        .execute(pool).await.map(|r| r.rows_affected()))
}

/// Stores `response`, the success to replay, on the claim written at `claimed_at`.
pub async fn store_answer(
    database: &Database,
    scope: &str,
    key: &str,
    claimed_at: &str,
    response: &str,
) -> Result<u64, sqlx::Error> {
    let sql = "update idempotency set response = $1 \
               where scope = $2 and key = $3 and claimed_at = $4";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(response).bind(scope).bind(key).bind(claimed_at)
        .execute(pool).await.map(|r| r.rows_affected()))
}

/// Leaves the unanswered claim written at `claimed_at` as a crash leaves it, but free
/// to take over at once (its claim time moved to the Unix epoch).
pub async fn free(
    database: &Database,
    scope: &str,
    key: &str,
    claimed_at: &str,
) -> Result<u64, sqlx::Error> {
    let sql = "update idempotency set claimed_at = $1 \
               where scope = $2 and key = $3 and response is null and claimed_at = $4";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(time_text(DateTime::UNIX_EPOCH)).bind(scope).bind(key)
        .bind(claimed_at).execute(pool).await.map(|r| r.rows_affected()))
}

/// Releases the unanswered claim written at `claimed_at` (the key may be claimed
/// afresh).
pub async fn release(
    database: &Database,
    scope: &str,
    key: &str,
    claimed_at: &str,
) -> Result<u64, sqlx::Error> {
    let sql = "delete from idempotency \
               where scope = $1 and key = $2 and response is null and claimed_at = $3";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(scope).bind(key).bind(claimed_at)
        .execute(pool).await.map(|r| r.rows_affected()))
}

/// Deletes every key first claimed before `before`.
pub async fn purge_before(database: &Database, before: DateTime<Utc>) -> Result<u64, sqlx::Error> {
    let sql = "delete from idempotency where created_at < $1";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(time_text(before)).execute(pool).await.map(|r| r.rows_affected()))
}

/// Deletes every key of `scope` and its stored answers (an erasure).
pub async fn erase_scope(database: &Database, scope: &str) -> Result<u64, sqlx::Error> {
    let sql = "delete from idempotency where scope = $1";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(scope).execute(pool).await.map(|r| r.rows_affected()))
}
