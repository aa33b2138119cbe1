//! The cost disclosure statement a borrower sees before signing (P5). The same value
//! is returned by `/loan/quote`, stored in `LoanApplied`, printed on the contract, and
//! recomputed for the amount actually paid out in `PayoutSucceeded` (P10).

use super::terms::is_zero;
use super::{
    daily_rate_pct, installments, interest, processing_fee, round2, EffectiveRate, Lender,
    LoanTerms,
};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// One line of the schedule as disclosed: the installment falls due `period` days
/// after the payout day.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScheduledPayment {
    /// 1-based installment number; due `period` days after the payout.
    pub period: u32,
    /// Amount due.
    #[serde(with = "crate::money")]
    pub amount: Decimal,
}

/// Everything P5 requires, for one principal and one set of terms.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Disclosure {
    /// Amount borrowed (and, after payout, the amount paid out).
    #[serde(with = "crate::money")]
    pub principal: Decimal,
    /// Processing fee deducted from the payout.
    #[serde(with = "crate::money")]
    pub processing_fee: Decimal,
    /// What reaches the borrower's bank account: principal − fee.
    #[serde(with = "crate::money")]
    pub net_amount: Decimal,
    /// Interest over the whole term.
    #[serde(with = "crate::money")]
    pub interest: Decimal,
    /// Principal + interest.
    #[serde(with = "crate::money")]
    pub total_repayable: Decimal,
    /// The regular (first) installment.
    #[serde(with = "crate::money")]
    pub per_period_payment: Decimal,
    /// Term in days.
    pub period_days: u32,
    /// Daily rate in percent.
    pub daily_rate_pct: Decimal,
    /// The true annual rate in percent, fees included: the daily IRR of the schedule
    /// against the net amount, compounded over 365 days (`pricing::effective_rate`;
    /// BSP Circular 730). Two decimals. Disclosures stored before 2026-12 hold the
    /// nominal daily % × 365 they showed then.
    pub apr_pct: Decimal,
    /// The effective rate in percent a month, fees included: the same daily IRR
    /// compounded over 30 days; the caps of section 11 are judged on it. Two decimals.
    /// Disclosures stored before 2026-12 hold the flat ratio they showed then.
    pub effective_monthly_rate_pct: Decimal,
    /// Overdue fee per overdue installment per day, in percent (0 when none).
    pub overdue_daily_rate_pct: Decimal,
    /// Interest and fees together never exceed this percentage of principal.
    pub max_total_cost_pct: Decimal,
    /// Days after payout in which returning the principal closes the loan free.
    pub cooling_off_days: u32,
    /// The installments.
    pub schedule: Vec<ScheduledPayment>,
    /// Who lends (P14).
    pub lender: Lender,
    /// "We never ask you to pay to receive a loan." (P14)
    pub notice: String,
    /// The product version it was priced under (issue 55; 0: the lending file's, and
    /// every disclosure recorded before versions): `/loan/apply` sends it back, and an
    /// application under another version is refused.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub product_version: u32,
}

/// Computes the disclosure for `principal` under `terms` (P5, 4.4).
pub fn disclose(principal: Decimal, terms: &LoanTerms, lender: &Lender) -> Disclosure {
    disclose_with_rate(principal, terms, lender).0
}

/// [`disclose`], with the unrounded effective rate its two rate lines round (`None`
/// when nothing reaches the borrower): the compliance caps judge it unrounded.
pub(super) fn disclose_with_rate(
    principal: Decimal,
    terms: &LoanTerms,
    lender: &Lender,
) -> (Disclosure, Option<EffectiveRate>) {
    let fee = processing_fee(principal, terms.pricing.processing_fee_pct);
    let net_amount = principal - fee;
    let interest = interest(principal, terms.daily_rate, terms.period_days);
    let total = principal + interest;
    let schedule: Vec<ScheduledPayment> = installments(total, terms.period_days)
        .into_iter()
        .zip(1..)
        .map(|(amount, period)| ScheduledPayment { period, amount })
        .collect();
    // The rate lines are computed from the others: the schedule as it will be
    // collected against what actually reaches the borrower.
    let rate = EffectiveRate::of(net_amount, &schedule);
    let rate_pct =
        |pct: fn(&EffectiveRate) -> Decimal| rate.as_ref().map(pct).map(round2).unwrap_or_default();
    let disclosure = Disclosure {
        principal,
        processing_fee: fee,
        net_amount,
        interest,
        total_repayable: total,
        per_period_payment: schedule.first().map(|p| p.amount).unwrap_or_default(),
        period_days: terms.period_days,
        daily_rate_pct: daily_rate_pct(terms.daily_rate),
        apr_pct: rate_pct(|r| r.annual_pct),
        effective_monthly_rate_pct: rate_pct(|r| r.monthly_pct),
        overdue_daily_rate_pct: daily_rate_pct(terms.pricing.overdue_daily_rate),
        max_total_cost_pct: terms.pricing.max_total_cost_pct,
        cooling_off_days: terms.pricing.cooling_off_days,
        schedule,
        lender: lender.clone(),
        notice: Lender::NOTICE.to_string(),
        product_version: terms.product_version,
    };
    (disclosure, rate)
}
