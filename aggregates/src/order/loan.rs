//! A disbursed loan: its schedule, what has been paid, and what is owed today.

use super::events::Allocation;
use crate::pricing::{self, Disclosure, LoanTerms, Payoff};
use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Per-period status on the wire (`periodViews[].status`): 0 unpaid, 1 repaid, 2 overdue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum InstallmentStatus {
    /// 0: not yet fully paid, not past due.
    Unpaid,
    /// 1: fully covered.
    Repaid,
    /// 2: past its due day and not fully paid.
    Overdue,
}

impl InstallmentStatus {
    /// The number on the wire.
    pub fn code(self) -> u8 {
        match self {
            Self::Unpaid => 0,
            Self::Repaid => 1,
            Self::Overdue => 2,
        }
    }
}

/// One daily installment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Installment {
    /// 1-based number.
    pub period: u32,
    /// Due on this day (the loan's local day): `period` days after the payout day.
    pub due_date: NaiveDate,
    /// Principal and interest share.
    pub amount: Decimal,
    /// Overdue fees charged on it.
    pub fee: Decimal,
    /// Paid so far (fees first, then the amount).
    pub paid: Decimal,
    /// Marked overdue by the scheduler.
    pub overdue: bool,
    /// Last day for which an overdue fee stands charged (one taken back moves it back).
    pub fees_through: Option<NaiveDate>,
    /// Every overdue fee charge standing, in order: the days `from..=through` and the
    /// amount. A payment the loan workflow applied after the days it arrived
    /// takes back the charges for the days after it ([`FeeCharge`],
    /// `OrderEvent::OverdueReversed`).
    #[serde(default)]
    pub fee_charges: Vec<FeeCharge>,
    /// Closed by a payment plan at what was paid on it (`OrderEvent::PaymentPlanSigned`):
    /// the plan's installments carry the rest.
    #[serde(default)]
    pub replaced: bool,
}

/// One overdue fee charge of an installment (`OrderEvent::OverdueFeeCharged`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeeCharge {
    /// First day charged.
    pub from: NaiveDate,
    /// Last day charged.
    pub through: NaiveDate,
    /// The amount, after the cap.
    pub amount: Decimal,
}

impl Installment {
    /// Amount plus fees.
    pub fn due(&self) -> Decimal {
        self.amount + self.fee
    }

    /// What is still unpaid.
    pub fn unpaid(&self) -> Decimal {
        (self.due() - self.paid).max(Decimal::ZERO)
    }

    /// The fee part still unpaid (payments cover fees first).
    pub fn unpaid_fee(&self) -> Decimal {
        (self.fee - self.paid).max(Decimal::ZERO)
    }

    /// One overdue day's fee on what is unpaid of this installment apart from its
    /// fees, at `overdue_daily_rate` (before the cost cap; PRODUCT.md 4.4). It only
    /// falls as payments come in, so once it rounds to 0.00 it stays there.
    pub fn daily_overdue_fee(&self, overdue_daily_rate: u32) -> Decimal {
        pricing::overdue_fee_for_day(self.unpaid() - self.unpaid_fee(), overdue_daily_rate)
    }

    /// Takes `amount` of its fees off, the latest charges first, so that a late
    /// payment's take-back (`OrderEvent::OverdueReversed`) never returns fees no
    /// longer charged (a waiver, fees a payment plan carried or waived).
    pub fn take_off_fees(&mut self, amount: Decimal) {
        self.fee -= amount;
        let mut left = amount;
        for charge in self.fee_charges.iter_mut().rev() {
            let take = charge.amount.min(left);
            charge.amount -= take;
            left -= take;
        }
    }

    /// Status on the wire.
    pub fn status(&self) -> InstallmentStatus {
        if self.unpaid().is_zero() {
            InstallmentStatus::Repaid
        } else if self.overdue {
            InstallmentStatus::Overdue
        } else {
            InstallmentStatus::Unpaid
        }
    }
}

/// The loan after the payout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loan {
    /// Terms of the order.
    pub terms: LoanTerms,
    /// Disclosure for the amount paid out (principal = payout amount, P10).
    pub disclosure: Disclosure,
    /// When the money was paid out.
    pub paid_at: DateTime<Utc>,
    /// The installments.
    pub schedule: Vec<Installment>,
    /// Everything received.
    pub repaid: Decimal,
    /// Interest waived at closing.
    pub interest_waived: Decimal,
    /// Fees waived at closing.
    pub fees_waived: Decimal,
    /// Days the term was extended by (issue 53): interest for them is charged.
    #[serde(default)]
    pub extended_days: u32,
}

impl Loan {
    /// Builds the schedule: installment k is due k days after `paid_on`, the payout's
    /// day on the loan's calendar ([`LoanTerms::day_of`]).
    pub fn schedule_for(disclosure: &Disclosure, paid_on: NaiveDate) -> Vec<Installment> {
        let start = paid_on;
        disclosure
            .schedule
            .iter()
            .map(|line| Installment {
                period: line.period,
                due_date: start + chrono::Days::new(u64::from(line.period)),
                amount: line.amount,
                fee: Decimal::ZERO,
                paid: Decimal::ZERO,
                overdue: false,
                fees_through: None,
                fee_charges: Vec::new(),
                replaced: false,
            })
            .collect()
    }

    /// Takes back `amount` of overdue fees of installment `period` charged from day
    /// `from` on, and its overdue mark when on `arrived_on` it was not yet overdue
    /// (`OrderEvent::OverdueReversed`). What had been paid toward the fees taken back
    /// counts toward the other installments still owed, in order, as a payment is
    /// allocated ([`Loan::allocate`]), so that no installment reads as paid beyond what
    /// it asks; if nothing else is owed it stays where it was.
    pub fn take_back_overdue(
        &mut self,
        period: u32,
        from: Option<NaiveDate>,
        amount: Decimal,
        arrived_on: NaiveDate,
    ) {
        let Some(index) = self.schedule.iter().position(|i| i.period == period) else {
            return;
        };
        let installment = &mut self.schedule[index];
        installment.fee -= amount;
        installment
            .fee_charges
            .retain(|charge| charge.through <= arrived_on);
        if let Some(from) = from {
            // The day before the first one taken back, if it was overdue.
            installment.fees_through = from.pred_opt().filter(|day| *day > installment.due_date);
        }
        if installment.due_date >= arrived_on {
            installment.overdue = false;
        }
        let excess = (installment.paid - installment.due()).max(Decimal::ZERO);
        installment.paid -= excess;
        let moved = self.allocate(excess);
        self.pay(&moved);
        let left: Decimal = excess - moved.iter().map(|a| a.amount).sum::<Decimal>();
        self.schedule[index].paid += left;
    }

    /// Takes waived amounts off the installments (`OrderEvent::ChargesWaived`): their
    /// fees (the latest charges first, so a late payment's take-back never returns a
    /// waived fee), or their amount (interest).
    pub fn reduce(&mut self, fees: bool, reductions: &[Allocation]) {
        for reduction in reductions {
            let Some(installment) = self
                .schedule
                .iter_mut()
                .find(|i| i.period == reduction.period)
            else {
                continue;
            };
            if !fees {
                installment.amount -= reduction.amount;
                continue;
            }
            installment.take_off_fees(reduction.amount);
        }
    }

    /// Adds each of `allocations` to its installment's `paid`.
    pub fn pay(&mut self, allocations: &[Allocation]) {
        for allocation in allocations {
            if let Some(installment) = self
                .schedule
                .iter_mut()
                .find(|i| i.period == allocation.period)
            {
                installment.paid += allocation.amount;
            }
        }
    }

    /// Principal paid out.
    pub fn principal(&self) -> Decimal {
        self.disclosure.principal
    }

    /// Overdue fees charged so far.
    pub fn fees_charged(&self) -> Decimal {
        self.schedule.iter().map(|i| i.fee).sum()
    }

    /// The number of the last installment still owed; `None` when all are paid.
    pub fn last_owed(&self) -> Option<u32> {
        self.schedule
            .iter()
            .rev()
            .find(|i| !i.unpaid().is_zero())
            .map(|i| i.period)
    }

    /// What the schedule still asks for (installments plus fees, minus payments).
    pub fn contractual_outstanding(&self) -> Decimal {
        self.schedule.iter().map(Installment::unpaid).sum()
    }

    /// What the installments due on or before `today` still ask for (fees included):
    /// the "due today" amount a borrower may always pay in one payment (PRODUCT.md 5).
    pub fn due_on(&self, today: NaiveDate) -> Decimal {
        self.schedule
            .iter()
            .filter(|installment| installment.due_date <= today)
            .map(Installment::unpaid)
            .sum()
    }

    /// The payout's day on the loan's calendar.
    pub fn paid_on(&self) -> NaiveDate {
        self.terms.day_of(self.paid_at)
    }

    /// Whole days from the payout day to `today`.
    pub fn days_since_payout(&self, today: NaiveDate) -> i64 {
        (today - self.paid_on()).num_days()
    }

    /// What closes the loan on `today` (P12), never more than the schedule asks for.
    pub fn payoff(&self, today: NaiveDate) -> Payoff {
        // An extension lengthens the term whose days the payoff may charge.
        let mut terms = self.terms.clone();
        terms.period_days += self.extended_days;
        let mut quote = pricing::payoff(
            self.principal(),
            &terms,
            self.days_since_payout(today),
            self.fees_charged(),
            self.repaid,
        );
        quote.amount = quote.amount.min(self.contractual_outstanding());
        quote
    }

    /// Splits `amount` over the installments, oldest unpaid first (4.4).
    pub fn allocate(&self, amount: Decimal) -> Vec<Allocation> {
        let mut left = amount;
        let mut allocations = Vec::new();
        for installment in &self.schedule {
            if left.is_zero() {
                break;
            }
            let part = installment.unpaid().min(left);
            if part > Decimal::ZERO {
                allocations.push(Allocation {
                    period: installment.period,
                    amount: part,
                });
                left -= part;
            }
        }
        allocations
    }
}
