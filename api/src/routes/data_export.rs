//! Personal data export (PRODUCT.md 12.6, PH Data Privacy Act RA 10173): everything
//! held about a borrower as one JSON document (`queries::data_export`).
//!
//! - Borrowers: `/jackey/user/dataExport`, their own data only (the session decides
//!   whose; no body names a user).
//! - Auditors: `/admin/api/users/dataExport` for any borrower, and
//!   `/admin/api/users/exportLog` to read who exported a borrower's data and when.
//!
//! Every export is recorded (`data_export`: who, whose, when, the request id) before
//! it is answered, so none leaves unrecorded. An unknown user answers 40007 and
//! records nothing. Both export calls are rate limited per client address (`ops`).

use axum::extract::State;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde::Deserialize;
use utoipa::{OpenApi, ToSchema};
use uuid::Uuid;

use crate::http::auth::{Auditor, Borrower};
use crate::http::envelope::{ok, ApiError, ApiJson, Envelope};
use crate::queries::data_export::{self as queries, DataExport, ExportLogEntry};
use crate::runtime::state::AppState;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/jackey/user/dataExport", post(borrower_data_export))
        .route("/admin/api/users/dataExport", post(auditor_data_export))
        .route("/admin/api/users/exportLog", post(auditor_export_log))
}

/// The OpenAPI description of this module's calls (see [`crate::http::openapi`]).
#[derive(OpenApi)]
#[openapi(paths(borrower_data_export, auditor_data_export, auditor_export_log))]
pub struct Doc;

#[utoipa::path(
    post,
    path = "/jackey/user/dataExport",
    tag = "personal data",
    summary = "Download everything held about me",
    description = "`data`: the borrower's own data as one document (PRODUCT.md 12.6): every \
                   personal field unmasked, the privacy notice accepted, ID photo and \
                   signature keys with their `/files` links, bank account, emergency \
                   contacts, questionnaire; every order with its schedule, timeline, \
                   payment pages, receipts (payments and refunds), money movements and \
                   document downloads; wallet, notices, sessions, the text messages sent \
                   to the phone (verification codes masked), the account's history and \
                   earlier exports. Password and PIN hashes, tokens and codes are never \
                   included. The export is recorded. The body is ignored. 5 too many \
                   requests from this client.",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the export", body = Envelope<Option<DataExport>>))
)]
#[tracing::instrument(skip_all, fields(user_id = %borrower.user_id))]
async fn borrower_data_export(
    State(state): State<AppState>,
    borrower: Borrower,
) -> Result<Response, ApiError> {
    let actor = format!("user:{}", borrower.user_id);
    let export = queries::export_recorded(&state, borrower.user_id, &actor).await?;
    Ok(ok(export))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ExportUserBody {
    /// The borrower whose data is exported.
    #[schema(max_length = 36)]
    user_id: String,
}

/// The borrower named by `user_id`; anything that is not a UUID names nobody (40007).
fn subject(user_id: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(user_id.trim()).map_err(|_| queries::unknown_user())
}

#[utoipa::path(
    post,
    path = "/admin/api/users/dataExport",
    tag = "personal data",
    summary = "Export any borrower's data",
    description = "As `/jackey/user/dataExport`, for any borrower. Recorded with the \
                   auditor's id before it is answered (`/admin/api/users/exportLog` \
                   lists the records). 40007 unknown user (nothing recorded); 5 too many \
                   requests from this client.",
    security(("bearer" = [])),
    request_body = ExportUserBody,
    responses((status = 200, description = "Envelope with the export", body = Envelope<Option<DataExport>>))
)]
#[tracing::instrument(skip_all, fields(auditor_id = %auditor.auditor_id))]
async fn auditor_data_export(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<ExportUserBody>,
) -> Result<Response, ApiError> {
    let user_id = subject(&body.user_id)?;
    let actor = format!("auditor:{}", auditor.auditor_id);
    let export = queries::export_recorded(&state, user_id, &actor).await?;
    Ok(ok(export))
}

#[utoipa::path(
    post,
    path = "/admin/api/users/exportLog",
    tag = "personal data",
    summary = "Who exported a borrower's data",
    description = "`data`: list of {at, actor (`user:<id>` or `auditor:<id>`), actorName (the \
                   auditor's username), requestId}, oldest first; empty when there were \
                   none. 40007 when `userId` is not a user id.",
    security(("bearer" = [])),
    request_body = ExportUserBody,
    responses((status = 200, description = "Envelope with the records", body = Envelope<Option<Vec<ExportLogEntry>>>))
)]
async fn auditor_export_log(
    State(state): State<AppState>,
    _auditor: Auditor,
    ApiJson(body): ApiJson<ExportUserBody>,
) -> Result<Response, ApiError> {
    let user_id = subject(&body.user_id)?;
    Ok(ok(queries::exports_of(&state, user_id).await?))
}
