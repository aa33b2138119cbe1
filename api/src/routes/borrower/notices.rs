//! The borrower's inbox (PRODUCT.md 12.5): `/jackey/user/notices` lists the due-date
//! reminders newest first with the unread count; `/jackey/user/notices/read` marks
//! some or all of them read. Only the caller's own notices are ever listed or marked
//! ([`crate::queries::inbox`]).

use axum::extract::State;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::http::auth::Borrower;
use crate::http::envelope::{ok, ApiError, ApiJson, Envelope, OptionalJson};
use crate::queries::inbox::{self, Marking, NoticePage, NoticeView};
use crate::routes::paging;
use crate::runtime::state::AppState;

/// The most notices one page (or one `read` call) names.
pub const MAX_PAGE: i64 = 100;

/// The longest notice id accepted (`<uuid>:<sequence>`).
const MAX_ID_CHARS: usize = 64;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/jackey/user/notices", post(notices))
        .route("/jackey/user/notices/read", post(mark_read))
}

/// The OpenAPI description of this module's calls (see [`crate::http::openapi`]).
#[derive(OpenApi)]
#[openapi(paths(notices, mark_read), components(schemas(NoticePage, NoticeView)))]
pub struct Doc;

#[derive(Deserialize, Default, ToSchema)]
#[serde(rename_all = "camelCase")]
struct NoticesBody {
    /// Page number, from 1 (default 1).
    #[serde(default)]
    page: Option<i64>,
    /// Notices per page, 1 to 100 (default 20).
    #[serde(default)]
    page_size: Option<i64>,
}

#[utoipa::path(
    post,
    path = "/jackey/user/notices",
    tag = "borrower account",
    summary = "The inbox: due-date reminders",
    description = "PRODUCT.md 12.5: the borrower's notices (3 days and 1 day before each \
                   installment's due date, and the day it becomes overdue), newest first, \
                   with the total and unread counts. The body may be empty. 10004 bad \
                   paging (page from 1, pageSize 1 to 100).",
    security(("bearer" = [])),
    request_body = Option<NoticesBody>,
    responses((status = 200, description = "Envelope with a page of notices", body = Envelope<Option<NoticePage>>))
)]
async fn notices(
    State(state): State<AppState>,
    borrower: Borrower,
    OptionalJson(body): OptionalJson<NoticesBody>,
) -> Result<Response, ApiError> {
    let (size, offset) = paging(body.page, body.page_size, MAX_PAGE)?;
    Ok(ok(
        inbox::page(&state, borrower.user_id, size, offset).await?
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ReadBody {
    /// Notice ids from `/jackey/user/notices` (at most 100).
    #[serde(default)]
    ids: Option<Vec<String>>,
    /// True: every notice of the borrower.
    #[serde(default)]
    all: bool,
}

/// What `/jackey/user/notices/read` did.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ReadData {
    /// Notices newly marked read (already read ones and ids that are not the
    /// caller's count 0).
    marked: u64,
}

#[utoipa::path(
    post,
    path = "/jackey/user/notices/read",
    tag = "borrower account",
    summary = "Mark notices read",
    description = "PRODUCT.md 12.5. `ids` names notices of `/jackey/user/notices`, or `all` \
                   marks every one. Only the caller's own notices are marked: another \
                   borrower's id matches nothing. A notice already read keeps its time. \
                   10004 neither `ids` nor `all`, more than 100 ids, or an id that is empty \
                   or longer than 64 characters.",
    security(("bearer" = [])),
    request_body = ReadBody,
    responses((status = 200, description = "Envelope with the count marked", body = Envelope<Option<ReadData>>))
)]
async fn mark_read(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<ReadBody>,
) -> Result<Response, ApiError> {
    let marking = match (body.all, body.ids) {
        (true, _) => Marking::All,
        (false, Some(ids)) if !ids.is_empty() => {
            if ids.len() > MAX_PAGE as usize {
                return Err(ApiError::bad_input("ids", "at most 100 at a time"));
            }
            let bad = |id: &String| id.trim().is_empty() || id.chars().count() > MAX_ID_CHARS;
            if ids.iter().any(bad) {
                return Err(ApiError::bad_input("ids", "not a notice id"));
            }
            Marking::Ids(ids.into_iter().map(|id| id.trim().to_string()).collect())
        }
        _ => {
            return Err(ApiError::bad_input(
                "ids",
                "name at least one notice, or set all",
            ))
        }
    };
    let marked = inbox::mark_read(&state, borrower.user_id, &marking).await?;
    Ok(ok(ReadData { marked }))
}
