//! Checkpointed projection workers.
//!
//! Guarantees:
//! - a batch of events and the checkpoint after it are committed in **one**
//!   transaction, so a crash at any point leaves either both or neither: no event is
//!   lost, none is applied twice;
//! - the checkpoint moves by compare-and-set (`where position = the one read`), so two
//!   workers of the same projection — two api processes on one PostgreSQL, or a
//!   worker and `replay-tool rebuild` — never both apply a batch: the second one's
//!   update matches no row and its whole transaction is rolled back. On PostgreSQL
//!   workers of one projection also take a transaction-scoped advisory lock, so they
//!   write one at a time instead of deadlocking on each other's rows;
//! - a failing step is reported (log, [`RunnerStats`]) and retried after a pause; a
//!   worker never silently stops.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::Utc;
use sqlx::postgres::PgListener;
use tokio::sync::{watch, Notify};

use crate::projection::{time_text, Projection, ProjectionError};
use crate::rows::SqlTx;
use crate::store::{Database, EventLog, LogPosition};

/// Opens a write transaction on either store.
pub async fn begin(database: &Database) -> Result<SqlTx<'static>, ProjectionError> {
    Ok(match database {
        Database::Sqlite(pool) => SqlTx::Sqlite(pool.begin().await?),
        Database::Postgres(pool) => SqlTx::Postgres(pool.begin().await?),
    })
}

impl SqlTx<'_> {
    /// Commits.
    pub async fn commit(self) -> Result<(), ProjectionError> {
        match self {
            SqlTx::Sqlite(tx) => tx.commit().await?,
            SqlTx::Postgres(tx) => tx.commit().await?,
        }
        Ok(())
    }

    /// Waits for the right to write `name`'s tables until this transaction ends
    /// (PostgreSQL: an advisory lock; SQLite: the database's single write lock).
    pub async fn lock_projection(&mut self, name: &str) -> Result<(), ProjectionError> {
        match self {
            SqlTx::Postgres(tx) => {
                sqlx::query("select pg_advisory_xact_lock(hashtext($1))")
                    .bind(format!("projection:{name}"))
                    .execute(&mut **tx)
                    .await?;
            }
            // Take SQLite's write lock with the first statement: a transaction that
            // reads first and writes later cannot wait for the lock in WAL mode (it
            // fails at once with SQLITE_BUSY), while a first write waits its turn.
            SqlTx::Sqlite(tx) => {
                sqlx::query("update projection_checkpoint set name = name where name = $1")
                    .bind(name)
                    .execute(&mut **tx)
                    .await?;
            }
        }
        Ok(())
    }

    /// The checkpoint of `name` as this transaction sees it.
    pub async fn checkpoint(&mut self, name: &str) -> Result<LogPosition, ProjectionError> {
        let sql =
            "select transaction_id, global_position from projection_checkpoint where name = $1";
        let row: Option<(i64, i64)> = match self {
            SqlTx::Sqlite(tx) => {
                sqlx::query_as(sql)
                    .bind(name)
                    .fetch_optional(&mut **tx)
                    .await?
            }
            SqlTx::Postgres(tx) => {
                sqlx::query_as(sql)
                    .bind(name)
                    .fetch_optional(&mut **tx)
                    .await?
            }
        };
        Ok(
            row.map_or(LogPosition::START, |(transaction_id, global_position)| {
                LogPosition {
                    transaction_id,
                    global_position,
                }
            }),
        )
    }

    /// Runs a statement with `$1..$n` text/int parameters; returns the rows affected.
    pub async fn execute(
        &mut self,
        sql: &str,
        params: &[crate::rows::Value],
    ) -> Result<u64, ProjectionError> {
        macro_rules! run {
            ($tx:expr) => {{
                let mut query = sqlx::query(sql);
                for value in params {
                    query = match value {
                        crate::rows::Value::Text(text) => query.bind(text.clone()),
                        crate::rows::Value::Int(number) => query.bind(*number),
                    };
                }
                query.execute(&mut **$tx).await?.rows_affected()
            }};
        }
        Ok(match self {
            SqlTx::Sqlite(tx) => run!(tx),
            SqlTx::Postgres(tx) => run!(tx),
        })
    }
}

/// Creates the checkpoint row of `name` at the start of the log if it has none.
pub async fn ensure_checkpoint(database: &Database, name: &str) -> Result<(), ProjectionError> {
    let mut tx = begin(database).await?;
    tx.execute(
        "insert into projection_checkpoint (name, transaction_id, global_position, updated_at) \
         values ($1, 0, 0, $2) on conflict (name) do nothing",
        &[name.into(), time_text(Utc::now()).into()],
    )
    .await?;
    tx.commit().await
}

/// Where `name` has got to (the start of the log when it has no row yet).
pub async fn read_checkpoint(
    database: &Database,
    name: &str,
) -> Result<LogPosition, ProjectionError> {
    let sql = "select transaction_id, global_position from projection_checkpoint where name = $1";
    let row: Option<(i64, i64)> = match database {
        Database::Sqlite(pool) => sqlx::query_as(sql).bind(name).fetch_optional(pool).await?,
        Database::Postgres(pool) => sqlx::query_as(sql).bind(name).fetch_optional(pool).await?,
    };
    Ok(
        row.map_or(LogPosition::START, |(transaction_id, global_position)| {
            LogPosition {
                transaction_id,
                global_position,
            }
        }),
    )
}

/// Moves `name` from `from` to `to` inside `tx`. Fails with
/// [`ProjectionError::CheckpointMoved`] when another worker moved it first.
pub async fn advance_checkpoint(
    tx: &mut SqlTx<'_>,
    name: &str,
    from: LogPosition,
    to: LogPosition,
) -> Result<(), ProjectionError> {
    let moved = tx
        .execute(
            "update projection_checkpoint \
             set transaction_id = $1, global_position = $2, updated_at = $3 \
             where name = $4 and transaction_id = $5 and global_position = $6",
            &[
                to.transaction_id.into(),
                to.global_position.into(),
                time_text(Utc::now()).into(),
                name.into(),
                from.transaction_id.into(),
                from.global_position.into(),
            ],
        )
        .await?;
    if moved == 1 {
        Ok(())
    } else {
        Err(ProjectionError::CheckpointMoved(name.to_string()))
    }
}

/// Counters a worker keeps for the logs and `/metrics`.
#[derive(Debug, Default)]
pub struct RunnerStats {
    /// Events applied and committed.
    pub events_applied: AtomicU64,
    /// Steps that failed (and were retried).
    pub failures: AtomicU64,
    /// The last failure, for the operator.
    pub last_error: Mutex<Option<String>>,
}

/// A test hook: fail a step after applying this many events, before the checkpoint
/// moves, as a crash between the two would.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failpoint {
    /// Events applied before the simulated crash.
    pub after_events: usize,
}

/// Runs one projection over the global log.
pub struct Runner {
    database: Database,
    log: EventLog,
    projection: Arc<dyn Projection>,
    batch_size: i64,
    failpoint: Option<Failpoint>,
    stats: Arc<RunnerStats>,
}

impl Runner {
    /// A worker for `projection` on `database`, 500 events per transaction.
    pub fn new(database: &Database, projection: Arc<dyn Projection>) -> Self {
        Self {
            database: database.clone(),
            log: EventLog::new(database),
            projection,
            batch_size: 500,
            failpoint: None,
            stats: Arc::default(),
        }
    }

    /// Events per transaction.
    pub fn with_batch_size(mut self, batch_size: i64) -> Self {
        self.batch_size = batch_size.max(1);
        self
    }

    /// Installs a failpoint (tests only).
    pub fn with_failpoint(mut self, failpoint: Failpoint) -> Self {
        self.failpoint = Some(failpoint);
        self
    }

    /// The counters.
    pub fn stats(&self) -> Arc<RunnerStats> {
        self.stats.clone()
    }

    /// The projection's name.
    pub fn name(&self) -> &'static str {
        self.projection.name()
    }

    /// Applies the next batch and moves the checkpoint, all in one transaction.
    /// Returns how many events it applied (0: caught up).
    pub async fn step(&self) -> Result<usize, ProjectionError> {
        let name = self.projection.name();
        let from = read_checkpoint(&self.database, name).await?;
        // Read outside the write transaction: on PostgreSQL an open transaction of our
        // own would hold the log's visibility horizon back.
        let events = self.log.read_after(from, self.batch_size).await?;
        let Some(last) = events.last().map(|e| e.position) else {
            return Ok(0);
        };
        let mut tx = begin(&self.database).await?;
        // One writer per projection at a time: on PostgreSQL a transaction-scoped
        // advisory lock (two workers applying different batches could otherwise lock
        // shared rows in opposite orders and deadlock); SQLite has a single writer.
        // Then make sure nobody moved the checkpoint while we read the log.
        tx.lock_projection(name).await?;
        if tx.checkpoint(name).await? != from {
            return Err(ProjectionError::CheckpointMoved(name.to_string()));
        }
        for (applied, event) in events.iter().enumerate() {
            if self.failpoint.is_some_and(|f| f.after_events == applied) {
                return Err(ProjectionError::Failpoint("before the checkpoint moved"));
            }
            self.projection.apply(&mut tx, event).await?;
        }
        advance_checkpoint(&mut tx, name, from, last).await?;
        tx.commit().await?;
        self.stats
            .events_applied
            .fetch_add(events.len() as u64, Ordering::Relaxed);
        Ok(events.len())
    }

    /// Steps until nothing is left to apply; returns the number of events applied.
    pub async fn catch_up(&self) -> Result<usize, ProjectionError> {
        ensure_checkpoint(&self.database, self.projection.name()).await?;
        let mut total = 0;
        loop {
            match self.step().await? {
                0 => return Ok(total),
                n => total += n,
            }
        }
    }

    /// Runs until `shutdown` turns true: steps while there is work, then waits for a
    /// wake-up or `poll` to pass. Failures are reported and retried after a pause.
    pub async fn run(
        self,
        wakeup: Arc<Notify>,
        poll: Duration,
        mut shutdown: watch::Receiver<bool>,
    ) {
        let name = self.projection.name();
        let mut pause = Duration::from_millis(50);
        while !*shutdown.borrow() {
            let outcome = match ensure_checkpoint(&self.database, name).await {
                Ok(()) => self.step().await,
                Err(error) => Err(error),
            };
            match outcome {
                Ok(0) => {
                    pause = Duration::from_millis(50);
                    tokio::select! {
                        () = wakeup.notified() => {},
                        () = tokio::time::sleep(poll) => {},
                        _ = shutdown.changed() => {},
                    }
                }
                Ok(_) => pause = Duration::from_millis(50),
                Err(error) => {
                    self.stats.failures.fetch_add(1, Ordering::Relaxed);
                    *self.stats.last_error.lock().expect("stats lock") = Some(error.to_string());
                    tracing::error!(projection = name, %error, "projection step failed; retrying");
                    tokio::select! {
                        () = tokio::time::sleep(pause) => {},
                        _ = shutdown.changed() => {},
                    }
                    pause = (pause * 2).min(Duration::from_secs(5));
                }
            }
        }
    }
}

/// A wake-up signal for workers: on PostgreSQL a `LISTEN events` task notifies it on
/// every append (from any process); on SQLite the writer in this process notifies it.
/// Workers also poll, so a missed notification only delays them.
pub async fn wakeup_for(database: &Database) -> Arc<Notify> {
    let notify = Arc::new(Notify::new());
    if let Database::Postgres(pool) = database {
        match PgListener::connect_with(pool).await {
            Ok(mut listener) => {
                let target = notify.clone();
                tokio::spawn(async move {
                    if let Err(error) = listener.listen("events").await {
                        tracing::warn!(%error, "LISTEN events failed; polling only");
                        return;
                    }
                    while listener.recv().await.is_ok() {
                        target.notify_waiters();
                    }
                });
            }
            Err(error) => tracing::warn!(%error, "no LISTEN connection; polling only"),
        }
    }
    notify
}

/// Waits until every named worker has passed `position` (read-your-writes: a command
/// handler calls this with the log head after its commit). Returns false on timeout.
pub async fn wait_for_checkpoints(
    database: &Database,
    names: &[&str],
    position: LogPosition,
    timeout: Duration,
) -> Result<bool, ProjectionError> {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        let mut all = true;
        for name in names {
            if read_checkpoint(database, name).await? < position {
                all = false;
                break;
            }
        }
        if all {
            return Ok(true);
        }
        if tokio::time::Instant::now() >= deadline {
            return Ok(false);
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}
