//! The one table of the calls the middleware treats apart, each with its flags, so a
//! new call is marked in one place (issue 51): which are rate limited per client IP
//! (`crate::http::middleware::ops::rate_limit`) and which accept `Idempotency-Key`
//! (`crate::http::middleware::idempotency`). Every other call has neither.
//!
//! A rate-limited entry covers every path it begins (`/jackey/sms/` is each purpose's
//! call) and is the limiter's key; an idempotent entry is one exact path.

/// What the middleware does for a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flags {
    /// 10 requests in a burst, then one every 3 seconds, per client IP and entry
    /// (code 5 beyond): logins, SMS sends, every call that checks an SMS code
    /// (PRODUCT.md 12.2; the code itself allows 5 wrong entries) and the personal
    /// data exports (12.6, a whole history per call).
    pub rate_limited: bool,
    /// Accepts `Idempotency-Key`: the calls that move money or open and close what
    /// does (PRODUCT.md 8); each documents the header in the OpenAPI document, which
    /// a test holds to this table.
    pub idempotent: bool,
}

const LIMITED: Flags = Flags {
    rate_limited: true,
    idempotent: false,
};

const IDEMPOTENT: Flags = Flags {
    rate_limited: false,
    idempotent: true,
};

/// The calls with a flag, and their flags.
pub const ROUTES: [(&str, Flags); 21] = [
    ("/jackey/user/register", LIMITED),
    ("/jackey/user/login", LIMITED),
    ("/jackey/user/resetPassword", LIMITED),
    ("/jackey/user/changePassword", LIMITED),
    ("/jackey/sms/", LIMITED),
    ("/jackey/user/unlock", LIMITED),
    ("/jackey/user/bank/binding", LIMITED),
    ("/jackey/user/withdrawPin", LIMITED),
    ("/admin/api/login", LIMITED),
    ("/jackey/user/dataExport", LIMITED),
    ("/admin/api/users/dataExport", LIMITED),
    ("/jackey/loan/apply", IDEMPOTENT),
    ("/jackey/loan/cancel", IDEMPOTENT),
    ("/jackey/loan/resubmit", IDEMPOTENT),
    ("/jackey/loan/promiseToPay", IDEMPOTENT),
    ("/jackey/loan/extend", IDEMPOTENT),
    ("/jackey/loan/requestPaymentPlan", IDEMPOTENT),
    ("/jackey/loan/signPaymentPlan", IDEMPOTENT),
    ("/jackey/user/withdraw", IDEMPOTENT),
    ("/jackey/loan/recharge", IDEMPOTENT),
    ("/admin/api/repayments/manual", IDEMPOTENT),
];

/// The rate-limited entry `path` falls under (the limiter's key), if any.
pub fn rate_limited(path: &str) -> Option<&'static str> {
    ROUTES
        .iter()
        .find(|(entry, flags)| flags.rate_limited && path.starts_with(entry))
        .map(|(entry, _)| *entry)
}

/// Whether `path` accepts `Idempotency-Key`.
pub fn idempotent(path: &str) -> bool {
    ROUTES
        .iter()
        .any(|(entry, flags)| flags.idempotent && *entry == path)
}

/// The paths that accept `Idempotency-Key`.
pub fn idempotent_paths() -> impl Iterator<Item = &'static str> {
    ROUTES
        .iter()
        .filter(|(_, flags)| flags.idempotent)
        .map(|(entry, _)| *entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limited_entry_covers_the_paths_it_begins_and_is_their_key() {
        assert_eq!(rate_limited("/jackey/sms/register"), Some("/jackey/sms/"));
        assert_eq!(
            rate_limited("/jackey/user/login"),
            Some("/jackey/user/login")
        );
        assert_eq!(rate_limited("/jackey/user/info"), None);
    }

    #[test]
    fn an_idempotent_entry_is_one_exact_path() {
        assert!(idempotent("/jackey/loan/recharge"));
        assert!(!idempotent("/jackey/loan/recharge/x"));
        assert!(!idempotent("/jackey/user/login"));
        assert_eq!(idempotent_paths().count(), 10);
    }
}
