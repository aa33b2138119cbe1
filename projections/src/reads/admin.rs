//! The auditor console (PRODUCT.md 7): the review queue, an order and its
//! applicant, the timeline, the journal and the trial balance. Tables: the read
//! models of [`crate::read_models::orders`], [`crate::read_models::users`] and [`crate::read_models::ledger`], and the api's
//! `auditor` (names only).

use std::collections::HashMap;

use crate::projection::ProjectionError;
use crate::store::Database;

/// One row of the review queue: the `audit_queue` row and the applicant's
/// `user_profile` columns (null when the users read model has no row yet).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct QueueRow {
    /// The order id.
    pub order_id: String,
    /// The borrower's user id.
    pub user_id: String,
    /// The status code (PRODUCT.md 4.3).
    pub status: i64,
    /// The name given at application.
    pub applicant_name: String,
    /// The product's name.
    pub product_name: String,
    /// The amount applied for: money.
    pub amount: String,
    /// The loan's period in days.
    pub period_days: i64,
    /// When the borrower applied: RFC 3339 UTC.
    pub applied_at: String,
    /// When the order last changed: RFC 3339 UTC.
    pub updated_at: String,
    /// The order's number (`HL-2611-000123`).
    pub order_no: String,
    /// The applicant's phone number.
    pub mobile: Option<String>,
    /// The applicant's identity status (PRODUCT.md 4.1).
    pub identity_status: Option<i64>,
}

impl From<QueueRow> for crate::views::console::QueueItem {
    fn from(row: QueueRow) -> Self {
        Self {
            order_id: row.order_id,
            order_no: row.order_no,
            status: row.status,
            apply_amount: row.amount,
            period_days: row.period_days,
            product_name: row.product_name,
            apply_time: row.applied_at,
            updated_at: row.updated_at,
            applicant: crate::views::console::QueueApplicant {
                user_id: row.user_id,
                real_name: row.applicant_name,
                mobile: row.mobile,
                identity_status: row.identity_status,
            },
        }
    }
}

/// Which orders the review queue lists.
#[derive(Debug, Default, Clone)]
pub struct QueueFilter {
    /// Only this status (section 4.3 codes).
    pub status: Option<i64>,
    /// Only orders not yet closed (not refused, repaid, cancelled or expired: 4.2).
    pub open_only: bool,
    /// Part of the applicant's name or mobile, or of the order number or id
    /// (case-insensitive).
    pub search: Option<String>,
}

/// A page of the review queue (oldest first) under `filter`, and the total.
pub async fn queue(
    database: &Database,
    filter: &QueueFilter,
    limit: i64,
    offset: i64,
) -> Result<(Vec<QueueRow>, i64), ProjectionError> {
    // Each condition names its parameter by number; the values bind in that order.
    let mut conditions = Vec::new();
    let mut next = 1;
    if filter.status.is_some() {
        conditions.push(format!("q.status = ${next}"));
        next += 1;
    }
    if filter.open_only {
        conditions.push("q.status not in (5, 10, 11, 12, 13)".to_string());
    }
    let pattern = filter.search.as_deref().map(|text| {
        let escaped = text
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        format!("%{}%", escaped.to_lowercase())
    });
    if pattern.is_some() {
        conditions.push(format!(
            "(lower(q.applicant_name) like ${next} escape '\\' or lower(coalesce(u.mobile, '')) like ${next} escape '\\' \
             or lower(q.order_no) like ${next} escape '\\' or lower(q.order_id) like ${next} escape '\\')"
        ));
        next += 1;
    }
    let filter_sql = if conditions.is_empty() {
        String::new()
    } else {
        format!("where {}", conditions.join(" and "))
    };
    let from = "from audit_queue q left join user_profile u on u.user_id = q.user_id";
    let sql = format!(
        "select q.order_id, q.user_id, q.status, q.applicant_name, q.product_name, q.amount, \
         q.period_days, q.applied_at, q.updated_at, q.order_no, u.mobile, u.identity_status \
         {from} {filter_sql} order by q.applied_at, q.order_id limit ${next} offset ${}",
        next + 1
    );
    let count_sql = format!("select count(*) {from} {filter_sql}");
    let rows: Vec<QueueRow> = crate::with_read_pool!(database, pool => {
        let mut query = sqlx::query_as(&sql);
        if let Some(status) = filter.status {
            query = query.bind(status);
        }
        if let Some(pattern) = &pattern {
            query = query.bind(pattern.clone());
        }
        query.bind(limit).bind(offset).fetch_all(pool).await
    })?;
    let total: i64 = crate::with_read_pool!(database, pool => {
        let mut query = sqlx::query_scalar(&count_sql);
        if let Some(status) = filter.status {
            query = query.bind(status);
        }
        if let Some(pattern) = &pattern {
            query = query.bind(pattern.clone());
        }
        query.fetch_one(pool).await
    })?;
    Ok((rows, total))
}

/// An order's `order_detail` row: (doc, state).
pub async fn order_row(
    database: &Database,
    order_id: &str,
) -> Result<Option<(String, String)>, ProjectionError> {
    let sql = "select doc, state from order_detail where order_id = $1";
    Ok(fetch!(database, sql, fetch_optional, order_id))
}

/// An applicant's `user_profile` row: (doc, state, identity status).
pub async fn applicant(
    database: &Database,
    user_id: &str,
) -> Result<Option<(String, String, i64)>, ProjectionError> {
    let sql = "select doc, state, identity_status from user_profile where user_id = $1";
    Ok(fetch!(database, sql, fetch_optional, user_id))
}

/// A user's folded state as the users read model has it.
pub async fn user_state(
    database: &Database,
    user_id: &str,
) -> Result<Option<String>, ProjectionError> {
    let sql = "select state from user_profile where user_id = $1";
    Ok(fetch_scalar!(database, sql, fetch_optional, user_id))
}

/// An order's timeline with each event's actor: (doc, actor), in order (the
/// borrower's query, the same rows).
pub use super::borrower::timeline;

/// Auditor id → username, to show who acted in the history.
pub async fn auditor_names(
    database: &Database,
) -> Result<HashMap<String, String>, ProjectionError> {
    let sql = "select auditor_id, username from auditor";
    let rows: Vec<(String, String)> =
        crate::with_read_pool!(database, pool => sqlx::query_as(sql).fetch_all(pool).await)?;
    Ok(rows.into_iter().collect())
}

/// Who or what a ledger account belongs to, from the read models: a
/// `loan_receivable:<order>` names its order (`audit_queue`), a
/// `borrower_wallet:<user>` the user's latest order (`loan_progress` → `audit_queue`);
/// from either, the order number and the applicant's name. Other accounts are the
/// lender's own and name nobody.
#[derive(Debug, Clone, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct AccountHolder {
    /// The order's human number ("HL-2611-000123"); `None` for the lender's accounts.
    pub order_no: Option<String>,
    /// The applicant's name at the application; `None` for the lender's accounts.
    pub holder_name: Option<String>,
}

/// The joins that find an account's [`AccountHolder`] for the ledger rows aliased
/// `{account}`: `hr` (the receivable's order) and `hw` (the wallet owner's latest order).
/// Both prefixes are 16 characters long; every join is on a primary key.
fn holder_joins(account: &str) -> String {
    format!(
        "left join audit_queue hr on substr({account}, 1, 16) = 'loan_receivable:' \
           and hr.order_id = substr({account}, 17) \
         left join loan_progress hp on substr({account}, 1, 16) = 'borrower_wallet:' \
           and hp.user_id = substr({account}, 17) \
         left join audit_queue hw on hw.order_id = hp.order_id"
    )
}

/// The holder columns (order number, applicant name) of [`holder_joins`].
const HOLDER_COLUMNS: &str = "coalesce(hr.order_no, hw.order_no) as order_no, \
     coalesce(hr.applicant_name, hw.applicant_name) as holder_name";

/// A journal posting: entry, posting number, time, order, the order's number (empty
/// when unknown), account, amount, description, and who the account belongs to.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PostingRow {
    /// `<aggregate type>/<id>/<sequence>` of the event that caused the entry.
    pub entry_id: String,
    /// From 1 within the entry.
    pub posting_no: i64,
    /// RFC 3339 UTC.
    pub at: String,
    /// The order the entry concerns.
    pub order_id: String,
    /// That order's human number, when the queue has it.
    pub entry_order_no: Option<String>,
    /// `lender_cash`, `loan_receivable:<order>`, `borrower_wallet:<user>`, ...
    pub account: String,
    /// Signed decimal text with two places: debits positive.
    pub amount: String,
    /// What happened, in words.
    pub description: String,
    /// Who the account belongs to.
    #[sqlx(flatten)]
    pub holder: AccountHolder,
}

/// Which journal entries [`journal`] lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JournalFilter {
    /// Every entry.
    All,
    /// The entries of this order (its id).
    Order(String),
    /// The entries of the order with this number (`HL-2611-000010`, as the console shows it).
    OrderNo(String),
    /// The entries with a posting to this account.
    Account(String),
}

/// A page of journal entries (oldest first, every posting of each) under `filter`,
/// and the number of entries under it.
pub async fn journal(
    database: &Database,
    filter: &JournalFilter,
    limit: i64,
    offset: i64,
) -> Result<(Vec<PostingRow>, i64), ProjectionError> {
    let (filter, value) = match filter {
        JournalFilter::All => ("", None),
        JournalFilter::Order(order_id) => ("where order_id = $1", Some(order_id)),
        JournalFilter::OrderNo(order_no) => (
            "where order_id = (select order_id from audit_queue where order_no = $1)",
            Some(order_no),
        ),
        JournalFilter::Account(account) => (
            "where entry_id in (select entry_id from ledger_journal where account = $1)",
            Some(account),
        ),
    };
    let next = if value.is_some() { 2 } else { 1 };
    // Paged by entry (oldest first); every posting of a listed entry is returned.
    let sql = format!(
        "select j.entry_id, j.posting_no, j.at, j.order_id, eq.order_no as entry_order_no, \
         j.account, j.amount, j.description, {HOLDER_COLUMNS} \
         from ledger_journal j join (select entry_id, min(at) as first_at from ledger_journal \
         {filter} group by entry_id order by first_at, entry_id limit ${next} offset ${}) p \
         on p.entry_id = j.entry_id \
         left join audit_queue eq on eq.order_id = j.order_id {} \
         order by p.first_at, j.entry_id, j.posting_no",
        next + 1,
        holder_joins("j.account"),
    );
    let count_sql = format!("select count(distinct entry_id) from ledger_journal {filter}");
    let rows: Vec<PostingRow> = crate::with_read_pool!(database, pool => {
        let mut query = sqlx::query_as(&sql);
        if let Some(value) = value {
            query = query.bind(value);
        }
        query.bind(limit).bind(offset).fetch_all(pool).await
    })?;
    let total: i64 = crate::with_read_pool!(database, pool => {
        let mut query = sqlx::query_scalar(&count_sql);
        if let Some(value) = value {
            query = query.bind(value);
        }
        query.fetch_one(pool).await
    })?;
    Ok((rows, total))
}

/// One account of the trial balance.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AccountRow {
    /// The account's name in the journal.
    pub account: String,
    /// Debit balances positive, in minor units (centavos).
    pub balance_minor: i64,
    /// How many postings it has.
    pub postings: i64,
    /// Who the account belongs to.
    #[sqlx(flatten)]
    pub holder: AccountHolder,
}

/// Every ledger account with its balance and holder, by account name.
pub async fn trial_balance(database: &Database) -> Result<Vec<AccountRow>, ProjectionError> {
    let sql = format!(
        "select b.account, b.balance_minor, b.postings, {HOLDER_COLUMNS} \
         from ledger_balances b {} order by b.account",
        holder_joins("b.account")
    );
    Ok(crate::with_read_pool!(database, pool => sqlx::query_as(&sql).fetch_all(pool).await)?)
}
