//! What each document is made from, gathered once for whoever asks (the borrower for
//! an order of their own, an auditor for any), and the one way a document leaves:
//! recorded, then rendered off the async threads, then sent (PRODUCT.md 12.5). The
//! routes (`routes::documents`) only pick who asks and which document; the renderers
//! ([`super::Documents`]) take the facts as plain values.

use aggregates::order::Order;
use aggregates::ErrorCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use projections::read_models::receipts::Receipt;
use projections::reads::documents as document_rows;
use serde::Serialize;
use serde_json::Value as Json;
use utoipa::ToSchema;

use super::{
    disclosure_sha256, ContractFacts, DueInstallment, Header, Lang, PaidOut, ReceiptFacts,
    StatementFacts,
};
use crate::http::auth::{Auditor, BorrowerToken};
use crate::http::envelope::ApiError;
use crate::queries::documents::{self as queries, Download};
use crate::runtime::state::AppState;

/// Which document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The signed contract.
    Contract,
    /// An official receipt of a payment or a refund.
    Receipt,
    /// The statement of account.
    Statement,
}

impl Kind {
    /// The name recorded with a download.
    fn name(self) -> &'static str {
        match self {
            Kind::Contract => "contract",
            Kind::Receipt => "receipt",
            Kind::Statement => "statement",
        }
    }
}

/// An order someone may read, as the documents need it: who asks (for the download
/// record), the order's read-model document and its write-side state, and the
/// language to print in.
pub struct DocumentRequest {
    /// `user:<id>` or `auditor:<id>`.
    pub actor: String,
    /// The order id.
    pub order_id: String,
    doc: Json,
    order: Order,
    /// The language to print in.
    pub lang: Lang,
}

/// The borrower's own order (`order_id`, or the latest when `None`), read with the
/// session check. Errors: 40007 no such order of this borrower; 20001 or 7 for a
/// session that is no longer live.
pub async fn for_borrower(
    state: &AppState,
    token: &BorrowerToken,
    order_id: Option<&str>,
    lang: Lang,
) -> Result<DocumentRequest, ApiError> {
    use crate::queries::borrower::{own_order, OrderColumns};
    let own = own_order(state, token, order_id, OrderColumns::Both).await?;
    let (user_id, doc, order) = (own.user_id, own.doc()?, own.order()?);
    let order_id = order
        .id
        .ok_or_else(|| ApiError::code(ErrorCode::RecordNotFound))?
        .to_string();
    Ok(DocumentRequest {
        actor: format!("user:{user_id}"),
        order_id,
        doc,
        order,
        lang,
    })
}

/// Any order, for an auditor. Errors: 40007 unknown, or an id that is no UUID.
pub async fn for_auditor(
    state: &AppState,
    auditor: &Auditor,
    order_id: &str,
    lang: Lang,
) -> Result<DocumentRequest, ApiError> {
    let not_found = || ApiError::new(ErrorCode::RecordNotFound, "record not found: order");
    let order_id = uuid::Uuid::parse_str(order_id.trim())
        .map_err(|_| not_found())?
        .to_string();
    let (doc, order) = projections::reads::admin::order_row(state.read_models(), &order_id)
        .await?
        .ok_or_else(not_found)?;
    Ok(DocumentRequest {
        actor: format!("auditor:{}", auditor.auditor_id),
        order_id,
        doc: serde_json::from_str(&doc)?,
        order: serde_json::from_str(&order)?,
        lang,
    })
}

/// What every document of the order says at the top and bottom. 40007 for an order
/// without a signed disclosure (there is nothing to print).
fn header(state: &AppState, request: &DocumentRequest) -> Result<Header, ApiError> {
    let signed = request.order.disclosure.as_ref().ok_or_else(|| {
        ApiError::new(
            ErrorCode::RecordNotFound,
            "record not found: no signed contract",
        )
    })?;
    Ok(Header {
        lender: state.config.lender.clone(),
        order_no: request.doc["orderNo"]
            .as_str()
            .filter(|no| !no.is_empty())
            .map_or_else(|| request.order_id.clone(), str::to_string),
        borrower_name: request.order.applicant_name.clone(),
        currency: state.config.currency.code.clone(),
        currency_symbol: state.config.currency.symbol.clone(),
        time_zone: state.config.time_zone,
        issued_at: state.now(),
        disclosure_sha256: disclosure_sha256(signed),
    })
}

/// Records the download, renders off the async threads, answers the PDF.
async fn deliver(
    state: &AppState,
    request: &DocumentRequest,
    kind: Kind,
    receipt_no: Option<&str>,
    file_name: String,
    render: impl FnOnce(&super::Documents) -> Result<Vec<u8>, super::RenderError> + Send + 'static,
) -> Result<Response, ApiError> {
    let download = Download {
        actor: request.actor.clone(),
        document: kind.name(),
        order_id: &request.order_id,
        receipt_no,
        lang: request.lang.code(),
    };
    queries::record_download(state, &download).await?;
    let documents = state.documents.clone();
    let bytes = tokio::task::spawn_blocking(move || render(&documents)).await??;
    let disposition = format!("attachment; filename=\"{file_name}\"");
    let headers = [
        (CONTENT_TYPE, "application/pdf".to_string()),
        (CONTENT_DISPOSITION, disposition),
        (CACHE_CONTROL, "no-store".to_string()),
    ];
    Ok((headers, bytes).into_response())
}

/// The signed contract: the disclosure as signed with its schedule, the loan as paid
/// out, and the signature image (printed without it, and logged, when the object
/// store cannot give it back).
pub async fn contract(state: &AppState, request: DocumentRequest) -> Result<Response, ApiError> {
    let mut header = header(state, &request)?;
    let order = &request.order;
    let signed = order
        .disclosure
        .clone()
        .unwrap_or_else(|| unreachable!("checked by header"));
    // The contract names the lender the borrower signed with.
    header.lender = signed.lender.clone();
    let signature_png = match &order.signature {
        Some(image) => match crate::providers::storage::get(&state.storage, &image.key).await {
            Ok(bytes) => bytes,
            Err(error) => {
                tracing::warn!(%error, key = %image.key, "signature image unreadable; contract printed without it");
                None
            }
        },
        None => None,
    };
    let paid_out = order.loan.as_ref().map(|loan| PaidOut {
        paid_at: loan.paid_at,
        disclosure: loan.disclosure.clone(),
        schedule: loan
            .schedule
            .iter()
            // What a payment plan replaced before anything was paid on it is not
            // owed: the plan's installments follow.
            .filter(|i| !(i.replaced && i.paid.is_zero()))
            .map(|i| DueInstallment {
                period: i.period,
                due_date: i.due_date,
                // What it asks for: a plan's installments carry the fees not waived.
                amount: i.due(),
            })
            .collect(),
    });
    let facts = ContractFacts {
        product_name: order.product_name.clone(),
        signed_at: order.applied_at.unwrap_or(header.issued_at),
        terms_version: order.terms_version.clone(),
        signed,
        signature_png,
        paid_out,
        amendments: order.collection.amendments.clone(),
        header,
    };
    let file_name = format!("contract-{}.pdf", facts.header.order_no);
    let lang = request.lang;
    let render = move |d: &super::Documents| d.contract(&facts, lang);
    deliver(state, &request, Kind::Contract, None, file_name, render).await
}

/// An official receipt of the order, by its number. 40007 when the order has none of
/// that number.
pub async fn receipt(
    state: &AppState,
    request: DocumentRequest,
    receipt_no: &str,
) -> Result<Response, ApiError> {
    let header = header(state, &request)?;
    state.read_models_at_head().await?;
    let receipt = document_rows::receipt(state.read_models(), &request.order_id, receipt_no)
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::RecordNotFound, "record not found: receipt"))?;
    let due_dates = request
        .order
        .loan
        .as_ref()
        .map(|loan| {
            loan.schedule
                .iter()
                .map(|i| (i.period, i.due_date))
                .collect()
        })
        .unwrap_or_default();
    let facts = ReceiptFacts {
        header,
        receipt,
        due_dates,
    };
    let file_name = format!("receipt-{receipt_no}.pdf");
    let lang = request.lang;
    let render = move |d: &super::Documents| d.receipt(&facts, lang);
    let kind = Kind::Receipt;
    deliver(state, &request, kind, Some(receipt_no), file_name, render).await
}

/// The statement of account: the postings of the order's loan account and its
/// receipts (the renderer keeps the borrower's movements).
pub async fn statement(state: &AppState, request: DocumentRequest) -> Result<Response, ApiError> {
    let header = header(state, &request)?;
    // The books as of the request: a payment settled a moment ago by the loan
    // process shows, though no command of the caller waited for it.
    state.read_models_at_head().await?;
    let facts = StatementFacts {
        receivable_account: projections::read_models::ledger::loan_receivable(&request.order_id),
        postings: queries::postings(state, &request.order_id).await?,
        receipts: document_rows::receipts(state.read_models(), &request.order_id).await?,
        header,
    };
    let file_name = format!("statement-{}.pdf", facts.header.order_no);
    let lang = request.lang;
    let render = move |d: &super::Documents| d.statement(&facts, lang);
    deliver(state, &request, Kind::Statement, None, file_name, render).await
}

/// One receipt of an order as the list calls answer it. Amounts are decimal strings,
/// times RFC 3339 UTC.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReceiptView {
    /// The receipt's number (`OR-2611-000157` a payment, `RF-…` a refund).
    #[schema(example = "OR-2611-000157")]
    pub receipt_no: String,
    /// `payment` or `refund`.
    #[schema(value_type = String, example = "payment")]
    pub kind: projections::read_models::receipts::ReceiptKind,
    /// The amount received or sent back.
    #[schema(example = "1500.00")]
    pub amount: String,
    /// When.
    pub at: String,
    /// How a payment came (`online` or `manual`); `null` for a refund.
    #[schema(value_type = Option<String>)]
    pub channel: Option<projections::read_models::receipts::Channel>,
    /// What of a payment went to the loan.
    pub applied: String,
    /// What of a payment was refunded.
    pub refunded: String,
    /// A refund's state (`null` for a payment).
    #[schema(value_type = Option<String>)]
    pub status: Option<projections::read_models::receipts::RefundStatus>,
    /// A refund's payment receipt.
    pub for_receipt_no: Option<String>,
}

impl ReceiptView {
    /// The view of a receipt row.
    fn of(r: &Receipt) -> Self {
        let money = projections::projection::money_text;
        Self {
            receipt_no: r.receipt_no.clone(),
            kind: r.kind,
            amount: money(r.amount),
            at: projections::projection::time_text(r.at),
            channel: r.channel,
            applied: money(r.applied),
            refunded: money(r.refunded),
            status: r.status,
            for_receipt_no: r.for_receipt_no.clone(),
        }
    }
}

/// The order's receipts, oldest first, once the read models have caught up.
pub async fn receipts(state: &AppState, order_id: &str) -> Result<Vec<ReceiptView>, ApiError> {
    state.read_models_at_head().await?;
    let rows = document_rows::receipts(state.read_models(), order_id).await?;
    Ok(rows.iter().map(ReceiptView::of).collect())
}
