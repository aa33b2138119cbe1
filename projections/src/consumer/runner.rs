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

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::postgres::PgListener;
use tokio::sync::{watch, Notify};

use crate::consumer::feed::LogFeed;
use crate::projection::{Projection, ProjectionError};
pub use crate::rows::checkpoints::{
    advance_checkpoint, advance_checkpoints, ensure_checkpoint, read_checkpoint, set_checkpoint,
};
pub use crate::rows::transaction::{begin, begin_derived};
use crate::rows::Buffered;
use crate::store::{Database, EventLog, LogPosition, StoredEvent};

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

/// A test hook: fail a step after applying this many events, before its transaction
/// commits, as a crash there would.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failpoint {
    /// Events applied before the simulated crash.
    pub after_events: usize,
}

/// One read model's part of a batch: where it stands, its lag histogram, and whether
/// the batch holds an event of an aggregate type it follows past its checkpoint.
struct Share<'a> {
    projection: &'a dyn Projection,
    from: LogPosition,
    lag: &'a crate::consumer::lag::LagHistogram,
    acts: bool,
}

/// The events of `events` (a batch in log order) past `from`.
fn own(from: LogPosition, events: &[StoredEvent]) -> &[StoredEvent] {
    &events[events.partition_point(|event| event.position <= from)..]
}

/// The name under which a group of read models logs and counts its steps.
pub const READ_MODELS: &str = "read_models";

/// The one log reader of a process for its read models (issue 14): reads each batch
/// of the log once and hands it to every projection it holds that follows one of its
/// aggregate types, each applying it and moving its checkpoint in one transaction, all
/// at once; the checkpoints of the others move in the same commit as one of those (see
/// `apply_next`), so every checkpoint row is exact after each batch. Each projection keeps
/// its own checkpoint row (`rebuild` and `verify` work per projection); when they
/// differ (one was just rebuilt, or failed a step the others committed) the batch
/// starts at the lowest and each projection gets only the events past its own.
pub struct Runner {
    database: Database,
    log: EventLog,
    projections: Vec<Arc<dyn Projection>>,
    name: &'static str,
    batch_size: i64,
    failpoint: Option<Failpoint>,
    stats: Arc<RunnerStats>,
    /// Each projection's lag histogram (shared with `/metrics` through [`crate::consumer::lag`]).
    lags: Vec<Arc<crate::consumer::lag::LagHistogram>>,
    /// Where it publishes each committed checkpoint.
    checkpoints: Checkpoints,
    /// Where it publishes each batch it reads, for the workflows.
    feed: Option<LogFeed>,
    /// The checkpoints this worker last committed, so a step need not read them back.
    /// Forgotten on any failure; if another worker moved a checkpoint meanwhile,
    /// the compare-and-set of the next step fails and the rows are read again.
    known: Mutex<Option<Vec<LogPosition>>>,
}

impl Runner {
    /// A worker for one projection on `database`, 500 events per transaction.
    pub fn new(database: &Database, projection: Arc<dyn Projection>) -> Self {
        let name = projection.name();
        Self::group(database, vec![projection]).named(name)
    }

    /// The worker for every projection in `projections`, sharing one log read and
    /// one transaction per batch.
    pub fn group(database: &Database, projections: Vec<Arc<dyn Projection>>) -> Self {
        Self {
            database: database.clone(),
            log: EventLog::new(database),
            lags: projections
                .iter()
                .map(|projection| crate::consumer::lag::histogram(projection.name()))
                .collect(),
            projections,
            name: READ_MODELS,
            batch_size: 500,
            failpoint: None,
            stats: Arc::default(),
            checkpoints: Checkpoints::default(),
            feed: None,
            known: Mutex::new(None),
        }
    }

    fn named(mut self, name: &'static str) -> Self {
        self.name = name;
        self
    }

    /// Publishes each committed checkpoint on `checkpoints` (the api's board, on
    /// which queries wait for their read models).
    pub fn with_checkpoints(mut self, checkpoints: Checkpoints) -> Self {
        self.checkpoints = checkpoints;
        self
    }

    /// Publishes each batch it reads on `feed`, for the workflows of this process.
    pub fn with_feed(mut self, feed: LogFeed) -> Self {
        self.feed = Some(feed);
        self
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

    /// The projection's name (or [`READ_MODELS`] for a group).
    pub fn name(&self) -> &'static str {
        self.name
    }

    fn names(&self) -> Vec<&'static str> {
        self.projections.iter().map(|p| p.name()).collect()
    }

    /// Reads the next batch and has every projection apply it and move its
    /// checkpoint. Returns how many events it read (0: caught up).
    pub async fn step(&self) -> Result<usize, ProjectionError> {
        let outcome = self.apply_next().await;
        let mut known = self.known.lock().expect("checkpoint cache");
        match outcome {
            Ok((applied, Some(positions))) => {
                *known = Some(positions);
                Ok(applied)
            }
            Ok((applied, None)) => Ok(applied),
            Err(error) => {
                *known = None;
                Err(error)
            }
        }
    }

    /// Each projection's checkpoint, from memory or (after a failure) the database.
    async fn froms(&self) -> Result<Vec<LogPosition>, ProjectionError> {
        if let Some(known) = self.known.lock().expect("checkpoint cache").clone() {
            return Ok(known);
        }
        let mut froms = Vec::with_capacity(self.projections.len());
        for name in self.names() {
            froms.push(read_checkpoint(&self.database, name).await?);
        }
        *self.known.lock().expect("checkpoint cache") = Some(froms.clone());
        Ok(froms)
    }

    /// One step: the number of events read and each projection's checkpoint after it.
    async fn apply_next(&self) -> Result<(usize, Option<Vec<LogPosition>>), ProjectionError> {
        let froms = self.froms().await?;
        let from = froms.iter().copied().min().unwrap_or(LogPosition::START);
        // Read outside the write transaction: on PostgreSQL an open transaction of our
        // own would hold the log's visibility horizon back.
        let events = self.log.read_after(from, self.batch_size).await?;
        if events.is_empty() {
            return Ok((0, None));
        }
        // The workflows may react before the read models commit: they read
        // aggregates, never read models.
        if let Some(feed) = &self.feed {
            feed.publish(from, &events);
        }
        // Only a read model that follows one of the batch's aggregate types has rows
        // to write. PostgreSQL: each of those applies the batch in a transaction of its
        // own, all at once, so a batch takes as long as its slowest read model, not
        // the sum of them; the checkpoints of the others move in the first of those
        // transactions, in the same statement as its own. SQLite: one transaction for
        // all, since its single writer would run them one after another anyway and
        // each commit is an fsync (bench/PROFILE.md, issue 14). If one transaction
        // commits and another fails, the next step starts each from its own checkpoint.
        let work: Vec<Share<'_>> = self
            .projections
            .iter()
            .zip(&froms)
            .zip(&self.lags)
            .map(|((projection, own_from), lag)| Share {
                projection: projection.as_ref(),
                from: *own_from,
                lag,
                acts: own(*own_from, &events)
                    .iter()
                    .any(|event| projection.applies_to(event)),
            })
            .collect();
        let groups: Vec<Vec<&Share<'_>>> = match self.database {
            Database::Sqlite { .. } => vec![work.iter().collect()],
            Database::Postgres(_) => {
                let mut groups: Vec<Vec<&Share<'_>>> = work
                    .iter()
                    .filter(|share| share.acts)
                    .map(|share| vec![share])
                    .collect();
                let idle = work.iter().filter(|share| !share.acts);
                match groups.first_mut() {
                    Some(first) => first.extend(idle),
                    None => groups.push(idle.collect()),
                }
                groups
            }
        };
        let outcomes = futures_util::future::join_all(
            groups
                .iter()
                .map(|group| self.apply_together(group, &events)),
        )
        .await;
        for outcome in outcomes {
            outcome?;
        }
        let positions = work
            .iter()
            .map(|share| {
                own(share.from, &events)
                    .last()
                    .map_or(share.from, |e| e.position)
            })
            .collect();
        self.stats
            .events_applied
            .fetch_add(events.len() as u64, Ordering::Relaxed);
        Ok((events.len(), Some(positions)))
    }

    /// Applies `events` to the read models of `group` that follow any of them, each
    /// only the events past its own checkpoint, and moves the checkpoints of the whole
    /// group to the batch's end, all in one transaction.
    async fn apply_together(
        &self,
        group: &[&Share<'_>],
        events: &[StoredEvent],
    ) -> Result<(), ProjectionError> {
        let moving: Vec<&Share<'_>> = group
            .iter()
            .copied()
            .filter(|share| !own(share.from, events).is_empty())
            .collect();
        let Some(last) = events.last().map(|event| event.position) else {
            return Ok(());
        };
        if moving.is_empty() {
            return Ok(());
        }
        // One writer per projection at a time: on PostgreSQL a transaction-scoped
        // advisory lock (two workers applying different batches could otherwise lock
        // shared rows in opposite orders and deadlock); SQLite has a single writer.
        let names: Vec<&str> = moving.iter().map(|share| share.projection.name()).collect();
        let mut tx = begin_derived(&self.database, &names).await?;
        // The checkpoints move first (SQLite's first statement must write): if another
        // worker moved one since we read it, this fails before any row is written and
        // the transaction rolls back; if a row fails later, the move rolls back too.
        let moves: Vec<(&str, LogPosition)> = moving
            .iter()
            .map(|share| (share.projection.name(), share.from))
            .collect();
        advance_checkpoints(&mut tx, &moves, last).await?;
        // The batch's rows go out in one multi-row statement per table.
        let mut rows = Buffered::new(&mut tx);
        for share in moving.iter().filter(|share| share.acts) {
            let own = own(share.from, events);
            match self.failpoint.filter(|f| f.after_events < own.len()) {
                Some(failpoint) => {
                    share
                        .projection
                        .apply_all(&mut rows, &own[..failpoint.after_events])
                        .await?;
                    rows.flush().await?;
                    return Err(ProjectionError::Failpoint("before the commit"));
                }
                None => share.projection.apply_all(&mut rows, own).await?,
            }
        }
        rows.flush().await?;
        tx.commit().await?;
        let lags = crate::consumer::lag::lags_us(events, crate::clock::infrastructure().now());
        for share in moving {
            self.checkpoints.publish(share.projection.name(), last);
            let before = events.len() - own(share.from, events).len();
            crate::consumer::lag::record(share.lag, &lags[before..]);
        }
        Ok(())
    }

    /// Steps until nothing is left to apply; returns the number of events read.
    pub async fn catch_up(&self) -> Result<usize, ProjectionError> {
        self.ensure_checkpoints().await?;
        let mut total = 0;
        loop {
            match self.step().await? {
                0 => return Ok(total),
                n => total += n,
            }
        }
    }

    /// Creates the checkpoint rows it needs.
    pub async fn ensure_checkpoints(&self) -> Result<(), ProjectionError> {
        for name in self.names() {
            ensure_checkpoint(&self.database, name).await?;
        }
        Ok(())
    }

    /// Runs until `shutdown` turns true, while this process holds its lease
    /// ([`crate::consumer::run`]).
    pub async fn run(
        self,
        leases: crate::consumer::lease::Leases,
        wakeup: Arc<Notify>,
        poll: Duration,
        shutdown: watch::Receiver<bool>,
    ) {
        crate::consumer::run(&self, &leases, wakeup, poll, shutdown).await;
    }
}

#[async_trait::async_trait]
impl crate::consumer::Consumer for Runner {
    fn name(&self) -> &'static str {
        self.name
    }

    fn database(&self) -> &Database {
        &self.database
    }

    async fn ensure(&self) -> Result<(), ProjectionError> {
        self.ensure_checkpoints().await
    }

    fn reset(&self) {
        *self.known.lock().expect("checkpoint cache") = None;
    }

    async fn step(&self) -> Result<usize, ProjectionError> {
        Runner::step(self).await
    }

    fn batch_size(&self) -> usize {
        usize::try_from(self.batch_size).unwrap_or(usize::MAX)
    }

    fn stats(&self) -> &RunnerStats {
        &self.stats
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

/// The checkpoints this process's workers committed on one database, published the
/// moment they commit, so that a command waiting for its read models
/// (read-your-writes) wakes at once instead of polling the database. One board per
/// database: the api keeps it in its state and hands it to its workers.
#[derive(Clone)]
pub struct Checkpoints(Arc<watch::Sender<BTreeMap<String, LogPosition>>>);

impl Default for Checkpoints {
    fn default() -> Self {
        Self(Arc::new(watch::Sender::new(BTreeMap::new())))
    }
}

impl Checkpoints {
    /// Publishes that worker `name` committed its checkpoint at `position`.
    pub fn publish(&self, name: &str, position: LogPosition) {
        self.0.send_modify(|positions| {
            let known = positions.entry(name.to_string()).or_default();
            *known = (*known).max(position);
        });
    }
}

/// Whether every named worker's checkpoint in `database` has passed `position`.
async fn passed_in_database(
    database: &Database,
    names: &[&str],
    position: LogPosition,
) -> Result<bool, ProjectionError> {
    for name in names {
        if read_checkpoint(database, name).await? < position {
            return Ok(false);
        }
    }
    Ok(true)
}

/// How often [`wait_for_replicated_checkpoints`] reads a replica's checkpoints.
const REPLICA_CHECK: Duration = Duration::from_millis(5);

/// Like [`wait_for_checkpoints`], against a read replica (`READ_DATABASE_URL`), where
/// the checkpoints arrive by replication and no worker publishes: reads them at once,
/// then every 5 ms, until every named worker has passed `position` there. Returns
/// false on timeout.
///
/// # Errors
/// [`ProjectionError::Database`] when the replica refuses the read.
pub async fn wait_for_replicated_checkpoints(
    replica: &Database,
    names: &[&str],
    position: LogPosition,
    timeout: Duration,
) -> Result<bool, ProjectionError> {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if passed_in_database(replica, names, position).await? {
            return Ok(true);
        }
        if tokio::time::Instant::now() >= deadline {
            return Ok(false);
        }
        tokio::time::sleep(REPLICA_CHECK).await;
    }
}

/// How often [`wait_for_checkpoints`] also reads the checkpoints from the database:
/// the workers of another api process (on a shared PostgreSQL) publish nothing here.
const DATABASE_CHECK: Duration = Duration::from_millis(25);

/// Waits until every named worker has passed `position` (read-your-writes: a command
/// handler calls this with the log head after its commit). Wakes on the commits its
/// workers publish on `checkpoints`, and reads the database every 25 ms for workers
/// that do not (another api process's, say). Returns false on timeout.
pub async fn wait_for_checkpoints(
    database: &Database,
    checkpoints: &Checkpoints,
    names: &[&str],
    position: LogPosition,
    timeout: Duration,
) -> Result<bool, ProjectionError> {
    let mut published = checkpoints.0.subscribe();
    let deadline = tokio::time::Instant::now() + timeout;
    let mut database_check = tokio::time::Instant::now() + DATABASE_CHECK;
    loop {
        let passed_here = {
            let positions = published.borrow_and_update();
            names
                .iter()
                .all(|name| positions.get(*name).is_some_and(|p| *p >= position))
        };
        if passed_here {
            return Ok(true);
        }
        let now = tokio::time::Instant::now();
        if now >= database_check {
            if passed_in_database(database, names, position).await? {
                return Ok(true);
            }
            database_check = now + DATABASE_CHECK;
        }
        if now >= deadline {
            return Ok(false);
        }
        tokio::select! {
            _ = published.changed() => {},
            () = tokio::time::sleep_until(database_check.min(deadline)) => {},
        }
    }
}
