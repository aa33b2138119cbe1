//! The borrower's in-app inbox (PRODUCT.md 12.5): the notices of the `notice` read
//! model ([`projections::read_models::notices`]), newest first, and which of them the borrower has
//! read (`notice_read`, kept by the api so a rebuild of the read models never marks
//! them unread again).
//!
//! Guarantee: a borrower only ever reads or marks their own notices. Both statements
//! are scoped by the session's user id inside the SQL, so an id of another borrower's
//! notice matches nothing and is left alone (no error tells whether it exists).

use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::http::envelope::ApiError;
use crate::runtime::state::AppState;

/// One notice as `/jackey/user/notices` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NoticeView {
    /// Names the notice for `/jackey/user/notices/read` (`<order id>:<sequence>`).
    pub id: String,
    /// The order it is about.
    pub order_id: String,
    /// Installment number (1-based).
    pub period: i64,
    /// `due_in_3_days`, `due_in_1_day` or `overdue`.
    #[schema(example = "due_in_3_days")]
    pub kind: String,
    /// What the installment still asked for when the reminder was recorded, two
    /// decimals (amount and fees, minus payments).
    #[schema(example = "13493.30")]
    pub amount: String,
    /// The installment's due day, `YYYY-MM-DD` (UTC).
    #[schema(example = "2026-11-26")]
    pub due_date: String,
    /// When the reminder was recorded, RFC 3339 UTC.
    pub created_at: String,
    /// When the borrower read it (RFC 3339 UTC), or null while unread.
    pub read_at: Option<String>,
    /// True once its installment is paid (or its loan closed): it asks for nothing
    /// more and is not counted unread, read or not (issue 52).
    pub settled: bool,
}

/// A page of the inbox with its counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NoticePage {
    /// Every notice of the borrower.
    pub total: i64,
    /// Those not read yet whose installment is not settled.
    pub unread: i64,
    /// Page number (from 1).
    pub page: i64,
    /// Page size.
    pub page_size: i64,
    /// This page, newest first.
    pub notices: Vec<NoticeView>,
}

/// The inbox of `user_id`: `limit` notices from `offset`, newest first (ties by id),
/// with the total and unread counts, read in one statement (one snapshot).
pub async fn page(
    state: &AppState,
    user_id: Uuid,
    limit: i64,
    offset: i64,
) -> Result<NoticePage, ApiError> {
    let rows =
        projections::reads::inbox::page(state.read_models(), &user_id.to_string(), limit, offset)
            .await?;
    let (total, unread) = rows.first().map_or((0, 0), |row| (row.0, row.1));
    let notices = rows
        .into_iter()
        .filter_map(
            |(_, _, id, order_id, period, kind, amount, due_date, created_at, read_at, settled)| {
                Some(NoticeView {
                    id: id?,
                    order_id: order_id?,
                    period: period?,
                    kind: kind?,
                    amount: amount?,
                    due_date: due_date?,
                    created_at: created_at?,
                    read_at,
                    settled: settled? == 1,
                })
            },
        )
        .collect();
    Ok(NoticePage {
        total,
        unread,
        page: offset / limit.max(1) + 1,
        page_size: limit,
        notices,
    })
}

/// Which notices to mark read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Marking {
    /// Every notice of the borrower.
    All,
    /// These ids (those of other borrowers, or unknown, match nothing).
    Ids(Vec<String>),
}

/// Marks notices of `user_id` read at the state's now, in one statement scoped by the
/// user; a notice already read keeps its first time. Returns how many were newly
/// marked.
pub async fn mark_read(
    state: &AppState,
    user_id: Uuid,
    marking: &Marking,
) -> Result<u64, ApiError> {
    let ids: &[String] = match marking {
        Marking::All => &[],
        Marking::Ids(ids) if ids.is_empty() => return Ok(0),
        Marking::Ids(ids) => ids,
    };
    let now = projections::projection::time_text(state.now());
    let marked =
        projections::reads::inbox::mark_read(&state.database, &user_id.to_string(), ids, &now)
            .await?;
    Ok(marked)
}
