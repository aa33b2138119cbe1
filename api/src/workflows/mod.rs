//! Every log-driven process of the api, one home: the workflows with effects outside
//! the aggregates, and [`spawn`], which starts them beside the read models and the
//! loan process.
//!
//! - [`payout`]: sends each withdrawal and refund to the payout provider and records
//!   its result (idempotent on the payout id);
//! - [`erasure`]: destroys a borrower's personal data outside the log after
//!   `PersonalDataErased` (12.6);
//! - [`reminders`]: queues each due-date reminder's SMS (12.5);
//! - [`scheduler`]: offer expiry, overdue accrual, reminders due, expired idempotency
//!   answers, once a minute;
//! - [`sms_relay`]: sends the SMS outbox through the provider, retried with backoff.
//!
//! The loan process (the steps from one aggregate to another, no outside effect) is
//! `projections::process`: the replay tool and the store's crash tests run it too, so
//! it lives below the api.
//!
//! [`spawn`] runs every projection, the loan workflow (process manager), the payout
//! worker, the reminder and erasure workflows — all on the one consumer loop of
//! [`projections::consumer`] — and the scheduler. Several api processes may run them
//! against one PostgreSQL: each consumer runs in the one process that holds its lease
//! ([`projections::consumer::lease`]) while the others stand by, and checkpoints (compare-and-set,
//! advisory locks) and idempotent steps keep every effect single even when two overlap.

pub mod erasure;
pub mod payout;
pub mod reminders;
pub mod scheduler;
pub mod sms_relay;

use std::sync::Arc;
use std::time::Duration;

use projections::consumer::feed::LogFeed;
use projections::consumer::runner::Runner;
use projections::consumer::{self, Consumer, WorkflowConsumer};
use projections::process::{CommandBuses, LoanProcess, LOAN_PROCESS_PARTITIONS};
use projections::projection::all;
use tokio::sync::{watch, Notify};

use crate::runtime::state::AppState;
use payout::PayoutWorker;

/// How often the scheduler expires offers and accrues overdue fees (a pass also runs
/// at start-up).
pub const SCHEDULER_EVERY: Duration = Duration::from_secs(60);

/// PostgreSQL connections of the read models' log reader, apart from the request
/// handlers' pool: one for its batch's transaction, one for a read beside it.
const READER_CONNECTIONS: u32 = 2;

/// The checkpoint name of every log consumer [`spawn`] starts: each read model,
/// each partition of the loan process, the payout, erasure and reminder workers
/// (`projection_lag_events` on `/metrics` reports each; an operator alerts on any
/// staying above 0).
pub fn consumer_names() -> Vec<String> {
    all()
        .iter()
        .map(|projection| projection.name().to_string())
        .chain(LOAN_PROCESS_PARTITIONS.iter().map(|name| name.to_string()))
        .chain(
            [
                crate::workflows::payout::PAYOUT_WORKER,
                crate::workflows::erasure::ERASURE_WORKER,
                crate::workflows::reminders::REMINDER_WORKER,
            ]
            .map(str::to_string),
        )
        .collect()
}

/// Starts the workers; they stop when `shutdown` turns true.
pub fn spawn(state: &AppState, wakeup: Arc<Notify>, shutdown: watch::Receiver<bool>) {
    let poll = Duration::from_millis(500);
    // One log reader for every read model (one read and one transaction per batch),
    // which hands each batch to the workflows through the feed.
    let feed = LogFeed::new();
    let reader_database = state.database.with_own_connections(READER_CONNECTIONS);
    let reader = Runner::group(&reader_database, all())
        .with_checkpoints(state.checkpoints.clone())
        .with_feed(feed.clone());
    let reader_name = reader.name();
    tokio::spawn(reader.run(state.leases.clone(), wakeup.clone(), poll, shutdown.clone()));
    // While another process leads the reader, this one's feed publishes nothing: the
    // workflows it leads then wake on the appends themselves.
    tokio::spawn(forward_wakeups(
        state.leases.clone(),
        reader_name,
        wakeup.clone(),
        feed.published(),
        shutdown.clone(),
    ));
    // The workflows run on the same consumer loop, woken by the feed.
    let workflow_poll = Duration::from_millis(250);
    for workflow in log_workflows(state, &feed, &wakeup) {
        let (published, stop) = (feed.published(), shutdown.clone());
        let leases = state.leases.clone();
        tokio::spawn(async move {
            consumer::run(workflow.as_ref(), &leases, published, workflow_poll, stop).await;
        });
    }
    spawn_timed(state, shutdown);
}

/// The consumers of the log besides the read models: the loan process in
/// partitions (so one borrower's steps never queue behind another's), the payout,
/// erasure and reminder workflows.
fn log_workflows(state: &AppState, feed: &LogFeed, wakeup: &Arc<Notify>) -> Vec<Box<dyn Consumer>> {
    let mut workflows: Vec<Box<dyn Consumer>> = Vec::new();
    for index in 0..LOAN_PROCESS_PARTITIONS.len() {
        // The api's own buses: one cached fold per aggregate in this process, and the
        // workflow's commands take turns with the handlers' instead of racing them.
        let buses = CommandBuses {
            users: state.users.clone(),
            orders: state.orders.clone(),
            wallets: state.wallets.clone(),
        };
        // The borrowers' sessions are the api's: the process revokes them through
        // the api's table (a password reset or change, 12.3).
        let sessions = Arc::new(crate::db::sessions::Revoker::new(&state.database));
        let process = LoanProcess::sharing(&state.database, buses, sessions).partition(index);
        workflows.push(Box::new(
            WorkflowConsumer::new(process)
                .with_feed(feed.clone())
                .waking(wakeup.clone()),
        ));
    }
    let xendit = crate::providers::xendit(&state.env, &state.config);
    let payout = PayoutWorker::new(
        state.clone(),
        crate::providers::payout(&state.env, xendit.as_ref()),
    );
    workflows.push(Box::new(
        WorkflowConsumer::new(payout)
            .with_feed(feed.clone())
            .waking(wakeup.clone()),
    ));
    // Erases a borrower's personal data outside the log once `PersonalDataErased` is
    // committed (12.6); appends no events.
    workflows.push(Box::new(
        WorkflowConsumer::new(erasure::ErasureWorker::new(state.clone())).with_feed(feed.clone()),
    ));
    // Queues each due-date reminder's SMS in the outbox (12.5); appends no events.
    workflows.push(Box::new(
        WorkflowConsumer::new(reminders::ReminderWorker::new(state.clone()))
            .with_feed(feed.clone()),
    ));
    workflows
}

/// The workers driven by time rather than the log: the SMS relay (with a real SMS
/// provider) and the scheduler.
fn spawn_timed(state: &AppState, shutdown: watch::Receiver<bool>) {
    if let Some(settings) = state
        .env
        .semaphore
        .clone()
        .filter(|_| state.env.providers.sms == crate::config::SEMAPHORE)
    {
        let sender = Arc::new(crate::providers::semaphore::Semaphore::new(settings));
        tokio::spawn(sms_relay::run(
            state.clone(),
            sender,
            Duration::from_secs(1),
            shutdown.clone(),
        ));
    }
    tokio::spawn(state.catalogue.clone().keep_fresh(
        state.products.clone(),
        state.settings.clone(),
        crate::config::PRODUCT_REFRESH,
        shutdown.clone(),
    ));
    tokio::spawn(scheduler::run(state.clone(), SCHEDULER_EVERY, shutdown));
}

/// Passes each append's wake-up on to the workflows while this process does not lead
/// the log reader `reader` (whose published batches wake them otherwise).
async fn forward_wakeups(
    leases: projections::consumer::lease::Leases,
    reader: &'static str,
    wakeup: Arc<Notify>,
    published: Arc<Notify>,
    mut shutdown: watch::Receiver<bool>,
) {
    // A dropped sender ends it too (`changed()` would otherwise answer at once forever).
    while !*shutdown.borrow() && shutdown.has_changed().is_ok() {
        tokio::select! {
            () = wakeup.notified() => {
                if !leases.leads(reader) {
                    published.notify_waiters();
                }
            },
            _ = shutdown.changed() => {},
        }
    }
}
