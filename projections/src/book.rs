//! The book by delinquency bucket as of any moment (issue 53, P20): every loan on
//! the books folded from its own events up to that moment (the aggregate's own
//! `apply`), its days past due and bucket then, and what it owed, beside the
//! ledger's `loan_receivable` balance of the same moment. The two agree: what the
//! borrowers owe on the books is what the ledger says they owe.
//!
//! An event belongs to the moment of its own time (`order_event_time`, the time the
//! ledger dates its journal entry by), so the fold and the trial balance cut the log
//! at the same place. Loans charged off by then are counted apart: they are owed but
//! off the books. Cost: every disbursed order's events are read (a report, not a
//! request path; a dated snapshot is the portfolio view's work, issue 56).

use aggregates::collections::Buckets;
use aggregates::order::Order;
use chrono::{DateTime, Utc};
use cqrs_es::Aggregate;
use rust_decimal::Decimal;

use crate::projection::{money_text, time_text, ProjectionError};
use crate::read_models::orders::order_event_time;
use crate::reads::collections as reads;
use crate::store::{load_events, Database};
use crate::views::collections::{BookAsOf, BucketLine};

/// The book as of `as_of` by the delinquency `buckets`.
pub async fn delinquency_as_of(
    database: &Database,
    buckets: &Buckets,
    as_of: DateTime<Utc>,
) -> Result<BookAsOf, ProjectionError> {
    let names = buckets.names();
    let mut lines: Vec<(u32, Decimal)> = vec![(0, Decimal::ZERO); names.len()];
    let (mut charged_off, mut charged_off_outstanding) = (0u32, Decimal::ZERO);
    for order_id in reads::disbursed_orders(database).await? {
        let events = load_events::<Order>(database, &order_id)
            .await
            .map_err(|error| ProjectionError::Load(error.to_string()))?;
        let mut order = Order::default();
        for envelope in events {
            if order_event_time(&envelope.payload) <= as_of {
                order.apply(envelope.payload);
            }
        }
        let owed = order.outstanding();
        if owed.is_zero() {
            continue; // not disbursed yet, or closed, by then
        }
        if order.collection.charge_off.is_some() {
            charged_off += 1;
            charged_off_outstanding += owed;
            continue;
        }
        let bucket = buckets.bucket(order.days_past_due(order.day_of(as_of)));
        if let Some(index) = names.iter().position(|name| *name == bucket) {
            lines[index].0 += 1;
            lines[index].1 += owed;
        }
    }
    let total: Decimal = lines.iter().map(|(_, owed)| *owed).sum();
    let minor = reads::receivable_minor_as_of(database, &time_text(as_of)).await?;
    Ok(BookAsOf {
        as_of: time_text(as_of),
        buckets: names
            .into_iter()
            .zip(lines)
            .map(|(bucket, (loans, owed))| BucketLine {
                bucket,
                loans,
                outstanding: money_text(owed),
            })
            .collect(),
        outstanding: money_text(total),
        receivable: money_text(Decimal::new(minor, 2)),
        charged_off_loans: charged_off,
        charged_off_outstanding: money_text(charged_off_outstanding),
    })
}
