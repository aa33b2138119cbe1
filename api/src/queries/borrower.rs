//! The borrower's read models, as the borrower calls read them (PRODUCT.md 8, 10):
//! every SQL query of the borrower routes. Read models lag the log by a step of the
//! workers; nothing here decides a rule (DESIGN.md "Where each rule lives").

use aggregates::order::Order;
use aggregates::ErrorCode;
use serde_json::{json, Value as Json};
use uuid::Uuid;

use crate::db::with_pool;
use crate::envelope::ApiError;
use crate::state::AppState;

/// `/loan/getLoanProgress`: {status, applyAmount, balance, orderId, contract} of the
/// latest order, or `None` without one.
pub async fn loan_progress(state: &AppState, user_id: Uuid) -> Result<Option<Json>, ApiError> {
    let sql = "select order_id, status, apply_amount, balance, contract from loan_progress where user_id = $1";
    let row: Option<(String, i64, String, String, String)> = with_pool!(&state.database, pool =>
        sqlx::query_as(sql).bind(user_id.to_string()).fetch_optional(pool).await)?;
    Ok(row.map(|(order_id, status, apply_amount, balance, contract)| {
        json!({ "orderId": order_id, "status": status, "applyAmount": apply_amount, "balance": balance, "contract": contract })
    }))
}

/// `/loan/getUserOrderList`: {orderId, status, principal, applyTime}, newest first.
pub async fn order_list(state: &AppState, user_id: Uuid) -> Result<Vec<Json>, ApiError> {
    let sql = "select order_id, status, principal, applied_at from order_list where user_id = $1 order by applied_at desc";
    let rows: Vec<(String, i64, String, String)> = with_pool!(&state.database, pool =>
        sqlx::query_as(sql).bind(user_id.to_string()).fetch_all(pool).await)?;
    Ok(rows
        .into_iter()
        .map(|(order_id, status, principal, applied_at)| {
            json!({ "orderId": order_id, "status": status, "principal": principal, "applyTime": applied_at })
        })
        .collect())
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

/// The borrower's order (the given one, or the latest), as `(doc, state)`.
/// Error 40007 when it does not exist or belongs to someone else.
pub async fn own_order(
    state: &AppState,
    user_id: Uuid,
    order_id: Option<&str>,
) -> Result<(Json, Order), ApiError> {
    let not_found = || ApiError::code(ErrorCode::RecordNotFound);
    let order_id = match order_id.filter(|id| !id.is_empty()) {
        Some(id) => id.to_string(),
        None => {
            let sql = "select order_id from loan_progress where user_id = $1";
            let latest: Option<String> = with_pool!(&state.database, pool =>
                sqlx::query_scalar(sql).bind(user_id.to_string()).fetch_optional(pool).await)?;
            latest.ok_or_else(not_found)?
        }
    };
    let sql = "select doc, state from order_detail where order_id = $1 and user_id = $2";
    let row: Option<(String, String)> = with_pool!(&state.database, pool =>
        sqlx::query_as(sql).bind(&order_id).bind(user_id.to_string()).fetch_optional(pool).await)?;
    let (doc, order) = row.ok_or_else(not_found)?;
    let doc = serde_json::from_str(&doc).map_err(ApiError::internal)?;
    let order = serde_json::from_str(&order).map_err(ApiError::internal)?;
    Ok((doc, order))
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
    let doc = doc.ok_or_else(|| ApiError::code(ErrorCode::CouldNotGetUserInfo))?;
    let mut doc: serde_json::Value = serde_json::from_str(&doc).map_err(ApiError::internal)?;
    let latest = "select order_id from loan_progress where user_id = $1";
    let last_order: Option<String> = with_pool!(&state.database, pool =>
        sqlx::query_scalar(latest).bind(user_id.to_string()).fetch_optional(pool).await)?;
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
