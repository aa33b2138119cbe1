//! Borrower loan calls: `/jackey/loan/*` and `/jackey/user/withdraw` (PRODUCT.md 8).

use aggregates::order::{Order, OrderCommand, OrderStatus};
use aggregates::pricing::affordability::max_affordable;
use aggregates::pricing::Product;
use aggregates::types::Amount;
use aggregates::user::{UserCommand, UserEvent, MAX_FAILED_ATTEMPTS};
use aggregates::{Actor, ErrorCode};
use axum::extract::State;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use utoipa::{OpenApi, ToSchema};
use uuid::Uuid;

use crate::config::{CompanySettings, Region, Translations};
use crate::http::auth::{Borrower, BorrowerToken};
use crate::http::envelope::{ok, ApiError, ApiJson, Envelope, Null, OptionalJson};
use crate::http::middleware::{idempotency, read_your_writes};
use crate::queries::borrower as queries;
use crate::queries::borrower::OrderColumns;
use crate::runtime::state::AppState;
use projections::projection::money_text;
use projections::views::{
    LoanProgress, OrderDoc, OrderSummary, PeriodConfigView, ProductView, RateConfigView,
    TimelineEvent,
};

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/jackey/loan/appList", post(app_list))
        .route("/jackey/loan/getPeriodConfig", post(period_config))
        .route("/jackey/loan/getCustomerService", post(customer_service))
        .route("/jackey/loan/getAllCompanyConfigs", post(company_configs))
        .route("/jackey/loan/getConfigByKey", post(config_by_key))
        .route("/jackey/loan/getLoanProgress", post(loan_progress))
        .route("/jackey/loan/getUserOrderList", post(order_list))
        .route("/jackey/loan/orderInfo", post(order_info))
        .route("/jackey/loan/orderTimeline", post(order_timeline))
        .route("/jackey/loan/quote", post(quote))
        .route("/jackey/loan/affordability", post(affordability))
        .route("/jackey/loan/apply", post(apply))
        .route("/jackey/loan/cancel", post(cancel))
        .route("/jackey/loan/resubmit", post(resubmit))
        .route("/jackey/loan/payoffQuote", post(payoff_quote))
        .route(
            "/jackey/user/getLastWithdrawError",
            post(last_withdraw_error),
        )
        .route("/jackey/user/withdraw", post(withdraw))
}

/// The OpenAPI description of this module's calls (see [`crate::http::openapi`]).
#[derive(OpenApi)]
#[openapi(paths(
    app_list,
    period_config,
    customer_service,
    company_configs,
    config_by_key,
    loan_progress,
    order_list,
    order_info,
    order_timeline,
    quote,
    affordability,
    apply,
    cancel,
    resubmit,
    payoff_quote,
    last_withdraw_error,
    withdraw
))]
pub struct Doc;

/// The request id the events of this request's command record (`x-request-id`).
use crate::http::middleware::request_id::current as request_id;

#[utoipa::path(
    post,
    path = "/jackey/loan/appList",
    tag = "borrower loan",
    summary = "The products",
    description = "`data`: the products; `name` is English and `nameTranslations` the name \
                   by language code (`zh`, `fil`) where the lender gave one.",
    responses((status = 200, description = "Envelope with the products", body = Envelope<Option<Vec<ProductView>>>))
)]
async fn app_list(State(state): State<AppState>) -> Result<Response, ApiError> {
    let now = state.now();
    let products: Vec<ProductView> = state
        .config
        .products
        .iter()
        .filter_map(|p| {
            // The version in force now (issue 55); the logo and names are the file's.
            let product = state.catalogue.product_at(p.product.id, now)?;
            let default_rate = product
                .rate_configs
                .iter()
                .map(|c| c.daily_rate)
                .max()
                .unwrap_or(0);
            Some(ProductView {
                default_rate: aggregates::pricing::daily_rate_pct(default_rate)
                    .normalize()
                    .to_string(),
                enabled: product.enabled,
                id: product.id,
                logo: p.logo.clone(),
                max_amount: money_text(product.amount_max),
                min_amount: money_text(product.amount_min),
                name: product.name.clone(),
                // The file's translations name the file's product: a name changed in
                // the console is shown as it is, in English, until the file follows.
                name_translations: if product.name == p.product.name {
                    p.name_translations.clone()
                } else {
                    Default::default()
                },
                step: money_text(product.amount_step),
            })
        })
        .collect();
    Ok(ok(products))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct AppBody {
    /// The product id (`/jackey/loan/appList`).
    #[schema(example = 1)]
    app_id: i64,
}

/// Product `app_id` as in force now (issue 55). 40007 when there is none.
fn product_in_force(state: &AppState, app_id: i64) -> Result<Product, ApiError> {
    state
        .catalogue
        .product_at(app_id, state.now())
        .ok_or_else(|| ApiError::new(ErrorCode::RecordNotFound, "record not found: product"))
}

#[utoipa::path(
    post,
    path = "/jackey/loan/getPeriodConfig",
    tag = "borrower loan",
    summary = "A product's terms",
    description = "`data`: the product's terms. 40007 unknown product.",
    request_body = AppBody,
    responses((status = 200, description = "Envelope with the terms", body = Envelope<Option<PeriodConfigView>>))
)]
async fn period_config(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<AppBody>,
) -> Result<Response, ApiError> {
    let product = product_in_force(&state, body.app_id)?;
    let amounts: Vec<String> = product.amounts().map(money_text).collect();
    let rate_configs = product
        .rate_configs
        .iter()
        .map(|c| RateConfigView {
            amounts: amounts.clone(),
            period_days: c.period_days,
            rate: aggregates::pricing::daily_rate_pct(c.daily_rate)
                .normalize()
                .to_string(),
        })
        .collect();
    Ok(ok(PeriodConfigView {
        id: product.id,
        rate_configs,
    }))
}

#[utoipa::path(
    post,
    path = "/jackey/loan/getCustomerService",
    tag = "borrower loan",
    summary = "The customer-service link",
    description = "`data`: the link (string), or null when none is configured.",
    responses((status = 200, description = "Envelope with the link", body = Envelope<Option<String>>))
)]
async fn customer_service(State(state): State<AppState>) -> Result<Response, ApiError> {
    Ok(ok(state
        .catalogue
        .company()
        .get("customer-service-link")
        .cloned()
        .unwrap_or(Json::Null)))
}

#[utoipa::path(
    post,
    path = "/jackey/loan/getAllCompanyConfigs",
    tag = "borrower loan",
    summary = "Company texts and the lender's identity",
    description = "The company block of the lending file (its texts in English), the \
                   texts configured in several languages under `translations`, the \
                   lender, currency and privacy notice version, and whether registration \
                   needs an invite code.",
    responses((status = 200, description = "Envelope with the settings", body = Envelope<Option<CompanyConfigs>>))
)]
async fn company_configs(State(state): State<AppState>) -> Result<Response, ApiError> {
    let config = &state.config;
    // The texts and codes in force now (issue 55); each version's texts were checked
    // when proposed, the file's when it was loaded: a failure here is a bug (500).
    let lender_settings = state.catalogue.settings_at(state.now());
    let (mut settings, translations) = crate::config::company_settings(&state.catalogue.company())?;
    for name in CompanyConfigs::OWN_KEYS {
        settings.other.remove(*name);
    }
    Ok(ok(CompanyConfigs {
        settings,
        translations,
        lender: config.lender.clone(),
        currency: config.currency.clone(),
        notice: aggregates::pricing::Lender::NOTICE.to_string(),
        privacy_notice_version: config.privacy_notice_version.clone(),
        // The SPA links the demo SMS inbox next to "Send code" (routes::borrower::sms_inbox).
        demo: state.env.app_env == crate::config::AppEnv::Demo,
        invite_code_required: lender_settings.invite_code_required,
        receiving_accounts: lender_settings
            .receiving_accounts
            .into_iter()
            .map(ReceivingAccountView::from)
            .collect(),
    }))
}

/// `/loan/getAllCompanyConfigs`: the company block of the lending file and what the
/// app needs to know of the lender. PRODUCT.md 10: a company text is plain text, here
/// in English; the other languages a text is configured in ride beside it, for the app
/// to pick.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct CompanyConfigs {
    /// The company block.
    #[serde(flatten)]
    settings: CompanySettings,
    /// The texts configured in several languages: key (`about-us`, `faq`,
    /// `customer-service-hours`, `privacy-notice`) → language → text.
    #[schema(inline)]
    translations: Translations,
    /// The lender (P14).
    lender: aggregates::pricing::Lender,
    /// The currency.
    currency: crate::config::Currency,
    /// The lender's standing notice (P14).
    notice: String,
    /// The version of the `privacy-notice` text that registration shows and records
    /// (PRODUCT.md 12.6).
    privacy_notice_version: String,
    /// APP_ENV=demo: no real SMS is sent; the demo SMS inbox exists.
    demo: bool,
    /// Whether registration needs an invite code (the lending file's
    /// `invite_code_required`); where a code comes from is the company text
    /// `invite-code-help` (issue 52).
    invite_code_required: bool,
    /// The lender's accounts where a borrower may pay by transfer (issue 55; none by
    /// default), each in the lender's name.
    receiving_accounts: Vec<ReceivingAccountView>,
}

/// An account of the lender's a borrower may pay into.
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReceivingAccountView {
    /// The bank or e-wallet.
    pub bank_name: String,
    /// The account's holder.
    pub account_name: String,
    /// The account number.
    pub account_no: String,
}

impl From<aggregates::catalogue::ReceivingAccount> for ReceivingAccountView {
    fn from(account: aggregates::catalogue::ReceivingAccount) -> Self {
        Self {
            bank_name: account.bank_name,
            account_name: account.account_name,
            account_no: account.account_no,
        }
    }
}

impl CompanyConfigs {
    /// The answer's own keys: a company key of the same name is not answered.
    const OWN_KEYS: &'static [&'static str] = &[
        "translations",
        "lender",
        "currency",
        "notice",
        "privacyNoticeVersion",
        "demo",
        "inviteCodeRequired",
        "receivingAccounts",
    ];
}

/// A reference list of `/loan/getConfigByKey`.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
enum ReferenceList {
    /// `banks`, `eWallets`, `education`, `marriage`, `website`: names.
    Names(Vec<String>),
    /// `provinces`: the location tree.
    Regions(Vec<Region>),
}

#[derive(Deserialize, ToSchema)]
struct KeyBody {
    /// website, marriage, education, banks, eWallets or provinces.
    #[schema(example = "banks")]
    key: String,
}

#[utoipa::path(
    post,
    path = "/jackey/loan/getConfigByKey",
    tag = "borrower loan",
    summary = "A reference list",
    description = "`data`: the list. `banks`: the bank and e-wallet names a payout can go to; \
                   `eWallets`: those of them that are e-wallets, whose account number is the wallet's \
                   mobile number (09 and 9 digits). `provinces`: the location tree (PSGC names under PH), \
                   `[{region, provinces: [{province, cities: [name]}]}]`, or `[{region, cities: [name]}]` \
                   for a region without provinces (NCR); a profile's `provinceCity` is then \
                   \"Region,Province,City\", with an empty province in such a region. \
                   10004 for any other key.",
    request_body = KeyBody,
    responses((status = 200, description = "Envelope with the list", body = Envelope<Option<ReferenceList>>))
)]
async fn config_by_key(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<KeyBody>,
) -> Result<Response, ApiError> {
    let config = &state.config;
    let names = |list: &Vec<String>| ReferenceList::Names(list.clone());
    let value = match body.key.as_str() {
        "banks" => names(&config.banks),
        "eWallets" => names(&config.e_wallets),
        "education" => names(&config.education),
        "marriage" => names(&config.marriage),
        "provinces" => ReferenceList::Regions(config.provinces.clone()),
        "website" => {
            let company = state.catalogue.company();
            let website = company.get("website").and_then(Json::as_str);
            ReferenceList::Names(website.map(str::to_string).into_iter().collect())
        }
        _ => {
            return Err(ApiError::bad_input(
                "key",
                "one of website, marriage, education, banks, eWallets, provinces",
            ))
        }
    };
    Ok(ok(value))
}

#[utoipa::path(
    post,
    path = "/jackey/loan/getLoanProgress",
    tag = "borrower loan",
    summary = "The latest order's progress",
    description = "`data`: the latest order's progress, or null without an order.",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the progress", body = Envelope<Option<LoanProgress>>))
)]
async fn loan_progress(
    State(state): State<AppState>,
    token: BorrowerToken,
) -> Result<Response, ApiError> {
    Ok(ok(queries::loan_progress(&state, &token).await?))
}

#[utoipa::path(
    post,
    path = "/jackey/loan/getUserOrderList",
    tag = "borrower loan",
    summary = "The borrower's orders",
    description = "`data`: the borrower's orders, newest first.",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the orders", body = Envelope<Option<Vec<OrderSummary>>>))
)]
async fn order_list(
    State(state): State<AppState>,
    token: BorrowerToken,
) -> Result<Response, ApiError> {
    Ok(ok(queries::own_order_list(&state, &token).await?))
}

#[derive(Deserialize, Default, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct OrderBody {
    /// The order; omitted or empty: the borrower's latest.
    #[serde(default)]
    pub(super) loan_order_id: Option<String>,
}

#[utoipa::path(
    post,
    path = "/jackey/loan/orderInfo",
    tag = "borrower loan",
    summary = "An order",
    description = "The body may be empty (the latest order). 40007 no such order of this borrower.",
    security(("bearer" = [])),
    request_body = Option<OrderBody>,
    responses((status = 200, description = "Envelope with the order document", body = Envelope<Option<OrderDoc>>))
)]
async fn order_info(
    State(state): State<AppState>,
    token: BorrowerToken,
    OptionalJson(body): OptionalJson<OrderBody>,
) -> Result<Response, ApiError> {
    let order = queries::own_order(
        &state,
        &token,
        body.loan_order_id.as_deref(),
        OrderColumns::Doc,
    )
    .await?;
    Ok(ok(order.raw_doc()?))
}

#[utoipa::path(
    post,
    path = "/jackey/loan/orderTimeline",
    tag = "borrower loan",
    summary = "An order's events as the borrower sees them",
    description = "`data`: the order's events, oldest first; who acted is given by role. \
                   40007 no such order of this borrower.",
    security(("bearer" = [])),
    request_body = OrderBody,
    responses((status = 200, description = "Envelope with the events", body = Envelope<Option<Vec<TimelineEvent>>>))
)]
async fn order_timeline(
    State(state): State<AppState>,
    token: BorrowerToken,
    ApiJson(body): ApiJson<OrderBody>,
) -> Result<Response, ApiError> {
    let (_, order) =
        queries::own_order_state(&state, &token, body.loan_order_id.as_deref()).await?;
    let order_id = order.id.map(|id| id.to_string()).unwrap_or_default();
    Ok(ok(queries::order_timeline(&state, &order_id).await?))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct QuoteBody {
    /// Amount to borrow: a decimal string (a whole JSON number is accepted too), PRODUCT.md 5.
    #[schema(value_type = String, pattern = r"^[0-9]{1,9}(\.[0-9]{1,2})?$", example = "5000.00")]
    amt: Amount,
    /// Term in days (one of the product's `periodDays`).
    #[schema(example = 7)]
    period_days: u32,
    /// The product id.
    #[schema(example = 1)]
    app_id: i64,
    /// `/loan/apply` only: the `productVersion` of the disclosure the borrower was
    /// shown (absent there when 0); an application under another version in force is
    /// refused (10004) so that nobody signs terms they were not shown. Absent: not
    /// checked.
    #[serde(default)]
    product_version: Option<u32>,
}

/// The disclosure of the application `body` describes: the order's own pricing, the
/// one `ApplyForLoan` records.
fn quote_for(
    state: &AppState,
    body: &QuoteBody,
) -> Result<aggregates::pricing::Disclosure, ApiError> {
    let (amount, period_days) = (body.amt.value(), body.period_days);
    let quote = aggregates::order::quote(&state.order_services, body.app_id, amount, period_days)?;
    Ok(quote.disclosure)
}

#[utoipa::path(
    post,
    path = "/jackey/loan/quote",
    tag = "borrower loan",
    summary = "The cost disclosure before signing (P5)",
    description = "`data`: the disclosure (P5). 10004 amount or term out of range; \
                   40007 unknown product.",
    request_body = QuoteBody,
    responses((status = 200, description = "Envelope with the disclosure", body = Envelope<Option<aggregates::pricing::Disclosure>>))
)]
async fn quote(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<QuoteBody>,
) -> Result<Response, ApiError> {
    Ok(ok(quote_for(&state, &body)?))
}

/// What the borrower's declared income allows of one product (issue 52): the same
/// `pricing::affordability` the Order decides by at apply (40010).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct AffordabilityView {
    /// The monthly income the questionnaire declared, two decimals; null when none
    /// was declared as an amount.
    #[schema(example = "30000.00")]
    monthly_income: Option<String>,
    /// The product's cap: repayments due in any 30 days at most this percent of the
    /// monthly income; null when the product sets none.
    #[schema(example = "40")]
    income_share_pct: Option<String>,
    /// The largest amount the income allows, per period the product offers.
    limits: Vec<AffordableAmount>,
}

/// The largest affordable amount over one period.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct AffordableAmount {
    /// Term in days.
    period_days: u32,
    /// A multiple of the product's step within its range, two decimals; null when not
    /// even the smallest amount fits.
    #[schema(example = "150000.00")]
    max_amount: Option<String>,
}

#[utoipa::path(
    post,
    path = "/jackey/loan/affordability",
    tag = "borrower loan",
    summary = "The most the borrower's declared income allows (issue 52)",
    description = "`data`: per period of the product, the largest amount whose \
                   repayments due in any 30 days fit the product's share of the declared \
                   monthly income; apply refuses more with 40010. 40007 unknown product.",
    security(("bearer" = [])),
    request_body = AppBody,
    responses((status = 200, description = "Envelope with the limits", body = Envelope<Option<AffordabilityView>>))
)]
async fn affordability(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<AppBody>,
) -> Result<Response, ApiError> {
    let product = product_in_force(&state, body.app_id)?;
    let user = state.users.load(&borrower.user_id.to_string()).await?;
    let income = user.declared_income();
    let limits = product
        .rate_configs
        .iter()
        .filter_map(|c| product.terms_for(c.period_days).ok())
        .map(|terms| AffordableAmount {
            period_days: terms.period_days,
            max_amount: max_affordable(&product, &terms, income).map(money_text),
        })
        .collect();
    Ok(ok(AffordabilityView {
        monthly_income: income.map(money_text),
        income_share_pct: product
            .max_income_share_pct
            .map(|share| share.normalize().to_string()),
        limits,
    }))
}

/// The new order.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ApplyData {
    /// Its id.
    loan_order_id: Uuid,
}

#[utoipa::path(
    post,
    path = "/jackey/loan/apply",
    tag = "borrower loan",
    summary = "Apply for a loan",
    description = "Needs a complete profile, aged 22 to 50 (40000) and a signature on file \
                   (10004). 40005 an order is already in progress; 20003 account locked; \
                   10004 amount or term out of range; 40010 above what the declared \
                   income allows (names the largest amount that fits); 40007 unknown \
                   product; 10004 `productVersion` no longer in force (the terms changed \
                   since the quote: quote again). Accepts `Idempotency-Key`.",
    security(("bearer" = [])),
    params(("Idempotency-Key" = Option<String>, Header, description = "repeat-safe key, 1 to 200 characters (any other answers 10004)")),
    request_body = QuoteBody,
    responses((status = 200, description = "Envelope with the order id", body = Envelope<Option<ApplyData>>))
)]
async fn apply(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<QuoteBody>,
) -> Result<Response, ApiError> {
    // One command: the User decides the applicant conditions and the single open
    // application; the loan workflow opens the order (the Order decides the terms)
    // or closes the application with the Order's reason, which this call answers.
    let user_id = borrower.user_id;
    let uid = user_id.to_string();
    // Derived from the Idempotency-Key when there is one: a repeat names this order.
    let order_id = idempotency::id_for("order");
    let open = || UserCommand::OpenApplication {
        order_id,
        app_id: body.app_id,
        amount: body.amt.value(),
        period_days: body.period_days,
        terms_version: TERMS_VERSION.to_string(),
        product_version: body.product_version,
    };
    state
        .execute(
            &state.users,
            &uid,
            open,
            Actor::User(user_id),
            &request_id(),
        )
        .await?;
    let oid = order_id.to_string();
    state
        .await_workflow(|| async {
            let order = state.orders.load(&oid).await?;
            if order.id.is_some() {
                return Ok(Some(()));
            }
            let user = state.users.load(&uid).await?;
            match user.refusal_of(order_id) {
                Some(refusal) => Err(ApiError::new(refusal.code, refusal.message.clone())),
                None => Ok(None),
            }
        })
        .await?;
    // The order was written by the workflow: the borrower's next read waits for it.
    read_your_writes::record_latest(&state, <Order as cqrs_es::Aggregate>::TYPE, &oid).await?;
    Ok(ok(ApplyData {
        loan_order_id: order_id,
    }))
}

/// Version of the contract text the borrower signs.
const TERMS_VERSION: &str = "2026-11";

#[utoipa::path(
    post,
    path = "/jackey/loan/cancel",
    tag = "borrower loan",
    summary = "Cancel an order before payout",
    description = "40007 no such order of this borrower; 10004 no longer cancellable (paid \
                   out or closed). Free (P6). Accepts `Idempotency-Key`.",
    security(("bearer" = [])),
    params(("Idempotency-Key" = Option<String>, Header, description = "repeat-safe key, 1 to 200 characters (any other answers 10004)")),
    request_body = OrderBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn cancel(
    State(state): State<AppState>,
    token: BorrowerToken,
    ApiJson(body): ApiJson<OrderBody>,
) -> Result<Response, ApiError> {
    own_order_command(&state, &token, &body, || OrderCommand::Cancel).await
}

/// The borrower and the order `body` names, which must be the borrower's own (40007).
async fn own_order_ids(
    state: &AppState,
    token: &BorrowerToken,
    body: &OrderBody,
) -> Result<(Uuid, Uuid), ApiError> {
    let (user_id, order) =
        queries::own_order_state(state, token, body.loan_order_id.as_deref()).await?;
    let order_id = order
        .id
        .ok_or_else(|| ApiError::code(ErrorCode::RecordNotFound))?;
    Ok((user_id, order_id))
}

/// The borrower's signature on file, as the application was signed with (P7): what
/// an extension or a payment plan is signed with; `None` when there is none.
pub(super) async fn signature_on_file(
    state: &AppState,
    borrower: &Borrower,
) -> Result<Option<aggregates::types::ImageRef>, ApiError> {
    let user = state.users.load(&borrower.user_id.to_string()).await?;
    Ok(user.signature.clone())
}

/// Sends `command` to the borrower's own order named in `body` (their latest when
/// none is named), as the borrower; answers `data: null`. 40007 when the order is not
/// theirs; the Order decides everything else.
pub(super) async fn own_order_command(
    state: &AppState,
    token: &BorrowerToken,
    body: &OrderBody,
    command: impl Fn() -> OrderCommand,
) -> Result<Response, ApiError> {
    let (user_id, order_id) = own_order_ids(state, token, body).await?;
    state
        .execute(
            &state.orders,
            &order_id.to_string(),
            command,
            Actor::User(user_id),
            &request_id(),
        )
        .await?;
    Ok(ok(Null))
}

#[utoipa::path(
    post,
    path = "/jackey/loan/resubmit",
    tag = "borrower loan",
    summary = "Resubmit an order after fixing what the officer asked",
    description = "PRODUCT.md 12.4: the order returns from 2 (resubmission requested) to 0 \
                   (submitted) and waits for review again. 40007 no such order of this \
                   borrower; 10004 the order is not waiting for a resubmission; 40009 none \
                   of the items the officer asked to fix was changed. Accepts \
                   `Idempotency-Key`.",
    security(("bearer" = [])),
    params(("Idempotency-Key" = Option<String>, Header, description = "repeat-safe key, 1 to 200 characters (any other answers 10004)")),
    request_body = OrderBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn resubmit(
    State(state): State<AppState>,
    token: BorrowerToken,
    ApiJson(body): ApiJson<OrderBody>,
) -> Result<Response, ApiError> {
    let (user_id, order_id) = own_order_ids(&state, &token, &body).await?;
    // What the borrower changed of the request's items, as the User aggregate has
    // it (never a read model); the Order decides whether that is enough (40009).
    let fixed = state.users.load(&user_id.to_string()).await?.fixed_items();
    state
        .execute(
            &state.orders,
            &order_id.to_string(),
            || OrderCommand::Resubmit {
                fixed: fixed.clone(),
            },
            Actor::User(user_id),
            &request_id(),
        )
        .await?;
    Ok(ok(Null))
}

/// What closes the loan today (P12).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct PayoffData {
    /// The amount, a decimal string.
    amount: String,
    /// Interest not charged when paying today.
    interest_waived: String,
    /// Fees not charged when paying today.
    fees_waived: String,
    /// Whether the cooling-off period applies.
    cooling_off: bool,
}

#[utoipa::path(
    post,
    path = "/jackey/loan/payoffQuote",
    tag = "borrower loan",
    summary = "The amount that closes the loan today",
    description = "The body may be empty (the latest order). 40007 no such order of this \
                   borrower, or nothing is owed.",
    security(("bearer" = [])),
    request_body = Option<OrderBody>,
    responses((status = 200, description = "Envelope with the payoff", body = Envelope<Option<PayoffData>>))
)]
async fn payoff_quote(
    State(state): State<AppState>,
    token: BorrowerToken,
    OptionalJson(body): OptionalJson<OrderBody>,
) -> Result<Response, ApiError> {
    let (_, order) =
        queries::own_order_state(&state, &token, body.loan_order_id.as_deref()).await?;
    let (Some(loan), OrderStatus::Disbursed) = (&order.loan, order.status) else {
        return Err(ApiError::new(
            ErrorCode::RecordNotFound,
            "record not found: nothing is owed",
        ));
    };
    let payoff = loan.payoff(order.day_of(state.now()));
    Ok(ok(PayoffData {
        amount: money_text(payoff.amount),
        interest_waived: money_text(payoff.interest_waived),
        fees_waived: money_text(payoff.fees_waived),
        cooling_off: payoff.cooling_off,
    }))
}

#[utoipa::path(
    post,
    path = "/jackey/user/getLastWithdrawError",
    tag = "borrower loan",
    summary = "Why the last payout failed",
    description = "`data`: the text, empty when none.",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the text", body = Envelope<Option<String>>))
)]
async fn last_withdraw_error(
    State(state): State<AppState>,
    borrower: Borrower,
) -> Result<Response, ApiError> {
    Ok(ok(
        queries::last_withdraw_error(&state, borrower.user_id).await?
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct WithdrawBody {
    /// The withdraw PIN.
    #[schema(example = "246810")]
    password: String,
    /// Amount to pay out: a decimal string (a whole JSON number is accepted too), PRODUCT.md 5.
    #[schema(value_type = String, pattern = r"^[0-9]{1,9}(\.[0-9]{1,2})?$", example = "5000.00")]
    withdraw_amount: Amount,
    /// The order; omitted: the latest.
    #[serde(default)]
    loan_order_id: Option<String>,
}

/// A payout on its way.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct WithdrawData {
    /// Always true (a wrong PIN answers 40008).
    verified: bool,
    /// The payout's id.
    payout_id: Uuid,
}

#[utoipa::path(
    post,
    path = "/jackey/user/withdraw",
    tag = "borrower loan",
    summary = "Withdraw the approved loan to the bound account",
    description = "40008 wrong PIN (attempts left), 20003 locked (the fifth wrong PIN \
                   locks), 40004 offer expired, 40006 insufficient balance, 40007 no approved \
                   order of this borrower, 40000 no bank account in the borrower's name, \
                   10004 no PIN set or a bad amount. Accepts `Idempotency-Key`.",
    security(("bearer" = [])),
    params(("Idempotency-Key" = Option<String>, Header, description = "repeat-safe key, 1 to 200 characters (any other answers 10004)")),
    request_body = WithdrawBody,
    responses((status = 200, description = "Envelope with the payout", body = Envelope<Option<WithdrawData>>))
)]
async fn withdraw(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<WithdrawBody>,
) -> Result<Response, ApiError> {
    let order_id = match body.loan_order_id.as_deref().filter(|id| !id.is_empty()) {
        Some(id) => Some(
            Uuid::parse_str(id)
                .map_err(|_| ApiError::new(ErrorCode::RecordNotFound, "record not found"))?,
        ),
        None => None,
    };
    // One command: the User checks the PIN and captures the bound account (P2, P3);
    // the loan workflow asks the Order for the payout, whose refusal (balance, offer
    // expired) comes back to this call.
    let uid = borrower.user_id.to_string();
    // Derived from the Idempotency-Key when there is one: a repeat names this payout.
    let payout_id = idempotency::id_for("payout");
    let request = || UserCommand::RequestWithdrawal {
        order_id,
        payout_id,
        amount: body.withdraw_amount.value(),
        pin: body.password.clone(),
    };
    let events = state
        .execute(
            &state.users,
            &uid,
            request,
            Actor::User(borrower.user_id),
            &request_id(),
        )
        .await?;
    let refusal = events.iter().rev().find_map(|event| match &event.payload {
        UserEvent::AccountLocked { reason, .. } => Some(ApiError::new(
            ErrorCode::AccountLocked,
            format!("account locked: {reason}"),
        )),
        UserEvent::WithdrawPinFailed { failed_attempts } => {
            let left = MAX_FAILED_ATTEMPTS.saturating_sub(*failed_attempts);
            Some(ApiError::new(
                ErrorCode::WrongWithdrawPin,
                format!("wrong withdraw PIN ({left} attempts left)"),
            ))
        }
        _ => None,
    });
    if let Some(refusal) = refusal {
        // The attempt count and a lock show on the next read (the lock screen): the
        // answer carries their position.
        return Err(refusal);
    }
    let order_id = state
        .await_workflow(|| async {
            let user = state.users.load(&uid).await?;
            if let Some(refusal) = user.refusal_of(payout_id) {
                return Err(ApiError::new(refusal.code, refusal.message.clone()));
            }
            let Some(order_id) = user.requested_payouts.get(&payout_id) else {
                return Err(ApiError::internal("PIN check produced no outcome"));
            };
            let order = state.orders.load(&order_id.to_string()).await?;
            Ok(order
                .knows_payout(payout_id)
                .then_some(order_id.to_string()))
        })
        .await?;
    // The payout was requested by the workflow: the borrower's next read waits for it.
    read_your_writes::record_latest(&state, <Order as cqrs_es::Aggregate>::TYPE, &order_id).await?;
    Ok(ok(WithdrawData {
        verified: true,
        payout_id,
    }))
}
