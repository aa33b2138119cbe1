//! `data_export`: the record of every export of a borrower's personal data (PRODUCT.md
//! 12.6), written before it is sent and never updated or deleted. Read back through
//! `projections::reads::export`.

use chrono::{DateTime, Utc};
use projections::projection::time_text;
use projections::store::Database;
use uuid::Uuid;

use super::with_pool;

/// Records an export of `user_id`'s data by `actor` (`user:<id>` or `auditor:<id>`)
/// at `at`, by the request `request_id`, under a new id.
pub async fn insert(
    database: &Database,
    actor: &str,
    user_id: Uuid,
    at: DateTime<Utc>,
    request_id: &str,
) -> Result<(), sqlx::Error> {
    let sql = "insert into data_export (export_id, at, actor, user_id, request_id) \
               values ($1, $2, $3, $4, $5)";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(Uuid::now_v7().to_string())
        .bind(time_text(at))
        .bind(actor)
        .bind(user_id.to_string())
        .bind(request_id)
        .execute(pool)
        .await
        .map(|_| ()))
}
