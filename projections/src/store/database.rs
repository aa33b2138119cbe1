//! Opening the event store's database from a URL and migrating it.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use super::StoreError;

/// Evaluates `$body` with `$pool` bound to the SQLite or the PostgreSQL pool of a
/// [`Database`]: one sqlx statement written once for both stores (plain SQL with `$n`
/// parameters, which both accept).
#[macro_export]
macro_rules! with_pool {
    ($database:expr, $pool:ident => $body:expr) => {
        match $database {
            $crate::store::Database::Sqlite { pool: $pool, .. } => $body,
            $crate::store::Database::Postgres($pool) => $body,
        }
    };
}

/// Like [`with_pool!`], for a statement that only reads and needs no transaction:
/// on SQLite it runs on a WAL reader connection beside the one writer, so it neither
/// waits behind writes nor holds them up (issue 14); on PostgreSQL it is the same pool.
/// A reader sees every transaction committed before its statement began.
#[macro_export]
macro_rules! with_read_pool {
    ($database:expr, $pool:ident => $body:expr) => {
        match $database {
            $crate::store::Database::Sqlite { reads: $pool, .. } => $body,
            $crate::store::Database::Postgres($pool) => $body,
        }
    };
}

/// The embedded store: a file under `data/`, so a newcomer needs no database server.
/// The crate reads no environment: its users pass the URL (the api's
/// `DATABASE_URL`, read in `api/src/config/env.rs`).
pub const DEFAULT_DATABASE_URL: &str = "sqlite://data/loan.db";

/// How long a SQLite connection waits for another connection's write lock
/// before giving up with "database is locked".
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a pooled PostgreSQL connection may sit idle before it is checked (a round
/// trip) when next taken from the pool: a server restart, a proxy or a firewall may have
/// dropped it meanwhile. sqlx's default checks every connection on every take, which
/// cost each statement a second round trip (issue 14); a connection in steady use is
/// not checked, and one that broke anyway fails its statement once and is discarded.
const CHECK_IDLE_AFTER: Duration = Duration::from_secs(2);

/// WAL reader connections of a SQLite database, beside its one writer: one per core of
/// this kind of machine and a few more, since a read waits on the disk now and then.
const SQLITE_READERS: u32 = 4;

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("../migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("../migrations/postgres");

/// A migrated connection pool to the event store, on one of the two supported back ends.
///
/// Cloning is cheap: both pools are reference-counted handles.
#[derive(Debug, Clone)]
pub enum Database {
    /// The embedded default (`sqlite:` URLs), written through sqlite-es.
    Sqlite {
        /// The one connection that writes (and whatever reads belong to a write).
        pool: SqlitePool,
        /// Read-only WAL connections for statements that only read
        /// ([`crate::with_read_pool!`]); the writer's own pool for an in-memory database,
        /// which other connections cannot see.
        reads: SqlitePool,
        /// The task that writes event appends through `pool`, several in one commit
        /// when they queue ([`super::group_commit`]).
        appends: super::group_commit::GroupCommit,
        /// Whether the database lives only in memory (`sqlite::memory:`): nothing to
        /// fsync, and its one connection must never be closed
        /// ([`super::SqliteTx::begin_derived`] is not used there).
        in_memory: bool,
    },
    /// The scale-out store (`postgres://` and `postgresql://` URLs), written through postgres-es.
    Postgres(PgPool),
}

impl Database {
    /// Connects to the database named by `url` and applies the pending migrations.
    ///
    /// - an empty URL or one starting with `sqlite:` opens SQLite (see [`Database::connect_sqlite`]);
    /// - `postgres://` and `postgresql://` open PostgreSQL.
    ///
    /// # Errors
    /// [`StoreError::UnsupportedScheme`] for any other scheme, [`StoreError::InvalidUrl`] when
    /// the URL cannot be parsed, and the errors of the matching `connect_*` function.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        let url = if url.trim().is_empty() {
            DEFAULT_DATABASE_URL
        } else {
            url
        };
        if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url).map_err(StoreError::InvalidUrl)?;
            Self::connect_sqlite(options).await
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let options = PgConnectOptions::from_str(url).map_err(StoreError::InvalidUrl)?;
            Self::connect_postgres(options).await
        } else {
            let scheme = url.split_once(':').map_or("", |(scheme, _)| scheme);
            Err(StoreError::UnsupportedScheme {
                scheme: scheme.to_owned(),
            })
        }
    }

    /// Opens (creating it and its directory if missing) a SQLite database and migrates it.
    ///
    /// Whatever `options` say, every connection runs with:
    /// - `journal_mode=WAL`: readers (projection workers, queries) never block the writer;
    /// - `synchronous=FULL`: sqlite-es's own pool uses `NORMAL`, with which a transaction
    ///   that has committed can still be lost on power failure (WAL frames not yet
    ///   synced); an acknowledged command must never disappear, so every commit syncs,
    ///   except a derived transaction's (read models, checkpoints: [`super::SqliteTx`]);
    /// - `busy_timeout` of 30 s: concurrent commands queue for the single write lock
    ///   (5 s was exceeded by 50 simultaneous withdrawals, each hashing a PIN)
    ///   instead of failing at once;
    /// - foreign keys enforced;
    /// - `secure_delete=on`: what is deleted or overwritten is zeroed in the file;
    /// - one connection: SQLite has a single writer, and writers that meet on the
    ///   lock wait in SQLite's busy handler, which sleeps 1 to 100 ms a turn with no
    ///   order among them (8 clients of the simplest command: p99 482 ms). Through one
    ///   connection they queue in the pool instead, first come first served and
    ///   without sleeping (p99 18 ms), and a statement never waits for a lock
    ///   (bench/PROFILE.md, issue 14);
    /// - beside it, [`SQLITE_READERS`] read-only connections for the statements that
    ///   only read (sessions, aggregate loads, the log, the borrower's queries): in WAL
    ///   mode they never wait for the writer nor it for them, so reads stop queueing
    ///   behind other clients' commits and fsyncs.
    ///
    /// # Errors
    /// [`StoreError::CreateDirectory`], [`StoreError::Database`] when the file cannot be
    /// opened, [`StoreError::Migration`].
    pub async fn connect_sqlite(options: SqliteConnectOptions) -> Result<Self, StoreError> {
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(SQLITE_BUSY_TIMEOUT)
            .foreign_keys(true)
            // Deleted content is overwritten, not left in free pages: an erased data
            // key (crypto-shredding, ADR 0012) must not stay readable in the file.
            .pragma("secure_delete", "on");
        // In-memory databases have a synthetic file name without a directory.
        if let Some(directory) = options.get_filename().parent() {
            create_directory(directory).await?;
        }
        // sqlx names an in-memory database `file:sqlx-in-memory-<n>` (`sqlite::memory:`).
        let filename = options.get_filename().to_string_lossy().into_owned();
        let in_memory = filename == ":memory:" || filename.starts_with("file:sqlx-in-memory");
        // An in-process SQLite connection cannot drop: sqlx's check of it on every take
        // (`test_before_acquire`) only cost each statement two more thread hand-offs.
        let pool = SqlitePoolOptions::new()
            .test_before_acquire(false)
            .max_connections(1)
            .connect_with(options.clone())
            .await?;
        // The writer creates the file and switches it to WAL before any reader opens it.
        sqlx::query("select 1").execute(&pool).await?;
        let reads = if in_memory {
            pool.clone()
        } else {
            SqlitePoolOptions::new()
                .test_before_acquire(false)
                .max_connections(SQLITE_READERS)
                .connect_with(options.read_only(true))
                .await?
        };
        let appends = super::group_commit::GroupCommit::start(pool.clone());
        let database = Self::Sqlite {
            pool,
            reads,
            appends,
            in_memory,
        };
        database.migrate().await?;
        Ok(database)
    }

    /// Connects to PostgreSQL and migrates the schema first on the connection's
    /// `search_path` (tests point it at a schema of their own).
    ///
    /// # Errors
    /// [`StoreError::Database`] when the server refuses the connection, [`StoreError::Migration`].
    pub async fn connect_postgres(options: PgConnectOptions) -> Result<Self, StoreError> {
        let database = Self::Postgres(Self::postgres_pool(options).await?);
        database.migrate().await?;
        Ok(database)
    }

    /// A pool of PostgreSQL connections, checked only after [`CHECK_IDLE_AFTER`] idle.
    pub(super) async fn postgres_pool(options: PgConnectOptions) -> Result<PgPool, StoreError> {
        Ok(postgres_pool_options().connect_with(options).await?)
    }

    /// The same store over connections of its own, at most `max`, opened when first
    /// needed (PostgreSQL): a background consumer given it never queues for a
    /// connection behind the request handlers, which under load wait for the shared
    /// pool's (bench/PROFILE.md, projection lag). SQLite shares its one writer, since a
    /// second writer would only wait for the same lock.
    pub fn with_own_connections(&self, max: u32) -> Database {
        match self {
            Self::Sqlite { .. } => self.clone(),
            Self::Postgres(pool) => Self::Postgres(
                postgres_pool_options()
                    .max_connections(max)
                    .connect_lazy_with(pool.connect_options().as_ref().clone()),
            ),
        }
    }

    /// Applies the embedded migrations of this back end (`migrations/sqlite` or
    /// `migrations/postgres`) that have not run yet, then seals the personal fields of
    /// events stored before crypto-shredding ([`super::sealing::seal_stored_events`],
    /// once). Running it again is harmless.
    ///
    /// # Errors
    /// [`StoreError::Migration`] when a migration fails or an applied one was edited;
    /// the errors of the sealing rewrite.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        match self {
            Self::Sqlite { pool, .. } => SQLITE_MIGRATIONS.run(pool).await?,
            Self::Postgres(pool) => POSTGRES_MIGRATIONS.run(pool).await?,
        }
        // Events stored before crypto-shredding get their personal fields sealed, once.
        super::sealing::seal_stored_events(self).await?;
        tracing::debug!(backend = self.backend_name(), "event store migrated");
        Ok(())
    }

    /// `"sqlite"` or `"postgres"`, for logs and metrics.
    pub fn backend_name(&self) -> &'static str {
        match self {
            Self::Sqlite { .. } => "sqlite",
            Self::Postgres(_) => "postgres",
        }
    }

    /// True when the store answers a trivial query (readiness probe).
    pub async fn ping(&self) -> bool {
        let result = match self {
            Self::Sqlite { pool, .. } => sqlx::query("select 1").execute(pool).await.map(drop),
            Self::Postgres(pool) => sqlx::query("select 1").execute(pool).await.map(drop),
        };
        result.is_ok()
    }

    /// Closes every connection of the pool, waiting for the ones in use to be returned.
    pub async fn close(&self) {
        match self {
            Self::Sqlite { pool, reads, .. } => {
                reads.close().await;
                pool.close().await;
            }
            Self::Postgres(pool) => pool.close().await,
        }
    }
}

/// How every PostgreSQL pool of the store connects: a connection idle for less than
/// [`CHECK_IDLE_AFTER`] goes out without a ping.
fn postgres_pool_options() -> PgPoolOptions {
    PgPoolOptions::new()
        .test_before_acquire(false)
        .before_acquire(|connection, meta| {
            Box::pin(async move {
                if meta.idle_for >= CHECK_IDLE_AFTER {
                    sqlx::Connection::ping(connection).await?;
                }
                Ok(true)
            })
        })
}

async fn create_directory(directory: &Path) -> Result<(), StoreError> {
    if directory.as_os_str().is_empty() {
        return Ok(());
    }
    tokio::fs::create_dir_all(directory)
        .await
        .map_err(|source| StoreError::CreateDirectory {
            path: directory.to_owned(),
            source,
        })
}
