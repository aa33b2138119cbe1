//! Charge-off and recovery (issue 53, P16): a loan long past due is written off the
//! books by two officers, and can be written back by two officers. The borrower
//! still owes every cent: the schedule is unchanged, payments are still taken and
//! allocated, and each is recorded as a recovery (`RecoveryReceived`).
//!
//! Guarantees, decided here:
//! - a charge-off is proposed only once the loan is at least the configured days past
//!   due ([`crate::services::ProductCatalogue::charge_off_after_days`], default 180),
//!   with a reason, and takes effect only when another officer confirms it (four
//!   eyes, 50006 for the same officer);
//! - it writes off exactly what is outstanding then, so the ledger's
//!   `loan_receivable` of the order comes to zero (`LoanChargedOff`);
//! - a reversal (the same four eyes) restores exactly what is still owed: what was
//!   written off less what was recovered since (`ChargeOffReversed`);
//! - no overdue fee accrues on a charged-off loan (non-accrual): nothing is added to
//!   what the borrower owes while it is off the books.

use super::aggregate::Order;
use super::errors::OrderError;
use super::events::OrderEvent;
use super::status::OrderStatus;
use chrono::{DateTime, Utc};
use cqrs_es::event_sink::EventSink;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A loan off the books.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChargeOff {
    /// What was written off.
    pub written_off: Decimal,
    /// Recovered since.
    pub recovered: Decimal,
    /// When.
    pub at: DateTime<Utc>,
}

/// A charge-off (or its reversal) waiting for a second officer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FourEyesProposal {
    /// The officer who proposed it.
    pub officer_id: Uuid,
    /// Why.
    pub reason: String,
}

impl Order {
    /// `ChargeOff`: the first officer proposes, another confirms.
    pub(super) async fn charge_off(
        &mut self,
        officer_id: Uuid,
        reason: String,
        threshold: u32,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if self.status != OrderStatus::Disbursed || self.collection.charge_off.is_some() {
            return Err(self.wrong_status("charge off"));
        }
        Self::required_reason(&reason)?;
        let days_past_due = self.days_past_due(self.day_of(now));
        if days_past_due < threshold {
            return Err(OrderError::ChargeOffTooEarly {
                days_past_due,
                threshold,
            });
        }
        match self.collection.charge_off_proposal.clone() {
            None => {
                let event = OrderEvent::ChargeOffProposed {
                    officer_id,
                    reason,
                    days_past_due,
                    at: now,
                };
                sink.write(event, self).await;
            }
            Some(proposal) if proposal.officer_id == officer_id => {
                return Err(OrderError::SecondStaffRequired)
            }
            Some(proposal) => {
                let event = OrderEvent::LoanChargedOff {
                    proposed_by: proposal.officer_id,
                    confirmed_by: officer_id,
                    reason: proposal.reason,
                    written_off: self.outstanding(),
                    days_past_due,
                    at: now,
                };
                sink.write(event, self).await;
            }
        }
        Ok(())
    }

    /// `ReverseChargeOff`: the same four eyes put the loan back on the books.
    pub(super) async fn reverse_charge_off(
        &mut self,
        officer_id: Uuid,
        reason: String,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        let Some(charge_off) = self.collection.charge_off.clone() else {
            return Err(self.wrong_status("reverse the charge-off of"));
        };
        if self.status != OrderStatus::Disbursed {
            return Err(self.wrong_status("reverse the charge-off of"));
        }
        Self::required_reason(&reason)?;
        match self.collection.reversal_proposal.clone() {
            None => {
                let event = OrderEvent::ChargeOffReversalProposed {
                    officer_id,
                    reason,
                    at: now,
                };
                sink.write(event, self).await;
            }
            Some(proposal) if proposal.officer_id == officer_id => {
                return Err(OrderError::SecondStaffRequired)
            }
            Some(proposal) => {
                let event = OrderEvent::ChargeOffReversed {
                    proposed_by: proposal.officer_id,
                    confirmed_by: officer_id,
                    reason: proposal.reason,
                    written_off: charge_off.written_off,
                    recovered: charge_off.recovered,
                    restored: charge_off.written_off - charge_off.recovered,
                    at: now,
                };
                sink.write(event, self).await;
            }
        }
        Ok(())
    }

    /// Assigns a charge-off event.
    pub(super) fn apply_charge_off_event(&mut self, event: OrderEvent) {
        let collection = &mut self.collection;
        match event {
            OrderEvent::ChargeOffProposed {
                officer_id, reason, ..
            } => collection.charge_off_proposal = Some(FourEyesProposal { officer_id, reason }),
            OrderEvent::LoanChargedOff {
                written_off, at, ..
            } => {
                collection.charge_off_proposal = None;
                collection.charge_off = Some(ChargeOff {
                    written_off,
                    recovered: Decimal::ZERO,
                    at,
                });
            }
            OrderEvent::RecoveryReceived { amount, .. } => {
                if let Some(charge_off) = &mut collection.charge_off {
                    charge_off.recovered += amount;
                }
            }
            OrderEvent::ChargeOffClosed { .. } => {}
            OrderEvent::ChargeOffReversalProposed {
                officer_id, reason, ..
            } => collection.reversal_proposal = Some(FourEyesProposal { officer_id, reason }),
            OrderEvent::ChargeOffReversed { .. } => {
                collection.reversal_proposal = None;
                collection.charge_off = None;
            }
            _ => unreachable!("`apply` routes only charge-off events here"),
        }
    }
}
