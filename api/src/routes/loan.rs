//! Borrower loan calls: `/jackey/loan/*` and `/jackey/user/withdraw` (PRODUCT.md 8).

use aggregates::order::{Order, OrderCommand, OrderStatus};
use aggregates::pricing::disclose;
use aggregates::user::{UserCommand, UserEvent, MAX_FAILED_ATTEMPTS};
use aggregates::{Actor, ErrorCode};
use axum::extract::State;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use chrono::Utc;
use rust_decimal::Decimal;
use serde::Deserialize;
use serde_json::{json, Value as Json};
use uuid::Uuid;

use crate::auth::Borrower;
use crate::db::with_pool;
use crate::envelope::{ok, ApiError, ApiJson, OptionalJson};
use crate::state::AppState;
use projections::projection::money_text;

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
        .route("/jackey/loan/apply", post(apply))
        .route("/jackey/loan/cancel", post(cancel))
        .route("/jackey/loan/payoffQuote", post(payoff_quote))
        .route(
            "/jackey/user/getLastWithdrawError",
            post(last_withdraw_error),
        )
        .route("/jackey/user/withdraw", post(withdraw))
}

fn request_id() -> String {
    Uuid::now_v7().to_string()
}

async fn app_list(State(state): State<AppState>) -> Result<Response, ApiError> {
    let products: Vec<Json> = state
        .config
        .products
        .iter()
        .map(|p| {
            let product = &p.product;
            let default_rate = product.rate_configs.iter().map(|c| c.daily_rate).max().unwrap_or(0);
            json!({
                "id": product.id,
                "name": product.name,
                "logo": p.logo,
                "minAmount": money_text(product.amount_min),
                "maxAmount": money_text(product.amount_max),
                "step": money_text(product.amount_step),
                "defaultRate": aggregates::pricing::daily_rate_pct(default_rate).normalize().to_string(),
                "enabled": product.enabled,
            })
        })
        .collect();
    Ok(ok(products))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AppBody {
    app_id: i64,
}

fn product_config(
    state: &AppState,
    app_id: i64,
) -> Result<&crate::settings::ProductConfig, ApiError> {
    state
        .config
        .products
        .iter()
        .find(|p| p.product.id == app_id)
        .ok_or_else(|| ApiError::new(ErrorCode::RecordNotFound, "record not found: product"))
}

async fn period_config(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<AppBody>,
) -> Result<Response, ApiError> {
    let product = &product_config(&state, body.app_id)?.product;
    let amounts: Vec<String> = product.amounts().map(money_text).collect();
    let configs: Vec<Json> = product
        .rate_configs
        .iter()
        .map(|c| {
            json!({
                "periodDays": c.period_days,
                "rate": aggregates::pricing::daily_rate_pct(c.daily_rate).normalize().to_string(),
                "amounts": amounts,
            })
        })
        .collect();
    Ok(ok(json!({ "id": product.id, "rateConfigs": configs })))
}

async fn customer_service(State(state): State<AppState>) -> Result<Response, ApiError> {
    Ok(ok(state
        .config
        .company
        .get("customer-service-link")
        .cloned()
        .unwrap_or(Json::Null)))
}

async fn company_configs(State(state): State<AppState>) -> Result<Response, ApiError> {
    let mut all = state.config.company.clone();
    all.insert(
        "lender".into(),
        serde_json::to_value(&state.config.lender).map_err(ApiError::internal)?,
    );
    all.insert(
        "currency".into(),
        serde_json::to_value(&state.config.currency).map_err(ApiError::internal)?,
    );
    all.insert("notice".into(), json!(aggregates::pricing::Lender::NOTICE));
    Ok(ok(all))
}

#[derive(Deserialize)]
struct KeyBody {
    key: String,
}

async fn config_by_key(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<KeyBody>,
) -> Result<Response, ApiError> {
    let config = &state.config;
    let value = match body.key.as_str() {
        "banks" => json!(config.banks),
        "education" => json!(config.education),
        "marriage" => json!(config.marriage),
        "provinces" => json!(config.provinces),
        "website" => json!([config.company.get("website")]),
        _ => {
            return Err(ApiError::bad_input(
                "key",
                "one of website, marriage, education, banks, provinces",
            ))
        }
    };
    Ok(ok(value))
}

async fn loan_progress(
    State(state): State<AppState>,
    borrower: Borrower,
) -> Result<Response, ApiError> {
    let sql = "select order_id, status, apply_amount, balance, contract from loan_progress where user_id = $1";
    let row: Option<(String, i64, String, String, String)> = with_pool!(&state.database, pool =>
        sqlx::query_as(sql).bind(borrower.user_id.to_string()).fetch_optional(pool).await)?;
    Ok(ok(row.map(|(order_id, status, apply_amount, balance, contract)| {
        json!({ "orderId": order_id, "status": status, "applyAmount": apply_amount, "balance": balance, "contract": contract })
    })))
}

async fn order_list(
    State(state): State<AppState>,
    borrower: Borrower,
) -> Result<Response, ApiError> {
    let sql = "select order_id, status, principal, applied_at from order_list where user_id = $1 order by applied_at desc";
    let rows: Vec<(String, i64, String, String)> = with_pool!(&state.database, pool =>
        sqlx::query_as(sql).bind(borrower.user_id.to_string()).fetch_all(pool).await)?;
    let orders: Vec<Json> = rows
        .into_iter()
        .map(|(order_id, status, principal, applied_at)| {
            json!({ "orderId": order_id, "status": status, "principal": principal, "applyTime": applied_at })
        })
        .collect();
    Ok(ok(orders))
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct OrderBody {
    #[serde(default)]
    loan_order_id: Option<String>,
}

/// The borrower's order (the given one, or the latest), as `(doc, state)`.
/// Error 40007 when it does not exist or belongs to someone else.
async fn own_order(
    state: &AppState,
    user_id: Uuid,
    order_id: Option<&str>,
) -> Result<(Json, Order), ApiError> {
    let not_found = || ApiError::code(ErrorCode::RecordNotFound);
    let order_id = match order_id.filter(|id| !id.is_empty()) {
        Some(id) => id.to_string(),
        None => {
            let sql = "select order_id from loan_progress where user_id = $1";
            let latest: Option<String> = with_pool!(&state.database, pool =>
                sqlx::query_scalar(sql).bind(user_id.to_string()).fetch_optional(pool).await)?;
            latest.ok_or_else(not_found)?
        }
    };
    let sql = "select doc, state from order_detail where order_id = $1 and user_id = $2";
    let row: Option<(String, String)> = with_pool!(&state.database, pool =>
        sqlx::query_as(sql).bind(&order_id).bind(user_id.to_string()).fetch_optional(pool).await)?;
    let (doc, order) = row.ok_or_else(not_found)?;
    let doc = serde_json::from_str(&doc).map_err(ApiError::internal)?;
    let order = serde_json::from_str(&order).map_err(ApiError::internal)?;
    Ok((doc, order))
}

async fn order_info(
    State(state): State<AppState>,
    borrower: Borrower,
    OptionalJson(body): OptionalJson<OrderBody>,
) -> Result<Response, ApiError> {
    let (doc, _) = own_order(&state, borrower.user_id, body.loan_order_id.as_deref()).await?;
    Ok(ok(doc))
}

async fn order_timeline(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<OrderBody>,
) -> Result<Response, ApiError> {
    let (_, order) = own_order(&state, borrower.user_id, body.loan_order_id.as_deref()).await?;
    let order_id = order.id.map(|id| id.to_string()).unwrap_or_default();
    let sql = "select doc, actor from order_timeline where order_id = $1 order by sequence";
    let rows: Vec<(String, String)> = with_pool!(&state.database, pool =>
        sqlx::query_as(sql).bind(&order_id).fetch_all(pool).await)?;
    let events: Vec<Json> = rows
        .into_iter()
        .map(|(doc, actor)| {
            let mut doc: Json = serde_json::from_str(&doc).unwrap_or(Json::Null);
            // The borrower sees who acted by role, never an auditor's identity.
            doc["by"] = json!(actor.split(':').next().unwrap_or("system"));
            doc
        })
        .collect();
    Ok(ok(events))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct QuoteBody {
    amt: Decimal,
    period_days: u32,
    app_id: i64,
}

fn quote_for(
    state: &AppState,
    body: &QuoteBody,
) -> Result<aggregates::pricing::Disclosure, ApiError> {
    let product = &product_config(state, body.app_id)?.product;
    if !product.enabled {
        return Err(aggregates::order::OrderError::ProductDisabled.into());
    }
    let terms = product
        .terms_for(body.period_days)
        .map_err(|e| ApiError::new(ErrorCode::RequestError, e.to_string()))?;
    product
        .check_amount(body.amt)
        .map_err(|e| ApiError::new(ErrorCode::RequestError, e.to_string()))?;
    state
        .order_services
        .compliance
        .check_loan(body.amt, &terms)
        .map_err(|e| aggregates::order::OrderError::Compliance(e).into())
        .map(|()| disclose(body.amt, &terms, &state.config.lender))
}

async fn quote(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<QuoteBody>,
) -> Result<Response, ApiError> {
    Ok(ok(quote_for(&state, &body)?))
}

async fn apply(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<QuoteBody>,
) -> Result<Response, ApiError> {
    // The terms first (no side effects), then the user's single application slot,
    // then the order; if the order is refused the slot is released again.
    quote_for(&state, &body)?;
    let user_id = borrower.user_id;
    let uid = user_id.to_string();
    let order_id = Uuid::now_v7();
    let me = Actor::User(user_id);
    let request = request_id();
    state
        .execute(
            &state.users,
            &uid,
            || UserCommand::OpenApplication { order_id },
            me,
            &request,
        )
        .await?;
    let user = state.users.load(&uid).await.map_err(ApiError::internal)?;
    let command = || OrderCommand::ApplyForLoan {
        order_id,
        user_id,
        app_id: body.app_id,
        amount: body.amt,
        period_days: body.period_days,
        signature: user.signature.clone(),
        applicant_name: user.profile.fields.real_name.clone().unwrap_or_default(),
        terms_version: "2026-11".to_string(),
    };
    if let Err(error) = state
        .execute(&state.orders, &order_id.to_string(), command, me, &request)
        .await
    {
        let close = || UserCommand::CloseApplication { order_id };
        state
            .execute(&state.users, &uid, close, Actor::System, &request)
            .await?;
        return Err(error);
    }
    Ok(ok(json!({ "loanOrderId": order_id })))
}

async fn cancel(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<OrderBody>,
) -> Result<Response, ApiError> {
    let (_, order) = own_order(&state, borrower.user_id, body.loan_order_id.as_deref()).await?;
    let order_id = order
        .id
        .ok_or_else(|| ApiError::code(ErrorCode::RecordNotFound))?;
    state
        .execute(
            &state.orders,
            &order_id.to_string(),
            || OrderCommand::Cancel,
            Actor::User(borrower.user_id),
            &request_id(),
        )
        .await?;
    Ok(ok(json!(null)))
}

async fn payoff_quote(
    State(state): State<AppState>,
    borrower: Borrower,
    OptionalJson(body): OptionalJson<OrderBody>,
) -> Result<Response, ApiError> {
    let (_, order) = own_order(&state, borrower.user_id, body.loan_order_id.as_deref()).await?;
    let (Some(loan), OrderStatus::Disbursed) = (&order.loan, order.status) else {
        return Err(ApiError::new(
            ErrorCode::RecordNotFound,
            "record not found: nothing is owed",
        ));
    };
    let payoff = loan.payoff(Utc::now().date_naive());
    Ok(ok(json!({
        "amount": money_text(payoff.amount),
        "interestWaived": money_text(payoff.interest_waived),
        "feesWaived": money_text(payoff.fees_waived),
        "coolingOff": payoff.cooling_off,
    })))
}

async fn last_withdraw_error(
    State(state): State<AppState>,
    borrower: Borrower,
) -> Result<Response, ApiError> {
    let sql = "select message from last_withdraw_error where user_id = $1";
    let message: Option<String> = with_pool!(&state.database, pool =>
        sqlx::query_scalar(sql).bind(borrower.user_id.to_string()).fetch_optional(pool).await)?;
    Ok(ok(message.unwrap_or_default()))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WithdrawBody {
    password: String,
    withdraw_amount: Decimal,
    #[serde(default)]
    loan_order_id: Option<String>,
}

async fn withdraw(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<WithdrawBody>,
) -> Result<Response, ApiError> {
    let (_, order) = own_order(&state, borrower.user_id, body.loan_order_id.as_deref()).await?;
    let order_id = order
        .id
        .ok_or_else(|| ApiError::code(ErrorCode::RecordNotFound))?;
    // Refusals the order would give come before the PIN check, so they never cost
    // the borrower a PIN attempt; the order re-checks everything when it decides.
    if order.status != OrderStatus::Approved {
        return Err(ApiError::new(
            ErrorCode::RecordNotFound,
            "record not found: nothing to withdraw",
        ));
    }
    if order.offer_expires_at.is_some_and(|end| Utc::now() >= end) {
        return Err(ApiError::code(ErrorCode::OfferExpired));
    }
    if body.withdraw_amount > order.balance {
        return Err(ApiError::code(ErrorCode::InsufficientBalance));
    }
    let uid = borrower.user_id.to_string();
    let me = Actor::User(borrower.user_id);
    let request = request_id();
    let verify = || UserCommand::VerifyWithdrawPin {
        order_id,
        amount: body.withdraw_amount,
        pin: body.password.clone(),
    };
    let events = state
        .execute(&state.users, &uid, verify, me, &request)
        .await?;
    let mut account = None;
    for event in events.iter().rev() {
        match &event.payload {
            UserEvent::WithdrawPinVerified { account: bound, .. } => account = Some(bound.clone()),
            UserEvent::AccountLocked { reason, .. } => {
                return Err(ApiError::new(
                    ErrorCode::AccountLocked,
                    format!("account locked: {reason}"),
                ));
            }
            UserEvent::WithdrawPinFailed { failed_attempts } => {
                let left = MAX_FAILED_ATTEMPTS.saturating_sub(*failed_attempts);
                return Err(ApiError::new(
                    ErrorCode::WrongWithdrawPin,
                    format!("wrong withdraw PIN ({left} attempts left)"),
                ));
            }
            _ => {}
        }
    }
    let account = account.ok_or_else(|| ApiError::internal("PIN check produced no outcome"))?;
    let payout_id = Uuid::now_v7();
    let request_payout = || OrderCommand::RequestPayout {
        payout_id,
        amount: body.withdraw_amount,
        account: account.clone(),
    };
    state
        .execute(
            &state.orders,
            &order_id.to_string(),
            request_payout,
            me,
            &request,
        )
        .await?;
    Ok(ok(json!({ "verified": true, "payoutId": payout_id })))
}
