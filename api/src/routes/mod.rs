//! The HTTP routes, grouped by who calls them: `borrower` (the app), `admin` (the
//! auditor console), `files` (images, for their owner and auditors), `documents`
//! (PDFs), `data_export` (personal data, both audiences) and `ops` (health,
//! readiness, metrics). A handler sends at most one command or runs
//! queries (`crate::queries`); it never re-checks what an aggregate decides.

pub mod admin;
pub mod borrower;
pub mod data_export;
pub mod documents;
pub mod files;
pub mod ops;
pub mod xendit;

use crate::http::envelope::ApiError;

/// Page number and size from a body (`page` from 1; `pageSize` 1..=`max`), as SQL
/// `limit` and `offset`.
pub(crate) fn paging(
    page: Option<i64>,
    page_size: Option<i64>,
    max: i64,
) -> Result<(i64, i64), ApiError> {
    let page = page.unwrap_or(1);
    let size = page_size.unwrap_or(20);
    if page < 1 {
        return Err(ApiError::bad_input("page", "must be 1 or more"));
    }
    if !(1..=max).contains(&size) {
        return Err(ApiError::bad_input(
            "pageSize",
            &format!("must be between 1 and {max}"),
        ));
    }
    let offset = (page - 1)
        .checked_mul(size)
        .ok_or_else(|| ApiError::bad_input("page", "is too large"))?;
    Ok((size, offset))
}
