//! The PDF documents (PRODUCT.md 12.5, docs/adr/0010-pdf-documents.md): the signed
//! contract, a receipt per payment and per refund, and the statement of account.
//!
//! - Borrowers: `/jackey/loan/contractPdf`, `/jackey/loan/receiptPdf`,
//!   `/jackey/loan/statementPdf` for their own orders only (another's answers 40007,
//!   as every order call does), and `/jackey/loan/receipts` to list them.
//! - Auditors: the same for any order under `/admin/api/documents/...`, and the list
//!   of an order's downloads.
//!
//! Every download is recorded (`document_download`: who, which document, which order,
//! when, which language, the request id) before the PDF is sent, so none leaves
//! unrecorded; auditors read the record on the order page. A PDF answers
//! `application/pdf`; any refusal answers the usual envelope (HTTP 200 with its code).
//! The language is the body's `lang` (or the query's), else `Accept-Language`, else
//! English; a `lang` the app does not have answers 10004.

use aggregates::order::Order;
use aggregates::ErrorCode;
use axum::extract::{RawQuery, State};
use axum::http::header::{ACCEPT_LANGUAGE, CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use projections::reads::documents as document_rows;
use projections::receipts::Receipt;
use serde::Deserialize;
use serde_json::{json, Value as Json};
use utoipa::{OpenApi, ToSchema};

use crate::auth::{Auditor, BorrowerToken};
use crate::documents::{
    disclosure_sha256, ContractFacts, DueInstallment, Header, Lang, PaidOut, ReceiptFacts,
    StatementFacts,
};
use crate::envelope::{ok, AnyData, ApiError, ApiJson, Envelope, Null, OptionalJson};
use crate::queries::documents::{self as queries, Download};
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/jackey/loan/contractPdf", post(borrower_contract))
        .route("/jackey/loan/receiptPdf", post(borrower_receipt))
        .route("/jackey/loan/statementPdf", post(borrower_statement))
        .route("/jackey/loan/receipts", post(borrower_receipts))
        .route("/admin/api/documents/contractPdf", post(auditor_contract))
        .route("/admin/api/documents/receiptPdf", post(auditor_receipt))
        .route("/admin/api/documents/statementPdf", post(auditor_statement))
        .route("/admin/api/documents/receipts", post(auditor_receipts))
        .route("/admin/api/documents/downloads", post(auditor_downloads))
}

/// The OpenAPI description of this module's calls (see [`crate::openapi`]).
#[derive(OpenApi)]
#[openapi(paths(
    borrower_contract,
    borrower_receipt,
    borrower_statement,
    borrower_receipts,
    auditor_contract,
    auditor_receipt,
    auditor_statement,
    auditor_receipts,
    auditor_downloads
))]
pub struct Doc;

/// The bytes of a PDF (OpenAPI documentation only).
struct PdfBytes;

impl utoipa::PartialSchema for PdfBytes {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
                utoipa::openapi::KnownFormat::Binary,
            )))
            .into()
    }
}

impl ToSchema for PdfBytes {}

/// Which document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Contract,
    Receipt,
    Statement,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Contract => "contract",
            Kind::Receipt => "receipt",
            Kind::Statement => "statement",
        }
    }
}

/// Who asks, and for which order.
struct Request {
    /// `user:<id>` or `auditor:<id>`.
    actor: String,
    order_id: String,
    doc: Json,
    order: Order,
    lang: Lang,
}

// ---------------------------------------------------------------------------------
// Bodies.

#[derive(Deserialize, Default, ToSchema)]
#[serde(rename_all = "camelCase")]
struct BorrowerDocumentBody {
    /// The order; omitted or empty: the borrower's latest.
    #[serde(default)]
    loan_order_id: Option<String>,
    /// `en`, `zh` or `fil`; omitted: `Accept-Language`, else English.
    #[serde(default)]
    #[schema(example = "en", max_length = 35)]
    lang: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct BorrowerReceiptBody {
    /// The order; omitted or empty: the borrower's latest.
    #[serde(default)]
    loan_order_id: Option<String>,
    /// The receipt's number (`/jackey/loan/receipts`).
    #[schema(example = "OR-2611-000157", max_length = 40)]
    receipt_no: String,
    /// `en`, `zh` or `fil`; omitted: `Accept-Language`, else English.
    #[serde(default)]
    #[schema(example = "en", max_length = 35)]
    lang: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct AuditorDocumentBody {
    /// The order id.
    order_id: String,
    /// `en`, `zh` or `fil`; omitted: `Accept-Language`, else English.
    #[serde(default)]
    #[schema(example = "en", max_length = 35)]
    lang: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct AuditorReceiptBody {
    /// The order id.
    order_id: String,
    /// The receipt's number (`/admin/api/documents/receipts`).
    #[schema(example = "OR-2611-000157", max_length = 40)]
    receipt_no: String,
    /// `en`, `zh` or `fil`; omitted: `Accept-Language`, else English.
    #[serde(default)]
    #[schema(example = "en", max_length = 35)]
    lang: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct AuditorOrderDocumentsBody {
    /// The order id.
    order_id: String,
}

// ---------------------------------------------------------------------------------
// Borrower calls.

#[utoipa::path(
    post,
    path = "/jackey/loan/contractPdf",
    tag = "documents",
    summary = "The signed contract as PDF",
    description = "The borrower's own order (the latest when none is named): parties (the \
                   lender's name, registration and licence numbers), the disclosure as signed \
                   with its schedule, the loan as paid out, the signature and the SHA-256 of the \
                   signed disclosure. Recorded. 40007 no such order of this borrower; 10004 an \
                   unknown `lang`.",
    security(("bearer" = [])),
    request_body = Option<BorrowerDocumentBody>,
    responses((status = 200, description = "The PDF, or the envelope with the error code", content(
        (PdfBytes = "application/pdf"),
        (Envelope<Null> = "application/json")
    )))
)]
async fn borrower_contract(
    State(state): State<AppState>,
    token: BorrowerToken,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    OptionalJson(body): OptionalJson<BorrowerDocumentBody>,
) -> Result<Response, ApiError> {
    let lang = lang_of(body.lang.as_deref(), query.as_deref(), &headers)?;
    let request = borrower_request(&state, &token, body.loan_order_id.as_deref(), lang).await?;
    contract(&state, request).await
}

#[utoipa::path(
    post,
    path = "/jackey/loan/receiptPdf",
    tag = "documents",
    summary = "An official receipt as PDF",
    description = "A receipt of the borrower's own order: a payment received (amount, paid \
                   at, channel, reference, how it was applied, any part refunded) or a refund \
                   sent back. Recorded. 40007 no such order of this borrower or no such receipt \
                   of it; 10004 a malformed `receiptNo` or an unknown `lang`.",
    security(("bearer" = [])),
    request_body = BorrowerReceiptBody,
    responses((status = 200, description = "The PDF, or the envelope with the error code", content(
        (PdfBytes = "application/pdf"),
        (Envelope<Null> = "application/json")
    )))
)]
async fn borrower_receipt(
    State(state): State<AppState>,
    token: BorrowerToken,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    ApiJson(body): ApiJson<BorrowerReceiptBody>,
) -> Result<Response, ApiError> {
    let lang = lang_of(body.lang.as_deref(), query.as_deref(), &headers)?;
    let receipt_no = receipt_number(&body.receipt_no)?;
    let request = borrower_request(&state, &token, body.loan_order_id.as_deref(), lang).await?;
    receipt(&state, request, &receipt_no).await
}

#[utoipa::path(
    post,
    path = "/jackey/loan/statementPdf",
    tag = "documents",
    summary = "The statement of account as PDF",
    description = "Every ledger posting of the borrower's own order with the balance owed \
                   after each, and the totals. Recorded. 40007 no such order of this borrower; \
                   10004 an unknown `lang`.",
    security(("bearer" = [])),
    request_body = Option<BorrowerDocumentBody>,
    responses((status = 200, description = "The PDF, or the envelope with the error code", content(
        (PdfBytes = "application/pdf"),
        (Envelope<Null> = "application/json")
    )))
)]
async fn borrower_statement(
    State(state): State<AppState>,
    token: BorrowerToken,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    OptionalJson(body): OptionalJson<BorrowerDocumentBody>,
) -> Result<Response, ApiError> {
    let lang = lang_of(body.lang.as_deref(), query.as_deref(), &headers)?;
    let request = borrower_request(&state, &token, body.loan_order_id.as_deref(), lang).await?;
    statement(&state, request).await
}

#[utoipa::path(
    post,
    path = "/jackey/loan/receipts",
    tag = "documents",
    summary = "The receipts of an order",
    description = "`data`: list of {receiptNo, kind (payment|refund), amount, at, channel, \
                   applied, refunded, status, forReceiptNo}, oldest first. 40007 no such order \
                   of this borrower.",
    security(("bearer" = [])),
    request_body = Option<BorrowerDocumentBody>,
    responses((status = 200, description = "Envelope with the receipts", body = Envelope<AnyData>))
)]
async fn borrower_receipts(
    State(state): State<AppState>,
    token: BorrowerToken,
    OptionalJson(body): OptionalJson<BorrowerDocumentBody>,
) -> Result<Response, ApiError> {
    let request = borrower_request(&state, &token, body.loan_order_id.as_deref(), Lang::En).await?;
    receipts(&state, &request.order_id).await
}

/// The borrower's own order (40007 otherwise), read with the session check.
async fn borrower_request(
    state: &AppState,
    token: &BorrowerToken,
    order_id: Option<&str>,
    lang: Lang,
) -> Result<Request, ApiError> {
    use crate::queries::borrower::{own_order, OrderColumns};
    let own = own_order(state, token, order_id, OrderColumns::Both).await?;
    let (user_id, doc, order) = (own.user_id, own.doc()?, own.order()?);
    let order_id = order
        .id
        .ok_or_else(|| ApiError::code(ErrorCode::RecordNotFound))?
        .to_string();
    Ok(Request {
        actor: format!("user:{user_id}"),
        order_id,
        doc,
        order,
        lang,
    })
}

// ---------------------------------------------------------------------------------
// Auditor calls.

#[utoipa::path(
    post,
    path = "/admin/api/documents/contractPdf",
    tag = "documents",
    summary = "Any order's signed contract as PDF",
    description = "As `/jackey/loan/contractPdf`, for any order. Recorded with the auditor. \
                   40007 unknown order (or one without a signed disclosure); 10004 an unknown `lang`.",
    security(("bearer" = [])),
    request_body = AuditorDocumentBody,
    responses((status = 200, description = "The PDF, or the envelope with the error code", content(
        (PdfBytes = "application/pdf"),
        (Envelope<Null> = "application/json")
    )))
)]
async fn auditor_contract(
    State(state): State<AppState>,
    auditor: Auditor,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    ApiJson(body): ApiJson<AuditorDocumentBody>,
) -> Result<Response, ApiError> {
    let lang = lang_of(body.lang.as_deref(), query.as_deref(), &headers)?;
    let request = auditor_request(&state, &auditor, &body.order_id, lang).await?;
    contract(&state, request).await
}

#[utoipa::path(
    post,
    path = "/admin/api/documents/receiptPdf",
    tag = "documents",
    summary = "Any order's receipt as PDF",
    description = "As `/jackey/loan/receiptPdf`, for any order. Recorded with the auditor. \
                   40007 unknown order or receipt; 10004 a malformed `receiptNo` or an unknown `lang`.",
    security(("bearer" = [])),
    request_body = AuditorReceiptBody,
    responses((status = 200, description = "The PDF, or the envelope with the error code", content(
        (PdfBytes = "application/pdf"),
        (Envelope<Null> = "application/json")
    )))
)]
async fn auditor_receipt(
    State(state): State<AppState>,
    auditor: Auditor,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    ApiJson(body): ApiJson<AuditorReceiptBody>,
) -> Result<Response, ApiError> {
    let lang = lang_of(body.lang.as_deref(), query.as_deref(), &headers)?;
    let receipt_no = receipt_number(&body.receipt_no)?;
    let request = auditor_request(&state, &auditor, &body.order_id, lang).await?;
    receipt(&state, request, &receipt_no).await
}

#[utoipa::path(
    post,
    path = "/admin/api/documents/statementPdf",
    tag = "documents",
    summary = "Any order's statement of account as PDF",
    description = "As `/jackey/loan/statementPdf`, for any order. Recorded with the auditor. \
                   40007 unknown order; 10004 an unknown `lang`.",
    security(("bearer" = [])),
    request_body = AuditorDocumentBody,
    responses((status = 200, description = "The PDF, or the envelope with the error code", content(
        (PdfBytes = "application/pdf"),
        (Envelope<Null> = "application/json")
    )))
)]
async fn auditor_statement(
    State(state): State<AppState>,
    auditor: Auditor,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    ApiJson(body): ApiJson<AuditorDocumentBody>,
) -> Result<Response, ApiError> {
    let lang = lang_of(body.lang.as_deref(), query.as_deref(), &headers)?;
    let request = auditor_request(&state, &auditor, &body.order_id, lang).await?;
    statement(&state, request).await
}

#[utoipa::path(
    post,
    path = "/admin/api/documents/receipts",
    tag = "documents",
    summary = "Any order's receipts",
    description = "As `/jackey/loan/receipts`, for any order. 40007 unknown order.",
    security(("bearer" = [])),
    request_body = AuditorOrderDocumentsBody,
    responses((status = 200, description = "Envelope with the receipts", body = Envelope<AnyData>))
)]
async fn auditor_receipts(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<AuditorOrderDocumentsBody>,
) -> Result<Response, ApiError> {
    let request = auditor_request(&state, &auditor, &body.order_id, Lang::En).await?;
    receipts(&state, &request.order_id).await
}

#[utoipa::path(
    post,
    path = "/admin/api/documents/downloads",
    tag = "documents",
    summary = "Who downloaded an order's documents",
    description = "`data`: list of {at, actor (`user:<id>` or `auditor:<id>`), actorName (the \
                   auditor's username), document (contract|receipt|statement), receiptNo, lang, \
                   requestId}, oldest first. 40007 unknown order.",
    security(("bearer" = [])),
    request_body = AuditorOrderDocumentsBody,
    responses((status = 200, description = "Envelope with the downloads", body = Envelope<AnyData>))
)]
async fn auditor_downloads(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<AuditorOrderDocumentsBody>,
) -> Result<Response, ApiError> {
    let request = auditor_request(&state, &auditor, &body.order_id, Lang::En).await?;
    let names = projections::reads::admin::auditor_names(state.read_models()).await?;
    let mut downloads = queries::downloads(&state, &request.order_id).await?;
    for download in &mut downloads {
        let name = download["actor"]
            .as_str()
            .and_then(|actor| actor.strip_prefix("auditor:"))
            .and_then(|id| names.get(id))
            .cloned();
        download["actorName"] = json!(name);
    }
    Ok(ok(downloads))
}

/// Any order (40007 when unknown or the id is no UUID).
async fn auditor_request(
    state: &AppState,
    auditor: &Auditor,
    order_id: &str,
    lang: Lang,
) -> Result<Request, ApiError> {
    let not_found = || ApiError::new(ErrorCode::RecordNotFound, "record not found: order");
    let order_id = uuid::Uuid::parse_str(order_id.trim())
        .map_err(|_| not_found())?
        .to_string();
    let (doc, order) = projections::reads::admin::order_row(state.read_models(), &order_id)
        .await?
        .ok_or_else(not_found)?;
    Ok(Request {
        actor: format!("auditor:{}", auditor.auditor_id),
        order_id,
        doc: serde_json::from_str(&doc).map_err(ApiError::internal)?,
        order: serde_json::from_str(&order).map_err(ApiError::internal)?,
        lang,
    })
}

// ---------------------------------------------------------------------------------
// The documents.

/// The language asked for: the body's `lang`, else the query's, else
/// `Accept-Language`, else English. 10004 for a `lang` the app does not have.
fn lang_of(body: Option<&str>, query: Option<&str>, headers: &HeaderMap) -> Result<Lang, ApiError> {
    let from_query = query.and_then(|query| {
        url::form_urlencoded::parse(query.as_bytes())
            .find(|(key, _)| key == "lang")
            .map(|(_, value)| value.into_owned())
    });
    let asked = body
        .filter(|lang| !lang.trim().is_empty())
        .map(str::to_string)
        .or(from_query);
    let accept = headers
        .get(ACCEPT_LANGUAGE)
        .and_then(|value| value.to_str().ok());
    Lang::pick(asked.as_deref(), accept)
        .ok_or_else(|| ApiError::bad_input("lang", "one of en, zh, fil"))
}

/// A receipt number as printed (`OR-2611-000157`, `RF-…`); 10004 otherwise.
fn receipt_number(text: &str) -> Result<String, ApiError> {
    let text = text.trim();
    let parts: Vec<&str> = text.split('-').collect();
    let well_formed = matches!(parts.as_slice(), [prefix, month, position]
        if (*prefix == "OR" || *prefix == "RF")
            && month.len() == 4 && month.bytes().all(|b| b.is_ascii_digit())
            && (6..=19).contains(&position.len()) && position.bytes().all(|b| b.is_ascii_digit()));
    if !well_formed {
        return Err(ApiError::bad_input(
            "receiptNo",
            "a receipt number such as OR-2611-000157",
        ));
    }
    Ok(text.to_string())
}

/// What every document of the order says at the top and bottom. 40007 for an order
/// without a signed disclosure (there is nothing to print).
fn header(state: &AppState, request: &Request) -> Result<Header, ApiError> {
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
        issued_at: state.now(),
        disclosure_sha256: disclosure_sha256(signed),
    })
}

/// Records the download, renders off the async threads, answers the PDF.
async fn send(
    state: &AppState,
    request: &Request,
    kind: Kind,
    receipt_no: Option<&str>,
    file_name: String,
    render: impl FnOnce(&crate::documents::Documents) -> Result<Vec<u8>, crate::documents::RenderError>
        + Send
        + 'static,
) -> Result<Response, ApiError> {
    queries::record_download(
        state,
        &Download {
            actor: request.actor.clone(),
            document: kind.name(),
            order_id: &request.order_id,
            receipt_no,
            lang: request.lang.code(),
        },
    )
    .await?;
    let documents = state.documents.clone();
    let bytes = tokio::task::spawn_blocking(move || render(&documents))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
    Ok((
        [
            (CONTENT_TYPE, "application/pdf".to_string()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file_name}\""),
            ),
            (CACHE_CONTROL, "no-store".to_string()),
        ],
        bytes,
    )
        .into_response())
}

async fn contract(state: &AppState, request: Request) -> Result<Response, ApiError> {
    let mut header = header(state, &request)?;
    let order = &request.order;
    let signed = order
        .disclosure
        .clone()
        .unwrap_or_else(|| unreachable!("checked by header"));
    // The contract names the lender the borrower signed with.
    header.lender = signed.lender.clone();
    let signature_png = match &order.signature {
        Some(image) => match crate::files::get(&state.storage, &image.key).await {
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
            .map(|i| DueInstallment {
                period: i.period,
                due_date: i.due_date,
                amount: i.amount,
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
        header,
    };
    let file_name = format!("contract-{}.pdf", facts.header.order_no);
    let lang = request.lang;
    send(state, &request, Kind::Contract, None, file_name, move |d| {
        d.contract(&facts, lang)
    })
    .await
}

async fn receipt(
    state: &AppState,
    request: Request,
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
    send(
        state,
        &request,
        Kind::Receipt,
        Some(receipt_no),
        file_name,
        move |d| d.receipt(&facts, lang),
    )
    .await
}

async fn statement(state: &AppState, request: Request) -> Result<Response, ApiError> {
    let header = header(state, &request)?;
    // The books as of the request: a payment settled a moment ago by the loan
    // process shows, though no command of the caller waited for it.
    state.read_models_at_head().await?;
    let facts = StatementFacts {
        receivable_account: projections::ledger::loan_receivable(&request.order_id),
        postings: queries::postings(state, &request.order_id).await?,
        receipts: document_rows::receipts(state.read_models(), &request.order_id).await?,
        header,
    };
    let file_name = format!("statement-{}.pdf", facts.header.order_no);
    let lang = request.lang;
    send(
        state,
        &request,
        Kind::Statement,
        None,
        file_name,
        move |d| d.statement(&facts, lang),
    )
    .await
}

/// The order's receipts as the list calls answer them.
async fn receipts(state: &AppState, order_id: &str) -> Result<Response, ApiError> {
    state.read_models_at_head().await?;
    let list: Vec<Json> = document_rows::receipts(state.read_models(), order_id)
        .await?
        .iter()
        .map(receipt_json)
        .collect();
    Ok(ok(list))
}

fn receipt_json(r: &Receipt) -> Json {
    let money = projections::projection::money_text;
    json!({
        "receiptNo": r.receipt_no,
        "kind": r.kind,
        "amount": money(r.amount),
        "at": projections::projection::time_text(r.at),
        "channel": r.channel,
        "applied": money(r.applied),
        "refunded": money(r.refunded),
        "status": r.status,
        "forReceiptNo": r.for_receipt_no,
    })
}
