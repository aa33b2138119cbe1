//! The orders the scheduler and the reminder pass visit. Each command they send is
//! decided by the order from its own state; these rows only say whom to ask.

use aggregates::order::OrderStatus;

use crate::projection::ProjectionError;
use crate::store::Database;

/// The `order_detail` rows of the orders in `status`: (order id, doc).
pub async fn orders_in_status(
    database: &Database,
    status: OrderStatus,
) -> Result<Vec<(String, String)>, ProjectionError> {
    let sql = "select order_id, doc from order_detail where status = $1";
    Ok(fetch!(database, sql, fetch_all, i64::from(status.code())))
}

/// The ids of the orders in `status`.
pub async fn order_ids_in_status(
    database: &Database,
    status: OrderStatus,
) -> Result<Vec<String>, ProjectionError> {
    let sql = "select order_id from order_detail where status = $1";
    Ok(fetch_scalar!(
        database,
        sql,
        fetch_all,
        i64::from(status.code())
    ))
}

/// The reminder notices recorded at or after `start` (RFC 3339 UTC):
/// (order id, installment, kind).
pub async fn notices_since(
    database: &Database,
    start: &str,
) -> Result<Vec<(String, i64, String)>, ProjectionError> {
    let sql = "select order_id, period, kind from notice where created_at >= $1";
    Ok(fetch!(database, sql, fetch_all, start))
}
