//! The SMS outbox relay (issue 17): with a real `SMS_PROVIDER`, every message
//! [`crate::sms::send`] writes to the `sms_outbox` table (in the transaction that
//! records its code) is sent by this loop, so a gateway outage delays a text but
//! never loses it, and a request never waits on the gateway.
//!
//! A message is claimed by moving its `next_attempt_at` past now in one conditional
//! `UPDATE` (a lease: another api process skips it), sent, and marked `sent_at`; a
//! failure counts an attempt and waits `base × 2^attempts` (at most [`MAX_BACKOFF`])
//! before the next. After [`MAX_ATTEMPTS`] it is left with its last error for an
//! operator; by then its code has expired anyway. Delivery is at least once: a crash
//! between the gateway's answer and the `sent_at` update texts the message again
//! after the lease, which for a verification code is harmless.

use std::sync::Arc;
use std::time::Duration;

use chrono::Duration as Span;
use tokio::sync::watch;

use crate::db::with_pool;
use crate::envelope::ApiError;
use crate::state::AppState;
use projections::projection::time_text;

/// Sends one text message.
#[async_trait::async_trait]
pub trait SmsSender: Send + Sync {
    /// Sends `body` to `mobile`; `Err` with a reason the relay logs and retries.
    async fn send(&self, mobile: &str, body: &str) -> Result<(), String>;
}

/// Attempts per message before the relay gives up on it.
pub const MAX_ATTEMPTS: i64 = 10;
/// The longest wait between two attempts.
pub const MAX_BACKOFF: Duration = Duration::from_secs(300);
/// How long a claimed message is left to the process that claimed it.
const LEASE_SECS: i64 = 60;
/// Messages one pass takes.
const BATCH: i64 = 20;

/// Sends what is due; how many messages were sent. `base` is the first backoff.
pub async fn pass(
    state: &AppState,
    sender: &dyn SmsSender,
    base: Duration,
) -> Result<usize, ApiError> {
    let now = state.now();
    let due = "select message_id, mobile, body, attempts from sms_outbox \
               where message_id is not null and sent_at is null and attempts < $1 \
               and (next_attempt_at is null or next_attempt_at <= $2) \
               order by created_at limit $3";
    let rows: Vec<(String, String, String, i64)> = with_pool!(&state.database, pool =>
        sqlx::query_as(due).bind(MAX_ATTEMPTS).bind(time_text(now)).bind(BATCH).fetch_all(pool).await)?;
    let mut sent = 0;
    for (id, mobile, body, attempts) in rows {
        let claim = "update sms_outbox set next_attempt_at = $1 where message_id = $2 \
                     and sent_at is null and (next_attempt_at is null or next_attempt_at <= $3)";
        // The lease counts from the claim, not from the start of the pass: earlier
        // sends of this pass may have taken most of a lease already.
        let claimed_at = state.now();
        let lease = time_text(claimed_at + Span::seconds(LEASE_SECS));
        let claimed = with_pool!(&state.database, pool => sqlx::query(claim)
            .bind(&lease).bind(&id).bind(time_text(claimed_at)).execute(pool).await.map(|r| r.rows_affected()))?;
        if claimed != 1 {
            continue; // another process has it
        }
        let masked = aggregates::types::mask(&mobile, 4);
        match sender.send(&mobile, &body).await {
            Ok(()) => {
                let done =
                    "update sms_outbox set sent_at = $1, last_error = null where message_id = $2";
                with_pool!(&state.database, pool => sqlx::query(done)
                    .bind(time_text(state.now())).bind(&id).execute(pool).await.map(|r| r.rows_affected()))?;
                tracing::info!(mobile = %masked, attempts = attempts + 1, "SMS sent");
                sent += 1;
            }
            Err(reason) => {
                let wait = base
                    .saturating_mul(2u32.saturating_pow(attempts.clamp(0, 20) as u32))
                    .min(MAX_BACKOFF);
                let next = state.now() + Span::from_std(wait).unwrap_or(Span::seconds(300));
                let failed =
                    "update sms_outbox set attempts = attempts + 1, next_attempt_at = $1, \
                              last_error = $2 where message_id = $3";
                with_pool!(&state.database, pool => sqlx::query(failed)
                    .bind(time_text(next)).bind(&reason).bind(&id).execute(pool).await.map(|r| r.rows_affected()))?;
                if attempts + 1 >= MAX_ATTEMPTS {
                    tracing::error!(mobile = %masked, %reason, "SMS not sent after every attempt; left in the outbox");
                } else {
                    tracing::warn!(mobile = %masked, %reason, "SMS not sent; retrying");
                }
            }
        }
    }
    Ok(sent)
}

/// Runs [`pass`] every `every` until `shutdown` (one second in the server: a code is
/// waited for by a person).
pub async fn run(
    state: AppState,
    sender: Arc<dyn SmsSender>,
    every: Duration,
    mut shutdown: watch::Receiver<bool>,
) {
    let base = Duration::from_secs(2);
    while !*shutdown.borrow() {
        if let Err(error) = pass(&state, sender.as_ref(), base).await {
            tracing::error!(error = %error.msg, "SMS relay pass failed; retrying");
        }
        tokio::select! {
            () = tokio::time::sleep(every) => {},
            _ = shutdown.changed() => {},
        }
    }
}
