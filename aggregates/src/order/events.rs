//! Events of the Order aggregate (DESIGN.md "Aggregates and events").

use super::collection::PromiseMaker;
use super::commands::RepaymentSource;
use super::loan::Installment;
use super::payment_plan::PlanInstallment;
use super::reminder::ReminderKind;
use super::waiver::WaiverKind;
use crate::collections::{ContactBreach, ContactChannel, ContactOutcome, ContactPerson};
use crate::pricing::{Disclosure, LoanTerms};
use crate::types::{BankAccount, ImageRef, ResubmissionItem};
use chrono::{DateTime, NaiveDate, Utc};
use cqrs_es::DomainEvent;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Which review refused an order.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReviewStage {
    /// First review (status 5).
    First,
    /// Final review (status 12).
    Final,
}

/// Why an order was refused, as an officer picks it (P8, issue 52): a code the
/// borrower reads in their own language, where a typed reason would reach them in
/// the officer's.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalReason {
    /// The declared income could not be verified.
    IncomeNotVerified,
    /// The identity documents could not be verified.
    IdentityNotVerified,
    /// The information given does not agree with itself or with the documents.
    InformationInconsistent,
    /// The repayments would be too heavy for the borrower's means.
    RepaymentCapacity,
    /// The application is outside the lender's lending policy.
    OutsidePolicy,
}

/// Part of a repayment credited to one installment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Allocation {
    /// Installment number.
    pub period: u32,
    /// Amount credited to it.
    pub amount: Decimal,
}

/// Something that happened to an order.
// Events are serialized as soon as they are produced, so variant size is irrelevant.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrderEvent {
    /// The borrower signed and applied (status 0). Holds the terms and the full
    /// disclosure shown, so the contract can always be reproduced (P5, P9).
    LoanApplied {
        /// Order id.
        order_id: Uuid,
        /// Borrower.
        user_id: Uuid,
        /// Product id.
        app_id: i64,
        /// Product name at apply.
        product_name: String,
        /// Amount applied for.
        amount: Decimal,
        /// The product's terms at apply.
        terms: LoanTerms,
        /// The disclosure shown before signing.
        disclosure: Disclosure,
        /// Version of the contract text.
        terms_version: String,
        /// The borrower's signature.
        signature: ImageRef,
        /// The borrower's real name (the payout account must be in it, P3).
        applicant_name: String,
        /// When.
        applied_at: DateTime<Utc>,
    },
    /// An auditor took the order into first review (0 → 1).
    ReviewStarted {
        /// Auditor.
        auditor_id: Uuid,
        /// When.
        at: DateTime<Utc>,
    },
    /// An auditor asked the borrower to fix their data (→ 2).
    ResubmissionRequested {
        /// Auditor.
        auditor_id: Uuid,
        /// Shown to the borrower.
        reason: String,
        /// What to fix (PRODUCT.md 12.4). Requests recorded before items existed
        /// carry none and are read as asking for everything.
        #[serde(default = "ResubmissionItem::all_by_default")]
        items: Vec<ResubmissionItem>,
        /// When.
        at: DateTime<Utc>,
    },
    /// The borrower resubmitted (2 → 0).
    Resubmitted {
        /// When.
        at: DateTime<Utc>,
        /// What the request asked to fix (issue 52: the officer sees what changed).
        /// Empty in resubmissions recorded before 2026-12.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        asked: Vec<ResubmissionItem>,
        /// The items asked for that the borrower changed (at least one).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        fixed: Vec<ResubmissionItem>,
    },
    /// First review passed (1 → 3).
    FirstAuditPassed {
        /// Auditor.
        auditor_id: Uuid,
        /// Review note.
        note: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// Final review passed by a second auditor (3 → 9).
    FinalAuditPassed {
        /// Auditor (never the first one).
        auditor_id: Uuid,
        /// Review note.
        note: String,
        /// The withdrawable balance.
        approved_amount: Decimal,
        /// After this the offer expires (status 13).
        offer_expires_at: DateTime<Utc>,
        /// When.
        at: DateTime<Utc>,
    },
    /// Refused, with the reason shown to the borrower (→ 5 or 12, P8).
    LoanRefused {
        /// Which review.
        stage: ReviewStage,
        /// Auditor.
        auditor_id: Uuid,
        /// The officer's note, shown to the borrower as typed (may be empty when
        /// `reasons` are given).
        reason: String,
        /// The coded reasons, shown in the borrower's language (none in refusals
        /// recorded before 2026-12).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        reasons: Vec<RefusalReason>,
        /// When.
        at: DateTime<Utc>,
    },
    /// Cancelled by the borrower before the payout, free of charge (→ 11, P6).
    LoanCancelled {
        /// The undrawn balance released (0 before approval).
        released_amount: Decimal,
        /// When.
        at: DateTime<Utc>,
    },
    /// The offer was not withdrawn in time (9 → 13).
    OfferExpired {
        /// The undrawn balance released.
        released_amount: Decimal,
        /// When.
        at: DateTime<Utc>,
    },
    /// The borrower asked for a payout with the correct PIN (balance reserved).
    PayoutRequested {
        /// Payout id, the provider's idempotency key.
        payout_id: Uuid,
        /// Principal drawn.
        amount: Decimal,
        /// What is sent: amount − processing fee.
        net_amount: Decimal,
        /// The borrower's own account at the moment of the request (P3).
        account: BankAccount,
        /// When.
        at: DateTime<Utc>,
    },
    /// The money reached the borrower (9 → 4). Principal, interest and the schedule
    /// are fixed from the amount paid out and the payout day (P10).
    PayoutSucceeded {
        /// Payout id.
        payout_id: Uuid,
        /// The undrawn remainder, released (single drawdown).
        released_amount: Decimal,
        /// Disclosure recomputed for the amount paid out.
        disclosure: Disclosure,
        /// The installments with their due dates.
        schedule: Vec<Installment>,
        /// When.
        paid_at: DateTime<Utc>,
    },
    /// The payout failed; the amount returns to the balance, status stays 9 (P3).
    PayoutFailed {
        /// Payout id.
        payout_id: Uuid,
        /// Amount returned to the balance.
        amount: Decimal,
        /// What had been sent and came back: amount − processing fee.
        net_amount: Decimal,
        /// The real reason, shown to the borrower.
        reason: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// A repayment, allocated oldest installment first.
    RepaymentReceived {
        /// The payment's external reference, applied at most once.
        payment_ref: String,
        /// Amount received.
        amount: Decimal,
        /// How it was allocated.
        allocations: Vec<Allocation>,
        /// Borrower recharge or manual entry by an auditor.
        source: RepaymentSource,
        /// When.
        at: DateTime<Utc>,
    },
    /// A payment page was opened for `amount` (12.1); until `expires_at` it counts
    /// against today's payoff.
    PaymentSessionOpened {
        /// The session.
        session_id: Uuid,
        /// Amount asked for.
        amount: Decimal,
        /// When it stops being payable.
        expires_at: DateTime<Utc>,
        /// When.
        at: DateTime<Utc>,
    },
    /// The provider reported the payment failed; nothing moved.
    PaymentSessionFailed {
        /// The session.
        session_id: Uuid,
        /// When.
        at: DateTime<Utc>,
    },
    /// A newer payment page replaced this unpaid one (issue 52: a page left open must
    /// not block a payoff). It is no longer payable: money that still arrives on it is
    /// refunded in full (12.1).
    PaymentSessionReplaced {
        /// The replaced session.
        session_id: Uuid,
        /// The session that replaced it.
        by: Uuid,
        /// When.
        at: DateTime<Utc>,
    },
    /// Money arrived on a session; it can never be paid again. What of it is applied
    /// follows as `RepaymentReceived`, what is not as `PaymentRefundDue`.
    PaymentSessionPaid {
        /// The session.
        session_id: Uuid,
        /// The payment.
        payment_ref: String,
        /// Amount received.
        amount: Decimal,
        /// When.
        at: DateTime<Utc>,
    },
    /// An auditor entered a manual repayment above the four-eyes limit: it is applied
    /// when another auditor enters the same reference and amount.
    ManualRepaymentProposed {
        /// The payment.
        payment_ref: String,
        /// Amount received.
        amount: Decimal,
        /// Who entered it first.
        auditor_id: Uuid,
        /// When.
        at: DateTime<Utc>,
    },
    /// Money received that is not owed is refunded to the borrower's bound account,
    /// never kept (P1, 12.1); the loan workflow sends the refund.
    PaymentRefundDue {
        /// The payment.
        payment_ref: String,
        /// Amount to refund.
        amount: Decimal,
        /// Why it is not applied, shown to the borrower.
        reason: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// An installment passed its due day unpaid.
    InstallmentOverdue {
        /// Installment number.
        period: u32,
        /// Its due day.
        due_date: NaiveDate,
        /// The start of the day after the due day on the loan's calendar
        /// (`LoanTerms::day_start`), which dates it in the journal and the book;
        /// absent on events recorded before the loan's days were local (UTC midnight).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        day_start: Option<DateTime<Utc>>,
    },
    /// Overdue fees on one installment for the days `from..=through`, capped (4.4).
    OverdueFeeCharged {
        /// Installment number.
        period: u32,
        /// First day charged.
        from: NaiveDate,
        /// Last day charged.
        through: NaiveDate,
        /// Total for these days after the cap.
        amount: Decimal,
        /// The start of `through` on the loan's calendar
        /// (`LoanTerms::day_start`), which dates it in the journal and the book;
        /// absent on events recorded before the loan's days were local (UTC midnight).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        day_start: Option<DateTime<Utc>>,
    },
    /// A payment arrived at `at` but the loan workflow applied it only later
    /// (a crash, an outage, or a moment across midnight), after the scheduler had
    /// charged overdue fees on this installment for days after that day, or marked
    /// it overdue when on that day it was not yet. Those charges and that mark are
    /// taken back before the payment is applied as of its arrival, and the days since
    /// are charged again on what the payment left unpaid, so a borrower who paid in
    /// time is never charged for the workflow's delay (P11, 12.1). A charge that
    /// spans the arrival day (the scheduler had missed days) is taken back whole and
    /// charged again on the smaller balance: the difference is the borrower's.
    OverdueReversed {
        /// Installment number.
        period: u32,
        /// The first day of the fees taken back; `None` when only the overdue mark is.
        from: Option<NaiveDate>,
        /// The last day of the fees taken back (`None` with `from`), through which
        /// they are charged again.
        through: Option<NaiveDate>,
        /// The fees taken back (0.00 when only the mark is).
        amount: Decimal,
        /// The payment applied late.
        payment_ref: String,
        /// When the payment arrived: the day after it (the loan's local day) is the first whose
        /// charges are taken back.
        at: DateTime<Utc>,
        /// The start of `through` on the loan's calendar
        /// (`LoanTerms::day_start`), which dates it in the journal and the book;
        /// absent on events recorded before the loan's days were local (UTC midnight).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        day_start: Option<DateTime<Utc>>,
    },
    /// A due-date reminder of one installment is due (PRODUCT.md 12.5): a workflow
    /// queues its SMS and the inbox shows it as a notice. Recorded once per
    /// (installment, kind).
    ReminderDue {
        /// Installment number.
        period: u32,
        /// Which reminder.
        kind: ReminderKind,
        /// The installment's due day (the loan's local day).
        due_date: NaiveDate,
        /// What the installment still asks for at `at` (amount and fees, minus
        /// payments), two decimals.
        amount: Decimal,
        /// When (the order's clock).
        at: DateTime<Utc>,
    },
    /// The loan moved to another delinquency bucket (issue 53): recorded the day its
    /// days past due cross a bound, or when a payment moves them back.
    DelinquencyChanged {
        /// The bucket's name (`current`, `1-30`, …, `over 180`).
        bucket: String,
        /// Days past due on `on`.
        days_past_due: u32,
        /// The days past due at which it leaves this bucket (`None`: the last one).
        leaves_at: Option<u32>,
        /// The day (the loan's local day).
        on: NaiveDate,
        /// The start of `on` on the loan's calendar
        /// (`LoanTerms::day_start`), which dates it in the journal and the book;
        /// absent on events recorded before the loan's days were local (UTC midnight).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        day_start: Option<DateTime<Utc>>,
    },
    /// A collector contacted the borrower about the debt (P15 allowed it).
    ContactLogged {
        /// The officer.
        officer_id: Uuid,
        /// How.
        channel: ContactChannel,
        /// With whom.
        person: ContactPerson,
        /// What came of it.
        outcome: ContactOutcome,
        /// The officer's note (internal).
        note: String,
        /// The next action's day, if planned.
        next_action_on: Option<NaiveDate>,
        /// An SMS: the lender's template sent (the workflow texts it within the hours).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        template: Option<String>,
        /// Days past due at the contact.
        days_past_due: u32,
        /// The day on the borrower's local clock (the once-a-day rule).
        local_day: NaiveDate,
        /// When.
        at: DateTime<Utc>,
    },
    /// A contact the fair-collection guard refused (P15, 50001/50002), kept for the
    /// audit trail; nothing else changes.
    ContactRefused {
        /// The officer who tried.
        officer_id: Uuid,
        /// How.
        channel: ContactChannel,
        /// With whom.
        person: ContactPerson,
        /// The rule it broke.
        breach: ContactBreach,
        /// Days past due at the attempt.
        days_past_due: u32,
        /// When.
        at: DateTime<Utc>,
    },
    /// The loan was assigned to a collector (`None`: unassigned).
    CollectorAssigned {
        /// The collector.
        collector: Option<Uuid>,
        /// The officer who assigned it.
        by: Uuid,
        /// When.
        at: DateTime<Utc>,
    },
    /// The borrower stated whether other hours suit them for contacts (P15, `PH`).
    ContactHoursChosen {
        /// True: contacts outside 06:00–22:00 are welcome.
        any_hours: bool,
        /// When.
        at: DateTime<Utc>,
    },
    /// A promise to pay (issue 53): `amount` by the end of `date`.
    PromiseMade {
        /// Amount promised.
        amount: Decimal,
        /// The day (the loan's local day) by which it is paid.
        date: NaiveDate,
        /// Who made it.
        by: PromiseMaker,
        /// When.
        at: DateTime<Utc>,
    },
    /// The open promise was kept (the payments by its date covered it, or the loan
    /// was repaid) or broken (its date passed without).
    PromiseSettled {
        /// Kept or broken.
        kept: bool,
        /// Paid towards it by its date.
        paid: Decimal,
        /// When it was decided.
        at: DateTime<Utc>,
    },
    /// An officer proposed to charge the loan off (issue 53); a second confirms.
    ChargeOffProposed {
        /// The officer.
        officer_id: Uuid,
        /// Why.
        reason: String,
        /// Days past due then.
        days_past_due: u32,
        /// When.
        at: DateTime<Utc>,
    },
    /// The loan is written off the books: `written_off` (everything outstanding)
    /// leaves `loan_receivable`. The borrower still owes it (P16).
    LoanChargedOff {
        /// Who proposed it.
        proposed_by: Uuid,
        /// The second officer, who confirmed it.
        confirmed_by: Uuid,
        /// Why.
        reason: String,
        /// What was outstanding and is written off.
        written_off: Decimal,
        /// Days past due then.
        days_past_due: u32,
        /// When.
        at: DateTime<Utc>,
    },
    /// A repayment on a charged-off loan (after its `RepaymentReceived`): recovery income.
    RecoveryReceived {
        /// The payment.
        payment_ref: String,
        /// Amount recovered.
        amount: Decimal,
        /// When.
        at: DateTime<Utc>,
    },
    /// A charged-off loan closed by its payoff: what the payoff waived had been
    /// written off, and is taken back from the write-off.
    ChargeOffClosed {
        /// Interest and fees the payoff did not charge.
        waived: Decimal,
        /// When.
        at: DateTime<Utc>,
    },
    /// An officer proposed to put a charged-off loan back on the books.
    ChargeOffReversalProposed {
        /// The officer.
        officer_id: Uuid,
        /// Why.
        reason: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// The loan is back on the books: `restored` = `written_off` − `recovered`.
    ChargeOffReversed {
        /// Who proposed it.
        proposed_by: Uuid,
        /// The second officer.
        confirmed_by: Uuid,
        /// Why.
        reason: String,
        /// What the charge-off had written off.
        written_off: Decimal,
        /// Recovered since.
        recovered: Decimal,
        /// Back in `loan_receivable`: what is still owed.
        restored: Decimal,
        /// When.
        at: DateTime<Utc>,
    },
    /// A waiver above the four-eyes amount, proposed; a second officer confirms it.
    WaiverProposed {
        /// The officer.
        officer_id: Uuid,
        /// Fees or interest.
        kind: WaiverKind,
        /// How much.
        amount: Decimal,
        /// Why.
        reason: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// Overdue fees or interest waived: what is owed goes down by `amount`, taken off
    /// the installments as `reductions` (latest first). Never an increase (P11).
    ChargesWaived {
        /// Fees or interest.
        kind: WaiverKind,
        /// How much.
        amount: Decimal,
        /// Per installment.
        reductions: Vec<Allocation>,
        /// Why.
        reason: String,
        /// The officer who proposed (or made) it.
        proposed_by: Uuid,
        /// The second officer, above the four-eyes amount.
        confirmed_by: Option<Uuid>,
        /// When.
        at: DateTime<Utc>,
    },
    /// The borrower extended the repayment period (issue 53, P16): every installment
    /// still owed moved later by `days`; `extra_interest` (the interest for the extra
    /// days) is added to the last one. Nothing was paid to get it.
    TermExtended {
        /// Days.
        days: u32,
        /// The interest for the extra days at the contract's daily rate.
        extra_interest: Decimal,
        /// Everything owed after it, as the borrower was shown and signed.
        new_total: Decimal,
        /// The borrower's signature.
        signature: ImageRef,
        /// When.
        at: DateTime<Utc>,
    },
    /// The borrower asked for a payment plan for hardship.
    PaymentPlanRequested {
        /// Why, in the borrower's words.
        reason: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// An officer proposed a payment plan (replacing one not yet signed).
    PaymentPlanProposed {
        /// The officer.
        officer_id: Uuid,
        /// Overdue fees it waives.
        fees_waived: Decimal,
        /// Its installments.
        installments: Vec<PlanInstallment>,
        /// Why.
        reason: String,
        /// What the loan owed then.
        owed_at_proposal: Decimal,
        /// The overdue fees charged on the loan then.
        fees_at_proposal: Decimal,
        /// When.
        at: DateTime<Utc>,
    },
    /// A second officer approved the plan proposed.
    PaymentPlanApproved {
        /// The officer.
        officer_id: Uuid,
        /// When.
        at: DateTime<Utc>,
    },
    /// The borrower signed the plan: what the schedule still asked for is replaced by
    /// its installments, and the fees it waives are taken off.
    PaymentPlanSigned {
        /// Overdue fees waived (those the plan named and any charged since).
        fees_waived: Decimal,
        /// The new installments.
        installments: Vec<PlanInstallment>,
        /// The borrower's signature.
        signature: ImageRef,
        /// When.
        at: DateTime<Utc>,
    },
    /// Everything owed was paid (→ 10). What the payoff did not charge is waived (P12).
    LoanRepaid {
        /// Interest not charged (prepayment or cooling-off).
        interest_waived: Decimal,
        /// Overdue fees not charged (cooling-off).
        fees_waived: Decimal,
        /// True when closed within the cooling-off window.
        cooling_off: bool,
        /// When.
        at: DateTime<Utc>,
    },
}

impl DomainEvent for OrderEvent {
    fn event_type(&self) -> String {
        let name = match self {
            Self::LoanApplied { .. } => "LoanApplied",
            Self::ReviewStarted { .. } => "ReviewStarted",
            Self::ResubmissionRequested { .. } => "ResubmissionRequested",
            Self::Resubmitted { .. } => "Resubmitted",
            Self::FirstAuditPassed { .. } => "FirstAuditPassed",
            Self::FinalAuditPassed { .. } => "FinalAuditPassed",
            Self::LoanRefused { .. } => "LoanRefused",
            Self::LoanCancelled { .. } => "LoanCancelled",
            Self::OfferExpired { .. } => "OfferExpired",
            Self::PayoutRequested { .. } => "PayoutRequested",
            Self::PayoutSucceeded { .. } => "PayoutSucceeded",
            Self::PayoutFailed { .. } => "PayoutFailed",
            Self::RepaymentReceived { .. } => "RepaymentReceived",
            Self::PaymentSessionOpened { .. } => "PaymentSessionOpened",
            Self::PaymentSessionFailed { .. } => "PaymentSessionFailed",
            Self::PaymentSessionReplaced { .. } => "PaymentSessionReplaced",
            Self::PaymentSessionPaid { .. } => "PaymentSessionPaid",
            Self::PaymentRefundDue { .. } => "PaymentRefundDue",
            Self::ManualRepaymentProposed { .. } => "ManualRepaymentProposed",
            Self::InstallmentOverdue { .. } => "InstallmentOverdue",
            Self::OverdueFeeCharged { .. } => "OverdueFeeCharged",
            Self::OverdueReversed { .. } => "OverdueReversed",
            Self::ReminderDue { .. } => "ReminderDue",
            Self::LoanRepaid { .. } => "LoanRepaid",
            Self::DelinquencyChanged { .. } => "DelinquencyChanged",
            Self::ContactLogged { .. } => "ContactLogged",
            Self::ContactRefused { .. } => "ContactRefused",
            Self::CollectorAssigned { .. } => "CollectorAssigned",
            Self::ContactHoursChosen { .. } => "ContactHoursChosen",
            Self::PromiseMade { .. } => "PromiseMade",
            Self::PromiseSettled { .. } => "PromiseSettled",
            Self::ChargeOffProposed { .. } => "ChargeOffProposed",
            Self::LoanChargedOff { .. } => "LoanChargedOff",
            Self::RecoveryReceived { .. } => "RecoveryReceived",
            Self::ChargeOffClosed { .. } => "ChargeOffClosed",
            Self::ChargeOffReversalProposed { .. } => "ChargeOffReversalProposed",
            Self::ChargeOffReversed { .. } => "ChargeOffReversed",
            Self::WaiverProposed { .. } => "WaiverProposed",
            Self::ChargesWaived { .. } => "ChargesWaived",
            Self::TermExtended { .. } => "TermExtended",
            Self::PaymentPlanRequested { .. } => "PaymentPlanRequested",
            Self::PaymentPlanProposed { .. } => "PaymentPlanProposed",
            Self::PaymentPlanApproved { .. } => "PaymentPlanApproved",
            Self::PaymentPlanSigned { .. } => "PaymentPlanSigned",
        };
        name.to_string()
    }

    fn event_version(&self) -> String {
        "1.0".to_string()
    }
}
