//! `document_download` (migration 0013): the record of every PDF document sent,
//! written before it is sent and never updated or deleted. Read back through
//! `projections::reads::documents`.

use chrono::{DateTime, Utc};
use projections::projection::time_text;
use projections::store::Database;
use uuid::Uuid;

use super::with_pool;

/// One download to record.
pub struct NewDownload<'a> {
    /// `user:<id>` or `auditor:<id>`.
    pub actor: &'a str,
    /// `contract`, `receipt` or `statement`.
    pub document: &'a str,
    /// The order.
    pub order_id: &'a str,
    /// The receipt's number (empty but for receipts).
    pub receipt_no: &'a str,
    /// The language it was printed in.
    pub lang: &'a str,
    /// The request that downloads it.
    pub request_id: &'a str,
    /// When.
    pub at: DateTime<Utc>,
}

/// Records `download` under a new id.
pub async fn insert(database: &Database, download: &NewDownload<'_>) -> Result<(), sqlx::Error> {
    let sql = "insert into document_download \
               (download_id, at, actor, document, order_id, receipt_no, lang, request_id) \
               values ($1, $2, $3, $4, $5, $6, $7, $8)";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(Uuid::now_v7().to_string())
        .bind(time_text(download.at))
        .bind(download.actor)
        .bind(download.document)
        .bind(download.order_id)
        .bind(download.receipt_no)
        .bind(download.lang)
        .bind(download.request_id)
        .execute(pool)
        .await
        .map(|_| ()))
}
