//! Products (the catalogue's offers) and the loan terms an order snapshots at apply.

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use serde::{Deserialize, Serialize};

use crate::types::InvalidInput;

/// The lender shown in the footer, the about page and the contract (P14).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lender {
    /// Registered legal name.
    pub legal_name: String,
    /// Company registration number.
    pub registration_no: String,
    /// Lending licence number(s) (e.g. SEC certificate of authority).
    pub licence_no: String,
}

impl Lender {
    /// The sentence shown with the lender's identity (P14).
    pub const NOTICE: &'static str = "We never ask you to pay to receive a loan.";
}

/// One period a product offers and its daily rate (`/loan/getPeriodConfig`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RateConfig {
    /// Term in days.
    pub period_days: u32,
    /// Thousandths of a percent per day (200 = 0.2 %/day).
    pub daily_rate: u32,
}

/// A loan product of the catalogue (PRODUCT.md sections 10 and 11).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Product {
    /// Product (app) id.
    pub id: i64,
    /// Display name.
    pub name: String,
    /// Disabled products are shown greyed and cannot be applied for.
    pub enabled: bool,
    /// Smallest amount (inclusive).
    pub amount_min: Decimal,
    /// Largest amount (inclusive).
    pub amount_max: Decimal,
    /// Amounts are multiples of this step.
    pub amount_step: Decimal,
    /// The periods offered, each with its daily rate.
    pub rate_configs: Vec<RateConfig>,
    /// Fees, caps and limits, the same for every period; each order's terms copy
    /// them at apply. Flattened: the configuration names its fields beside the others.
    #[serde(flatten)]
    pub pricing: Pricing,
    /// Affordability (issue 52): the repayments due in any 30 days are at most this
    /// percentage of the declared monthly income (`pricing::affordability`, 40010);
    /// `None` (the default) sets no such cap. Not part of the signed terms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_income_share_pct: Option<Decimal>,
    /// The catalogue version these terms are (issue 55): 0 for the configuration
    /// file's, 1, 2, … for each change approved in the console
    /// (`catalogue::ProductLine`). Set by the catalogue, never by a proposal.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub version: u32,
}

/// What a product charges and allows beside its rate and term: the same for every
/// period it offers, and copied whole into the terms of each order applied for
/// ([`LoanTerms::pricing`]). Declared once, here, for both.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pricing {
    /// Processing fee in percent of principal, deducted from the payout (default 0).
    pub processing_fee_pct: Decimal,
    /// Overdue fee per overdue installment per day, unit of `daily_rate` (default 0).
    pub overdue_daily_rate: u32,
    /// Interest plus fees never exceed this percentage of principal (default 100).
    pub max_total_cost_pct: Decimal,
    /// Days after the payout in which returning the principal closes the loan free (P12).
    pub cooling_off_days: u32,
    /// Days an approved offer stays withdrawable (4.3, status 13 after).
    pub offer_valid_days: u32,
    /// Smallest repayment, except the final one (section 5).
    pub repay_min: Decimal,
    /// Largest single repayment (section 5).
    pub repay_max: Decimal,
    /// The extensions of the repayment period offered, in days (issue 53; none by
    /// default): every installment still owed moves later by one of these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extension_days: Vec<u32>,
    /// How many extensions one loan may have (0: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub max_extensions: u32,
}

/// For `skip_serializing_if`: a count or version left out of stored JSON at 0, so
/// events recorded before the field existed stay byte for byte.
pub(crate) fn is_zero(value: &u32) -> bool {
    *value == 0
}

/// Rates in thousandths of a percent a day: at most 100 % a day (the caps are far
/// below; this bounds the arithmetic).
fn rate_bounded(rate: u32) -> bool {
    rate <= 100_000
}

impl Pricing {
    /// The fees, repayments, days and extensions of `Product::check_offer`.
    fn check_offer(&self) -> Result<(), InvalidInput> {
        let pct = |value: Decimal| (Decimal::ZERO..=Decimal::ONE_HUNDRED).contains(&value);
        if !pct(self.processing_fee_pct) {
            return Err(InvalidInput::new("processingFeePct", "must be 0 to 100"));
        }
        if !pct(self.max_total_cost_pct) {
            return Err(InvalidInput::new("maxTotalCostPct", "must be 0 to 100"));
        }
        if !rate_bounded(self.overdue_daily_rate) {
            return Err(InvalidInput::new(
                "overdueDailyRatePct",
                "at most 100 % a day",
            ));
        }
        if self.repay_min <= Decimal::ZERO || self.repay_min > self.repay_max {
            return Err(InvalidInput::new(
                "repayMin",
                "must be above 0 and at most the largest repayment",
            ));
        }
        if !(1..=365).contains(&self.offer_valid_days) {
            return Err(InvalidInput::new("offerValidDays", "must be 1 to 365 days"));
        }
        if self.cooling_off_days > 365 {
            return Err(InvalidInput::new("coolingOffDays", "must be 0 to 365 days"));
        }
        let mut extensions = self.extension_days.clone();
        extensions.sort_unstable();
        extensions.dedup();
        let extensions_ok = extensions.len() == self.extension_days.len()
            && extensions.len() <= 12
            && extensions.iter().all(|days| (1..=365).contains(days));
        if !extensions_ok {
            return Err(InvalidInput::new(
                "extensionDays",
                "at most 12 different extensions of 1 to 365 days",
            ));
        }
        if self.max_extensions > 12 {
            return Err(InvalidInput::new("maxExtensions", "at most 12"));
        }
        Ok(())
    }
}

/// Why an amount or a period is not one the product offers (answered with 10004).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TermsError {
    /// The amount is outside the range or not a multiple of the step.
    #[error("amt: enter a multiple of {step} between {min} and {max}")]
    Amount {
        /// Smallest amount.
        min: Decimal,
        /// Largest amount.
        max: Decimal,
        /// Step.
        step: Decimal,
    },
    /// The period is not one of the product's periods.
    #[error("periodDays: choose one of the offered periods")]
    Period,
}

impl Product {
    /// The terms of this product for `period_days`. Errors: `TermsError::Period`.
    pub fn terms_for(&self, period_days: u32) -> Result<LoanTerms, TermsError> {
        let config = self
            .rate_configs
            .iter()
            .find(|c| c.period_days == period_days)
            .ok_or(TermsError::Period)?;
        Ok(LoanTerms {
            daily_rate: config.daily_rate,
            period_days,
            pricing: self.pricing.clone(),
            time_zone: None,
            product_version: self.version,
        })
    }

    /// Checks that `amount` is in range and a multiple of the step (section 5).
    pub fn check_amount(&self, amount: Decimal) -> Result<(), TermsError> {
        let on_step = self.amount_step > Decimal::ZERO && (amount % self.amount_step).is_zero();
        if amount < self.amount_min || amount > self.amount_max || !on_step {
            return Err(TermsError::Amount {
                min: self.amount_min,
                max: self.amount_max,
                step: self.amount_step,
            });
        }
        Ok(())
    }

    /// Whether the product is one a borrower can be offered, whatever the caps (those
    /// are [`super::CompliancePolicy::check_product`]'s): a name of 1–80 characters;
    /// amounts above 0 with `amount_min <= amount_max`, a step above 0 and at most
    /// [`Product::MAX_AMOUNTS`] amounts (each is priced against the caps); 1–12
    /// periods of 1–365 days, each once, at most 100 % a day; fees and shares in percent
    /// within 0–100, the overdue fee at most 100 % a day; a smallest repayment above 0
    /// and at most the largest; an offer valid 1–365 days, a cooling-off of 0–365 days;
    /// at most 12 different extensions of 1–365 days, at most 12 a loan.
    /// Errors: the first field at fault, by its wire name (10004).
    pub fn check_offer(&self) -> Result<(), InvalidInput> {
        let name = self.name.trim().chars().count();
        if !(1..=80).contains(&name) {
            return Err(InvalidInput::new(
                "name",
                "give a name of 1 to 80 characters",
            ));
        }
        self.check_amounts()?;
        self.check_periods()?;
        if self
            .max_income_share_pct
            .is_some_and(|share| share <= Decimal::ZERO || share > Decimal::ONE_HUNDRED)
        {
            return Err(InvalidInput::new(
                "maxIncomeSharePct",
                "must be above 0 and at most 100",
            ));
        }
        self.pricing.check_offer()
    }

    /// The amounts of [`Product::check_offer`].
    fn check_amounts(&self) -> Result<(), InvalidInput> {
        if self.amount_min <= Decimal::ZERO || self.amount_min > self.amount_max {
            return Err(InvalidInput::new(
                "amountMin",
                "must be above 0 and at most the largest amount",
            ));
        }
        if self.amount_step <= Decimal::ZERO {
            return Err(InvalidInput::new("amountStep", "must be above 0"));
        }
        let count = (self.amount_max - self.amount_min) / self.amount_step;
        if count >= Decimal::from(Self::MAX_AMOUNTS) {
            return Err(InvalidInput::new(
                "amountStep",
                format!(
                    "offers more than {} amounts; use a larger step",
                    Self::MAX_AMOUNTS
                ),
            ));
        }
        Ok(())
    }

    /// The periods and rates of [`Product::check_offer`].
    fn check_periods(&self) -> Result<(), InvalidInput> {
        let mut periods: Vec<u32> = self.rate_configs.iter().map(|c| c.period_days).collect();
        periods.sort_unstable();
        periods.dedup();
        let periods_ok = (1..=12).contains(&self.rate_configs.len())
            && periods.len() == self.rate_configs.len()
            && periods.iter().all(|days| (1..=365).contains(days));
        if !periods_ok {
            return Err(InvalidInput::new(
                "rateConfigs",
                "offer 1 to 12 different periods of 1 to 365 days",
            ));
        }
        if !self.rate_configs.iter().all(|c| rate_bounded(c.daily_rate)) {
            return Err(InvalidInput::new(
                "rateConfigs",
                "a daily rate of at most 100 %",
            ));
        }
        Ok(())
    }

    /// The most amounts a product may offer (each is priced against the caps when a
    /// change is proposed).
    pub const MAX_AMOUNTS: u32 = 1_000;

    /// Every amount the product allows, ascending.
    pub fn amounts(&self) -> impl Iterator<Item = Decimal> + '_ {
        let step = self.amount_step.max(dec!(1));
        let first = (self.amount_min / step).ceil() * step;
        std::iter::successors(Some(first), move |a| Some(a + step))
            .take_while(move |a| *a <= self.amount_max)
    }

    /// The pre-filled offer after the questionnaire: the largest amount and the
    /// longest period (P7). `None` when the product offers no period.
    pub fn default_offer(&self) -> Option<(Decimal, u32)> {
        let longest = self.rate_configs.iter().map(|c| c.period_days).max()?;
        let largest = self.amounts().last()?;
        Some((largest, longest))
    }
}

/// The terms an order is bound by, copied from the product at apply so later
/// configuration changes never alter a signed loan. Stored in `LoanApplied`: the
/// pricing is flattened, so the stored shape is one flat object (`daily_rate`,
/// `period_days`, then the fields of [`Pricing`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoanTerms {
    /// Thousandths of a percent per day.
    pub daily_rate: u32,
    /// Term in days; one installment per day.
    pub period_days: u32,
    /// The product's fees, caps and limits at apply.
    #[serde(flatten)]
    pub pricing: Pricing,
    /// The calendar of the loan's days (its due dates, days past due, fee days): the
    /// compliance profile's zone at apply (`PH` Asia/Manila, `TH` Asia/Bangkok; issue
    /// 53). Absent on loans applied for before it was recorded: UTC days.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<chrono_tz::Tz>,
    /// The product version the loan was signed under ([`Product::version`]; issue 55):
    /// its terms are kept whatever later versions say. 0: the configuration file's,
    /// and every loan applied for before versions were recorded.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub product_version: u32,
}

impl LoanTerms {
    /// The loan's day of the moment `at`: its date in [`LoanTerms::time_zone`].
    ///
    /// 2026-11-23T17:00Z is 2026-11-24 in Asia/Manila (UTC+8), 2026-11-23 in UTC.
    pub fn day_of(&self, at: DateTime<Utc>) -> NaiveDate {
        match self.time_zone {
            Some(zone) => at.with_timezone(&zone).date_naive(),
            None => at.date_naive(),
        }
    }

    /// The first moment of the loan's day `day` (its 00:00 in the zone), in UTC.
    pub fn day_start(&self, day: NaiveDate) -> DateTime<Utc> {
        let midnight = day.and_time(NaiveTime::MIN);
        match self.time_zone {
            Some(zone) => midnight
                .and_local_timezone(zone)
                .earliest()
                .map_or_else(|| midnight.and_utc(), |at| at.with_timezone(&Utc)),
            None => midnight.and_utc(),
        }
    }
}
