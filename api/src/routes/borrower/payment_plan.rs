//! A payment plan for hardship, the borrower's side (issue 53, P16): ask for one,
//! saying why, and sign the plan two officers approved (shown in `/loan/orderInfo` as
//! `paymentPlan`). Nothing is paid to get one; the Order decides every rule.

use aggregates::order::OrderCommand;
use aggregates::types::Amount;
use axum::extract::State;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde::Deserialize;
use utoipa::{OpenApi, ToSchema};

use super::loan::{own_order_command, signature_on_file, OrderBody};
use crate::http::auth::{Borrower, BorrowerToken};
use crate::http::envelope::{ApiError, ApiJson, Envelope, Null};
use crate::runtime::state::AppState;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/jackey/loan/requestPaymentPlan", post(request_plan))
        .route("/jackey/loan/signPaymentPlan", post(sign_plan))
}

/// The OpenAPI description of this module's calls (see [`crate::http::openapi`]).
#[derive(OpenApi)]
#[openapi(paths(request_plan, sign_plan))]
pub struct Doc;

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct RequestPlanBody {
    /// The order; omitted or empty: the borrower's latest.
    #[serde(default)]
    loan_order_id: Option<String>,
    /// Why the borrower cannot keep to the schedule (required, at most 500 characters).
    reason: String,
}

#[utoipa::path(
    post,
    path = "/jackey/loan/requestPaymentPlan",
    tag = "borrower loan",
    summary = "Ask for a payment plan",
    description = "The officer sees the request in the loan's collection record and proposes \
                   a plan; nothing is paid to ask or to get one (P16). A repeat while one is \
                   asked for changes nothing. 10004 no reason, one over 500 characters, or a \
                   loan not disbursed; 40007 no such order of this borrower. Accepts \
                   `Idempotency-Key`.",
    security(("bearer" = [])),
    params(("Idempotency-Key" = Option<String>, Header, description = "repeat-safe key, 1 to 200 characters (any other answers 10004)")),
    request_body = RequestPlanBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn request_plan(
    State(state): State<AppState>,
    // The session first, so that a body without its fields from a stranger is 20001.
    _borrower: Borrower,
    token: BorrowerToken,
    ApiJson(body): ApiJson<RequestPlanBody>,
) -> Result<Response, ApiError> {
    let order = OrderBody {
        loan_order_id: body.loan_order_id,
    };
    let reason = body.reason;
    own_order_command(&state, &token, &order, || {
        OrderCommand::RequestPaymentPlan {
            reason: reason.clone(),
        }
    })
    .await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct SignPlanBody {
    /// The order; omitted or empty: the borrower's latest.
    #[serde(default)]
    loan_order_id: Option<String>,
    /// The plan's total the borrower was shown (`paymentPlan.total`): a decimal string.
    #[schema(value_type = String, example = "81094.90")]
    accepted_total: Amount,
}

#[utoipa::path(
    post,
    path = "/jackey/loan/signPaymentPlan",
    tag = "borrower loan",
    summary = "Sign the payment plan offered",
    description = "Signed with the signature on file; accepted only with the total shown. \
                   What the schedule still asked for is replaced by the plan's installments. \
                   10004 no plan approved, no signature on file, another total, the plan's \
                   first day passed, or what is owed changed since it was made (the officer \
                   proposes it again); 40007 no such order of this borrower. Accepts \
                   `Idempotency-Key`.",
    security(("bearer" = [])),
    params(("Idempotency-Key" = Option<String>, Header, description = "repeat-safe key, 1 to 200 characters (any other answers 10004)")),
    request_body = SignPlanBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn sign_plan(
    State(state): State<AppState>,
    borrower: Borrower,
    token: BorrowerToken,
    ApiJson(body): ApiJson<SignPlanBody>,
) -> Result<Response, ApiError> {
    let signature = signature_on_file(&state, &borrower).await?;
    let accepted_total = body.accepted_total.value();
    let order = OrderBody {
        loan_order_id: body.loan_order_id,
    };
    own_order_command(&state, &token, &order, || OrderCommand::SignPaymentPlan {
        accepted_total,
        signature: signature.clone(),
    })
    .await
}
