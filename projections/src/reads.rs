//! The borrower's hottest reads, each with the session check in the same statement
//! (issue 14: a query in one round trip). Every function finds the session row of
//! `token_hash` and, joined to it, the read model rows of its subject; the caller
//! decides from [`Session`] whether the token is live (`api::auth::check`, the one
//! place that rule lives) before it uses the rows. `None`: no session row at all.
//!
//! Plain SQL both stores accept (a CTE and left joins); the tables are the api's
//! `auth_token` and the read models of [`crate::users`] and [`crate::orders`].

use crate::projection::ProjectionError;
use crate::store::Database;

/// A session row as stored: whose it is, until when, and whether it was revoked
/// (RFC 3339 UTC texts, as [`crate::projection::time_text`] writes them).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Session {
    /// The user or auditor id.
    pub subject: String,
    /// Expiry time.
    pub expires_at: String,
    /// Revocation time (logout, lock), if any.
    pub revoked_at: Option<String>,
}

/// The session of `token_hash` of `kind`, as a CTE the reads join to.
const SESSION: &str = "with session as (\
     select subject, expires_at, revoked_at from auth_token \
     where token_hash = $1 and kind = $2)";

macro_rules! fetch {
    ($database:expr, $sql:expr, $kind:ident, $($bind:expr),*) => {
        match $database {
            Database::Sqlite { reads: pool, .. } => sqlx::query_as($sql)$(.bind($bind))*.$kind(pool).await?,
            Database::Postgres(pool) => sqlx::query_as($sql)$(.bind($bind))*.$kind(pool).await?,
        }
    };
}

/// `/user/info`: the session, the `user_profile` document and the latest order id.
pub async fn profile(
    database: &Database,
    token_hash: &str,
    kind: &str,
) -> Result<Option<(Session, Option<String>, Option<String>)>, ProjectionError> {
    let sql = format!(
        "{SESSION} select s.subject, s.expires_at, s.revoked_at, p.doc, lp.order_id \
         from session s left join user_profile p on p.user_id = s.subject \
         left join loan_progress lp on lp.user_id = s.subject"
    );
    #[derive(sqlx::FromRow)]
    struct Found {
        #[sqlx(flatten)]
        session: Session,
        doc: Option<String>,
        order_id: Option<String>,
    }
    let found: Option<Found> = fetch!(database, &sql, fetch_optional, token_hash, kind);
    Ok(found.map(|f| (f.session, f.doc, f.order_id)))
}

/// A `loan_progress` row: order id, status, amount applied for, balance, contract.
pub type ProgressRow = (String, i64, String, String, String);

/// `/loan/getLoanProgress`: the session and the latest order's progress row.
pub async fn progress(
    database: &Database,
    token_hash: &str,
    kind: &str,
) -> Result<Option<(Session, Option<ProgressRow>)>, ProjectionError> {
    let sql = format!(
        "{SESSION} select s.subject, s.expires_at, s.revoked_at, \
         lp.order_id, lp.status, lp.apply_amount, lp.balance, lp.contract \
         from session s left join loan_progress lp on lp.user_id = s.subject"
    );
    #[derive(sqlx::FromRow)]
    struct Found {
        #[sqlx(flatten)]
        session: Session,
        order_id: Option<String>,
        status: Option<i64>,
        apply_amount: Option<String>,
        balance: Option<String>,
        contract: Option<String>,
    }
    let found: Option<Found> = fetch!(database, &sql, fetch_optional, token_hash, kind);
    Ok(found.map(|f| {
        let progress = (|| {
            Some((
                f.order_id?,
                f.status?,
                f.apply_amount?,
                f.balance?,
                f.contract?,
            ))
        })();
        (f.session, progress)
    }))
}

/// An `order_list` row: order id, status, principal, applied at.
pub type OrderListRow = (String, i64, String, String, String);

/// `/loan/getUserOrderList`: the session and the subject's orders, newest first.
pub async fn orders(
    database: &Database,
    token_hash: &str,
    kind: &str,
) -> Result<Option<(Session, Vec<OrderListRow>)>, ProjectionError> {
    let sql = format!(
        "{SESSION} select s.subject, s.expires_at, s.revoked_at, \
         o.order_id, o.status, o.principal, o.applied_at, o.order_no \
         from session s left join order_list o on o.user_id = s.subject \
         order by o.applied_at desc"
    );
    #[derive(sqlx::FromRow)]
    struct Found {
        #[sqlx(flatten)]
        session: Session,
        order_id: Option<String>,
        status: Option<i64>,
        principal: Option<String>,
        applied_at: Option<String>,
        order_no: Option<String>,
    }
    let found: Vec<Found> = fetch!(database, &sql, fetch_all, token_hash, kind);
    let Some(session) = found.first().map(|f| f.session.clone()) else {
        return Ok(None);
    };
    let orders = found
        .into_iter()
        .filter_map(|f| {
            Some((
                f.order_id?,
                f.status?,
                f.principal?,
                f.applied_at?,
                f.order_no?,
            ))
        })
        .collect();
    Ok(Some((session, orders)))
}

/// `/loan/orderInfo` and the other calls on one order: the session and the
/// `order_detail` document and state of `order_id` (the latest order when `None`),
/// only if it belongs to the session's subject.
pub async fn order(
    database: &Database,
    token_hash: &str,
    kind: &str,
    order_id: Option<&str>,
) -> Result<Option<(Session, Option<(String, String)>)>, ProjectionError> {
    let sql = format!(
        "{SESSION} select s.subject, s.expires_at, s.revoked_at, d.doc, d.state \
         from session s \
         left join loan_progress lp on lp.user_id = s.subject \
         left join order_detail d on d.user_id = s.subject \
             and d.order_id = coalesce($3, lp.order_id)"
    );
    #[derive(sqlx::FromRow)]
    struct Found {
        #[sqlx(flatten)]
        session: Session,
        doc: Option<String>,
        state: Option<String>,
    }
    let found: Option<Found> = fetch!(database, &sql, fetch_optional, token_hash, kind, order_id);
    Ok(found.map(|f| (f.session, f.doc.zip(f.state))))
}
