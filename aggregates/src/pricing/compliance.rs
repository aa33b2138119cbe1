//! Compliance profiles (PRODUCT.md section 11): the caps a deployment's products must
//! fit. Checked when configuration loads (the server refuses to start otherwise) and
//! again at apply (P5). Configuration can choose a profile but never weaken one.

use super::{
    daily_rate_pct, disclosure::disclose_with_rate, processing_fee, round2, Lender, LoanTerms,
    Product, DAYS_PER_MONTH, DAYS_PER_YEAR,
};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use serde::{Deserialize, Serialize};

/// A cap on the effective rate (fees included) over a basis period: the IRR of the
/// schedule against the net proceeds, compounded over `basis_days`
/// (`pricing::effective_rate`, BSP Circular 730).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EffectiveRateCap {
    /// Largest effective rate in percent per basis.
    pub max_pct: Decimal,
    /// 30 for a monthly cap, 365 for an annual one.
    pub basis_days: u32,
}

/// The caps of one profile. `None` means the profile sets no such cap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComplianceCaps {
    /// Largest nominal `daily_rate` (thousandths of a percent per day).
    pub max_daily_rate: Option<u32>,
    /// Largest effective rate, fees included.
    pub max_effective_rate: Option<EffectiveRateCap>,
    /// Largest overdue penalty in percent per month of the amount overdue.
    pub max_overdue_monthly_pct: Option<Decimal>,
    /// Largest default interest in percent a year above the contract rate.
    pub max_overdue_annual_above_contract_pct: Option<Decimal>,
    /// All costs (interest, fees, fines) never above this percentage of principal.
    pub max_total_cost_pct: Decimal,
    /// Largest principal.
    pub max_amount: Option<Decimal>,
    /// Longest term in days.
    pub max_period_days: Option<u32>,
}

/// The deployment's profile (`COMPLIANCE_PROFILE`: `PH` default, `TH`, `custom`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ComplianceProfile {
    /// Philippines: BSP Circular 1133 (2021) via SEC MC 3 s.2022; SEC MC 14 s.2025
    /// lowered the effective-rate cap to 12 %/month.
    Ph,
    /// Thailand: Bank of Thailand rules for personal and digital personal loans.
    Th,
    /// The operator's own caps, stated in configuration (the operator's licence).
    Custom(ComplianceCaps),
}

/// Why a product or a loan does not fit the profile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ComplianceBreach {
    /// Nominal daily rate above the cap.
    #[error("daily rate {daily_rate} for {period_days} days is above the cap of {max}")]
    DailyRate {
        /// Offending period.
        period_days: u32,
        /// Offending rate.
        daily_rate: u32,
        /// Cap.
        max: u32,
    },
    /// Effective rate (fees included) above the cap.
    #[error("effective rate {pct}% per {basis_days} days for {principal} over {period_days} days is above the cap of {max_pct}%")]
    EffectiveRate {
        /// Principal at which it breaks.
        principal: Decimal,
        /// Period at which it breaks.
        period_days: u32,
        /// The effective rate found.
        pct: Decimal,
        /// Cap.
        max_pct: Decimal,
        /// Basis of the cap.
        basis_days: u32,
    },
    /// Overdue fee rate above the cap.
    #[error("overdue rate {overdue_daily_rate} is above the profile's penalty cap")]
    OverdueRate {
        /// Offending rate.
        overdue_daily_rate: u32,
    },
    /// Interest plus fees can exceed the cap on total cost.
    #[error("total cost can reach {pct}% of principal, above the cap of {max_pct}%")]
    TotalCost {
        /// The share found (or configured).
        pct: Decimal,
        /// Cap.
        max_pct: Decimal,
    },
    /// Amount above the profile's largest principal.
    #[error("amount {amount} is above the cap of {max}")]
    Amount {
        /// Offending amount.
        amount: Decimal,
        /// Cap.
        max: Decimal,
    },
    /// Term above the profile's longest term.
    #[error("period {period_days} days is above the cap of {max} days")]
    Period {
        /// Offending period.
        period_days: u32,
        /// Cap.
        max: u32,
    },
}

/// The compliance check the aggregates call (a service, so a test can count calls or
/// a deployment can add its own rules on top of a profile).
pub trait CompliancePolicy: Send + Sync {
    /// Checks one loan: `principal` under `terms`.
    fn check_loan(&self, principal: Decimal, terms: &LoanTerms) -> Result<(), ComplianceBreach>;

    /// The caps one loan is judged by (an extension re-checks them, issue 53).
    fn loan_caps(&self) -> ComplianceCaps;

    /// The fair-collection hours (P15): `PH`'s unless the profile says otherwise.
    fn contact_rules(&self) -> crate::collections::ContactRules {
        crate::collections::ContactRules::ph()
    }

    /// Checks every amount and period a product allows (configuration load).
    fn check_product(&self, product: &Product) -> Result<(), ComplianceBreach> {
        for config in &product.rate_configs {
            let terms = product
                .terms_for(config.period_days)
                .expect("period comes from the product");
            for amount in product.amounts() {
                self.check_loan(amount, &terms)?;
            }
        }
        Ok(())
    }
}

impl ComplianceProfile {
    /// Parses `PH`, `TH` (case-insensitive). `custom` needs caps, see `Custom`.
    pub fn named(name: &str) -> Option<Self> {
        match name.to_ascii_uppercase().as_str() {
            "PH" => Some(Self::Ph),
            "TH" => Some(Self::Th),
            _ => None,
        }
    }

    /// The caps of this profile (section 11).
    pub fn caps(&self) -> ComplianceCaps {
        match self {
            // Nominal ≤ 6 %/month → 0.2 %/day; effective ≤ 12 %/month; penalty
            // ≤ 5 %/month of the amount overdue; all costs ≤ 100 % of principal.
            Self::Ph => ComplianceCaps {
                max_daily_rate: Some(200),
                max_effective_rate: Some(EffectiveRateCap {
                    max_pct: dec!(12),
                    basis_days: DAYS_PER_MONTH,
                }),
                max_overdue_monthly_pct: Some(dec!(5)),
                max_overdue_annual_above_contract_pct: None,
                max_total_cost_pct: dec!(100),
                max_amount: None,
                max_period_days: None,
            },
            // Interest, fees and fines ≤ 25 % a year effective; digital personal
            // loans ≤ THB 20,000 and ≤ 6 months; default interest ≤ contract + 3 %/yr.
            Self::Th => ComplianceCaps {
                max_daily_rate: None,
                max_effective_rate: Some(EffectiveRateCap {
                    max_pct: dec!(25),
                    basis_days: DAYS_PER_YEAR,
                }),
                max_overdue_monthly_pct: None,
                max_overdue_annual_above_contract_pct: Some(dec!(3)),
                max_total_cost_pct: dec!(100),
                max_amount: Some(dec!(20000)),
                max_period_days: Some(180),
            },
            Self::Custom(caps) => caps.clone(),
        }
    }
}

impl CompliancePolicy for ComplianceProfile {
    fn check_loan(&self, principal: Decimal, terms: &LoanTerms) -> Result<(), ComplianceBreach> {
        check_loan_against(&self.caps(), principal, terms)
    }

    fn loan_caps(&self) -> ComplianceCaps {
        self.caps()
    }

    /// `TH`: the Bank of Thailand's hours; `PH` and a custom profile: SEC MC 18's.
    fn contact_rules(&self) -> crate::collections::ContactRules {
        match self {
            Self::Th => crate::collections::ContactRules::th(),
            Self::Ph | Self::Custom(_) => crate::collections::ContactRules::ph(),
        }
    }
}

/// Checks one loan against explicit caps: the profile's limits on rate, amount and
/// term, then its overdue caps, then the costs the disclosure states.
pub fn check_loan_against(
    caps: &ComplianceCaps,
    principal: Decimal,
    terms: &LoanTerms,
) -> Result<(), ComplianceBreach> {
    check_limits(caps, principal, terms)?;
    check_overdue(caps, terms)?;
    check_costs(caps, principal, terms)
}

/// The nominal daily rate, the principal and the term, each within its cap.
fn check_limits(
    caps: &ComplianceCaps,
    principal: Decimal,
    terms: &LoanTerms,
) -> Result<(), ComplianceBreach> {
    if let Some(max) = caps.max_daily_rate {
        if terms.daily_rate > max {
            return Err(ComplianceBreach::DailyRate {
                period_days: terms.period_days,
                daily_rate: terms.daily_rate,
                max,
            });
        }
    }
    if let Some(max) = caps.max_amount {
        if principal > max {
            return Err(ComplianceBreach::Amount {
                amount: principal,
                max,
            });
        }
    }
    if let Some(max) = caps.max_period_days {
        if terms.period_days > max {
            return Err(ComplianceBreach::Period {
                period_days: terms.period_days,
                max,
            });
        }
    }
    Ok(())
}

/// The overdue rate within the penalty caps, and the loan's own ceiling on total
/// cost no looser than the profile's.
fn check_overdue(caps: &ComplianceCaps, terms: &LoanTerms) -> Result<(), ComplianceBreach> {
    let overdue_pct_per_day = daily_rate_pct(terms.pricing.overdue_daily_rate);
    let overdue_ok = caps
        .max_overdue_monthly_pct
        .is_none_or(|max| overdue_pct_per_day * Decimal::from(DAYS_PER_MONTH) <= max)
        && caps
            .max_overdue_annual_above_contract_pct
            .is_none_or(|above| {
                overdue_pct_per_day * Decimal::from(DAYS_PER_YEAR)
                    <= daily_rate_pct(terms.daily_rate) * Decimal::from(DAYS_PER_YEAR) + above
            });
    if !overdue_ok {
        return Err(ComplianceBreach::OverdueRate {
            overdue_daily_rate: terms.pricing.overdue_daily_rate,
        });
    }
    // The loan's own overdue-fee ceiling may be tighter than the profile's, never looser.
    if terms.pricing.max_total_cost_pct > caps.max_total_cost_pct {
        return Err(ComplianceBreach::TotalCost {
            pct: terms.pricing.max_total_cost_pct,
            max_pct: caps.max_total_cost_pct,
        });
    }
    Ok(())
}

/// The costs the disclosure states: interest and fee within the cap on total cost,
/// and the effective rate (fees included) within its cap.
fn check_costs(
    caps: &ComplianceCaps,
    principal: Decimal,
    terms: &LoanTerms,
) -> Result<(), ComplianceBreach> {
    let lender = Lender {
        legal_name: String::new(),
        registration_no: String::new(),
        licence_no: String::new(),
    };
    let (disclosure, rate) = disclose_with_rate(principal, terms, &lender);
    if principal > Decimal::ZERO {
        let cost =
            disclosure.interest + processing_fee(principal, terms.pricing.processing_fee_pct);
        let pct = cost / principal * dec!(100);
        if pct > caps.max_total_cost_pct {
            return Err(ComplianceBreach::TotalCost {
                pct: pct.round_dp(2),
                max_pct: caps.max_total_cost_pct,
            });
        }
    }
    if let Some(cap) = &caps.max_effective_rate {
        // Judged unrounded: a rate that rounds down to the cap is still above it. No
        // rate at all (nothing reaches the borrower) is a breach too.
        let pct = rate.and_then(|rate| rate.pct_per(cap.basis_days));
        if pct.is_none_or(|pct| pct > cap.max_pct) {
            return Err(ComplianceBreach::EffectiveRate {
                principal,
                period_days: terms.period_days,
                pct: pct.map(round2).unwrap_or_default(),
                max_pct: cap.max_pct,
                basis_days: cap.basis_days,
            });
        }
    }
    Ok(())
}
