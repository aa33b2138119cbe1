//! The Order's approved offer: one drawdown up to the approved balance, to the
//! borrower's own account (P2, P3), its result (a success starts the loan, P10; a
//! failure returns the amount and keeps status 9, P3), and the offer's end when it is
//! not withdrawn in time (4.3).

use super::aggregate::{Order, PayoutAttempt};
use super::commands::OrderCommand;
use super::errors::OrderError;
use super::events::OrderEvent;
use super::loan::Loan;
use super::status::OrderStatus;
use crate::pricing::{disclose, processing_fee};
use crate::types::InvalidInput;
use chrono::{DateTime, Utc};
use cqrs_es::event_sink::EventSink;
use rust_decimal::Decimal;
use uuid::Uuid;

impl Order {
    /// `RequestPayout`: the payout of `amount` to `account`, the offer judged valid as
    /// of the borrower's asking (at most `now`).
    pub(super) async fn request_payout(
        &mut self,
        command: OrderCommand,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        let OrderCommand::RequestPayout {
            payout_id,
            amount,
            account,
            requested_at,
        } = command
        else {
            unreachable!("called with RequestPayout only")
        };
        // As of the borrower's asking; a time past the order's clock is not
        // believed.
        let asked = requested_at.map_or(now, |at| at.min(now));
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
        let fee = processing_fee(amount, self.terms()?.pricing.processing_fee_pct);
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

    /// `RecordPayoutSucceeded`: the money reached the borrower; the loan starts today
    /// on the amount paid out (P10).
    pub(super) async fn record_payout_succeeded(
        &mut self,
        payout_id: Uuid,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
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
        let schedule = Loan::schedule_for(&disclosure, terms.day_of(now));
        let event = OrderEvent::PayoutSucceeded {
            payout_id,
            released_amount: self.balance,
            disclosure,
            schedule,
            paid_at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// `RecordPayoutFailed`: the amount returns to the balance, status 9 stays (P3).
    pub(super) async fn record_payout_failed(
        &mut self,
        payout_id: Uuid,
        reason: String,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
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
        Ok(())
    }

    /// `ExpireOffer`: the scheduler ends an offer not withdrawn in time
    /// ([`Order::offer_expirable_at`]); the balance is released.
    pub(super) async fn expire_offer(
        &mut self,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
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
        Ok(())
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

    /// Assigns a payout or offer expiry event.
    pub(super) fn apply_payout_event(&mut self, event: OrderEvent) {
        match event {
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
                    extended_days: 0,
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
            _ => unreachable!("`apply` routes only payout events here"),
        }
    }
}
