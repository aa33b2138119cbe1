//! Fresh stores for each test, and the macro that runs a scenario on both back ends.

use std::collections::HashMap;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use projections::store::{Database, EventLog, LogPosition, StoredEvent};
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use tokio::sync::{Mutex, MutexGuard};
use uuid::Uuid;

/// PostgreSQL tests of this binary run one at a time: the log reader holds back every
/// transaction newer than the oldest one in flight anywhere in the cluster, so a
/// concurrent test's open transaction would stall another test's reads.
static POSTGRES_ONE_AT_A_TIME: Mutex<()> = Mutex::const_new(());

/// How long a test waits for events to become readable before failing.
const SETTLE_TIMEOUT: Duration = Duration::from_secs(10);

/// Runs each named `async fn(&TestDb)` scenario as two tests, `<scenario>::sqlite`
/// and `<scenario>::postgres`.
macro_rules! on_both_stores {
    ($($scenario:ident),* $(,)?) => {$(
        mod $scenario {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let db = crate::helpers::TestDb::sqlite().await;
                super::$scenario(&db).await;
                db.teardown().await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                let Some(db) = crate::helpers::TestDb::postgres().await else {
                    return;
                };
                super::$scenario(&db).await;
                db.teardown().await;
            }
        }
    )*};
}

/// A migrated store of its own, removed by [`TestDb::teardown`]. A failing test never
/// reaches its teardown, so its file or schema stays behind for inspection.
pub struct TestDb {
    pub database: Database,
    place: Place,
    _one_at_a_time: Option<MutexGuard<'static, ()>>,
}

enum Place {
    SqliteDirectory(PathBuf),
    PostgresSchema { admin: PgPool, schema: String },
}

impl TestDb {
    /// A new SQLite file in a directory that does not exist yet (connecting creates it).
    pub async fn sqlite() -> Self {
        let directory = std::env::temp_dir()
            .join("projections-store-tests")
            .join(Uuid::now_v7().simple().to_string());
        let url = format!("sqlite://{}", directory.join("events.db").display());
        let database = Database::connect(&url)
            .await
            .expect("open a fresh SQLite store");
        Self {
            database,
            place: Place::SqliteDirectory(directory),
            _one_at_a_time: None,
        }
    }

    /// A new schema in the `TEST_DATABASE_URL` database, or `None` (after saying so on
    /// stderr) when the variable is not set.
    pub async fn postgres() -> Option<Self> {
        let url = match std::env::var("TEST_DATABASE_URL") {
            Ok(url) if !url.trim().is_empty() => url,
            _ => {
                eprintln!("SKIPPED (PostgreSQL): TEST_DATABASE_URL not set");
                return None;
            }
        };
        let one_at_a_time = POSTGRES_ONE_AT_A_TIME.lock().await;
        let admin = PgPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .expect("connect to TEST_DATABASE_URL");
        let schema = format!("t_{}", Uuid::now_v7().simple());
        sqlx::query(&format!("create schema {schema}"))
            .execute(&admin)
            .await
            .expect("create the test schema");
        let options = PgConnectOptions::from_str(&url)
            .expect("parse TEST_DATABASE_URL")
            .options([("search_path", schema.as_str())]);
        let database = Database::connect_postgres(options)
            .await
            .expect("open the PostgreSQL store in the test schema");
        Some(Self {
            database,
            place: Place::PostgresSchema { admin, schema },
            _one_at_a_time: Some(one_at_a_time),
        })
    }

    /// The PostgreSQL pool, for tests that write raw SQL.
    pub fn postgres_pool(&self) -> &PgPool {
        match &self.database {
            Database::Postgres(pool) => pool,
            Database::Sqlite { .. } => panic!("not a PostgreSQL store"),
        }
    }

    /// Closes the store and removes its file or schema.
    pub async fn teardown(self) {
        self.database.close().await;
        match self.place {
            Place::SqliteDirectory(directory) => {
                std::fs::remove_dir_all(&directory).expect("remove the test database directory");
            }
            Place::PostgresSchema { admin, schema } => {
                sqlx::query(&format!("drop schema {schema} cascade"))
                    .execute(&admin)
                    .await
                    .expect("drop the test schema");
                admin.close().await;
            }
        }
    }
}

/// Command metadata naming who acted.
pub fn actor(name: &str) -> HashMap<String, String> {
    HashMap::from([("actor".to_owned(), name.to_owned())])
}

/// Reads `count` events after `after`, waiting while they are held back by a transaction
/// still in flight elsewhere (PostgreSQL); fails if they do not all appear in time.
pub async fn read_settled(log: &EventLog, after: LogPosition, count: usize) -> Vec<StoredEvent> {
    let limit = i64::try_from(count).expect("a small count");
    let deadline = tokio::time::Instant::now() + SETTLE_TIMEOUT;
    loop {
        let events = log.read_after(after, limit).await.expect("read the log");
        if events.len() == count || tokio::time::Instant::now() >= deadline {
            assert_eq!(events.len(), count, "events readable after {after}");
            return events;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
