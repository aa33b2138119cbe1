//! The global event log: every aggregate's events in one order, read page by page
//! after a checkpoint.
//!
//! Guarantee: a reader that keeps calling [`EventLog::read_after`] with the position of
//! the last event it received sees every committed event exactly once, in an order that
//! never changes — no event can later appear behind a position already returned.
//!
//! - SQLite has a single writer, so the `global_position` assigned by the insert trigger
//!   grows in commit order; the transaction id is always 0.
//! - PostgreSQL commits concurrently, and identity values are handed out at insert time,
//!   so a transaction that inserts early and commits late would land behind a checkpoint a
//!   plain `global_position > checkpoint` reader has already passed. The log is therefore
//!   ordered by `(transaction_id, global_position)` and only rows of transactions older
//!   than the oldest one still in flight (`pg_snapshot_xmin`) are returned: those can no
//!   longer change, so the order of everything returned is final.

use std::any::Any;
use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

use serde_json::Value;

use super::metadata::Metadata;
use super::sealing::DataKeys;
use super::{Database, StoreError};

/// A place in the global event log; events are ordered by `(transaction_id, global_position)`.
///
/// Store the position of the last event processed as a checkpoint and pass it to
/// [`EventLog::read_after`] to continue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct LogPosition {
    /// PostgreSQL: the id (`xid8`) of the transaction that appended the event. SQLite: always 0.
    pub transaction_id: i64,
    /// The event's `global_position` column: unique, growing with insertion order.
    pub global_position: i64,
}

impl LogPosition {
    /// Before the first event: reading after it returns the log from the beginning.
    pub const START: Self = Self {
        transaction_id: 0,
        global_position: 0,
    };
}

/// The text form `"<transaction_id>:<global_position>"` (as [`fmt::Display`] writes
/// it) could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a log position is two non-negative integers, \"<transaction>:<position>\"")]
pub struct BadLogPosition;

impl std::str::FromStr for LogPosition {
    type Err = BadLogPosition;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (transaction_id, global_position) =
            text.trim().split_once(':').ok_or(BadLogPosition)?;
        let number = |part: &str| {
            part.parse::<i64>()
                .ok()
                .filter(|n| *n >= 0)
                .ok_or(BadLogPosition)
        };
        Ok(Self {
            transaction_id: number(transaction_id)?,
            global_position: number(global_position)?,
        })
    }
}

impl fmt::Display for LogPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.transaction_id, self.global_position)
    }
}

/// One event as stored, with its place in the global log; the payload is still JSON
/// text, because a log reader handles the events of every aggregate type.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    /// Where the event sits in the global log.
    pub position: LogPosition,
    /// The aggregate's `Aggregate::TYPE`, e.g. `"Order"`.
    pub aggregate_type: String,
    /// The aggregate instance the event belongs to.
    pub aggregate_id: String,
    /// The event's number within its aggregate, starting at 1.
    pub sequence: i64,
    /// `DomainEvent::event_type` of the payload.
    pub event_type: String,
    /// `DomainEvent::event_version` of the payload.
    pub event_version: String,
    /// The serialized event, its sealed personal fields opened (or erased).
    pub payload: Payload,
    /// The metadata the command was executed with (a JSON object of strings).
    pub metadata: Metadata,
}

impl StoredEvent {
    /// The `request_id` of the request whose command wrote this event (empty when
    /// its metadata has none), so a workflow's log lines name the request it serves.
    pub fn request_id(&self) -> Cow<'_, str> {
        self.metadata.get("request_id").unwrap_or_default()
    }
}

/// An event's payload as the log holds it: JSON text, with its sealed personal fields
/// already opened (or erased).
///
/// It stays text until a reader decodes it, straight into that reader's event type
/// ([`Payload::decode`]): a rebuild then parses each event once, where text →
/// [`Value`] → typed event parsed, walked and dropped a whole tree per event in the
/// log reader (bench/PROFILE.md, "where the replay's time goes now").
///
/// Several readers of one batch (the orders, ledger and receipts read models all read
/// every order event) share one parse: [`Payload::shared`] keeps the first decoded
/// event beside the text (bench/PROFILE.md, "an event decoded once per batch").
pub struct Payload {
    text: Box<str>,
    /// The event [`Payload::shared`] decoded first, for the next reader of its type.
    decoded: OnceLock<Box<dyn Any + Send + Sync>>,
}

impl Payload {
    /// The payload whose JSON text is `text` (not checked here: readers' decodes are).
    fn new(text: Box<str>) -> Self {
        Self {
            text,
            decoded: OnceLock::new(),
        }
    }

    /// The payload that serializes `value`.
    pub fn from_value(value: &Value) -> Self {
        Self::new(value.to_string().into_boxed_str())
    }

    /// The JSON text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The payload as an event of type `T`, parsed once for every reader of this
    /// payload that asks for a `T`: the first parses and keeps the event, the others
    /// borrow it (a reader that needs it owned clones it, cheaper than a parse). Two
    /// readers racing on one payload may both parse it; one keeps its event. A payload
    /// asked for as two different types keeps the first and parses for the other.
    ///
    /// # Errors
    /// The text is not JSON, or not a `T` (nothing is kept then).
    pub fn shared<T>(&self) -> serde_json::Result<Cow<'_, T>>
    where
        T: serde::de::DeserializeOwned + Clone + Send + Sync + 'static,
    {
        if let Some(kept) = self.decoded.get() {
            if let Some(event) = kept.downcast_ref::<T>() {
                return Ok(Cow::Borrowed(event));
            }
            return self.decode().map(Cow::Owned);
        }
        let event: T = self.decode()?;
        match self.decoded.set(Box::new(event)) {
            Ok(()) => Ok(Cow::Borrowed(
                self.decoded
                    .get()
                    .and_then(|kept| kept.downcast_ref::<T>())
                    .expect("the event was just kept"),
            )),
            // Another reader kept its own first: ours is returned owned.
            Err(ours) => Ok(Cow::Owned(
                *ours
                    .downcast::<T>()
                    .expect("the box holds the T just put in"),
            )),
        }
    }

    /// The payload as an event of type `T` (one parse of the text).
    ///
    /// # Errors
    /// The text is not JSON, or not a `T`.
    pub fn decode<T: serde::de::DeserializeOwned>(&self) -> serde_json::Result<T> {
        serde_json::from_str(&self.text)
    }

    /// The payload as a JSON tree, for readers that look into any event's fields.
    ///
    /// # Errors
    /// The text is not JSON.
    pub fn to_value(&self) -> serde_json::Result<Value> {
        serde_json::from_str(&self.text)
    }

    /// Whether the text may hold a sealed value: a `"$sealed"` key, or an escape that
    /// could spell one. Payloads without either are passed on as they are; the others
    /// are parsed and opened ([`DataKeys::open_all`]).
    fn may_hold_sealed(&self) -> bool {
        self.text.contains(super::sealing::SEALED) || self.text.contains("\\u")
    }
}

/// A copy of the text; the kept event is not copied (the copy parses again).
impl Clone for Payload {
    fn clone(&self) -> Self {
        Self::new(self.text.clone())
    }
}

/// Payloads are equal when their texts are.
impl PartialEq for Payload {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for Payload {}

impl fmt::Debug for Payload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Payload").field(&self.text).finish()
    }
}

/// Reads the global event log of a [`Database`].
#[derive(Debug, Clone)]
pub struct EventLog {
    database: Database,
    keys: DataKeys,
}

impl EventLog {
    /// A reader of `database`'s event log.
    pub fn new(database: &Database) -> Self {
        Self {
            database: database.clone(),
            keys: DataKeys::new(database),
        }
    }

    /// Number of events in the log (committed, visible to this reader).
    pub async fn count(&self) -> Result<usize, StoreError> {
        let sql = "select count(*) from events";
        let count: i64 = match &self.database {
            Database::Sqlite { reads: pool, .. } => sqlx::query_scalar(sql).fetch_one(pool).await?,
            Database::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await?,
        };
        Ok(usize::try_from(count).unwrap_or_default())
    }

    /// Up to `limit` events positioned after `after`, in log order (a `limit` below 1
    /// returns nothing). Fewer than `limit` events does not mean the end of the log for
    /// good: on PostgreSQL, events of later transactions are held back while an older
    /// transaction is still in flight, and returned once it finishes.
    ///
    /// Call it outside any transaction that has written: that transaction would count as
    /// in flight and hold back everything after it.
    ///
    /// Sealed personal fields come opened, or as erased once the borrower's key is gone
    /// ([`super::sealing`]).
    ///
    /// # Errors
    /// [`StoreError::Database`] when the query fails or a row cannot be decoded,
    /// [`StoreError::Unsealable`] when a sealed value does not open.
    pub async fn read_after(
        &self,
        after: LogPosition,
        limit: i64,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let limit = limit.max(0);
        let rows: Vec<EventRow> = match &self.database {
            Database::Sqlite { reads: pool, .. } => {
                sqlx::query_as(
                    "select 0 as transaction_id, global_position, aggregate_type, aggregate_id,
                            sequence, event_type, event_version, payload, metadata
                     from events
                     where global_position > ?1
                     order by global_position
                     limit ?2",
                )
                .bind(after.global_position)
                .bind(limit)
                .fetch_all(pool)
                .await?
            }
            Database::Postgres(pool) => {
                // xid8 has no cast to or from bigint; text is the bridge in both directions.
                // The `e.` prefixes matter: a bare `order by transaction_id` would sort by the
                // bigint output column and forgo the (transaction_id, global_position) index.
                sqlx::query_as(
                    "select e.transaction_id::text::bigint as transaction_id, e.global_position,
                            e.aggregate_type, e.aggregate_id, e.sequence, e.event_type,
                            e.event_version, e.payload::text as payload,
                            e.metadata::text as metadata
                     from events e
                     where (e.transaction_id, e.global_position) > ($1::text::xid8, $2)
                       and e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
                     order by e.transaction_id, e.global_position
                     limit $3",
                )
                .bind(after.transaction_id)
                .bind(after.global_position)
                .bind(limit)
                .fetch_all(pool)
                .await?
            }
        };
        let mut events: Vec<StoredEvent> = rows.into_iter().map(StoredEvent::from).collect();
        // Every reader of the log sees personal fields opened, or erased (ADR 0012). Only
        // the payloads that may hold one are parsed for that, and written back as text.
        let mut sealed = Vec::new();
        for (index, event) in events.iter().enumerate() {
            if event.payload.may_hold_sealed() {
                let value = event.payload.to_value().map_err(|source| {
                    StoreError::Database(sqlx::Error::Decode(Box::new(source)))
                })?;
                sealed.push((index, value));
            }
        }
        self.keys
            .open_all(sealed.iter_mut().map(|(_, payload)| payload))
            .await?;
        for (index, payload) in sealed {
            events[index].payload = Payload::from_value(&payload);
        }
        Ok(events)
    }

    /// Where the newest event of one aggregate sits in the log (`None` when it has no
    /// event): what a command answers as `X-Log-Position`, so that the caller's
    /// next query waits for exactly its own write and not for anyone else's.
    ///
    /// # Errors
    /// [`StoreError::Database`] when the query fails.
    pub async fn position_of(
        &self,
        aggregate_type: &str,
        aggregate_id: &str,
    ) -> Result<Option<LogPosition>, StoreError> {
        // SQLite has no transaction ids (always 0); xid8 reaches bigint through text.
        let transaction = match &self.database {
            Database::Sqlite { .. } => "0",
            Database::Postgres(_) => "transaction_id::text::bigint",
        };
        let sql = format!(
            "select {transaction}, global_position from events
             where aggregate_type = $1 and aggregate_id = $2
             order by sequence desc limit 1"
        );
        let row: Option<(i64, i64)> = match &self.database {
            Database::Sqlite { reads: pool, .. } => {
                sqlx::query_as(&sql)
                    .bind(aggregate_type)
                    .bind(aggregate_id)
                    .fetch_optional(pool)
                    .await?
            }
            Database::Postgres(pool) => {
                sqlx::query_as(&sql)
                    .bind(aggregate_type)
                    .bind(aggregate_id)
                    .fetch_optional(pool)
                    .await?
            }
        };
        Ok(row.map(|(transaction_id, global_position)| LogPosition {
            transaction_id,
            global_position,
        }))
    }

    /// The position of the newest committed event ([`LogPosition::START`] for an empty log).
    ///
    /// Once a reader's checkpoint has reached it, that reader has seen every event committed
    /// before this call — what a read-your-writes wait after a command needs. On PostgreSQL
    /// it may be ahead of what [`EventLog::read_after`] returns yet, while an older
    /// transaction is still in flight.
    ///
    /// # Errors
    /// [`StoreError::Database`] when the query fails.
    pub async fn head(&self) -> Result<LogPosition, StoreError> {
        match &self.database {
            Database::Sqlite { reads: pool, .. } => {
                let global_position: i64 =
                    sqlx::query_scalar("select coalesce(max(global_position), 0) from events")
                        .fetch_one(pool)
                        .await?;
                Ok(LogPosition {
                    transaction_id: 0,
                    global_position,
                })
            }
            Database::Postgres(pool) => {
                // Qualified for the same reason as in `read_after`: to sort by the indexed xid8.
                let newest: Option<(i64, i64)> = sqlx::query_as(
                    "select e.transaction_id::text::bigint, e.global_position
                     from events e
                     order by e.transaction_id desc, e.global_position desc
                     limit 1",
                )
                .fetch_optional(pool)
                .await?;
                Ok(match newest {
                    Some((transaction_id, global_position)) => LogPosition {
                        transaction_id,
                        global_position,
                    },
                    None => LogPosition::START,
                })
            }
        }
    }
}

/// A row of `events` as both back ends return it.
#[derive(sqlx::FromRow)]
struct EventRow {
    transaction_id: i64,
    global_position: i64,
    aggregate_type: String,
    aggregate_id: String,
    sequence: i64,
    event_type: String,
    event_version: String,
    payload: String,
    metadata: String,
}

impl From<EventRow> for StoredEvent {
    fn from(row: EventRow) -> Self {
        Self {
            position: LogPosition {
                transaction_id: row.transaction_id,
                global_position: row.global_position,
            },
            aggregate_type: row.aggregate_type,
            aggregate_id: row.aggregate_id,
            sequence: row.sequence,
            event_type: row.event_type,
            event_version: row.event_version,
            payload: Payload::new(row.payload.into_boxed_str()),
            metadata: Metadata::from_text(row.metadata),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn payloads_that_may_hold_a_sealed_value_are_the_ones_opened() {
        let plain = Payload::from_value(&json!({"Registered": {"name": "Ana"}}));
        let sealed = Payload::from_value(&json!({"Bound": {"account": {"$sealed": "v1:u:AA"}}}));
        // The same key spelled with an escape, which a JSON writer other than ours may use.
        let escaped = Payload::new(r#"{"Bound":{"account":{"\u0024sealed":"v1:u:AA"}}}"#.into());
        assert!(!plain.may_hold_sealed());
        assert!(sealed.may_hold_sealed());
        assert!(escaped.may_hold_sealed());
        assert_eq!(escaped.to_value().unwrap(), sealed.to_value().unwrap());
    }

    #[test]
    fn a_payload_decodes_straight_into_its_event_type() {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        enum Event {
            Registered { name: String },
        }
        let payload = Payload::from_value(&json!({"Registered": {"name": "Ana"}}));
        assert_eq!(
            payload.decode::<Event>().unwrap(),
            Event::Registered { name: "Ana".into() }
        );
        assert!(payload.decode::<u32>().is_err());
    }

    #[derive(serde::Deserialize, Clone, Debug, PartialEq)]
    enum Shared {
        Registered { name: String },
    }

    #[test]
    fn a_shared_payload_is_parsed_once_then_lent_to_every_reader_of_its_type() {
        let payload = Payload::from_value(&json!({"Registered": {"name": "Ana"}}));
        let first = payload.shared::<Shared>().unwrap();
        assert!(
            matches!(first, Cow::Borrowed(_)),
            "the first parse is kept and lent"
        );
        let second = payload.shared::<Shared>().unwrap();
        // The same event in memory, not a second parse.
        assert!(std::ptr::eq(&*first, &*second));
        assert_eq!(*second, Shared::Registered { name: "Ana".into() });
        // A copy of the payload keeps nothing: it parses for itself.
        let copy = payload.clone();
        assert_eq!(copy, payload);
        assert!(!std::ptr::eq(&*copy.shared::<Shared>().unwrap(), &*first));
    }

    #[test]
    fn a_shared_payload_asked_for_another_type_parses_it_and_keeps_the_first() {
        let payload = Payload::from_value(&json!({"Registered": {"name": "Ana"}}));
        let first = payload.shared::<Shared>().unwrap();
        let tree = payload.shared::<Value>().unwrap();
        assert!(matches!(tree, Cow::Owned(_)));
        assert_eq!(tree["Registered"]["name"], "Ana");
        assert!(std::ptr::eq(&*first, &*payload.shared::<Shared>().unwrap()));
    }

    #[test]
    fn a_payload_that_is_not_the_type_asked_for_keeps_nothing() {
        let payload = Payload::from_value(&json!({"Registered": {"name": "Ana"}}));
        assert!(payload.shared::<u32>().is_err());
        // The failed parse left the slot free for the type that fits.
        assert!(matches!(
            payload.shared::<Shared>().unwrap(),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn readers_racing_on_one_payload_all_get_the_event() {
        let payload = Payload::from_value(&json!({"Registered": {"name": "Ana"}}));
        std::thread::scope(|scope| {
            let readers: Vec<_> = (0..4)
                .map(|_| scope.spawn(|| payload.shared::<Shared>().unwrap().into_owned()))
                .collect();
            for reader in readers {
                assert_eq!(
                    reader.join().unwrap(),
                    Shared::Registered { name: "Ana".into() }
                );
            }
        });
        assert!(matches!(
            payload.shared::<Shared>().unwrap(),
            Cow::Borrowed(_)
        ));
    }
}
