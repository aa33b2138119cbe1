//! `orders`: every read model fed by Order events — `order_detail`, `order_list`,
//! `loan_progress`, `audit_queue`, `last_withdraw_error`, `order_timeline`,
//! `transactions` (PRODUCT.md sections 8 and 10) and the inbox's `notice`
//! ([`crate::read_models::notices`], 12.5).
//!
//! The folded `Order` is kept in `order_detail.state`; each event is applied to it
//! with the aggregate's own `apply`, so the read side can never disagree with the
//! write side about what an event means.

use aggregates::order::{InstallmentStatus, Order, OrderEvent, OrderStatus, PlanInstallment};
use aggregates::pricing::daily_rate_pct;
use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use cqrs_es::Aggregate;
use rust_decimal::Decimal;
use uuid::Uuid;

use crate::projection::{
    actor_of, decode, money_text, time_text, to_json, Projection, ProjectionError, StateCache,
};
use crate::rows::{Kind, Row, RowStore, TableSpec, Value};
use crate::store::StoredEvent;
use crate::views::collections::CollectionEntry;
use crate::views::{plan_lines, Installment, OrderDoc, PlanOffer, TimelineDetail, TimelineEntry};

/// `order_detail`: the whole order (`/loan/orderInfo`).
pub static ORDER_DETAIL: TableSpec = TableSpec {
    name: "order_detail",
    key_len: 1,
    columns: &[
        ("order_id", Kind::Text),
        ("user_id", Kind::Text),
        ("status", Kind::Int),
        ("applied_at", Kind::Text),
        ("doc", Kind::Text),
        ("state", Kind::Text),
        ("next_scheduled_at", Kind::Text),
    ],
};

/// `order_detail.next_scheduled_at` of an order no scheduler pass need visit until
/// another event changes it (migration 0016).
pub const NEVER_SCHEDULED: &str = "9999-12-31";

/// `order_list`: a borrower's orders (`/loan/getUserOrderList`).
pub static ORDER_LIST: TableSpec = TableSpec {
    name: "order_list",
    key_len: 1,
    columns: &[
        ("order_id", Kind::Text),
        ("user_id", Kind::Text),
        ("status", Kind::Int),
        ("principal", Kind::Text),
        ("applied_at", Kind::Text),
        ("order_no", Kind::Text),
    ],
};

/// `loan_progress`: the borrower's latest order (`/loan/getLoanProgress`).
pub static LOAN_PROGRESS: TableSpec = TableSpec {
    name: "loan_progress",
    key_len: 1,
    columns: &[
        ("user_id", Kind::Text),
        ("order_id", Kind::Text),
        ("status", Kind::Int),
        ("apply_amount", Kind::Text),
        ("balance", Kind::Text),
        ("applied_at", Kind::Text),
        ("contract", Kind::Text),
    ],
};

/// `audit_queue`: every order with its applicant summary (auditor console).
pub static AUDIT_QUEUE: TableSpec = TableSpec {
    name: "audit_queue",
    key_len: 1,
    columns: &[
        ("order_id", Kind::Text),
        ("user_id", Kind::Text),
        ("status", Kind::Int),
        ("applicant_name", Kind::Text),
        ("product_name", Kind::Text),
        ("amount", Kind::Text),
        ("period_days", Kind::Int),
        ("applied_at", Kind::Text),
        ("updated_at", Kind::Text),
        ("order_no", Kind::Text),
    ],
};

/// `last_withdraw_error` (`/user/getLastWithdrawError`).
pub static LAST_WITHDRAW_ERROR: TableSpec = TableSpec {
    name: "last_withdraw_error",
    key_len: 1,
    columns: &[
        ("user_id", Kind::Text),
        ("order_id", Kind::Text),
        ("message", Kind::Text),
        ("at", Kind::Text),
    ],
};

/// `order_timeline` (`/loan/orderTimeline`).
pub static ORDER_TIMELINE: TableSpec = TableSpec {
    name: "order_timeline",
    key_len: 2,
    columns: &[
        ("order_id", Kind::Text),
        ("sequence", Kind::Int),
        ("at", Kind::Text),
        ("event_type", Kind::Text),
        ("actor", Kind::Text),
        ("doc", Kind::Text),
    ],
};

/// `transactions` (`/transactionHistory`): disbursements, repayments and refunds of
/// money received that was not owed (12.1).
pub static TRANSACTIONS: TableSpec = TableSpec {
    name: "transactions",
    key_len: 1,
    columns: &[
        ("transaction_id", Kind::Text),
        ("user_id", Kind::Text),
        ("order_id", Kind::Text),
        ("kind", Kind::Text),
        ("amount", Kind::Text),
        ("at", Kind::Text),
    ],
};

/// Maintains the order read models from Order events.
pub struct OrdersProjection;

/// The number people see for an order (PRODUCT.md 12.5), e.g. `HL-2611-000123`: the
/// month it was applied in (UTC, `yymm`) and the global log position of its
/// `LoanApplied` event, at least six digits. Unique (positions are), and the same
/// after any rebuild (positions never change); ids stay on the wire.
pub fn order_number(applied_at: DateTime<Utc>, position: i64) -> String {
    format!("HL-{}-{position:06}", applied_at.format("%y%m"))
}

/// When an order event happened. Events without their own timestamp are dated by the
/// day they concern (start of day, UTC).
pub fn order_event_time(event: &OrderEvent) -> DateTime<Utc> {
    let day_start = |day: NaiveDate| day.and_time(NaiveTime::MIN).and_utc();
    match event {
        OrderEvent::LoanApplied { applied_at, .. } => *applied_at,
        OrderEvent::ReviewStarted { at, .. }
        | OrderEvent::ResubmissionRequested { at, .. }
        | OrderEvent::Resubmitted { at, .. }
        | OrderEvent::FirstAuditPassed { at, .. }
        | OrderEvent::FinalAuditPassed { at, .. }
        | OrderEvent::LoanRefused { at, .. }
        | OrderEvent::LoanCancelled { at, .. }
        | OrderEvent::OfferExpired { at, .. }
        | OrderEvent::PayoutRequested { at, .. }
        | OrderEvent::PayoutFailed { at, .. }
        | OrderEvent::RepaymentReceived { at, .. }
        | OrderEvent::PaymentSessionOpened { at, .. }
        | OrderEvent::PaymentSessionFailed { at, .. }
        | OrderEvent::PaymentSessionReplaced { at, .. }
        | OrderEvent::PaymentSessionPaid { at, .. }
        | OrderEvent::PaymentRefundDue { at, .. }
        | OrderEvent::ManualRepaymentProposed { at, .. }
        | OrderEvent::ReminderDue { at, .. }
        | OrderEvent::LoanRepaid { at, .. }
        | OrderEvent::ContactLogged { at, .. }
        | OrderEvent::ContactRefused { at, .. }
        | OrderEvent::CollectorAssigned { at, .. }
        | OrderEvent::ContactHoursChosen { at, .. }
        | OrderEvent::PromiseMade { at, .. }
        | OrderEvent::PromiseSettled { at, .. }
        | OrderEvent::ChargeOffProposed { at, .. }
        | OrderEvent::LoanChargedOff { at, .. }
        | OrderEvent::RecoveryReceived { at, .. }
        | OrderEvent::ChargeOffClosed { at, .. }
        | OrderEvent::ChargeOffReversalProposed { at, .. }
        | OrderEvent::ChargeOffReversed { at, .. }
        | OrderEvent::WaiverProposed { at, .. }
        | OrderEvent::ChargesWaived { at, .. }
        | OrderEvent::TermExtended { at, .. }
        | OrderEvent::PaymentPlanRequested { at, .. }
        | OrderEvent::PaymentPlanProposed { at, .. }
        | OrderEvent::PaymentPlanApproved { at, .. }
        | OrderEvent::PaymentPlanSigned { at, .. } => *at,
        // The start of the loan's day they concern (UTC midnight on events from before
        // the loan's days were local).
        OrderEvent::DelinquencyChanged {
            on,
            day_start: start,
            ..
        } => start.unwrap_or_else(|| day_start(*on)),
        OrderEvent::PayoutSucceeded { paid_at, .. } => *paid_at,
        OrderEvent::InstallmentOverdue {
            due_date,
            day_start: start,
            ..
        } => start.unwrap_or_else(|| day_start(due_date.succ_opt().unwrap_or(*due_date))),
        OrderEvent::OverdueFeeCharged {
            through,
            day_start: start,
            ..
        } => start.unwrap_or_else(|| day_start(*through)),
        // Never before the last charge it takes back, so that the journal's reverse
        // entry falls in the same period as that charge (its `at` is the payment's
        // arrival, earlier).
        OrderEvent::OverdueReversed {
            through,
            at,
            day_start: start,
            ..
        } => start
            .or_else(|| through.map(day_start))
            .map_or(*at, |day| day.max(*at)),
    }
}

/// `order_detail.next_scheduled_at`: [`Order::next_scheduled_at`] as every time column
/// is written ([`time_text`]), or [`NEVER_SCHEDULED`].
fn next_scheduled_at(order: &Order) -> String {
    order
        .next_scheduled_at()
        .map_or_else(|| NEVER_SCHEDULED.to_string(), time_text)
}

/// The `/loan/orderInfo` document (Order entity, section 10), with the number people
/// see (`number`, [`order_number`]).
pub fn order_doc(order: &Order, number: &str) -> OrderDoc {
    let loan = order.loan.as_ref();
    let disclosure = loan.map(|l| &l.disclosure).or(order.disclosure.as_ref());
    let terms = order.terms.as_ref();
    let principal = loan.map_or(order.applied_amount, |l| l.principal());
    let last_withdraw_amount = order
        .payout
        .as_ref()
        .map(|p| p.amount)
        .or(loan.map(|l| l.principal()));
    // A loan closed early (payoff, cooling-off: P12) leaves the rest of the schedule
    // waived, not owed: every installment of a repaid order reads repaid (1), with
    // the part that was not charged as `waived`.
    let closed = order.status == OrderStatus::Repaid;
    let period_views: Vec<Installment> = loan
        .map(|l| {
            l.schedule
                .iter()
                // An installment a payment plan replaced before anything was paid on
                // it asks for nothing: the plan's installments follow.
                .filter(|i| !(i.replaced && i.paid.is_zero()))
                .map(|i| {
                    let (status, waived) = if closed {
                        (InstallmentStatus::Repaid, i.unpaid())
                    } else {
                        (i.status(), Decimal::ZERO)
                    };
                    Installment {
                        amt: money_text(i.due()),
                        due_date: day_text(i.due_date),
                        paid: money_text(i.paid),
                        period: i.period,
                        status: status.code(),
                        waived: money_text(waived),
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    OrderDoc {
        app_id: order.app_id,
        apply_amount: money_text(order.applied_amount),
        apply_time: order.applied_at.map(time_text),
        apr: disclosure.map(|d| d.apr_pct.normalize().to_string()),
        balance: money_text(order.balance),
        disclosure: disclosure.cloned(),
        extension_days: loan
            .filter(|l| {
                order.status == OrderStatus::Disbursed
                    && order.collection.charge_off.is_none()
                    && order.collection.extensions < l.terms.pricing.max_extensions
            })
            .map(|l| l.terms.pricing.extension_days.clone())
            .unwrap_or_default(),
        interest: disclosure.map(|d| money_text(d.interest)),
        interest_waived: loan.map(|l| money_text(l.interest_waived)),
        last_withdraw_amount: last_withdraw_amount.map(money_text),
        last_withdraw_error: order.last_withdraw_error.clone(),
        offer_expires_at: order.offer_expires_at.map(time_text),
        order_id: order.id.unwrap_or_default(),
        order_no: number.to_string(),
        paid_at: loan.map(|l| time_text(l.paid_at)),
        payment_plan: plan_offer(order),
        payout_in_flight: order.payout.is_some(),
        period_days: terms.map(|t| t.period_days),
        period_views,
        plan_requested: order.collection.plan_requested,
        principal: money_text(principal),
        product_name: order.product_name.clone(),
        rate: terms.map(|t| daily_rate_pct(t.daily_rate).normalize().to_string()),
        real_name: order.applicant_name.clone(),
        refuse_reason: order.refusal.as_ref().map(|r| r.reason.clone()),
        refuse_reasons: order
            .refusal
            .as_ref()
            .map(|r| r.reasons.clone())
            .unwrap_or_default(),
        remaining: money_text(order.outstanding()),
        repaid: money_text(loan.map_or(Decimal::ZERO, |l| l.repaid)),
        resubmission_items: order.resubmission_items.clone(),
        resubmission_reason: order.resubmission_reason.clone(),
        status: order.status.code(),
        total_repay: disclosure.map(|d| money_text(d.total_repayable)),
        user_id: order.user_id,
    }
}

/// A day as the documents write it: YYYY-MM-DD.
fn day_text(day: NaiveDate) -> String {
    day.format("%Y-%m-%d").to_string()
}

/// What the borrower sees of one event on the timeline (auditor notes stay internal).
fn timeline_detail(event: &OrderEvent) -> TimelineDetail {
    let money = |amount: &Decimal| Some(money_text(*amount));
    let none = TimelineDetail::default();
    match event {
        OrderEvent::LoanApplied { amount, terms, .. } => TimelineDetail {
            amount: money(amount),
            period_days: Some(terms.period_days),
            ..none
        },
        OrderEvent::ResubmissionRequested { reason, .. } => TimelineDetail {
            reason: Some(reason.clone()),
            ..none
        },
        OrderEvent::LoanRefused {
            stage,
            reason,
            reasons,
            ..
        } => TimelineDetail {
            reason: Some(reason.clone()),
            stage: Some(*stage),
            reasons: reasons.clone(),
            ..none
        },
        OrderEvent::FinalAuditPassed {
            approved_amount,
            offer_expires_at,
            ..
        } => TimelineDetail {
            approved_amount: money(approved_amount),
            offer_expires_at: Some(time_text(*offer_expires_at)),
            ..none
        },
        OrderEvent::PayoutRequested {
            amount, account, ..
        } => TimelineDetail {
            amount: money(amount),
            bank_name: Some(account.bank_name.clone()),
            card_no: Some(account.masked_account_no()),
            ..none
        },
        OrderEvent::PayoutSucceeded { disclosure, .. } => TimelineDetail {
            net_amount: money(&disclosure.net_amount),
            principal: money(&disclosure.principal),
            ..none
        },
        OrderEvent::PayoutFailed { amount, reason, .. }
        | OrderEvent::PaymentRefundDue { amount, reason, .. } => TimelineDetail {
            amount: money(amount),
            reason: Some(reason.clone()),
            ..none
        },
        OrderEvent::RepaymentReceived { amount, .. }
        | OrderEvent::PaymentSessionPaid { amount, .. }
        | OrderEvent::ManualRepaymentProposed { amount, .. } => TimelineDetail {
            amount: money(amount),
            ..none
        },
        OrderEvent::InstallmentOverdue {
            period, due_date, ..
        } => TimelineDetail {
            due_date: Some(day_text(*due_date)),
            period: Some(*period),
            ..none
        },
        OrderEvent::OverdueFeeCharged { period, amount, .. }
        | OrderEvent::OverdueReversed { period, amount, .. } => TimelineDetail {
            amount: money(amount),
            period: Some(*period),
            ..none
        },
        OrderEvent::LoanRepaid {
            interest_waived,
            fees_waived,
            cooling_off,
            ..
        } => TimelineDetail {
            cooling_off: Some(*cooling_off),
            fees_waived: money(fees_waived),
            interest_waived: money(interest_waived),
            ..none
        },
        OrderEvent::PaymentSessionOpened {
            amount, expires_at, ..
        } => TimelineDetail {
            amount: money(amount),
            expires_at: Some(time_text(*expires_at)),
            ..none
        },
        OrderEvent::ReminderDue {
            period,
            kind,
            due_date,
            amount,
            ..
        } => TimelineDetail {
            amount: money(amount),
            due_date: Some(day_text(*due_date)),
            kind: Some(*kind),
            period: Some(*period),
            ..none
        },
        OrderEvent::ChargesWaived { amount, .. } => TimelineDetail {
            amount: money(amount),
            ..none
        },
        OrderEvent::TermExtended {
            days,
            extra_interest,
            ..
        } => TimelineDetail {
            amount: money(extra_interest),
            period_days: Some(*days),
            ..none
        },
        OrderEvent::PromiseMade { amount, date, .. } => TimelineDetail {
            amount: money(amount),
            due_date: Some(day_text(*date)),
            ..none
        },
        OrderEvent::PaymentPlanRequested { reason, .. } => TimelineDetail {
            reason: Some(reason.clone()),
            ..none
        },
        OrderEvent::PaymentPlanSigned {
            fees_waived,
            installments,
            ..
        } => TimelineDetail {
            amount: money(&plan_total(installments)),
            fees_waived: money(fees_waived),
            ..none
        },
        OrderEvent::PromiseSettled { kept, paid, .. } => TimelineDetail {
            amount: money(paid),
            kept: Some(*kept),
            ..none
        },
        OrderEvent::LoanCancelled { .. }
        | OrderEvent::ContactHoursChosen { .. }
        | OrderEvent::DelinquencyChanged { .. }
        | OrderEvent::ContactLogged { .. }
        | OrderEvent::ContactRefused { .. }
        | OrderEvent::CollectorAssigned { .. }
        | OrderEvent::ChargeOffProposed { .. }
        | OrderEvent::LoanChargedOff { .. }
        | OrderEvent::RecoveryReceived { .. }
        | OrderEvent::ChargeOffClosed { .. }
        | OrderEvent::ChargeOffReversalProposed { .. }
        | OrderEvent::ChargeOffReversed { .. }
        | OrderEvent::WaiverProposed { .. }
        | OrderEvent::PaymentPlanProposed { .. }
        | OrderEvent::PaymentPlanApproved { .. }
        | OrderEvent::OfferExpired { .. }
        | OrderEvent::ReviewStarted { .. }
        | OrderEvent::Resubmitted { .. }
        | OrderEvent::FirstAuditPassed { .. }
        | OrderEvent::PaymentSessionFailed { .. }
        | OrderEvent::PaymentSessionReplaced { .. } => none,
    }
}

/// `collection_queue`: one row per disbursed loan (issue 53); days past due and the
/// bucket are computed when read, from `oldest_unpaid_due`.
pub static COLLECTION_QUEUE: TableSpec = TableSpec {
    name: "collection_queue",
    key_len: 1,
    columns: &[
        ("order_id", Kind::Text),
        ("user_id", Kind::Text),
        ("status", Kind::Int),
        ("oldest_unpaid_due", Kind::Text),
        ("overdue_amount", Kind::Text),
        ("outstanding", Kind::Text),
        ("bucket", Kind::Text),
        ("collector", Kind::Text),
        ("last_contact_at", Kind::Text),
        ("last_outcome", Kind::Text),
        ("promise_amount", Kind::Text),
        ("promise_date", Kind::Text),
        ("next_action_on", Kind::Text),
    ],
};

/// `collection_log`: a loan's collection record, one [`CollectionEntry`] per event.
pub static COLLECTION_LOG: TableSpec = TableSpec {
    name: "collection_log",
    key_len: 2,
    columns: &[
        ("order_id", Kind::Text),
        ("sequence", Kind::Int),
        ("at", Kind::Text),
        ("event_type", Kind::Text),
        ("actor", Kind::Text),
        ("doc", Kind::Text),
    ],
};

/// The collection record's entry of a collection event; `None` for other events.
fn collection_entry(event: &OrderEvent, at: &str, actor: &str) -> Option<CollectionEntry> {
    let entry = CollectionEntry {
        at: at.to_string(),
        event_type: String::new(),
        actor: actor.to_string(),
        ..CollectionEntry::default()
    };
    let entry = match event {
        OrderEvent::ContactLogged {
            channel,
            person,
            outcome,
            note,
            next_action_on,
            days_past_due,
            ..
        } => CollectionEntry {
            channel: Some(*channel),
            person: Some(*person),
            outcome: Some(*outcome),
            note: Some(note.clone()),
            date: next_action_on.map(day_text),
            days_past_due: Some(*days_past_due),
            ..entry
        },
        OrderEvent::ContactRefused {
            channel,
            person,
            breach,
            days_past_due,
            ..
        } => CollectionEntry {
            channel: Some(*channel),
            person: Some(*person),
            breach: Some(breach.clone()),
            days_past_due: Some(*days_past_due),
            ..entry
        },
        OrderEvent::CollectorAssigned { collector, .. } => CollectionEntry {
            collector: Some(collector.map(|id| id.to_string()).unwrap_or_default()),
            ..entry
        },
        OrderEvent::ContactHoursChosen { any_hours, .. } => CollectionEntry {
            any_hours: Some(*any_hours),
            ..entry
        },
        OrderEvent::PromiseMade { amount, date, .. } => CollectionEntry {
            amount: Some(money_text(*amount)),
            date: Some(day_text(*date)),
            ..entry
        },
        OrderEvent::PromiseSettled { kept, paid, .. } => CollectionEntry {
            amount: Some(money_text(*paid)),
            kept: Some(*kept),
            ..entry
        },
        OrderEvent::ChargeOffProposed {
            reason,
            days_past_due,
            ..
        } => CollectionEntry {
            note: Some(reason.clone()),
            days_past_due: Some(*days_past_due),
            ..entry
        },
        OrderEvent::LoanChargedOff {
            reason,
            written_off,
            days_past_due,
            ..
        } => CollectionEntry {
            note: Some(reason.clone()),
            amount: Some(money_text(*written_off)),
            days_past_due: Some(*days_past_due),
            ..entry
        },
        OrderEvent::RecoveryReceived { amount, .. }
        | OrderEvent::ChargeOffReversed {
            restored: amount, ..
        } => CollectionEntry {
            amount: Some(money_text(*amount)),
            ..entry
        },
        OrderEvent::ChargesWaived { amount, reason, .. } => CollectionEntry {
            amount: Some(money_text(*amount)),
            note: Some(reason.clone()),
            ..entry
        },
        OrderEvent::TermExtended { extra_interest, .. } => CollectionEntry {
            amount: Some(money_text(*extra_interest)),
            ..entry
        },
        OrderEvent::PaymentPlanRequested { reason, .. } => CollectionEntry {
            note: Some(reason.clone()),
            ..entry
        },
        OrderEvent::PaymentPlanProposed {
            installments,
            reason,
            ..
        } => CollectionEntry {
            amount: Some(money_text(plan_total(installments))),
            note: Some(reason.clone()),
            ..entry
        },
        OrderEvent::PaymentPlanApproved { .. } => entry,
        OrderEvent::PaymentPlanSigned { installments, .. } => CollectionEntry {
            amount: Some(money_text(plan_total(installments))),
            ..entry
        },
        OrderEvent::WaiverProposed { amount, reason, .. } => CollectionEntry {
            amount: Some(money_text(*amount)),
            note: Some(reason.clone()),
            ..entry
        },
        OrderEvent::ChargeOffReversalProposed { reason, .. } => CollectionEntry {
            note: Some(reason.clone()),
            ..entry
        },
        OrderEvent::DelinquencyChanged {
            bucket,
            days_past_due,
            ..
        } => CollectionEntry {
            bucket: Some(bucket.clone()),
            days_past_due: Some(*days_past_due),
            ..entry
        },
        _ => return None,
    };
    Some(entry)
}

/// Staff-only event types: in the collection record (and the console's history), not
/// on the borrower's timeline (`order_timeline`).
pub const STAFF_ONLY_EVENTS: [&str; 12] = [
    "ContactLogged",
    "ContactRefused",
    "CollectorAssigned",
    "DelinquencyChanged",
    "ChargeOffProposed",
    "LoanChargedOff",
    "RecoveryReceived",
    "ChargeOffClosed",
    "ChargeOffReversalProposed",
    "ChargeOffReversed",
    "WaiverProposed",
    "PaymentPlanProposed",
];

/// The payment plan two officers approved, as the borrower is shown it to sign.
fn plan_offer(order: &Order) -> Option<PlanOffer> {
    let plan = order
        .collection
        .plan
        .as_ref()
        .filter(|plan| plan.approved_by.is_some())?;
    Some(PlanOffer {
        fees_waived: money_text(plan.fees_waived),
        installments: plan_lines(&plan.installments),
        total: money_text(plan.total()),
    })
}

/// What a plan's installments ask for in all.
fn plan_total(installments: &[PlanInstallment]) -> Decimal {
    installments.iter().map(|i| i.amount + i.fee).sum()
}

fn staff_only(event: &OrderEvent) -> bool {
    STAFF_ONLY_EVENTS.contains(&cqrs_es::DomainEvent::event_type(event).as_str())
}

/// The `collection_queue` row of a disbursed (or closed) loan.
fn collection_row(order: &Order, order_id: &str, user_id: &str) -> Option<Row> {
    let loan = order.loan.as_ref()?;
    let unpaid = || loan.schedule.iter().filter(|i| !i.unpaid().is_zero());
    let oldest = unpaid()
        .map(|i| i.due_date)
        .min()
        .map(day_text)
        .unwrap_or_default();
    let overdue: Decimal = unpaid().filter(|i| i.overdue).map(|i| i.unpaid()).sum();
    let collection = &order.collection;
    let (contact_at, outcome) = collection.last_contact.map_or_else(
        || (String::new(), String::new()),
        |(at, outcome)| (time_text(at), enum_text(&outcome)),
    );
    let promise = collection.promise.as_ref();
    Some(Row {
        table: &COLLECTION_QUEUE,
        values: vec![
            order_id.into(),
            user_id.into(),
            i64::from(order.status.code()).into(),
            oldest.into(),
            money_text(overdue).into(),
            money_text(order.outstanding()).into(),
            collection
                .bucket
                .clone()
                .unwrap_or_else(|| "current".to_string())
                .into(),
            collection
                .collector
                .map(|id| id.to_string())
                .unwrap_or_default()
                .into(),
            contact_at.into(),
            outcome.into(),
            promise
                .map(|p| money_text(p.amount))
                .unwrap_or_default()
                .into(),
            promise.map(|p| day_text(p.date)).unwrap_or_default().into(),
            collection
                .next_action_on
                .map(day_text)
                .unwrap_or_default()
                .into(),
        ],
    })
}

/// A unit enum's wire name (`no_answer`).
fn enum_text<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

static TABLES: [&TableSpec; 11] = [
    &ORDER_DETAIL,
    &ORDER_LIST,
    &LOAN_PROGRESS,
    &AUDIT_QUEUE,
    &LAST_WITHDRAW_ERROR,
    &ORDER_TIMELINE,
    &TRANSACTIONS,
    &crate::read_models::notices::NOTICE,
    &crate::read_models::notices::NOTICE_SETTLED,
    &COLLECTION_QUEUE,
    &COLLECTION_LOG,
];

#[async_trait]
impl Projection for OrdersProjection {
    fn name(&self) -> &'static str {
        "orders"
    }

    fn tables(&self) -> &'static [&'static TableSpec] {
        &TABLES
    }

    fn follows(&self) -> &'static [&'static str] {
        &[Order::TYPE]
    }

    async fn apply_all(
        &self,
        store: &mut dyn RowStore,
        events: &[StoredEvent],
    ) -> Result<(), ProjectionError> {
        // Per order: its state, and the time of its last event in this run.
        let mine = || events.iter().filter(|e| self.applies_to(e));
        let mut orders = StateCache::<Order, String>::new();
        orders.preload(store, &ORDER_DETAIL, mine()).await?;
        // Numbers given in this batch; older orders keep theirs in `order_list`.
        let mut numbers = std::collections::HashMap::new();
        for event in mine() {
            let payload = decode::<OrderEvent>(event)?;
            if let OrderEvent::LoanApplied { .. } = &*payload {
                let number =
                    order_number(order_event_time(&payload), event.position.global_position);
                numbers.insert(event.aggregate_id.clone(), number);
            }
            let order = orders
                .entry(store, &ORDER_DETAIL, event, |_| String::new())
                .await?;
            let at = time_text(order_event_time(&payload));
            write_event_rows(store, event, &payload, &order.state, &at).await?;
            order.state.apply(payload.into_owned());
            order.extra = at;
        }
        // loan_progress picks the latest application by `applied_at`, which an order's
        // first event fixes, so the order in which orders are written does not matter.
        let touched = orders.into_touched();
        // The stored rows these orders' writes read, in one statement per table.
        let mut listed = touched
            .iter()
            .filter(|order| !numbers.contains_key(&order.id))
            .map(|order| Value::from(order.id.as_str()));
        store.prefetch(&ORDER_LIST, &mut listed).await?;
        let mut borrowers = touched
            .iter()
            .map(|order| Value::from(order.state.user_id.to_string()));
        store.prefetch(&LOAN_PROGRESS, &mut borrowers).await?;
        for order in touched {
            let number = match numbers.remove(&order.id) {
                Some(number) => number,
                None => store
                    .get(&ORDER_LIST, &[order.id.as_str().into()])
                    .await?
                    .map(|row| row.text("order_no").to_string())
                    .unwrap_or_default(),
            };
            write_order_rows(store, &order.state, &order.id, &order.extra, &number).await?;
        }
        Ok(())
    }
}

/// Rows that record the event itself: timeline, transactions, last withdraw error.
async fn write_event_rows(
    store: &mut dyn RowStore,
    event: &StoredEvent,
    payload: &OrderEvent,
    before: &Order,
    at: &str,
) -> Result<(), ProjectionError> {
    let order_id = event.aggregate_id.as_str();
    let user_id = match payload {
        OrderEvent::LoanApplied { user_id, .. } => *user_id,
        _ => before.user_id,
    }
    .to_string();
    let actor = actor_of(event);
    if let Some(entry) = collection_entry(payload, at, &actor) {
        let entry = CollectionEntry {
            event_type: event.event_type.clone(),
            ..entry
        };
        store
            .upsert(Row {
                table: &COLLECTION_LOG,
                values: vec![
                    order_id.into(),
                    event.sequence.into(),
                    at.into(),
                    event.event_type.as_str().into(),
                    actor.as_str().into(),
                    to_json(&entry).into(),
                ],
            })
            .await?;
    }
    if !staff_only(payload) {
        let timeline = TimelineEntry {
            at: at.to_string(),
            detail: timeline_detail(payload),
            sequence: event.sequence,
            event_type: event.event_type.clone(),
        };
        store
            .upsert(Row {
                table: &ORDER_TIMELINE,
                values: vec![
                    order_id.into(),
                    event.sequence.into(),
                    at.into(),
                    event.event_type.as_str().into(),
                    actor.as_str().into(),
                    to_json(&timeline).into(),
                ],
            })
            .await?;
    }
    let movement = match payload {
        OrderEvent::PayoutSucceeded { disclosure, .. } => {
            Some(("disbursement", disclosure.net_amount))
        }
        OrderEvent::RepaymentReceived { amount, .. } => Some(("repayment", *amount)),
        OrderEvent::PaymentRefundDue { amount, .. } => Some(("refund", *amount)),
        _ => None,
    };
    if let Some((kind, amount)) = movement {
        store
            .upsert(Row {
                table: &TRANSACTIONS,
                values: vec![
                    format!("{order_id}:{}", event.sequence).into(),
                    user_id.as_str().into(),
                    order_id.into(),
                    kind.into(),
                    money_text(amount).into(),
                    at.into(),
                ],
            })
            .await?;
    }
    let withdraw_error = match payload {
        OrderEvent::PayoutFailed { reason, .. } => Some(reason.as_str()),
        OrderEvent::PayoutRequested { .. } | OrderEvent::PayoutSucceeded { .. } => Some(""),
        _ => None,
    };
    if let Some(notice) = crate::read_models::notices::notice_row(event, payload, &user_id) {
        store.upsert(notice).await?;
    }
    if let Some(message) = withdraw_error {
        store
            .upsert(Row {
                table: &LAST_WITHDRAW_ERROR,
                values: vec![
                    user_id.as_str().into(),
                    order_id.into(),
                    message.into(),
                    at.into(),
                ],
            })
            .await?;
    }
    Ok(())
}

/// Rows that show the order as it now is.
async fn write_order_rows(
    store: &mut dyn RowStore,
    order: &Order,
    order_id: &str,
    at: &str,
    number: &str,
) -> Result<(), ProjectionError> {
    let user_id = order.user_id.to_string();
    for settled in crate::read_models::notices::settled_rows(order_id, order) {
        store.upsert(settled).await?;
    }
    if let Some(row) = collection_row(order, order_id, &user_id) {
        store.upsert(row).await?;
    }
    let applied_at = order.applied_at.map(time_text).unwrap_or_default();
    let status = i64::from(order.status.code());
    let doc = order_doc(order, number);
    let principal = doc.principal.clone();
    store
        .upsert(Row {
            table: &ORDER_DETAIL,
            values: vec![
                order_id.into(),
                user_id.as_str().into(),
                status.into(),
                applied_at.as_str().into(),
                to_json(&doc).into(),
                to_json(order).into(),
                next_scheduled_at(order).into(),
            ],
        })
        .await?;
    store
        .upsert(Row {
            table: &ORDER_LIST,
            values: vec![
                order_id.into(),
                user_id.as_str().into(),
                status.into(),
                principal.into(),
                applied_at.as_str().into(),
                number.into(),
            ],
        })
        .await?;
    store
        .upsert(Row {
            table: &AUDIT_QUEUE,
            values: vec![
                order_id.into(),
                user_id.as_str().into(),
                status.into(),
                order.applicant_name.as_str().into(),
                order.product_name.as_str().into(),
                money_text(order.applied_amount).into(),
                i64::from(order.terms.as_ref().map_or(0, |t| t.period_days)).into(),
                applied_at.as_str().into(),
                at.into(),
                number.into(),
            ],
        })
        .await?;
    // loan_progress follows the user's most recent application only.
    let current = store
        .get(&LOAN_PROGRESS, &[user_id.as_str().into()])
        .await?;
    let is_latest = current.as_ref().is_none_or(|row| {
        let (their_time, their_id) = (row.text("applied_at"), row.text("order_id"));
        their_id == order_id || (applied_at.as_str(), order_id) >= (their_time, their_id)
    });
    if is_latest {
        let contract = order
            .signature
            .as_ref()
            .map(|_| format!("/contract/{order_id}"))
            .unwrap_or_default();
        store
            .upsert(Row {
                table: &LOAN_PROGRESS,
                values: vec![
                    user_id.as_str().into(),
                    order_id.into(),
                    status.into(),
                    money_text(order.applied_amount).into(),
                    money_text(order.balance).into(),
                    applied_at.as_str().into(),
                    contract.into(),
                ],
            })
            .await?;
    }
    Ok(())
}

/// Parses a stored id back (rows hold ids as text).
pub fn parse_id(text: &str) -> Option<Uuid> {
    Uuid::parse_str(text).ok()
}

impl From<&String> for Value {
    fn from(text: &String) -> Self {
        Value::Text(text.clone())
    }
}

#[cfg(test)]
mod event_time_tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn a_day_keyed_event_is_dated_by_the_start_of_the_loans_day() {
        let day = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        // Manila's 24 November starts at 16:00 UTC on the 23rd: a fee charged then is
        // in the book and the journal from then, not from 00:00 UTC.
        let manila = Utc.with_ymd_and_hms(2026, 11, 23, 16, 0, 0).unwrap();
        let charged = |day_start| OrderEvent::OverdueFeeCharged {
            period: 1,
            from: day,
            through: day,
            amount: Decimal::ONE,
            day_start,
        };
        assert_eq!(order_event_time(&charged(Some(manila))), manila);
        // Recorded before the loan's days were local: UTC midnight.
        assert_eq!(
            order_event_time(&charged(None)),
            Utc.with_ymd_and_hms(2026, 11, 24, 0, 0, 0).unwrap()
        );
    }
}
