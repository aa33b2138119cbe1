//! The orders the scheduler and the reminder pass visit. Each command they send is
//! decided by the order from its own state; these rows only say whom to ask.

use aggregates::order::OrderStatus;
use chrono::{DateTime, Utc};

use crate::projection::{time_text, ProjectionError};
use crate::store::Database;

/// The orders in `status` a scheduler pass visits at `now`: those whose next scheduled
/// moment (`order_detail.next_scheduled_at`, `Order::next_scheduled_at`, migration
/// 0016) has come, and rows written before that column existed. (order id, the folded
/// `Order` as JSON.) On the `(status, next_scheduled_at)` index, so a pass reads the
/// orders due, not every offer or loan.
pub async fn orders_due(
    database: &Database,
    status: OrderStatus,
    now: DateTime<Utc>,
) -> Result<Vec<(String, String)>, ProjectionError> {
    let sql = "select order_id, state from order_detail \
               where status = $1 and next_scheduled_at <= $2";
    let status = i64::from(status.code());
    Ok(fetch!(database, sql, fetch_all, status, time_text(now)))
}
