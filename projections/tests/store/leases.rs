//! One process at a time runs each log consumer (issue 14 item 6, `projections::consumer::lease`):
//! two "processes" (each its own lease connection and log reader) over one PostgreSQL
//! store; one leads and applies every batch, the other stands by, and takes over when
//! the leader dies.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use projections::consumer::lease::{Leases, LEASE_CLASS};
use projections::consumer::runner::{
    wait_for_checkpoints, Checkpoints, Runner, RunnerStats, READ_MODELS,
};
use projections::projection::all;
use projections::store::{Database, EventLog};
use projections::verify::verify;
use projections::workload::seed;
use tokio::sync::{watch, Notify};

use crate::helpers::TestDb;

/// One api process's log reader, as `api::workers::spawn` starts it.
struct Process {
    leases: Leases,
    stats: Arc<RunnerStats>,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

fn start(database: &Database, board: &Checkpoints, wakeup: &Arc<Notify>) -> Process {
    let leases = Leases::for_database(database);
    let reader = Runner::group(database, all()).with_checkpoints(board.clone());
    let stats = reader.stats();
    let (stop, stopped) = watch::channel(false);
    let task = tokio::spawn(reader.run(
        leases.clone(),
        wakeup.clone(),
        Duration::from_millis(20),
        stopped,
    ));
    Process {
        leases,
        stats,
        stop,
        task,
    }
}

fn applied(process: &Process) -> u64 {
    process.stats.events_applied.load(Ordering::SeqCst)
}

/// What `process` has applied, waiting (up to 5 s) for its counter to move if it
/// stands at zero: the counter moves just after the checkpoints are published.
async fn applied_after_settling(process: &Process) -> u64 {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while applied(process) == 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    applied(process)
}

/// Two processes over `database` sharing one checkpoint board; the first has taken
/// its lease before the second asks, as a process started earlier would.
async fn two_processes(database: &Database) -> (Checkpoints, Process, Process) {
    let board = Checkpoints::default();
    let wakeup = projections::consumer::runner::wakeup_for(database).await;
    let first = start(database, &board, &wakeup);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let second = start(database, &board, &wakeup);
    (board, first, second)
}

/// Ends every session holding a lease on this test's database (as a killed
/// process's connection drops, or an operator's `pg_terminate_backend`); returns how
/// many it ended. Another database of the server (a benchmark's api) may hold leases
/// of its own: they are left alone.
async fn end_lease_sessions(db: &TestDb) -> i64 {
    sqlx::query_scalar(
        "select count(pg_terminate_backend(pid)) from pg_locks \
         where locktype = 'advisory' and classid::int8 = $1 and granted \
           and pid <> pg_backend_pid() \
           and database = (select oid from pg_database where datname = current_database())",
    )
    .bind(i64::from(LEASE_CLASS))
    .fetch_one(db.postgres_pool())
    .await
    .unwrap()
}

/// Appends `orders` generated borrowers' histories and waits until every read model
/// holds them.
async fn append_and_settle(database: &Database, board: &Checkpoints, orders: usize) {
    seed(database, orders).await.expect("seed");
    let head = EventLog::new(database).head().await.unwrap();
    let names: Vec<&str> = all().iter().map(|p| p.name()).collect();
    let settled = wait_for_checkpoints(database, board, &names, head, Duration::from_secs(20))
        .await
        .unwrap();
    assert!(settled, "the read models reached the head of the log");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_process_leads_the_reader_and_another_takes_over_when_it_dies() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let database = &db.database;
    let (board, mut first, second) = two_processes(database).await;
    for _ in 0..4 {
        append_and_settle(database, &board, 6).await;
    }
    assert!(applied_after_settling(&first).await > 0);
    assert_eq!(
        applied(&second),
        0,
        "the process standing by applied nothing: every batch was read and written once"
    );
    assert!(first.leases.leads(READ_MODELS), "the first process leads");
    assert!(!second.leases.leads(READ_MODELS), "the second stands by");

    // The leader dies: its tasks stop where they are and the server ends its session
    // (as when a process is killed and its connections drop).
    first.task.abort();
    let _ = (&mut first.task).await;
    let ended = end_lease_sessions(&db).await;
    assert_eq!(ended, 1, "one session held the lease");
    let before = applied(&first);
    append_and_settle(database, &board, 6).await;
    assert!(second.leases.leads(READ_MODELS), "the second took over");
    assert!(
        applied_after_settling(&second).await > 0,
        "and applied what came after"
    );
    assert_eq!(applied(&first), before);
    let report = verify(database).await.unwrap();
    assert!(report.is_clean(), "{:?}", report.drifts);

    second.stop.send(true).unwrap();
    second.task.await.unwrap();
    let _ = first.stop.send(true);
    db.teardown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_leader_that_loses_its_session_notices_and_one_process_leads_after() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let database = &db.database;
    let (board, first, second) = two_processes(database).await;
    append_and_settle(database, &board, 3).await;
    assert!(first.leases.leads(READ_MODELS));

    // The first process lives on, but the server ends its lease session (a network
    // cut, an operator's pg_terminate_backend): the lock is gone at once.
    let ended = end_lease_sessions(&db).await;
    assert_eq!(ended, 1);
    // Within a lease check and a stand-by retry, the first has noticed (a failed
    // check, counted) and one of the two holds the lease again.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while first.stats.failures.load(Ordering::SeqCst) == 0 && tokio::time::Instant::now() < deadline
    {
        append_and_settle(database, &board, 1).await;
    }
    assert!(
        first.stats.failures.load(Ordering::SeqCst) > 0,
        "the leader noticed that its lease session ended"
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    append_and_settle(database, &board, 3).await;
    assert!(
        first.leases.leads(READ_MODELS) != second.leases.leads(READ_MODELS),
        "exactly one process leads again"
    );
    let held: i64 = sqlx::query_scalar(
        "select count(*) from pg_locks \
         where locktype = 'advisory' and classid::int8 = $1 and granted",
    )
    .bind(i64::from(LEASE_CLASS))
    .fetch_one(db.postgres_pool())
    .await
    .unwrap();
    assert_eq!(held, 1, "one lease session holds the reader's lease");
    let report = verify(database).await.unwrap();
    assert!(report.is_clean(), "{:?}", report.drifts);

    for process in [first, second] {
        process.stop.send(true).unwrap();
        process.task.await.unwrap();
    }
    db.teardown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_graceful_stop_hands_the_reader_over_at_once() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let database = &db.database;
    let (board, first, second) = two_processes(database).await;
    append_and_settle(database, &board, 3).await;
    assert!(first.leases.leads(READ_MODELS) && !second.leases.leads(READ_MODELS));

    first.stop.send(true).unwrap();
    first.task.await.unwrap();
    first.leases.release_all().await;
    assert!(first.leases.leading().is_empty());
    append_and_settle(database, &board, 3).await;
    assert!(second.leases.leads(READ_MODELS));
    assert!(applied_after_settling(&second).await > 0);

    second.stop.send(true).unwrap();
    second.task.await.unwrap();
    db.teardown().await;
}

#[tokio::test]
async fn on_sqlite_every_lease_is_held() {
    let db = TestDb::sqlite().await;
    let leases = Leases::for_database(&db.database);
    assert!(leases.hold(READ_MODELS).await.unwrap());
    assert!(Leases::for_database(&db.database)
        .hold(READ_MODELS)
        .await
        .unwrap());
    assert_eq!(leases.leading(), vec![READ_MODELS]);
    db.teardown().await;
}
