//! Products as data in the console (issue 55): every version and proposal of each
//! product, and the three commands of maker-checker: propose a change, approve or
//! reject another's. Every rule (the caps, 50007; the maker is not the checker, 50006;
//! a moment not past; an offer a borrower can be made) is the `ProductLine`'s
//! (`aggregates::catalogue`); this file turns the wire's terms into a `Product` and
//! back, and `changes` runs the commands.

use super::changes::{self, LineView};
#[allow(clippy::wildcard_imports)]
use super::*;
use aggregates::catalogue::Setting;
use aggregates::pricing::{Pricing, Product, RateConfig};

use crate::config::product_line_id;

/// The routes of this file.
pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/api/products/list", post(product_lines))
        .route("/admin/api/products/propose", post(propose_change))
        .route("/admin/api/products/approve", post(approve_change))
        .route("/admin/api/products/reject", post(reject_change))
}

/// One period of a product and its rate.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct PeriodTerms {
    /// Days, 1 to 365.
    period_days: u32,
    /// Interest in percent per day, at most three decimals ("0.2" is 0.2 %/day).
    #[schema(example = "0.2")]
    daily_rate_pct: String,
}

/// A product's terms as the console shows and proposes them: money as decimal
/// strings, rates in percent.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ProductTerms {
    /// The name borrowers see (English), 1 to 80 characters.
    name: String,
    /// Whether borrowers may apply for it.
    enabled: bool,
    /// Smallest amount.
    #[schema(example = "800.00")]
    amount_min: String,
    /// Largest amount.
    #[schema(example = "30000.00")]
    amount_max: String,
    /// Amounts are multiples of this (at most 1,000 amounts).
    #[schema(example = "100.00")]
    amount_step: String,
    /// The periods offered, 1 to 12, each once.
    rate_configs: Vec<PeriodTerms>,
    /// Processing fee in percent of the principal, deducted from the payout.
    #[schema(example = "0")]
    processing_fee_pct: String,
    /// Overdue fee per overdue installment per day, in percent of it.
    #[schema(example = "0")]
    overdue_daily_rate_pct: String,
    /// Interest and fees never exceed this percent of the principal.
    #[schema(example = "100")]
    max_total_cost_pct: String,
    /// Days after the payout in which returning the principal closes the loan free.
    cooling_off_days: u32,
    /// Days an approved offer stays withdrawable.
    offer_valid_days: u32,
    /// Smallest repayment but the last.
    #[schema(example = "1.00")]
    repay_min: String,
    /// Largest single repayment.
    #[schema(example = "200.00")]
    repay_max: String,
    /// The extensions offered, in days (none: no extension).
    extension_days: Vec<u32>,
    /// How many extensions one loan may have.
    max_extensions: u32,
    /// The repayments due in any 30 days are at most this percent of the declared
    /// monthly income; null: no such rule.
    max_income_share_pct: Option<String>,
}

/// A daily rate's wire form: thousandths of a percent as percent.
fn rate_pct(rate: u32) -> String {
    aggregates::pricing::daily_rate_pct(rate)
        .normalize()
        .to_string()
}

fn pct_text(value: Decimal) -> String {
    value.normalize().to_string()
}

impl ProductTerms {
    fn of(product: &Product) -> Self {
        let pricing = &product.pricing;
        Self {
            name: product.name.clone(),
            enabled: product.enabled,
            amount_min: money_text(product.amount_min),
            amount_max: money_text(product.amount_max),
            amount_step: money_text(product.amount_step),
            rate_configs: product
                .rate_configs
                .iter()
                .map(|config| PeriodTerms {
                    period_days: config.period_days,
                    daily_rate_pct: rate_pct(config.daily_rate),
                })
                .collect(),
            processing_fee_pct: pct_text(pricing.processing_fee_pct),
            overdue_daily_rate_pct: rate_pct(pricing.overdue_daily_rate),
            max_total_cost_pct: pct_text(pricing.max_total_cost_pct),
            cooling_off_days: pricing.cooling_off_days,
            offer_valid_days: pricing.offer_valid_days,
            repay_min: money_text(pricing.repay_min),
            repay_max: money_text(pricing.repay_max),
            extension_days: pricing.extension_days.clone(),
            max_extensions: pricing.max_extensions,
            max_income_share_pct: product.max_income_share_pct.map(pct_text),
        }
    }

    /// The product `id` these terms describe. 10004 names the first field that is not
    /// a number of its kind; whether the product is one a borrower can be offered is
    /// the line's to decide (`Product::check_offer`, the caps).
    fn product(self, id: i64) -> Result<Product, ApiError> {
        let pricing = Pricing {
            processing_fee_pct: percent("processingFeePct", &self.processing_fee_pct)?,
            overdue_daily_rate: daily_rate("overdueDailyRatePct", &self.overdue_daily_rate_pct)?,
            max_total_cost_pct: percent("maxTotalCostPct", &self.max_total_cost_pct)?,
            cooling_off_days: self.cooling_off_days,
            offer_valid_days: self.offer_valid_days,
            repay_min: money("repayMin", &self.repay_min)?,
            repay_max: money("repayMax", &self.repay_max)?,
            extension_days: self.extension_days,
            max_extensions: self.max_extensions,
        };
        let rate_configs = self
            .rate_configs
            .iter()
            .map(|period| {
                Ok(RateConfig {
                    period_days: period.period_days,
                    daily_rate: daily_rate("rateConfigs.dailyRatePct", &period.daily_rate_pct)?,
                })
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
        Ok(Product {
            id,
            name: self.name.trim().to_string(),
            enabled: self.enabled,
            amount_min: money("amountMin", &self.amount_min)?,
            amount_max: money("amountMax", &self.amount_max)?,
            amount_step: money("amountStep", &self.amount_step)?,
            rate_configs,
            pricing,
            max_income_share_pct: self
                .max_income_share_pct
                .as_deref()
                .map(|share| percent("maxIncomeSharePct", share))
                .transpose()?,
            version: 0,
        })
    }
}

fn field_error(field: &str, rule: &str) -> ApiError {
    ApiError::new(
        ErrorCode::RequestError,
        format!("request error: {field}: {rule}"),
    )
}

fn decimal(field: &str, text: &str, scale: u32) -> Result<Decimal, ApiError> {
    let rule = format!("a number of at most {scale} decimals, 0 or more");
    let value: Decimal = text.trim().parse().map_err(|_| field_error(field, &rule))?;
    if value.is_sign_negative() || value.normalize().scale() > scale || text.trim().len() > 16 {
        return Err(field_error(field, &rule));
    }
    Ok(value)
}

fn money(field: &str, text: &str) -> Result<Decimal, ApiError> {
    decimal(field, text, 2)
}

fn percent(field: &str, text: &str) -> Result<Decimal, ApiError> {
    decimal(field, text, 3)
}

/// A percent per day as the thousandths of a percent products are priced in.
fn daily_rate(field: &str, text: &str) -> Result<u32, ApiError> {
    let thousandths = decimal(field, text, 3)? * Decimal::ONE_THOUSAND;
    u32::try_from(thousandths).map_err(|_| field_error(field, "a percent per day, at most 100"))
}

/// A product with every version and proposal.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ProductLineView {
    /// The product id (`appId` in the borrower's calls).
    product_id: i64,
    /// Its versions and proposals.
    #[serde(flatten)]
    line: LineView<ProductTerms>,
}

#[utoipa::path(
    post,
    path = "/admin/api/products/list",
    tag = "products",
    summary = "Every product with its versions and proposals",
    description = "As the store has them now (read again for this call): version 0 is the \
                   configuration file's, each later one approved in the console.",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the products", body = Envelope<Option<Vec<ProductLineView>>>))
)]
pub(super) async fn product_lines(
    State(state): State<AppState>,
    _: Auditor,
) -> Result<Response, ApiError> {
    state
        .catalogue
        .refresh(&state.products, &state.settings)
        .await?;
    let names = changes::staff_names(&state).await?;
    let now = state.now();
    let lines = state
        .config
        .products
        .iter()
        .map(|configured| {
            let id = configured.product.id;
            let original = configured.product.as_version(0);
            let line = state.catalogue.line(id);
            ProductLineView {
                product_id: id,
                line: changes::line_view(&original, &line, now, &names, ProductTerms::of),
            }
        })
        .collect::<Vec<_>>();
    Ok(ok(lines))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ProposeBody {
    /// The product (`productId` of the list).
    product_id: i64,
    /// The product as it would be.
    terms: ProductTerms,
    /// The proposal's id, moment and reason.
    #[serde(flatten)]
    head: changes::ProposalHead,
}

/// The line of a configured product. 40007 for any other.
fn line_of(state: &AppState, product_id: i64) -> Result<String, ApiError> {
    state
        .config
        .products
        .iter()
        .any(|configured| configured.product.id == product_id)
        .then(|| product_line_id(product_id))
        .ok_or_else(|| not_found("product"))
}

#[utoipa::path(
    post,
    path = "/admin/api/products/propose",
    tag = "products",
    summary = "Propose a change to a product",
    description = "Checked at once against the compliance profile for every amount and \
                   period it offers: 50007 names the cap it breaks. It takes effect only \
                   once another staff member approves it. 10004 a field out of bounds, a \
                   moment past, no reason, an id taken by another proposal; 40007 unknown \
                   product.",
    security(("bearer" = [])),
    request_body = ProposeBody,
    responses((status = 200, description = "Envelope with the proposal's id", body = Envelope<Option<changes::Proposed>>))
)]
pub(super) async fn propose_change(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<ProposeBody>,
) -> Result<Response, ApiError> {
    let id = line_of(&state, body.product_id)?;
    let product = body.terms.product(body.product_id)?;
    changes::propose(&state, &state.products, &auditor, &id, body.head, product).await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct DecideBody {
    /// The product.
    product_id: i64,
    /// The proposal.
    proposal_id: Uuid,
    /// Why (rejections only; 1 to 500 characters, shown to the maker).
    reason: Option<String>,
}

#[utoipa::path(
    post,
    path = "/admin/api/products/approve",
    tag = "products",
    summary = "Approve another staff member's proposal",
    description = "It becomes the next version, in force from its moment (or now, when that \
                   has passed); loans signed before keep their terms. The caps are checked \
                   again (50007). A repeat changes nothing. 50006 its maker; 10004 a \
                   proposal unknown, rejected, or overtaken by a newer version (propose \
                   again); 40007 unknown product.",
    security(("bearer" = [])),
    request_body = DecideBody,
    responses((status = 200, description = "Envelope, data null", body = Envelope<Null>))
)]
pub(super) async fn approve_change(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<DecideBody>,
) -> Result<Response, ApiError> {
    let id = line_of(&state, body.product_id)?;
    changes::decide(
        &state,
        &state.products,
        &auditor,
        &id,
        body.proposal_id,
        None,
    )
    .await
}

#[utoipa::path(
    post,
    path = "/admin/api/products/reject",
    tag = "products",
    summary = "Reject a proposal",
    description = "With a reason for its maker. A repeat changes nothing. 10004 no reason, \
                   a proposal unknown or approved; 40007 unknown product.",
    security(("bearer" = [])),
    request_body = DecideBody,
    responses((status = 200, description = "Envelope, data null", body = Envelope<Null>))
)]
pub(super) async fn reject_change(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<DecideBody>,
) -> Result<Response, ApiError> {
    let id = line_of(&state, body.product_id)?;
    let reason = Some(body.reason.unwrap_or_default());
    changes::decide(
        &state,
        &state.products,
        &auditor,
        &id,
        body.proposal_id,
        reason,
    )
    .await
}
