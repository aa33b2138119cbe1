//! The one loop that drives every consumer of the event log: the projection workers
//! ([`crate::consumer::runner::Runner`]), the loan workflow ([`crate::process::LoanProcess`]) and
//! the api's payout worker.
//!
//! Guarantees, the same for every consumer:
//! - a consumer's position is a checkpoint row moved by compare-and-set, so two
//!   processes running the same consumer never both move it past a batch (the loser
//!   re-reads it and goes on from there);
//! - a workflow's reactions are idempotent on the identity of the event's effect
//!   (order id, payout id, payment reference, refund), and its checkpoint moves only
//!   after the whole batch reacted, so a crash anywhere repeats at most the batch, as
//!   no-ops;
//! - a failing step is logged, counted ([`RunnerStats`]) and retried after a pause
//!   that doubles up to 5 s; a consumer never silently stops;
//! - a wake-up that arrives during a step is not lost (registered before the step);
//! - one process at a time runs each consumer ([`crate::consumer::lease`]): the others stand by
//!   and take over when the leader's lease goes.

mod cursor;
pub mod feed;
pub mod lag;
pub mod lease;
pub mod runner;

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::{watch, Notify};

use crate::consumer::cursor::Cursor;
use crate::consumer::feed::LogFeed;
use crate::consumer::lease::{Leases, STANDBY_RETRY};
use crate::consumer::runner::{
    advance_checkpoint, begin_derived, ensure_checkpoint, read_checkpoint, RunnerStats,
};
use crate::projection::ProjectionError;
use crate::store::{Database, EventLog, LogPosition, StoredEvent};

/// Something that consumes the log from its checkpoint, one batch per step.
#[async_trait]
pub trait Consumer: Send + Sync {
    /// The checkpoint's name.
    fn name(&self) -> &'static str;
    /// The store it reads and checkpoints in.
    fn database(&self) -> &Database;
    /// Handles the next batch and moves the checkpoint past it; the number of events
    /// handled (0: caught up).
    async fn step(&self) -> Result<usize, ProjectionError>;
    /// A step that handles fewer events than this reached the end of the visible log.
    fn batch_size(&self) -> usize;
    /// Its counters.
    fn stats(&self) -> &RunnerStats;
    /// Creates the checkpoint rows it needs (at start, and again after a failure,
    /// which may have been a dropped table).
    async fn ensure(&self) -> Result<(), ProjectionError> {
        ensure_checkpoint(self.database(), self.name()).await
    }
    /// Forgets where it believes it is (called when it starts to lead: another
    /// process may have moved its checkpoints while it stood by).
    fn reset(&self) {}
}

/// Runs `consumer` until `shutdown` turns true, while this process holds its lease
/// in `leases`: steps while there is work, then waits for a wake-up or `poll` to
/// pass. Without the lease it stands by, asking again every [`STANDBY_RETRY`].
/// Failures are reported and retried after a pause.
pub async fn run(
    consumer: &dyn Consumer,
    leases: &Leases,
    wakeup: Arc<Notify>,
    poll: Duration,
    mut shutdown: watch::Receiver<bool>,
) {
    let name = consumer.name();
    let mut pause = Duration::from_millis(50);
    // The checkpoint row is made once (and again after a failure, which may have
    // been a dropped table), not on every step.
    let mut ensured = false;
    let mut leading = false;
    // A dropped sender stops the loop too (otherwise `changed()` would answer at once
    // forever and the loop would spin).
    while !*shutdown.borrow() && shutdown.has_changed().is_ok() {
        match leases.hold(name).await {
            Ok(true) if !leading => {
                leading = true;
                consumer.reset();
                tracing::info!(consumer = name, "leads");
            }
            Ok(true) => {}
            Ok(false) => {
                if leading {
                    leading = false;
                    tracing::warn!(consumer = name, "lost its lease; stands by");
                }
                sleep_unless_stopped(STANDBY_RETRY, &mut shutdown).await;
                continue;
            }
            Err(error) => {
                leading = false;
                back_off(consumer, &error, &mut pause, &mut shutdown).await;
                continue;
            }
        }
        // Registered before the step, so a wake-up that arrives while the step runs
        // (an append the step did not see yet) is not lost: tokio's `Notified`
        // receives `notify_waiters` from the moment it is created. Without this a
        // worker could sleep a whole `poll` with work waiting.
        let woken = wakeup.notified();
        let outcome = match ensured {
            true => consumer.step().await,
            false => match consumer.ensure().await {
                Ok(()) => {
                    ensured = true;
                    consumer.step().await
                }
                Err(error) => Err(error),
            },
        };
        match outcome {
            Ok(handled) => {
                pause = Duration::from_millis(50);
                // A short batch reached the end of what the log shows: wait for the
                // next append instead of asking again at once (the wake-up was
                // registered before the step, so none is missed).
                if handled < consumer.batch_size() {
                    tokio::select! {
                        () = woken => {},
                        () = tokio::time::sleep(poll) => {},
                        _ = shutdown.changed() => {},
                    }
                }
            }
            Err(ProjectionError::CheckpointMoved(_)) => {} // another process got there first
            Err(error) => {
                ensured = false;
                back_off(consumer, &error, &mut pause, &mut shutdown).await;
            }
        }
    }
}

/// Counts and logs a failed step (or lease check) of `consumer`, then waits `pause`
/// (or until shutdown) and doubles it, up to 5 s.
async fn back_off(
    consumer: &dyn Consumer,
    error: &ProjectionError,
    pause: &mut Duration,
    shutdown: &mut watch::Receiver<bool>,
) {
    let stats = consumer.stats();
    stats.failures.fetch_add(1, Ordering::Relaxed);
    *stats.last_error.lock().expect("stats lock") = Some(error.to_string());
    tracing::error!(consumer = consumer.name(), %error, "step failed; retrying");
    sleep_unless_stopped(*pause, shutdown).await;
    *pause = (*pause * 2).min(Duration::from_secs(5));
}

/// Sleeps for `duration`, or less if `shutdown` changes meanwhile.
async fn sleep_unless_stopped(duration: Duration, shutdown: &mut watch::Receiver<bool>) {
    tokio::select! {
        () = tokio::time::sleep(duration) => {},
        _ = shutdown.changed() => {},
    }
}

/// A consumer that reacts to events by sending commands (a process manager, the
/// payout worker). Each reaction must be idempotent on the identity of its effect.
#[async_trait]
pub trait Workflow: Send + Sync {
    /// The checkpoint's name.
    fn name(&self) -> &'static str;
    /// The store it reads and checkpoints in.
    fn database(&self) -> &Database;
    /// True when `event` may call for a step ([`Workflow::react`] is not called for
    /// the others, and a batch without any leaves the checkpoint row alone).
    fn reacts_to(&self, event: &StoredEvent) -> bool;
    /// Creates its checkpoint row if it has none.
    async fn ensure(&self) -> Result<(), ProjectionError> {
        ensure_checkpoint(self.database(), self.name()).await
    }
    /// The steps one event calls for.
    async fn react(&self, event: &StoredEvent) -> Result<(), ProjectionError>;
}

/// Events a workflow reads per step.
pub const WORKFLOW_BATCH: usize = 200;

/// Reacts to the events of a batch that `workflow` reacts to; returns how many. The
/// events of one aggregate are reacted to in log order; different aggregates' at
/// the same time (a workflow step depends only on state its target aggregate has
/// already committed, so lanes need no order between them), so one busy loan does
/// not hold up the others.
async fn react_all(
    workflow: &dyn Workflow,
    events: &[StoredEvent],
) -> Result<usize, ProjectionError> {
    let mut lanes: Vec<Vec<&StoredEvent>> = Vec::new();
    let mut lane_of: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut reacted = 0;
    for event in events.iter().filter(|event| workflow.reacts_to(event)) {
        let lane = *lane_of
            .entry(event.aggregate_id.as_str())
            .or_insert_with(|| {
                lanes.push(Vec::new());
                lanes.len() - 1
            });
        lanes[lane].push(event);
        reacted += 1;
    }
    futures_util::future::try_join_all(lanes.into_iter().map(|lane| async move {
        for event in lane {
            workflow.react(event).await?;
        }
        Ok::<(), ProjectionError>(())
    }))
    .await?;
    Ok(reacted)
}

/// Moves `workflow`'s checkpoint from `from` to `to` in a transaction of its own,
/// without waiting for its WAL flush ([`crate::consumer::runner::begin_derived`]): every
/// reaction is idempotent, so after a crash the batch's reactions simply run again
/// as no-ops.
async fn persist(
    workflow: &dyn Workflow,
    from: LogPosition,
    to: LogPosition,
) -> Result<(), ProjectionError> {
    let mut tx = begin_derived(workflow.database(), &[]).await?;
    advance_checkpoint(&mut tx, workflow.name(), from, to).await?;
    tx.commit().await
}

/// Reacts to the next batch of the log after the workflow's checkpoint, then moves
/// the checkpoint past it (what a test or a one-off catch-up runs; the live
/// [`WorkflowConsumer`] keeps its place in memory and shares the process's reader).
pub async fn workflow_step(workflow: &dyn Workflow) -> Result<usize, ProjectionError> {
    let (database, name) = (workflow.database(), workflow.name());
    let from = read_checkpoint(database, name).await?;
    let events = EventLog::new(database)
        .read_after(from, WORKFLOW_BATCH as i64)
        .await?;
    let Some(last) = events.last().map(|event| event.position) else {
        return Ok(0);
    };
    react_all(workflow, &events).await?;
    persist(workflow, from, last).await?;
    Ok(events.len())
}

/// Steps `workflow` until caught up; returns the number of events handled. When
/// another process moves the checkpoint first, this one re-reads it and goes on from
/// there (the steps it may have repeated were no-ops).
pub async fn workflow_catch_up(workflow: &dyn Workflow) -> Result<usize, ProjectionError> {
    workflow.ensure().await?;
    let mut total = 0;
    loop {
        match workflow_step(workflow).await {
            Ok(0) => return Ok(total),
            Ok(n) => total += n,
            Err(ProjectionError::CheckpointMoved(_)) => continue,
            Err(error) => return Err(error),
        }
    }
}

/// A [`Workflow`] as a [`Consumer`] for [`run`], with its counters. It takes its
/// batches from the process's [`LogFeed`] when it can (one log reader per process),
/// keeps its position in memory, and writes its checkpoint after a batch it reacted
/// to, once a second otherwise, and when it has caught up.
pub struct WorkflowConsumer<W> {
    workflow: W,
    stats: RunnerStats,
    feed: Option<LogFeed>,
    wakes: Option<Arc<Notify>>,
    cursor: std::sync::Mutex<Option<Cursor>>,
}

impl<W: Workflow> WorkflowConsumer<W> {
    /// Wraps `workflow`.
    pub fn new(workflow: W) -> Self {
        Self {
            workflow,
            stats: RunnerStats::default(),
            feed: None,
            wakes: None,
            cursor: std::sync::Mutex::new(None),
        }
    }

    /// Reads its batches from `feed` when it holds them.
    pub fn with_feed(mut self, feed: LogFeed) -> Self {
        self.feed = Some(feed);
        self
    }

    /// Wakes `wakes` (the log reader, handlers waiting for a step) after a batch
    /// whose reactions may have appended events.
    pub fn waking(mut self, wakes: Arc<Notify>) -> Self {
        self.wakes = Some(wakes);
        self
    }

    async fn cursor(&self) -> Result<Cursor, ProjectionError> {
        if let Some(cursor) = *self.cursor.lock().expect("cursor lock") {
            return Ok(cursor);
        }
        let at = read_checkpoint(self.workflow.database(), self.workflow.name()).await?;
        Ok(Cursor::at(at))
    }

    async fn step_from(&self, mut cursor: Cursor) -> Result<(usize, Cursor), ProjectionError> {
        let cached = self
            .feed
            .as_ref()
            .and_then(|feed| feed.read_after(cursor.handled, WORKFLOW_BATCH));
        let events = match cached {
            Some(events) => events,
            None => {
                EventLog::new(self.workflow.database())
                    .read_after(cursor.handled, WORKFLOW_BATCH as i64)
                    .await?
            }
        };
        let Some(last) = events.last().map(|event| event.position) else {
            // Caught up: a checkpoint row left behind by batches without a reaction
            // is brought up to date now that the log is quiet.
            if cursor.lags() {
                persist(&self.workflow, cursor.persisted, cursor.handled).await?;
                cursor.persisted();
            }
            return Ok((0, cursor));
        };
        let reacted = react_all(&self.workflow, &events).await?;
        // The reactions are committed: wake the handlers waiting for them (they read
        // the aggregates, never this checkpoint) before the checkpoint's own commit.
        if reacted > 0 {
            if let Some(wakes) = &self.wakes {
                wakes.notify_waiters();
            }
        }
        cursor.handled = last;
        if cursor.due(reacted > 0) {
            persist(&self.workflow, cursor.persisted, last).await?;
            cursor.persisted();
        }
        Ok((events.len(), cursor))
    }
}

#[async_trait]
impl<W: Workflow> Consumer for WorkflowConsumer<W> {
    fn name(&self) -> &'static str {
        self.workflow.name()
    }

    fn database(&self) -> &Database {
        self.workflow.database()
    }

    async fn ensure(&self) -> Result<(), ProjectionError> {
        self.workflow.ensure().await
    }

    fn reset(&self) {
        *self.cursor.lock().expect("cursor lock") = None;
    }

    async fn step(&self) -> Result<usize, ProjectionError> {
        let cursor = self.cursor().await?;
        let outcome = self.step_from(cursor).await;
        let mut kept = self.cursor.lock().expect("cursor lock");
        match outcome {
            Ok((handled, cursor)) => {
                *kept = Some(cursor);
                self.stats
                    .events_applied
                    .fetch_add(handled as u64, Ordering::Relaxed);
                Ok(handled)
            }
            Err(error) => {
                // Start again from the checkpoint row: the reactions since are no-ops.
                *kept = None;
                Err(error)
            }
        }
    }

    fn batch_size(&self) -> usize {
        WORKFLOW_BATCH
    }

    fn stats(&self) -> &RunnerStats {
        &self.stats
    }
}
