//! The built-in payment provider (`PAYMENT_PROVIDER=sandbox`): no money moves. Its
//! payment page is served by the api itself (`crate::routes::borrower::pay`), and its
//! Pay and Fail buttons settle a session with the webhook a gateway would send,
//! signed with the api's own scheme ([`super::signing`]).

use axum::http::HeaderMap;
use uuid::Uuid;

use super::signing::{webhook_secret, SIGNATURE_HEADER, TIMESTAMP_HEADER};
use super::{CheckoutFuture, PaymentProvider};
use crate::http::envelope::ApiError;
use crate::payment::webhook::{
    process_webhook, Outcome, WebhookError, WebhookEvent, WebhookReceipt,
};
use crate::payment::PaymentSession;
use crate::runtime::state::AppState;

/// The offline default: a checkout page served by the api itself at
/// `/pay/sandbox/{session}` (`crate::routes::borrower::pay`), whose buttons deliver a
/// signed webhook.
pub struct SandboxPayment;

impl PaymentProvider for SandboxPayment {
    fn create_session<'a>(&'a self, session: &'a PaymentSession) -> CheckoutFuture<'a> {
        let url = format!("/pay/sandbox/{}", session.session_id);
        Box::pin(async move { Ok(url) })
    }
}

impl SandboxPayment {
    /// The sandbox's payment reference for a session.
    pub fn payment_ref(session_id: Uuid) -> String {
        format!("sandbox-{session_id}")
    }

    /// Settles a sandbox session the way a gateway would: builds the webhook for
    /// `outcome`, signs it with the process's secret and hands it to
    /// [`process_webhook`] — the very function the webhook route runs, signature check
    /// included — instead of an HTTP call to ourselves (no base URL to configure, no
    /// connection back into the server). The event id is fixed per session and
    /// outcome, so pressing a button twice delivers the same event twice, harmlessly.
    pub async fn deliver(
        state: &AppState,
        session: &PaymentSession,
        outcome: Outcome,
    ) -> Result<WebhookReceipt, WebhookError> {
        let event = WebhookEvent {
            event_id: format!("sandbox-{}-{}", session.session_id, outcome.as_str()),
            session_id: session.session_id.to_string(),
            payment_ref: Self::payment_ref(session.session_id),
            amount: aggregates::types::Amount::new(session.amount)
                .ok_or_else(|| ApiError::internal("a session amount out of pattern"))?,
            outcome,
        };
        let body = serde_json::to_vec(&event).map_err(ApiError::internal)?;
        let timestamp = state.now().timestamp();
        let mut headers = HeaderMap::new();
        let signature = webhook_secret(&state.env).sign(timestamp, &body);
        for (name, value) in [
            (TIMESTAMP_HEADER, timestamp.to_string()),
            (SIGNATURE_HEADER, signature),
        ] {
            headers.insert(name, value.parse().map_err(ApiError::internal)?);
        }
        process_webhook(state, &headers, &body).await
    }
}
