//! Pure pricing functions (PRODUCT.md section 4.4, P5, P10, P12, section 11).
//!
//! Units: money is `Decimal` in the deployment currency; `daily_rate` is an integer in
//! thousandths of a percent per day (400 = 0.4 %/day); periods are whole days.
//! Interest and installments round half away from zero to one decimal (4.4); fees
//! round half away from zero to two decimals, the precision of storage and the wire.

pub mod affordability;
mod compliance;
mod disclosure;
pub mod effective_rate;
mod terms;

#[cfg(test)]
mod tests;

pub use compliance::{
    ComplianceBreach, ComplianceCaps, CompliancePolicy, ComplianceProfile, EffectiveRateCap,
};
pub use disclosure::{disclose, Disclosure, ScheduledPayment};
pub use effective_rate::EffectiveRate;
pub(crate) use terms::is_zero;
pub use terms::{Lender, LoanTerms, Pricing, Product, RateConfig, TermsError};

use rust_decimal::{Decimal, RoundingStrategy};
use rust_decimal_macros::dec;

/// `daily_rate` divided by this gives the daily fraction (thousandths of a percent).
const RATE_SCALE: Decimal = dec!(100000);

/// Days in the month used by the monthly caps and rates (BSP Circular 1133 uses 30).
pub const DAYS_PER_MONTH: u32 = 30;
/// Days in the year the annual effective rate compounds over (`effective_rate`).
pub const DAYS_PER_YEAR: u32 = 365;

/// Rounds half away from zero to one decimal (interest and installments, 4.4).
pub fn round1(value: Decimal) -> Decimal {
    value.round_dp_with_strategy(1, RoundingStrategy::MidpointAwayFromZero)
}

/// Rounds half away from zero to two decimals (fees; storage and wire precision).
pub fn round2(value: Decimal) -> Decimal {
    value.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero)
}

/// The displayed daily rate in percent: `daily_rate / 1000` (4.4). 200 → 0.2.
pub fn daily_rate_pct(daily_rate: u32) -> Decimal {
    Decimal::from(daily_rate) / dec!(1000)
}

/// Interest = `daily_rate × principal ÷ 100000 × days`, rounded to one decimal (4.4).
/// 80,000 at 200 for 6 days → 960.0.
pub fn interest(principal: Decimal, daily_rate: u32, days: u32) -> Decimal {
    round1(Decimal::from(daily_rate) * principal / RATE_SCALE * Decimal::from(days))
}

/// Splits `total` into `count` daily installments of `total ÷ count` rounded to one
/// decimal, the last absorbing the rounding so they sum exactly to `total` (4.4).
/// 80,960.0 in 6 → five of 13,493.3 and a last of 13,493.5. `count` 0 gives none.
pub fn installments(total: Decimal, count: u32) -> Vec<Decimal> {
    if count == 0 {
        return Vec::new();
    }
    let each = round1(total / Decimal::from(count));
    let mut parts = vec![each; count as usize];
    let last = total - each * Decimal::from(count - 1);
    parts[count as usize - 1] = last;
    parts
}

/// The processing fee: `principal × fee_pct ÷ 100`, rounded to two decimals. It is
/// deducted from the payout, so the borrower receives `principal − fee` (P5).
pub fn processing_fee(principal: Decimal, fee_pct: Decimal) -> Decimal {
    round2(principal * fee_pct / dec!(100))
}

/// One day's overdue fee on an installment: `unpaid × overdue_daily_rate ÷ 100000`,
/// rounded to two decimals (4.4; the rate uses the unit of `daily_rate`).
pub fn overdue_fee_for_day(unpaid: Decimal, overdue_daily_rate: u32) -> Decimal {
    round2(unpaid * Decimal::from(overdue_daily_rate) / RATE_SCALE)
}

/// The largest fee that may still be charged so that interest plus all fees never
/// exceed `max_total_cost_pct` of the principal (4.4). Never negative.
pub fn fee_headroom(
    principal: Decimal,
    interest: Decimal,
    fees_so_far: Decimal,
    max_total_cost_pct: Decimal,
) -> Decimal {
    let cap = round2(principal * max_total_cost_pct / dec!(100));
    (cap - interest - fees_so_far).max(Decimal::ZERO)
}

/// What closes a disbursed loan today (P12).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payoff {
    /// The amount that closes the loan today.
    pub amount: Decimal,
    /// Contractual interest that the payoff does not charge.
    pub interest_waived: Decimal,
    /// Overdue fees that the payoff does not charge (only in the cooling-off window).
    pub fees_waived: Decimal,
    /// True when the cooling-off window applies: principal only, no interest, no fee.
    pub cooling_off: bool,
}

/// The payoff of a loan on a given day (P12).
///
/// `days_since_payout` counts whole days from the payout day. Interest is charged for
/// the days elapsed, at least one and at most the term. Within `cooling_off_days` of
/// the payout the principal alone closes the loan. `repaid` is everything received.
pub fn payoff(
    principal: Decimal,
    terms: &LoanTerms,
    days_since_payout: i64,
    fees_charged: Decimal,
    repaid: Decimal,
) -> Payoff {
    let full_interest = interest(principal, terms.daily_rate, terms.period_days);
    // "Within N days of the payout" includes day N (the reading that favours the
    // borrower); a window of 0 days means no cooling-off.
    let cooling_off = terms.pricing.cooling_off_days > 0
        && days_since_payout <= i64::from(terms.pricing.cooling_off_days);
    if cooling_off {
        return Payoff {
            amount: (principal - repaid).max(Decimal::ZERO),
            interest_waived: full_interest,
            fees_waived: fees_charged,
            cooling_off,
        };
    }
    let days = days_since_payout.clamp(1, i64::from(terms.period_days.max(1))) as u32;
    let earned = interest(principal, terms.daily_rate, days);
    Payoff {
        amount: (principal + earned + fees_charged - repaid).max(Decimal::ZERO),
        interest_waived: full_interest - earned,
        fees_waived: Decimal::ZERO,
        cooling_off,
    }
}
