//! Xendit's webhooks ([`crate::providers::xendit`]): `POST /jackey/payment/xendit/invoice`
//! (a repayment paid or expired) and `POST /jackey/payment/xendit/payout` (a withdrawal
//! or refund succeeded or failed). Each checks `x-callback-token` first (401 without
//! the right one), answers 200 once the notification is recorded (Xendit redelivers
//! anything else for 24 hours), and is idempotent: a redelivery changes nothing. When
//! no provider is `xendit` they answer 404 (they stay routed, so the OpenAPI document
//! lists every route of every deployment).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Extension, Router};

use crate::http::envelope::{ok, ApiError, Envelope, Null};
use crate::payment::webhook::{apply_payment_event, WebhookError, WebhookReceipt};
use crate::providers::xendit::{InvoiceWebhook, PayoutWebhook, Xendit};
use crate::runtime::state::AppState;
use crate::workflows::payout::{record_result, Payout, PayoutOutcome};

/// The OpenAPI description of the two webhooks (see [`crate::http::openapi`]).
#[derive(utoipa::OpenApi)]
#[openapi(paths(invoice, payout))]
pub struct Doc;

/// The webhook routes, verifying with `client`'s callback token (404 without one).
pub fn router(client: Option<Arc<Xendit>>) -> Router<AppState> {
    Router::new()
        .route("/jackey/payment/xendit/invoice", post(invoice))
        .route("/jackey/payment/xendit/payout", post(payout))
        .layer(Extension(client))
}

/// What a webhook did with a notification that it did not apply as a payment.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
enum Acknowledged {
    /// Nothing to do: the invoice's status, the payout's event or a reference that is
    /// not ours.
    Ignored(String),
    /// The payout's result was recorded: its event (`payout.succeeded`, `payout.failed`).
    Recorded(String),
}

/// The invoice webhook's answer: the payment's receipt, or what was ignored.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(untagged)]
enum InvoiceAnswer {
    /// The payment was applied (or had been: `duplicate`).
    Applied(WebhookReceipt),
    /// A status that moves no money.
    Acknowledged(Acknowledged),
}

fn refused(status: StatusCode, field: &str, reason: &str) -> Response {
    (status, ApiError::bad_input(field, reason)).into_response()
}

/// The notification in `body`, once its `x-callback-token` is checked: 404 in a
/// deployment without Xendit, 401 before the body is read when the token is wrong,
/// 400 for a body that is not the notification.
fn authenticated<T: serde::de::DeserializeOwned>(
    client: Option<&Xendit>,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<T, (StatusCode, ApiError)> {
    let Some(client) = client else {
        let error = ApiError::new(
            aggregates::ErrorCode::RecordNotFound,
            "record not found: xendit is not a configured provider",
        );
        return Err((StatusCode::NOT_FOUND, error));
    };
    if !client.verify_callback(headers) {
        let error = ApiError::bad_input("x-callback-token", "does not match");
        return Err((StatusCode::UNAUTHORIZED, error));
    }
    serde_json::from_slice(body).map_err(|error| {
        (
            StatusCode::BAD_REQUEST,
            ApiError::bad_input("body", &error.to_string()),
        )
    })
}

#[utoipa::path(
    post,
    path = "/jackey/payment/xendit/invoice",
    tag = "payment",
    summary = "Xendit's invoice webhook (PAYMENT_PROVIDER=xendit)",
    description = "Xendit's invoice notification (`PAID`, `SETTLED`, `EXPIRED`), checked by \
                   `x-callback-token`; a redelivery counts once.",
    request_body(content = String, content_type = "application/json"),
    responses(
        (status = 200, description = "Recorded, or a status that moves no money", body = Envelope<Option<InvoiceAnswer>>),
        (status = 400, description = "Not an invoice notification", body = Envelope<Null>),
        (status = 401, description = "Wrong `x-callback-token`", body = Envelope<Null>),
        (status = 404, description = "Xendit is not a configured provider", body = Envelope<Null>),
        (status = 503, description = "Not recorded; Xendit should deliver again", body = Envelope<Null>)
    )
)]
async fn invoice(
    State(state): State<AppState>,
    Extension(client): Extension<Option<Arc<Xendit>>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let notification: InvoiceWebhook = match authenticated(client.as_deref(), &headers, &body) {
        Ok(notification) => notification,
        Err(refusal) => return refusal.into_response(),
    };
    match notification.event() {
        Err(reason) => refused(StatusCode::BAD_REQUEST, "amount", &reason),
        Ok(None) => ok(InvoiceAnswer::Acknowledged(Acknowledged::Ignored(
            notification.status,
        ))),
        Ok(Some(event)) => match apply_payment_event(&state, event).await {
            Ok(receipt) => ok(InvoiceAnswer::Applied(receipt)),
            Err(WebhookError { status, error }) => (status, error).into_response(),
        },
    }
}

#[utoipa::path(
    post,
    path = "/jackey/payment/xendit/payout",
    tag = "payment",
    summary = "Xendit's payout webhook (PAYOUT_PROVIDER=xendit)",
    description = "Xendit's payout notification (`payout.succeeded`, `payout.failed`), checked \
                   by `x-callback-token`; records the result on the order or wallet once.",
    request_body(content = String, content_type = "application/json"),
    responses(
        (status = 200, description = "Recorded, or nothing to record", body = Envelope<Option<Acknowledged>>),
        (status = 400, description = "Not a payout notification", body = Envelope<Null>),
        (status = 401, description = "Wrong `x-callback-token`", body = Envelope<Null>),
        (status = 404, description = "Xendit is not a configured provider", body = Envelope<Null>),
        (status = 503, description = "Not recorded; Xendit should deliver again", body = Envelope<Null>)
    )
)]
async fn payout(
    State(state): State<AppState>,
    Extension(client): Extension<Option<Arc<Xendit>>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let notification: PayoutWebhook = match authenticated(client.as_deref(), &headers, &body) {
        Ok(notification) => notification,
        Err(refusal) => return refusal.into_response(),
    };
    let Some((kind, id)) = Payout::parse_reference(&notification.data.reference_id) else {
        // Not one of ours (another integration on the same account): nothing to do.
        return ok(Acknowledged::Ignored(notification.data.reference_id));
    };
    let outcome = notification.data.outcome();
    if notification.data.status == "REVERSED" {
        // Paid, then returned by the bank: the money is back on the lender's balance
        // and the borrower was told they received it. An operator decides.
        tracing::error!(%id, "xendit reports a payout reversed after it succeeded; needs an operator");
    }
    if outcome == PayoutOutcome::Accepted {
        return ok(Acknowledged::Ignored(notification.event));
    }
    match record_result(&state, kind, id, outcome).await {
        Ok(()) => ok(Acknowledged::Recorded(notification.event)),
        Err(error) => {
            tracing::error!(%error, %id, "payout result not recorded; xendit will redeliver");
            (StatusCode::SERVICE_UNAVAILABLE, ApiError::internal(error)).into_response()
        }
    }
}
