//! The one loop that drives every consumer of the event log: the projection workers
//! ([`crate::runner::Runner`]), the loan workflow ([`crate::process::LoanProcess`]) and
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
//! - a wake-up that arrives during a step is not lost (registered before the step).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::{watch, Notify};

use crate::projection::ProjectionError;
use crate::runner::{advance_checkpoint, begin, ensure_checkpoint, read_checkpoint, RunnerStats};
use crate::store::{Database, EventLog, StoredEvent};

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
    /// True when its steps append events (a workflow's commands): after a step that
    /// did work, the other workers are woken.
    fn appends(&self) -> bool {
        false
    }
}

/// Runs `consumer` until `shutdown` turns true: steps while there is work, then waits
/// for a wake-up or `poll` to pass. Failures are reported and retried after a pause.
pub async fn run(
    consumer: &dyn Consumer,
    wakeup: Arc<Notify>,
    poll: Duration,
    mut shutdown: watch::Receiver<bool>,
) {
    let name = consumer.name();
    let mut pause = Duration::from_millis(50);
    // The checkpoint row is made once (and again after a failure, which may have
    // been a dropped table), not on every step.
    let mut ensured = false;
    while !*shutdown.borrow() {
        // Registered before the step, so a wake-up that arrives while the step runs
        // (an append the step did not see yet) is not lost: tokio's `Notified`
        // receives `notify_waiters` from the moment it is created. Without this a
        // worker could sleep a whole `poll` with work waiting.
        let woken = wakeup.notified();
        let outcome = match ensured {
            true => consumer.step().await,
            false => match ensure_checkpoint(consumer.database(), name).await {
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
                if handled > 0 && consumer.appends() {
                    wakeup.notify_waiters();
                }
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
                let stats = consumer.stats();
                stats.failures.fetch_add(1, Ordering::Relaxed);
                *stats.last_error.lock().expect("stats lock") = Some(error.to_string());
                tracing::error!(consumer = name, %error, "step failed; retrying");
                tokio::select! {
                    () = tokio::time::sleep(pause) => {},
                    _ = shutdown.changed() => {},
                }
                pause = (pause * 2).min(Duration::from_secs(5));
            }
        }
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
    /// The steps one event calls for.
    async fn react(&self, event: &StoredEvent) -> Result<(), ProjectionError>;
}

/// Events a workflow reads per step.
pub const WORKFLOW_BATCH: usize = 200;

/// Reacts to the next batch of events, then moves the checkpoint past it. The events
/// of one aggregate are reacted to in log order; different aggregates' at the same
/// time (a workflow step depends only on state its target aggregate has already
/// committed, so lanes need no order between them), so one busy loan does not hold
/// up the others. One checkpoint write per batch, without waiting for its WAL flush
/// ([`crate::rows::SqlTx::derived_only`]): every reaction is idempotent, so after a
/// crash the batch's reactions simply run again as no-ops.
pub async fn workflow_step(workflow: &dyn Workflow) -> Result<usize, ProjectionError> {
    let (database, name) = (workflow.database(), workflow.name());
    let from = read_checkpoint(database, name).await?;
    let events = EventLog::new(database)
        .read_after(from, WORKFLOW_BATCH as i64)
        .await?;
    let Some(last) = events.last().map(|event| event.position) else {
        return Ok(0);
    };
    let mut lanes: Vec<Vec<&StoredEvent>> = Vec::new();
    let mut lane_of: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for event in &events {
        let lane = *lane_of
            .entry(event.aggregate_id.as_str())
            .or_insert_with(|| {
                lanes.push(Vec::new());
                lanes.len() - 1
            });
        lanes[lane].push(event);
    }
    futures_util::future::try_join_all(lanes.into_iter().map(|lane| async move {
        for event in lane {
            workflow.react(event).await?;
        }
        Ok::<(), ProjectionError>(())
    }))
    .await?;
    let mut tx = begin(database).await?;
    tx.derived_only().await?;
    advance_checkpoint(&mut tx, name, from, last).await?;
    tx.commit().await?;
    Ok(events.len())
}

/// Steps `workflow` until caught up; returns the number of events handled. When
/// another process moves the checkpoint first, this one re-reads it and goes on from
/// there (the steps it may have repeated were no-ops).
pub async fn workflow_catch_up(workflow: &dyn Workflow) -> Result<usize, ProjectionError> {
    ensure_checkpoint(workflow.database(), workflow.name()).await?;
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

/// A [`Workflow`] as a [`Consumer`] for [`run`], with its counters.
pub struct WorkflowConsumer<W> {
    workflow: W,
    stats: RunnerStats,
}

impl<W: Workflow> WorkflowConsumer<W> {
    /// Wraps `workflow`.
    pub fn new(workflow: W) -> Self {
        Self {
            workflow,
            stats: RunnerStats::default(),
        }
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

    async fn step(&self) -> Result<usize, ProjectionError> {
        let handled = workflow_step(&self.workflow).await?;
        self.stats
            .events_applied
            .fetch_add(handled as u64, Ordering::Relaxed);
        Ok(handled)
    }

    fn batch_size(&self) -> usize {
        WORKFLOW_BATCH
    }

    fn stats(&self) -> &RunnerStats {
        &self.stats
    }

    fn appends(&self) -> bool {
        true
    }
}
