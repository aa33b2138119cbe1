//! The Order aggregate: state, `handle` (the rules) and `apply` (assignment only).

use super::commands::{
    OrderCommand, RepaymentSource, MANUAL_FOUR_EYES_ABOVE, PAYMENT_SESSION_MINUTES,
};
use super::errors::OrderError;
use super::events::{OrderEvent, ReviewStage};
use super::loan::Loan;
use super::reminder::ReminderKind;
use super::status::OrderStatus;
use crate::pricing::{disclose, fee_headroom, processing_fee, Disclosure, LoanTerms};
use crate::services::OrderServices;
use crate::types::{
    check_length, BankAccount, ImageRef, InvalidInput, ResubmissionItem, MAX_NOTE_CHARS,
};
use chrono::{DateTime, Days, Utc};
use cqrs_es::event_sink::EventSink;
use cqrs_es::Aggregate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use uuid::Uuid;

/// The repayment rule (PRODUCT.md 5, P1, P12): positive, at most two decimals, never
/// more than `owed` today, and within `repay_min..=repay_max` — except that the final
/// payment may be exactly what is owed when that is below the minimum, and that the
/// amounts in `always` (today's payoff and the installments due today, PRODUCT.md 5:
/// "two amounts are always allowed in one payment whatever `repay_max` says") pass
/// whatever the range. Error 40001 with the range capped at what is owed. The order
/// applies it to every payment page and every repayment.
pub fn check_repayment_amount(
    amount: Decimal,
    terms: &LoanTerms,
    owed: Decimal,
    always: &[Decimal],
) -> Result<(), OrderError> {
    let in_range = amount >= terms.repay_min && amount <= terms.repay_max;
    let final_small = amount == owed && owed < terms.repay_min;
    let exempt = always.iter().any(|a| *a > Decimal::ZERO && *a == amount);
    let well_formed = amount > Decimal::ZERO && amount.round_dp(2) == amount;
    if !well_formed || amount > owed || !(in_range || final_small || exempt) {
        return Err(OrderError::RepaymentAmount {
            min: terms.repay_min.min(owed),
            max: terms.repay_max.min(owed),
        });
    }
    Ok(())
}

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
    /// The stored text (`open`, `paid`, `failed`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Paid => "paid",
            Self::Failed => "failed",
        }
    }

    /// The status a stored text names.
    pub fn parse(text: &str) -> Option<Self> {
        [Self::Open, Self::Paid, Self::Failed]
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
    /// Shown to the borrower.
    pub reason: String,
    /// Who refused.
    pub auditor_id: Uuid,
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
}

/// What a repayment took back before it was applied: the overdue the scheduler
/// recorded after the money arrived ([`Order::late_overdue`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TakenBack {
    /// Nothing: applied in time, or not applied at all.
    Nothing,
    /// Overdue marks only, no fee.
    Marks,
    /// Fees for days up to this one (and marks perhaps).
    FeesThrough(chrono::NaiveDate),
}

impl TakenBack {
    /// This, with one more reversal that took back fees through `through` (`None`: a
    /// mark alone).
    fn and(self, through: Option<chrono::NaiveDate>) -> Self {
        match (self, through) {
            (Self::FeesThrough(day), Some(other)) => Self::FeesThrough(day.max(other)),
            (Self::FeesThrough(day), None) => Self::FeesThrough(day),
            (_, Some(day)) => Self::FeesThrough(day),
            (_, None) => Self::Marks,
        }
    }
}

impl Order {
    fn exists(&self) -> Result<(), OrderError> {
        self.id.map(|_| ()).ok_or(OrderError::NotFound)
    }

    fn wrong_status(&self, action: &'static str) -> OrderError {
        OrderError::WrongStatus {
            status: self.status.code(),
            action,
        }
    }

    fn terms(&self) -> Result<&LoanTerms, OrderError> {
        self.terms.as_ref().ok_or(OrderError::NotFound)
    }

    fn loan(&self) -> Result<&Loan, OrderError> {
        self.loan.as_ref().ok_or(OrderError::NothingOwed)
    }

    fn ensure_no_payout_in_flight(&self) -> Result<(), OrderError> {
        match self.payout {
            Some(_) => Err(OrderError::PayoutInFlight),
            None => Ok(()),
        }
    }

    fn required_reason(reason: &str) -> Result<(), OrderError> {
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
            (Some(loan), OrderStatus::Disbursed) => loan.payoff(now.date_naive()).amount,
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

    async fn apply_for_loan(
        &mut self,
        command: OrderCommand,
        services: &OrderServices,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        let OrderCommand::ApplyForLoan {
            order_id,
            user_id,
            app_id,
            amount,
            period_days,
            signature,
            applicant_name,
            terms_version,
        } = command
        else {
            unreachable!("called with ApplyForLoan only")
        };
        if self.id == Some(order_id) {
            return Ok(()); // the loan workflow repeating its step after a crash
        }
        if self.id.is_some() {
            return Err(OrderError::AlreadyApplied);
        }
        // P7: nothing is created before the borrower has signed.
        let signature =
            signature.ok_or_else(|| InvalidInput::new("signature", "please sign first"))?;
        if applicant_name.trim().is_empty() {
            return Err(InvalidInput::new("realName", "is required").into());
        }
        let product = services
            .catalogue
            .product(app_id)
            .ok_or(OrderError::ProductNotFound)?;
        if !product.enabled {
            return Err(OrderError::ProductDisabled);
        }
        let terms = product.terms_for(period_days)?;
        product.check_amount(amount)?;
        // P5: checked again at apply, whatever the configuration says.
        services
            .compliance
            .check_loan(amount, &terms)
            .map_err(OrderError::Compliance)?;
        let disclosure = disclose(amount, &terms, &services.catalogue.lender());
        let event = OrderEvent::LoanApplied {
            order_id,
            user_id,
            app_id,
            product_name: product.name,
            amount,
            terms,
            disclosure,
            terms_version,
            signature,
            applicant_name,
            applied_at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// Requests the payout of `amount` to `account`, the offer judged valid as of
    /// `asked` (when the borrower asked, at most `now`).
    async fn request_payout(
        &mut self,
        payout_id: Uuid,
        amount: Decimal,
        account: BankAccount,
        sink: &EventSink<Self>,
        asked: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if self.knows_payout(payout_id) {
            return Ok(()); // the loan workflow repeating its step after a crash
        }
        if self.status != OrderStatus::Approved {
            return Err(self.wrong_status("withdraw from"));
        }
        self.ensure_no_payout_in_flight()?;
        if self.offer_expires_at.is_some_and(|end| asked >= end) {
            return Err(OrderError::OfferExpired);
        }
        if amount <= Decimal::ZERO || amount.round_dp(2) != amount {
            return Err(InvalidInput::new("withdrawAmount", "enter an amount").into());
        }
        if amount > self.balance {
            return Err(OrderError::InsufficientBalance);
        }
        // P3: only ever to an account in the borrower's own name.
        if account.holder_name != self.applicant_name {
            return Err(OrderError::AccountNotInBorrowersName);
        }
        let fee = processing_fee(amount, self.terms()?.processing_fee_pct);
        let event = OrderEvent::PayoutRequested {
            payout_id,
            amount,
            net_amount: amount - fee,
            account,
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    async fn open_payment_session(
        &mut self,
        session_id: Uuid,
        amount: Decimal,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if self.sessions.contains_key(&session_id) {
            return Ok(()); // a repeated request
        }
        // P1: nothing can be paid before the payout or after closing.
        let owed = self.payoff_at(now);
        if owed.is_zero() {
            return Err(OrderError::NothingOwed);
        }
        // P1 made exact (12.1): the open pages together never exceed the payoff.
        let headroom = (owed - self.open_sessions_total(now)).max(Decimal::ZERO);
        let loan = self.loan()?;
        let always = [owed, loan.due_on(now.date_naive())];
        check_repayment_amount(amount, &loan.terms, headroom, &always)?;
        let event = OrderEvent::PaymentSessionOpened {
            session_id,
            amount,
            expires_at: now + chrono::Duration::minutes(PAYMENT_SESSION_MINUTES),
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// How much of a recharge of `amount` on `session_id` is applied; the rest is
    /// refunded, for the reason given (12.1).
    fn recharge_split(
        &self,
        session_id: Option<Uuid>,
        amount: Decimal,
        now: DateTime<Utc>,
    ) -> (Decimal, Option<&'static str>) {
        let owed = self.payoff_at(now);
        let Some(session) = session_id.and_then(|id| self.sessions.get(&id)) else {
            return (
                Decimal::ZERO,
                Some("no payment page was opened for this payment"),
            );
        };
        if owed.is_zero() {
            return (Decimal::ZERO, Some("nothing is owed on this loan"));
        }
        if !session.is_payable(now) {
            let reason = match session.status {
                SessionStatus::Open => "the payment page had expired",
                _ => "the payment page was already closed",
            };
            return (Decimal::ZERO, Some(reason));
        }
        let candidate = amount.min(session.amount).min(owed);
        let loan = match self.loan() {
            Ok(loan) => loan,
            Err(_) => return (Decimal::ZERO, Some("nothing is owed on this loan")),
        };
        // The page's own amount was allowed when it opened (a payoff or today's
        // installments may exceed the range); so are today's two amounts.
        let always = [session.amount, owed, loan.due_on(now.date_naive())];
        if check_repayment_amount(candidate, &loan.terms, owed, &always).is_err() {
            return (
                Decimal::ZERO,
                Some("the amount differs from the payment page's"),
            );
        }
        let reason = if amount > owed && candidate == owed {
            "more than is owed was paid"
        } else {
            "the amount differs from the payment page's"
        };
        (candidate, (candidate < amount).then_some(reason))
    }

    /// The overdue charges and marks that a payment arrived at `arrived`
    /// takes back when the loan workflow applies it only later: on each installment,
    /// the fee charges for days after that day, and the overdue mark of an installment
    /// that on that day was not yet overdue. Empty when it is applied in time (or
    /// nothing is disbursed). See `OrderEvent::OverdueReversed`.
    fn late_overdue(&self, arrived: DateTime<Utc>, payment_ref: &str) -> Vec<OrderEvent> {
        let arrived_on = arrived.date_naive();
        let Some(loan) = self
            .loan
            .as_ref()
            .filter(|_| self.status == OrderStatus::Disbursed)
        else {
            return Vec::new();
        };
        loan.schedule
            .iter()
            .filter_map(|installment| {
                let late = installment
                    .fee_charges
                    .iter()
                    .filter(|charge| charge.through > arrived_on);
                let amount: Decimal = late.clone().map(|charge| charge.amount).sum();
                let from = late.clone().map(|charge| charge.from).min();
                let through = late.map(|charge| charge.through).max();
                let mark = installment.overdue && installment.due_date >= arrived_on;
                (from.is_some() || mark).then(|| OrderEvent::OverdueReversed {
                    period: installment.period,
                    from,
                    through,
                    amount,
                    payment_ref: payment_ref.to_string(),
                    at: arrived,
                })
            })
            .collect()
    }

    /// Applies a repayment as of `now` (its arrival, for money that arrived; see the
    /// command) and answers what it first took back of the overdue recorded after the
    /// arrival ([`Self::late_overdue`]): the caller charges those days again on what
    /// the payment left unpaid.
    async fn receive_repayment(
        &mut self,
        payment_ref: String,
        amount: Decimal,
        source: RepaymentSource,
        session_id: Option<Uuid>,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<TakenBack, OrderError> {
        if self.payment_refs.contains(&payment_ref) {
            return Ok(TakenBack::Nothing); // each payment reference is applied at most once
        }
        if payment_ref.trim().is_empty() {
            return Err(InvalidInput::new("reference", "is required").into());
        }
        let mut taken_back = TakenBack::Nothing;
        let accepted = match source {
            // Money that already arrived: apply what is owed, refund the rest (P1).
            RepaymentSource::Recharge => {
                if amount <= Decimal::ZERO || amount.round_dp(2) != amount {
                    return Err(InvalidInput::new("amount", "positive, two decimals").into());
                }
                // The payment is judged with the overdue charged after it arrived taken
                // back; they are taken back if it is applied at all (money refunded
                // whole prevented nothing).
                let late = self.late_overdue(now, &payment_ref);
                let (accepted, refund_reason) = if late.is_empty() {
                    self.recharge_split(session_id, amount, now)
                } else {
                    let mut judged = self.clone();
                    for event in late.iter().cloned() {
                        judged.apply(event);
                    }
                    judged.recharge_split(session_id, amount, now)
                };
                if !accepted.is_zero() {
                    for event in late {
                        if let OrderEvent::OverdueReversed { through, .. } = &event {
                            taken_back = taken_back.and(*through);
                        }
                        sink.write(event, self).await;
                    }
                }
                if let Some(session_id) = session_id.filter(|id| self.sessions.contains_key(id)) {
                    let event = OrderEvent::PaymentSessionPaid {
                        session_id,
                        payment_ref: payment_ref.clone(),
                        amount,
                        at: now,
                    };
                    sink.write(event, self).await;
                }
                if let Some(reason) = refund_reason {
                    let event = OrderEvent::PaymentRefundDue {
                        payment_ref: payment_ref.clone(),
                        amount: amount - accepted,
                        reason: reason.to_string(),
                        at: now,
                    };
                    sink.write(event, self).await;
                }
                accepted
            }
            // An auditor's entry of money received: refused unless the order owes
            // something (P1); what it does not owe is refunded (12.1).
            RepaymentSource::Manual { auditor_id } => {
                let owed = self.payoff_at(now);
                if owed.is_zero() {
                    return Err(OrderError::NothingOwed);
                }
                let terms = &self.loan()?.terms;
                let accepted = amount.min(owed);
                // The borrower's range does not cap money that already arrived; the
                // minimum still applies, except to the final payment.
                let uncapped = LoanTerms {
                    repay_max: owed,
                    ..terms.clone()
                };
                check_repayment_amount(accepted, &uncapped, owed, &[])?;
                if amount > MANUAL_FOUR_EYES_ABOVE {
                    match self.manual_proposals.get(&payment_ref) {
                        None => {
                            let event = OrderEvent::ManualRepaymentProposed {
                                payment_ref,
                                amount,
                                auditor_id,
                                at: now,
                            };
                            sink.write(event, self).await;
                            return Ok(TakenBack::Nothing);
                        }
                        Some((proposed, _)) if *proposed != amount => {
                            return Err(OrderError::ManualAmountMismatch);
                        }
                        Some((_, proposer)) if *proposer == auditor_id => {
                            return Err(OrderError::SecondAuditorRequired);
                        }
                        Some(_) => {}
                    }
                }
                if accepted < amount {
                    let event = OrderEvent::PaymentRefundDue {
                        payment_ref: payment_ref.clone(),
                        amount: amount - accepted,
                        reason: "more than is owed was paid".to_string(),
                        at: now,
                    };
                    sink.write(event, self).await;
                }
                accepted
            }
        };
        if accepted.is_zero() {
            return Ok(taken_back);
        }
        let owed = self.payoff_at(now);
        let allocations = self.loan()?.allocate(accepted);
        let event = OrderEvent::RepaymentReceived {
            payment_ref,
            amount: accepted,
            allocations,
            source,
            at: now,
        };
        sink.write(event, self).await;
        if accepted == owed {
            // P12: what the payoff does not charge is waived, never owed.
            let loan = self.loan()?;
            let quote = loan.payoff(now.date_naive());
            let remaining = loan.contractual_outstanding();
            let fees_waived: Decimal = loan.schedule.iter().map(|i| i.unpaid_fee()).sum();
            let event = OrderEvent::LoanRepaid {
                interest_waived: remaining - fees_waived,
                fees_waived,
                cooling_off: quote.cooling_off,
                at: now,
            };
            sink.write(event, self).await;
        }
        Ok(taken_back)
    }

    async fn accrue_overdue(
        &mut self,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if self.status != OrderStatus::Disbursed {
            return Ok(()); // nothing to accrue; the scheduler may run late
        }
        let today = now.date_naive();
        let schedule = self.loan()?.schedule.clone();
        for installment in schedule {
            if installment.due_date >= today || installment.unpaid().is_zero() {
                continue;
            }
            if !installment.overdue {
                let event = OrderEvent::InstallmentOverdue {
                    period: installment.period,
                    due_date: installment.due_date,
                };
                sink.write(event, self).await;
            }
            let loan = self.loan()?;
            let rate = loan.terms.overdue_daily_rate;
            let from = installment
                .fees_through
                .unwrap_or(installment.due_date)
                .checked_add_days(Days::new(1))
                .unwrap_or(today);
            if rate == 0 || from > today {
                continue;
            }
            let days = Decimal::from((today - from).num_days() + 1);
            let fee = installment.daily_overdue_fee(rate) * days;
            let headroom = fee_headroom(
                loan.principal(),
                loan.disclosure.interest,
                loan.fees_charged(),
                loan.terms.max_total_cost_pct,
            );
            let amount = fee.min(headroom);
            if amount > Decimal::ZERO {
                let event = OrderEvent::OverdueFeeCharged {
                    period: installment.period,
                    from,
                    through: today,
                    amount,
                };
                sink.write(event, self).await;
            }
        }
        Ok(())
    }
}

impl Order {
    /// The `kind` reminder of installment `period` at `now`, when one is due: the loan
    /// is disbursed, the installment exists and is still owed, today (UTC) is inside
    /// the kind's window ([`ReminderKind::is_open`]: its day, or a missed day made up
    /// soon after), and it was not recorded before. Anything else records nothing.
    async fn send_reminder(
        &mut self,
        period: u32,
        kind: ReminderKind,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        let Some(installment) = self.reminder_open(period, kind, now.date_naive()) else {
            return Ok(());
        };
        let (due_date, owed) = (installment.due_date, installment.unpaid());
        let event = OrderEvent::ReminderDue {
            period,
            kind,
            due_date,
            amount: owed,
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
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
        match command {
            command @ OrderCommand::ApplyForLoan { .. } => {
                self.apply_for_loan(command, services, sink, now).await?;
            }
            OrderCommand::StartReview { auditor_id } => {
                if self.status != OrderStatus::Submitted {
                    return Err(self.wrong_status("start review of"));
                }
                let event = OrderEvent::ReviewStarted {
                    auditor_id,
                    at: now,
                };
                sink.write(event, self).await;
            }
            OrderCommand::RequestResubmission {
                auditor_id,
                reason,
                items,
            } => {
                Self::required_reason(&reason)?;
                let items = ResubmissionItem::normalized(items);
                if items.is_empty() {
                    return Err(InvalidInput::new("items", "name at least one thing to fix").into());
                }
                let allowed = matches!(
                    self.status,
                    OrderStatus::Submitted
                        | OrderStatus::InFirstReview
                        | OrderStatus::AwaitingFinalReview
                );
                if !allowed {
                    return Err(self.wrong_status("request resubmission of"));
                }
                let event = OrderEvent::ResubmissionRequested {
                    auditor_id,
                    reason,
                    items,
                    at: now,
                };
                sink.write(event, self).await;
            }
            OrderCommand::Resubmit => {
                if self.status != OrderStatus::ResubmissionRequested {
                    return Err(self.wrong_status("resubmit"));
                }
                sink.write(OrderEvent::Resubmitted { at: now }, self).await;
            }
            OrderCommand::PassFirstAudit {
                auditor_id,
                note,
                identity_verified,
            } => {
                if self.status != OrderStatus::InFirstReview {
                    return Err(self.wrong_status("pass the first review of"));
                }
                if !identity_verified {
                    return Err(OrderError::IdentityNotVerified);
                }
                check_length("note", &note, MAX_NOTE_CHARS)?;
                let event = OrderEvent::FirstAuditPassed {
                    auditor_id,
                    note,
                    at: now,
                };
                sink.write(event, self).await;
            }
            OrderCommand::PassFinalAudit { auditor_id, note } => {
                if self.status != OrderStatus::AwaitingFinalReview {
                    return Err(self.wrong_status("pass the final review of"));
                }
                // Four-eyes: the final review is never done by the first reviewer.
                if self.first_auditor == Some(auditor_id) {
                    return Err(OrderError::SameAuditor);
                }
                check_length("note", &note, MAX_NOTE_CHARS)?;
                let valid_days = u64::from(self.terms()?.offer_valid_days);
                let event = OrderEvent::FinalAuditPassed {
                    auditor_id,
                    note,
                    approved_amount: self.applied_amount,
                    offer_expires_at: now + Days::new(valid_days),
                    at: now,
                };
                sink.write(event, self).await;
            }
            OrderCommand::Refuse { auditor_id, reason } => {
                Self::required_reason(&reason)?; // P8
                let stage = match self.status {
                    OrderStatus::Submitted
                    | OrderStatus::InFirstReview
                    | OrderStatus::ResubmissionRequested => ReviewStage::First,
                    OrderStatus::AwaitingFinalReview => ReviewStage::Final,
                    _ => return Err(self.wrong_status("refuse")),
                };
                // Four-eyes (PRODUCT.md 4.3): a refusal after the first review passed is the
                // final review's decision, so it is another auditor's, as a pass is; also
                // while a resubmission that auditor asked for is awaited (else asking for
                // one, then refusing, would be one person's decision). A first reviewer of
                // an earlier round is kept out there too: another auditor can refuse.
                let after_first_pass = stage == ReviewStage::Final
                    || self.status == OrderStatus::ResubmissionRequested;
                if after_first_pass && self.first_auditor == Some(auditor_id) {
                    return Err(OrderError::SameAuditor);
                }
                let event = OrderEvent::LoanRefused {
                    stage,
                    auditor_id,
                    reason,
                    at: now,
                };
                sink.write(event, self).await;
            }
            OrderCommand::Cancel => {
                if !(self.status.is_under_review() || self.status == OrderStatus::Approved) {
                    return Err(self.wrong_status("cancel"));
                }
                self.ensure_no_payout_in_flight()?;
                // P6: no fee of any kind; the undrawn balance is simply released.
                let event = OrderEvent::LoanCancelled {
                    released_amount: self.balance,
                    at: now,
                };
                sink.write(event, self).await;
            }
            OrderCommand::ExpireOffer => {
                if self.status != OrderStatus::Approved {
                    return Err(self.wrong_status("expire"));
                }
                self.ensure_no_payout_in_flight()?;
                if self.offer_expirable_at().is_some_and(|at| now < at) {
                    return Err(OrderError::OfferStillValid);
                }
                let event = OrderEvent::OfferExpired {
                    released_amount: self.balance,
                    at: now,
                };
                sink.write(event, self).await;
            }
            OrderCommand::RequestPayout {
                payout_id,
                amount,
                account,
                requested_at,
            } => {
                // As of the borrower's asking; a time past the order's clock is not
                // believed.
                let asked = requested_at.map_or(now, |at| at.min(now));
                self.request_payout(payout_id, amount, account, sink, asked, now)
                    .await?;
            }
            OrderCommand::RecordPayoutSucceeded { payout_id } => {
                let Some(attempt) = self.payout.clone().filter(|p| p.payout_id == payout_id) else {
                    return self.already_resolved(payout_id);
                };
                let terms = self.terms()?;
                let lender = self
                    .disclosure
                    .as_ref()
                    .map(|d| d.lender.clone())
                    .ok_or(OrderError::NotFound)?;
                // P10: principal is the amount paid out; the term starts today.
                let disclosure = disclose(attempt.amount, terms, &lender);
                let schedule = Loan::schedule_for(&disclosure, now);
                let event = OrderEvent::PayoutSucceeded {
                    payout_id,
                    released_amount: self.balance,
                    disclosure,
                    schedule,
                    paid_at: now,
                };
                sink.write(event, self).await;
            }
            OrderCommand::RecordPayoutFailed { payout_id, reason } => {
                let Some(attempt) = self.payout.clone().filter(|p| p.payout_id == payout_id) else {
                    return self.already_resolved(payout_id);
                };
                let reason = if reason.trim().is_empty() {
                    "connection to bank account failed".to_string()
                } else {
                    reason
                };
                // P3: the money returns to the balance; no lock, no fee.
                let event = OrderEvent::PayoutFailed {
                    payout_id,
                    amount: attempt.amount,
                    net_amount: attempt.net_amount,
                    reason,
                    at: now,
                };
                sink.write(event, self).await;
            }
            OrderCommand::OpenPaymentSession { session_id, amount } => {
                self.open_payment_session(session_id, amount, sink, now)
                    .await?;
            }
            OrderCommand::FailPaymentSession { session_id } => {
                let open = self
                    .sessions
                    .get(&session_id)
                    .ok_or(OrderError::UnknownSession)?
                    .status
                    == SessionStatus::Open;
                if open {
                    let event = OrderEvent::PaymentSessionFailed {
                        session_id,
                        at: now,
                    };
                    sink.write(event, self).await;
                }
            }
            OrderCommand::ReceiveRepayment {
                payment_ref,
                amount,
                source,
                session_id,
                received_at,
            } => {
                // As of the money's arrival; a time past the order's clock is not
                // believed (the events would be dated in its future).
                let as_of = received_at.map_or(now, |at| at.min(now));
                let taken_back = self
                    .receive_repayment(payment_ref, amount, source, session_id, sink, as_of)
                    .await?;
                // The days taken back charged again on what the payment left unpaid,
                // and no day beyond them: later days are the scheduler's (P11). Marks
                // alone: marked again as of now (no fee was charged after the arrival,
                // so none is now).
                let again = match taken_back {
                    TakenBack::Nothing => None,
                    TakenBack::Marks => Some(now),
                    TakenBack::FeesThrough(day) => {
                        Some(day.and_time(chrono::NaiveTime::MIN).and_utc().min(now))
                    }
                };
                if let Some(as_of) = again {
                    self.accrue_overdue(sink, as_of).await?;
                }
            }
            OrderCommand::AccrueOverdue => self.accrue_overdue(sink, now).await?,
            OrderCommand::SendReminder { period, kind } => {
                self.send_reminder(period, kind, sink, now).await?;
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            OrderEvent::LoanApplied {
                order_id,
                user_id,
                app_id,
                product_name,
                amount,
                terms,
                disclosure,
                terms_version,
                signature,
                applicant_name,
                applied_at,
            } => {
                self.id = Some(order_id);
                self.user_id = user_id;
                self.app_id = app_id;
                self.product_name = product_name;
                self.status = OrderStatus::Submitted;
                self.applied_amount = amount;
                self.terms = Some(terms);
                self.disclosure = Some(disclosure);
                self.terms_version = terms_version;
                self.signature = Some(signature);
                self.applicant_name = applicant_name;
                self.applied_at = Some(applied_at);
            }
            OrderEvent::ReviewStarted { .. } => self.status = OrderStatus::InFirstReview,
            OrderEvent::ResubmissionRequested { reason, items, .. } => {
                self.status = OrderStatus::ResubmissionRequested;
                self.resubmission_reason = Some(reason);
                self.resubmission_items = items;
            }
            OrderEvent::Resubmitted { .. } => {
                self.status = OrderStatus::Submitted;
                self.resubmission_reason = None;
                self.resubmission_items = Vec::new();
            }
            OrderEvent::FirstAuditPassed { auditor_id, .. } => {
                self.status = OrderStatus::AwaitingFinalReview;
                self.first_auditor = Some(auditor_id);
            }
            OrderEvent::FinalAuditPassed {
                auditor_id,
                approved_amount,
                offer_expires_at,
                ..
            } => {
                self.status = OrderStatus::Approved;
                self.final_auditor = Some(auditor_id);
                self.approved_amount = approved_amount;
                self.balance = approved_amount;
                self.offer_expires_at = Some(offer_expires_at);
            }
            OrderEvent::LoanRefused {
                stage,
                auditor_id,
                reason,
                ..
            } => {
                self.status = match stage {
                    ReviewStage::First => OrderStatus::RefusedAtFirstReview,
                    ReviewStage::Final => OrderStatus::RefusedAtFinalReview,
                };
                self.refusal = Some(Refusal {
                    stage,
                    reason,
                    auditor_id,
                });
            }
            OrderEvent::LoanCancelled { .. } => {
                self.status = OrderStatus::Cancelled;
                self.balance = Decimal::ZERO;
            }
            OrderEvent::OfferExpired { .. } => {
                self.status = OrderStatus::Expired;
                self.balance = Decimal::ZERO;
            }
            OrderEvent::PayoutRequested {
                payout_id,
                amount,
                net_amount,
                account,
                ..
            } => {
                self.balance -= amount;
                self.last_withdraw_error = None;
                self.payout = Some(PayoutAttempt {
                    payout_id,
                    amount,
                    net_amount,
                    account,
                });
            }
            OrderEvent::PayoutSucceeded {
                payout_id,
                disclosure,
                schedule,
                paid_at,
                ..
            } => {
                self.status = OrderStatus::Disbursed;
                self.balance = Decimal::ZERO;
                self.payout = None;
                self.resolved_payouts.insert(payout_id);
                self.loan = Some(Loan {
                    terms: self.terms.clone().unwrap_or_default(),
                    disclosure,
                    paid_at,
                    schedule,
                    repaid: Decimal::ZERO,
                    interest_waived: Decimal::ZERO,
                    fees_waived: Decimal::ZERO,
                });
            }
            OrderEvent::PayoutFailed {
                payout_id,
                amount,
                reason,
                ..
            } => {
                self.balance += amount;
                self.payout = None;
                self.resolved_payouts.insert(payout_id);
                self.last_withdraw_error = Some(reason);
            }
            OrderEvent::RepaymentReceived {
                payment_ref,
                amount,
                allocations,
                ..
            } => {
                self.manual_proposals.remove(&payment_ref);
                self.payment_refs.insert(payment_ref);
                if let Some(loan) = &mut self.loan {
                    loan.repaid += amount;
                    loan.pay(&allocations);
                }
            }
            OrderEvent::PaymentSessionOpened {
                session_id,
                amount,
                expires_at,
                ..
            } => {
                let session = PaymentSession {
                    amount,
                    expires_at,
                    status: SessionStatus::Open,
                };
                self.sessions.insert(session_id, session);
            }
            OrderEvent::PaymentSessionFailed { session_id, .. } => {
                if let Some(session) = self.sessions.get_mut(&session_id) {
                    session.status = SessionStatus::Failed;
                }
            }
            OrderEvent::PaymentSessionPaid {
                session_id,
                payment_ref,
                ..
            } => {
                self.payment_refs.insert(payment_ref);
                if let Some(session) = self.sessions.get_mut(&session_id) {
                    session.status = SessionStatus::Paid;
                }
            }
            OrderEvent::PaymentRefundDue { payment_ref, .. } => {
                self.payment_refs.insert(payment_ref);
            }
            OrderEvent::ManualRepaymentProposed {
                payment_ref,
                amount,
                auditor_id,
                ..
            } => {
                self.manual_proposals
                    .insert(payment_ref, (amount, auditor_id));
            }
            OrderEvent::InstallmentOverdue { period, .. } => {
                if let Some(i) = self.installment_mut(period) {
                    i.overdue = true;
                }
            }
            OrderEvent::OverdueFeeCharged {
                period,
                from,
                through,
                amount,
            } => {
                if let Some(i) = self.installment_mut(period) {
                    i.fee += amount;
                    i.fees_through = Some(through);
                    i.fee_charges.push(super::loan::FeeCharge {
                        from,
                        through,
                        amount,
                    });
                }
            }
            OrderEvent::OverdueReversed {
                period,
                from,
                amount,
                at,
                ..
            } => {
                if let Some(loan) = &mut self.loan {
                    loan.take_back_overdue(period, from, amount, at.date_naive());
                }
            }
            OrderEvent::ReminderDue { period, kind, .. } => {
                self.reminders.insert((period, kind));
            }
            OrderEvent::LoanRepaid {
                interest_waived,
                fees_waived,
                ..
            } => {
                self.status = OrderStatus::Repaid;
                if let Some(loan) = &mut self.loan {
                    loan.interest_waived = interest_waived;
                    loan.fees_waived = fees_waived;
                }
            }
        }
    }
}

impl Order {
    fn installment_mut(&mut self, period: u32) -> Option<&mut super::loan::Installment> {
        self.loan
            .as_mut()
            .and_then(|loan| loan.schedule.iter_mut().find(|i| i.period == period))
    }

    /// A payout result for a payout that is not in flight: a repeat of a result
    /// already recorded changes nothing; an unknown payout is an error.
    fn already_resolved(&self, payout_id: Uuid) -> Result<(), OrderError> {
        if self.resolved_payouts.contains(&payout_id) {
            Ok(())
        } else {
            Err(OrderError::UnknownPayout)
        }
    }
}
