//! Opening the store: URLs, SQLite durability settings, repeated migrations.

use projections::store::{CommandBus, Database, StoreError};

use crate::counter::{Counter, CounterCommand, CounterServices};
use crate::helpers::{actor, TestDb};

#[tokio::test]
async fn sqlite_store_is_durable_and_reopens_with_its_events() {
    let db = TestDb::sqlite().await;
    let Database::Sqlite { pool, .. } = &db.database else {
        unreachable!("TestDb::sqlite opens SQLite")
    };
    let synchronous: i64 = sqlx::query_scalar("pragma synchronous")
        .fetch_one(pool)
        .await
        .expect("pragma");
    assert_eq!(synchronous, 2, "synchronous=FULL");
    let journal_mode: String = sqlx::query_scalar("pragma journal_mode")
        .fetch_one(pool)
        .await
        .expect("pragma");
    assert_eq!(journal_mode, "wal");
    let busy_timeout_ms: i64 = sqlx::query_scalar("pragma busy_timeout")
        .fetch_one(pool)
        .await
        .expect("pragma");
    assert_eq!(busy_timeout_ms, 30_000);
    let foreign_keys: i64 = sqlx::query_scalar("pragma foreign_keys")
        .fetch_one(pool)
        .await
        .expect("pragma");
    assert_eq!(foreign_keys, 1);

    CommandBus::<Counter>::new(&db.database, CounterServices::plain())
        .execute("counter-1", CounterCommand::Increment { by: 3 }, actor("a"))
        .await
        .expect("command");

    // A second connection to the same file migrates again (a no-op) and sees the event.
    let file: String =
        sqlx::query_scalar("select file from pragma_database_list where name = 'main'")
            .fetch_one(pool)
            .await
            .expect("database file");
    let reopened = Database::connect(&format!("sqlite://{file}"))
        .await
        .expect("reopen");
    let counter = CommandBus::<Counter>::new(&reopened, CounterServices::plain())
        .load("counter-1")
        .await
        .expect("load");
    assert_eq!(counter.value, 3);
    reopened.close().await;
    db.teardown().await;
}

/// SQLite's statements that only read run on reader connections beside the one writer
/// (issue 14): they cannot write, they see each commit as soon as it returns, and they
/// answer while the writer is held inside a transaction.
#[tokio::test]
async fn sqlite_readers_see_every_commit_never_write_and_do_not_wait_for_the_writer() {
    let db = TestDb::sqlite().await;
    let Database::Sqlite { pool, reads, .. } = &db.database else {
        unreachable!("TestDb::sqlite opens SQLite")
    };
    let bus = CommandBus::<Counter>::new(&db.database, CounterServices::plain());
    let count = "select count(*) from events where aggregate_id = 'counter-r'";
    for expected in 1..=3_i64 {
        bus.execute("counter-r", CounterCommand::Increment { by: 1 }, actor("a"))
            .await
            .expect("command");
        let seen: i64 = sqlx::query_scalar(count).fetch_one(reads).await.unwrap();
        assert_eq!(
            seen, expected,
            "a reader sees the commit that just returned"
        );
    }
    let write = sqlx::query("delete from events").execute(reads).await;
    assert!(write.is_err(), "reader connections are read-only");
    // The writer's only connection is inside a write transaction: reads still answer.
    let mut held = pool.begin().await.unwrap();
    sqlx::query("insert into projection_checkpoint (name, transaction_id, global_position, updated_at) values ('held', 0, 0, 'x')")
        .execute(&mut *held)
        .await
        .unwrap();
    let counter = tokio::time::timeout(std::time::Duration::from_secs(5), bus.load("counter-r"))
        .await
        .expect("a load does not wait for the writer")
        .unwrap();
    assert_eq!(
        counter.value, 3,
        "and it sees the committed state, not the open write"
    );
    held.rollback().await.unwrap();
    db.teardown().await;
}

#[tokio::test]
async fn bad_urls_are_errors_that_do_not_reveal_the_password() {
    let unsupported = Database::connect("mysql://app:s3cret@db.example/loans").await;
    match &unsupported {
        Err(StoreError::UnsupportedScheme { scheme }) => assert_eq!(scheme, "mysql"),
        other => panic!("expected UnsupportedScheme, got {other:?}"),
    }
    let message = unsupported.expect_err("unsupported").to_string();
    assert!(!message.contains("s3cret"), "{message}");

    let no_scheme = Database::connect("data/loan.db").await;
    assert!(
        matches!(no_scheme, Err(StoreError::UnsupportedScheme { .. })),
        "{no_scheme:?}"
    );
    let bad_sqlite = Database::connect("sqlite://data/loan.db?mode=sideways").await;
    assert!(
        matches!(bad_sqlite, Err(StoreError::InvalidUrl(_))),
        "{bad_sqlite:?}"
    );
    let bad_postgres = Database::connect("postgres://app:s3cret@[::1/loans").await;
    assert!(
        matches!(bad_postgres, Err(StoreError::InvalidUrl(_))),
        "{bad_postgres:?}"
    );
}

/// The test's own PostgreSQL schema and `TEST_DATABASE_URL`, for a store of its own.
async fn schema_and_url(db: &TestDb) -> (String, String) {
    let schema: String = sqlx::query_scalar("select current_schema()")
        .fetch_one(db.postgres_pool())
        .await
        .unwrap();
    (schema, std::env::var("TEST_DATABASE_URL").unwrap())
}

/// A pooled PostgreSQL connection is checked only once it has been idle a while
/// (issue 14: sqlx's check on every take cost each statement a round trip): one the
/// server dropped while it sat idle is still replaced, not handed out broken.
#[tokio::test]
async fn a_postgres_connection_dropped_while_idle_is_replaced() {
    use sqlx::Connection;
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    // A store of its own on the test's schema, named so that only its sessions end.
    let (schema, url) = schema_and_url(&db).await;
    let options = <sqlx::postgres::PgConnectOptions as std::str::FromStr>::from_str(&url)
        .unwrap()
        .options([("search_path", schema.as_str())])
        .application_name("idle-check-test");
    let store = Database::connect_postgres(options).await.unwrap();
    let Database::Postgres(pool) = &store else {
        unreachable!()
    };
    sqlx::query("select 1").execute(pool).await.unwrap();
    // A connection goes back to the pool in a task of its own, a moment later.
    for _ in 0..100 {
        if pool.num_idle() > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(pool.num_idle() > 0, "the pool keeps its connection idle");
    let mut outside = sqlx::PgConnection::connect(&url).await.unwrap();
    let ended: i64 = sqlx::query_scalar(
        "select count(*) from (select pg_terminate_backend(pid) from pg_stat_activity \
         where application_name = 'idle-check-test') ended",
    )
    .fetch_one(&mut outside)
    .await
    .unwrap();
    assert!(ended > 0);
    outside.close().await.unwrap();
    // Idle longer than the pool's threshold: the next take checks the connection.
    tokio::time::sleep(std::time::Duration::from_millis(2_500)).await;
    let answer: i32 = sqlx::query_scalar("select 1")
        .fetch_one(pool)
        .await
        .expect("a dropped idle connection is replaced");
    assert_eq!(answer, 1);
    store.close().await;
    db.teardown().await;
}

/// Connection settings come from the URL as given (`sslmode`, `application_name`,
/// server options, ...; issue 14 item 4), for the store and for a read replica.
#[tokio::test]
async fn postgres_connection_settings_come_from_the_url() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let (schema, base) = schema_and_url(&db).await;
    let separator = if base.contains('?') { '&' } else { '?' };
    let url = format!(
        "{base}{separator}sslmode=prefer&application_name=url-settings-test\
         &options=-c%20search_path%3D{schema}"
    );
    let store = Database::connect(&url).await.unwrap();
    let replica = projections::store::replica::connect_replica(&url)
        .await
        .unwrap();
    for database in [&store, &replica] {
        let Database::Postgres(pool) = database else {
            unreachable!()
        };
        let (name, current): (String, String) =
            sqlx::query_as("select current_setting('application_name'), current_schema()")
                .fetch_one(pool)
                .await
                .unwrap();
        assert_eq!(
            (name.as_str(), current.as_str()),
            ("url-settings-test", schema.as_str())
        );
    }
    let sqlite = projections::store::replica::connect_replica("sqlite://data/x.db").await;
    assert!(
        matches!(sqlite, Err(StoreError::UnsupportedScheme { .. })),
        "{sqlite:?}"
    );
    replica.close().await;
    store.close().await;
    db.teardown().await;
}

/// sqlx is patched to return a PostgreSQL connection to the pool without a ping when
/// nothing is in flight on it (vendor/README.md). One with something in flight is
/// still settled first: a query dropped halfway through its rows is drained, and a
/// transaction dropped without commit is rolled back at once, its locks released,
/// not when the connection is next used.
#[tokio::test]
async fn a_postgres_connection_goes_back_to_the_pool_settled() {
    use futures_util::StreamExt;
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let (_, url) = schema_and_url(&db).await;
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .test_before_acquire(false)
        .connect(&url)
        .await
        .unwrap();
    let watcher = sqlx::PgPool::connect(&url).await.unwrap();

    // A query dropped after its first row of many: the next one gets its own answer.
    {
        let mut rows =
            sqlx::query_scalar::<_, i32>("select generate_series(1, 200000)").fetch(&pool);
        assert_eq!(rows.next().await.unwrap().unwrap(), 1);
    }
    let answer: i32 = sqlx::query_scalar("select 42")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(answer, 42);

    // A transaction holding a lock, dropped without commit, while the pool sits idle.
    let key = 7_015_001_i64;
    {
        let mut tx = pool.begin().await.unwrap();
        sqlx::query("select pg_advisory_xact_lock($1)")
            .bind(key)
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    let mut released = false;
    for _ in 0..200 {
        let mut tx = watcher.begin().await.unwrap();
        let taken: bool = sqlx::query_scalar("select pg_try_advisory_xact_lock($1)")
            .bind(key)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        tx.rollback().await.unwrap();
        if taken {
            released = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(
        released,
        "the dropped transaction's lock is released while its connection idles"
    );
    let answer: i32 = sqlx::query_scalar("select 43")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(answer, 43);
    pool.close().await;
    watcher.close().await;
    db.teardown().await;
}

/// sqlx is patched to return a SQLite connection to the pool without a ping
/// (vendor/README.md, patch 3): its commands run in order on the connection's
/// thread, so what a ping would settle is settled without it. A query dropped after
/// its first row of many leaves the next query its own answer, and a write
/// transaction dropped without commit is rolled back at once, the file's write lock
/// free for another connection while the pool sits idle, and nothing of it kept.
#[tokio::test]
async fn a_sqlite_connection_goes_back_to_the_pool_settled() {
    use futures_util::StreamExt;
    use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
    use sqlx::Connection;
    let db = TestDb::sqlite().await;
    let Database::Sqlite { pool: store, .. } = &db.database else {
        unreachable!("TestDb::sqlite opens SQLite")
    };
    let file: String =
        sqlx::query_scalar("select file from pragma_database_list where name = 'main'")
            .fetch_one(store)
            .await
            .unwrap();
    let options = SqliteConnectOptions::new().filename(&file);
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .test_before_acquire(false)
        .connect_with(options.clone())
        .await
        .unwrap();
    sqlx::query("create table settled (n integer)")
        .execute(&pool)
        .await
        .unwrap();

    // A query dropped after its first row of many: the next one gets its own answer.
    {
        let mut rows = sqlx::query_scalar::<_, i64>(
            "with recursive n(i) as (select 1 union all select i + 1 from n where i < 200000) \
             select i from n",
        )
        .fetch(&pool);
        assert_eq!(rows.next().await.unwrap().unwrap(), 1);
    }
    let answer: i64 = sqlx::query_scalar("select 42")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(answer, 42);

    // A write transaction holding the file's write lock, dropped without commit.
    {
        let mut tx = pool.begin_with("BEGIN IMMEDIATE").await.unwrap();
        sqlx::query("insert into settled (n) values (1)")
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    // Another connection that does not wait for the lock (busy_timeout 0) takes it
    // while the pool's connection idles.
    let mut other =
        sqlx::SqliteConnection::connect_with(&options.busy_timeout(std::time::Duration::ZERO))
            .await
            .unwrap();
    let mut taken = false;
    for _ in 0..200 {
        if sqlx::query("BEGIN IMMEDIATE")
            .execute(&mut other)
            .await
            .is_ok()
        {
            taken = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(
        taken,
        "the dropped transaction's write lock is free while its connection idles"
    );
    let kept: i64 = sqlx::query_scalar("select count(*) from settled")
        .fetch_one(&mut other)
        .await
        .unwrap();
    assert_eq!(kept, 0, "nothing of the dropped transaction is kept");
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    other.close().await.unwrap();
    // The pool's connection is out of the dropped transaction: a new one begins.
    let mut tx = pool.begin().await.expect("a new transaction begins");
    sqlx::query("insert into settled (n) values (2)")
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let total: i64 = sqlx::query_scalar("select sum(n) from settled")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(total, 2);
    pool.close().await;
    db.teardown().await;
}

/// Given every connection of the store's pool held (requests under load), when a
/// store made `with_own_connections` runs a statement, then it answers without
/// waiting for one of them, on the same schema; on SQLite it is the same store, its
/// one writer shared.
#[tokio::test]
async fn a_store_with_its_own_connections_does_not_queue_behind_a_busy_pool() {
    use std::time::Duration;
    let sqlite = TestDb::sqlite().await;
    let shared = sqlite.database.with_own_connections(2);
    match (&sqlite.database, &shared) {
        (Database::Sqlite { pool, .. }, Database::Sqlite { pool: same, .. }) => {
            assert_eq!(pool.size(), same.size());
            let held = pool.acquire().await.unwrap();
            assert_eq!(same.num_idle(), pool.num_idle(), "one pool, seen twice");
            drop(held);
        }
        _ => panic!("SQLite stays SQLite"),
    }
    sqlite.teardown().await;

    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let pool = db.postgres_pool();
    let mut held = Vec::new();
    for _ in 0..pool.options().get_max_connections() {
        held.push(pool.acquire().await.unwrap());
    }
    let busy = tokio::time::timeout(Duration::from_millis(200), pool.acquire()).await;
    assert!(busy.is_err(), "the shared pool has no connection left");
    let own = db.database.with_own_connections(2);
    let Database::Postgres(own_pool) = &own else {
        panic!("PostgreSQL stays PostgreSQL");
    };
    let schema: String = tokio::time::timeout(
        Duration::from_secs(5),
        sqlx::query_scalar("select current_schema()").fetch_one(own_pool),
    )
    .await
    .expect("answered without waiting for the shared pool")
    .unwrap();
    let expected: String = sqlx::query_scalar("select current_schema()")
        .fetch_one(&mut *held[0])
        .await
        .unwrap();
    assert_eq!(schema, expected);
    assert!(own_pool.options().get_max_connections() == 2);
    drop(held);
    own.close().await;
    db.teardown().await;
}

/// `synchronous` as the writer's connection has it now.
async fn synchronous_of(executor: impl sqlx::SqliteExecutor<'_>) -> i64 {
    sqlx::query_scalar("pragma synchronous")
        .fetch_one(executor)
        .await
        .expect("pragma")
}

/// A derived transaction on a SQLite file (read models, checkpoints) commits without
/// its own fsync, like `synchronous_commit = off` on PostgreSQL (issue 14, the SQLite
/// floor); the writer is back at `synchronous=FULL` after it, whether it committed or
/// was dropped halfway, so an event append never commits without its fsync.
#[tokio::test]
async fn a_derived_sqlite_commit_skips_its_fsync_and_leaves_the_writer_durable() {
    use projections::consumer::runner::begin_derived;
    use projections::rows::SqlTx;

    let db = TestDb::sqlite().await;
    let Database::Sqlite { pool, .. } = &db.database else {
        unreachable!("TestDb::sqlite opens SQLite")
    };
    let insert = |name: &str| {
        format!("insert into projection_checkpoint (name, transaction_id, global_position, updated_at) values ('{name}', 0, 0, 'x')")
    };
    let exists = |name: &'static str| async move {
        let found: i64 =
            sqlx::query_scalar("select count(*) from projection_checkpoint where name = $1")
                .bind(name)
                .fetch_one(pool)
                .await
                .unwrap();
        found == 1
    };

    let mut tx = begin_derived(&db.database, &["kept"]).await.unwrap();
    tx.execute(&insert("kept"), &[]).await.unwrap();
    let SqlTx::Sqlite(inner) = &mut tx else {
        unreachable!("SQLite")
    };
    assert_eq!(synchronous_of(&mut **inner).await, 1, "NORMAL inside");
    tx.commit().await.unwrap();
    assert!(exists("kept").await, "the derived commit is there");
    assert_eq!(synchronous_of(pool).await, 2, "FULL again after the commit");

    // Dropped halfway (an error, a cancelled worker): nothing of it stays, and the
    // writer the pool hands out next is FULL.
    let mut tx = begin_derived(&db.database, &["dropped"]).await.unwrap();
    tx.execute(&insert("dropped"), &[]).await.unwrap();
    drop(tx);
    assert_eq!(synchronous_of(pool).await, 2, "FULL after a dropped one");
    assert!(!exists("dropped").await, "the dropped one wrote nothing");

    // Events still commit durably, and the store works on.
    CommandBus::<Counter>::new(&db.database, CounterServices::plain())
        .execute("counter-d", CounterCommand::Increment { by: 2 }, actor("a"))
        .await
        .expect("command after a dropped derived transaction");
    assert_eq!(synchronous_of(pool).await, 2);
    db.teardown().await;
}

/// An in-memory SQLite database lives in its one connection: a derived transaction
/// dropped halfway there rolls back and keeps the connection (and the database).
#[tokio::test]
async fn a_dropped_derived_transaction_keeps_an_in_memory_database() {
    let database = Database::connect("sqlite::memory:").await.expect("open");
    let mut tx = projections::consumer::runner::begin_derived(&database, &[])
        .await
        .unwrap();
    tx.execute(
        "insert into projection_checkpoint (name, transaction_id, global_position, updated_at) values ('gone', 0, 0, 'x')",
        &[],
    )
    .await
    .unwrap();
    drop(tx);
    let Database::Sqlite { pool, .. } = &database else {
        unreachable!("SQLite")
    };
    let rows: i64 =
        sqlx::query_scalar("select count(*) from projection_checkpoint where name = 'gone'")
            .fetch_one(pool)
            .await
            .expect("the in-memory database is still there");
    assert_eq!(rows, 0);
}
