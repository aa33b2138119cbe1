//! Commands of the Order aggregate.

use super::collection::{Contact, PromiseMaker};
use super::events::RefusalReason;
use super::payment_plan::PlanRequest;
use super::reminder::ReminderKind;
use super::waiver::WaiverKind;
use crate::types::{BankAccount, ImageRef, ResubmissionItem};
use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Where a repayment came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum RepaymentSource {
    /// A borrower's recharge through the payment page.
    Recharge,
    /// Recorded by an auditor (e.g. a bank transfer received), with its reference.
    Manual {
        /// The auditor.
        auditor_id: Uuid,
    },
}

/// A manual repayment above this needs a second auditor to confirm it (four eyes,
/// PRODUCT.md 12.1).
pub const MANUAL_FOUR_EYES_ABOVE: Decimal = Decimal::from_parts(20_000, 0, 0, false, 0);

/// How long a payment session stays payable (PRODUCT.md 12.1).
pub const PAYMENT_SESSION_MINUTES: i64 = 30;

/// How long after its end an offer is expired (`ExpireOffer`): a withdrawal the
/// borrower asked for before the end may still be on its way through the loan
/// workflow, which judges it as of the asking (`RequestPayout::requested_at`), so the
/// scheduler leaves the offer to it for this long. The borrower sees the same end.
pub const OFFER_EXPIRY_GRACE_MINUTES: i64 = 10;

/// Something a borrower, an auditor or the platform asks of an order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum OrderCommand {
    /// Loan workflow, on `ApplicationOpened`. Repeating it for the same id changes
    /// nothing.
    ApplyForLoan {
        /// New order id (UUID v7).
        order_id: Uuid,
        /// Borrower.
        user_id: Uuid,
        /// Product id.
        app_id: i64,
        /// Amount chosen by the borrower (P7).
        amount: Decimal,
        /// Period chosen by the borrower (P7).
        period_days: u32,
        /// The signature on file; required (P7).
        signature: Option<ImageRef>,
        /// Real name of the applicant.
        applicant_name: String,
        /// Version of the contract text shown.
        terms_version: String,
        /// The borrower's declared monthly income, for the product's affordability
        /// rule (40010); `None` when none was declared as an amount.
        monthly_income: Option<Decimal>,
        /// The product version whose disclosure the borrower was shown (`/loan/quote`'s
        /// `productVersion`): a later version in force at apply is refused (10004), so
        /// nobody signs terms they were not shown. `None`: not checked (older clients).
        #[serde(default)]
        product_version: Option<u32>,
    },
    /// Auditor: take into first review (0 → 1).
    StartReview {
        /// Auditor.
        auditor_id: Uuid,
    },
    /// Auditor: ask the borrower to fix their data (0, 1, 3 → 2).
    RequestResubmission {
        /// Auditor.
        auditor_id: Uuid,
        /// Required, shown to the borrower.
        reason: String,
        /// What to fix; at least one (PRODUCT.md 12.4).
        items: Vec<ResubmissionItem>,
    },
    /// Borrower: resubmit after fixing data (2 → 0). 40009 when none of the items
    /// asked for was changed.
    Resubmit {
        /// The items of the request the borrower has changed since it was made, as the
        /// User aggregate knows them (`User::fixed_items`).
        fixed: Vec<ResubmissionItem>,
    },
    /// Auditor: pass first review (1 → 3).
    PassFirstAudit {
        /// Auditor.
        auditor_id: Uuid,
        /// Review note.
        note: String,
        /// The applicant's identity status is 2 (from the User aggregate).
        identity_verified: bool,
    },
    /// Auditor: pass final review (3 → 9); another auditor than the first.
    PassFinalAudit {
        /// Auditor.
        auditor_id: Uuid,
        /// Review note.
        note: String,
    },
    /// Auditor: refuse with a reason (0, 1, 2 → 5; 3 → 12).
    Refuse {
        /// Auditor.
        auditor_id: Uuid,
        /// The officer's note, shown to the borrower as typed; required when no
        /// coded reason is given (P8).
        reason: String,
        /// Coded reasons (issue 52), shown in the borrower's language; repeats count
        /// once.
        reasons: Vec<RefusalReason>,
    },
    /// Borrower: cancel before the payout, free (→ 11, P6).
    Cancel,
    /// Scheduler: expire an offer not withdrawn in time (9 → 13), from
    /// [`OFFER_EXPIRY_GRACE_MINUTES`] after its end.
    ExpireOffer,
    /// Loan workflow, on `WithdrawalRequested`. Repeating it for a payout id the
    /// order already has changes nothing.
    RequestPayout {
        /// New payout id.
        payout_id: Uuid,
        /// Amount to draw (≤ balance).
        amount: Decimal,
        /// The account captured with the PIN check.
        account: BankAccount,
        /// When the borrower asked (the User's `WithdrawalRequested`): the offer's
        /// validity is judged as of then, never past the order's now, so a workflow
        /// that runs late (a crash, a restart) does not refuse a withdrawal asked for
        /// in time. `None`: as of now.
        #[serde(default)]
        requested_at: Option<DateTime<Utc>>,
    },
    /// Payout worker: the provider confirmed the payout.
    RecordPayoutSucceeded {
        /// Payout id.
        payout_id: Uuid,
    },
    /// Payout worker: the provider refused the payout.
    RecordPayoutFailed {
        /// Payout id.
        payout_id: Uuid,
        /// The provider's reason.
        reason: String,
    },
    /// `/loan/recharge`: open a payment page for `amount` (12.1, P1). The order
    /// decides: it must be disbursed, the amount must pass the repayment rule, and
    /// its open sessions together with this one may never exceed today's payoff.
    /// The session expires after [`PAYMENT_SESSION_MINUTES`].
    OpenPaymentSession {
        /// New session id (random: it is what lets the page be paid).
        session_id: Uuid,
        /// Amount asked for.
        amount: Decimal,
    },
    /// A verified `failed` webhook: the session is closed, nothing moved; a later
    /// payment on it is refunded.
    FailPaymentSession {
        /// The session.
        session_id: Uuid,
    },
    /// A repayment (recharge through a payment session, or an auditor's entry); each
    /// reference applies once. A recharge applies at most what its session allows
    /// and what is owed today; the rest is refunded (12.1): a stale, paid or failed
    /// session, an amount different from the session's, or a closed loan. An
    /// auditor's entry applies what is owed and refunds the rest; above
    /// [`MANUAL_FOUR_EYES_ABOVE`] the first entry is only a proposal, applied when a
    /// second auditor enters the same reference and amount.
    ReceiveRepayment {
        /// External payment reference.
        payment_ref: String,
        /// Amount.
        amount: Decimal,
        /// Origin.
        source: RepaymentSource,
        /// The payment session (recharges).
        session_id: Option<Uuid>,
        /// When the money arrived (a recharge's `Recharged`); the payment is judged as
        /// of then (its session's expiry, what is owed, cooling-off), never later than
        /// the order's now, so a workflow that runs late (a crash, a restart, lag past
        /// midnight) does not refund a payment made in time or charge a day's
        /// interest the borrower did not owe. `None`: now (an auditor's entry).
        received_at: Option<DateTime<Utc>>,
    },
    /// Scheduler: mark overdue installments and charge overdue fees up to today, then
    /// record a delinquency bucket move and settle a promise to pay whose date has
    /// passed (issue 53).
    AccrueOverdue,
    /// A collector logs a contact about the debt; the fair-collection guard decides
    /// (P15): refused attempts are recorded as `ContactRefused` and answered 50001 or
    /// 50002 by the caller.
    LogContact(Contact),
    /// An officer assigns the loan to a collector (`collector: None` unassigns).
    AssignCollector {
        /// The collector.
        collector: Option<Uuid>,
        /// The officer assigning.
        by: Uuid,
    },
    /// Charge off a loan at or past the configured days past due: the first officer
    /// proposes, a second confirms (four eyes, 50006 for the same one).
    ChargeOff {
        /// The officer.
        officer_id: Uuid,
        /// Why (required).
        reason: String,
    },
    /// Put a charged-off loan back on the books (the same four eyes).
    ReverseChargeOff {
        /// The officer.
        officer_id: Uuid,
        /// Why (required).
        reason: String,
    },
    /// An officer waives overdue fees or interest (a reduction only, P11); above the
    /// configured amount a second officer confirms the same waiver (50006).
    WaiveCharges {
        /// The officer.
        officer_id: Uuid,
        /// Fees or interest.
        kind: WaiverKind,
        /// How much (at most what is unpaid of that kind).
        amount: Decimal,
        /// Why (required).
        reason: String,
    },
    /// The borrower extends the repayment period by `days` (issue 53): accepted only as
    /// quoted (`accepted_total`), signed, within the product's offer and every cap.
    ExtendTerm {
        /// Days, one the product offers.
        days: u32,
        /// The total owed after it, as shown to the borrower.
        accepted_total: Decimal,
        /// The borrower's signature on file (required).
        signature: Option<ImageRef>,
    },
    /// The borrower asks for a payment plan for hardship, saying why (issue 53); a
    /// repeat while one is asked for is a no-op.
    RequestPaymentPlan {
        /// Why (required, at most 500 characters).
        reason: String,
    },
    /// An officer proposes a payment plan: everything owed spread over new
    /// installments, overdue fees waived in part or whole (10004 out of bounds).
    ProposePaymentPlan {
        /// The officer.
        officer_id: Uuid,
        /// The plan.
        request: PlanRequest,
    },
    /// A second officer approves the plan proposed (50006 for the proposer).
    ApprovePaymentPlan {
        /// The officer.
        officer_id: Uuid,
    },
    /// The borrower signs the approved plan as shown (`accepted_total`); the schedule
    /// is replaced.
    SignPaymentPlan {
        /// The plan's total as shown.
        accepted_total: Decimal,
        /// The borrower's signature on file (required).
        signature: Option<ImageRef>,
    },
    /// The borrower states whether contacts outside the usual hours suit them (P15).
    ChooseContactHours {
        /// True: any hour.
        any_hours: bool,
    },
    /// A promise to pay `amount` by the end of `date` (the loan's local day), made by the borrower
    /// or taken by an officer; 50004 when not valid.
    PromiseToPay {
        /// Amount promised.
        amount: Decimal,
        /// The day.
        date: NaiveDate,
        /// Who makes it.
        by: PromiseMaker,
    },
    /// Scheduler: record the `kind` reminder of installment `period` (PRODUCT.md
    /// 12.5). The order decides at its clock's now: it records `ReminderDue` only when
    /// the loan is disbursed, the installment is still owed, today (the loan's local day) is the
    /// kind's day ([`ReminderKind::day_for`]) and this reminder was not recorded
    /// before; otherwise nothing happens (a no-op, never an error), so a repeat, a
    /// second process or a payment that arrived in between sends nothing.
    SendReminder {
        /// Installment number (1-based).
        period: u32,
        /// Which reminder.
        kind: ReminderKind,
    },
}
