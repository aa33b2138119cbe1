//! The SMS outbox relay (issue 17): with a real `SMS_PROVIDER`, every message
//! [`crate::accounts::sms::send`] writes to the `sms_outbox` table (in the transaction that
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

use crate::db::sms_outbox as db;
use crate::http::envelope::ApiError;
use crate::runtime::state::AppState;

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
    let rows = db::due(&state.database, MAX_ATTEMPTS, state.now(), BATCH).await?;
    let mut sent = 0;
    for row in rows {
        let db::Waiting {
            message_id: id,
            mobile,
            body,
            attempts,
        } = row;
        // The lease counts from the claim, not from the start of the pass: earlier
        // sends of this pass may have taken most of a lease already.
        let claimed_at = state.now();
        let lease = claimed_at + Span::seconds(LEASE_SECS);
        let claimed = db::lease(&state.database, &id, lease, claimed_at).await?;
        if claimed != 1 {
            continue; // another process has it
        }
        let masked = aggregates::types::mask(&mobile, 4);
        match sender.send(&mobile, &body).await {
            Ok(()) => {
                db::mark_sent(&state.database, &id, state.now()).await?;
                tracing::info!(mobile = %masked, attempts = attempts + 1, "SMS sent");
                sent += 1;
            }
            Err(reason) => {
                let wait = base
                    .saturating_mul(2u32.saturating_pow(attempts.clamp(0, 20) as u32))
                    .min(MAX_BACKOFF);
                let next = state.now() + Span::from_std(wait).unwrap_or(Span::seconds(300));
                db::mark_failed(&state.database, &id, next, &reason).await?;
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
