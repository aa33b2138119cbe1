//! The payment notifications (PRODUCT.md 8): our signed webhook
//! (`POST /jackey/payment/webhook`, [`process_webhook`], signed as
//! [`crate::providers::signing`] says) and the gateways' own, which their adapters
//! verify and hand to [`apply_payment_event`]. A verified `paid` notification records
//! the money on the session owner's wallet, a `failed` one frees the session's share
//! of the payoff; either marks the session, and its event id is claimed
//! (`processed_webhook`, [`crate::db::webhooks`]) in the transaction of its effect,
//! so a redelivery does nothing again.

use aggregates::order::OrderCommand;
use aggregates::wallet::WalletCommand;
use aggregates::{Actor, ErrorCode};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::{find_session, mark_session, PaymentSession};
use crate::db::webhooks;
use crate::http::envelope::ApiError;
use crate::providers::signing::{
    webhook_secret, SignatureError, SIGNATURE_HEADER, TIMESTAMP_HEADER,
};
use crate::runtime::state::AppState;

/// What a payment came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The money was received.
    Paid,
    /// The payment failed; no money moved.
    Failed,
}

impl Outcome {
    /// The wire text.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Paid => "paid",
            Self::Failed => "failed",
        }
    }
}

/// The body of `POST /jackey/payment/webhook`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookEvent {
    /// The provider's id of this notification (a redelivery repeats it).
    pub event_id: String,
    /// The session the payment belongs to.
    pub session_id: String,
    /// The provider's reference of the payment: the money's identity, recorded at
    /// most once.
    pub payment_ref: String,
    /// Amount received: a plain decimal, at most two places (PRODUCT.md 5).
    pub amount: aggregates::types::Amount,
    /// `paid` or `failed`.
    pub outcome: Outcome,
}

/// The answer to a processed webhook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookReceipt {
    /// The event id.
    pub event_id: String,
    /// True when this event id had been processed before (nothing was done again).
    pub duplicate: bool,
}

/// A refused or failed webhook, answered with an HTTP status the gateway understands
/// and the usual envelope:
/// - 401 + 10004: a signature header missing, wrong, or outside the time window;
/// - 400 + 10004: a signed body that is not a valid event;
/// - 200 + 40007: an unknown session (retrying cannot help);
/// - 500 + 500 (or 503 + 40003): our failure; the gateway should deliver again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The envelope's code and message.
    pub error: ApiError,
}

impl From<ApiError> for WebhookError {
    fn from(error: ApiError) -> Self {
        let status = match error.code {
            ErrorCode::Unknown => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::ServerError => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::OK,
        };
        Self { status, error }
    }
}

impl From<SignatureError> for WebhookError {
    fn from(error: SignatureError) -> Self {
        Self {
            status: StatusCode::UNAUTHORIZED,
            error: ApiError::new(ErrorCode::RequestError, error.to_string()),
        }
    }
}

impl IntoResponse for WebhookError {
    fn into_response(self) -> Response {
        (self.status, self.error).into_response()
    }
}

fn bad_event(field: &str, reason: &str) -> WebhookError {
    WebhookError {
        status: StatusCode::BAD_REQUEST,
        error: ApiError::bad_input(field, reason),
    }
}

/// Processes one webhook delivery: verifies the signature over the raw `body`
/// ([`webhook_secret`], [`SIGNATURE_TOLERANCE_SECS`]), parses the event, and for
/// `paid` records `RecordRecharge { payment_ref, order_id, amount }` on the session
/// owner's wallet (the wallet ignores a payment reference it already has); then
/// marks the session and claims the event id in `processed_webhook`. A repeat of a
/// processed event id answers at once with `duplicate: true`.
///
/// [`SIGNATURE_TOLERANCE_SECS`]: crate::providers::signing::SIGNATURE_TOLERANCE_SECS
pub async fn process_webhook(
    state: &AppState,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<WebhookReceipt, WebhookError> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    webhook_secret(&state.env).verify(
        header(TIMESTAMP_HEADER),
        header(SIGNATURE_HEADER),
        body,
        state.now().timestamp(),
    )?;
    let event: WebhookEvent =
        serde_json::from_slice(body).map_err(|e| bad_event("body", &e.to_string()))?;
    apply_payment_event(state, event).await
}

/// Applies one authenticated payment notification, from our signed webhook or from a
/// provider adapter that verified its own ([`crate::providers`]): checks its fields,
/// then for `paid` records the money on the session owner's wallet and for `failed`
/// frees the session's share of the payoff; marks the session and claims the event
/// id. A repeat of a processed event id answers at once with `duplicate: true`.
pub async fn apply_payment_event(
    state: &AppState,
    event: WebhookEvent,
) -> Result<WebhookReceipt, WebhookError> {
    for (field, value) in [
        ("eventId", &event.event_id),
        ("paymentRef", &event.payment_ref),
    ] {
        if value.trim().is_empty() || value.len() > 200 {
            return Err(bad_event(field, "1 to 200 characters"));
        }
    }
    if event.outcome == Outcome::Paid && event.amount.value() <= Decimal::ZERO {
        return Err(bad_event("amount", "positive, at most two decimals"));
    }
    let processed = webhooks::already_processed(&state.database, &event.event_id).await;
    if processed.map_err(ApiError::from)? {
        return Ok(WebhookReceipt {
            event_id: event.event_id,
            duplicate: true,
        });
    }
    let not_found = || ApiError::new(ErrorCode::RecordNotFound, "record not found: session");
    let session_id: Uuid = event.session_id.parse().map_err(|_| not_found())?;
    let session = find_session(state, session_id)
        .await?
        .ok_or_else(not_found)?;
    let request = format!("webhook:{}", event.event_id);
    // The event id is claimed by the append of its effect, in the same transaction;
    // an effect that appended nothing (a payment already recorded) is claimed alone.
    let (applied, claimed) = projections::store::with_side_insert(
        webhooks::claim_of(&event, session_id, state.now()),
        apply_outcome(state, &event, &session, &request),
    )
    .await;
    applied?;
    mark_session(state, session_id, event.outcome, Some(&event.payment_ref)).await?;
    if !claimed {
        // Claims the event on its own, for an effect that appended nothing.
        let claim = webhooks::claim_of(&event, session_id, state.now());
        webhooks::claim(&state.database, &claim)
            .await
            .map_err(ApiError::from)?;
    }
    Ok(WebhookReceipt {
        event_id: event.event_id,
        duplicate: false,
    })
}

/// The command of a verified payment notification: `paid` records the money on the
/// session owner's wallet, `failed` frees the session's share of the payoff.
async fn apply_outcome(
    state: &AppState,
    event: &WebhookEvent,
    session: &PaymentSession,
    request: &str,
) -> Result<(), ApiError> {
    let session_id = session.session_id;
    match event.outcome {
        Outcome::Paid => {
            if event.amount.value() != session.amount {
                tracing::warn!(%session_id, asked = %session.amount, received = %event.amount.value(),
                    "payment amount differs from the session's; the order refunds what it does not take");
            }
            // Money received is recorded as received; the Order then applies what its
            // session allows and is owed, and the rest is refunded (P1, 12.1).
            // Received now: the Order judges the payment as of this time however late
            // its workflow takes it (12.1).
            let received_at = Some(state.now());
            let command = || WalletCommand::RecordRecharge {
                payment_ref: event.payment_ref.clone(),
                order_id: session.order_id,
                amount: event.amount.value(),
                session_id: Some(session_id),
                received_at,
            };
            let wallet = session.user_id.to_string();
            state
                .execute(&state.wallets, &wallet, command, Actor::System, request)
                .await?;
        }
        Outcome::Failed => {
            // The Order frees the session's share of the payoff; a later payment on
            // it is refunded. Pages opened before sessions lived on the Order are
            // unknown to it: nothing to free.
            let command = || OrderCommand::FailPaymentSession { session_id };
            let order = session.order_id.to_string();
            match state
                .execute(&state.orders, &order, command, Actor::System, request)
                .await
            {
                Err(error) if error.code == ErrorCode::RecordNotFound => {}
                other => {
                    other?;
                }
            }
        }
    }
    Ok(())
}
