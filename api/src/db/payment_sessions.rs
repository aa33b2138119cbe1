//! `payment_session`: the payment pages the api opened (one row per session the Order
//! opened), with what a verified webhook said of them. The statements of
//! `crate::payment`, which holds the flow.

use chrono::{DateTime, Utc};
use projections::projection::{money_text, time_text};
use projections::store::Database;
use uuid::Uuid;

use super::with_pool;
use crate::payment::webhook::Outcome;
use crate::payment::{PaymentSession, SessionStatus};

/// Stores `session` (opened at its `created_at`), unless a session of its id is
/// stored already (a repeat of the request).
pub async fn insert(database: &Database, session: &PaymentSession) -> Result<u64, sqlx::Error> {
    let sql = "insert into payment_session \
               (session_id, user_id, order_id, amount, status, payment_ref, created_at, updated_at) \
               values ($1, $2, $3, $4, $5, null, $6, $6) on conflict (session_id) do nothing";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(session.session_id.to_string())
        .bind(session.user_id.to_string())
        .bind(session.order_id.to_string())
        .bind(money_text(session.amount))
        .bind(SessionStatus::Open.as_str())
        .bind(&session.created_at)
        .execute(pool)
        .await.map(|r| r.rows_affected()))
}

/// Marks an open session `replaced` at `now` (a newer page replaced it, the Order's
/// `PaymentSessionReplaced`); a paid or failed one keeps its outcome.
pub async fn replace(
    database: &Database,
    session_id: Uuid,
    now: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let sql = "update payment_session set status = 'replaced', updated_at = $1 \
               where session_id = $2 and status = 'open'";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(time_text(now))
        .bind(session_id.to_string())
        .execute(pool)
        .await.map(|r| r.rows_affected()))
}

/// A stored session, as its columns hold it.
#[derive(Debug, sqlx::FromRow)]
pub struct SessionRow {
    /// The borrower.
    pub user_id: String,
    /// The order repaid.
    pub order_id: String,
    /// The amount asked for, two decimals.
    pub amount: String,
    /// `open`, `paid`, `failed` or `replaced`.
    pub status: String,
    /// The provider's payment reference, once reported.
    pub payment_ref: Option<String>,
    /// When it was opened.
    pub created_at: String,
}

/// The session `session_id`, if stored.
pub async fn find(
    database: &Database,
    session_id: Uuid,
) -> Result<Option<SessionRow>, sqlx::Error> {
    let sql = "select user_id, order_id, amount, status, payment_ref, created_at \
               from payment_session where session_id = $1";
    with_pool!(database, pool =>
        sqlx::query_as(sql).bind(session_id.to_string()).fetch_optional(pool).await)
}

/// Records a verified `outcome` on the session at `now`: `paid` from anything but
/// paid (money received wins), `failed` only from open (keeping a reference already
/// reported).
pub async fn mark(
    database: &Database,
    session_id: Uuid,
    outcome: Outcome,
    payment_ref: Option<&str>,
    now: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let sql = match outcome {
        Outcome::Paid => {
            "update payment_session set status = 'paid', payment_ref = $1, updated_at = $2 \
             where session_id = $3 and status <> 'paid'"
        }
        Outcome::Failed => {
            "update payment_session set status = 'failed', payment_ref = coalesce(payment_ref, $1), \
             updated_at = $2 where session_id = $3 and status = 'open'"
        }
    };
    with_pool!(database, pool => sqlx::query(sql)
        .bind(payment_ref)
        .bind(time_text(now))
        .bind(session_id.to_string())
        .execute(pool)
        .await.map(|r| r.rows_affected()))
}
