//! SQLite write transactions, durable or derived (issue 14, the SQLite floor).
//!
//! Every SQLite connection runs with `synchronous=FULL` ([`super::Database::connect_sqlite`]):
//! each commit waits for its own fsync, so an acknowledged event is never lost.
//! Read models and consumer checkpoints are derived from the log: a crash may lose
//! their last commits, rows and checkpoint together, and the worker applies those
//! events again. PostgreSQL commits them without waiting for the WAL flush
//! (`synchronous_commit = off`, [`crate::consumer::runner::begin_derived`]); a
//! [`SqliteTx::Derived`] does the same on SQLite: its connection switches to
//! `synchronous=NORMAL` for that one commit and back to `FULL` right after.
//!
//! Why that is safe for the events: SQLite has one writer connection here, so no
//! event append runs while the setting is `NORMAL`; in WAL mode a `NORMAL` commit
//! appends its frames without an fsync, and the next `FULL` commit's fsync makes them
//! durable with its own. WAL frames are checksummed in a chain, so recovery never keeps
//! a later commit without the earlier ones (<https://www.sqlite.org/wal.html>,
//! <https://www.sqlite.org/pragma.html#pragma_synchronous>).
//!
//! The setting cannot change inside a transaction ("Safety level may not be changed
//! inside a transaction"), so it changes in the same round trip as `BEGIN` and
//! `COMMIT`. A derived transaction that does not reach its `COMMIT; PRAGMA synchronous
//! = FULL` (an error, a cancelled future) closes its connection instead of returning
//! it to the pool: the pool's next connection opens with `FULL`, and SQLite rolls back
//! whatever the closed one had not committed.

use std::ops::{Deref, DerefMut};

use sqlx::pool::PoolConnection;
use sqlx::{Executor as _, Sqlite, SqliteConnection, SqlitePool, Transaction};

/// A write transaction on SQLite. Dereferences to its connection for statements.
pub enum SqliteTx<'c> {
    /// sqlx's transaction: its commit waits for its fsync (`synchronous=FULL`).
    Durable(Transaction<'c, Sqlite>),
    /// A transaction of derived data whose commit does not wait for its fsync (see the
    /// module documentation). Only on a database file: an in-memory database has no
    /// fsync to save and would be lost with its closed connection.
    Derived(DerivedTx),
}

/// The connection of a [`SqliteTx::Derived`], inside `BEGIN` with `synchronous=NORMAL`
/// until its commit.
pub struct DerivedTx {
    connection: PoolConnection<Sqlite>,
    /// Between `PRAGMA synchronous = NORMAL` and the `FULL` after the commit.
    relaxed: bool,
}

impl SqliteTx<'static> {
    /// Begins a transaction of derived data on `pool` (its one writer connection).
    ///
    /// # Errors
    /// The database's, when no connection can be had or `BEGIN` fails.
    pub async fn begin_derived(pool: &SqlitePool) -> Result<Self, sqlx::Error> {
        let mut tx = DerivedTx {
            connection: pool.acquire().await?,
            relaxed: true,
        };
        // Both statements in one hand-off to the connection's thread (an unprepared
        // string may hold several).
        tx.connection
            .execute("PRAGMA synchronous = NORMAL; BEGIN")
            .await?;
        Ok(Self::Derived(tx))
    }
}

impl SqliteTx<'_> {
    /// Commits, and for a derived transaction puts its connection back to
    /// `synchronous=FULL` in the same round trip.
    ///
    /// # Errors
    /// The database's; a derived transaction's connection is then closed.
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        match self {
            Self::Durable(tx) => tx.commit().await,
            Self::Derived(mut tx) => {
                tx.connection
                    .execute("COMMIT; PRAGMA synchronous = FULL")
                    .await?;
                tx.relaxed = false;
                Ok(())
            }
        }
    }
}

impl Drop for DerivedTx {
    fn drop(&mut self) {
        if self.relaxed {
            // Never hand a `NORMAL` connection to an event append.
            self.connection.close_on_drop();
        }
    }
}

impl Deref for SqliteTx<'_> {
    type Target = SqliteConnection;

    fn deref(&self) -> &SqliteConnection {
        match self {
            Self::Durable(tx) => tx,
            Self::Derived(tx) => &tx.connection,
        }
    }
}

impl DerefMut for SqliteTx<'_> {
    fn deref_mut(&mut self) -> &mut SqliteConnection {
        match self {
            Self::Durable(tx) => tx,
            Self::Derived(tx) => &mut tx.connection,
        }
    }
}
