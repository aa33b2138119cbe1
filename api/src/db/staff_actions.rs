//! `staff_action`: the audit trail of console calls (issue 55), one row per call a
//! staff member made (refused ones too), written by
//! `crate::http::middleware::staff_trail` after the answer, never updated or deleted.

use chrono::{DateTime, Utc};
use projections::projection::time_text;
use projections::store::Database;
use uuid::Uuid;

use super::with_pool;

/// One call, as recorded.
#[derive(Debug, Clone)]
pub struct NewAction<'a> {
    /// When it was answered.
    pub at: DateTime<Utc>,
    /// Who made it.
    pub auditor_id: Uuid,
    /// The client address (`unknown` without one).
    pub client_ip: &'a str,
    /// The path, e.g. `/admin/api/users/hold`.
    pub call: &'a str,
    /// The order it named, if any.
    pub order_id: Option<&'a str>,
    /// The borrower it named, if any.
    pub user_id: Option<&'a str>,
    /// Anything else it named (a staff account, a username).
    pub target: Option<&'a str>,
    /// The answer's code (0 success; PRODUCT.md 9).
    pub code: u32,
}

/// Records `action` under a new UUID v7.
pub async fn insert(database: &Database, action: &NewAction<'_>) -> Result<(), sqlx::Error> {
    let sql = "insert into staff_action \
               (action_id, at, auditor_id, client_ip, call, order_id, user_id, target, code) \
               values ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(Uuid::now_v7().to_string())
        .bind(time_text(action.at))
        .bind(action.auditor_id.to_string())
        .bind(action.client_ip)
        .bind(action.call)
        .bind(action.order_id)
        .bind(action.user_id)
        .bind(action.target)
        .bind(i64::from(action.code))
        .execute(pool)
        .await
        .map(|_| ()))
}

/// Which actions to read: each filter set narrows; `before` pages back.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// The staff member's username.
    pub username: Option<String>,
    /// A borrower's id.
    pub user_id: Option<String>,
    /// An order's id.
    pub order_id: Option<String>,
    /// Only actions older than this action id.
    pub before: Option<String>,
}

/// One recorded action with its staff member's username.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Action {
    /// UUID v7.
    pub action_id: String,
    /// RFC 3339 UTC.
    pub at: String,
    /// Who.
    pub auditor_id: String,
    /// Their username (`?` if the account is gone).
    pub username: String,
    /// From where.
    pub client_ip: String,
    /// The path.
    pub call: String,
    /// The order named.
    pub order_id: Option<String>,
    /// The borrower named.
    pub user_id: Option<String>,
    /// Anything else named.
    pub target: Option<String>,
    /// The answer's code.
    pub code: i64,
}

/// The newest `limit` actions matching `filter`, newest first.
pub async fn actions(
    database: &Database,
    filter: &Filter,
    limit: i64,
) -> Result<Vec<Action>, sqlx::Error> {
    let sql = "select s.action_id, s.at, s.auditor_id, coalesce(a.username, '?') as username, \
               s.client_ip, s.call, s.order_id, s.user_id, s.target, s.code \
               from staff_action s left join auditor a on a.auditor_id = s.auditor_id \
               where ($1 is null or a.username = $1) and ($2 is null or s.user_id = $2) \
               and ($3 is null or s.order_id = $3) and ($4 is null or s.action_id < $4) \
               order by s.action_id desc limit $5";
    with_pool!(database, pool => sqlx::query_as(sql)
        .bind(filter.username.as_deref())
        .bind(filter.user_id.as_deref())
        .bind(filter.order_id.as_deref())
        .bind(filter.before.as_deref())
        .bind(limit)
        .fetch_all(pool)
        .await)
}
