//! Extension of the repayment period (issue 53, P16): a borrower whose product offers
//! it moves every installment still owed later by a number of days the product
//! offers, at most as often as it allows, and sees the cost before signing.
//!
//! Guarantees, decided here:
//! - nothing is paid to get an extension: its only cost is the interest for the extra
//!   days at the contract's daily rate on the principal still owed, added to the last
//!   installment still owed (P16);
//! - the extended loan still fits every cap of the profile and of the contract: all
//!   costs (interest, fees, every extension) within the total-cost cap of principal,
//!   and the effective rate of the new schedule within the effective-rate cap; an
//!   extension that would break one is not offered (50003);
//! - the borrower signs the quote they saw: a total that no longer matches is refused
//!   (10004), and a signature is required.
//!
//! The principal still owed is the installments' unpaid amounts less their interest
//! share: each installment is the same share of principal and interest (4.4), so the
//! principal part of what is unpaid is `unpaid × P / (P + I)`. The effective rate is
//! judged on the contractual schedule with the moved dates, each paid part on its
//! original day: a borrower who paid late made the true rate lower, so the cap is
//! judged on the borrower's side.

use super::aggregate::Order;
use super::errors::OrderError;
use super::events::OrderEvent;
use super::status::OrderStatus;
use crate::pricing::{self, CompliancePolicy, EffectiveRate, ScheduledPayment};
use crate::types::{ImageRef, InvalidInput};
use chrono::{DateTime, Days, NaiveDate, Utc};
use cqrs_es::event_sink::EventSink;
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

/// An extension as the borrower is shown it before signing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtensionQuote {
    /// Days every installment still owed moves by.
    pub days: u32,
    /// Interest for the extra days: the only cost.
    pub extra_interest: Decimal,
    /// Everything owed after the extension.
    pub new_total: Decimal,
    /// The installments still owed: (number, new due day, amount still owed).
    pub schedule: Vec<(u32, NaiveDate, Decimal)>,
    /// The new schedule's effective rate, percent a month, rounded to two places.
    pub monthly_pct: Option<Decimal>,
}

fn not_available(why: impl Into<String>) -> OrderError {
    OrderError::ExtensionNotAvailable { why: why.into() }
}

impl Order {
    /// The extension of `days` as of `now`, checked against the product's offer and
    /// the caps of `compliance`. Errors: 50003 [`OrderError::ExtensionNotAvailable`]
    /// naming why; 10004 when the loan is not disbursed.
    pub fn extension_quote(
        &self,
        days: u32,
        compliance: &dyn CompliancePolicy,
    ) -> Result<ExtensionQuote, OrderError> {
        self.check_extension_offered(days)?;
        let extra_interest = self.extension_interest(days)?;
        self.check_extension_cost(extra_interest, compliance)?;
        let loan = self.loan()?;
        let last_owed = loan.last_owed();
        let paid_on = loan.paid_on();
        let mut flows = Vec::new();
        let mut schedule = Vec::new();
        for installment in &loan.schedule {
            let owed = installment.unpaid() - installment.unpaid_fee();
            let paid = installment.amount - owed;
            if paid > Decimal::ZERO {
                flows.push((installment.due_date, paid));
            }
            if installment.unpaid().is_zero() {
                continue;
            }
            let due = installment.due_date + Days::new(u64::from(days));
            let extra = if Some(installment.period) == last_owed {
                extra_interest
            } else {
                Decimal::ZERO
            };
            flows.push((due, owed + extra));
            schedule.push((installment.period, due, installment.unpaid() + extra));
        }
        let mut payments: Vec<ScheduledPayment> = flows
            .into_iter()
            .map(|(day, amount)| ScheduledPayment {
                period: u32::try_from((day - paid_on).num_days()).unwrap_or(0),
                amount,
            })
            .collect();
        payments.sort_by_key(|p| p.period);
        let rate = EffectiveRate::of(loan.disclosure.net_amount, &payments);
        if let Some(cap) = &compliance.loan_caps().max_effective_rate {
            let pct = rate.and_then(|r| r.pct_per(cap.basis_days));
            if pct.is_none_or(|pct| pct > cap.max_pct) {
                return Err(not_available(format!(
                    "its effective rate would be above {} % per {} days",
                    cap.max_pct, cap.basis_days
                )));
            }
        }
        Ok(ExtensionQuote {
            days,
            extra_interest,
            new_total: self.outstanding() + extra_interest,
            schedule,
            monthly_pct: rate.map(|r| pricing::round2(r.monthly_pct)),
        })
    }

    /// The product offers `days` and the loan has an extension left. Errors: 50003.
    fn check_extension_offered(&self, days: u32) -> Result<(), OrderError> {
        if self.status != OrderStatus::Disbursed || self.collection.charge_off.is_some() {
            return Err(self.wrong_status("extend"));
        }
        let pricing = &self.loan()?.terms.pricing;
        if pricing.extension_days.is_empty() || pricing.max_extensions == 0 {
            return Err(not_available("this product offers no extension"));
        }
        if !pricing.extension_days.contains(&days) {
            let offered: Vec<String> = pricing.extension_days.iter().map(u32::to_string).collect();
            return Err(not_available(format!(
                "choose {} days",
                offered.join(" or ")
            )));
        }
        if self.collection.extensions >= pricing.max_extensions {
            return Err(not_available("the extensions this loan allows are used"));
        }
        Ok(())
    }

    /// The interest for `days` more at the contract's daily rate on the principal
    /// still owed (`unpaid × P / (P + I)`, see the module). Errors: 50003 when
    /// nothing is left to move.
    fn extension_interest(&self, days: u32) -> Result<Decimal, OrderError> {
        let loan = self.loan()?;
        let unpaid_amounts: Decimal = loan
            .schedule
            .iter()
            .map(|i| i.unpaid() - i.unpaid_fee())
            .sum();
        if unpaid_amounts.is_zero() {
            return Err(not_available("nothing is left to move"));
        }
        let (principal, interest) = (loan.principal(), loan.disclosure.interest);
        let principal_owed = pricing::round2(unpaid_amounts * principal / (principal + interest));
        Ok(pricing::interest(
            principal_owed,
            loan.terms.daily_rate,
            days,
        ))
    }

    /// All costs (the contract's interest, every extension's, fees) within the
    /// total-cost cap of the contract and of the profile. Errors: 50003.
    fn check_extension_cost(
        &self,
        extra_interest: Decimal,
        compliance: &dyn CompliancePolicy,
    ) -> Result<(), OrderError> {
        let loan = self.loan()?;
        let principal = loan.principal();
        let cap_pct = compliance
            .loan_caps()
            .max_total_cost_pct
            .min(loan.terms.pricing.max_total_cost_pct);
        let cost = loan.disclosure.interest
            + self.collection.extension_interest
            + extra_interest
            + loan.fees_charged();
        if cost > pricing::round2(principal * cap_pct / dec!(100)) {
            return Err(not_available(format!(
                "it would take the loan's costs above {cap_pct} % of the principal"
            )));
        }
        Ok(())
    }

    /// `ExtendTerm`: the quote recomputed now, signed as the borrower saw it.
    pub(super) async fn extend_term(
        &mut self,
        days: u32,
        accepted_total: Decimal,
        signature: Option<ImageRef>,
        compliance: &dyn CompliancePolicy,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        let quote = self.extension_quote(days, compliance)?;
        let signature =
            signature.ok_or_else(|| InvalidInput::new("signature", "please sign first"))?;
        if quote.new_total != accepted_total {
            return Err(InvalidInput::new(
                "acceptedTotal",
                "the extension's cost changed since it was shown: look at it again",
            )
            .into());
        }
        let event = OrderEvent::TermExtended {
            days,
            extra_interest: quote.extra_interest,
            new_total: quote.new_total,
            signature,
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// Assigns `TermExtended`: every installment still owed moves by `days` (and is
    /// no longer overdue if its new day has not passed), the extra interest goes on
    /// the last one still owed, and its due-date reminders may be sent again for the
    /// new day (each still at most once per day it names).
    pub(super) fn apply_extension(
        &mut self,
        days: u32,
        extra_interest: Decimal,
        at: DateTime<Utc>,
    ) {
        self.collection.extensions += 1;
        self.collection.extension_interest += extra_interest;
        self.collection
            .amendments
            .push(super::collection::Amendment::Extension {
                signed_at: at,
                days,
                extra_interest,
            });
        let today = self.day_of(at);
        let Some(loan) = &mut self.loan else {
            return;
        };
        loan.extended_days += days;
        let last_owed = loan.last_owed();
        let moved: Vec<u32> = loan
            .schedule
            .iter()
            .filter(|i| !i.unpaid().is_zero())
            .map(|i| i.period)
            .collect();
        self.reminders.retain(|(period, _)| !moved.contains(period));
        for installment in loan.schedule.iter_mut().filter(|i| !i.unpaid().is_zero()) {
            installment.due_date = installment.due_date + Days::new(u64::from(days));
            if installment.due_date >= today {
                installment.overdue = false;
            }
            if Some(installment.period) == last_owed {
                installment.amount += extra_interest;
            }
        }
    }
}
