//! The staff second factor: time-based one-time passwords (TOTP, RFC 6238: HMAC-SHA1,
//! 6 digits, 30-second steps), computed by `totp-rs`, enrolled with a setup link
//! (`crate::accounts::auditors::setup_info`) and asked at every staff log-in once
//! enrolled (issue 55).
//!
//! A code is accepted for the step it was made in or one step either side (clock drift
//! of the phone), and each step at most once per account (the replay guard is one SQL
//! statement, `crate::db::auditors::take_totp_step`).

use chrono::{DateTime, Utc};
use totp_rs::{Algorithm, Secret, TOTP};

/// Seconds in a step (RFC 6238 4.1, the default X).
pub const STEP_SECONDS: i64 = 30;

/// A new random secret (160 bits, RFC 4226 section 4's recommendation), base32.
pub fn new_secret() -> String {
    Secret::generate_secret().to_encoded().to_string()
}

/// The generator of `secret` (base32) for the account `username`; `None` for a
/// secret that is not base32 of at least 128 bits (none is written).
fn generator(secret: &str, issuer: &str, username: &str) -> Option<TOTP> {
    let bytes = Secret::Encoded(secret.to_string()).to_bytes().ok()?;
    // An issuer may not hold ':' (the otpauth label's separator).
    let issuer = issuer.replace(':', " ");
    TOTP::new(
        Algorithm::SHA1,
        6,
        1,
        STEP_SECONDS as u64,
        bytes,
        Some(issuer),
        username.to_string(),
    )
    .ok()
}

/// What an authenticator app scans: the `otpauth://totp/...` URI of `secret` and an
/// SVG image of its QR code.
#[derive(Debug, Clone)]
pub struct Enrollment {
    /// The secret, base32 (typed by hand when the camera fails).
    pub secret: String,
    /// `otpauth://totp/<issuer>:<username>?secret=...&issuer=...`.
    pub uri: String,
    /// The QR code of `uri`, an SVG document.
    pub qr_svg: String,
}

/// The enrollment of `secret` for `username` at the lender `issuer`; `None` for a bad
/// secret.
pub fn enrollment(secret: &str, issuer: &str, username: &str) -> Option<Enrollment> {
    let uri = generator(secret, issuer, username)?.get_url();
    let qr_svg = qrcode::QrCode::new(uri.as_bytes())
        .ok()?
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(220, 220)
        .build();
    Some(Enrollment {
        secret: secret.to_string(),
        uri,
        qr_svg,
    })
}

/// The step `code` was made in, if it is the code of `secret` for the step of `now` or
/// one either side (the nearest first); `None` otherwise. Constant-time per comparison.
pub fn matching_step(secret: &str, code: &str, now: DateTime<Utc>) -> Option<i64> {
    let code = code.trim();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let totp = generator(secret, "staff", "staff")?;
    let step = now.timestamp().div_euclid(STEP_SECONDS);
    [step, step - 1, step + 1].into_iter().find(|candidate| {
        let expected = totp.generate((candidate * STEP_SECONDS) as u64);
        constant_time_eq(expected.as_bytes(), code.as_bytes())
    })
}

/// The code of `secret` at `now` (tests and the command line's check).
pub fn code_at(secret: &str, now: DateTime<Utc>) -> Option<String> {
    Some(generator(secret, "staff", "staff")?.generate(now.timestamp() as u64))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    /// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890" (base32 below) at
    /// T = 59 s gives 94287082 in 8 digits, so 287082 in 6 (the code is the low digits).
    #[test]
    fn the_rfc_6238_test_vector() {
        let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
        let at = Utc.timestamp_opt(59, 0).unwrap();
        assert_eq!(code_at(secret, at).as_deref(), Some("287082"));
        assert_eq!(matching_step(secret, "287082", at), Some(1));
        // One step late (drift) still matches, naming the step it was made in.
        let later = Utc.timestamp_opt(59 + 30, 0).unwrap();
        assert_eq!(matching_step(secret, "287082", later), Some(1));
        // Two steps late does not.
        let much_later = Utc.timestamp_opt(59 + 60, 0).unwrap();
        assert_eq!(matching_step(secret, "287082", much_later), None);
        assert_eq!(matching_step(secret, "28708", at), None);
        assert_eq!(matching_step(secret, "28708x", at), None);
    }

    #[test]
    fn an_enrollment_is_a_scannable_uri_and_its_qr_code() {
        let secret = new_secret();
        let enrollment = enrollment(&secret, "Acme: Lending", "maria").unwrap();
        assert!(enrollment.uri.starts_with("otpauth://totp/"));
        assert!(enrollment.uri.contains(&format!("secret={secret}")));
        assert!(enrollment.qr_svg.contains("<svg"));
    }
}
