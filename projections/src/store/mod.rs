//! The event store: connection, migrations, command execution with conflict retry,
//! and the global-position log reader.
//!
//! Both back ends keep cqrs-es's `events` table (written by [`appends`], through
//! [`group_commit`] on SQLite)
//! plus a global position that the projection workers tail (DESIGN.md "Stores"):
//!
//! - [`Database`] opens SQLite or PostgreSQL from a URL and applies the migrations.
//! - [`CommandBus`] runs a command against an aggregate (load, handle, commit) and
//!   returns the events it committed; [`CommandBus::execute_with_retry`] re-runs a
//!   command that lost an optimistic-concurrency race, following a [`RetryPolicy`].
//!   It keeps recently used aggregates folded (`aggregate_cache`, ADR 0016) and reads
//!   only the events appended since.
//! - [`EventLog`] reads every aggregate's events in one global order, after a
//!   [`LogPosition`] checkpoint, without ever skipping a late commit.
//! - [`group_commit`] writes SQLite's appends, several in one transaction when they
//!   queue behind the one writer; SQLite's loads and other reads that need no
//!   transaction go to WAL reader connections ([`crate::with_read_pool!`]).
//! - [`replica`] opens a PostgreSQL read replica for the queries and waits for it to
//!   replay the primary (`READ_DATABASE_URL`, ADR 0013).
//! - [`sealing`] seals the personal fields of events with the borrower's data key on
//!   the way in and opens them on the way out (crypto-shredding, ADR 0012).
//! - [`advisory_lock`] takes PostgreSQL advisory locks (the consumers' leases);
//!   [`seed`] writes generated events in bulk (the workload generator).

pub mod advisory_lock;
mod aggregate_cache;
mod aggregate_locks;
pub mod appends;
mod command_bus;
mod database;
mod error;
mod event_log;
pub mod group_commit;
mod metadata;
pub mod replica;
mod retry;
pub mod sealing;
pub mod seed;
mod sqlite_tx;
mod upcasters;

pub use appends::{appended, with_side_insert, SideInsert};
pub use command_bus::{load_events, CommandBus, RECORDED_AT};
pub use database::{Database, DEFAULT_DATABASE_URL};
pub use error::StoreError;
pub use event_log::{EventLog, LogPosition, Payload, StoredEvent};
pub use metadata::Metadata;
pub use retry::RetryPolicy;
pub use sqlite_tx::SqliteTx;
