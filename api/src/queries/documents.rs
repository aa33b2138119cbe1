//! What the PDF documents are made from (`routes::documents`), shaped from the typed
//! queries of [`projections::reads::documents`], and the record of every download
//! (`document_download`, migration 0013), which the api writes.

use crate::db::downloads::{self, NewDownload};
use crate::documents::StatementPosting;
use crate::http::envelope::ApiError;
use crate::runtime::state::AppState;
use projections::reads::documents;
use rust_decimal::Decimal;
use serde::Serialize;
use utoipa::ToSchema;

/// Every posting of the order's journal entries, in journal order (time, entry,
/// posting number).
pub async fn postings(state: &AppState, order_id: &str) -> Result<Vec<StatementPosting>, ApiError> {
    let rows = documents::postings(state.read_models(), order_id).await?;
    rows.into_iter()
        .map(|(at, description, account, amount)| {
            Ok(StatementPosting {
                at: chrono::DateTime::parse_from_rfc3339(&at)?.to_utc(),
                code: projections::read_models::ledger::entry_code(&description)
                    .map(str::to_string),
                description,
                account,
                amount: amount.parse::<Decimal>()?,
            })
        })
        .collect()
}

/// One download to record.
pub struct Download<'a> {
    /// `user:<id>` or `auditor:<id>`.
    pub actor: String,
    /// `contract`, `receipt` or `statement`.
    pub document: &'a str,
    /// The order.
    pub order_id: &'a str,
    /// The receipt's number (receipts only).
    pub receipt_no: Option<&'a str>,
    /// The language it was printed in.
    pub lang: &'a str,
}

/// Records a download (before the document is sent): who, which document, which
/// order, when, in which language, and the request id.
pub async fn record_download(state: &AppState, download: &Download<'_>) -> Result<(), ApiError> {
    let request_id = crate::http::middleware::request_id::current();
    let row = NewDownload {
        actor: &download.actor,
        document: download.document,
        order_id: download.order_id,
        receipt_no: download.receipt_no.unwrap_or_default(),
        lang: download.lang,
        request_id: &request_id,
        at: state.now(),
    };
    downloads::insert(&state.database, &row).await?;
    tracing::info!(
        actor = %download.actor,
        document = download.document,
        order_id = download.order_id,
        receipt_no = download.receipt_no.unwrap_or_default(),
        "document downloaded"
    );
    Ok(())
}

/// One recorded download of an order's document.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DownloadView {
    /// When, RFC 3339 UTC.
    pub at: String,
    /// `user:<id>` or `auditor:<id>`.
    pub actor: String,
    /// The auditor's username (`null` for the borrower, or an auditor no longer known).
    pub actor_name: Option<String>,
    /// `contract`, `receipt` or `statement`.
    pub document: String,
    /// The receipt's number (receipts only).
    pub receipt_no: Option<String>,
    /// The language it was printed in.
    pub lang: String,
    /// The request that downloaded it.
    pub request_id: String,
}

/// The order's downloads, oldest first, with each auditor's username.
pub async fn downloads(state: &AppState, order_id: &str) -> Result<Vec<DownloadView>, ApiError> {
    let rows = documents::downloads(state.read_models(), order_id).await?;
    let names = projections::reads::admin::auditor_names(state.read_models()).await?;
    Ok(rows
        .into_iter()
        .map(|(at, actor, document, receipt_no, lang, request_id)| {
            let actor_name = actor
                .strip_prefix("auditor:")
                .and_then(|id| names.get(id))
                .cloned();
            DownloadView {
                at,
                actor,
                actor_name,
                document,
                receipt_no: (!receipt_no.is_empty()).then_some(receipt_no),
                lang,
                request_id,
            }
        })
        .collect())
}
