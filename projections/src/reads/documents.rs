//! What the PDF documents are printed from: the order's receipts
//! ([`crate::read_models::receipts`]), its journal ([`crate::read_models::ledger`]) and the api's record of
//! every download (`document_download`, migration 0013).

use crate::projection::ProjectionError;
use crate::read_models::receipts::Receipt;
use crate::store::Database;

fn parse(doc: &str) -> Result<Receipt, ProjectionError> {
    serde_json::from_str(doc).map_err(|source| ProjectionError::Stored {
        what: "receipt",
        source,
    })
}

/// The order's receipts, oldest first.
pub async fn receipts(
    database: &Database,
    order_id: &str,
) -> Result<Vec<Receipt>, ProjectionError> {
    let sql = "select doc from receipt where order_id = $1 order by at, receipt_no";
    let docs: Vec<String> = fetch_scalar!(database, sql, fetch_all, order_id);
    docs.iter().map(|doc| parse(doc)).collect()
}

/// One receipt of the order, by its number; `None` when the order has none such.
pub async fn receipt(
    database: &Database,
    order_id: &str,
    receipt_no: &str,
) -> Result<Option<Receipt>, ProjectionError> {
    let sql = "select doc from receipt where order_id = $1 and receipt_no = $2";
    let doc: Option<String> = fetch_scalar!(database, sql, fetch_optional, order_id, receipt_no);
    doc.as_deref().map(parse).transpose()
}

/// A journal posting of an order as a statement prints it: time (RFC 3339 UTC),
/// description, account, signed amount text (two decimals, debits positive).
pub type PostingLine = (String, String, String, String);

/// Every posting of the order's journal entries, in journal order (time, entry,
/// posting number).
pub async fn postings(
    database: &Database,
    order_id: &str,
) -> Result<Vec<PostingLine>, ProjectionError> {
    let sql = "select at, description, account, amount from ledger_journal \
               where order_id = $1 order by at, entry_id, posting_no";
    Ok(fetch!(database, sql, fetch_all, order_id))
}

/// A recorded download: time, actor (`user:<id>`, `auditor:<id>`), document,
/// receipt number (empty but for receipts), language, request id.
pub type DownloadRow = (String, String, String, String, String, String);

/// The order's recorded downloads, oldest first.
pub async fn downloads(
    database: &Database,
    order_id: &str,
) -> Result<Vec<DownloadRow>, ProjectionError> {
    let sql = "select at, actor, document, receipt_no, lang, request_id from document_download \
               where order_id = $1 order by at, download_id";
    Ok(fetch!(database, sql, fetch_all, order_id))
}
