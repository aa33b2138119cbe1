//! What a projection is: a named consumer of the global log that turns each event
//! into rows of its tables, through a [`RowStore`].

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Datelike, SecondsFormat, Timelike, Utc};
use rust_decimal::Decimal;
use serde::de::DeserializeOwned;

use crate::rows::{Row, RowStore, TableSpec, Value};
use crate::store::{LogPosition, StoreError, StoredEvent};

/// Why a projection step failed. The worker reports it (log and counter), rolls the
/// transaction back and retries; nothing is half-applied.
#[derive(Debug, thiserror::Error)]
pub enum ProjectionError {
    /// The database refused a statement.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// The event store could not be read.
    #[error("event store: {0}")]
    Store(#[from] StoreError),
    /// An event or a stored state could not be decoded.
    #[error("cannot decode {what} at {position}: {source}")]
    Decode {
        /// What was being decoded.
        what: &'static str,
        /// Where in the log.
        position: LogPosition,
        /// The cause.
        source: serde_json::Error,
    },
    /// An amount does not fit the ledger's two decimals.
    #[error("amount {amount} at {position} has more than two decimals")]
    Precision {
        /// The amount.
        amount: Decimal,
        /// Where in the log.
        position: LogPosition,
    },
    /// A journal entry whose postings do not sum to zero: refused in every build, so
    /// the batch rolls back, the worker counts the failure and retries, and
    /// `replay-tool verify` (which folds the log afresh) fails naming it.
    #[error("journal entry {entry} at {position} is unbalanced: its postings sum to {sum}")]
    Unbalanced {
        /// The entry's id (`aggregate type/id/sequence`).
        entry: String,
        /// The sum of its postings (zero when balanced).
        sum: Decimal,
        /// Where in the log.
        position: LogPosition,
    },
    /// Another worker moved the checkpoint first; this batch was rolled back.
    #[error("checkpoint of {0} moved by another worker")]
    CheckpointMoved(String),
    /// An aggregate's events could not be loaded.
    #[error("cannot load aggregate: {0}")]
    Load(String),
    /// A read model row's document could not be decoded ([`crate::reads`]).
    #[error("cannot decode a stored {what}: {source}")]
    Stored {
        /// What the row holds.
        what: &'static str,
        /// The cause.
        source: serde_json::Error,
    },
    /// A test failpoint stopped the worker between steps.
    #[error("failpoint: {0}")]
    Failpoint(&'static str),
}

/// A read-model projection.
#[async_trait]
pub trait Projection: Send + Sync {
    /// Permanent name: the checkpoint key and `replay-tool rebuild --projection NAME`.
    fn name(&self) -> &'static str;

    /// The tables it owns (and `rebuild` empties).
    fn tables(&self) -> &'static [&'static TableSpec];

    /// The aggregate types whose events it applies (`Aggregate::TYPE`). A live batch
    /// holding none of them leaves its tables alone: its checkpoint then moves in a
    /// transaction another read model opens anyway ([`crate::consumer::runner::Runner`]).
    fn follows(&self) -> &'static [&'static str];

    /// True when `event` is of an aggregate type it [follows](Projection::follows).
    fn applies_to(&self, event: &StoredEvent) -> bool {
        self.follows().contains(&event.aggregate_type.as_str())
    }

    /// Applies a run of events, in log order, within one store transaction (a live
    /// worker's batch, or a page of a rebuild); events of aggregate types it does not
    /// follow are ignored. The rows after the run are those that applying the events one
    /// at a time would leave; a projection may write each row once per run.
    async fn apply_all(
        &self,
        store: &mut dyn RowStore,
        events: &[StoredEvent],
    ) -> Result<(), ProjectionError>;
}

/// Every read-model projection, in a fixed order.
pub fn all() -> Vec<Arc<dyn Projection>> {
    vec![
        Arc::new(crate::read_models::users::UsersProjection),
        Arc::new(crate::read_models::orders::OrdersProjection),
        Arc::new(crate::read_models::wallets::WalletsProjection),
        Arc::new(crate::read_models::ledger::LedgerProjection),
        Arc::new(crate::read_models::receipts::ReceiptsProjection),
    ]
}

/// The projection called `name`.
pub fn by_name(name: &str) -> Option<Arc<dyn Projection>> {
    all().into_iter().find(|p| p.name() == name)
}

/// Decodes an event payload, once for every reader of the same batch
/// ([`crate::store::Payload::shared`]): borrowed when another read model already
/// decoded it.
pub(crate) fn decode<E>(event: &StoredEvent) -> Result<Cow<'_, E>, ProjectionError>
where
    E: DeserializeOwned + Clone + Send + Sync + 'static,
{
    event
        .payload
        .shared()
        .map_err(|source| ProjectionError::Decode {
            what: "event payload",
            position: event.position,
            source,
        })
}

/// The aggregates a run of events touches, each with the state a projection keeps in
/// the `state` column of its table: loaded once, brought up to date event by event in
/// memory, and handed back in first-touched order for the projection to write its rows
/// once. A live batch or a rebuild page thus decodes, renders and serialises each
/// aggregate's rows once per run instead of once per event (bench/PROFILE.md, replay).
///
/// `X` is what the projection keeps beside the state while the run lasts, made from the
/// row as stored before the run (`None` for a new aggregate).
pub(crate) struct StateCache<A, X> {
    touched: Vec<Touched<A, X>>,
    index: HashMap<String, usize>,
}

/// One aggregate of a [`StateCache`].
pub(crate) struct Touched<A, X> {
    /// The aggregate id (the row key).
    pub id: String,
    /// Its state after the events applied so far.
    pub state: A,
    /// The projection's own notes for this run.
    pub extra: X,
}

impl<A: cqrs_es::Aggregate, X> StateCache<A, X> {
    /// An empty cache.
    pub fn new() -> Self {
        Self {
            touched: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// Reads ahead, in one [`RowStore::prefetch`], the rows of every aggregate of
    /// `events` that [`StateCache::entry`] will load from `table`.
    pub async fn preload<'e>(
        &self,
        store: &mut dyn RowStore,
        table: &'static TableSpec,
        events: impl Iterator<Item = &'e StoredEvent> + Send,
    ) -> Result<(), ProjectionError> {
        let mut keys = events.map(|event| Value::from(event.aggregate_id.as_str()));
        store.prefetch(table, &mut keys).await
    }

    /// The event's aggregate, loaded from `table` (its `state` column) on first touch
    /// with `extra` made from the stored row; `A::default()` before its first event.
    /// Errors: the store's, or [`ProjectionError::Decode`] for an unreadable state.
    pub async fn entry(
        &mut self,
        store: &mut dyn RowStore,
        table: &'static TableSpec,
        event: &StoredEvent,
        extra: impl FnOnce(Option<&Row>) -> X,
    ) -> Result<&mut Touched<A, X>, ProjectionError> {
        let id = event.aggregate_id.as_str();
        let slot = match self.index.get(id) {
            Some(&slot) => slot,
            None => {
                let row = store.get(table, &[Value::from(id)]).await?;
                let state = match &row {
                    None => A::default(),
                    Some(row) => serde_json::from_str(row.text("state")).map_err(|source| {
                        ProjectionError::Decode {
                            what: "projection state",
                            position: event.position,
                            source,
                        }
                    })?,
                };
                self.touched.push(Touched {
                    id: id.to_string(),
                    state,
                    extra: extra(row.as_ref()),
                });
                self.index.insert(id.to_string(), self.touched.len() - 1);
                self.touched.len() - 1
            }
        };
        Ok(&mut self.touched[slot])
    }

    /// The aggregates touched, in first-touched order.
    pub fn into_touched(self) -> Vec<Touched<A, X>> {
        self.touched
    }
}

/// JSON text of a value that always serializes (our own types).
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("read-model values serialize")
}

/// When the event was committed (`recorded_at` metadata); the Unix epoch for an event
/// written without it, so a rebuild still gives the same rows.
pub fn recorded_at(event: &StoredEvent) -> DateTime<Utc> {
    event
        .metadata
        .get(crate::store::RECORDED_AT)
        .and_then(|text| DateTime::parse_from_rfc3339(&text).ok())
        .map_or(DateTime::UNIX_EPOCH, |at| at.with_timezone(&Utc))
}

/// RFC 3339 UTC with microseconds, `2026-11-29T03:46:25.123456Z`: text order is time
/// order. The same text as `to_rfc3339_opts(SecondsFormat::Micros, true)` (the
/// fraction truncated, not rounded), written digit by digit for the years 0–9999
/// without a leap second: chrono's formatter through `fmt` was about 2 % of a
/// rebuild's instructions (bench/PROFILE.md, "Session of 2026-11-29 (second)").
pub fn time_text(at: DateTime<Utc>) -> String {
    let nanos = at.nanosecond();
    let (Ok(year @ 0..=9999), 0..=999_999_999) = (u32::try_from(at.year()), nanos) else {
        return at.to_rfc3339_opts(SecondsFormat::Micros, true);
    };
    let mut text = *b"0000-00-00T00:00:00.000000Z";
    // (value, index one past its last digit, digits)
    let fields = [
        (year, 4, 4),
        (at.month(), 7, 2),
        (at.day(), 10, 2),
        (at.hour(), 13, 2),
        (at.minute(), 16, 2),
        (at.second(), 19, 2),
        (nanos / 1_000, 26, 6),
    ];
    for (mut value, end, digits) in fields {
        for digit in text[end - digits..end].iter_mut().rev() {
            *digit = b'0' + (value % 10) as u8;
            value /= 10;
        }
    }
    String::from_utf8_lossy(&text).into_owned()
}

/// Money with two decimals, as stored and sent (PRODUCT.md 4.4).
pub fn money_text(amount: Decimal) -> String {
    aggregates::money::text(amount)
}

/// The `actor` of an event's metadata (`user:<id>`, `auditor:<id>`, `system`).
pub(crate) fn actor_of(event: &StoredEvent) -> String {
    event
        .metadata
        .get("actor")
        .map_or_else(|| "system".to_string(), Cow::into_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn money_has_two_decimals_and_times_sort_as_text() {
        assert_eq!(money_text(dec!(80960.0)), "80960.00");
        assert_eq!(money_text(dec!(13493.3)), "13493.30");
        assert_eq!(money_text(dec!(0)), "0.00");
        let a = time_text(DateTime::from_timestamp(1_700_000_000, 5_000).unwrap());
        let b = time_text(DateTime::from_timestamp(1_700_000_001, 0).unwrap());
        assert!(a < b, "{a} < {b}");
        assert!(a.ends_with('Z'));
    }

    #[test]
    fn time_text_is_chronos_rfc3339_with_microseconds() {
        let chrono_text = |at: DateTime<Utc>| at.to_rfc3339_opts(SecondsFormat::Micros, true);
        // Every year 0–9999 and fractions that truncate (999 ns), plus the fallbacks:
        // a leap second, a negative year, a five-digit year.
        let mut seconds: i64 = -62_167_219_200; // 0000-01-01T00:00:00Z
        let mut nanos: u32 = 0;
        while seconds < 253_402_300_800 {
            let at = DateTime::from_timestamp(seconds, nanos).unwrap();
            assert_eq!(time_text(at), chrono_text(at));
            seconds += 31_556_927; // about a year and some seconds: every field moves
            nanos = (nanos + 123_456_999) % 1_000_000_000;
        }
        for (seconds, nanos) in [
            (1_483_228_799, 1_500_000_000), // 2016-12-31T23:59:60.5Z
            (-62_167_219_201, 0),
            (253_402_300_800, 7_000),
            (0, 0),
            (1_700_000_000, 999),
        ] {
            let at = DateTime::from_timestamp(seconds, nanos).unwrap();
            assert_eq!(time_text(at), chrono_text(at), "{seconds} {nanos}");
        }
    }
}
