//! The scheduler: expires offers not withdrawn in time (9 → 13), marks overdue
//! installments and their capped fees (4.4), then asks for the day's due-date
//! reminders ([`crate::workflows::reminders`], 12.5). Each pass visits only the offers and loans
//! whose next scheduled moment has come (`Order::next_scheduled_at`, kept in
//! `order_detail`): an order is asked when something may be due, not every minute.
//!
//! Safe in several processes at once: every command is decided by the order from its
//! own state, so a repeat is a no-op (`AccrueOverdue` charges each day once,
//! `SendReminder` records each reminder once) or a harmless refusal
//! (`OfferStillValid`).

use std::time::Duration;

use aggregates::order::{OrderCommand, OrderStatus};
use aggregates::Actor;
use tokio::sync::watch;

use crate::http::envelope::ApiError;
use crate::runtime::state::AppState;
use projections::reads::schedule;

/// One pass: returns (offers expired, loans accrued).
pub async fn run_once(state: &AppState) -> Result<(usize, usize), ApiError> {
    let now = state.now();
    // Approved offers whose validity has passed (the order re-checks the time, and
    // refuses while a payout is in flight).
    let approved = schedule::orders_due(&state.database, OrderStatus::Approved, now).await?;
    let mut expired = 0;
    for (order_id, _) in approved {
        let result = state
            .execute(
                &state.orders,
                &order_id,
                || OrderCommand::ExpireOffer,
                Actor::System,
                "scheduler",
            )
            .await;
        match result {
            Ok(events) if !events.is_empty() => expired += 1,
            Ok(_) => {}
            Err(error) => tracing::info!(%order_id, msg = %error.msg, "offer not expired"),
        }
    }
    // Only the loans whose next scheduled day has come: not every loan every minute.
    let loans = schedule::orders_due(&state.database, OrderStatus::Disbursed, now).await?;
    let (mut accrued, mut reminded) = (0, 0);
    for (order_id, order) in loans {
        let result = state
            .execute(
                &state.orders,
                &order_id,
                || OrderCommand::AccrueOverdue,
                Actor::System,
                "scheduler",
            )
            .await;
        match result {
            Ok(events) if !events.is_empty() => accrued += 1,
            Ok(_) => {}
            // One order's failure must not hold back every other loan's accrual and
            // reminders: logged, and asked again on the next pass.
            Err(error) => tracing::warn!(%order_id, msg = %error.msg, "overdue not accrued"),
        }
        // After the accrual, so an installment overdue today is marked before its reminder.
        reminded += crate::workflows::reminders::remind(state, &order_id, &order, now).await;
    }
    if reminded > 0 {
        tracing::info!(reminded, "due-date reminders recorded");
    }
    let purged = crate::http::middleware::idempotency::purge_expired(state).await?;
    if purged > 0 {
        tracing::info!(purged, "expired idempotency answers removed");
    }
    Ok((expired, accrued))
}

/// Runs a pass every `every` until shutdown.
pub async fn run(state: AppState, every: Duration, mut shutdown: watch::Receiver<bool>) {
    while !*shutdown.borrow() {
        let started = std::time::Instant::now();
        let outcome = run_once(&state).await;
        let elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        match outcome {
            Ok((0, 0)) => tracing::debug!(elapsed_ms, "scheduler pass"),
            Ok((expired, accrued)) => {
                tracing::info!(expired, accrued, elapsed_ms, "scheduler pass");
            }
            Err(error) => tracing::error!(msg = %error.msg, "scheduler pass failed"),
        }
        if started.elapsed() > every {
            // The loans visited last are then reached well after their day began: an
            // operator should know before reminders and accruals arrive late.
            tracing::warn!(elapsed_ms, "a scheduler pass took longer than its interval");
        }
        tokio::select! {
            () = tokio::time::sleep(every) => {},
            _ = shutdown.changed() => {},
        }
    }
}
