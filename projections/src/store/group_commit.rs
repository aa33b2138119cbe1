//! Group commit of event appends on SQLite (issue 14, the SQLite floor).
//!
//! SQLite has one writer, and every commit of an append waits for its own fsync
//! (`synchronous=FULL`, which stays). Appends that arrive while another is being
//! written queue here and go to the database together: one transaction, one fsync,
//! each append one statement, so that one that loses its optimistic concurrency race
//! is undone alone (SQLite undoes a statement that breaks a constraint) and the others
//! commit; any other failure fails the whole group.
//! Nobody waits on purpose: a group is whatever queued while the previous one was
//! written, so a lone append is written at once, as before.
//!
//! The group numbers its events in the log itself: its transaction begins
//! `IMMEDIATE` (it holds the write lock from its first statement, so no other writer
//! comes between), reads the highest `global_position` once, and inserts each event
//! with the next one. Each append is answered with the position of its last event,
//! which its command answers as `X-Log-Position` (the trigger that numbered rows after
//! their insert rewrote every row and told nobody where it landed; migration 0018).
//!
//! What each caller sees is what a transaction of its own would give:
//! - it is answered only after the group's commit returned, so an acknowledged append
//!   is durable;
//! - a conflict ([`PersistenceError::OptimisticLockError`]) writes none of its events;
//! - if the commit itself fails (or an append fails other than by a conflict), every
//!   append of the group is answered with the error
//!   and none of them is in the log; a crash before the commit loses only appends
//!   nobody was answered for;
//! - a caller that gives up waiting does not stop its append (as a dropped request
//!   after its own commit would not either).

use cqrs_es::persist::{PersistenceError, SerializedEvent};
use sqlx::{Sqlite, SqlitePool, Transaction};
use tokio::sync::{mpsc, oneshot};

use super::appends::{
    bind_events, insert_sql, now_text, pending_side_insert, side_insert_written, stamp, SideInsert,
    Written,
};
use super::LogPosition;

/// Appends written in one transaction at most: bounds how long the first of a group
/// waits for the others' inserts.
const MAX_GROUP: usize = 64;

/// SQLite's extended code for a primary key violation: an append that lost the race
/// for its sequence number (the events table's key, see migrations/sqlite/0001).
const PRIMARY_KEY_VIOLATION: &str = "1555";

/// A handle to the task that writes the appends of one SQLite database. Cheap to clone.
#[derive(Debug, Clone)]
pub struct GroupCommit {
    queue: mpsc::Sender<Append>,
}

struct Append {
    events: Vec<SerializedEvent>,
    /// A row written with the events, in their transaction ([`SideInsert`]).
    side: Option<SideInsert>,
    answer: oneshot::Sender<Result<Written, PersistenceError>>,
}

/// How one append of a group went, before the commit.
enum Outcome {
    /// Written; the `global_position` of its last event.
    Written(i64),
    Conflict,
}

impl GroupCommit {
    /// Starts the writing task on `pool` (the database's one writer connection).
    /// Needs a Tokio runtime; the task ends when the last handle is dropped.
    pub fn start(pool: SqlitePool) -> Self {
        let (queue, appends) = mpsc::channel(4 * MAX_GROUP);
        tokio::spawn(write_groups(pool, appends));
        Self { queue }
    }

    /// Appends `events` (of one aggregate, with consecutive sequences) and answers once
    /// they are durable, with the log position of the last one and the `recorded_at`
    /// it stamped on them when their group's transaction began
    /// ([`super::appends::stamp`]); no position for no events.
    ///
    /// # Errors
    /// - [`PersistenceError::OptimisticLockError`]: another append took one of their
    ///   sequence numbers first; nothing was written;
    /// - [`PersistenceError::ConnectionError`]: the database failed (or the writing task
    ///   is gone); nothing was written.
    pub async fn append(&self, events: Vec<SerializedEvent>) -> Result<Written, PersistenceError> {
        if events.is_empty() {
            return Ok(Written {
                position: None,
                recorded_at: now_text(),
            });
        }
        let (answer, answered) = oneshot::channel();
        let side = pending_side_insert();
        let wrote_side = side.is_some();
        let append = Append {
            events,
            side,
            answer,
        };
        if self.queue.send(append).await.is_err() {
            return Err(gone());
        }
        let written = answered.await.unwrap_or_else(|_| Err(gone()));
        if wrote_side && written.is_ok() {
            side_insert_written();
        }
        written
    }
}

fn gone() -> PersistenceError {
    PersistenceError::ConnectionError("the event store's writer has stopped".into())
}

async fn write_groups(pool: SqlitePool, mut appends: mpsc::Receiver<Append>) {
    while let Some(first) = appends.recv().await {
        let mut group = vec![first];
        while group.len() < MAX_GROUP {
            match appends.try_recv() {
                Ok(append) => group.push(append),
                Err(_) => break,
            }
        }
        let written = write_group(&pool, &mut group).await;
        for (index, append) in group.into_iter().enumerate() {
            let answer = match &written {
                Ok((outcomes, recorded_at)) => match &outcomes[index] {
                    Outcome::Written(global_position) => Ok(Written {
                        position: Some(LogPosition {
                            transaction_id: 0,
                            global_position: *global_position,
                        }),
                        recorded_at: recorded_at.clone(),
                    }),
                    Outcome::Conflict => Err(PersistenceError::OptimisticLockError),
                },
                Err(error) => Err(PersistenceError::ConnectionError(error.to_string().into())),
            };
            // A caller that stopped waiting no longer needs its answer.
            let _ = append.answer.send(answer);
        }
    }
}

/// Writes `group` in one transaction, its events stamped with the time the
/// transaction began (answered beside the outcomes); `Err` when the transaction itself
/// failed (then nothing was written).
///
/// Each append is one `insert` statement, and SQLite undoes a statement that breaks a
/// constraint by itself, leaving the transaction and the other appends as they were
/// (the default `ON CONFLICT ABORT`), so an append that lost its sequence race is
/// refused alone without a savepoint of its own (three statements fewer per append).
/// Any other failure may have rolled the whole transaction back (SQLite does for a
/// full disk or an I/O error), so it fails the whole group.
async fn write_group(
    pool: &SqlitePool,
    group: &mut [Append],
) -> Result<(Vec<Outcome>, String), sqlx::Error> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let recorded_at = now_text();
    for append in group.iter_mut() {
        stamp(&mut append.events, &recorded_at);
    }
    let mut last: i64 = sqlx::query_scalar("select coalesce(max(global_position), 0) from events")
        .fetch_one(&mut *tx)
        .await?;
    let mut outcomes = Vec::with_capacity(group.len());
    for append in group.iter() {
        // A refused statement took no positions: the next append starts where it would have.
        match insert(&mut tx, append, last + 1).await {
            Ok(()) => {
                last += i64::try_from(append.events.len()).unwrap_or(i64::MAX);
                outcomes.push(Outcome::Written(last));
            }
            Err(error) if lost_race(&error) => outcomes.push(Outcome::Conflict),
            Err(error) => {
                // Already rolled back, perhaps; either way nothing is kept.
                let _ = tx.rollback().await;
                return Err(error);
            }
        }
    }
    tx.commit().await?;
    Ok((outcomes, recorded_at))
}

/// True when `error` is an append losing the race for its sequence.
fn lost_race(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(database)
        if database.code().as_deref() == Some(PRIMARY_KEY_VIOLATION))
}

/// Inserts one append's events in one statement, at log positions `first`, `first + 1`, ….
async fn insert(
    tx: &mut Transaction<'static, Sqlite>,
    append: &Append,
    first: i64,
) -> Result<(), sqlx::Error> {
    let sql = insert_sql(append.events.len(), true, "");
    bind_events!(sqlx::query(&sql), &append.events)
        .bind(first)
        .execute(&mut **tx)
        .await?;
    // After the events, in the group's transaction: a conflict above skips it, and a
    // failure here fails the group (nothing of it is kept).
    if let Some(side) = &append.side {
        let sql = side.sql(1);
        let mut query = sqlx::query(&sql);
        for value in &side.values {
            query = query.bind(value);
        }
        query.execute(&mut **tx).await?;
    }
    Ok(())
}
