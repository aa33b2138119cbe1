//! What every handler shares: the store, the configuration, the command buses, and
//! the read-your-writes wait.

use std::sync::Arc;
use std::time::Duration;

use aggregates::order::Order;
use aggregates::services::{OrderServices, UserServices};
use aggregates::user::User;
use aggregates::wallet::Wallet;
use aggregates::Actor;
use cqrs_es::{Aggregate, AggregateError, EventEnvelope};
use projections::projection::all;
use projections::runner::{wait_for_checkpoints, Checkpoints};
use projections::store::{CommandBus, Database, EventLog, RetryPolicy};
use tokio::sync::Notify;

use crate::envelope::ApiError;
use crate::settings::{Env, LendingConfig};

/// Shared state of the handlers.
#[derive(Clone)]
pub struct AppState {
    /// The event store and read models.
    pub database: Database,
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
    /// Pokes the in-process workers after a commit.
    pub wakeup: Arc<Notify>,
    /// The services the commands use (also handed to the process manager).
    pub user_services: UserServices,
    /// Order services.
    pub order_services: OrderServices,
    /// Per-IP rate limits on login, SMS and unlock.
    pub rate_limits: Arc<crate::ops::RateLimits>,
    /// Uploaded images (`STORAGE_URL`).
    pub storage: crate::files::Storage,
    /// The checkpoints this process's workers commit, on which commands wait for
    /// their read models.
    pub checkpoints: Checkpoints,
}

/// How long a command waits for the read models before answering anyway.
const SETTLE_TIMEOUT: Duration = Duration::from_secs(3);

impl AppState {
    /// Runs a command (retrying optimistic-concurrency conflicts), wakes the workers,
    /// and waits until the read models include its events, so the client reads its
    /// own write. Returns the committed events.
    pub async fn execute<A>(
        &self,
        bus: &CommandBus<A>,
        id: &str,
        command: impl Fn() -> A::Command,
        actor: Actor,
        request_id: &str,
    ) -> Result<Vec<EventEnvelope<A>>, ApiError>
    where
        A: Aggregate,
        A::Error: Into<ApiError>,
        AggregateError<A::Error>: Into<ApiError>,
    {
        let metadata = actor.metadata(request_id, None);
        let policy = RetryPolicy {
            max_retries: 10,
            ..RetryPolicy::default()
        };
        let events = bus
            .execute_with_retry(id, command, metadata, policy)
            .await
            .map_err(Into::into)?;
        if !events.is_empty() {
            self.settle().await?;
        }
        Ok(events)
    }

    /// Wakes the workers and waits (bounded) until every projection has passed the
    /// current head of the log.
    pub async fn settle(&self) -> Result<(), ApiError> {
        self.wakeup.notify_waiters();
        let head = EventLog::new(&self.database)
            .head()
            .await
            .map_err(ApiError::internal)?;
        let names: Vec<&str> = all().iter().map(|p| p.name()).collect();
        if !wait_for_checkpoints(
            &self.database,
            &self.checkpoints,
            &names,
            head,
            SETTLE_TIMEOUT,
        )
        .await?
        {
            tracing::warn!("read models did not catch up in time; answering anyway");
        }
        Ok(())
    }
}
