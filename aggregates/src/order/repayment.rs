//! The Order's repayments (PRODUCT.md 5, 12.1, P1, P12): payment pages, money that
//! arrived on them (a recharge) or that an auditor entered (four-eyes above
//! [`MANUAL_FOUR_EYES_ABOVE`]), each payment reference applied at most once, never
//! more than is owed (the excess is refunded), and the loan closed by its payoff.

use super::aggregate::{Order, PaymentSession, SessionStatus};
use super::commands::{
    OrderCommand, RepaymentSource, MANUAL_FOUR_EYES_ABOVE, PAYMENT_SESSION_MINUTES,
};
use super::errors::OrderError;
use super::events::OrderEvent;
use super::overdue::TakenBack;
use super::status::OrderStatus;
use crate::pricing::LoanTerms;
use crate::types::InvalidInput;
use chrono::{DateTime, Utc};
use cqrs_es::event_sink::EventSink;
use cqrs_es::Aggregate;
use rust_decimal::Decimal;
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
    let in_range = amount >= terms.pricing.repay_min && amount <= terms.pricing.repay_max;
    let final_small = amount == owed && owed < terms.pricing.repay_min;
    let exempt = always.iter().any(|a| *a > Decimal::ZERO && *a == amount);
    let well_formed = amount > Decimal::ZERO && amount.round_dp(2) == amount;
    if !well_formed || amount > owed || !(in_range || final_small || exempt) {
        return Err(OrderError::RepaymentAmount {
            min: terms.pricing.repay_min.min(owed),
            max: terms.pricing.repay_max.min(owed),
        });
    }
    Ok(())
}

impl Order {
    /// `OpenPaymentSession`: a payment page for `amount`, payable for
    /// [`PAYMENT_SESSION_MINUTES`]; the open pages together never exceed the payoff.
    /// When the pages already open leave too little for `amount` but today's payoff
    /// allows it, the new page replaces them (`PaymentSessionReplaced`): a page the
    /// borrower left unpaid never blocks a payoff (issue 52), and money still paid on
    /// a replaced page is refunded in full.
    pub(super) async fn open_payment_session(
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
        let always = [owed, loan.due_on(self.day_of(now))];
        if check_repayment_amount(amount, &loan.terms, headroom, &always).is_err() {
            // Allowed against the payoff alone: the open pages give way to this one.
            check_repayment_amount(amount, &loan.terms, owed, &always)?;
            let open: Vec<Uuid> = self
                .sessions
                .iter()
                .filter(|(_, session)| session.is_payable(now))
                .map(|(id, _)| *id)
                .collect();
            for replaced in open {
                let event = OrderEvent::PaymentSessionReplaced {
                    session_id: replaced,
                    by: session_id,
                    at: now,
                };
                sink.write(event, self).await;
            }
        }
        let event = OrderEvent::PaymentSessionOpened {
            session_id,
            amount,
            expires_at: now + chrono::Duration::minutes(PAYMENT_SESSION_MINUTES),
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// `FailPaymentSession`: the provider reported a failure; an open page closes.
    pub(super) async fn fail_payment_session(
        &mut self,
        session_id: Uuid,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
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
        Ok(())
    }

    /// `ReceiveRepayment`: applies the payment as of its arrival, then charges again,
    /// on what it left unpaid, the overdue days it took back.
    pub(super) async fn receive_repayment(
        &mut self,
        command: OrderCommand,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        let OrderCommand::ReceiveRepayment {
            payment_ref,
            amount,
            source,
            session_id,
            received_at,
        } = command
        else {
            unreachable!("called with ReceiveRepayment only")
        };
        // As of the money's arrival; a time past the order's clock is not
        // believed (the events would be dated in its future).
        let as_of = received_at.map_or(now, |at| at.min(now));
        let taken_back = self
            .take_repayment(payment_ref, amount, source, session_id, sink, as_of)
            .await?;
        // The days taken back charged again on what the payment left unpaid,
        // and no day beyond them: later days are the scheduler's (P11). Marks
        // alone: marked again as of now (no fee was charged after the arrival,
        // so none is now).
        let again = match taken_back {
            TakenBack::Nothing => None,
            TakenBack::Marks => Some(now),
            TakenBack::FeesThrough(day) => Some(self.loan()?.terms.day_start(day).min(now)),
        };
        if let Some(as_of) = again {
            self.accrue_overdue(sink, as_of).await?;
        }
        Ok(())
    }

    /// Applies a repayment as of `now` (its arrival, for money that arrived; see the
    /// command) and answers what it first took back of the overdue recorded after the
    /// arrival ([`Self::late_overdue`]): the caller charges those days again on what
    /// the payment left unpaid.
    async fn take_repayment(
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
        let (accepted, taken_back) = match source {
            RepaymentSource::Recharge => {
                self.take_recharge(&payment_ref, amount, session_id, sink, now)
                    .await?
            }
            RepaymentSource::Manual { auditor_id } => {
                let accepted = self
                    .take_manual(&payment_ref, amount, auditor_id, sink, now)
                    .await?;
                (accepted, TakenBack::Nothing)
            }
        };
        if accepted.is_zero() {
            return Ok(taken_back);
        }
        self.record_repayment(payment_ref, accepted, source, sink, now)
            .await?;
        Ok(taken_back)
    }

    /// Money that already arrived on a payment page: applies what is owed, refunds
    /// the rest (P1). Answers the amount applied and the overdue taken back first.
    async fn take_recharge(
        &mut self,
        payment_ref: &str,
        amount: Decimal,
        session_id: Option<Uuid>,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(Decimal, TakenBack), OrderError> {
        let mut taken_back = TakenBack::Nothing;
        if amount <= Decimal::ZERO || amount.round_dp(2) != amount {
            return Err(InvalidInput::new("amount", "positive, two decimals").into());
        }
        // The payment is judged with the overdue charged after it arrived taken
        // back; they are taken back if it is applied at all (money refunded
        // whole prevented nothing).
        let late = self.late_overdue(now, payment_ref);
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
                payment_ref: payment_ref.to_string(),
                amount,
                at: now,
            };
            sink.write(event, self).await;
        }
        if let Some(reason) = refund_reason {
            let event = OrderEvent::PaymentRefundDue {
                payment_ref: payment_ref.to_string(),
                amount: amount - accepted,
                reason: reason.to_string(),
                at: now,
            };
            sink.write(event, self).await;
        }
        Ok((accepted, taken_back))
    }

    /// An auditor's entry of money received: refused unless the order owes
    /// something (P1); what it does not owe is refunded (12.1). Above
    /// [`MANUAL_FOUR_EYES_ABOVE`] the first entry is only proposed, and a second
    /// auditor's entry of the same amount applies it. Answers the amount applied
    /// (zero when only proposed).
    async fn take_manual(
        &mut self,
        payment_ref: &str,
        amount: Decimal,
        auditor_id: Uuid,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<Decimal, OrderError> {
        let owed = self.payoff_at(now);
        if owed.is_zero() {
            return Err(OrderError::NothingOwed);
        }
        let terms = &self.loan()?.terms;
        let accepted = amount.min(owed);
        // The borrower's range does not cap money that already arrived; the
        // minimum still applies, except to the final payment.
        let mut uncapped = terms.clone();
        uncapped.pricing.repay_max = owed;
        check_repayment_amount(accepted, &uncapped, owed, &[])?;
        if amount > MANUAL_FOUR_EYES_ABOVE {
            match self.manual_proposals.get(payment_ref) {
                None => {
                    let event = OrderEvent::ManualRepaymentProposed {
                        payment_ref: payment_ref.to_string(),
                        amount,
                        auditor_id,
                        at: now,
                    };
                    sink.write(event, self).await;
                    return Ok(Decimal::ZERO);
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
                payment_ref: payment_ref.to_string(),
                amount: amount - accepted,
                reason: "more than is owed was paid".to_string(),
                at: now,
            };
            sink.write(event, self).await;
        }
        Ok(accepted)
    }

    /// Records `accepted` against the oldest installments first, and closes the loan
    /// when it is today's payoff (P12: what the payoff does not charge is waived).
    async fn record_repayment(
        &mut self,
        payment_ref: String,
        accepted: Decimal,
        source: RepaymentSource,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        let owed = self.payoff_at(now);
        let allocations = self.loan()?.allocate(accepted);
        let event = OrderEvent::RepaymentReceived {
            payment_ref: payment_ref.clone(),
            amount: accepted,
            allocations,
            source,
            at: now,
        };
        sink.write(event, self).await;
        if self.collection.charge_off.is_some() {
            // A charged-off loan is still owed; what is paid now is a recovery (P16).
            let event = OrderEvent::RecoveryReceived {
                payment_ref,
                amount: accepted,
                at: now,
            };
            sink.write(event, self).await;
        }
        if accepted == owed {
            // P12: what the payoff does not charge is waived, never owed.
            let loan = self.loan()?;
            let quote = loan.payoff(self.day_of(now));
            let remaining = loan.contractual_outstanding();
            // Outside the cooling-off window the payoff charges every fee: what it
            // leaves is unearned interest, wherever a payment plan put the fees.
            let fees_waived: Decimal = if quote.cooling_off {
                loan.schedule.iter().map(|i| i.unpaid_fee()).sum()
            } else {
                Decimal::ZERO
            };
            let waived = remaining;
            let event = OrderEvent::LoanRepaid {
                interest_waived: remaining - fees_waived,
                fees_waived,
                cooling_off: quote.cooling_off,
                at: now,
            };
            sink.write(event, self).await;
            if self.collection.charge_off.is_some() {
                // What the payoff waived had been written off with the rest.
                let event = OrderEvent::ChargeOffClosed { waived, at: now };
                sink.write(event, self).await;
            }
        }
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
        let always = [session.amount, owed, loan.due_on(self.day_of(now))];
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

    /// Assigns a payment page, repayment, refund or loan closing event.
    pub(super) fn apply_repayment_event(&mut self, event: OrderEvent) {
        match event {
            OrderEvent::RepaymentReceived {
                payment_ref,
                amount,
                allocations,
                at,
                ..
            } => {
                self.manual_proposals.remove(&payment_ref);
                self.payment_refs.insert(payment_ref);
                self.credit_promise(amount, at);
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
            OrderEvent::PaymentSessionReplaced { session_id, .. } => {
                if let Some(session) = self.sessions.get_mut(&session_id) {
                    session.status = SessionStatus::Replaced;
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
            _ => unreachable!("`apply` routes only repayment events here"),
        }
    }
}
