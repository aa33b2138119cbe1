//! Due-date reminders (PRODUCT.md 12.5, issue 16): an SMS through the outbox and an
//! in-app notice 3 days and 1 day before each installment's due date and on the day
//! it becomes overdue, each exactly once.
//!
//! Where each part lives (DESIGN.md "Where each rule lives"):
//! - **the rule** ("each reminder once, only while owed, only within its window") is the
//!   Order's: [`OrderCommand::SendReminder`] records `ReminderDue` or nothing;
//! - **the scheduler's pass** ([`pass`]) only finds candidates: the installments of
//!   repaying loans (`order_detail`) with a reminder open today (its day, or a missed
//!   day made up: [`ReminderKind::is_open`]), less those the inbox already shows. A
//!   stale read model can only make it ask again, and the order then records nothing;
//! - **the SMS** is queued by [`ReminderWorker`], a workflow reacting to `ReminderDue`
//!   after it is committed (never inside `handle`): one outbox row keyed by the event
//!   (`reminder:<order id>:<sequence>`, unique), so a restart or a second process
//!   inserts nothing the second time;
//! - **the notice** is a row of the `notice` read model written by the `orders`
//!   projection ([`projections::notices`]).
//!
//! Two api processes running the pass at once send the same command to the same
//! order: the event store's optimistic concurrency lets one `ReminderDue` commit, the
//! other command is retried ([`AppState::execute`]), finds the reminder recorded and
//! records nothing. An installment paid between the pass's look and the command is
//! refused by the order in the same way (nothing recorded).

use std::collections::HashSet;

use aggregates::order::{
    OrderCommand, OrderEvent, OrderStatus, ReminderKind, LONGEST_CATCH_UP_DAYS,
};
use aggregates::Actor;
use chrono::{DateTime, Days, NaiveDate, NaiveTime, Utc};
use projections::consumer::Workflow;
use projections::projection::time_text;
use projections::reads::schedule;
use projections::store::StoredEvent;
use projections::ProjectionError;
use rust_decimal::Decimal;

use crate::db::with_pool;
use crate::envelope::ApiError;
use crate::payment::grouped_money;
use crate::state::AppState;

/// One scheduler pass: asks each order with an installment whose reminder is open
/// today (UTC, the state's clock: its day, or a day a pass missed, made up) to record
/// that reminder; returns how many reminders were recorded. An order that refuses
/// or fails is logged and the pass goes on with the others; an unreadable read model
/// is an error.
pub async fn pass(state: &AppState) -> Result<usize, ApiError> {
    let today = state.now().date_naive();
    let loans = schedule::orders_in_status(&state.database, OrderStatus::Disbursed).await?;
    // A reminder open today was recorded, if at all, no earlier than its window's
    // first day, at most LONGEST_CATCH_UP_DAYS before today.
    let since = today - Days::new(LONGEST_CATCH_UP_DAYS);
    let shown = notices_recorded_since(state, since).await?;
    let mut recorded = 0;
    for (order_id, doc) in loans {
        let doc: serde_json::Value = serde_json::from_str(&doc).map_err(ApiError::internal)?;
        for (period, kind) in candidates(&doc, today) {
            if shown.contains(&(order_id.clone(), i64::from(period), kind.as_str())) {
                continue;
            }
            let command = || OrderCommand::SendReminder { period, kind };
            match state
                .execute(
                    &state.orders,
                    &order_id,
                    command,
                    Actor::System,
                    "scheduler",
                )
                .await
            {
                Ok(events) => recorded += events.len(),
                Err(error) => {
                    tracing::warn!(%order_id, period, kind = kind.as_str(), msg = %error.msg, "reminder not recorded");
                }
            }
        }
    }
    Ok(recorded)
}

/// The (installment, kind) reminders of an `order_detail` document open on `today`,
/// for installments not yet repaid (status 1). The order re-checks all of it.
fn candidates(doc: &serde_json::Value, today: NaiveDate) -> Vec<(u32, ReminderKind)> {
    let Some(paid_on) = doc["paidAt"]
        .as_str()
        .and_then(|at| at.parse::<DateTime<Utc>>().ok())
        .map(|at| at.date_naive())
    else {
        return Vec::new();
    };
    let views = doc["periodViews"].as_array().cloned().unwrap_or_default();
    let mut found = Vec::new();
    for view in views {
        let period = view["period"].as_u64().and_then(|p| u32::try_from(p).ok());
        let due = view["dueDate"]
            .as_str()
            .and_then(|d| d.parse::<NaiveDate>().ok());
        let (Some(period), Some(due)) = (period, due) else {
            continue;
        };
        if view["status"].as_u64() == Some(1) {
            continue;
        }
        for kind in ReminderKind::ALL {
            if kind.is_open(due, paid_on, today) {
                found.push((period, kind));
            }
        }
    }
    found
}

/// The reminders the inbox already shows that were recorded on or after the day
/// `since` (UTC): (order id, installment, kind).
async fn notices_recorded_since(
    state: &AppState,
    since: NaiveDate,
) -> Result<HashSet<(String, i64, &'static str)>, ApiError> {
    let start = time_text(since.and_time(NaiveTime::MIN).and_utc());
    let rows = schedule::notices_since(&state.database, &start).await?;
    Ok(rows
        .into_iter()
        .filter_map(|(order, period, kind)| {
            ReminderKind::parse(&kind).map(|kind| (order, period, kind.as_str()))
        })
        .collect())
}

/// The text of a reminder SMS (PRODUCT.md 12.5 and section 0): who sends it, the
/// amount with the currency code (plain GSM characters, so it stays one message
/// where it can), the due date spelled out (`25 Nov 2026`, never "tomorrow", which
/// depends on the reader's time zone), and how to pay. No threats; overdue fees are
/// mentioned only when the contract has them.
pub fn reminder_text(
    lender: &str,
    currency_code: &str,
    kind: ReminderKind,
    period: u32,
    amount: Decimal,
    due_date: NaiveDate,
    overdue_fees_apply: bool,
) -> String {
    let amount = format!("{currency_code} {}", grouped_money(amount));
    let date = due_date.format("%-d %b %Y");
    let how = "You can pay in the app under Repay.";
    match kind {
        ReminderKind::DueIn3Days | ReminderKind::DueIn1Day => {
            format!("{lender}: installment {period} of {amount} is due on {date}. {how}")
        }
        ReminderKind::Overdue => {
            let fees = if overdue_fees_apply {
                " Overdue fees apply as set out in your contract."
            } else {
                ""
            };
            format!(
                "{lender}: installment {period} of {amount} was due on {date} and is now overdue. {how}{fees} Questions? Contact customer service in the app."
            )
        }
    }
}

/// Checkpoint name of the reminder workflow.
pub const REMINDER_WORKER: &str = "worker:reminders";

/// The reminder workflow: after `ReminderDue` is committed it queues the SMS to the
/// borrower's registered phone in the outbox, once per event (the outbox's unique
/// `message_id`), which the relay (or the default sender's outbox) delivers. A
/// [`Workflow`] on the one consumer loop: a crash before its checkpoint moves repeats
/// the batch, and the repeat inserts nothing.
pub struct ReminderWorker {
    state: AppState,
}

impl ReminderWorker {
    /// A workflow writing to `state`'s outbox.
    pub fn new(state: AppState) -> Self {
        Self { state }
    }

    /// Queues every reminder after its checkpoint; how many events it read.
    pub async fn catch_up(&self) -> Result<usize, ProjectionError> {
        projections::consumer::workflow_catch_up(self).await
    }

    async fn queue_sms(&self, event: &StoredEvent) -> Result<(), ProjectionError> {
        let state = &self.state;
        let payload: OrderEvent =
            event
                .payload
                .decode()
                .map_err(|source| ProjectionError::Decode {
                    what: "ReminderDue",
                    position: event.position,
                    source,
                })?;
        let OrderEvent::ReminderDue {
            period,
            kind,
            due_date,
            amount,
            ..
        } = payload
        else {
            return Ok(());
        };
        let load = |error: String| ProjectionError::Load(error);
        let order = state
            .orders
            .load(&event.aggregate_id)
            .await
            .map_err(|e| load(e.to_string()))?;
        let user = state
            .users
            .load(&order.user_id.to_string())
            .await
            .map_err(|e| load(e.to_string()))?;
        if user.mobile.is_empty() {
            tracing::warn!(order_id = %event.aggregate_id, "reminder not texted: no phone on file");
            return Ok(());
        }
        let fees = order
            .loan
            .as_ref()
            .is_some_and(|loan| loan.terms.overdue_daily_rate > 0);
        let body = reminder_text(
            &state.config.lender.legal_name,
            &state.config.currency.code,
            kind,
            period,
            amount,
            due_date,
            fees,
        );
        let message_id = format!("reminder:{}:{}", event.aggregate_id, event.sequence);
        let sql = "insert into sms_outbox (mobile, body, created_at, message_id) \
                   values ($1, $2, $3, $4) on conflict (message_id) do nothing";
        let now = time_text(state.now());
        let inserted = with_pool!(&state.database, pool => sqlx::query(sql)
            .bind(&user.mobile).bind(&body).bind(&now).bind(&message_id)
            .execute(pool).await.map(|r| r.rows_affected()))?;
        let masked = aggregates::types::mask(&user.mobile, 4);
        if inserted == 1 {
            tracing::info!(mobile = %masked, period, kind = kind.as_str(), "reminder SMS queued");
        }
        Ok(())
    }
}

#[async_trait::async_trait]
impl Workflow for ReminderWorker {
    fn name(&self) -> &'static str {
        REMINDER_WORKER
    }

    fn database(&self) -> &projections::store::Database {
        &self.state.database
    }

    fn reacts_to(&self, event: &StoredEvent) -> bool {
        event.aggregate_type == "Order" && event.event_type == "ReminderDue"
    }

    #[tracing::instrument(name = "reminder", skip_all, fields(
        aggregate = %event.aggregate_id,
        sequence = event.sequence,
    ))]
    async fn react(&self, event: &StoredEvent) -> Result<(), ProjectionError> {
        self.queue_sms(event).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn dec(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    #[test]
    fn the_text_states_amount_date_and_how_to_pay_without_threats() {
        let due = reminder_text(
            "Honest Lending Corporation",
            "PHP",
            ReminderKind::DueIn3Days,
            4,
            dec("13493.3"),
            day("2026-11-26"),
            false,
        );
        assert_eq!(
            due,
            "Honest Lending Corporation: installment 4 of PHP 13,493.30 is due on 26 Nov 2026. You can pay in the app under Repay."
        );
        let overdue = reminder_text(
            "Honest Lending Corporation",
            "PHP",
            ReminderKind::Overdue,
            1,
            dec("13506.79"),
            day("2026-11-23"),
            true,
        );
        assert!(overdue.contains("PHP 13,506.79 was due on 23 Nov 2026 and is now overdue"));
        assert!(overdue.contains("Overdue fees apply as set out in your contract."));
        let without_fees = reminder_text(
            "L",
            "PHP",
            ReminderKind::Overdue,
            1,
            dec("1"),
            day("2026-11-23"),
            false,
        );
        assert!(!without_fees.contains("fees"), "{without_fees}");
        for text in [due, overdue] {
            let lower = text.to_lowercase();
            for word in [
                "police",
                "legal action",
                "arrest",
                "shame",
                "contacts",
                "must",
            ] {
                assert!(!lower.contains(word), "{word} in {text}");
            }
        }
    }

    #[test]
    fn candidates_are_the_unpaid_installments_whose_reminder_is_open_today() {
        let doc = json!({"paidAt": "2026-11-22T09:30:00.000000Z", "periodViews": [
            {"period": 1, "dueDate": "2026-11-23", "status": 0},
            {"period": 2, "dueDate": "2026-11-24", "status": 1},
            {"period": 3, "dueDate": "2026-11-25", "status": 0},
            {"period": 4, "dueDate": "2026-11-26", "status": 0},
        ]});
        // Installment 2 (due the 24th) is repaid: no reminder of it. On the 23rd,
        // installment 1's 1-day reminder (its day the 22nd) and installment 3's 3-day
        // reminder (also the 22nd) are still open, to be made up if the 22nd's passes
        // missed them; installment 1's 3-day reminder (the 20th) came before the payout.
        assert_eq!(
            candidates(&doc, day("2026-11-23")),
            vec![
                (1, ReminderKind::DueIn1Day),
                (3, ReminderKind::DueIn3Days),
                (4, ReminderKind::DueIn3Days)
            ]
        );
        assert_eq!(
            candidates(&doc, day("2026-11-24")),
            vec![
                (1, ReminderKind::Overdue),
                (3, ReminderKind::DueIn1Day),
                (4, ReminderKind::DueIn3Days)
            ]
        );
        // A week after its day the overdue reminder is no longer made up.
        assert_eq!(
            candidates(&doc, day("2026-12-01")),
            vec![(3, ReminderKind::Overdue), (4, ReminderKind::Overdue)]
        );
        assert!(candidates(&json!({}), day("2026-11-24")).is_empty());
        let unpaid = json!({"periodViews": doc["periodViews"].clone()});
        assert!(candidates(&unpaid, day("2026-11-24")).is_empty());
    }
}
