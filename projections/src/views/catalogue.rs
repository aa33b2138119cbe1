//! The catalogue as the borrower's app reads it (`/loan/appList`,
//! `/loan/getPeriodConfig`): built by the api from the lending configuration.
//! Answers only (nothing stored), fields in the byte order of their names as
//! everywhere in [`crate::views`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One product of `/loan/appList`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductView {
    /// The highest daily rate the product offers, in percent, a decimal string (`"0.2"`).
    pub default_rate: String,
    /// Disabled products are shown greyed and cannot be applied for.
    pub enabled: bool,
    /// Product (app) id.
    pub id: i64,
    /// The logo's URL.
    pub logo: String,
    /// The most that can be borrowed: money, a decimal string with two places.
    pub max_amount: String,
    /// The least that can be borrowed: money.
    pub min_amount: String,
    /// The name, in English.
    pub name: String,
    /// The name by language code (`zh`, `fil`) where the lender gave one.
    pub name_translations: BTreeMap<String, String>,
    /// The amounts go up in steps of this: money.
    pub step: String,
}

/// A product's terms (`/loan/getPeriodConfig`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PeriodConfigView {
    /// Product (app) id.
    pub id: i64,
    /// The periods offered.
    pub rate_configs: Vec<RateConfigView>,
}

/// One period a product offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RateConfigView {
    /// The amounts that can be borrowed, from the least to the most: money.
    pub amounts: Vec<String>,
    /// Term in days.
    pub period_days: u32,
    /// Daily rate in percent, a decimal string (`"0.2"`).
    pub rate: String,
}
