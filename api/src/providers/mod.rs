//! Provider adapters, chosen by `PAYMENT_PROVIDER`, `PAYOUT_PROVIDER` and
//! `SMS_PROVIDER` (PRODUCT.md 12.7, [`crate::config::Providers`]):
//!
//! - `sandbox` (payments and payouts) and `outbox` (SMS): built in, no money moves and
//!   no phone is texted ([`crate::payment::SandboxPayment`], [`crate::payout::SandboxPayout`],
//!   the `sms_outbox` table).
//! - [`xendit`]: invoices for repayments, payouts v2 for withdrawals and refunds, and
//!   their webhooks.
//! - [`semaphore`]: SMS through Semaphore's API, fed by the outbox relay
//!   ([`crate::sms_relay`]).
//!
//! Each adapter is written from the provider's public API documentation and tested
//! against a fake of that API on loopback (`api/tests/api/providers.rs`).

pub mod semaphore;
pub mod xendit;

use std::sync::Arc;

use crate::config::{Env, LendingConfig, XENDIT};
use crate::payment::{PaymentProvider, SandboxPayment};
use crate::payout::{PayoutProvider, SandboxPayout};

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
