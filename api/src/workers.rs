//! The background workers an api process runs: every projection, the loan workflow
//! (process manager), the payout worker — all on the one consumer loop of
//! [`projections::consumer`] — and the scheduler. Several api processes may run them
//! against one PostgreSQL: checkpoints (compare-and-set, advisory locks) and
//! idempotent steps keep every effect single.

use std::sync::Arc;
use std::time::Duration;

use projections::consumer::{self, WorkflowConsumer};
use projections::process::{LoanProcess, LOAN_PROCESS_PARTITIONS};
use projections::projection::all;
use projections::runner::Runner;
use tokio::sync::{watch, Notify};

use crate::payout::{PayoutWorker, SandboxPayout};
use crate::state::AppState;

/// How often the scheduler expires offers and accrues overdue fees (a pass also runs
/// at start-up).
pub const SCHEDULER_EVERY: Duration = Duration::from_secs(60);

/// Starts the workers; they stop when `shutdown` turns true.
pub fn spawn(state: &AppState, wakeup: Arc<Notify>, shutdown: watch::Receiver<bool>) {
    let poll = Duration::from_millis(500);
    for projection in all() {
        let runner =
            Runner::new(&state.database, projection).with_checkpoints(state.checkpoints.clone());
        tokio::spawn(runner.run(wakeup.clone(), poll, shutdown.clone()));
    }
    // The workflows run on the same consumer loop as the projections; the loan
    // process in partitions, so one borrower's steps never queue behind another's.
    let workflow_poll = Duration::from_millis(250);
    let (woken, stop, loan_state) = (wakeup.clone(), shutdown.clone(), state.clone());
    tokio::spawn(async move {
        if let Err(error) = LoanProcess::ensure_partition_checkpoints(&loan_state.database).await {
            tracing::error!(%error, "loan process checkpoints not created; retrying in the loop");
        }
        for index in 0..LOAN_PROCESS_PARTITIONS.len() {
            let process = LoanProcess::new(
                &loan_state.database,
                loan_state.user_services.clone(),
                loan_state.order_services.clone(),
            )
            .partition(index);
            let (woken, stop) = (woken.clone(), stop.clone());
            tokio::spawn(async move {
                let consumer = WorkflowConsumer::new(process);
                consumer::run(&consumer, woken, workflow_poll, stop).await;
            });
        }
    });
    let payout = PayoutWorker::new(state.clone(), Arc::new(SandboxPayout));
    let (woken, stop) = (wakeup, shutdown.clone());
    tokio::spawn(async move {
        let consumer = WorkflowConsumer::new(payout);
        consumer::run(&consumer, woken, workflow_poll, stop).await;
    });
    tokio::spawn(crate::scheduler::run(
        state.clone(),
        SCHEDULER_EVERY,
        shutdown,
    ));
}
