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

use axum::extract::{FromRequest, FromRequestParts, RawQuery, State};
use axum::http::header::ACCEPT_LANGUAGE;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde::Deserialize;
use utoipa::{OpenApi, ToSchema};

use crate::documents::facts::{self, DocumentRequest, ReceiptView};
use crate::documents::Lang;
use crate::http::auth::{Auditor, BorrowerToken};
use crate::http::envelope::{ok, ApiError, ApiJson, Binary, Envelope, Null, OptionalJson};
use crate::queries::documents as queries;
use crate::runtime::state::AppState;

/// The routes of this module: each document's one handler, for each of who asks.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/jackey/loan/contractPdf", post(contract::<BorrowerToken>))
        .route("/jackey/loan/receiptPdf", post(receipt::<BorrowerToken>))
        .route(
            "/jackey/loan/statementPdf",
            post(statement::<BorrowerToken>),
        )
        .route("/jackey/loan/receipts", post(receipts::<BorrowerToken>))
        .route(
            "/admin/api/documents/contractPdf",
            post(contract::<Auditor>),
        )
        .route("/admin/api/documents/receiptPdf", post(receipt::<Auditor>))
        .route(
            "/admin/api/documents/statementPdf",
            post(statement::<Auditor>),
        )
        .route("/admin/api/documents/receipts", post(receipts::<Auditor>))
        .route("/admin/api/documents/downloads", post(auditor_downloads))
}

/// The OpenAPI description of this module's calls (see [`crate::http::openapi`]): one entry
/// a route, documented on the functions below that carry only the description.
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

/// What a document call names: the order (the borrower's latest when `None`) and
/// the body's `lang`.
struct Ask {
    order_id: Option<String>,
    lang: Option<String>,
}

/// Who asks for documents, and the bodies their calls take.
trait Reader: FromRequestParts<AppState, Rejection = ApiError> + Send + Sync + 'static {
    /// The body of a contract, statement or receipt-list call.
    type Body: FromRequest<AppState, Rejection = ApiError> + Into<Ask> + Send + 'static;
    /// The body of a receipt call: its [`Ask`] and the receipt's number.
    type ReceiptBody: FromRequest<AppState, Rejection = ApiError>
        + Into<(Ask, String)>
        + Send
        + 'static;

    /// The order `order_id` if this caller may read it (40007 otherwise).
    fn request(
        &self,
        state: &AppState,
        order_id: Option<&str>,
        lang: Lang,
    ) -> impl std::future::Future<Output = Result<DocumentRequest, ApiError>> + Send;
}

impl Reader for BorrowerToken {
    type Body = OptionalJson<BorrowerDocumentBody>;
    type ReceiptBody = ApiJson<BorrowerReceiptBody>;

    async fn request(
        &self,
        state: &AppState,
        order_id: Option<&str>,
        lang: Lang,
    ) -> Result<DocumentRequest, ApiError> {
        facts::for_borrower(state, self, order_id, lang).await
    }
}

impl Reader for Auditor {
    type Body = ApiJson<AuditorDocumentBody>;
    type ReceiptBody = ApiJson<AuditorReceiptBody>;

    async fn request(
        &self,
        state: &AppState,
        order_id: Option<&str>,
        lang: Lang,
    ) -> Result<DocumentRequest, ApiError> {
        facts::for_auditor(state, self, order_id.unwrap_or_default(), lang).await
    }
}

impl From<OptionalJson<BorrowerDocumentBody>> for Ask {
    fn from(OptionalJson(body): OptionalJson<BorrowerDocumentBody>) -> Self {
        Self {
            order_id: body.loan_order_id,
            lang: body.lang,
        }
    }
}

impl From<ApiJson<BorrowerReceiptBody>> for (Ask, String) {
    fn from(ApiJson(body): ApiJson<BorrowerReceiptBody>) -> Self {
        let ask = Ask {
            order_id: body.loan_order_id,
            lang: body.lang,
        };
        (ask, body.receipt_no)
    }
}

impl From<ApiJson<AuditorDocumentBody>> for Ask {
    fn from(ApiJson(body): ApiJson<AuditorDocumentBody>) -> Self {
        Self {
            order_id: Some(body.order_id),
            lang: body.lang,
        }
    }
}

impl From<ApiJson<AuditorReceiptBody>> for (Ask, String) {
    fn from(ApiJson(body): ApiJson<AuditorReceiptBody>) -> Self {
        let ask = Ask {
            order_id: Some(body.order_id),
            lang: body.lang,
        };
        (ask, body.receipt_no)
    }
}

/// The order `ask` names, for `who`, in the language asked for ([`lang_of`]).
async fn request_of<W: Reader>(
    state: &AppState,
    who: &W,
    ask: Ask,
    query: Option<&str>,
    headers: &HeaderMap,
) -> Result<DocumentRequest, ApiError> {
    let lang = lang_of(ask.lang.as_deref(), query, headers)?;
    who.request(state, ask.order_id.as_deref(), lang).await
}

/// The signed contract, for the borrower or an auditor.
async fn contract<W: Reader>(
    State(state): State<AppState>,
    who: W,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: W::Body,
) -> Result<Response, ApiError> {
    let request = request_of(&state, &who, body.into(), query.as_deref(), &headers).await?;
    facts::contract(&state, request).await
}

/// A receipt, for the borrower or an auditor.
async fn receipt<W: Reader>(
    State(state): State<AppState>,
    who: W,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: W::ReceiptBody,
) -> Result<Response, ApiError> {
    let (ask, receipt_no) = body.into();
    let lang = lang_of(ask.lang.as_deref(), query.as_deref(), &headers)?;
    let receipt_no = receipt_number(&receipt_no)?;
    let request = who.request(&state, ask.order_id.as_deref(), lang).await?;
    facts::receipt(&state, request, &receipt_no).await
}

/// The statement of account, for the borrower or an auditor.
async fn statement<W: Reader>(
    State(state): State<AppState>,
    who: W,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: W::Body,
) -> Result<Response, ApiError> {
    let request = request_of(&state, &who, body.into(), query.as_deref(), &headers).await?;
    facts::statement(&state, request).await
}

/// The order's receipts, for the borrower or an auditor (the language is not asked).
async fn receipts<W: Reader>(
    State(state): State<AppState>,
    who: W,
    body: W::Body,
) -> Result<Response, ApiError> {
    let ask: Ask = body.into();
    let request = who
        .request(&state, ask.order_id.as_deref(), Lang::En)
        .await?;
    Ok(ok(facts::receipts(&state, &request.order_id).await?))
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
// The calls as the OpenAPI document describes them (the handlers above serve them).

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
        (Binary = "application/pdf"),
        (Envelope<Null> = "application/json")
    )))
)]
#[allow(dead_code)] // documentation only
fn borrower_contract() {}

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
        (Binary = "application/pdf"),
        (Envelope<Null> = "application/json")
    )))
)]
#[allow(dead_code)] // documentation only
fn borrower_receipt() {}

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
        (Binary = "application/pdf"),
        (Envelope<Null> = "application/json")
    )))
)]
#[allow(dead_code)] // documentation only
fn borrower_statement() {}

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
    responses((status = 200, description = "Envelope with the receipts", body = Envelope<Option<Vec<ReceiptView>>>))
)]
#[allow(dead_code)] // documentation only
fn borrower_receipts() {}

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
        (Binary = "application/pdf"),
        (Envelope<Null> = "application/json")
    )))
)]
#[allow(dead_code)] // documentation only
fn auditor_contract() {}

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
        (Binary = "application/pdf"),
        (Envelope<Null> = "application/json")
    )))
)]
#[allow(dead_code)] // documentation only
fn auditor_receipt() {}

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
        (Binary = "application/pdf"),
        (Envelope<Null> = "application/json")
    )))
)]
#[allow(dead_code)] // documentation only
fn auditor_statement() {}

#[utoipa::path(
    post,
    path = "/admin/api/documents/receipts",
    tag = "documents",
    summary = "Any order's receipts",
    description = "As `/jackey/loan/receipts`, for any order. 40007 unknown order.",
    security(("bearer" = [])),
    request_body = AuditorOrderDocumentsBody,
    responses((status = 200, description = "Envelope with the receipts", body = Envelope<Option<Vec<ReceiptView>>>))
)]
#[allow(dead_code)] // documentation only
fn auditor_receipts() {}

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
    responses((status = 200, description = "Envelope with the downloads", body = Envelope<Option<Vec<queries::DownloadView>>>))
)]
async fn auditor_downloads(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<AuditorOrderDocumentsBody>,
) -> Result<Response, ApiError> {
    let request = facts::for_auditor(&state, &auditor, &body.order_id, Lang::En).await?;
    Ok(ok(queries::downloads(&state, &request.order_id).await?))
}

// ---------------------------------------------------------------------------------
// What a call asks for.

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
