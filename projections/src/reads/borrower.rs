//! The borrower's calls (PRODUCT.md 8, 10). The hottest ones fetch the session row
//! with their rows in one statement (issue 14: a query in one round trip): each finds
//! the `auth_token` row of `token_hash` and, joined to it, the read model rows of its
//! subject; `None`: no session row at all. The caller decides from [`Session`]
//! whether the token is live before it uses the rows.
//!
//! Tables: the api's `auth_token` and `sms_outbox`, the read models of
//! [`crate::read_models::users`] and [`crate::read_models::orders`].

use super::Session;
use crate::projection::ProjectionError;
use crate::store::Database;

/// The session of `token_hash` of `kind`, as a CTE the reads join to.
const SESSION: &str = "with session as (\
     select subject, expires_at, revoked_at from auth_token \
     where token_hash = $1 and kind = $2)";

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

/// Which columns of its `order_detail` row an [`order`] call reads. Most calls use
/// one of the two, and each is a few kB that PostgreSQL keeps compressed: a column
/// not read is not decompressed, sent or parsed (issue 14, queries).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderColumns {
    /// The document (`/loan/orderInfo`).
    Doc,
    /// The folded `Order` (a call that decides from it, or names the order).
    State,
    /// Both (the documents of an order).
    Both,
}

impl OrderColumns {
    /// The select list for `doc` and `state`, a typed null for a column not read.
    fn select(self) -> &'static str {
        match self {
            Self::Doc => "d.doc, cast(null as text) as state",
            Self::State => "cast(null as text) as doc, d.state",
            Self::Both => "d.doc, d.state",
        }
    }
}

/// An `order_detail` row as [`order`] read it: the columns asked for, `None` for the
/// others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderRow {
    /// The document (JSON text).
    pub doc: Option<String>,
    /// The folded `Order` (JSON text).
    pub state: Option<String>,
}

/// `/loan/orderInfo` and the other calls on one order: the session and the
/// `order_detail` row of `order_id` (the latest order when `None`), only if it
/// belongs to the session's subject, with the `columns` asked for.
pub async fn order(
    database: &Database,
    token_hash: &str,
    kind: &str,
    order_id: Option<&str>,
    columns: OrderColumns,
) -> Result<Option<(Session, Option<OrderRow>)>, ProjectionError> {
    let sql = format!(
        "{SESSION} select s.subject, s.expires_at, s.revoked_at, d.order_id, {} \
         from session s \
         left join loan_progress lp on lp.user_id = s.subject \
         left join order_detail d on d.user_id = s.subject \
             and d.order_id = coalesce($3, lp.order_id)",
        columns.select()
    );
    #[derive(sqlx::FromRow)]
    struct Found {
        #[sqlx(flatten)]
        session: Session,
        order_id: Option<String>,
        doc: Option<String>,
        state: Option<String>,
    }
    let found: Option<Found> = fetch!(database, &sql, fetch_optional, token_hash, kind, order_id);
    Ok(found.map(|f| {
        let row = f.order_id.map(|_| OrderRow {
            doc: f.doc,
            state: f.state,
        });
        (f.session, row)
    }))
}

/// `/loan/getUserOrderList` for a known user (the console's user page): the
/// `order_list` rows of `user_id`, newest first.
pub async fn order_list(
    database: &Database,
    user_id: &str,
) -> Result<Vec<OrderListRow>, ProjectionError> {
    let sql = "select order_id, status, principal, applied_at, order_no from order_list \
               where user_id = $1 order by applied_at desc";
    Ok(fetch!(database, sql, fetch_all, user_id))
}

/// `/loan/orderTimeline` (and the console's order page): the order's
/// `order_timeline` rows, (doc, actor), in order.
pub async fn timeline(
    database: &Database,
    order_id: &str,
) -> Result<Vec<(String, String)>, ProjectionError> {
    let sql = "select doc, actor from order_timeline where order_id = $1 order by sequence";
    Ok(fetch!(database, sql, fetch_all, order_id))
}

/// `/user/getLastWithdrawError`: the message, `None` when there is none.
pub async fn last_withdraw_error(
    database: &Database,
    user_id: &str,
) -> Result<Option<String>, ProjectionError> {
    let sql = "select message from last_withdraw_error where user_id = $1";
    Ok(fetch_scalar!(database, sql, fetch_optional, user_id))
}

/// The newest `limit` texts written to `mobile` by the default sender, as (UTC time
/// as stored, body), newest first (the demo SMS inbox).
pub async fn sms_messages(
    database: &Database,
    mobile: &str,
    limit: i64,
) -> Result<Vec<(String, String)>, ProjectionError> {
    let sql = "select created_at, body from sms_outbox where mobile = $1 \
               order by created_at desc limit $2";
    Ok(fetch!(database, sql, fetch_all, mobile, limit))
}

/// The user id holding the phone number `mobile` (the api's `user_mobile` claim).
pub async fn user_by_mobile(
    database: &Database,
    mobile: &str,
) -> Result<Option<String>, ProjectionError> {
    let sql = "select user_id from user_mobile where mobile = $1";
    Ok(fetch_scalar!(database, sql, fetch_optional, mobile))
}

/// The `user_profile` document of `user_id` and the id of their latest order
/// (`loan_progress`), in one statement; `None` without a profile.
pub async fn user_doc(
    database: &Database,
    user_id: &str,
) -> Result<Option<(String, Option<String>)>, ProjectionError> {
    let sql = "select p.doc, lp.order_id from user_profile p \
               left join loan_progress lp on lp.user_id = p.user_id where p.user_id = $1";
    Ok(fetch!(database, sql, fetch_optional, user_id))
}
