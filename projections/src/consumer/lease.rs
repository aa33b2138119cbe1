//! Which process runs each log consumer (issue 14 item 6, ADR 0015).
//!
//! Several api processes may share one PostgreSQL store. Each runs the same log
//! consumers (the read-model reader, the loan workflow's partitions, the payout,
//! erasure and reminder workers); the compare-and-set checkpoints already keep every
//! batch applied once, but without more each batch would be read, applied and rolled
//! back by every process but one. A **lease** makes one process the leader of a
//! consumer and the others stand by:
//!
//! - on PostgreSQL a lease is a session-level advisory lock
//!   (`pg_try_advisory_lock(LEASE_CLASS, hashtext(current_schema() || ':' || name))`),
//!   all of one process's leases held on one connection of their own, taken out of
//!   the pool. The server releases them the moment that session ends: the process
//!   exits or dies, its connection drops, or an operator ends the backend. A
//!   standing-by process asks again every [`STANDBY_RETRY`] and takes over;
//! - the leader checks its lease connection at most every [`LEASE_CHECK`] (on the
//!   step that follows); when the connection is gone it forgets every lease it held and
//!   asks again on a new one. Between the loss and that check both processes may
//!   step: the compare-and-set checkpoint, not the lease, is what keeps a batch
//!   single, so the lease only saves work and never decides correctness;
//! - on SQLite every lease is held: the embedded store belongs to one process.
//!
//! Leases are per consumer, so with several processes the consumers spread over
//! whichever process asks first (different read models' readers in different
//! processes); the schema is part of the key, so stores in different schemas of one
//! database (the test suites) never contend.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::postgres::{PgConnection, PgPool};
use sqlx::Connection;

use crate::projection::ProjectionError;
use crate::store::Database;

/// The first key of every lease's advisory lock, so leases never share a lock with the
/// one-key, transaction-scoped locks of the projection writers and the rebuild.
pub const LEASE_CLASS: i32 = 1015;

/// How often a standing-by consumer asks for its lease again.
pub const STANDBY_RETRY: Duration = Duration::from_secs(1);

/// How long a leader trusts its lease connection without a round trip on it.
pub const LEASE_CHECK: Duration = Duration::from_secs(1);

/// The leases of one process on one store. Cheap to clone; clones share the one
/// lease connection and what it holds.
#[derive(Clone)]
pub struct Leases {
    postgres: Option<Arc<PgLeases>>,
    /// The names this process leads, readable without waiting on the connection.
    held: Arc<Mutex<HashSet<&'static str>>>,
}

struct PgLeases {
    pool: PgPool,
    session: tokio::sync::Mutex<Session>,
}

/// The lease connection and when it last answered.
#[derive(Default)]
struct Session {
    connection: Option<PgConnection>,
    checked_at: Option<tokio::time::Instant>,
}

impl Leases {
    /// The leases of a process on `database`: advisory locks on PostgreSQL; on SQLite
    /// every lease is held ([`Leases::always`]).
    pub fn for_database(database: &Database) -> Self {
        match database {
            Database::Postgres(pool) => Self {
                postgres: Some(Arc::new(PgLeases {
                    pool: pool.clone(),
                    session: tokio::sync::Mutex::default(),
                })),
                held: Arc::default(),
            },
            Database::Sqlite { .. } => Self::always(),
        }
    }

    /// Leases that are always held (one process, or a test that runs one consumer).
    pub fn always() -> Self {
        Self {
            postgres: None,
            held: Arc::default(),
        }
    }

    /// Whether this process leads `name` now: takes the lease if it is free. A
    /// leader's answer costs a round trip at most every [`LEASE_CHECK`]; a
    /// standing-by process's costs one each call.
    ///
    /// # Errors
    /// [`ProjectionError::Database`] when the store cannot be reached; every lease of
    /// this process is then forgotten (the server released them with the session).
    pub async fn hold(&self, name: &'static str) -> Result<bool, ProjectionError> {
        let Some(postgres) = &self.postgres else {
            self.held.lock().expect("lease set").insert(name);
            return Ok(true);
        };
        let mut session = postgres.session.lock().await;
        let outcome = self.hold_on(&postgres.pool, &mut session, name).await;
        if outcome.is_err() {
            // A failed round trip may have ended the session, and its locks with it.
            session.connection = None;
            self.held.lock().expect("lease set").clear();
        }
        outcome
    }

    async fn hold_on(
        &self,
        pool: &PgPool,
        session: &mut Session,
        name: &'static str,
    ) -> Result<bool, ProjectionError> {
        let now = tokio::time::Instant::now();
        let due = session
            .checked_at
            .is_none_or(|at| now.duration_since(at) >= LEASE_CHECK);
        let connection = match session.connection.as_mut() {
            Some(connection) => {
                if due {
                    connection.ping().await?;
                    session.checked_at = Some(now);
                }
                connection
            }
            None => {
                // A new session holds nothing yet, whatever the old one held.
                self.held.lock().expect("lease set").clear();
                session.checked_at = Some(now);
                session.connection.insert(pool.acquire().await?.detach())
            }
        };
        if self.held.lock().expect("lease set").contains(name) {
            return Ok(true);
        }
        let taken =
            crate::store::advisory_lock::try_lock(&mut *connection, LEASE_CLASS, name).await?;
        if taken {
            self.held.lock().expect("lease set").insert(name);
        }
        Ok(taken)
    }

    /// Whether this process led `name` at its last [`Leases::hold`] (no I/O).
    pub fn leads(&self, name: &str) -> bool {
        self.held.lock().expect("lease set").contains(name)
    }

    /// The names this process leads, sorted (for `/metrics`).
    pub fn leading(&self) -> Vec<&'static str> {
        let mut names: Vec<_> = self
            .held
            .lock()
            .expect("lease set")
            .iter()
            .copied()
            .collect();
        names.sort_unstable();
        names
    }

    /// Gives up every lease now (a graceful stop: the standing-by processes take
    /// over at their next ask instead of when this process's connection drops).
    pub async fn release_all(&self) {
        if let Some(postgres) = &self.postgres {
            let mut session = postgres.session.lock().await;
            if let Some(connection) = session.connection.take() {
                let _ = connection.close().await;
            }
        }
        self.held.lock().expect("lease set").clear();
    }
}
