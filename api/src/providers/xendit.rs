//! Xendit (<https://docs.xendit.co>), a payment gateway Philippine lenders use:
//!
//! - **Repayments**: an invoice (`POST /v2/invoices`, `external_id` = our payment
//!   session id) whose hosted page the borrower pays; the invoice webhook (`PAID`,
//!   `SETTLED`, `EXPIRED`) is applied like our own signed webhook
//!   ([`crate::payment::webhook::apply_payment_event`]).
//! - **Payouts** (withdrawals and refunds): payouts v2 (`POST /v2/payouts`) with the
//!   payout id as the `Idempotency-key`, so a call retried after a timeout never pays
//!   twice; the result arrives by the payout webhook (`payout.succeeded`,
//!   `payout.failed`) and is recorded by [`crate::workflows::payout::record_result`].
//! - **Authentication**: the secret API key as the basic-auth user name; every webhook
//!   carries `x-callback-token`, compared with `XENDIT_CALLBACK_TOKEN`.
//!
//! Amounts go over the wire as JSON numbers written from the decimal's own text and
//! are read back the same way, never through a float.

use std::collections::HashMap;
use std::str::FromStr;

use axum::http::{HeaderMap, StatusCode};
use rust_decimal::Decimal;
use secrecy::ExposeSecret;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::{CheckoutFuture, PaymentError, PaymentProvider};
use crate::config::XenditSettings;
use crate::payment::webhook::{Outcome, WebhookEvent};
use crate::payment::PaymentSession;
use crate::workflows::payout::{Payout, PayoutOutcome, PayoutProvider, PayoutUnavailable};

/// The header Xendit's webhooks carry the verification token in.
pub const CALLBACK_TOKEN_HEADER: &str = "x-callback-token";

/// A Xendit account: its settings, an HTTP client and the bank → channel-code map.
pub struct Xendit {
    settings: XenditSettings,
    http: reqwest::Client,
    channels: HashMap<String, String>,
    currency: String,
}

/// A decimal as a JSON number token (its own text, no float on the way).
fn number(amount: Decimal) -> Box<RawValue> {
    RawValue::from_string(amount.normalize().to_string()).expect("a decimal is a JSON number")
}

#[derive(Serialize)]
struct InvoiceRequest<'a> {
    external_id: String,
    amount: Box<RawValue>,
    currency: &'a str,
    description: &'a str,
    /// Seconds the invoice may be paid: the Order's session length, so the page
    /// closes when the session does (Xendit's own default is a day, during which a
    /// payment would only be refunded; 12.1).
    invoice_duration: i64,
}

#[derive(Deserialize)]
struct InvoiceAnswer {
    invoice_url: String,
}

#[derive(Serialize)]
struct ChannelProperties<'a> {
    account_number: &'a str,
    account_holder_name: &'a str,
}

#[derive(Serialize)]
struct PayoutRequest<'a> {
    reference_id: String,
    channel_code: &'a str,
    channel_properties: ChannelProperties<'a>,
    amount: Box<RawValue>,
    currency: &'a str,
    description: &'a str,
}

/// A payout as Xendit describes it (the create answer and the webhook's `data`).
#[derive(Debug, Deserialize)]
pub struct PayoutObject {
    /// Our [`Payout::reference`].
    pub reference_id: String,
    /// `ACCEPTED`, `REQUESTED`, `LOCKED`, `SUCCEEDED`, `FAILED`, `CANCELLED`, `REVERSED`.
    pub status: String,
    /// Why it failed, when it did.
    #[serde(default)]
    pub failure_code: Option<String>,
}

impl PayoutObject {
    /// What its status means for the borrower's money.
    pub fn outcome(&self) -> PayoutOutcome {
        match self.status.as_str() {
            "SUCCEEDED" => PayoutOutcome::Paid,
            "FAILED" | "CANCELLED" => PayoutOutcome::Failed(format!(
                "the bank did not accept the transfer ({})",
                self.failure_code.as_deref().unwrap_or("no reason given")
            )),
            _ => PayoutOutcome::Accepted,
        }
    }
}

/// The body of Xendit's payout webhook.
#[derive(Debug, Deserialize)]
pub struct PayoutWebhook {
    /// `payout.succeeded`, `payout.failed`, ...
    pub event: String,
    /// The payout.
    pub data: PayoutObject,
}

/// The body of Xendit's invoice webhook (the fields used).
#[derive(Debug, Deserialize)]
pub struct InvoiceWebhook {
    /// Xendit's invoice id.
    pub id: String,
    /// Our payment session id.
    pub external_id: String,
    /// `PAID`, `SETTLED` or `EXPIRED`.
    pub status: String,
    /// The invoice amount (a JSON number).
    pub amount: Box<RawValue>,
    /// What was paid, when paid (a JSON number).
    #[serde(default)]
    pub paid_amount: Option<Box<RawValue>>,
}

impl InvoiceWebhook {
    /// Our payment event for this notification; `None` for a status that moves no
    /// money (`PENDING`). The event id is the invoice and its status, so a redelivery
    /// is a duplicate; the payment reference is the invoice, so `PAID` then `SETTLED`
    /// record the money once.
    pub fn event(&self) -> Result<Option<WebhookEvent>, String> {
        let outcome = match self.status.as_str() {
            "PAID" | "SETTLED" => Outcome::Paid,
            "EXPIRED" => Outcome::Failed,
            _ => return Ok(None),
        };
        let raw = self.paid_amount.as_ref().unwrap_or(&self.amount);
        let amount = Decimal::from_str(raw.get())
            .ok()
            .and_then(aggregates::types::Amount::new)
            .ok_or_else(|| format!("amount {} is not a money amount", raw.get()))?;
        Ok(Some(WebhookEvent {
            event_id: format!("xendit-invoice-{}-{}", self.id, self.status),
            session_id: self.external_id.clone(),
            payment_ref: format!("xendit-invoice-{}", self.id),
            amount,
            outcome,
        }))
    }
}

impl Xendit {
    /// A client for `settings`, paying to the channel each bank name maps to.
    pub fn new(
        settings: XenditSettings,
        channels: HashMap<String, String>,
        currency: String,
    ) -> Self {
        let http = reqwest::Client::builder()
            .timeout(settings.timeout)
            .build()
            .expect("an HTTP client");
        Self {
            settings,
            http,
            channels,
            currency,
        }
    }

    fn post(&self, path: &str) -> reqwest::RequestBuilder {
        let url = format!("{}{path}", self.settings.base_url.trim_end_matches('/'));
        self.http
            .post(url)
            .basic_auth(self.settings.secret_key.expose_secret(), Some(""))
    }

    /// Whether a webhook's `x-callback-token` is this account's verification token.
    pub fn verify_callback(&self, headers: &HeaderMap) -> bool {
        headers
            .get(CALLBACK_TOKEN_HEADER)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|token| {
                super::same_secret(token, self.settings.callback_token.expose_secret())
            })
    }
}

impl PaymentProvider for Xendit {
    fn create_session<'a>(&'a self, session: &'a PaymentSession) -> CheckoutFuture<'a> {
        Box::pin(async move {
            let body = InvoiceRequest {
                external_id: session.session_id.to_string(),
                amount: number(session.amount),
                currency: &self.currency,
                description: "Loan repayment",
                invoice_duration: aggregates::order::PAYMENT_SESSION_MINUTES * 60,
            };
            let unavailable = |e: &dyn std::fmt::Display| PaymentError::Unavailable(e.to_string());
            let answer = self
                .post("/v2/invoices")
                // The session id, so a retried call opens no second invoice.
                .header("x-idempotency-key", session.session_id.to_string())
                .json(&body)
                .send()
                .await
                .map_err(|e| unavailable(&e))?;
            if !answer.status().is_success() {
                let status = answer.status();
                let text = answer.text().await.unwrap_or_default();
                tracing::warn!(%status, body = %text, "xendit refused to open an invoice");
                return Err(PaymentError::Unavailable(format!(
                    "xendit answered {status}"
                )));
            }
            let invoice: InvoiceAnswer = answer.json().await.map_err(|e| unavailable(&e))?;
            Ok(invoice.invoice_url)
        })
    }
}

#[async_trait::async_trait]
impl PayoutProvider for Xendit {
    async fn pay(&self, payout: &Payout) -> Result<PayoutOutcome, PayoutUnavailable> {
        let Some(channel) = self.channels.get(&payout.account.bank_name) else {
            // Checked at start-up (config::Env::check_providers); a bank removed
            // from the configuration since the account was bound ends here.
            return Ok(PayoutOutcome::Failed(format!(
                "{} cannot receive payouts; bind an account at another bank",
                payout.account.bank_name
            )));
        };
        let body = PayoutRequest {
            reference_id: payout.reference(),
            channel_code: channel,
            channel_properties: ChannelProperties {
                account_number: &payout.account.account_no,
                account_holder_name: &payout.account.holder_name,
            },
            amount: number(payout.amount),
            currency: &self.currency,
            description: "Loan disbursement",
        };
        let answer = self
            .post("/v2/payouts")
            .header("Idempotency-key", payout.id.to_string())
            .json(&body)
            .send()
            .await
            .map_err(|e| PayoutUnavailable(e.to_string()))?;
        let status = answer.status();
        if status.is_success() {
            let object: PayoutObject = answer
                .json()
                .await
                .map_err(|e| PayoutUnavailable(format!("unreadable answer: {e}")))?;
            return Ok(object.outcome());
        }
        let text = answer.text().await.unwrap_or_default();
        match status {
            // The key was used before: the first call went through, and its webhook
            // reports the result.
            StatusCode::CONFLICT => Ok(PayoutOutcome::Accepted),
            // The destination or the request is refused for good: the money returns
            // to the borrower with the reason (P3).
            StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY => {
                let code = serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|v| v["error_code"].as_str().map(str::to_string))
                    .unwrap_or_else(|| "REQUEST_REFUSED".to_string());
                Ok(PayoutOutcome::Failed(format!(
                    "the payout provider refused the transfer ({code})"
                )))
            }
            // Our keys, its limits or its outage: nothing was paid; try again later.
            _ => {
                tracing::warn!(%status, body = %text, "xendit did not take the payout; retrying");
                Err(PayoutUnavailable(format!("xendit answered {status}")))
            }
        }
    }
}
