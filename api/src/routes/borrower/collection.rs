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
use serde::Deserialize;
use utoipa::{OpenApi, ToSchema};

use super::loan::{own_order_command, OrderBody};
use crate::http::auth::{Borrower, BorrowerToken};
use crate::http::envelope::{ApiError, ApiJson, Envelope, Null};
use crate::runtime::state::AppState;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/jackey/loan/promiseToPay", post(promise_to_pay))
        .route("/jackey/loan/contactHours", post(contact_hours))
}

/// The OpenAPI description of this module's calls (see [`crate::http::openapi`]).
#[derive(OpenApi)]
#[openapi(paths(promise_to_pay, contact_hours))]
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
