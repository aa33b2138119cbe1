//! A payment plan for hardship (issue 53, P16): the borrower asks for one in the app
//! (or an officer starts one), an officer proposes it, a second officer approves it,
//! and the borrower signs it; the signature replaces the schedule by an event
//! (`PaymentPlanSigned`), the old installments stay in the log as they were.
//!
//! Guarantees, decided here:
//! - a plan spreads everything still owed over 1 to [`MAX_PLAN_INSTALLMENTS`] new
//!   installments, the first from today to [`MAX_FIRST_DUE_DAYS`] ahead, the last at
//!   most [`MAX_PLAN_DAYS`] from today; it adds no interest and no fee, and may waive
//!   overdue fees in part or whole (never more than are unpaid): what the borrower owes
//!   never rises, so every cap of the contract still holds (P16);
//! - nothing is paid to get a plan: it is granted by two officers and the borrower's
//!   signature, never by a payment (P16);
//! - the officer who proposed a plan cannot approve it (four eyes, 50006); a new
//!   proposal replaces one not yet signed and needs its own approval;
//! - the borrower signs only an approved plan, as shown (`accepted_total`), with the
//!   signature on file; if what is owed changed since the proposal otherwise than by
//!   overdue fees (a payment, a waiver, an extension), the plan is out of date and is
//!   refused (10004): the officer proposes again. Overdue fees charged between the
//!   proposal and the signature are waived with the plan, so the total signed is the
//!   total proposed; while a payment page is payable (or just expired, its payment
//!   possibly still on its way) the signature waits (10004), so that no payment is
//!   applied after it as of an earlier moment.
//!
//! Each plan installment carries its share of the fees carried over (not waived) as
//! its `fee`, and of the rest as its `amount`, so payments still cover fees first and
//! a payoff still counts them ([`Loan::replace_schedule`]).

use super::aggregate::Order;
use super::collection::Amendment;
use super::errors::OrderError;
use super::events::OrderEvent;
use super::loan::Loan;
use super::status::OrderStatus;
use crate::types::{check_length, ImageRef, InvalidInput, MAX_NOTE_CHARS};
use chrono::{DateTime, Days, NaiveDate, Utc};
use cqrs_es::event_sink::EventSink;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The most installments a plan may have.
pub const MAX_PLAN_INSTALLMENTS: u32 = 12;
/// The latest first due day of a plan, in days from today.
pub const MAX_FIRST_DUE_DAYS: u64 = 30;
/// The latest last due day of a plan, in days from today.
pub const MAX_PLAN_DAYS: u64 = 365;

/// One installment of a plan.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanInstallment {
    /// Due on this day (the loan's local day).
    pub due_date: NaiveDate,
    /// Principal and interest share.
    pub amount: Decimal,
    /// Overdue fees carried over into it (not waived).
    pub fee: Decimal,
}

/// A plan as an officer proposed it (`PaymentPlanProposed`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentPlan {
    /// The officer who proposed it.
    pub proposed_by: Uuid,
    /// The officer who approved it, once one did.
    pub approved_by: Option<Uuid>,
    /// Overdue fees it waives.
    pub fees_waived: Decimal,
    /// Its installments, by due day.
    pub installments: Vec<PlanInstallment>,
    /// Why (the officer's words).
    pub reason: String,
    /// What the loan owed when it was proposed (the plan's total plus the fees waived).
    pub owed_at_proposal: Decimal,
    /// The overdue fees charged on the loan when it was proposed.
    pub fees_at_proposal: Decimal,
}

impl PaymentPlan {
    /// What the borrower owes under the plan.
    pub fn total(&self) -> Decimal {
        self.installments.iter().map(|i| i.amount + i.fee).sum()
    }
}

/// What an officer proposes (`OrderCommand::ProposePaymentPlan`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanRequest {
    /// How many installments (1 to [`MAX_PLAN_INSTALLMENTS`]).
    pub installments: u32,
    /// Days between them (1 to 31).
    pub every_days: u32,
    /// The first one's day (today to [`MAX_FIRST_DUE_DAYS`] ahead).
    pub first_due: NaiveDate,
    /// Overdue fees waived (0 to the fees unpaid).
    pub fees_waived: Decimal,
    /// Why (required, at most 500 characters).
    pub reason: String,
}

/// `total` in `count` parts to the cent, the remainder on the last.
fn split(total: Decimal, count: u32) -> Vec<Decimal> {
    let part = (total / Decimal::from(count))
        .round_dp_with_strategy(2, rust_decimal::RoundingStrategy::ToZero);
    let mut parts = vec![part; count as usize];
    if let Some(last) = parts.last_mut() {
        *last = total - part * Decimal::from(count - 1);
    }
    parts
}

impl Order {
    /// `RequestPaymentPlan`: the borrower asks for a plan, saying why; a repeat while
    /// one is asked for is a no-op.
    pub(super) async fn request_payment_plan(
        &mut self,
        reason: String,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        self.check_plan_status("ask for a payment plan on")?;
        let reason = reason.trim().to_string();
        Self::required_reason(&reason)?;
        check_length("reason", &reason, MAX_NOTE_CHARS)?;
        if self.collection.plan_requested {
            return Ok(());
        }
        sink.write(OrderEvent::PaymentPlanRequested { reason, at: now }, self)
            .await;
        Ok(())
    }

    fn check_plan_status(&self, action: &'static str) -> Result<(), OrderError> {
        if self.status != OrderStatus::Disbursed || self.collection.charge_off.is_some() {
            return Err(self.wrong_status(action));
        }
        Ok(())
    }

    /// The plan `request` would make of what is owed now. Errors: 10004 naming the
    /// field out of bounds.
    pub fn plan_for(
        &self,
        request: &PlanRequest,
        today: NaiveDate,
    ) -> Result<Vec<PlanInstallment>, OrderError> {
        let loan = self.loan()?;
        if !(1..=MAX_PLAN_INSTALLMENTS).contains(&request.installments) {
            let why = format!("from 1 to {MAX_PLAN_INSTALLMENTS}");
            return Err(InvalidInput::new("installments", &why).into());
        }
        if !(1..=31).contains(&request.every_days) {
            return Err(InvalidInput::new("everyDays", "from 1 to 31").into());
        }
        let last_first = today + Days::new(MAX_FIRST_DUE_DAYS);
        if request.first_due < today || request.first_due > last_first {
            let why = format!("from {today} to {last_first}");
            return Err(InvalidInput::new("firstDue", &why).into());
        }
        let span = u64::from(request.every_days) * u64::from(request.installments - 1);
        let last_due = request.first_due + Days::new(span);
        if last_due > today + Days::new(MAX_PLAN_DAYS) {
            let why = format!("the last installment must fall within {MAX_PLAN_DAYS} days");
            return Err(InvalidInput::new("installments", &why).into());
        }
        let fees: Decimal = loan.schedule.iter().map(|i| i.unpaid_fee()).sum();
        let waived = request.fees_waived;
        if waived < Decimal::ZERO || waived.scale() > 2 || waived > fees {
            let why = format!("from 0 to the {fees} of fees unpaid");
            return Err(InvalidInput::new("feesWaived", &why).into());
        }
        let owed = loan.contractual_outstanding();
        let carried_fees = fees - waived;
        let amounts = split(owed - fees, request.installments);
        let fee_parts = split(carried_fees, request.installments);
        Ok(amounts
            .into_iter()
            .zip(fee_parts)
            .enumerate()
            .map(|(k, (amount, fee))| PlanInstallment {
                due_date: request.first_due + Days::new(u64::from(request.every_days) * k as u64),
                amount,
                fee,
            })
            .collect())
    }

    /// `ProposePaymentPlan`: recorded as proposed; replaces a plan not yet signed.
    pub(super) async fn propose_payment_plan(
        &mut self,
        officer_id: Uuid,
        request: PlanRequest,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        self.check_plan_status("propose a payment plan for")?;
        let reason = request.reason.trim().to_string();
        Self::required_reason(&reason)?;
        check_length("reason", &reason, MAX_NOTE_CHARS)?;
        let installments = self.plan_for(&request, self.day_of(now))?;
        if installments.iter().all(|i| (i.amount + i.fee).is_zero()) {
            return Err(self.wrong_status("propose a payment plan for a loan owing nothing on"));
        }
        let loan = self.loan()?;
        let event = OrderEvent::PaymentPlanProposed {
            officer_id,
            fees_waived: request.fees_waived,
            installments,
            reason,
            owed_at_proposal: loan.contractual_outstanding(),
            fees_at_proposal: loan.fees_charged(),
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// `ApprovePaymentPlan`: a second officer approves the plan proposed (50006 for
    /// the proposer); a repeat once approved is a no-op.
    pub(super) async fn approve_payment_plan(
        &mut self,
        officer_id: Uuid,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        self.check_plan_status("approve a payment plan for")?;
        let Some(plan) = &self.collection.plan else {
            return Err(self.wrong_status("approve a payment plan not proposed for"));
        };
        if plan.approved_by.is_some() {
            return Ok(());
        }
        if plan.proposed_by == officer_id {
            return Err(OrderError::SecondStaffRequired);
        }
        sink.write(
            OrderEvent::PaymentPlanApproved {
                officer_id,
                at: now,
            },
            self,
        )
        .await;
        Ok(())
    }

    /// `SignPaymentPlan`: the borrower signs the approved plan as shown.
    pub(super) async fn sign_payment_plan(
        &mut self,
        accepted_total: Decimal,
        signature: Option<ImageRef>,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        self.check_plan_status("sign a payment plan for")?;
        let plan = match &self.collection.plan {
            Some(plan) if plan.approved_by.is_some() => plan.clone(),
            _ => return Err(self.wrong_status("sign a payment plan not approved for")),
        };
        let signature =
            signature.ok_or_else(|| InvalidInput::new("signature", "please sign first"))?;
        if plan.total() != accepted_total {
            return Err(InvalidInput::new(
                "acceptedTotal",
                "the plan changed since it was shown: look at it again",
            )
            .into());
        }
        if plan
            .installments
            .first()
            .is_some_and(|i| i.due_date < self.day_of(now))
        {
            return Err(InvalidInput::new(
                "acceptedTotal",
                "the plan's first day has passed: the officer will propose it again",
            )
            .into());
        }
        // A payment page paid or payable now may be applied after the signature as of
        // its arrival, and would then meet a schedule it was not paid against: the
        // plan is signed once it is settled.
        let settling = chrono::Duration::minutes(super::commands::PAYMENT_SESSION_MINUTES);
        let in_flight = self.sessions.values().any(|session| {
            session.status == super::aggregate::SessionStatus::Open
                && session.expires_at + settling > now
        });
        if in_flight {
            return Err(InvalidInput::new(
                "acceptedTotal",
                "a payment is being processed: sign the plan once it shows on your loan",
            )
            .into());
        }
        let loan = self.loan()?;
        // Fees charged since the proposal are waived with the plan; any other change
        // of what is owed (a payment, a waiver, an extension) makes it out of date.
        let fees_since = loan.fees_charged() - plan.fees_at_proposal;
        if fees_since < Decimal::ZERO
            || loan.contractual_outstanding() - fees_since != plan.owed_at_proposal
        {
            return Err(InvalidInput::new(
                "acceptedTotal",
                "what is owed changed since the plan was made: the officer will propose it again",
            )
            .into());
        }
        let event = OrderEvent::PaymentPlanSigned {
            fees_waived: plan.fees_waived + fees_since,
            installments: plan.installments,
            signature,
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// Assigns a payment plan event.
    pub(super) fn apply_payment_plan_event(&mut self, event: OrderEvent) {
        let collection = &mut self.collection;
        match event {
            OrderEvent::PaymentPlanRequested { .. } => collection.plan_requested = true,
            OrderEvent::PaymentPlanProposed {
                officer_id,
                fees_waived,
                installments,
                reason,
                owed_at_proposal,
                fees_at_proposal,
                ..
            } => {
                collection.plan = Some(PaymentPlan {
                    proposed_by: officer_id,
                    approved_by: None,
                    fees_waived,
                    installments,
                    reason,
                    owed_at_proposal,
                    fees_at_proposal,
                });
            }
            OrderEvent::PaymentPlanApproved { officer_id, .. } => {
                if let Some(plan) = &mut collection.plan {
                    plan.approved_by = Some(officer_id);
                }
            }
            OrderEvent::PaymentPlanSigned {
                installments,
                fees_waived,
                at,
                ..
            } => {
                collection.plan = None;
                collection.plan_requested = false;
                collection.amendments.push(Amendment::PaymentPlan {
                    signed_at: at,
                    installments: u32::try_from(installments.len()).unwrap_or(u32::MAX),
                    total: installments.iter().map(|i| i.amount + i.fee).sum(),
                    fees_waived,
                });
                if let Some(loan) = &mut self.loan {
                    loan.replace_schedule(&installments);
                }
            }
            _ => unreachable!("`apply` routes only payment plan events here"),
        }
    }
}

impl Loan {
    /// Replaces what the schedule still asks for by a plan's `installments`
    /// (`OrderEvent::PaymentPlanSigned`): every installment still owed is closed at what
    /// was paid on it (its unpaid fees leave with it: the plan carries those not
    /// waived), and the plan's installments follow, numbered after the last one.
    pub fn replace_schedule(&mut self, installments: &[PlanInstallment]) {
        for installment in self.schedule.iter_mut().filter(|i| !i.unpaid().is_zero()) {
            installment.take_off_fees(installment.unpaid_fee());
            installment.amount = installment.paid - installment.fee;
            installment.replaced = true;
        }
        let next = self.schedule.last().map_or(1, |i| i.period + 1);
        for (k, line) in installments.iter().enumerate() {
            self.schedule.push(super::Installment {
                period: next + k as u32,
                due_date: line.due_date,
                amount: line.amount,
                fee: line.fee,
                paid: Decimal::ZERO,
                overdue: false,
                fees_through: None,
                fee_charges: Vec::new(),
                replaced: false,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::split;
    use rust_decimal_macros::dec;

    #[test]
    fn a_total_splits_to_the_cent_with_the_remainder_last() {
        assert_eq!(
            split(dec!(100), 3),
            vec![dec!(33.33), dec!(33.33), dec!(33.34)]
        );
        assert_eq!(split(dec!(0), 2), vec![dec!(0), dec!(0)]);
        assert_eq!(split(dec!(10.01), 1), vec![dec!(10.01)]);
    }
}
