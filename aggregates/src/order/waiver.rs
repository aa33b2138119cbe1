//! Waivers (issue 53, P11, P16): an officer reduces what a borrower owes, never
//! increases it: overdue fees, or interest, with a reason. Above the configured amount
//! ([`crate::services::ProductCatalogue::waiver_four_eyes_above`], default 1,000) the
//! first officer proposes and a second confirms the same waiver (four eyes, 50006).
//!
//! Guarantees, decided here:
//! - a waiver is more than zero and at most what is unpaid of its kind: fees still
//!   owed, or interest still owed (the contract's interest less what was waived
//!   before, and no more than the installments still owe apart from fees);
//! - it reduces the latest installments first (fees: the latest charges), so what
//!   falls due soonest stays as the borrower knows it;
//! - nothing on a charged-off loan (the write-off already took it off the books);
//! - a waiver that leaves nothing owed closes the loan.

use super::aggregate::Order;
use super::errors::OrderError;
use super::events::{Allocation, OrderEvent};
use super::status::OrderStatus;
use crate::types::InvalidInput;
use chrono::{DateTime, Utc};
use cqrs_es::event_sink::EventSink;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// What a waiver reduces.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WaiverKind {
    /// Overdue fees.
    Fees,
    /// Interest.
    Interest,
}

/// A waiver above the four-eyes amount waiting for a second officer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaiverProposal {
    /// The officer who proposed it.
    pub officer_id: Uuid,
    /// Fees or interest.
    pub kind: WaiverKind,
    /// How much.
    pub amount: Decimal,
    /// Why.
    pub reason: String,
}

impl Order {
    /// The most that can be waived of `kind` now.
    pub fn waivable(&self, kind: WaiverKind) -> Decimal {
        let Some(loan) = self
            .loan
            .as_ref()
            .filter(|_| self.status == OrderStatus::Disbursed)
        else {
            return Decimal::ZERO;
        };
        match kind {
            WaiverKind::Fees => loan.schedule.iter().map(|i| i.unpaid_fee()).sum(),
            WaiverKind::Interest => {
                let owed: Decimal = loan
                    .schedule
                    .iter()
                    .map(|i| i.unpaid() - i.unpaid_fee())
                    .sum();
                let left = loan.disclosure.interest - self.collection.interest_waived;
                owed.min(left).max(Decimal::ZERO)
            }
        }
    }

    /// How a waiver of `amount` of `kind` is taken off, latest installments first.
    fn waiver_reductions(&self, kind: WaiverKind, amount: Decimal) -> Vec<Allocation> {
        let Some(loan) = &self.loan else {
            return Vec::new();
        };
        let mut left = amount;
        let mut reductions = Vec::new();
        for installment in loan.schedule.iter().rev() {
            let room = match kind {
                WaiverKind::Fees => installment.unpaid_fee(),
                WaiverKind::Interest => installment.unpaid() - installment.unpaid_fee(),
            };
            let take = room.min(left);
            if take > Decimal::ZERO {
                reductions.push(Allocation {
                    period: installment.period,
                    amount: take,
                });
                left -= take;
            }
            if left.is_zero() {
                break;
            }
        }
        reductions
    }

    /// `WaiveCharges`.
    #[allow(clippy::too_many_arguments)] // the waiver's facts and the four-eyes limit
    pub(super) async fn waive_charges(
        &mut self,
        officer_id: Uuid,
        kind: WaiverKind,
        amount: Decimal,
        reason: String,
        four_eyes_above: Decimal,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if self.status != OrderStatus::Disbursed || self.collection.charge_off.is_some() {
            return Err(self.wrong_status("waive charges on"));
        }
        Self::required_reason(&reason)?;
        let most = self.waivable(kind);
        if amount <= Decimal::ZERO || amount.scale() > 2 || amount > most {
            let why = format!("more than 0 and at most {most}");
            return Err(InvalidInput::new("amount", &why).into());
        }
        let confirmed_by = if amount > four_eyes_above {
            match self.collection.waiver_proposal.clone() {
                Some(p) if p.kind == kind && p.amount == amount && p.officer_id == officer_id => {
                    return Err(OrderError::SecondStaffRequired)
                }
                Some(p) if p.kind == kind && p.amount == amount => Some((p.officer_id, p.reason)),
                _ => {
                    let event = OrderEvent::WaiverProposed {
                        officer_id,
                        kind,
                        amount,
                        reason,
                        at: now,
                    };
                    sink.write(event, self).await;
                    return Ok(());
                }
            }
        } else {
            None
        };
        let (proposed_by, confirmed_by, reason) = match confirmed_by {
            Some((proposer, proposed_reason)) => (proposer, Some(officer_id), proposed_reason),
            None => (officer_id, None, reason),
        };
        let event = OrderEvent::ChargesWaived {
            kind,
            amount,
            reductions: self.waiver_reductions(kind, amount),
            reason,
            proposed_by,
            confirmed_by,
            at: now,
        };
        sink.write(event, self).await;
        if self.outstanding().is_zero() {
            let event = OrderEvent::LoanRepaid {
                interest_waived: Decimal::ZERO,
                fees_waived: Decimal::ZERO,
                cooling_off: false,
                at: now,
            };
            sink.write(event, self).await;
        }
        Ok(())
    }

    /// Assigns a waiver event.
    pub(super) fn apply_waiver_event(&mut self, event: OrderEvent) {
        match event {
            OrderEvent::WaiverProposed {
                officer_id,
                kind,
                amount,
                reason,
                ..
            } => {
                self.collection.waiver_proposal = Some(WaiverProposal {
                    officer_id,
                    kind,
                    amount,
                    reason,
                });
            }
            OrderEvent::ChargesWaived {
                kind,
                reductions,
                amount,
                ..
            } => {
                self.collection.waiver_proposal = None;
                if kind == WaiverKind::Interest {
                    self.collection.interest_waived += amount;
                }
                if let Some(loan) = &mut self.loan {
                    loan.reduce(kind == WaiverKind::Fees, &reductions);
                }
            }
            _ => unreachable!("`apply` routes only waiver events here"),
        }
    }
}
