//! The effective interest rate the Truth in Lending rules require (PRODUCT.md P5 and
//! section 11): the internal rate of return (IRR) that discounts the borrower's
//! repayments back to the net proceeds, fees included.
//!
//! Sources: BSP Circular No. 730, s. 2011 (the effective interest rate is "the true
//! cost of borrowing": the rate that equates the present value of all payments with
//! the net proceeds of the loan), applied to lending and financing companies by the
//! SEC; BSP Memorandum M-2011-040 gives the calculation models (the periodic rate of
//! the payment stream, solved as Excel's RATE/IRR does).
//!
//! Convention (stated to the borrower with the figures): the schedule's payments fall
//! due day `period` after the payout, so the IRR is a *daily* rate `r`. The monthly
//! and annual rates compound it over 30 and 365 days: `(1 + r)^30 − 1` and
//! `(1 + r)^365 − 1`. The regulation is also read as `30 × r` (a nominal monthly
//! rate); where the two readings differ we take the one giving the higher rate
//! (compounding), so that a cap is judged on the borrower's side.
//!
//! Worked example (the shipped 12-day product): 100,000 at 0.15 %/day, no fee, twelve
//! daily payments of 8,483.3 (the last 8,483.7) against 100,000 received: the daily IRR
//! is 0.27553 %, i.e. 8.60 % a month compounded (8.27 % as 30 × r) and 173.00 % a year.
//! The flat ratio (1,800 ÷ 100,000 pro-rated to 30 days, 4.50 %) understates it by half.

use rust_decimal::Decimal;
use rust_decimal_macros::dec;

use super::{ScheduledPayment, DAYS_PER_MONTH, DAYS_PER_YEAR};

/// The solver stops once the present value of the payments is within this share of
/// the net proceeds (one part in 10^12: 0.000001 on a loan of 1,000,000).
pub const TOLERANCE: Decimal = dec!(0.000000000001);

/// A loan's effective rate, from its schedule and its net proceeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EffectiveRate {
    /// The daily IRR as a fraction (0.0027553… for 0.27553 % a day), unrounded.
    pub daily: Decimal,
    /// `((1 + daily)^30 − 1) × 100`, percent a month, unrounded: the caps compare this.
    pub monthly_pct: Decimal,
    /// `((1 + daily)^365 − 1) × 100`, percent a year, unrounded.
    pub annual_pct: Decimal,
}

impl EffectiveRate {
    /// The IRR of `schedule` (each payment due `period` days after the payout) against
    /// `net_proceeds` (what reached the borrower), compounded per month and per year.
    ///
    /// `None` when there is no rate to state: nothing received, no payment, or the
    /// payments worth less than the proceeds (a negative rate, which no product of
    /// ours can produce) or more than a rate of 1,000 % a day would discount.
    pub fn of(net_proceeds: Decimal, schedule: &[ScheduledPayment]) -> Option<Self> {
        let daily = daily_irr(net_proceeds, schedule)?;
        Some(Self {
            daily,
            monthly_pct: compound_pct(daily, DAYS_PER_MONTH)?,
            annual_pct: compound_pct(daily, DAYS_PER_YEAR)?,
        })
    }

    /// The effective rate over `basis_days` (30 for a monthly cap, 365 for an annual
    /// one): the daily rate compounded over the basis, percent, unrounded.
    pub fn pct_per(&self, basis_days: u32) -> Option<Decimal> {
        compound_pct(self.daily, basis_days)
    }
}

/// The present value at `rate` (a daily fraction) of `schedule`, and its derivative
/// with respect to the rate: `Σ a·v^p` and `−Σ p·a·v^(p+1)`, `v = 1 / (1 + rate)`.
fn present_value(rate: Decimal, schedule: &[ScheduledPayment]) -> Option<(Decimal, Decimal)> {
    let v = Decimal::ONE.checked_div(Decimal::ONE + rate)?;
    let (mut value, mut slope) = (Decimal::ZERO, Decimal::ZERO);
    // Schedules are daily (periods 1, 2, 3 …): the next discount factor is the last
    // times v, and only a gap in the periods needs a power.
    let (mut last_period, mut discount) = (0u32, Decimal::ONE);
    for payment in schedule {
        discount = if payment.period == last_period + 1 {
            discount.checked_mul(v)?
        } else {
            pow(v, payment.period)?
        };
        last_period = payment.period;
        value = value.checked_add(payment.amount.checked_mul(discount)?)?;
        slope = slope.checked_sub(
            Decimal::from(payment.period)
                .checked_mul(payment.amount)?
                .checked_mul(discount)?
                .checked_mul(v)?,
        )?;
    }
    Some((value, slope))
}

/// The daily rate `r ≥ 0` with `present_value(r) = net_proceeds`, within
/// [`TOLERANCE`] of the proceeds: Newton's method kept inside a bracket `[low, high]`
/// that always holds the root (a step leaving it bisects instead), so it converges
/// for any schedule. The present value falls strictly as the rate rises, so the
/// root is unique.
pub fn daily_irr(net_proceeds: Decimal, schedule: &[ScheduledPayment]) -> Option<Decimal> {
    if net_proceeds <= Decimal::ZERO || schedule.is_empty() {
        return None;
    }
    if schedule.iter().any(|p| p.amount < Decimal::ZERO) {
        return None;
    }
    let tolerance = net_proceeds * TOLERANCE;
    let gap = |rate: Decimal| present_value(rate, schedule).map(|(v, d)| (v - net_proceeds, d));
    let (mut low, mut high) = (Decimal::ZERO, dec!(0.01));
    let (at_zero, _) = gap(low)?;
    if at_zero < Decimal::ZERO {
        return None;
    }
    if at_zero <= tolerance {
        return Some(Decimal::ZERO);
    }
    // Widen until the present value falls below the proceeds (10 = 1,000 % a day).
    while gap(high)?.0 > Decimal::ZERO {
        low = high;
        high *= dec!(2);
        if high > dec!(10) {
            return None;
        }
    }
    let mut rate = (low + high) / dec!(2);
    for _ in 0..200 {
        let (value, slope) = gap(rate)?;
        if value.abs() <= tolerance {
            return Some(rate);
        }
        if value > Decimal::ZERO {
            low = rate;
        } else {
            high = rate;
        }
        let newton = if slope.is_zero() {
            None
        } else {
            value.checked_div(slope).map(|step| rate - step)
        };
        rate = match newton {
            Some(next) if next > low && next < high => next,
            _ => (low + high) / dec!(2),
        };
        if high - low <= dec!(0.0000000000000000001) {
            return Some(rate);
        }
    }
    Some(rate)
}

/// `((1 + daily)^days − 1) × 100`: a daily fraction compounded over `days`, percent.
pub fn compound_pct(daily: Decimal, days: u32) -> Option<Decimal> {
    Some((pow(Decimal::ONE + daily, days)? - Decimal::ONE) * dec!(100))
}

/// `base^exponent` by squaring, `None` on overflow.
fn pow(base: Decimal, exponent: u32) -> Option<Decimal> {
    let (mut result, mut square, mut rest) = (Decimal::ONE, base, exponent);
    while rest > 0 {
        if rest & 1 == 1 {
            result = result.checked_mul(square)?;
        }
        rest >>= 1;
        if rest > 0 {
            square = square.checked_mul(square)?;
        }
    }
    Some(result)
}
