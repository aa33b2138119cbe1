//! The collections workbench (issue 53): the queue of late loans and a loan's
//! collection record. Tables: `collection_queue`, `collection_log` (migration 0022)
//! and `audit_queue` for the number and the borrower's name.

use chrono::NaiveDate;

use crate::projection::ProjectionError;
use crate::store::Database;

/// One row of the collections queue.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CollectionRow {
    /// The order id.
    pub order_id: String,
    /// The number people see.
    pub order_no: String,
    /// The name given at application.
    pub applicant_name: String,
    /// The oldest unpaid installment's due day, YYYY-MM-DD.
    pub oldest_unpaid_due: String,
    /// Money.
    pub overdue_amount: String,
    /// Money.
    pub outstanding: String,
    /// The collector's id, empty when none.
    pub collector: String,
    /// RFC 3339 UTC, empty when none.
    pub last_contact_at: String,
    /// Empty when none.
    pub last_outcome: String,
    /// Money, empty when no promise is open.
    pub promise_amount: String,
    /// YYYY-MM-DD, empty when no promise is open.
    pub promise_date: String,
    /// YYYY-MM-DD, empty when none.
    pub next_action_on: String,
}

/// Which late loans the queue lists.
#[derive(Debug, Default, Clone)]
pub struct CollectionFilter {
    /// Only loans whose oldest unpaid installment fell due in this range of days
    /// (inclusive): a bucket's days past due, turned into due days by the caller.
    pub due_between: Option<(NaiveDate, NaiveDate)>,
    /// Only loans assigned to this collector (`""`: unassigned).
    pub collector: Option<String>,
    /// Only loans whose next action falls on or before this day.
    pub next_action_by: Option<NaiveDate>,
}

/// Disbursed loans with an installment past due before `today`, most days past due
/// first (the oldest unpaid due day first), under `filter`; at most `limit`.
pub async fn queue(
    database: &Database,
    today: NaiveDate,
    filter: &CollectionFilter,
    limit: i64,
) -> Result<Vec<CollectionRow>, ProjectionError> {
    let day = |d: NaiveDate| d.format("%Y-%m-%d").to_string();
    // Days as YYYY-MM-DD compare in order as text, in both stores.
    let mut binds = vec![day(today)];
    let mut conditions =
        vec!["c.status = 4 and c.oldest_unpaid_due <> '' and c.oldest_unpaid_due < $1".to_string()];
    if let Some((from, to)) = filter.due_between {
        binds.push(day(from));
        binds.push(day(to));
        conditions.push(format!(
            "c.oldest_unpaid_due between ${} and ${}",
            binds.len() - 1,
            binds.len()
        ));
    }
    if let Some(collector) = &filter.collector {
        binds.push(collector.clone());
        conditions.push(format!("c.collector = ${}", binds.len()));
    }
    if let Some(by) = filter.next_action_by {
        binds.push(day(by));
        conditions.push(format!(
            "c.next_action_on <> '' and c.next_action_on <= ${}",
            binds.len()
        ));
    }
    let sql = format!(
        "select c.order_id, coalesce(q.order_no, '') as order_no, \
         coalesce(q.applicant_name, '') as applicant_name, c.oldest_unpaid_due, \
         c.overdue_amount, c.outstanding, c.collector, c.last_contact_at, c.last_outcome, \
         c.promise_amount, c.promise_date, c.next_action_on \
         from collection_queue c left join audit_queue q on q.order_id = c.order_id \
         where {} order by c.oldest_unpaid_due, c.order_id limit {limit}",
        conditions.join(" and ")
    );
    let rows = crate::with_read_pool!(database, pool => {
        let mut query = sqlx::query_as(&sql);
        for value in &binds {
            query = query.bind(value.clone());
        }
        query.fetch_all(pool).await
    })?;
    Ok(rows)
}

/// A loan's collection record: the stored entries (JSON), oldest first.
pub async fn record(database: &Database, order_id: &str) -> Result<Vec<String>, ProjectionError> {
    let sql = "select doc from collection_log where order_id = $1 order by sequence";
    Ok(fetch_scalar!(database, sql, fetch_all, order_id))
}

/// Every order that was ever disbursed (it has a `collection_queue` row), by id.
pub async fn disbursed_orders(database: &Database) -> Result<Vec<String>, ProjectionError> {
    let sql = "select order_id from collection_queue order by order_id";
    Ok(fetch_scalar!(database, sql, fetch_all))
}

/// The sum of every `loan_receivable:<order>` posting dated at or before `as_of`
/// (RFC 3339 UTC, as the journal's `at` is written), in minor units (cents).
pub async fn receivable_minor_as_of(
    database: &Database,
    as_of: &str,
) -> Result<i64, ProjectionError> {
    let sql = "select cast(coalesce(sum(amount_minor), 0) as bigint) from ledger_journal \
               where account like 'loan_receivable:%' and at <= $1";
    Ok(fetch_scalar!(database, sql, fetch_one, as_of))
}
