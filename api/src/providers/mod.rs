//! Provider adapters, chosen by `PAYMENT_PROVIDER`, `PAYOUT_PROVIDER` and
//! `SMS_PROVIDER` (PRODUCT.md 12.7, [`crate::config::Providers`]):
//!
//! - `sandbox` (payments and payouts) and `outbox` (SMS): built in, no money moves and
//!   no phone is texted ([`sandbox::SandboxPayment`], [`crate::workflows::payout::SandboxPayout`],
//!   the `sms_outbox` table).
//! - [`xendit`]: invoices for repayments, payouts v2 for withdrawals and refunds, and
//!   their webhooks.
//! - [`semaphore`]: SMS through Semaphore's API, fed by the outbox relay
//!   ([`crate::workflows::sms_relay`]).
//!
//! - [`signing`]: the HMAC scheme of the api's own payment webhook, which the sandbox
//!   signs with.
//!
//! A payment adapter implements [`PaymentProvider`] (opening a payment page) and
//! reports payments through `crate::payment::webhook`; a payout adapter implements
//! [`crate::workflows::payout::PayoutProvider`]. Each adapter is written from the provider's
//! public API documentation and tested against a fake of that API on loopback
//! (`api/tests/api/providers.rs`).

pub mod sandbox;
pub mod semaphore;
pub mod signing;
pub mod storage;
pub mod xendit;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::config::{Env, LendingConfig, XENDIT};
use crate::payment::PaymentSession;
use crate::workflows::payout::{PayoutProvider, SandboxPayout};
use sandbox::SandboxPayment;

/// Why a provider could not open a payment page.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PaymentError {
    /// The provider could not be reached or refused the request.
    #[error("payment provider unavailable: {0}")]
    Unavailable(String),
}

/// What [`PaymentProvider::create_session`] returns: the URL of the payment page.
pub type CheckoutFuture<'a> =
    Pin<Box<dyn Future<Output = Result<String, PaymentError>> + Send + 'a>>;

/// A payment gateway. The api has already checked the amount and stored `session`;
/// the provider opens its side of it and answers the page where the borrower pays.
/// It reports the result later through the signed webhook, quoting
/// `session.session_id` as `sessionId`.
pub trait PaymentProvider: Send + Sync {
    /// Opens the gateway's payment for `session` (user, order, amount) and returns the
    /// URL of its payment page. `session.session_id` is the idempotency key: asking
    /// twice must not create two payments.
    fn create_session<'a>(&'a self, session: &'a PaymentSession) -> CheckoutFuture<'a>;
}

/// How long one call to an SMS gateway may take before it counts as failed (and is
/// retried). Xendit's is `XENDIT_TIMEOUT_SECS`.
pub const CALL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(15);

/// The Xendit client, when a provider is `xendit` and its settings are present.
pub fn xendit(env: &Env, config: &LendingConfig) -> Option<Arc<xendit::Xendit>> {
    let uses = [&env.providers.payment, &env.providers.payout]
        .iter()
        .any(|p| p.as_str() == XENDIT);
    let settings = env.xendit.clone().filter(|_| uses)?;
    Some(Arc::new(xendit::Xendit::new(
        settings,
        config.payout_channels.clone(),
        config.currency.code.clone(),
    )))
}

/// The payment provider `PAYMENT_PROVIDER` names.
pub fn payment(env: &Env, xendit: Option<&Arc<xendit::Xendit>>) -> Arc<dyn PaymentProvider> {
    match xendit {
        Some(client) if env.providers.payment == XENDIT => client.clone(),
        _ => Arc::new(SandboxPayment),
    }
}

/// The payout provider `PAYOUT_PROVIDER` names.
pub fn payout(env: &Env, xendit: Option<&Arc<xendit::Xendit>>) -> Arc<dyn PayoutProvider> {
    match xendit {
        Some(client) if env.providers.payout == XENDIT => client.clone(),
        _ => Arc::new(SandboxPayout),
    }
}

/// Whether `sent` equals `expected`, compared as SHA-256 digests so the time taken
/// tells nothing about the expected value (webhook tokens, `METRICS_TOKEN`).
pub fn same_secret(sent: &str, expected: &str) -> bool {
    use sha2::{Digest, Sha256};
    Sha256::digest(sent.as_bytes()) == Sha256::digest(expected.as_bytes())
}
