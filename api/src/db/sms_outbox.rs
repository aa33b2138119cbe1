//! `sms_outbox`: every text message the api sends, written in the transaction that
//! decides it (a verification code, [`super::sms_codes::send`]) or keyed by the event
//! that asked for it (a reminder, [`queue_once`]), then sent by the relay
//! (`crate::workflows::sms_relay`), which leases, marks and retries the rows here.

use chrono::{DateTime, Utc};
use projections::projection::time_text;
use projections::store::Database;

use super::with_pool;

/// Queues a message: `$1` mobile, `$2` body, `$3` created at, `$4` message id.
pub(super) const QUEUE: &str =
    "insert into sms_outbox (mobile, body, created_at, message_id) values ($1, $2, $3, $4)";

/// Queues `body` to `mobile` at `now` under `message_id`, to be sent from `not_before`
/// on (the contact hours, P15), unless a message of that id is queued already: 1 when
/// queued, 0 when it was there.
pub async fn queue_once(
    database: &Database,
    mobile: &str,
    body: &str,
    now: DateTime<Utc>,
    message_id: &str,
    not_before: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let sql = "insert into sms_outbox (mobile, body, created_at, message_id, next_attempt_at) \
               values ($1, $2, $3, $4, $5) on conflict (message_id) do nothing";
    let (now, not_before) = (time_text(now), time_text(not_before));
    with_pool!(database, pool => sqlx::query(sql)
        .bind(mobile).bind(body).bind(&now).bind(message_id).bind(&not_before)
        .execute(pool).await.map(|r| r.rows_affected()))
}

/// A message waiting to be sent.
#[derive(Debug, sqlx::FromRow)]
pub struct Waiting {
    /// Its id.
    pub message_id: String,
    /// The phone number.
    pub mobile: String,
    /// The text.
    pub body: String,
    /// Attempts so far.
    pub attempts: i64,
}

/// Up to `limit` unsent messages, oldest first, with fewer than `max_attempts`
/// attempts, not leased or waiting beyond `now`.
pub async fn due(
    database: &Database,
    max_attempts: i64,
    now: DateTime<Utc>,
    limit: i64,
) -> Result<Vec<Waiting>, sqlx::Error> {
    // `attempts` is an `integer` (INT4) on PostgreSQL: widened to the i64 it is read as.
    let due =
        "select message_id, mobile, body, cast(attempts as bigint) as attempts from sms_outbox \
               where message_id is not null and sent_at is null and attempts < $1 \
               and (next_attempt_at is null or next_attempt_at <= $2) \
               order by created_at limit $3";
    with_pool!(database, pool =>
        sqlx::query_as(due).bind(max_attempts).bind(time_text(now)).bind(limit).fetch_all(pool).await)
}

/// Leases `message_id` until `until` if it is still unsent and free at `now` (one
/// conditional update): 1 when this call has it, 0 when another process does.
pub async fn lease(
    database: &Database,
    message_id: &str,
    until: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let claim = "update sms_outbox set next_attempt_at = $1 where message_id = $2 \
                 and sent_at is null and (next_attempt_at is null or next_attempt_at <= $3)";
    with_pool!(database, pool => sqlx::query(claim)
        .bind(time_text(until)).bind(message_id).bind(time_text(now))
        .execute(pool).await.map(|r| r.rows_affected()))
}

/// Marks `message_id` sent at `now`.
pub async fn mark_sent(
    database: &Database,
    message_id: &str,
    now: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let done = "update sms_outbox set sent_at = $1, last_error = null where message_id = $2";
    with_pool!(database, pool => sqlx::query(done)
        .bind(time_text(now)).bind(message_id).execute(pool).await.map(|r| r.rows_affected()))
}

/// Counts a failed attempt of `message_id` with its `reason`; the next is at `next`.
pub async fn mark_failed(
    database: &Database,
    message_id: &str,
    next: DateTime<Utc>,
    reason: &str,
) -> Result<u64, sqlx::Error> {
    let failed = "update sms_outbox set attempts = attempts + 1, next_attempt_at = $1, \
                  last_error = $2 where message_id = $3";
    with_pool!(database, pool => sqlx::query(failed)
        .bind(time_text(next)).bind(reason).bind(message_id)
        .execute(pool).await.map(|r| r.rows_affected()))
}

/// Deletes every message to `mobile` (an erasure).
pub async fn erase_mobile(database: &Database, mobile: &str) -> Result<u64, sqlx::Error> {
    let sql = "delete from sms_outbox where mobile = $1";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(mobile).execute(pool).await.map(|r| r.rows_affected()))
}
