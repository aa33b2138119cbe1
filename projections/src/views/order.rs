//! The order's answers (PRODUCT.md 8 and 10): the `/loan/orderInfo` document, its
//! timeline, the list and the progress of the latest order. Built by
//! [`crate::read_models::orders`] and [`crate::reads::borrower`]; see [`crate::views`] for the
//! field order of stored documents.

use aggregates::order::{RefusalReason, ReminderKind, ReviewStage};
use aggregates::pricing::Disclosure;
use aggregates::types::ResubmissionItem;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

/// The whole order as the borrower sees it (`/loan/orderInfo`, `order_detail.doc`).
/// Fields in the byte order of their names: the stored text is hashed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderDoc {
    /// The product (`/loan/appList` id).
    pub app_id: i64,
    /// The amount applied for: money, a decimal string with two places.
    #[schema(example = "5000.00")]
    pub apply_amount: String,
    /// When applied: RFC 3339 UTC; null before the application is recorded.
    #[schema(required = true)]
    pub apply_time: Option<String>,
    /// The disclosure's annual rate in percent, a decimal string (`"173"`): the true
    /// annual rate, the IRR of the schedule compounded over 365 days (P5); null before
    /// a disclosure exists.
    #[schema(required = true)]
    pub apr: Option<String>,
    /// Withdrawable balance (status 9): money.
    pub balance: String,
    /// The cost disclosure (P5): of the amount paid out once disbursed, else of the
    /// application; null before one exists. (Stored with its keys sorted.)
    #[serde(serialize_with = "super::sorted")]
    #[schema(required = true)]
    pub disclosure: Option<Disclosure>,
    /// The extensions of the repayment period still open to the borrower, in days
    /// (issue 53); absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extension_days: Vec<u32>,
    /// Interest over the whole term: money; null before a disclosure exists.
    #[schema(required = true)]
    pub interest: Option<String>,
    /// Interest not charged because the loan closed early: money; null before payout.
    #[schema(required = true)]
    pub interest_waived: Option<String>,
    /// The amount of the payout in flight, else the principal paid out: money; null
    /// before either.
    #[schema(required = true)]
    pub last_withdraw_amount: Option<String>,
    /// Why the last payout failed, as shown to the borrower; null when none failed.
    #[schema(required = true)]
    pub last_withdraw_error: Option<String>,
    /// Until when the approved offer can be withdrawn: RFC 3339 UTC; null before approval.
    #[schema(required = true)]
    pub offer_expires_at: Option<String>,
    /// The order's id (every stored order has one: its first event is `LoanApplied`).
    pub order_id: Uuid,
    /// The number people see (PRODUCT.md 12.5), e.g. `HL-2611-000123`.
    #[schema(example = "HL-2611-000123")]
    pub order_no: String,
    /// When the payout reached the borrower: RFC 3339 UTC; null before payout.
    #[schema(required = true)]
    pub paid_at: Option<String>,
    /// A payment plan two officers approved, waiting for the borrower's signature
    /// (`/loan/signPaymentPlan`, issue 53); absent when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_plan: Option<PlanOffer>,
    /// A payout is in flight (withdrawing again is refused).
    pub payout_in_flight: bool,
    /// Term in days; null without terms.
    #[schema(required = true)]
    pub period_days: Option<u32>,
    /// The installments, once disbursed (empty before).
    pub period_views: Vec<Installment>,
    /// The borrower asked for a payment plan and none was signed since; absent when
    /// false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub plan_requested: bool,
    /// Principal paid out, else the amount applied for: money.
    pub principal: String,
    /// The product's name at apply.
    pub product_name: String,
    /// Daily rate in percent, a decimal string (`"0.2"`); null without terms.
    #[schema(required = true)]
    pub rate: Option<String>,
    /// The applicant's real name.
    pub real_name: String,
    /// The officer's note on why the order was refused, as typed; null unless
    /// refused (may be empty when `refuseReasons` are given).
    #[schema(required = true)]
    pub refuse_reason: Option<String>,
    /// The coded reasons of a refusal, for the borrower's language (issue 52); absent
    /// when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refuse_reasons: Vec<RefusalReason>,
    /// Still owed: money.
    pub remaining: String,
    /// Repaid so far: money.
    pub repaid: String,
    /// What the officer asks to fix while the order is 2 (PRODUCT.md 12.4); empty otherwise.
    pub resubmission_items: Vec<ResubmissionItem>,
    /// Why a resubmission is asked for; null when none is pending.
    #[schema(required = true)]
    pub resubmission_reason: Option<String>,
    /// The order status (PRODUCT.md 4.3).
    pub status: u8,
    /// Principal + interest: money; null before a disclosure exists.
    #[schema(required = true)]
    pub total_repay: Option<String>,
    /// The borrower.
    pub user_id: Uuid,
}

/// A payment plan offered to the borrower ([`OrderDoc::payment_plan`]): what the
/// schedule still asks for is replaced by `installments` once signed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanOffer {
    /// Overdue fees the plan waives: money.
    pub fees_waived: String,
    /// The new installments, by due day.
    pub installments: Vec<PlanLine>,
    /// Everything owed under the plan (what `acceptedTotal` must be): money.
    pub total: String,
}

/// The lines of a plan's `installments`: each with the fees it carries.
pub fn plan_lines(installments: &[aggregates::order::PlanInstallment]) -> Vec<PlanLine> {
    installments
        .iter()
        .map(|i| PlanLine {
            amount: crate::projection::money_text(i.amount + i.fee),
            due_date: i.due_date.format("%Y-%m-%d").to_string(),
        })
        .collect()
}

/// One installment of a [`PlanOffer`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanLine {
    /// Amount due (fees carried over included): money.
    pub amount: String,
    /// The due day: YYYY-MM-DD.
    pub due_date: String,
}

/// One installment of [`OrderDoc::period_views`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Installment {
    /// Amount due (principal share, interest and fees): money.
    pub amt: String,
    /// The due day: YYYY-MM-DD.
    pub due_date: String,
    /// Paid so far: money.
    pub paid: String,
    /// 1-based installment number.
    pub period: u32,
    /// 0 unpaid, 1 repaid, 2 overdue (PRODUCT.md 4.4); every installment of a repaid
    /// order reads 1.
    pub status: u8,
    /// The part not charged because the loan closed early: money (`"0.00"` otherwise).
    pub waived: String,
}

/// The fields an event carries on the timeline: each event type has only its own
/// (none: `{}`). Money is a decimal string, times RFC 3339 UTC, days YYYY-MM-DD.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TimelineDetail {
    /// LoanApplied, PayoutRequested, PayoutFailed, RepaymentReceived,
    /// OverdueFeeCharged, OverdueReversed (the fees taken back), PaymentSessionOpened,
    /// PaymentSessionPaid, ManualRepaymentProposed, PaymentRefundDue, ReminderDue,
    /// PromiseMade (promised), PromiseSettled (paid towards it): money.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub amount: Option<String>,
    /// FinalAuditPassed: money.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub approved_amount: Option<String>,
    /// PayoutRequested: the bank or e-wallet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub bank_name: Option<String>,
    /// PayoutRequested: the account number, masked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub card_no: Option<String>,
    /// LoanRepaid: closed within the cooling-off period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub cooling_off: Option<bool>,
    /// InstallmentOverdue, ReminderDue, PromiseMade (the promised day): YYYY-MM-DD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub due_date: Option<String>,
    /// PaymentSessionOpened: when the page stops being payable, RFC 3339 UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub expires_at: Option<String>,
    /// LoanRepaid: money.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub fees_waived: Option<String>,
    /// LoanRepaid: money.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub interest_waived: Option<String>,
    /// PromiseSettled: kept (true) or broken (issue 53).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub kept: Option<bool>,
    /// ReminderDue: which reminder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub kind: Option<ReminderKind>,
    /// PayoutSucceeded: what reached the account after fees, money.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub net_amount: Option<String>,
    /// FinalAuditPassed: RFC 3339 UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub offer_expires_at: Option<String>,
    /// InstallmentOverdue, OverdueFeeCharged, OverdueReversed, ReminderDue: the
    /// installment number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub period: Option<u32>,
    /// LoanApplied: term in days; TermExtended: the days added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub period_days: Option<u32>,
    /// PayoutSucceeded: the principal paid out, money.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub principal: Option<String>,
    /// ResubmissionRequested, LoanRefused, PayoutFailed (may end in "(code)"),
    /// PaymentRefundDue (why the money was not owed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub reason: Option<String>,
    /// LoanRefused: the review that refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub stage: Option<ReviewStage>,
    /// LoanRefused: the coded reasons (issue 52).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<RefusalReason>,
}

/// One event of an order as stored in `order_timeline.doc` (who acted is kept in its
/// own column and answered by role: [`TimelineEvent`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TimelineEntry {
    /// When it happened: RFC 3339 UTC.
    pub at: String,
    /// What the event carries.
    pub detail: TimelineDetail,
    /// The event's number within its order (from 1).
    pub sequence: i64,
    /// The order event's name (aggregates/src/order/events.rs), e.g. `PayoutSucceeded`.
    #[serde(rename = "type")]
    pub event_type: String,
}

/// One event of `/loan/orderTimeline`, oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TimelineEvent {
    /// When it happened: RFC 3339 UTC.
    pub at: String,
    /// Who acted, by role only: `user`, `auditor` or `system`.
    #[schema(example = "auditor")]
    pub by: String,
    /// What the event carries.
    pub detail: TimelineDetail,
    /// The event's number within its order (from 1).
    pub sequence: i64,
    /// The order event's name (aggregates/src/order/events.rs), e.g. `PayoutSucceeded`.
    #[serde(rename = "type")]
    pub event_type: String,
}

impl TimelineEvent {
    /// A stored entry answered with who acted: the role of an `actor` column
    /// (`user:<id>`, `auditor:<id>`, `system`), never an auditor's identity.
    pub fn new(entry: TimelineEntry, actor: &str) -> Self {
        Self {
            at: entry.at,
            by: actor.split(':').next().unwrap_or("system").to_string(),
            detail: entry.detail,
            sequence: entry.sequence,
            event_type: entry.event_type,
        }
    }
}

/// One order of `/loan/getUserOrderList`, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderSummary {
    /// When applied: RFC 3339 UTC.
    pub apply_time: String,
    /// The order's id.
    pub order_id: String,
    /// What people see (PRODUCT.md 12.5), e.g. `HL-2611-000123`.
    pub order_no: String,
    /// Principal paid out, else the amount applied for: money.
    pub principal: String,
    /// The order status (PRODUCT.md 4.3).
    pub status: i64,
}

/// The latest order's progress (`/loan/getLoanProgress`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoanProgress {
    /// The amount applied for: money.
    pub apply_amount: String,
    /// Withdrawable balance (status 9): money.
    pub balance: String,
    /// The contract's path (`/contract/{orderId}`) once signed, else empty.
    pub contract: String,
    /// The order's id.
    pub order_id: String,
    /// The order status (PRODUCT.md 4.3).
    pub status: i64,
}
