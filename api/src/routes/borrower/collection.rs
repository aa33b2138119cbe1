//! A late loan, the borrower's side (issue 53): promise to pay by a day, and say
//! whether contacts outside the usual hours suit them (P15). Both are decided by the
//! Order; neither costs anything or changes what is owed (P16).

use aggregates::order::{OrderCommand, PromiseMaker};
use aggregates::types::Amount;
use axum::extract::State;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use super::loan::{own_order_command, signature_on_file, OrderBody};
use crate::http::auth::{Borrower, BorrowerToken};
use crate::http::envelope::{ok, ApiError, ApiJson, Envelope, Null};
use crate::queries::borrower as queries;
use crate::runtime::state::AppState;
use projections::projection::money_text;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/jackey/loan/promiseToPay", post(promise_to_pay))
        .route("/jackey/loan/contactHours", post(contact_hours))
        .route("/jackey/loan/extensionQuote", post(extension_quote))
        .route("/jackey/loan/extend", post(extend))
}

/// The OpenAPI description of this module's calls (see [`crate::http::openapi`]).
#[derive(OpenApi)]
#[openapi(paths(promise_to_pay, contact_hours, extension_quote, extend))]
pub struct Doc;

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct PromiseBody {
    /// The order; omitted or empty: the borrower's latest.
    #[serde(default)]
    loan_order_id: Option<String>,
    /// Amount promised: a decimal string, at most what is owed.
    #[schema(value_type = String, pattern = r"^[0-9]{1,9}(\.[0-9]{1,2})?$", example = "1000.00")]
    amount: Amount,
    /// The day by which it is paid, YYYY-MM-DD, today to 30 days ahead.
    date: NaiveDate,
}

#[utoipa::path(
    post,
    path = "/jackey/loan/promiseToPay",
    tag = "borrower loan",
    summary = "Promise to pay an amount by a day",
    description = "The officer sees it; payments that arrive by the day and cover it keep it. \
                   Nothing is paid to make a promise. 50004 when the amount is not above 0 \
                   and at most what is owed, the day is not from today to 30 days ahead, or a \
                   promise is already open; 10004 a loan not disbursed; 40007 no such order \
                   of this borrower. Accepts `Idempotency-Key`.",
    security(("bearer" = [])),
    params(("Idempotency-Key" = Option<String>, Header, description = "repeat-safe key, 1 to 200 characters (any other answers 10004)")),
    request_body = PromiseBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn promise_to_pay(
    State(state): State<AppState>,
    // The session first, so that a body without its fields from a stranger is 20001.
    _borrower: Borrower,
    token: BorrowerToken,
    ApiJson(body): ApiJson<PromiseBody>,
) -> Result<Response, ApiError> {
    let (amount, date) = (body.amount.value(), body.date);
    let order = OrderBody {
        loan_order_id: body.loan_order_id,
    };
    own_order_command(&state, &token, &order, || OrderCommand::PromiseToPay {
        amount,
        date,
        by: PromiseMaker::Borrower,
    })
    .await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct HoursBody {
    /// The order; omitted or empty: the borrower's latest.
    #[serde(default)]
    loan_order_id: Option<String>,
    /// True: calls and messages about the loan are welcome at any hour; false: only
    /// within the usual hours (PH 06:00–22:00).
    any_hours: bool,
}

#[utoipa::path(
    post,
    path = "/jackey/loan/contactHours",
    tag = "borrower loan",
    summary = "Say whether contacts outside the usual hours suit you",
    description = "Under PH the lender may then call outside 06:00–22:00 (SEC MC 18 s. 2019); \
                   it can be taken back at any time. A repeat changes nothing. 10004 a loan \
                   not disbursed; 40007 no such order of this borrower.",
    security(("bearer" = [])),
    request_body = HoursBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn contact_hours(
    State(state): State<AppState>,
    _borrower: Borrower,
    token: BorrowerToken,
    ApiJson(body): ApiJson<HoursBody>,
) -> Result<Response, ApiError> {
    let any_hours = body.any_hours;
    let order = OrderBody {
        loan_order_id: body.loan_order_id,
    };
    own_order_command(&state, &token, &order, || {
        OrderCommand::ChooseContactHours { any_hours }
    })
    .await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ExtensionBody {
    /// The order; omitted or empty: the borrower's latest.
    #[serde(default)]
    loan_order_id: Option<String>,
    /// Days, one the product offers.
    days: u32,
}

/// What an extension would do, shown before signing (P5, P16).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ExtensionView {
    /// Days every installment still owed moves by.
    days: u32,
    /// Interest for the extra days: the only cost. Money.
    extra_interest: String,
    /// Everything owed after it. Money.
    new_total: String,
    /// The installments still owed, with their new days.
    schedule: Vec<ExtendedInstallment>,
    /// The new schedule's effective rate, percent a month; null when none.
    #[schema(required = true)]
    monthly_rate_pct: Option<String>,
}

/// One installment of an extended schedule.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ExtendedInstallment {
    /// Its number.
    period: u32,
    /// Its new due day, YYYY-MM-DD.
    due_date: String,
    /// What it asks for. Money.
    amount: String,
}

#[utoipa::path(
    post,
    path = "/jackey/loan/extensionQuote",
    tag = "borrower loan",
    summary = "What more time would cost, before signing",
    description = "The new due days, the interest for the extra days at the contract's daily \
                   rate and the new total. Nothing is paid to get an extension (P16). 50003 \
                   the product offers no such extension, it is used, or it would break a cap; \
                   10004 a loan not disbursed; 40007 no such order of this borrower.",
    security(("bearer" = [])),
    request_body = ExtensionBody,
    responses((status = 200, description = "Envelope, the quote", body = Envelope<Option<ExtensionView>>))
)]
async fn extension_quote(
    State(state): State<AppState>,
    _borrower: Borrower,
    token: BorrowerToken,
    ApiJson(body): ApiJson<ExtensionBody>,
) -> Result<Response, ApiError> {
    let order = OrderBody {
        loan_order_id: body.loan_order_id,
    };
    let (_, order) =
        queries::own_order_state(&state, &token, order.loan_order_id.as_deref()).await?;
    let quote = order.extension_quote(body.days, &state.env.compliance_profile)?;
    Ok(ok(ExtensionView {
        days: quote.days,
        extra_interest: money_text(quote.extra_interest),
        new_total: money_text(quote.new_total),
        schedule: quote
            .schedule
            .into_iter()
            .map(|(period, due, amount)| ExtendedInstallment {
                period,
                due_date: due.format("%Y-%m-%d").to_string(),
                amount: money_text(amount),
            })
            .collect(),
        monthly_rate_pct: quote.monthly_pct.map(|pct| pct.to_string()),
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ExtendBody {
    /// The order; omitted or empty: the borrower's latest.
    #[serde(default)]
    loan_order_id: Option<String>,
    /// Days, as quoted.
    days: u32,
    /// The new total the borrower was shown (`/loan/extensionQuote`): a decimal string.
    #[schema(value_type = String, example = "82080.00")]
    accepted_total: Amount,
}

#[utoipa::path(
    post,
    path = "/jackey/loan/extend",
    tag = "borrower loan",
    summary = "Take the extension shown, signed",
    description = "Signed with the signature on file; accepted only with the total the quote \
                   showed. Nothing is paid (P16). 50003 as the quote; 10004 no signature on \
                   file, or the total changed since it was shown; 40007 no such order of this \
                   borrower. Accepts `Idempotency-Key`.",
    security(("bearer" = [])),
    params(("Idempotency-Key" = Option<String>, Header, description = "repeat-safe key, 1 to 200 characters (any other answers 10004)")),
    request_body = ExtendBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn extend(
    State(state): State<AppState>,
    borrower: Borrower,
    token: BorrowerToken,
    ApiJson(body): ApiJson<ExtendBody>,
) -> Result<Response, ApiError> {
    let signature = signature_on_file(&state, &borrower).await?;
    let (days, accepted_total) = (body.days, body.accepted_total.value());
    let order = OrderBody {
        loan_order_id: body.loan_order_id,
    };
    own_order_command(&state, &token, &order, || OrderCommand::ExtendTerm {
        days,
        accepted_total,
        signature: signature.clone(),
    })
    .await
}
