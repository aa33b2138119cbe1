//! The Order aggregate: state, `handle` (the rules) and `apply` (assignment only).
//!
//! `handle` and `apply` only dispatch: each command is decided, and each event
//! assigned, by a method in the module of its concern (`application`, `review`,
//! `payout`, `repayment`, `overdue`, `reminder`).

use super::commands::OrderCommand;
use super::errors::OrderError;
use super::events::{OrderEvent, RefusalReason, ReviewStage};
use super::loan::Loan;
use super::reminder::ReminderKind;
use super::status::OrderStatus;
use crate::pricing::{Disclosure, LoanTerms};
use crate::services::OrderServices;
use crate::types::{
    check_length, BankAccount, ImageRef, InvalidInput, ResubmissionItem, MAX_NOTE_CHARS,
};
use chrono::{DateTime, NaiveDate, Utc};
use cqrs_es::event_sink::EventSink;
use cqrs_es::Aggregate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use uuid::Uuid;

/// A payout requested and not yet resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PayoutAttempt {
    /// Payout id.
    pub payout_id: Uuid,
    /// Principal drawn.
    pub amount: Decimal,
    /// Sent to the account: amount − processing fee.
    pub net_amount: Decimal,
    /// The borrower's account.
    pub account: BankAccount,
}

/// Where a payment session stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SessionStatus {
    /// Payable until it expires.
    Open,
    /// Money arrived on it; never payable again.
    Paid,
    /// The provider reported a failure; never payable again.
    Failed,
    /// A newer page replaced it before it was paid; never payable again.
    Replaced,
}

/// A payment page of this order (12.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentSession {
    /// Amount asked for.
    pub amount: Decimal,
    /// After this it is no longer payable.
    pub expires_at: DateTime<Utc>,
    /// Where it stands.
    pub status: SessionStatus,
}

impl SessionStatus {
    /// The stored text (`open`, `paid`, `failed`, `replaced`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Paid => "paid",
            Self::Failed => "failed",
            Self::Replaced => "replaced",
        }
    }

    /// The status a stored text names.
    pub fn parse(text: &str) -> Option<Self> {
        [Self::Open, Self::Paid, Self::Failed, Self::Replaced]
            .into_iter()
            .find(|status| status.as_str() == text)
    }
}

impl PaymentSession {
    /// Open and not expired at `now`.
    pub fn is_payable(&self, now: DateTime<Utc>) -> bool {
        self.status == SessionStatus::Open && now < self.expires_at
    }
}

/// Why and where an order was refused (P8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    /// Which review.
    pub stage: ReviewStage,
    /// The officer's note, shown as typed (may be empty when `reasons` are given).
    pub reason: String,
    /// The coded reasons, shown in the borrower's language.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<RefusalReason>,
    /// Who refused.
    pub auditor_id: Uuid,
}

/// A resubmission as the officer reviews it (PRODUCT.md 12.4, issue 52).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resubmission {
    /// What the officer asked to fix.
    pub asked: Vec<ResubmissionItem>,
    /// What of it the borrower changed.
    pub fixed: Vec<ResubmissionItem>,
    /// When the borrower resubmitted.
    pub at: DateTime<Utc>,
}

/// An order as folded from its events.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Order {
    /// None until applied.
    pub id: Option<Uuid>,
    /// Borrower.
    pub user_id: Uuid,
    /// Product id.
    pub app_id: i64,
    /// Product name at apply.
    pub product_name: String,
    /// Status (4.3).
    pub status: OrderStatus,
    /// Amount applied for.
    pub applied_amount: Decimal,
    /// Terms at apply.
    pub terms: Option<LoanTerms>,
    /// Disclosure shown at apply.
    pub disclosure: Option<Disclosure>,
    /// Contract text version.
    pub terms_version: String,
    /// Signature on the application.
    pub signature: Option<ImageRef>,
    /// Applicant's real name.
    pub applicant_name: String,
    /// When applied.
    pub applied_at: Option<DateTime<Utc>>,
    /// Auditor of the first review.
    pub first_auditor: Option<Uuid>,
    /// Auditor of the final review.
    pub final_auditor: Option<Uuid>,
    /// Reason of a pending resubmission request.
    pub resubmission_reason: Option<String>,
    /// What a pending resubmission request asks to fix (empty when none is pending).
    #[serde(default)]
    pub resubmission_items: Vec<ResubmissionItem>,
    /// The last resubmission: what was asked and what of it the borrower changed
    /// (issue 52), for the officer's next review; `None` before any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_resubmission: Option<Resubmission>,
    /// Refusal, when refused.
    pub refusal: Option<Refusal>,
    /// Approved amount.
    pub approved_amount: Decimal,
    /// Withdrawable balance (status 9).
    pub balance: Decimal,
    /// Offer validity end.
    pub offer_expires_at: Option<DateTime<Utc>>,
    /// The payout in flight.
    pub payout: Option<PayoutAttempt>,
    /// Payouts already resolved (succeeded or failed).
    pub resolved_payouts: BTreeSet<Uuid>,
    /// The last payout failure reason.
    pub last_withdraw_error: Option<String>,
    /// The loan, once disbursed.
    pub loan: Option<Loan>,
    /// Payment references already applied (or refunded).
    pub payment_refs: BTreeSet<String>,
    /// Payment sessions by id (12.1).
    #[serde(default)]
    pub sessions: std::collections::BTreeMap<Uuid, PaymentSession>,
    /// Manual repayments above the four-eyes limit awaiting a second auditor:
    /// reference → (amount, the auditor who entered it).
    #[serde(default)]
    pub manual_proposals: std::collections::BTreeMap<String, (Decimal, Uuid)>,
    /// The due-date reminders recorded so far: (installment number, kind). Each is
    /// recorded once (PRODUCT.md 12.5).
    #[serde(default)]
    pub reminders: BTreeSet<(u32, ReminderKind)>,
    /// Days past due, contacts, promise to pay (issue 53).
    #[serde(default)]
    pub collection: super::collection::Collection,
}

impl Order {
    pub(super) fn exists(&self) -> Result<(), OrderError> {
        self.id.map(|_| ()).ok_or(OrderError::NotFound)
    }

    /// The loan's day of the moment `at` ([`LoanTerms::day_of`]): the profile's local
    /// day; UTC before terms exist.
    pub fn day_of(&self, at: DateTime<Utc>) -> NaiveDate {
        self.terms
            .as_ref()
            .map_or_else(|| at.date_naive(), |terms| terms.day_of(at))
    }

    pub(super) fn wrong_status(&self, action: &'static str) -> OrderError {
        OrderError::WrongStatus {
            status: self.status.code(),
            action,
        }
    }

    pub(super) fn terms(&self) -> Result<&LoanTerms, OrderError> {
        self.terms.as_ref().ok_or(OrderError::NotFound)
    }

    pub(super) fn loan(&self) -> Result<&Loan, OrderError> {
        self.loan.as_ref().ok_or(OrderError::NothingOwed)
    }

    pub(super) fn ensure_no_payout_in_flight(&self) -> Result<(), OrderError> {
        match self.payout {
            Some(_) => Err(OrderError::PayoutInFlight),
            None => Ok(()),
        }
    }

    pub(super) fn required_reason(reason: &str) -> Result<(), OrderError> {
        if reason.trim().is_empty() {
            return Err(InvalidInput::new("reason", "is required").into());
        }
        Ok(check_length("reason", reason, MAX_NOTE_CHARS)?)
    }

    /// True when the payout `payout_id` was accepted (in flight or resolved).
    pub fn knows_payout(&self, payout_id: Uuid) -> bool {
        self.payout
            .as_ref()
            .is_some_and(|p| p.payout_id == payout_id)
            || self.resolved_payouts.contains(&payout_id)
    }

    /// What closes the loan at `now` (P12): zero unless disbursed.
    pub fn payoff_at(&self, now: DateTime<Utc>) -> Decimal {
        match (&self.loan, self.status) {
            (Some(loan), OrderStatus::Disbursed) => loan.payoff(self.day_of(now)).amount,
            _ => Decimal::ZERO,
        }
    }

    /// The sum of the sessions still payable at `now`.
    pub fn open_sessions_total(&self, now: DateTime<Utc>) -> Decimal {
        self.sessions
            .values()
            .filter(|s| s.is_payable(now))
            .map(|s| s.amount)
            .sum()
    }

    /// Total still owed under the schedule; zero before the payout.
    pub fn outstanding(&self) -> Decimal {
        self.loan
            .as_ref()
            .filter(|_| self.status == OrderStatus::Disbursed)
            .map(Loan::contractual_outstanding)
            .unwrap_or_default()
    }
}

impl Aggregate for Order {
    const TYPE: &'static str = "Order";
    type Command = OrderCommand;
    type Event = OrderEvent;
    type Error = OrderError;
    type Services = OrderServices;

    async fn handle(
        &mut self,
        command: Self::Command,
        services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        let now = services.clock.now();
        if !matches!(command, OrderCommand::ApplyForLoan { .. }) {
            self.exists()?;
        }
        // One method per command, in the module of its concern; a command of four or
        // more fields goes whole, and the method takes it apart.
        use OrderCommand as C;
        match command {
            command @ C::ApplyForLoan { .. } => {
                self.apply_for_loan(command, services, sink, now).await
            }
            C::StartReview { auditor_id } => self.start_review(auditor_id, sink, now).await,
            C::RequestResubmission {
                auditor_id,
                reason,
                items,
            } => {
                self.request_resubmission(auditor_id, reason, items, sink, now)
                    .await
            }
            C::Resubmit { fixed } => self.resubmit(&fixed, sink, now).await,
            C::PassFirstAudit {
                auditor_id,
                note,
                identity_verified,
            } => {
                self.pass_first_audit(auditor_id, note, identity_verified, sink, now)
                    .await
            }
            C::PassFinalAudit { auditor_id, note } => {
                self.pass_final_audit(auditor_id, note, sink, now).await
            }
            C::Refuse {
                auditor_id,
                reason,
                reasons,
            } => self.refuse(auditor_id, reason, reasons, sink, now).await,
            C::Cancel => self.cancel(sink, now).await,
            C::ExpireOffer => self.expire_offer(sink, now).await,
            command @ C::RequestPayout { .. } => self.request_payout(command, sink, now).await,
            C::RecordPayoutSucceeded { payout_id } => {
                self.record_payout_succeeded(payout_id, sink, now).await
            }
            C::RecordPayoutFailed { payout_id, reason } => {
                self.record_payout_failed(payout_id, reason, sink, now)
                    .await
            }
            C::OpenPaymentSession { session_id, amount } => {
                self.open_payment_session(session_id, amount, sink, now)
                    .await
            }
            C::FailPaymentSession { session_id } => {
                self.fail_payment_session(session_id, sink, now).await
            }
            command @ C::ReceiveRepayment { .. } => {
                self.receive_repayment(command, sink, now).await?;
                self.review_collection(false, services, sink, now).await
            }
            C::AccrueOverdue => {
                self.accrue_overdue(sink, now).await?;
                self.review_collection(true, services, sink, now).await
            }
            command @ (C::LogContact(_)
            | C::AssignCollector { .. }
            | C::ChooseContactHours { .. }
            | C::PromiseToPay { .. }
            | C::ChargeOff { .. }
            | C::ReverseChargeOff { .. }
            | C::WaiveCharges { .. }
            | C::ExtendTerm { .. }
            | C::RequestPaymentPlan { .. }
            | C::ProposePaymentPlan { .. }
            | C::ApprovePaymentPlan { .. }
            | C::SignPaymentPlan { .. }) => {
                self.handle_collection(command, services, sink, now).await
            }
            C::SendReminder { period, kind } => self.send_reminder(period, kind, sink, now).await,
        }
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            event @ (OrderEvent::LoanApplied { .. } | OrderEvent::LoanCancelled { .. }) => {
                self.apply_application_event(event)
            }
            event @ (OrderEvent::ReviewStarted { .. }
            | OrderEvent::ResubmissionRequested { .. }
            | OrderEvent::Resubmitted { .. }
            | OrderEvent::FirstAuditPassed { .. }
            | OrderEvent::FinalAuditPassed { .. }
            | OrderEvent::LoanRefused { .. }) => self.apply_review_event(event),
            event @ (OrderEvent::OfferExpired { .. }
            | OrderEvent::PayoutRequested { .. }
            | OrderEvent::PayoutSucceeded { .. }
            | OrderEvent::PayoutFailed { .. }) => self.apply_payout_event(event),
            event @ (OrderEvent::RepaymentReceived { .. }
            | OrderEvent::PaymentSessionOpened { .. }
            | OrderEvent::PaymentSessionFailed { .. }
            | OrderEvent::PaymentSessionReplaced { .. }
            | OrderEvent::PaymentSessionPaid { .. }
            | OrderEvent::PaymentRefundDue { .. }
            | OrderEvent::ManualRepaymentProposed { .. }
            | OrderEvent::LoanRepaid { .. }) => self.apply_repayment_event(event),
            event @ (OrderEvent::InstallmentOverdue { .. }
            | OrderEvent::OverdueFeeCharged { .. }
            | OrderEvent::OverdueReversed { .. }) => self.apply_overdue_event(event),
            OrderEvent::ReminderDue { period, kind, .. } => {
                self.reminders.insert((period, kind));
            }
            event @ (OrderEvent::DelinquencyChanged { .. }
            | OrderEvent::ContactLogged { .. }
            | OrderEvent::ContactRefused { .. }
            | OrderEvent::CollectorAssigned { .. }
            | OrderEvent::ContactHoursChosen { .. }
            | OrderEvent::PromiseMade { .. }
            | OrderEvent::PromiseSettled { .. }) => self.apply_collection_event(event),
            event @ (OrderEvent::ChargeOffProposed { .. }
            | OrderEvent::LoanChargedOff { .. }
            | OrderEvent::RecoveryReceived { .. }
            | OrderEvent::ChargeOffClosed { .. }
            | OrderEvent::ChargeOffReversalProposed { .. }
            | OrderEvent::ChargeOffReversed { .. }) => self.apply_charge_off_event(event),
            OrderEvent::TermExtended {
                days,
                extra_interest,
                at,
                ..
            } => self.apply_extension(days, extra_interest, at),
            event @ (OrderEvent::WaiverProposed { .. } | OrderEvent::ChargesWaived { .. }) => {
                self.apply_waiver_event(event)
            }
            event @ (OrderEvent::PaymentPlanRequested { .. }
            | OrderEvent::PaymentPlanProposed { .. }
            | OrderEvent::PaymentPlanApproved { .. }
            | OrderEvent::PaymentPlanSigned { .. }) => self.apply_payment_plan_event(event),
        }
    }
}
