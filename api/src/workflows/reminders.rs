//! Due-date reminders (PRODUCT.md 12.5, issue 16): an SMS through the outbox and an
//! in-app notice 3 days and 1 day before each installment's due date and on the day
//! it becomes overdue, each exactly once; and the officers' collection texts (issue
//! 53): the lender's template an officer picked, texted once per `ContactLogged`. Both
//! keep the contact hours (P15, [`queue_within_hours`]).
//!
//! Where each part lives (DESIGN.md "Where each rule lives"):
//! - **the rule** ("each reminder once, only while owed, only within its window") is the
//!   Order's: [`OrderCommand::SendReminder`] records `ReminderDue` or nothing;
//! - **the scheduler's pass** ([`crate::workflows::scheduler`], [`remind`]) only finds
//!   candidates: of the loans whose next scheduled day has come
//!   (`Order::next_scheduled_at`, kept in `order_detail`), the reminders open today
//!   in the folded order of the read model (its day, or a missed day made up:
//!   [`Order::open_reminders`], the predicate the command itself checks). A stale
//!   read model can only make it ask again, and the order then records nothing;
//! - **the SMS** is queued by [`ReminderWorker`], a workflow reacting to `ReminderDue`
//!   after it is committed (never inside `handle`): one outbox row keyed by the event
//!   (`reminder:<order id>:<sequence>`, unique), so a restart or a second process
//!   inserts nothing the second time; and only while the reminder is still true
//!   ([`Order::reminder_holds`]), so a step run late sends no stale text;
//! - **the notice** is a row of the `notice` read model written by the `orders`
//!   projection ([`projections::read_models::notices`]).
//!
//! Two api processes running the pass at once send the same command to the same
//! order: the event store's optimistic concurrency lets one `ReminderDue` commit, the
//! other command is retried ([`AppState::execute`]), finds the reminder recorded and
//! records nothing. An installment paid between the pass's look and the command is
//! refused by the order in the same way (nothing recorded).

use aggregates::order::{Order, OrderCommand, OrderEvent, ReminderKind};
use aggregates::Actor;
use chrono::{DateTime, NaiveDate, Utc};
use projections::consumer::Workflow;
use projections::store::StoredEvent;
use projections::ProjectionError;
use rust_decimal::Decimal;

use crate::documents::Lang;
use crate::runtime::state::AppState;

/// Asks `order_id` to record each reminder open on `today` (UTC, the state's clock),
/// as `order_state` (its `order_detail.state`, the folded order) names them
/// ([`Order::open_reminders`]: its day, or a day a pass missed, made up); returns
/// how many were recorded. The order decides each again from its own events: a
/// stale row can only make it ask once more and record nothing. A refusal or a
/// failure is logged, and the next pass asks again.
pub async fn remind(
    state: &AppState,
    order_id: &str,
    order_state: &str,
    now: DateTime<Utc>,
) -> usize {
    let order: Order = match serde_json::from_str(order_state) {
        Ok(order) => order,
        Err(error) => {
            tracing::error!(%order_id, %error, "order_detail.state does not decode; no reminder asked");
            return 0;
        }
    };
    let mut recorded = 0;
    for (period, kind) in order.open_reminders(order.day_of(now)) {
        let command = || OrderCommand::SendReminder { period, kind };
        match state
            .execute(&state.orders, order_id, command, Actor::System, "scheduler")
            .await
        {
            Ok(events) => recorded += events.len(),
            Err(error) => {
                tracing::warn!(%order_id, period, kind = kind.as_str(), msg = %error.msg, "reminder not recorded");
            }
        }
    }
    recorded
}

/// The text of a reminder SMS (PRODUCT.md 12.5 and section 0) in `lang` (the
/// borrower's, issue 52): who sends it, the amount with the currency code (plain
/// characters, so an English or Filipino text stays one message where it can), the
/// due date spelled out (`25 Nov 2026`, `2026年11月25日`; never "tomorrow", which
/// depends on the reader's time zone), and how to pay, naming the app's own "Repay"
/// in that language. No threats; overdue fees are mentioned only when the contract
/// has them.
#[allow(clippy::too_many_arguments)] // the facts of one text, each named at the call
pub fn reminder_text(
    lang: Lang,
    lender: &str,
    currency_code: &str,
    kind: ReminderKind,
    period: u32,
    amount: Decimal,
    due_date: NaiveDate,
    overdue_fees_apply: bool,
) -> String {
    let amount = format!("{currency_code} {}", aggregates::money::grouped(amount));
    let overdue = kind == ReminderKind::Overdue;
    match lang {
        Lang::En | Lang::Fil => {
            let date = due_date.format("%-d %b %Y");
            let fil = lang == Lang::Fil;
            let how = if fil {
                "Puwede kang magbayad sa app sa Magbayad."
            } else {
                "You can pay in the app under Repay."
            };
            let fees = match (overdue_fees_apply, fil) {
                (false, _) => "",
                (true, false) => " Overdue fees apply as set out in your contract.",
                (true, true) => " May multa sa pagkaantala ayon sa kontrata mo.",
            };
            match (overdue, fil) {
                (false, false) => {
                    format!("{lender}: installment {period} of {amount} is due on {date}. {how}")
                }
                (false, true) => format!(
                    "{lender}: ang hulog {period} na {amount} ay dapat bayaran sa {date}. {how}"
                ),
                (true, false) => format!(
                    "{lender}: installment {period} of {amount} was due on {date} and is now overdue. {how}{fees} Questions? Contact customer service in the app."
                ),
                (true, true) => format!(
                    "{lender}: ang hulog {period} na {amount} ay dapat nabayaran noong {date} at lampas na sa takdang petsa. {how}{fees} May tanong? Makipag-ugnayan sa customer service sa app."
                ),
            }
        }
        Lang::Zh => {
            let date = due_date.format("%Y年%-m月%-d日");
            let how = "您可在应用的“还款”中付款。";
            if overdue {
                let fees = if overdue_fees_apply {
                    "逾期费用按您的合同收取。"
                } else {
                    ""
                };
                format!("{lender}：第 {period} 期 {amount} 已于 {date} 到期，现已逾期。{how}{fees}如有疑问，请在应用中联系客服。")
            } else {
                format!("{lender}：第 {period} 期 {amount} 将于 {date} 到期。{how}")
            }
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
        let payload = decode(event, "ReminderDue")?;
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
        let order = self.order(&event.aggregate_id).await?;
        // This step may run well after the reminder was recorded (a backlog, a
        // restart): by then the installment may be paid or the window closed, and
        // the text would no longer be true. The in-app notice stays, dated.
        let today = order.day_of(state.now());
        if order.reminder_holds(period, kind, today).is_none() {
            tracing::info!(order_id = %event.aggregate_id, period, kind = kind.as_str(),
                "reminder not texted: no longer true");
            return Ok(());
        }
        let user = self.borrower(&order).await?;
        if user.mobile.is_empty() {
            tracing::warn!(order_id = %event.aggregate_id, "reminder not texted: no phone on file");
            return Ok(());
        }
        let fees = order
            .loan
            .as_ref()
            .is_some_and(|loan| loan.terms.pricing.overdue_daily_rate > 0);
        // The language the borrower registered in (the privacy notice they read).
        let lang = user
            .privacy_consent
            .as_ref()
            .and_then(|consent| Lang::pick(consent.language.as_deref(), None))
            .unwrap_or(Lang::En);
        let body = reminder_text(
            lang,
            &state.config.lender.legal_name,
            &state.config.currency.code,
            kind,
            period,
            amount,
            due_date,
            fees,
        );
        let message_id = format!("reminder:{}:{}", event.aggregate_id, event.sequence);
        let inserted = queue_within_hours(state, &user.mobile, &body, &message_id).await?;
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
        event.aggregate_type == "Order"
            && matches!(event.event_type.as_str(), "ReminderDue" | "ContactLogged")
    }

    #[tracing::instrument(name = "reminder", skip_all, fields(
        aggregate = %event.aggregate_id,
        sequence = event.sequence,
    ))]
    async fn react(&self, event: &StoredEvent) -> Result<(), ProjectionError> {
        match event.event_type.as_str() {
            "ContactLogged" => self.queue_collection_text(event).await,
            _ => self.queue_sms(event).await,
        }
    }
}

impl ReminderWorker {
    /// The order `order_id` as the write side folds it.
    async fn order(&self, order_id: &str) -> Result<Order, ProjectionError> {
        let order = self.state.orders.load(order_id).await;
        order.map_err(|e| ProjectionError::Load(e.to_string()))
    }

    /// The borrower of `order` as the write side folds them.
    async fn borrower(&self, order: &Order) -> Result<aggregates::user::User, ProjectionError> {
        self.state
            .users
            .load(&order.user_id.to_string())
            .await
            .map_err(|e| ProjectionError::Load(e.to_string()))
    }

    /// An officer's collection SMS (`ContactLogged` with a template, P15): the
    /// lender's template in the borrower's language, with the lender and the amount
    /// overdue, queued once per event (`collection:<order id>:<sequence>`) within the
    /// contact hours.
    async fn queue_collection_text(&self, event: &StoredEvent) -> Result<(), ProjectionError> {
        let state = &self.state;
        let payload = decode(event, "ContactLogged")?;
        let OrderEvent::ContactLogged {
            template: Some(template),
            ..
        } = payload
        else {
            return Ok(());
        };
        let Some(texts) = state.config.collection_templates.get(&template) else {
            tracing::warn!(%template, "collection text not sent: the template is no longer configured");
            return Ok(());
        };
        let order = self.order(&event.aggregate_id).await?;
        let user = self.borrower(&order).await?;
        if user.mobile.is_empty() {
            return Ok(());
        }
        let lang = user
            .privacy_consent
            .as_ref()
            .and_then(|consent| consent.language.clone())
            .filter(|language| texts.contains_key(language))
            .unwrap_or_else(|| "en".to_string());
        let overdue: Decimal = order.loan.as_ref().map_or(Decimal::ZERO, |loan| {
            loan.schedule
                .iter()
                .filter(|i| i.overdue)
                .map(|i| i.unpaid())
                .sum()
        });
        let amount = format!(
            "{} {}",
            state.config.currency.code,
            aggregates::money::grouped(overdue)
        );
        let body = texts
            .get(&lang)
            .or_else(|| texts.get("en"))
            .map(|text| {
                text.replace("{lender}", &state.config.lender.legal_name)
                    .replace("{amount}", &amount)
            })
            .unwrap_or_default();
        let message_id = format!("collection:{}:{}", event.aggregate_id, event.sequence);
        queue_within_hours(state, &user.mobile, &body, &message_id).await?;
        Ok(())
    }
}

/// The Order event `event` carries (`what` names it in the error).
fn decode(event: &StoredEvent, what: &'static str) -> Result<OrderEvent, ProjectionError> {
    event
        .payload
        .decode()
        .map_err(|source| ProjectionError::Decode {
            what,
            position: event.position,
            source,
        })
}

/// Queues a system message to a borrower (`message_id` once) to be sent within the
/// profile's contact hours (P15): one due at night waits for the next allowed moment
/// (`ContactRules::next_allowed`). 1 when queued, 0 when it was already.
pub async fn queue_within_hours(
    state: &AppState,
    mobile: &str,
    body: &str,
    message_id: &str,
) -> Result<u64, sqlx::Error> {
    let now = state.now();
    let rules = aggregates::pricing::CompliancePolicy::contact_rules(&state.env.compliance_profile)
        .with_holidays(state.config.public_holidays.iter().copied());
    let not_before = rules.next_allowed(now);
    crate::db::sms_outbox::queue_once(&state.database, mobile, body, now, message_id, not_before)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    #[test]
    fn the_text_states_amount_date_and_how_to_pay_without_threats() {
        let due = reminder_text(
            Lang::En,
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
            Lang::En,
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
            Lang::En,
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
    fn the_text_is_in_the_borrowers_language() {
        let text = |lang, kind| {
            reminder_text(
                lang,
                "HLC",
                "PHP",
                kind,
                4,
                dec("13493.3"),
                day("2026-11-26"),
                true,
            )
        };
        assert_eq!(
            text(Lang::Zh, ReminderKind::DueIn1Day),
            "HLC：第 4 期 PHP 13,493.30 将于 2026年11月26日 到期。您可在应用的“还款”中付款。"
        );
        let overdue = text(Lang::Zh, ReminderKind::Overdue);
        assert!(
            overdue.contains("现已逾期") && overdue.contains("逾期费用按您的合同收取"),
            "{overdue}"
        );
        assert_eq!(
            text(Lang::Fil, ReminderKind::DueIn3Days),
            "HLC: ang hulog 4 na PHP 13,493.30 ay dapat bayaran sa 26 Nov 2026. Puwede kang magbayad sa app sa Magbayad."
        );
        let overdue = text(Lang::Fil, ReminderKind::Overdue);
        assert!(
            overdue.contains("lampas na sa takdang petsa") && overdue.contains("May multa"),
            "{overdue}"
        );
        for lang in [Lang::Zh, Lang::Fil] {
            for kind in [ReminderKind::DueIn1Day, ReminderKind::Overdue] {
                assert!(
                    !text(lang, kind).contains("You can pay"),
                    "{lang:?} {kind:?} is in English"
                );
            }
        }
    }
}
