//! The orders the scheduler and the reminder pass visit. Each command they send is
//! decided by the order from its own state; these rows only say whom to ask.

use aggregates::order::OrderStatus;
use chrono::NaiveDate;

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

/// The disbursed loans a scheduler pass visits on `today` (UTC): those whose next
/// scheduled day (`order_detail.next_scheduled_on`, `Order::next_scheduled_day`,
/// migration 0016) has come, and rows written before that column existed.
/// (order id, the folded `Order` as JSON.) On the `(status, next_scheduled_on)`
/// index, so a pass reads the loans due, not every loan.
pub async fn loans_due(
    database: &Database,
    today: NaiveDate,
) -> Result<Vec<(String, String)>, ProjectionError> {
    let sql = "select order_id, state from order_detail \
               where status = $1 and next_scheduled_on <= $2";
    let today = today.format("%Y-%m-%d").to_string();
    let status = i64::from(OrderStatus::Disbursed.code());
    Ok(fetch!(database, sql, fetch_all, status, today))
}
