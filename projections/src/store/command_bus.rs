//! Running commands against aggregates: load, handle, commit, and (on request)
//! retry after an optimistic-concurrency conflict.

use std::collections::HashMap;

use cqrs_es::event_sink::EventSink;
use cqrs_es::persist::{
    EventStoreAggregateContext, EventUpcaster, PersistedEventRepository, PersistedEventStore,
    PersistenceError, SerializedEvent,
};
use cqrs_es::{Aggregate, AggregateError, EventEnvelope, EventStore};
use postgres_es::PostgresEventRepository;
use sqlite_es::SqliteEventRepository;

use super::aggregate_cache::{AggregateCache, Cached};
use super::appends::PostgresAppends;
use super::group_commit::GroupCommit;
use super::sealing::{DataKeys, KeyMemo, SealingRepository};
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
/// - events are the only source of truth: a command decides on the fold of all the
///   aggregate's events. The bus keeps the folds of recently used aggregates in
///   memory and reads only the events appended since, after checking that no key that
///   opened them was erased ([`super::aggregate_cache`]); nothing is written besides
///   the events. There are deliberately no stored snapshots — cqrs-es 0.5.0's
///   snapshot store applies a command's events to the snapshot twice (once through
///   the `EventSink` in `handle`, again in `commit`), see DESIGN.md "Stores".
pub struct CommandBus<A: Aggregate> {
    store: Backend<A>,
    services: A::Services,
    /// Commands of one aggregate take turns within this process.
    turns: super::aggregate_locks::AggregateLocks,
    /// Folds of recently used aggregates (used only inside a turn).
    cache: AggregateCache<A>,
    /// The data keys, read again before a cached fold is used.
    keys: DataKeys,
}

impl<A: Aggregate + Clone> CommandBus<A> {
    /// A bus writing to `database`, handing `services` to every `handle` call.
    pub fn new(database: &Database, services: A::Services) -> Self {
        Self {
            store: Backend::for_database(database),
            services,
            turns: Default::default(),
            cache: AggregateCache::default(),
            keys: DataKeys::new(database),
        }
    }

    /// The services handed to the aggregate's `handle`.
    pub fn services(&self) -> &A::Services {
        &self.services
    }

    /// The aggregate's current state (`A::default()` when it has no events): the fold
    /// a command would decide on, i.e. its cached fold brought up to date with the
    /// events appended since (one statement), or the fold of all its events when it is
    /// not cached or a key that opened its values was erased. The state is cached for
    /// the next command or load, unless it has no events. Takes the aggregate's turn,
    /// as a command does.
    ///
    /// Callers that wait for a workflow poll this (`await_workflow`), so it must not
    /// read a borrower's whole history each time.
    ///
    /// # Errors
    /// [`AggregateError::DatabaseConnectionError`], [`AggregateError::UnexpectedError`] or
    /// [`AggregateError::DeserializationError`] when an event cannot be read back.
    pub async fn load(&self, aggregate_id: &str) -> Result<A, AggregateError<A::Error>> {
        let _turn = self.turns.turn(aggregate_id).await;
        KeyMemo::scope(async {
            let context = self.resume_or_load(aggregate_id).await?;
            let state = context.aggregate.clone();
            self.keep(aggregate_id, context.aggregate, context.current_sequence);
            Ok(state)
        })
        .await
    }

    /// The fold of all the aggregate's events, read from the log without the cache
    /// (tests and diagnostics compare it with what commands decide on).
    ///
    /// # Errors
    /// As for [`CommandBus::load`].
    pub async fn reload(&self, aggregate_id: &str) -> Result<A, AggregateError<A::Error>> {
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

    /// [`CommandBus::execute`]'s body, inside its [`KeyMemo`] and its turn.
    async fn load_handle_commit(
        &self,
        aggregate_id: &str,
        command: A::Command,
        metadata: HashMap<String, String>,
    ) -> Result<Vec<EventEnvelope<A>>, AggregateError<A::Error>> {
        let mut context = self.resume_or_load(aggregate_id).await?;
        // `handle` folds the events it decides into the state as it writes them
        // (cqrs-es's `EventSink::write`), so the state before it is kept aside: a
        // refusal leaves the aggregate as it was, and a commit is folded into it as
        // the events will read back from the log.
        let before = context.aggregate.clone();
        let sink = EventSink::default();
        let decided = context
            .aggregate
            .handle(command, &self.services, &sink)
            .await;
        if let Err(refusal) = decided {
            self.keep(aggregate_id, before, context.current_sequence);
            return Err(AggregateError::UserError(refusal));
        }
        let events = sink.collect().await;
        if events.is_empty() {
            // Nothing to append: skip the (empty) write transaction.
            self.keep(aggregate_id, before, context.current_sequence);
            return Ok(Vec::new());
        }
        let sequence = context.current_sequence;
        // Boxed: nested in one more scope, the command's future outgrew the 2 MiB
        // stacks of tokio's workers in debug builds.
        let (committed, recorded_at) =
            super::appends::stamped(Box::pin(self.store.commit(events, context, metadata))).await;
        let mut committed = match committed {
            Ok(committed) => committed,
            Err(error) => {
                // Whatever happened to the append (lost the race for its sequence,
                // or the connection failed around it), `before` is still the fold of
                // events 1..=sequence: the retry reads only what came after. Loading
                // in full instead let a workflow's retries, reading a long history,
                // lose every race to the api's quick commands on the same order.
                self.keep(aggregate_id, before, sequence);
                return Err(error);
            }
        };
        // Every event records when it was committed (history replay shows it, P9): the
        // append stamped it once it held its connection (`appends::stamp`), and the
        // envelopes answered carry it as the log does. A caller-supplied value (a
        // replayed import) is kept.
        if let Some(recorded_at) = recorded_at {
            for envelope in &mut committed {
                envelope
                    .metadata
                    .entry(RECORDED_AT.to_string())
                    .or_insert_with(|| recorded_at.clone());
            }
        }
        self.fold_and_keep(aggregate_id, before, &committed);
        tracing::debug!(
            aggregate_type = A::TYPE,
            aggregate_id,
            events = committed.len(),
            "command committed"
        );
        Ok(committed)
    }

    /// The aggregate as of its last event: its cached fold brought up to date when
    /// that is still safe to use, else the fold of all its events.
    async fn resume_or_load(
        &self,
        aggregate_id: &str,
    ) -> Result<EventStoreAggregateContext<A>, AggregateError<A::Error>> {
        if let Some(entry) = self.cache.take(aggregate_id) {
            if let Some(context) = self.resume(aggregate_id, entry).await? {
                return Ok(context);
            }
        }
        self.store.load_aggregate(aggregate_id).await
    }

    /// `entry` with the events appended after it folded in; `None` when a key that
    /// opened its values has been erased since (the caller then loads in full).
    async fn resume(
        &self,
        aggregate_id: &str,
        entry: Cached<A>,
    ) -> Result<Option<EventStoreAggregateContext<A>>, AggregateError<A::Error>> {
        let Some(stored) = self
            .keys
            .catch_up(&entry.subjects, A::TYPE, aggregate_id, entry.sequence)
            .await
            .map_err(PersistenceError::from)?
        else {
            tracing::debug!(
                aggregate_type = A::TYPE,
                aggregate_id,
                "a key of the cached state was erased; loading all events"
            );
            return Ok(None);
        };
        KeyMemo::seed_first_body((A::TYPE, aggregate_id), entry.first_body);
        let mut context = EventStoreAggregateContext {
            aggregate_id: aggregate_id.to_string(),
            aggregate: entry.state,
            current_sequence: entry.sequence,
            current_snapshot: None,
        };
        for envelope in self.store.deserialize(stored)? {
            context.current_sequence = envelope.sequence;
            context.aggregate.apply(envelope.payload);
        }
        Ok(Some(context))
    }

    /// Caches `before` with `committed` folded in, each as a load would read it back
    /// (serialized, upcast, deserialized: a decimal's scale, for one, can differ from
    /// the value the aggregate wrote). An event that does not read back drops the
    /// entry; the next command loads in full and reports it.
    fn fold_and_keep(&self, aggregate_id: &str, mut before: A, committed: &[EventEnvelope<A>]) {
        let Some(last) = committed.last() else {
            return;
        };
        match self.store.read_back(committed) {
            Ok(events) => {
                for event in events {
                    before.apply(event);
                }
                self.keep(aggregate_id, before, last.sequence);
            }
            Err(error) => tracing::warn!(
                aggregate_type = A::TYPE,
                aggregate_id,
                %error,
                "a committed event does not read back; not cached"
            ),
        }
    }

    /// Caches `state`, the fold of events 1..=`sequence`, with what this command
    /// learned about its keys — unless the append wrote a personal value erased, so
    /// that `state` holds a value the log does not, or there are no events: an
    /// aggregate that does not exist (yet) is not worth a place, and callers naming
    /// made-up ids (a refused command, a load) must not push real entries out.
    fn keep(&self, aggregate_id: &str, state: A, sequence: usize) {
        let learned = KeyMemo::learned(A::TYPE, aggregate_id);
        if learned.sealed_erased || sequence == 0 {
            return;
        }
        self.cache.put(
            aggregate_id,
            Cached {
                state,
                sequence,
                subjects: learned.subjects,
                first_body: learned.first_body,
            },
        );
    }

    /// The cached fold of `aggregate_id` and the sequence it is as of, if any — for
    /// tests and diagnostics; commands check it against the log before using it.
    pub fn cached(&self, aggregate_id: &str) -> Option<(A, usize)> {
        self.cache
            .peek(aggregate_id, |entry| (entry.state.clone(), entry.sequence))
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
    Sqlite(Store<SealingRepository<SqliteEventRepository, GroupCommit>, A>),
    Postgres(Store<SealingRepository<PostgresEventRepository, PostgresAppends>, A>),
}

/// cqrs-es's event store over repository `R`, plus its event decoding, which cqrs-es
/// keeps crate-private and the aggregate cache needs for the events it reads itself.
struct Store<R: PersistedEventRepository, A: Aggregate> {
    events: PersistedEventStore<R, A>,
    /// The upcasters `events` applies, applied to the cache's events too.
    upcasters: Vec<Box<dyn EventUpcaster>>,
}

impl<R: PersistedEventRepository, A: Aggregate> Store<R, A> {
    fn new(repository: R) -> Self {
        Self {
            events: PersistedEventStore::new_event_store(repository)
                .with_upcasters(super::upcasters::all()),
            upcasters: super::upcasters::all(),
        }
    }

    /// `committed`'s events as a load will read them (sealing aside, which opens to
    /// the same JSON).
    fn read_back(&self, committed: &[EventEnvelope<A>]) -> Result<Vec<A::Event>, PersistenceError> {
        let stored = committed
            .iter()
            .map(SerializedEvent::try_from)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(self
            .deserialize(stored)?
            .into_iter()
            .map(|envelope| envelope.payload)
            .collect())
    }

    /// cqrs-es's `deserialize_events` (crate-private there): upcast, then deserialize.
    fn deserialize(
        &self,
        stored: Vec<SerializedEvent>,
    ) -> Result<Vec<EventEnvelope<A>>, PersistenceError> {
        let upcast = |event: SerializedEvent| {
            self.upcasters.iter().fold(event, |event, upcaster| {
                if upcaster.can_upcast(&event.event_type, &event.event_version) {
                    upcaster.upcast(event)
                } else {
                    event
                }
            })
        };
        stored
            .into_iter()
            .map(|event| EventEnvelope::try_from(upcast(event)))
            .collect()
    }
}

impl<A: Aggregate> Backend<A> {
    fn for_database(database: &Database) -> Self {
        match database {
            Database::Sqlite { reads, appends, .. } => {
                Self::Sqlite(Store::new(SealingRepository::new(
                    appends.clone(),
                    SqliteEventRepository::new(reads.clone()),
                    database,
                )))
            }
            Database::Postgres(pool) => Self::Postgres(Store::new(SealingRepository::new(
                PostgresAppends(pool.clone()),
                PostgresEventRepository::new(pool.clone()),
                database,
            ))),
        }
    }

    /// See [`Store::read_back`].
    fn read_back(&self, committed: &[EventEnvelope<A>]) -> Result<Vec<A::Event>, PersistenceError> {
        match self {
            Self::Sqlite(store) => store.read_back(committed),
            Self::Postgres(store) => store.read_back(committed),
        }
    }

    /// See [`Store::deserialize`].
    fn deserialize(
        &self,
        stored: Vec<SerializedEvent>,
    ) -> Result<Vec<EventEnvelope<A>>, PersistenceError> {
        match self {
            Self::Sqlite(store) => store.deserialize(stored),
            Self::Postgres(store) => store.deserialize(stored),
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
            Self::Sqlite(store) => store.events.load_events(aggregate_id).await,
            Self::Postgres(store) => store.events.load_events(aggregate_id).await,
        }
    }

    async fn load_aggregate(
        &self,
        aggregate_id: &str,
    ) -> Result<Self::AC, AggregateError<A::Error>> {
        match self {
            Self::Sqlite(store) => store.events.load_aggregate(aggregate_id).await,
            Self::Postgres(store) => store.events.load_aggregate(aggregate_id).await,
        }
    }

    async fn commit(
        &self,
        events: Vec<A::Event>,
        context: Self::AC,
        metadata: HashMap<String, String>,
    ) -> Result<Vec<EventEnvelope<A>>, AggregateError<A::Error>> {
        match self {
            Self::Sqlite(store) => store.events.commit(events, context, metadata).await,
            Self::Postgres(store) => store.events.commit(events, context, metadata).await,
        }
    }
}
