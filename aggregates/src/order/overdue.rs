//! The Order's overdue (PRODUCT.md 4.4, P11): an installment marked overdue after its
//! due day, a day's capped fee charged per overdue installment (`AccrueOverdue`), and
//! the overdue a late-applied payment takes back ([`Order::late_overdue`]).

use super::aggregate::Order;
use super::errors::OrderError;
use super::events::OrderEvent;
use super::loan::{FeeCharge, Installment};
use super::status::OrderStatus;
use crate::pricing::fee_headroom;
use chrono::{DateTime, Days, NaiveDate, Utc};
use cqrs_es::event_sink::EventSink;
use rust_decimal::Decimal;

/// What a repayment took back before it was applied: the overdue the scheduler
/// recorded after the money arrived ([`Order::late_overdue`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TakenBack {
    /// Nothing: applied in time, or not applied at all.
    Nothing,
    /// Overdue marks only, no fee.
    Marks,
    /// Fees for days up to this one (and marks perhaps).
    FeesThrough(NaiveDate),
}

impl TakenBack {
    /// This, with one more reversal that took back fees through `through` (`None`: a
    /// mark alone).
    pub(super) fn and(self, through: Option<NaiveDate>) -> Self {
        match (self, through) {
            (Self::FeesThrough(day), Some(other)) => Self::FeesThrough(day.max(other)),
            (Self::FeesThrough(day), None) => Self::FeesThrough(day),
            (_, Some(day)) => Self::FeesThrough(day),
            (_, None) => Self::Marks,
        }
    }
}

impl Order {
    /// The overdue charges and marks that a payment arrived at `arrived`
    /// takes back when the loan workflow applies it only later: on each installment,
    /// the fee charges for days after that day, and the overdue mark of an installment
    /// that on that day was not yet overdue. Empty when it is applied in time (or
    /// nothing is disbursed). See `OrderEvent::OverdueReversed`.
    pub(super) fn late_overdue(
        &self,
        arrived: DateTime<Utc>,
        payment_ref: &str,
    ) -> Vec<OrderEvent> {
        let arrived_on = self.day_of(arrived);
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
                    day_start: through.map(|day| loan.terms.day_start(day)),
                })
            })
            .collect()
    }

    /// `AccrueOverdue`: each installment past its due day is marked overdue, and
    /// charged the days' fee since the last day charged, within the cost cap (4.4).
    pub(super) async fn accrue_overdue(
        &mut self,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if self.status != OrderStatus::Disbursed {
            return Ok(()); // nothing to accrue; the scheduler may run late
        }
        if self.collection.charge_off.is_some() {
            return Ok(()); // non-accrual: nothing is added while the loan is off the books
        }
        let today = self.day_of(now);
        let schedule = self.loan()?.schedule.clone();
        for installment in schedule {
            if installment.due_date >= today || installment.unpaid().is_zero() {
                continue;
            }
            if !installment.overdue {
                let terms = &self.loan()?.terms;
                let day_after = installment
                    .due_date
                    .succ_opt()
                    .unwrap_or(installment.due_date);
                let event = OrderEvent::InstallmentOverdue {
                    period: installment.period,
                    due_date: installment.due_date,
                    day_start: Some(terms.day_start(day_after)),
                };
                sink.write(event, self).await;
            }
            let loan = self.loan()?;
            let rate = loan.terms.pricing.overdue_daily_rate;
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
                loan.terms.pricing.max_total_cost_pct,
            );
            let amount = fee.min(headroom);
            if amount > Decimal::ZERO {
                let event = OrderEvent::OverdueFeeCharged {
                    period: installment.period,
                    from,
                    through: today,
                    amount,
                    day_start: Some(loan.terms.day_start(today)),
                };
                sink.write(event, self).await;
            }
        }
        Ok(())
    }

    fn installment_mut(&mut self, period: u32) -> Option<&mut Installment> {
        self.loan
            .as_mut()
            .and_then(|loan| loan.schedule.iter_mut().find(|i| i.period == period))
    }

    /// Assigns an overdue mark, fee or reversal event.
    pub(super) fn apply_overdue_event(&mut self, event: OrderEvent) {
        match event {
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
                ..
            } => {
                if let Some(i) = self.installment_mut(period) {
                    i.fee += amount;
                    i.fees_through = Some(through);
                    i.fee_charges.push(FeeCharge {
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
                let arrived_on = self.day_of(at);
                if let Some(loan) = &mut self.loan {
                    loan.take_back_overdue(period, from, amount, arrived_on);
                }
            }
            _ => unreachable!("`apply` routes only overdue events here"),
        }
    }
}
