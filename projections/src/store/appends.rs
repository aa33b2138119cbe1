//! Writing a command's events, and the log position they got.
//!
//! An append is one `insert` statement of all its events on both stores. On
//! PostgreSQL it runs on its own (a single statement is its own transaction, so the
//! events are appended all together or not at all) instead of postgres-es's `BEGIN`,
//! one `INSERT` per event and `COMMIT`, and it answers (`returning`) where the last
//! event landed in the global log, which the command's caller answers as
//! `X-Log-Position` ([`appended`]) instead of asking the log again: three round trips
//! fewer per command (bench/PROFILE.md, issue 14). On SQLite it is one statement
//! inside [`GroupCommit`]'s transaction, which numbers the events itself and answers
//! the same.

use std::cell::{Cell, RefCell};

use cqrs_es::persist::{PersistenceError, SerializedEvent};
use cqrs_es::Aggregate;
use sqlx::PgPool;

use super::group_commit::GroupCommit;
use super::{LogPosition, RECORDED_AT};

/// PostgreSQL's code for a unique violation: an append that lost the race for its
/// sequence number (the events table's primary key).
const UNIQUE_VIOLATION: &str = "23505";

/// Where a [`super::sealing::SealingRepository`] appends events.
pub trait Appends: Send + Sync {
    /// Appends `events` of one aggregate of type `A` all together or not at all,
    /// stamping their `recorded_at` once it holds the connection ([`stamp`]), and
    /// answers what it wrote.
    ///
    /// # Errors
    /// - [`PersistenceError::OptimisticLockError`] when a sequence was taken first
    ///   (nothing was written);
    /// - [`PersistenceError::ConnectionError`] when the database failed.
    fn append<A: Aggregate>(
        &self,
        events: Vec<SerializedEvent>,
    ) -> impl std::future::Future<Output = Result<Written, PersistenceError>> + Send;
}

/// Stamps every event's `recorded_at` metadata ([`RECORDED_AT`]) with `at` (RFC 3339
/// UTC with microseconds, [`now_text`]), unless it has one (a replayed import keeps
/// its own). An append calls it once it holds its connection, just before its
/// statement, so the stamp is when the events were written: history shows it as their
/// commit time (P9), and the read models' lag ([`crate::consumer::lag`]) counts from it. Stamped
/// before the append took its connection, the lag also counted the command's wait for
/// one, tens of milliseconds at 64 clients (bench/PROFILE.md, issue 14).
pub(super) fn stamp(events: &mut [SerializedEvent], at: &str) {
    for event in events {
        if let serde_json::Value::Object(metadata) = &mut event.metadata {
            metadata
                .entry(RECORDED_AT)
                .or_insert_with(|| serde_json::Value::String(at.to_string()));
        }
    }
}

/// The current time as [`stamp`] writes it ([`crate::projection::time_text`]).
pub(super) fn now_text() -> String {
    crate::projection::time_text(crate::clock::infrastructure().now())
}

/// What an append wrote: where its last event landed, when the store tells it, and the
/// `recorded_at` it stamped on events that had none ([`stamp`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The log position of the last event (`None` when there were no events).
    pub position: Option<LogPosition>,
    /// The stamp, RFC 3339 UTC with microseconds.
    pub recorded_at: String,
}

/// The `insert` of `events` rows into the events table, followed by `tail` (a
/// `returning` clause, or nothing). Each row takes seven parameters
/// ([`bind_events`]); when `numbered`, one more after them all, `$(7 * events + 1)`,
/// is the first event's `global_position`, and row `i` gets that plus `i` (SQLite's
/// group commit numbers its events; PostgreSQL's column numbers itself).
pub(super) fn insert_sql(events: usize, numbered: bool, tail: &str) -> String {
    let first_position = 7 * events + 1;
    let rows: Vec<String> = (0..events)
        .map(|i| {
            let first = 7 * i + 1;
            let mut params: Vec<String> = (first..first + 7).map(|n| format!("${n}")).collect();
            if numbered {
                params.push(format!("${first_position} + {i}"));
            }
            format!("({})", params.join(", "))
        })
        .collect();
    let position = if numbered { ", global_position" } else { "" };
    format!(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, \
         event_version, payload, metadata{position}) values {}{tail}",
        rows.join(", ")
    )
}

/// Binds the seven columns of every event of `$events` to `$query`, in
/// [`insert_sql`]'s order.
macro_rules! bind_events {
    ($query:expr, $events:expr) => {{
        let mut query = $query;
        for event in $events {
            query = query
                .bind(&event.aggregate_type)
                .bind(&event.aggregate_id)
                .bind(i64::try_from(event.sequence).unwrap_or(i64::MAX))
                .bind(&event.event_type)
                .bind(&event.event_version)
                .bind(&event.payload)
                .bind(&event.metadata);
        }
        query
    }};
}
pub(super) use bind_events;

/// PostgreSQL's appends: one statement each, on the pool.
#[derive(Debug, Clone)]
pub struct PostgresAppends(pub PgPool);

impl Appends for PostgresAppends {
    async fn append<A: Aggregate>(
        &self,
        mut events: Vec<SerializedEvent>,
    ) -> Result<Written, PersistenceError> {
        // xid8 reaches bigint through text.
        let mut sql = insert_sql(
            events.len(),
            false,
            " returning transaction_id::text::bigint, global_position",
        );
        // A side insert rides in the same statement (a data-modifying `with`), so it
        // commits exactly when the events do.
        let side = pending_side_insert().filter(|_| !events.is_empty());
        if let Some(side) = &side {
            sql = format!("with side as ({}) {sql}", side.sql(7 * events.len() + 1));
        }
        let mut connection = self
            .0
            .acquire()
            .await
            .map_err(|error| PersistenceError::ConnectionError(Box::new(error)))?;
        let recorded_at = now_text();
        stamp(&mut events, &recorded_at);
        let mut query = bind_events!(sqlx::query_as(&sql), &events);
        for value in side.iter().flat_map(|side| &side.values) {
            query = query.bind(value);
        }
        let rows: Vec<(i64, i64)> =
            query
                .fetch_all(&mut *connection)
                .await
                .map_err(|error| match &error {
                    sqlx::Error::Database(database)
                        if database.code().as_deref() == Some(UNIQUE_VIOLATION) =>
                    {
                        PersistenceError::OptimisticLockError
                    }
                    _ => PersistenceError::ConnectionError(Box::new(error)),
                })?;
        let position = rows
            .into_iter()
            .map(|(transaction_id, global_position)| LogPosition {
                transaction_id,
                global_position,
            })
            .max();
        if side.is_some() {
            side_insert_written();
        }
        Ok(Written {
            position,
            recorded_at,
        })
    }
}

impl Appends for GroupCommit {
    async fn append<A: Aggregate>(
        &self,
        events: Vec<SerializedEvent>,
    ) -> Result<Written, PersistenceError> {
        GroupCommit::append(self, events).await
    }
}

tokio::task_local! {
    static APPENDED: Cell<Option<LogPosition>>;
    static STAMPED: RefCell<Option<String>>;
    static SIDE: RefCell<Side>;
}

/// A row of another table that records what a command's events did, written in the
/// same transaction as those events: a payment webhook's event id is claimed with its
/// effect (DESIGN.md "Aggregates and events"), so a crash can leave neither the
/// effect without its claim nor the claim without its effect.
///
/// Written as `insert into {table} ({columns}) values (...) on conflict ({key}) do
/// nothing`, every value bound as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideInsert {
    /// The table (the api's own, such as `processed_webhook`).
    pub table: &'static str,
    /// Its columns, in the order of `values`.
    pub columns: &'static [&'static str],
    /// The unique key whose repeat writes nothing.
    pub key: &'static str,
    /// One text value a column.
    pub values: Vec<String>,
}

impl SideInsert {
    /// The statement, its parameters numbered from `$first`.
    pub fn sql(&self, first: usize) -> String {
        let params: Vec<String> = (first..first + self.values.len())
            .map(|n| format!("${n}"))
            .collect();
        format!(
            "insert into {} ({}) values ({}) on conflict ({}) do nothing",
            self.table,
            self.columns.join(", "),
            params.join(", "),
            self.key
        )
    }
}

/// The side insert of the enclosing [`with_side_insert`], and whether an append wrote it.
#[derive(Default)]
struct Side {
    insert: Option<SideInsert>,
    written: bool,
}

/// Runs `work` (one command) so that the first append inside it that writes events
/// also writes `side`, in the same transaction. Answers, beside the output, whether
/// it was written: `false` when no append wrote events (the command changed nothing,
/// a repeat), and the caller may then write it alone, having no effect to pair it with.
pub async fn with_side_insert<F: std::future::Future>(
    side: SideInsert,
    work: F,
) -> (F::Output, bool) {
    let scope = Side {
        insert: Some(side),
        written: false,
    };
    SIDE.scope(RefCell::new(scope), async move {
        let output = work.await;
        (output, SIDE.with(|side| side.borrow().written))
    })
    .await
}

/// The side insert the next append of this task must write, if any (not yet written).
pub(super) fn pending_side_insert() -> Option<SideInsert> {
    SIDE.try_with(|side| {
        let side = side.borrow();
        side.insert.clone().filter(|_| !side.written)
    })
    .ok()
    .flatten()
}

/// Notes that an append of this task committed its side insert.
pub(super) fn side_insert_written() {
    let _ = SIDE.try_with(|side| side.borrow_mut().written = true);
}

/// Runs `work` (commands) and answers, beside its output, the log position of the
/// last event any of its appends wrote (`None`: it appended nothing).
pub async fn appended<F: std::future::Future>(work: F) -> (F::Output, Option<LogPosition>) {
    APPENDED
        .scope(Cell::new(None), async move {
            let output = work.await;
            (output, APPENDED.with(Cell::get))
        })
        .await
}

/// Runs `work` (one command's commit) and answers, beside its output, the
/// `recorded_at` its append stamped (`None`: it appended nothing), which the command
/// bus copies into the envelopes it answers, so that they read as the log does.
pub(super) async fn stamped<F: std::future::Future>(work: F) -> (F::Output, Option<String>) {
    STAMPED
        .scope(RefCell::new(None), async move {
            let output = work.await;
            (output, STAMPED.with(|stamp| stamp.borrow_mut().take()))
        })
        .await
}

/// Notes what an append wrote for the enclosing [`appended`] and [`stamped`] (no-op
/// outside them).
pub(super) fn note(written: Written) {
    if let Some(position) = written.position {
        let _ = APPENDED
            .try_with(|last| last.set(Some(last.get().map_or(position, |p| p.max(position)))));
    }
    let _ = STAMPED.try_with(|stamp| *stamp.borrow_mut() = Some(written.recorded_at));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_statement_inserts_every_event() {
        assert_eq!(
            insert_sql(2, false, " returning global_position"),
            "insert into events (aggregate_type, aggregate_id, sequence, event_type, \
             event_version, payload, metadata) values ($1, $2, $3, $4, $5, $6, $7), \
             ($8, $9, $10, $11, $12, $13, $14) returning global_position"
        );
    }

    #[test]
    fn numbered_rows_take_consecutive_positions_from_one_last_parameter() {
        assert_eq!(
            insert_sql(2, true, ""),
            "insert into events (aggregate_type, aggregate_id, sequence, event_type, \
             event_version, payload, metadata, global_position) values \
             ($1, $2, $3, $4, $5, $6, $7, $15 + 0), ($8, $9, $10, $11, $12, $13, $14, $15 + 1)"
        );
    }

    fn written(global_position: i64, recorded_at: &str) -> Written {
        Written {
            position: Some(LogPosition {
                transaction_id: 0,
                global_position,
            }),
            recorded_at: recorded_at.to_string(),
        }
    }

    #[tokio::test]
    async fn the_last_position_of_the_appends_inside_is_answered() {
        let ((), last) = appended(async {
            note(written(7, "a"));
            note(written(3, "b"));
        })
        .await;
        assert_eq!(last, written(7, "").position);
        let ((), none) = appended(async {}).await;
        assert_eq!(none, None);
        // Outside a scope nothing is kept, and nothing fails.
        note(written(1, "c"));
    }

    #[tokio::test]
    async fn a_commit_answers_the_stamp_of_its_append() {
        let ((), stamp) = stamped(async { note(written(7, "2026-11-28T00:00:00.000001Z")) }).await;
        assert_eq!(stamp.as_deref(), Some("2026-11-28T00:00:00.000001Z"));
        let ((), none) = stamped(async {}).await;
        assert_eq!(none, None);
    }

    #[test]
    fn a_stamp_fills_in_recorded_at_and_keeps_a_given_one() {
        let event = |metadata| {
            SerializedEvent::new(
                "a".into(),
                1,
                "Counter".into(),
                "Incremented".into(),
                "1".into(),
                serde_json::json!({}),
                metadata,
            )
        };
        let mut events = vec![
            event(serde_json::json!({"actor": "alice"})),
            event(serde_json::json!({"recorded_at": "2021-03-04T05:06:07.000000Z"})),
        ];
        stamp(&mut events, "2026-11-28T00:00:00.000001Z");
        assert_eq!(
            events[0].metadata,
            serde_json::json!({"actor": "alice", "recorded_at": "2026-11-28T00:00:00.000001Z"})
        );
        assert_eq!(
            events[1].metadata,
            serde_json::json!({"recorded_at": "2021-03-04T05:06:07.000000Z"})
        );
    }
}
