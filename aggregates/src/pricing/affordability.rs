//! Affordability (issue 52, PRODUCT.md 9 code 40010): the debt-service test a product
//! may configure. The repayments a loan makes due in any 30 consecutive days (a month,
//! the period the income is declared for; [`DAYS_PER_MONTH`]) must be at most
//! `max_income_share_pct` percent of the borrower's declared monthly income. With
//! one installment a day, a term of 30 days or less puts the whole repayment in one
//! month. The Order decides it at apply; the apply screen shows the same maximum.
//!
//! Worked example (demo product, 24 days at 0.1 %/day, share 40 %, income 400,000):
//! 150,000 repays 153,600 (≤ 160,000, affordable); 160,000 repays 163,840 (refused),
//! so the maximum on the 10,000 step is 150,000.

use super::{installments, interest, LoanTerms, Product, DAYS_PER_MONTH};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

/// The most the repayments of `principal` under `terms` put in any 30 consecutive
/// days: the largest sum of [`DAYS_PER_MONTH`] consecutive daily installments (4.4),
/// or the whole repayment when the term is shorter.
pub fn monthly_repayment(principal: Decimal, terms: &LoanTerms) -> Decimal {
    let total = principal + interest(principal, terms.daily_rate, terms.period_days);
    let parts = installments(total, terms.period_days);
    let window = (DAYS_PER_MONTH as usize).min(parts.len()).max(1);
    parts
        .windows(window)
        .map(|days| days.iter().sum::<Decimal>())
        .max()
        .unwrap_or(Decimal::ZERO)
}

/// The most a borrower declaring `monthly_income` may repay in a month under a share
/// of `share_pct` percent: `income × share ÷ 100`, to the cent.
pub fn monthly_allowance(monthly_income: Decimal, share_pct: Decimal) -> Decimal {
    super::round2(monthly_income.max(Decimal::ZERO) * share_pct / dec!(100))
}

/// The largest amount `product` offers whose [`monthly_repayment`] under `terms` fits
/// the borrower's [`monthly_allowance`]; `None` when even its smallest amount does
/// not, and the product's largest amount when the product sets no share. Repayments
/// grow with the principal, so a binary search over the product's amounts finds it.
pub fn max_affordable(
    product: &Product,
    terms: &LoanTerms,
    monthly_income: Option<Decimal>,
) -> Option<Decimal> {
    let amounts: Vec<Decimal> = product.amounts().collect();
    let Some(share) = product.max_income_share_pct else {
        return amounts.last().copied();
    };
    let allowance = monthly_allowance(monthly_income.unwrap_or(Decimal::ZERO), share);
    let fitting = amounts.partition_point(|a| monthly_repayment(*a, terms) <= allowance);
    fitting.checked_sub(1).map(|last| amounts[last])
}
