//! What every handler shares: the store, the configuration, the command buses, and
//! the read-your-writes wait.

use std::sync::Arc;
use std::time::Duration;

use aggregates::catalogue::{ProductLine, SettingsLine};
use aggregates::order::Order;
use aggregates::services::{OrderServices, UserServices};
use aggregates::user::User;
use aggregates::wallet::Wallet;
use aggregates::Actor;
use cqrs_es::{Aggregate, AggregateError, EventEnvelope};
use projections::consumer::runner::Checkpoints;
use projections::store::{CommandBus, Database, EventLog, RetryPolicy};
use tokio::sync::Notify;

use crate::config::{Configured, Env, LendingConfig};
use crate::http::envelope::ApiError;
use crate::http::middleware::{command_count, idempotency, read_your_writes};

/// Shared state of the handlers: one pointer to the [`Shared`] parts, which it
/// dereferences to (`state.database`, `state.env`, …).
///
/// Every extractor and middleware of a request clones the state: behind one `Arc` that
/// is one reference count, where cloning the parts themselves took a count on each of
/// their twenty-odd pointers, and as many on drop (3.9 % of the machine's samples
/// under the 64-client query load, bench/PROFILE.md).
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl From<Shared> for AppState {
    fn from(parts: Shared) -> Self {
        Self(Arc::new(parts))
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl AppState {
    /// A copy of the parts, to build a state that differs in some of them
    /// (`AppState::from(Shared { env, ..state.shared() })`).
    pub fn shared(&self) -> Shared {
        Shared::clone(&self.0)
    }
}

/// What [`AppState`] holds.
#[derive(Clone)]
pub struct Shared {
    /// The event store and read models (the primary).
    pub database: Database,
    /// The read replica the read-model queries go to (`READ_DATABASE_URL`), if any;
    /// [`AppState::read_models`] chooses.
    pub replica: Option<Database>,
    /// Environment settings.
    pub env: Arc<Env>,
    /// The lending configuration.
    pub config: Arc<LendingConfig>,
    /// User commands.
    pub users: Arc<CommandBus<User>>,
    /// Order commands.
    pub orders: Arc<CommandBus<Order>>,
    /// Wallet commands.
    pub wallets: Arc<CommandBus<Wallet>>,
    /// Product changes (maker-checker; issue 55).
    pub products: Arc<CommandBus<ProductLine>>,
    /// Changes to the lender's settings: invite codes, company texts, receiving
    /// accounts (maker-checker; issue 55).
    pub settings: Arc<CommandBus<SettingsLine>>,
    /// The catalogue the aggregates price with: the product versions in force
    /// (`crate::config::Configured`), read again after each product command.
    pub catalogue: Arc<Configured>,
    /// Pokes the in-process workers after a commit.
    pub wakeup: Arc<Notify>,
    /// The services the commands use (also handed to the process manager).
    pub user_services: UserServices,
    /// Order services.
    pub order_services: OrderServices,
    /// Per-IP rate limits on login, SMS and unlock.
    pub rate_limits: Arc<crate::http::middleware::ops::RateLimits>,
    /// Uploaded images (`STORAGE_URL`).
    pub storage: crate::providers::storage::Storage,
    /// The checkpoints this process's workers commit, on which commands wait for
    /// their read models.
    pub checkpoints: Checkpoints,
    /// Which log consumers this process leads (one process per consumer on a
    /// shared PostgreSQL; the others stand by: `projections::consumer::lease`).
    pub leases: projections::consumer::lease::Leases,
    /// The PDF renderer with its checked font (`PDF_FONT`).
    pub documents: Arc<crate::documents::Documents>,
}

/// How long a call waits for the loan workflow to finish the step its command
/// started (opening the order, requesting the payout) before answering 40003.
pub const WORKFLOW_TIMEOUT: Duration = Duration::from_secs(10);

impl AppState {
    /// Runs a command (retrying optimistic-concurrency conflicts) and wakes the
    /// workers. It does not wait for the read models: the call answers with the log
    /// position of the command's last event (`X-Log-Position`,
    /// [`crate::http::middleware::read_your_writes`]), which the caller's next query waits for.
    /// Returns the committed events.
    pub async fn execute<A>(
        &self,
        bus: &CommandBus<A>,
        id: &str,
        command: impl Fn() -> A::Command,
        actor: Actor,
        request_id: &str,
    ) -> Result<Vec<EventEnvelope<A>>, ApiError>
    where
        A: Aggregate + Clone,
        A::Error: Into<ApiError>,
        AggregateError<A::Error>: Into<ApiError>,
    {
        command_count::record();
        let key = idempotency::current_key();
        let metadata = actor.metadata(request_id, key.as_deref());
        let policy = RetryPolicy {
            max_retries: 10,
            ..RetryPolicy::default()
        };
        // The append answers where its events landed, on both stores: no second look
        // at the log (the lookup below is the fallback should none be answered). The
        // command's future is boxed: nested in the scope, it outgrew the 2 MiB stacks
        // of tokio's workers in debug builds.
        let (outcome, position) = projections::store::appended(Box::pin(
            bus.execute_with_retry(id, command, metadata, policy),
        ))
        .await;
        let events = outcome.map_err(Into::into)?;
        if !events.is_empty() {
            self.wakeup.notify_waiters();
            match position {
                Some(position) => read_your_writes::record(position),
                None => read_your_writes::record_latest(self, A::TYPE, id).await?,
            }
        }
        Ok(events)
    }

    /// Now, from the `Clock` service the aggregates use (tests move it): every time
    /// the api decides with (tokens, codes, sessions, locks, the scheduler).
    pub fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.order_services.clock.now()
    }

    /// Waits, at most [`WORKFLOW_TIMEOUT`], for the outcome of a workflow step that
    /// the caller's command started: `check` reads the aggregates (never a read
    /// model) and answers `Some(outcome)` once the step is done, `Err` for the
    /// refusal the workflow recorded, `None` while it is still running. After the
    /// timeout: 40003, the step still completes (the workflow resumes after any
    /// crash) and the borrower sees it on the order.
    pub async fn await_workflow<T, F, Fut>(&self, mut check: F) -> Result<T, ApiError>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = Result<Option<T>, ApiError>>,
    {
        let deadline = tokio::time::Instant::now() + WORKFLOW_TIMEOUT;
        loop {
            // Registered before the check, so a step finishing in between wakes us.
            let woken = self.wakeup.notified();
            tokio::pin!(woken);
            woken.as_mut().enable();
            if let Some(outcome) = check().await? {
                return Ok(outcome);
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(ApiError::new(
                    aggregates::ErrorCode::ServerError,
                    "still being processed; check your order in a moment",
                ));
            }
            // The workflow may run in another process: poll as well as listen.
            tokio::select! {
                () = woken => {},
                () = tokio::time::sleep(Duration::from_millis(20)) => {},
            }
        }
    }

    /// The database the read-model queries read: the replica when one is configured
    /// (`READ_DATABASE_URL`, ADR 0013), else the primary. Commands, loads, the log,
    /// data keys and the api's own records always use [`AppState::database`].
    pub fn read_models(&self) -> &Database {
        self.replica.as_ref().unwrap_or(&self.database)
    }

    /// Waits (bounded) until every read model has passed the current head of the
    /// log: for the auditor's books, which answer as of the request whoever wrote.
    pub async fn read_models_at_head(&self) -> Result<(), ApiError> {
        self.wakeup.notify_waiters();
        let head = EventLog::new(&self.database).head().await?;
        read_your_writes::wait_for(self, head).await
    }
}
