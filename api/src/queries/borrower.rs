//! The borrower's read models, as the borrower calls read them (PRODUCT.md 8, 10):
//! every SQL query of the borrower routes. Read models lag the log by a step of the
//! workers; nothing here decides a rule (DESIGN.md "Where each rule lives").

use aggregates::order::Order;
use aggregates::ErrorCode;
use serde_json::{json, Value as Json};
use uuid::Uuid;

use projections::reads::{self, OrderListRow};

use crate::auth::{self, BorrowerToken, TokenKind};
use crate::db::with_pool;
use crate::envelope::ApiError;
use crate::state::AppState;

/// The session kind every read here checks.
const BORROWER: &str = TokenKind::Borrower.as_str();

/// `/loan/getLoanProgress`: {status, applyAmount, balance, orderId, contract} of the
/// latest order, or `None` without one.
pub async fn loan_progress(
    state: &AppState,
    token: &BorrowerToken,
) -> Result<Option<Json>, ApiError> {
    let found = reads::progress(&state.database, &token.hash, BORROWER).await?;
    let (session, row) = found.unzip();
    auth::check(state, session)?;
    Ok(row.flatten().map(|(order_id, status, apply_amount, balance, contract)| {
        json!({ "orderId": order_id, "status": status, "applyAmount": apply_amount, "balance": balance, "contract": contract })
    }))
}

/// `/loan/getUserOrderList`: {orderId, status, principal, applyTime}, newest first.
pub async fn order_list(state: &AppState, user_id: Uuid) -> Result<Vec<Json>, ApiError> {
    let sql = "select order_id, status, principal, applied_at, order_no from order_list where user_id = $1 order by applied_at desc";
    let rows: Vec<OrderListRow> = with_pool!(&state.database, pool =>
        sqlx::query_as(sql).bind(user_id.to_string()).fetch_all(pool).await)?;
    Ok(order_list_docs(rows))
}

/// [`order_list`] of the token's borrower, with the session check in the same statement.
pub async fn own_order_list(
    state: &AppState,
    token: &BorrowerToken,
) -> Result<Vec<Json>, ApiError> {
    let found = reads::orders(&state.database, &token.hash, BORROWER).await?;
    let (session, rows) = found.unzip();
    auth::check(state, session)?;
    Ok(order_list_docs(rows.unwrap_or_default()))
}

fn order_list_docs(rows: Vec<OrderListRow>) -> Vec<Json> {
    rows
        .into_iter()
        .map(|(order_id, status, principal, applied_at, order_no)| {
            json!({ "orderId": order_id, "orderNo": order_no, "status": status, "principal": principal, "applyTime": applied_at })
        })
        .collect()
}

/// `/loan/orderTimeline`: the order's events as the borrower sees them; who acted is
/// given by role, never an auditor's identity.
pub async fn order_timeline(state: &AppState, order_id: &str) -> Result<Vec<Json>, ApiError> {
    let sql = "select doc, actor from order_timeline where order_id = $1 order by sequence";
    let rows: Vec<(String, String)> = with_pool!(&state.database, pool =>
        sqlx::query_as(sql).bind(order_id).fetch_all(pool).await)?;
    Ok(rows
        .into_iter()
        .map(|(doc, actor)| {
            let mut doc: Json = serde_json::from_str(&doc).unwrap_or(Json::Null);
            doc["by"] = json!(actor.split(':').next().unwrap_or("system"));
            doc
        })
        .collect())
}

/// `/user/getLastWithdrawError`: the text, empty when none.
pub async fn last_withdraw_error(state: &AppState, user_id: Uuid) -> Result<String, ApiError> {
    let sql = "select message from last_withdraw_error where user_id = $1";
    let message: Option<String> = with_pool!(&state.database, pool =>
        sqlx::query_scalar(sql).bind(user_id.to_string()).fetch_optional(pool).await)?;
    Ok(message.unwrap_or_default())
}

/// The token's borrower and their order (the given one, or the latest), as
/// `(user id, doc, state)`, with the session check in the same statement.
/// Errors: those of [`auth::check`]; 40007 when the order does not exist or belongs
/// to someone else.
pub async fn own_order(
    state: &AppState,
    token: &BorrowerToken,
    order_id: Option<&str>,
) -> Result<(Uuid, Json, Order), ApiError> {
    let order_id = order_id.filter(|id| !id.is_empty());
    let found = reads::order(&state.database, &token.hash, BORROWER, order_id).await?;
    let (session, detail) = found.unzip();
    let user_id = auth::check(state, session)?;
    let (doc, order) = detail
        .flatten()
        .ok_or_else(|| ApiError::code(ErrorCode::RecordNotFound))?;
    let doc = serde_json::from_str(&doc).map_err(ApiError::internal)?;
    let order = serde_json::from_str(&order).map_err(ApiError::internal)?;
    Ok((user_id, doc, order))
}

/// The newest `limit` messages the default sender wrote for `mobile`: (UTC time as
/// stored, body), newest first (the demo SMS inbox).
pub async fn sms_messages(
    state: &AppState,
    mobile: &str,
    limit: i64,
) -> Result<Vec<(String, String)>, ApiError> {
    let sql = "select created_at, body from sms_outbox where mobile = $1 \
               order by created_at desc limit $2";
    let rows: Vec<(String, String)> = with_pool!(&state.database, pool =>
        sqlx::query_as(sql).bind(mobile).bind(limit).fetch_all(pool).await)?;
    Ok(rows)
}

/// The user id that holds this phone number.
pub async fn user_by_mobile(state: &AppState, mobile: &str) -> Result<Option<Uuid>, ApiError> {
    let sql = "select user_id from user_mobile where mobile = $1";
    let id: Option<String> = with_pool!(&state.database, pool =>
        sqlx::query_scalar(sql).bind(mobile).fetch_optional(pool).await)?;
    Ok(id.and_then(|id| Uuid::parse_str(&id).ok()))
}

/// The borrower's `user_profile` document, with `lastOrderId` from `loan_progress`.
pub async fn user_doc(state: &AppState, user_id: Uuid) -> Result<serde_json::Value, ApiError> {
    let sql = "select doc from user_profile where user_id = $1";
    let doc: Option<String> = with_pool!(&state.database, pool =>
        sqlx::query_scalar(sql).bind(user_id.to_string()).fetch_optional(pool).await)?;
    let latest = "select order_id from loan_progress where user_id = $1";
    let last_order: Option<String> = with_pool!(&state.database, pool =>
        sqlx::query_scalar(latest).bind(user_id.to_string()).fetch_optional(pool).await)?;
    profile_doc(doc, last_order)
}

/// [`user_doc`] of the token's borrower, with the session check in the same statement.
pub async fn own_user_doc(state: &AppState, token: &BorrowerToken) -> Result<Json, ApiError> {
    let found = reads::profile(&state.database, &token.hash, BORROWER).await?;
    let (session, doc, last_order) = match found {
        Some((session, doc, last_order)) => (Some(session), doc, last_order),
        None => (None, None, None),
    };
    auth::check(state, session)?;
    profile_doc(doc, last_order)
}

fn profile_doc(doc: Option<String>, last_order: Option<String>) -> Result<Json, ApiError> {
    let doc = doc.ok_or_else(|| ApiError::code(ErrorCode::CouldNotGetUserInfo))?;
    let mut doc: serde_json::Value = serde_json::from_str(&doc).map_err(ApiError::internal)?;
    doc["lastOrderId"] = json!(last_order);
    // No credit scoring model is configured; the score is not invented.
    doc["creditScore"] = json!(null);
    Ok(doc)
}

/// The borrower's registered phone number (from `user_profile`).
pub async fn mobile_of(state: &AppState, user_id: Uuid) -> Result<String, ApiError> {
    let doc = user_doc(state, user_id).await?;
    Ok(doc["mobile"].as_str().unwrap_or_default().to_string())
}
