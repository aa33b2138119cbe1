//! The signing scheme of the payment webhook (`POST /jackey/payment/webhook`): the
//! api's own, which the sandbox provider signs with ([`super::sandbox`]) and a gateway
//! that speaks it would too. `X-Signature-Timestamp` is the Unix time in seconds, and
//! `X-Signature` is the lowercase hex HMAC-SHA256, keyed with `WEBHOOK_SECRET`, of
//! `timestamp + "." + raw body`. A webhook counts only with a valid signature made
//! within [`SIGNATURE_TOLERANCE_SECS`] of now, compared in constant time.
//!
//! Xendit's webhooks carry a callback token instead ([`mod@super::xendit`]).

use std::fmt;

use hmac::{Hmac, Mac};
use secrecy::ExposeSecret;
use sha2::Sha256;

use crate::config::Env;

/// Header carrying the signing time, Unix seconds.
pub const TIMESTAMP_HEADER: &str = "x-signature-timestamp";
/// Header carrying the lowercase hex HMAC-SHA256 of `timestamp + "." + body`.
pub const SIGNATURE_HEADER: &str = "x-signature";
/// How far (seconds, either way) a webhook's timestamp may be from the server's clock.
pub const SIGNATURE_TOLERANCE_SECS: i64 = 300;
/// The secret used when `WEBHOOK_SECRET` is unset: for development only (a warning is
/// logged at start-up), since anyone reading this source can sign with it.
pub const DEVELOPMENT_WEBHOOK_SECRET: &str = "development-webhook-secret-do-not-use-in-production";

type HmacSha256 = Hmac<Sha256>;

/// The key webhooks are signed with. Its `Debug` never prints the key.
#[derive(Clone)]
pub struct WebhookSecret(Vec<u8>);

impl fmt::Debug for WebhookSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WebhookSecret(..)")
    }
}

/// Why a webhook's signature is not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    /// A signature header is absent or empty.
    #[error("{0}: is required")]
    Missing(&'static str),
    /// The timestamp is not an integer number of seconds.
    #[error("X-Signature-Timestamp: must be Unix seconds")]
    MalformedTimestamp,
    /// The timestamp is more than [`SIGNATURE_TOLERANCE_SECS`] away from now.
    #[error("X-Signature-Timestamp: outside the {tolerance_secs} s window ({age_secs} s old)")]
    Stale {
        /// Now minus the timestamp, seconds (negative: in the future).
        age_secs: i64,
        /// The window, seconds.
        tolerance_secs: i64,
    },
    /// The signature is not hex, or not the HMAC of this timestamp and body.
    #[error("X-Signature: does not match")]
    Mismatch,
}

impl WebhookSecret {
    /// A secret from its bytes.
    pub fn new(secret: impl AsRef<[u8]>) -> Self {
        Self(secret.as_ref().to_vec())
    }

    fn mac(&self, timestamp: &str, body: &[u8]) -> HmacSha256 {
        let mut mac = HmacSha256::new_from_slice(&self.0).expect("HMAC takes a key of any length");
        mac.update(timestamp.as_bytes());
        mac.update(b".");
        mac.update(body);
        mac
    }

    /// The `X-Signature` value for `body` signed at `timestamp` (Unix seconds):
    /// lowercase hex of HMAC-SHA256 over `timestamp + "." + body`.
    pub fn sign(&self, timestamp: i64, body: &[u8]) -> String {
        hex::encode(
            self.mac(&timestamp.to_string(), body)
                .finalize()
                .into_bytes(),
        )
    }

    /// Checks the two signature headers of a webhook against its raw `body`, at `now`
    /// (Unix seconds). The comparison is constant-time.
    pub fn verify(
        &self,
        timestamp: Option<&str>,
        signature: Option<&str>,
        body: &[u8],
        now: i64,
    ) -> Result<(), SignatureError> {
        let timestamp = timestamp
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or(SignatureError::Missing("X-Signature-Timestamp"))?;
        let signature = signature
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .ok_or(SignatureError::Missing("X-Signature"))?;
        let signed_at: i64 = timestamp
            .parse()
            .map_err(|_| SignatureError::MalformedTimestamp)?;
        // The signature first: an unsigned request learns nothing about the window.
        let signature = hex::decode(signature).map_err(|_| SignatureError::Mismatch)?;
        self.mac(timestamp, body)
            .verify_slice(&signature)
            .map_err(|_| SignatureError::Mismatch)?;
        let age_secs = now.saturating_sub(signed_at);
        if age_secs.abs() > SIGNATURE_TOLERANCE_SECS {
            return Err(SignatureError::Stale {
                age_secs,
                tolerance_secs: SIGNATURE_TOLERANCE_SECS,
            });
        }
        Ok(())
    }
}

/// The webhook secret of `env`: `WEBHOOK_SECRET` ([`Env::webhook_secret`]); when it is
/// unset or empty, [`DEVELOPMENT_WEBHOOK_SECRET`], which
/// [`warn_of_development_secret`] tells the log about at start-up.
pub fn webhook_secret(env: &Env) -> WebhookSecret {
    match &env.webhook_secret {
        Some(secret) => WebhookSecret::new(secret.expose_secret()),
        None => WebhookSecret::new(DEVELOPMENT_WEBHOOK_SECRET),
    }
}

/// Warns in the log when `env` has no `WEBHOOK_SECRET`, so webhooks are verified with
/// the public [`DEVELOPMENT_WEBHOOK_SECRET`] (called when the router is built, i.e. at
/// start-up).
pub fn warn_of_development_secret(env: &Env) {
    if env.webhook_secret.is_none() {
        tracing::warn!(
            "WEBHOOK_SECRET is not set: payment webhooks are verified with the public \
                 development secret; set WEBHOOK_SECRET before taking real payments"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_verifies_only_for_its_own_body_timestamp_and_secret() {
        let secret = WebhookSecret::new("s3cret");
        let signature = secret.sign(1_700_000_000, b"{\"a\":1}");
        assert_eq!(signature.len(), 64);
        let verify = |secret: &WebhookSecret, ts: &str, body: &[u8]| {
            secret.verify(Some(ts), Some(&signature), body, 1_700_000_010)
        };
        assert_eq!(verify(&secret, "1700000000", b"{\"a\":1}"), Ok(()));
        assert_eq!(
            verify(&secret, "1700000000", b"{\"a\":2}"),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify(&secret, "1700000001", b"{\"a\":1}"),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify(&WebhookSecret::new("other"), "1700000000", b"{\"a\":1}"),
            Err(SignatureError::Mismatch)
        );
    }

    #[test]
    fn a_signature_older_or_newer_than_the_window_is_stale() {
        let secret = WebhookSecret::new("s3cret");
        let at = 1_700_000_000;
        let signature = secret.sign(at, b"x");
        let ts = at.to_string();
        let check = |now| secret.verify(Some(&ts), Some(&signature), b"x", now);
        assert_eq!(check(at + 300), Ok(()));
        assert!(matches!(
            check(at + 301),
            Err(SignatureError::Stale { age_secs: 301, .. })
        ));
        assert!(matches!(check(at - 301), Err(SignatureError::Stale { .. })));
        assert_eq!(
            secret.verify(None, Some(&signature), b"x", at),
            Err(SignatureError::Missing("X-Signature-Timestamp"))
        );
        assert_eq!(
            secret.verify(Some("soon"), Some(&signature), b"x", at),
            Err(SignatureError::MalformedTimestamp)
        );
        assert_eq!(
            secret.verify(Some(&ts), Some("zz"), b"x", at),
            Err(SignatureError::Mismatch)
        );
    }
}
