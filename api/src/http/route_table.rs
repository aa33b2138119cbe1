//! The one table of the calls the middleware treats apart, each with its flags, so a
//! new call is marked in one place (issue 51): which are rate limited per client IP
//! (`crate::http::middleware::ops::rate_limit`) and which accept `Idempotency-Key`
//! (`crate::http::middleware::idempotency`). Every other call has neither.
//!
//! A rate-limited entry covers every path it begins (`/jackey/sms/` is each purpose's
//! call) and is the limiter's key; an idempotent entry is one exact path.
//!
//! [`CONSOLE_CALLS`] is the other table: what each console call needs of the staff
//! member who makes it (issue 55), checked for every call by the session extractor
//! (`crate::http::auth::Auditor`), listed in the OpenAPI document (`x-permission`), and
//! walked with every role by the permission table test (`api/tests/api/permissions.rs`).

use crate::accounts::roles::Permission;

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

/// What a console call needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// No session: the log-in and the setup link's two calls.
    Public,
    /// Any live staff session, whatever its roles (log out, who am I).
    Session,
    /// A live session of someone holding a role with this permission (50005 otherwise).
    Needs(Permission),
}

use Access::{Needs, Public, Session};
use Permission::*;

/// Every console call and what it needs. A path under `/admin/api/` that is not here is
/// refused to everyone (50005): a new call is closed until it is given a line.
pub const CONSOLE_CALLS: [(&str, Access); 56] = [
    ("/admin/api/login", Public),
    ("/admin/api/staff/setupInfo", Public),
    ("/admin/api/staff/completeSetup", Public),
    ("/admin/api/logout", Session),
    ("/admin/api/me", Session),
    ("/admin/api/orders/queue", Needs(Review)),
    ("/admin/api/orders/detail", Needs(OrdersRead)),
    ("/admin/api/orders/startReview", Needs(Review)),
    ("/admin/api/orders/passFirst", Needs(Review)),
    ("/admin/api/orders/passFinal", Needs(Review)),
    ("/admin/api/orders/refuse", Needs(Review)),
    ("/admin/api/orders/requestResubmission", Needs(Review)),
    ("/admin/api/orders/history", Needs(OrdersRead)),
    ("/admin/api/users/detail", Needs(BorrowersRead)),
    ("/admin/api/users/verifyIdentity", Needs(IdentityDecide)),
    ("/admin/api/users/rejectIdentity", Needs(IdentityDecide)),
    ("/admin/api/users/hold", Needs(Holds)),
    ("/admin/api/users/releaseHold", Needs(Holds)),
    ("/admin/api/users/erase", Needs(PersonalData)),
    ("/admin/api/users/dataExport", Needs(PersonalData)),
    ("/admin/api/users/exportLog", Needs(PersonalData)),
    ("/admin/api/repayments/manual", Needs(Money)),
    ("/admin/api/collections/queue", Needs(Collections)),
    ("/admin/api/collections/record", Needs(Collections)),
    ("/admin/api/collections/contact", Needs(Collections)),
    ("/admin/api/collections/assign", Needs(Collections)),
    ("/admin/api/collections/promise", Needs(Collections)),
    ("/admin/api/collections/proposePlan", Needs(Collections)),
    ("/admin/api/collections/approvePlan", Needs(Collections)),
    ("/admin/api/collections/book", Needs(Ledger)),
    ("/admin/api/collections/waive", Needs(Money)),
    ("/admin/api/collections/chargeOff", Needs(Money)),
    ("/admin/api/collections/reverseChargeOff", Needs(Money)),
    ("/admin/api/ledger/journal", Needs(Ledger)),
    ("/admin/api/ledger/trialBalance", Needs(Ledger)),
    ("/admin/api/documents/contractPdf", Needs(OrdersRead)),
    ("/admin/api/documents/receiptPdf", Needs(OrdersRead)),
    ("/admin/api/documents/statementPdf", Needs(OrdersRead)),
    ("/admin/api/documents/receipts", Needs(OrdersRead)),
    ("/admin/api/documents/downloads", Needs(OrdersRead)),
    ("/admin/api/staff/list", Needs(Staff)),
    ("/admin/api/staff/create", Needs(Staff)),
    ("/admin/api/staff/assignRoles", Needs(Staff)),
    ("/admin/api/staff/disable", Needs(Staff)),
    ("/admin/api/staff/enable", Needs(Staff)),
    ("/admin/api/staff/resetPassword", Needs(Staff)),
    ("/admin/api/audit/trail", Needs(AuditTrail)),
    ("/admin/api/audit/export", Needs(AuditTrail)),
    ("/admin/api/products/list", Needs(Settings)),
    ("/admin/api/products/propose", Needs(Settings)),
    ("/admin/api/products/approve", Needs(Settings)),
    ("/admin/api/products/reject", Needs(Settings)),
    ("/admin/api/settings/list", Needs(Settings)),
    ("/admin/api/settings/propose", Needs(Settings)),
    ("/admin/api/settings/approve", Needs(Settings)),
    ("/admin/api/settings/reject", Needs(Settings)),
];

/// What the console call `path` needs; `None` for a path with no line (refused).
pub fn console_access(path: &str) -> Option<Access> {
    CONSOLE_CALLS
        .iter()
        .find(|(entry, _)| *entry == path)
        .map(|(_, access)| *access)
}
