//! Running commands against aggregates: load, handle, commit, and (on request)
//! retry after an optimistic-concurrency conflict.

use std::collections::HashMap;

use cqrs_es::event_sink::EventSink;
use cqrs_es::persist::{EventStoreAggregateContext, PersistedEventStore};
use cqrs_es::{Aggregate, AggregateError, EventEnvelope, EventStore};
use postgres_es::PostgresEventRepository;
use sqlite_es::SqliteEventRepository;

use super::appends::PostgresAppends;
use super::group_commit::GroupCommit;
use super::sealing::{KeyMemo, SealingRepository};
use super::{Database, RetryPolicy};

/// Metadata key of the commit time every event carries (RFC 3339, UTC).
pub const RECORDED_AT: &str = "recorded_at";

/// Executes commands for aggregates of type `A` against the event store.
///
/// Guarantees:
/// - a command's events are appended all together or not at all;
/// - an aggregate's events get the sequences 1, 2, 3, … with no gap and no duplicate:
///   when two commands decide from the same version, the second append fails with
///   [`AggregateError::AggregateConflict`] and writes nothing;
/// - events are the only source of truth: every command folds the aggregate from
///   all its events. There are deliberately no snapshots — cqrs-es 0.5.0's snapshot
///   store applies a command's events to the snapshot twice (once through the
///   `EventSink` in `handle`, again in `commit`), see DESIGN.md "Stores".
pub struct CommandBus<A: Aggregate> {
    store: Backend<A>,
    services: A::Services,
    /// Commands of one aggregate take turns within this process.
    turns: super::aggregate_locks::AggregateLocks,
}

impl<A: Aggregate> CommandBus<A> {
    /// A bus writing to `database`, handing `services` to every `handle` call.
    pub fn new(database: &Database, services: A::Services) -> Self {
        Self {
            store: Backend::for_database(database),
            services,
            turns: Default::default(),
        }
    }

    /// The services handed to the aggregate's `handle`.
    pub fn services(&self) -> &A::Services {
        &self.services
    }

    /// The aggregate's current state, folded from all its events
    /// (`A::default()` when it has none).
    ///
    /// # Errors
    /// [`AggregateError::DatabaseConnectionError`], [`AggregateError::UnexpectedError`] or
    /// [`AggregateError::DeserializationError`] when an event cannot be read back.
    pub async fn load(&self, aggregate_id: &str) -> Result<A, AggregateError<A::Error>> {
        Ok(self.store.load_aggregate(aggregate_id).await?.aggregate)
    }

    /// All events of one aggregate, in sequence order, with their metadata.
    ///
    /// # Errors
    /// As for [`CommandBus::load`].
    pub async fn load_events(
        &self,
        aggregate_id: &str,
    ) -> Result<Vec<EventEnvelope<A>>, AggregateError<A::Error>> {
        self.store.load_events(aggregate_id).await
    }

    /// Loads the aggregate, lets it handle `command`, and appends the resulting events
    /// with `metadata` attached to each. Returns the committed events (empty when the
    /// command decided nothing needed to happen), so the caller can see what the command
    /// did — for example that a login attempt produced a `LoginFailed` event.
    ///
    /// This is [`cqrs_es::CqrsFramework::execute_with_metadata`] minus query dispatch
    /// (read models tail the event log instead), plus the returned events. It never
    /// retries; see [`CommandBus::execute_with_retry`].
    ///
    /// # Errors
    /// - [`AggregateError::UserError`]: the aggregate refused the command; nothing was written.
    /// - [`AggregateError::AggregateConflict`]: another command appended to this aggregate
    ///   after it was loaded; nothing was written, and running the command again is safe.
    /// - the infrastructure variants when the database fails.
    pub async fn execute(
        &self,
        aggregate_id: &str,
        command: A::Command,
        metadata: HashMap<String, String>,
    ) -> Result<Vec<EventEnvelope<A>>, AggregateError<A::Error>> {
        // Commands of this process on this aggregate go one at a time (see
        // `aggregate_locks`); other processes are still kept out by the append's
        // optimistic-concurrency check.
        let _turn = self.turns.turn(aggregate_id).await;
        // The load and the append share what the load learned about data keys.
        KeyMemo::scope(self.load_handle_commit(aggregate_id, command, metadata)).await
    }

    /// [`CommandBus::execute`]'s body, inside its [`KeyMemo`].
    async fn load_handle_commit(
        &self,
        aggregate_id: &str,
        command: A::Command,
        mut metadata: HashMap<String, String>,
    ) -> Result<Vec<EventEnvelope<A>>, AggregateError<A::Error>> {
        let mut context = self.store.load_aggregate(aggregate_id).await?;
        let sink = EventSink::default();
        context
            .aggregate
            .handle(command, &self.services, &sink)
            .await
            .map_err(AggregateError::UserError)?;
        let events = sink.collect().await;
        if events.is_empty() {
            // Nothing to append: skip the (empty) write transaction.
            return Ok(Vec::new());
        }
        // Every event records when it was committed (history replay shows it, P9);
        // a caller-supplied value (a replayed import) is kept.
        metadata.entry(RECORDED_AT.to_string()).or_insert_with(|| {
            chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
        });
        let committed = self.store.commit(events, context, metadata).await?;
        tracing::debug!(
            aggregate_type = A::TYPE,
            aggregate_id,
            events = committed.len(),
            "command committed"
        );
        Ok(committed)
    }

    /// Like [`CommandBus::execute`], but when the append loses an optimistic-concurrency
    /// race ([`AggregateError::AggregateConflict`]) it waits as `policy` says and runs the
    /// command again on the newer state, up to `policy.max_retries` times. Every other
    /// outcome, including a refusal on a retry, is returned as is; a conflict that outlasts
    /// the budget is returned as [`AggregateError::AggregateConflict`].
    ///
    /// `make_command` is called once per attempt, so commands need not be `Clone`.
    ///
    /// Retrying is safe because a conflicting attempt leaves no trace: the append is one
    /// transaction that wrote nothing, and `handle` has no side effects — payouts, SMS and
    /// payment sessions happen in workers after the commit, never inside `handle`. The
    /// retry re-decides from the aggregate's current state, so it can never apply a
    /// decision that state no longer allows (it is refused instead).
    ///
    /// # Errors
    /// As for [`CommandBus::execute`].
    pub async fn execute_with_retry<F>(
        &self,
        aggregate_id: &str,
        make_command: F,
        metadata: HashMap<String, String>,
        policy: RetryPolicy,
    ) -> Result<Vec<EventEnvelope<A>>, AggregateError<A::Error>>
    where
        F: Fn() -> A::Command,
    {
        let mut retries = 0;
        loop {
            match self
                .execute(aggregate_id, make_command(), metadata.clone())
                .await
            {
                Err(AggregateError::AggregateConflict) if retries < policy.max_retries => {
                    retries += 1;
                    let delay = policy.delay_before(retries);
                    tracing::debug!(
                        aggregate_type = A::TYPE,
                        aggregate_id,
                        retry = retries,
                        delay_us = u64::try_from(delay.as_micros()).unwrap_or(u64::MAX),
                        "command conflicted; retrying"
                    );
                    tokio::time::sleep(delay).await;
                }
                Err(AggregateError::AggregateConflict) => {
                    tracing::warn!(
                        aggregate_type = A::TYPE,
                        aggregate_id,
                        retries,
                        "command still conflicting after its last retry"
                    );
                    return Err(AggregateError::AggregateConflict);
                }
                outcome => return outcome,
            }
        }
    }
}

/// The event-sourced cqrs-es store over whichever database we run on.
///
/// An enum rather than a trait object: `EventStore`'s methods return `impl Future`,
/// which makes the trait unusable as `dyn`.
/// Both seal personal fields on the way in and open them on the way out
/// ([`super::sealing`]).
enum Backend<A: Aggregate> {
    Sqlite(PersistedEventStore<SealingRepository<SqliteEventRepository, GroupCommit>, A>),
    Postgres(PersistedEventStore<SealingRepository<PostgresEventRepository, PostgresAppends>, A>),
}

impl<A: Aggregate> Backend<A> {
    fn for_database(database: &Database) -> Self {
        match database {
            Database::Sqlite { reads, appends, .. } => Self::Sqlite(
                PersistedEventStore::new_event_store(SealingRepository::new(
                    appends.clone(),
                    SqliteEventRepository::new(reads.clone()),
                    database,
                ))
                .with_upcasters(super::upcasters::all()),
            ),
            Database::Postgres(pool) => Self::Postgres(
                PersistedEventStore::new_event_store(SealingRepository::new(
                    PostgresAppends(pool.clone()),
                    PostgresEventRepository::new(pool.clone()),
                    database,
                ))
                .with_upcasters(super::upcasters::all()),
            ),
        }
    }
}

/// All events of one aggregate, in sequence order, with their metadata — for readers
/// that never execute commands (history replay, export) and so have no services.
///
/// # Errors
/// As for [`CommandBus::load`].
pub async fn load_events<A: Aggregate>(
    database: &Database,
    aggregate_id: &str,
) -> Result<Vec<EventEnvelope<A>>, AggregateError<A::Error>> {
    Backend::<A>::for_database(database)
        .load_events(aggregate_id)
        .await
}

impl<A: Aggregate> EventStore<A> for Backend<A> {
    type AC = EventStoreAggregateContext<A>;

    async fn load_events(
        &self,
        aggregate_id: &str,
    ) -> Result<Vec<EventEnvelope<A>>, AggregateError<A::Error>> {
        match self {
            Self::Sqlite(store) => store.load_events(aggregate_id).await,
            Self::Postgres(store) => store.load_events(aggregate_id).await,
        }
    }

    async fn load_aggregate(
        &self,
        aggregate_id: &str,
    ) -> Result<Self::AC, AggregateError<A::Error>> {
        match self {
            Self::Sqlite(store) => store.load_aggregate(aggregate_id).await,
            Self::Postgres(store) => store.load_aggregate(aggregate_id).await,
        }
    }

    async fn commit(
        &self,
        events: Vec<A::Event>,
        context: Self::AC,
        metadata: HashMap<String, String>,
    ) -> Result<Vec<EventEnvelope<A>>, AggregateError<A::Error>> {
        match self {
            Self::Sqlite(store) => store.commit(events, context, metadata).await,
            Self::Postgres(store) => store.commit(events, context, metadata).await,
        }
    }
}
