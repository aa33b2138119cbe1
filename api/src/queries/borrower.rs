//! The borrower's answers (PRODUCT.md 8, 10), shaped from the typed queries of
//! [`projections::reads::borrower`]. Read models lag the log by a step of the
//! workers; nothing here decides a rule (DESIGN.md "Where each rule lives").

use aggregates::order::Order;
use aggregates::ErrorCode;
use serde_json::value::{to_raw_value, RawValue};
use serde_json::Value as Json;
use uuid::Uuid;

use std::collections::BTreeMap;
use std::future::Future;

pub use projections::reads::borrower::OrderColumns;
use projections::reads::borrower::{self as reads, OrderListRow, OrderRow};
use projections::store::Database;
use projections::views::{LoanProgress, OrderSummary, TimelineEntry, TimelineEvent, UserInfo};
use projections::ProjectionError;

use crate::http::auth::{self, BorrowerToken, TokenKind};
use crate::http::envelope::ApiError;
use crate::runtime::state::AppState;

/// The session kind every read here checks.
const BORROWER: &str = TokenKind::Borrower.as_str();

/// `/loan/getLoanProgress`: {status, applyAmount, balance, orderId, contract} of the
/// latest order, or `None` without one.
pub async fn loan_progress(
    state: &AppState,
    token: &BorrowerToken,
) -> Result<Option<LoanProgress>, ApiError> {
    let hash = &token.hash;
    let found = own(state, move |db| async move {
        reads::progress(&db, hash, BORROWER).await
    })
    .await?;
    let (session, row) = found.unzip();
    auth::check(state, session)?;
    Ok(row.flatten().map(
        |(order_id, status, apply_amount, balance, contract)| LoanProgress {
            apply_amount,
            balance,
            contract,
            order_id,
            status,
        },
    ))
}

/// `/loan/getUserOrderList`: {orderId, status, principal, applyTime}, newest first.
pub async fn order_list(state: &AppState, user_id: Uuid) -> Result<Vec<OrderSummary>, ApiError> {
    let rows = reads::order_list(state.read_models(), &user_id.to_string()).await?;
    Ok(order_list_docs(rows))
}

/// [`order_list`] of the token's borrower, with the session check in the same statement.
pub async fn own_order_list(
    state: &AppState,
    token: &BorrowerToken,
) -> Result<Vec<OrderSummary>, ApiError> {
    let hash = &token.hash;
    let found = own(state, move |db| async move {
        reads::orders(&db, hash, BORROWER).await
    })
    .await?;
    let (session, rows) = found.unzip();
    auth::check(state, session)?;
    Ok(order_list_docs(rows.unwrap_or_default()))
}

/// Runs a read that fetches the session with its rows ([`reads`]) where the read
/// models are queried; on a read replica that has no row for the token yet (a login
/// a moment ago on the primary), once more on the primary. A revoked or expired
/// session found on the replica is not looked up again: `auth::check` refuses it, and
/// a revocation waits for the replica before it is answered ([`crate::http::auth::revoke`]).
async fn own<T, F, Fut>(state: &AppState, read: F) -> Result<Option<T>, ApiError>
where
    F: Fn(Database) -> Fut,
    Fut: Future<Output = Result<Option<T>, ProjectionError>>,
{
    let found = read(state.read_models().clone()).await?;
    if found.is_none() && state.replica.is_some() {
        return Ok(read(state.database.clone()).await?);
    }
    Ok(found)
}

fn order_list_docs(rows: Vec<OrderListRow>) -> Vec<OrderSummary> {
    rows.into_iter()
        .map(
            |(order_id, status, principal, apply_time, order_no)| OrderSummary {
                apply_time,
                order_id,
                order_no,
                principal,
                status,
            },
        )
        .collect()
}

/// `/loan/orderTimeline`: the order's events as the borrower sees them; who acted is
/// given by role, never an auditor's identity.
/// Errors: 500 when a stored entry does not decode.
pub async fn order_timeline(
    state: &AppState,
    order_id: &str,
) -> Result<Vec<TimelineEvent>, ApiError> {
    let rows = reads::timeline(state.read_models(), order_id).await?;
    rows.into_iter()
        .map(|(doc, actor)| {
            let entry: TimelineEntry = serde_json::from_str(&doc)?;
            Ok(TimelineEvent::new(entry, &actor))
        })
        .collect()
}

/// `/user/getLastWithdrawError`: the text, empty when none.
pub async fn last_withdraw_error(state: &AppState, user_id: Uuid) -> Result<String, ApiError> {
    let message = reads::last_withdraw_error(state.read_models(), &user_id.to_string()).await?;
    Ok(message.unwrap_or_default())
}

/// The token's borrower and their order (the given one, or the latest), read with
/// the session check in the same statement: its `columns` only ([`OrderColumns`]).
/// Errors: those of [`auth::check`]; 40007 when the order does not exist or belongs
/// to someone else.
pub async fn own_order(
    state: &AppState,
    token: &BorrowerToken,
    order_id: Option<&str>,
    columns: OrderColumns,
) -> Result<OwnOrder, ApiError> {
    let order_id = order_id.filter(|id| !id.is_empty());
    let hash = &token.hash;
    let found = own(state, move |db| async move {
        reads::order(&db, hash, BORROWER, order_id, columns).await
    })
    .await?;
    let (session, row) = found.unzip();
    let user_id = auth::check(state, session)?;
    let row = row
        .flatten()
        .ok_or_else(|| ApiError::code(ErrorCode::RecordNotFound))?;
    Ok(OwnOrder { user_id, row })
}

/// [`own_order`] for a call that decides from the folded order: the borrower and their
/// `Order`, the state column only. Errors: as [`own_order`] and [`OwnOrder::order`].
pub async fn own_order_state(
    state: &AppState,
    token: &BorrowerToken,
    order_id: Option<&str>,
) -> Result<(Uuid, Order), ApiError> {
    let own = own_order(state, token, order_id, OrderColumns::State).await?;
    Ok((own.user_id, own.order()?))
}

/// A borrower's own order as [`own_order`] read it.
pub struct OwnOrder {
    /// The borrower.
    pub user_id: Uuid,
    row: OrderRow,
}

impl OwnOrder {
    /// The order document (PRODUCT.md 10) as stored, to be answered as it is: its JSON
    /// text is checked, not parsed into a tree and written out again.
    /// Errors: 500 when it was not read ([`OrderColumns::State`]) or is not JSON.
    pub fn raw_doc(self) -> Result<Box<RawValue>, ApiError> {
        RawValue::from_string(read(self.row.doc, "doc")?).map_err(ApiError::internal)
    }

    /// The order document, parsed. Errors: as [`OwnOrder::raw_doc`].
    pub fn doc(&self) -> Result<Json, ApiError> {
        serde_json::from_str(read(self.row.doc.as_deref(), "doc")?).map_err(ApiError::internal)
    }

    /// The folded order. Errors: 500 when it was not read ([`OrderColumns::Doc`]) or
    /// does not decode.
    pub fn order(&self) -> Result<Order, ApiError> {
        serde_json::from_str(read(self.row.state.as_deref(), "state")?).map_err(ApiError::internal)
    }
}

/// A column of [`OwnOrder`]'s row; 500 when the call did not ask for it (a bug).
fn read<T>(column: Option<T>, name: &str) -> Result<T, ApiError> {
    column.ok_or_else(|| ApiError::internal(format!("order_detail.{name} not read")))
}

/// The newest `limit` messages the default sender wrote for `mobile`: (UTC time as
/// stored, body), newest first (the demo SMS inbox).
pub async fn sms_messages(
    state: &AppState,
    mobile: &str,
    limit: i64,
) -> Result<Vec<(String, String)>, ApiError> {
    Ok(reads::sms_messages(&state.database, mobile, limit).await?)
}

/// The user id that holds this phone number.
pub async fn user_by_mobile(state: &AppState, mobile: &str) -> Result<Option<Uuid>, ApiError> {
    let id = reads::user_by_mobile(&state.database, mobile).await?;
    Ok(id.and_then(|id| Uuid::parse_str(&id).ok()))
}

/// The borrower's `user_profile` document, with `lastOrderId` from `loan_progress`.
/// Errors: 10008 for a borrower with no profile yet; 500 when the stored document
/// does not read as a [`UserInfo`].
pub async fn user_doc(state: &AppState, user_id: Uuid) -> Result<UserInfo, ApiError> {
    let found = reads::user_doc(&state.database, &user_id.to_string()).await?;
    let (doc, last_order) = found.unzip();
    let doc = serde_json::to_string(&profile_doc(doc, last_order.flatten())?)?;
    serde_json::from_str(&doc).map_err(ApiError::internal)
}

/// [`user_doc`] of the token's borrower, with the session check in the same statement.
pub async fn own_user_doc(state: &AppState, token: &BorrowerToken) -> Result<ProfileDoc, ApiError> {
    let hash = &token.hash;
    let found = own(state, move |db| async move {
        reads::profile(&db, hash, BORROWER).await
    })
    .await?;
    let (session, doc, last_order) = match found {
        Some((session, doc, last_order)) => (Some(session), doc, last_order),
        None => (None, None, None),
    };
    auth::check(state, session)?;
    profile_doc(doc, last_order)
}

/// A `user_profile` document as answered: its top-level fields, each value kept as the
/// stored JSON text rather than parsed into a tree and written out again (the hottest
/// query, issue 14). A `BTreeMap`, so the fields come out in the order a parsed
/// `Value` writes them.
pub type ProfileDoc = BTreeMap<String, Box<RawValue>>;

/// The stored document with `lastOrderId` and `creditScore` set. Errors: 10008 for a
/// borrower with no profile yet; 500 when the stored text is not a JSON object.
fn profile_doc(doc: Option<String>, last_order: Option<String>) -> Result<ProfileDoc, ApiError> {
    let doc = doc.ok_or_else(|| ApiError::code(ErrorCode::CouldNotGetUserInfo))?;
    let mut doc: ProfileDoc = serde_json::from_str(&doc)?;
    let raw = |value: Option<String>| to_raw_value(&value).map_err(ApiError::internal);
    doc.insert("lastOrderId".to_string(), raw(last_order)?);
    // No credit scoring model is configured; the score is not invented (UserInfo).
    doc.insert("creditScore".to_string(), raw(None)?);
    Ok(doc)
}

/// The borrower's registered phone number (from `user_profile`).
pub async fn mobile_of(state: &AppState, user_id: Uuid) -> Result<String, ApiError> {
    Ok(user_doc(state, user_id).await?.doc.mobile)
}
