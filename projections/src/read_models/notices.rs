//! `notice`: the borrower's in-app inbox (PRODUCT.md 12.5), one row per
//! `ReminderDue` of their orders, written by the `orders` projection (which knows
//! each order's borrower) in the same transaction as the order's other rows.
//!
//! A notice's id is its event's identity (`<order id>:<sequence>`), so a rebuild
//! gives every notice the same id again. `notice_settled` names the installments
//! with a notice that are paid (or whose loan closed): their "due soon" and overdue
//! notices no longer ask for anything, so they read as settled, not unread (issue 52). Whether the borrower has read a notice is
//! not an event and not part of this rebuildable table: the api keeps it in
//! `notice_read` (notice id, user id, read at), which a rebuild leaves alone.

use aggregates::order::{InstallmentStatus, Order, OrderEvent, OrderStatus};

use crate::projection::{money_text, time_text};
use crate::rows::{Kind, Row, TableSpec};
use crate::store::StoredEvent;

/// `notice` (`/jackey/user/notices`): id, user, order, installment, kind
/// (`due_in_3_days`, `due_in_1_day`, `overdue`), amount still owed on it (two
/// decimals), its due date (`YYYY-MM-DD`, UTC) and when the reminder was recorded
/// (RFC 3339 UTC).
pub static NOTICE: TableSpec = TableSpec {
    name: "notice",
    key_len: 1,
    columns: &[
        ("notice_id", Kind::Text),
        ("user_id", Kind::Text),
        ("order_id", Kind::Text),
        ("period", Kind::Int),
        ("kind", Kind::Text),
        ("amount", Kind::Text),
        ("due_date", Kind::Text),
        ("created_at", Kind::Text),
    ],
};

/// The id of the notice an event of an order writes: `<order id>:<sequence>`.
pub fn notice_id(event: &StoredEvent) -> String {
    format!("{}:{}", event.aggregate_id, event.sequence)
}

/// The notice row `payload` writes for the borrower `user_id`, if it is a reminder.
pub fn notice_row(event: &StoredEvent, payload: &OrderEvent, user_id: &str) -> Option<Row> {
    let OrderEvent::ReminderDue {
        period,
        kind,
        due_date,
        amount,
        at,
    } = payload
    else {
        return None;
    };
    Some(Row {
        table: &NOTICE,
        values: vec![
            notice_id(event).into(),
            user_id.into(),
            event.aggregate_id.as_str().into(),
            i64::from(*period).into(),
            kind.as_str().into(),
            money_text(*amount).into(),
            due_date.format("%Y-%m-%d").to_string().into(),
            time_text(*at).into(),
        ],
    })
}

/// `notice_settled`: (order, installment) of each installment a notice was recorded
/// for that is now paid in full, or whose loan closed (a payoff settles every
/// installment). Only ever added: a paid installment does not become unpaid.
pub static NOTICE_SETTLED: TableSpec = TableSpec {
    name: "notice_settled",
    key_len: 2,
    columns: &[("order_id", Kind::Text), ("period", Kind::Int)],
};

/// The `notice_settled` rows of `order`: one per installment it sent a reminder for
/// that is settled now. Written with the order's other rows; rewriting a row is
/// harmless (same key, same values).
pub fn settled_rows(order_id: &str, order: &Order) -> Vec<Row> {
    let Some(loan) = &order.loan else {
        return Vec::new();
    };
    let closed = order.status == OrderStatus::Repaid;
    let mut periods: Vec<u32> = order.reminders.iter().map(|(period, _)| *period).collect();
    periods.dedup();
    periods
        .into_iter()
        .filter(|period| {
            closed
                || loan
                    .schedule
                    .iter()
                    .find(|i| i.period == *period)
                    .is_some_and(|i| i.status() == InstallmentStatus::Repaid)
        })
        .map(|period| Row {
            table: &NOTICE_SETTLED,
            values: vec![order_id.into(), i64::from(period).into()],
        })
        .collect()
}
