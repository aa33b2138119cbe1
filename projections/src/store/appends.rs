//! Writing a command's events, and the log position they got.
//!
//! An append is one `insert` statement of all its events on both stores. On
//! PostgreSQL it runs on its own (a single statement is its own transaction, so the
//! events are appended all together or not at all) instead of postgres-es's `BEGIN`,
//! one `INSERT` per event and `COMMIT`, and it answers (`returning`) where the last
//! event landed in the global log, which the command's caller answers as
//! `X-Log-Position` ([`appended`]) instead of asking the log again: three round trips
//! fewer per command (bench/PROFILE.md, issue 14). On SQLite it is one statement
//! inside [`GroupCommit`]'s transaction; there a trigger numbers the rows after the
//! insert, too late for `returning`, so the caller still asks the log.

use std::cell::Cell;

use cqrs_es::persist::{PersistenceError, SerializedEvent};
use cqrs_es::Aggregate;
use sqlx::PgPool;

use super::group_commit::GroupCommit;
use super::LogPosition;

/// PostgreSQL's code for a unique violation: an append that lost the race for its
/// sequence number (the events table's primary key).
const UNIQUE_VIOLATION: &str = "23505";

/// Where a [`super::sealing::SealingRepository`] appends events.
pub trait Appends: Send + Sync {
    /// Appends `events` of one aggregate of type `A` all together or not at all, and
    /// answers the log position of the last of them when the store tells it.
    ///
    /// # Errors
    /// - [`PersistenceError::OptimisticLockError`] when a sequence was taken first
    ///   (nothing was written);
    /// - [`PersistenceError::ConnectionError`] when the database failed.
    fn append<A: Aggregate>(
        &self,
        events: Vec<SerializedEvent>,
    ) -> impl std::future::Future<Output = Result<Option<LogPosition>, PersistenceError>> + Send;
}

/// The `insert` of `events` rows into the events table, followed by `tail` (a
/// `returning` clause, or nothing).
pub(super) fn insert_sql(events: usize, tail: &str) -> String {
    let rows: Vec<String> = (0..events)
        .map(|i| {
            let first = 7 * i + 1;
            let params: Vec<String> = (first..first + 7).map(|n| format!("${n}")).collect();
            format!("({})", params.join(", "))
        })
        .collect();
    format!(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, \
         event_version, payload, metadata) values {}{tail}",
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
        events: Vec<SerializedEvent>,
    ) -> Result<Option<LogPosition>, PersistenceError> {
        // xid8 reaches bigint through text.
        let sql = insert_sql(
            events.len(),
            " returning transaction_id::text::bigint, global_position",
        );
        let rows: Vec<(i64, i64)> = bind_events!(sqlx::query_as(&sql), &events)
            .fetch_all(&self.0)
            .await
            .map_err(|error| match &error {
                sqlx::Error::Database(database)
                    if database.code().as_deref() == Some(UNIQUE_VIOLATION) =>
                {
                    PersistenceError::OptimisticLockError
                }
                _ => PersistenceError::ConnectionError(Box::new(error)),
            })?;
        Ok(rows
            .into_iter()
            .map(|(transaction_id, global_position)| LogPosition {
                transaction_id,
                global_position,
            })
            .max())
    }
}

impl Appends for GroupCommit {
    async fn append<A: Aggregate>(
        &self,
        events: Vec<SerializedEvent>,
    ) -> Result<Option<LogPosition>, PersistenceError> {
        GroupCommit::append(self, events).await.map(|()| None)
    }
}

tokio::task_local! {
    static APPENDED: Cell<Option<LogPosition>>;
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

/// Notes an append's position for the enclosing [`appended`] (no-op outside one).
pub(super) fn note(position: LogPosition) {
    let _ =
        APPENDED.try_with(|last| last.set(Some(last.get().map_or(position, |p| p.max(position)))));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_statement_inserts_every_event() {
        assert_eq!(
            insert_sql(2, " returning global_position"),
            "insert into events (aggregate_type, aggregate_id, sequence, event_type, \
             event_version, payload, metadata) values ($1, $2, $3, $4, $5, $6, $7), \
             ($8, $9, $10, $11, $12, $13, $14) returning global_position"
        );
    }

    #[tokio::test]
    async fn the_last_position_of_the_appends_inside_is_answered() {
        let at = |global_position| LogPosition {
            transaction_id: 0,
            global_position,
        };
        let ((), last) = appended(async {
            note(at(7));
            note(at(3));
        })
        .await;
        assert_eq!(last, Some(at(7)));
        let ((), none) = appended(async {}).await;
        assert_eq!(none, None);
        // Outside a scope nothing is kept, and nothing fails.
        note(at(1));
    }
}
