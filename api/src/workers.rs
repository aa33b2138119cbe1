//! The background workers an api process runs: every projection, the loan process
//! manager, the payout worker and the scheduler. Several api processes may run them against one
//! PostgreSQL: checkpoints (compare-and-set, advisory locks) and idempotent steps keep
//! every effect single.

use std::sync::Arc;
use std::time::Duration;

use projections::process::LoanProcess;
use projections::projection::all;
use projections::runner::Runner;
use tokio::sync::{watch, Notify};

use crate::payout::{self, SandboxPayout};
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
    let process = LoanProcess::new(
        &state.database,
        state.user_services.clone(),
        state.order_services.clone(),
    );
    let (process_wakeup, mut process_shutdown, process_state) =
        (wakeup.clone(), shutdown.clone(), state.clone());
    tokio::spawn(async move {
        while !*process_shutdown.borrow() {
            // Registered before the step: a wake-up during the step is not lost.
            let woken = process_wakeup.notified();
            match process.catch_up().await {
                Ok(0) => {}
                Ok(_) => process_state.wakeup.notify_waiters(),
                Err(error) => tracing::error!(%error, "process manager step failed; retrying"),
            }
            tokio::select! {
                () = woken => {},
                () = tokio::time::sleep(Duration::from_millis(250)) => {},
                _ = process_shutdown.changed() => {},
            }
        }
    });
    tokio::spawn(payout::run(
        state.clone(),
        Arc::new(SandboxPayout),
        wakeup,
        shutdown.clone(),
    ));
    tokio::spawn(crate::scheduler::run(
        state.clone(),
        SCHEDULER_EVERY,
        shutdown,
    ));
}
