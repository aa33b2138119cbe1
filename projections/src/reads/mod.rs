//! Every query of the read models, typed, one module per audience (issue 14 item 4):
//! the one place their SQL lives. The api shapes its answers from these rows and
//! decides no rule from them (DESIGN.md "Where each rule lives"): read models lag
//! the log by a worker step.
//!
//! - [`borrower`]: the borrower's calls; the hottest fetch the session row in the
//!   same statement as the rows (a query in one round trip), and the api decides
//!   from [`Session`] whether the token is live (`api::auth::check`).
//! - [`admin`]: the auditor console (review queue, order, applicant, journal,
//!   trial balance).
//! - [`documents`]: what the PDF documents are printed from.
//! - [`export`]: one borrower's every row, in one read transaction (PRODUCT.md 12.6).
//! - [`inbox`]: the in-app notices with their read marks.
//! - [`schedule`]: the orders the scheduler and the reminders visit.
//!
//! Each function takes the [`Database`] to read and runs on a reader
//! ([`crate::with_read_pool!`]): a WAL reader connection on SQLite, which sees every
//! transaction committed before its statement began and never waits for the writer.
//! Plain SQL with `$n` parameters, which both stores accept. The api's own tables
//! (sessions, claims, idempotency keys, SMS, payment sessions, auditors, read marks,
//! download and export records) are written beside the rule they serve, in the api;
//! where a borrower's read or export shows them, the statement is here.
//!
//! Errors: [`ProjectionError::Database`] when the store refuses a statement.

use crate::projection::ProjectionError;
use crate::store::Database;

/// Runs one `sqlx::query_as` statement with its binds on the readers of a
/// [`Database`] and fetches with `$fetch` (`fetch_optional`, `fetch_all`, ...).
macro_rules! fetch {
    ($database:expr, $sql:expr, $fetch:ident $(, $bind:expr)*) => {
        $crate::with_read_pool!($database, pool =>
            sqlx::query_as($sql)$(.bind($bind))*.$fetch(pool).await)?
    };
}

/// Like `fetch!`, for a statement of one column (`sqlx::query_scalar`).
macro_rules! fetch_scalar {
    ($database:expr, $sql:expr, $fetch:ident $(, $bind:expr)*) => {
        $crate::with_read_pool!($database, pool =>
            sqlx::query_scalar($sql)$(.bind($bind))*.$fetch(pool).await)?
    };
}

pub mod admin;
pub mod borrower;
pub mod collections;
pub mod documents;
pub mod export;
pub mod inbox;
pub mod schedule;

/// A session row as stored in the api's `auth_token`: whose it is, until when, and
/// whether it was revoked (RFC 3339 UTC texts, as [`crate::projection::time_text`]
/// writes them).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Session {
    /// The user or auditor id.
    pub subject: String,
    /// Expiry time.
    pub expires_at: String,
    /// Revocation time (logout, lock), if any.
    pub revoked_at: Option<String>,
    /// A staff session's roles as stored (comma-separated; issue 55); `None` for a
    /// borrower's.
    #[sqlx(default)]
    pub roles: Option<String>,
}

/// The session of the token whose SHA-256 is `token_hash`, of `kind` (`borrower`,
/// `auditor`); `None` when there is no such row. An auditor's session reads as
/// revoked, since the time, once the operator has disabled the account (`api
/// disable-auditor`, migration 0019): checked here, in the same statement, so that no
/// token issued by a login racing the disable outlives it.
pub async fn session(
    database: &Database,
    token_hash: &str,
    kind: &str,
) -> Result<Option<Session>, ProjectionError> {
    let sql = if kind == "auditor" {
        "select t.subject, t.expires_at, coalesce(t.revoked_at, a.disabled_at) as revoked_at, \
         a.roles from auth_token t left join auditor a on a.auditor_id = t.subject \
         where t.token_hash = $1 and t.kind = $2"
    } else {
        "select subject, expires_at, revoked_at from auth_token \
         where token_hash = $1 and kind = $2"
    };
    Ok(fetch!(database, sql, fetch_optional, token_hash, kind))
}
