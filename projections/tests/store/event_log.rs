//! Reading the global event log after a checkpoint.

use projections::store::{CommandBus, Database, EventLog, LogPosition};
use sqlx::PgConnection;

use crate::counter::{Counter, CounterCommand, CounterEvent, CounterServices};
use crate::helpers::{actor, read_settled, TestDb};

on_both_stores!(the_log_returns_every_aggregates_events_in_commit_order);

async fn the_log_returns_every_aggregates_events_in_commit_order(db: &TestDb) {
    let bus = CommandBus::<Counter>::new(&db.database, CounterServices::plain());
    let log = EventLog::new(&db.database);
    assert_eq!(log.head().await.expect("head"), LogPosition::START);
    assert!(log
        .read_after(LogPosition::START, 100)
        .await
        .expect("read")
        .is_empty());

    let commands = [
        ("a", vec![1]),
        ("b", vec![2, 3]),
        ("a", vec![4]),
        ("c", vec![5]),
        ("b", vec![6]),
    ];
    for (aggregate_id, steps) in commands {
        bus.execute(
            aggregate_id,
            CounterCommand::IncrementEach { steps },
            actor(aggregate_id),
        )
        .await
        .expect("command");
    }

    let all = read_settled(&log, LogPosition::START, 6).await;
    let read: Vec<_> = all
        .iter()
        .map(|e| {
            (
                e.aggregate_id.as_str(),
                e.sequence,
                e.payload.to_value().unwrap(),
            )
        })
        .collect();
    let incremented = |by| serde_json::to_value(CounterEvent::Incremented { by }).expect("json");
    assert_eq!(
        read,
        vec![
            ("a", 1, incremented(1)),
            ("b", 1, incremented(2)),
            ("b", 2, incremented(3)),
            ("a", 2, incremented(4)),
            ("c", 1, incremented(5)),
            ("b", 3, incremented(6)),
        ]
    );
    for event in &all {
        assert_eq!(event.aggregate_type, "Counter");
        assert_eq!(event.event_type, "Incremented");
        assert_eq!(event.event_version, "1.0");
        assert_eq!(
            event.metadata.get("actor").as_deref(),
            Some(event.aggregate_id.as_str())
        );
        assert!(event.metadata.get("recorded_at").is_some());
    }
    assert!(
        all.windows(2)
            .all(|pair| pair[0].position < pair[1].position),
        "positions grow along the log"
    );
    let transaction_ids: Vec<i64> = all.iter().map(|e| e.position.transaction_id).collect();
    match db.database {
        Database::Sqlite { .. } => assert_eq!(transaction_ids, vec![0; 6]),
        Database::Postgres(_) => {
            // One transaction per command: b's first two events were committed together.
            assert!(transaction_ids.iter().all(|&id| id > 0));
            assert_eq!(transaction_ids[1], transaction_ids[2]);
            let mut distinct = transaction_ids.clone();
            distinct.dedup();
            assert_eq!(distinct.len(), 5);
        }
    }
    let last = all[5].position;
    assert_eq!(log.head().await.expect("head"), last);

    // Paging: pages of at most `limit`, continuing from the last event of the previous one.
    let page_1 = log.read_after(LogPosition::START, 4).await.expect("page 1");
    assert_eq!(page_1, all[..4]);
    let page_2 = log.read_after(page_1[3].position, 4).await.expect("page 2");
    assert_eq!(page_2, all[4..]);
    assert!(log.read_after(last, 4).await.expect("page 3").is_empty());
    assert!(log
        .read_after(LogPosition::START, 0)
        .await
        .expect("empty page")
        .is_empty());
}

/// Inserts one `Counter` event as postgres-es would, returning its `global_position`.
async fn insert_event(connection: &mut PgConnection, aggregate_id: &str) -> i64 {
    sqlx::query_scalar(
        "insert into events
             (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
         values ('Counter', $1, 1, 'Incremented', '1.0', '{\"Incremented\":{\"by\":1}}', '{}')
         returning global_position",
    )
    .bind(aggregate_id)
    .fetch_one(connection)
    .await
    .expect("insert an event")
}

/// What a reader checkpointing on `global_position` alone would read next.
async fn naive_read_after(pool: &sqlx::PgPool, global_position: i64) -> Vec<(i64, String)> {
    sqlx::query_as(
        "select global_position, aggregate_id from events
         where global_position > $1
         order by global_position",
    )
    .bind(global_position)
    .fetch_all(pool)
    .await
    .expect("naive read")
}

/// Transaction `late` inserts first and commits last; transaction `early` inserts and
/// commits in between. The reader holds `early` back until `late` has committed, then
/// returns `late` before `early`, and so never skips `late` — unlike a reader that
/// checkpoints on `global_position` alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_commit_is_never_skipped_on_postgres() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let pool = db.postgres_pool().clone();
    let log = EventLog::new(&db.database);

    // Both readers have already advanced past a first event.
    let mut connection = pool.acquire().await.expect("connection");
    insert_event(&mut connection, "baseline").await;
    drop(connection);
    let checkpoint = read_settled(&log, LogPosition::START, 1).await[0].position;
    let naive = naive_read_after(&pool, 0).await;
    assert_eq!(naive.len(), 1);
    let naive_checkpoint = naive[0].0;

    let mut late = pool.begin().await.expect("begin late");
    let late_position = insert_event(&mut late, "late").await;
    let mut early = pool.begin().await.expect("begin early");
    let early_position = insert_event(&mut early, "early").await;
    early.commit().await.expect("commit early");
    assert!(late_position < early_position);

    // While `late` is in flight, `early` is committed but must not be returned yet.
    assert!(log
        .read_after(checkpoint, 100)
        .await
        .expect("read")
        .is_empty());
    // The naive reader returns `early` and moves its checkpoint past `late`'s position.
    let naive = naive_read_after(&pool, naive_checkpoint).await;
    assert_eq!(naive, vec![(early_position, "early".to_owned())]);
    let naive_checkpoint = naive[0].0;

    late.commit().await.expect("commit late");

    // The naive reader has skipped `late` for good.
    assert!(naive_read_after(&pool, naive_checkpoint).await.is_empty());
    assert!(late_position < naive_checkpoint);

    // The real reader, from the checkpoint it kept, returns `late` and then `early`.
    let first = read_settled(&log, checkpoint, 1).await;
    assert_eq!(first[0].aggregate_id, "late");
    assert_eq!(first[0].position.global_position, late_position);
    let second = read_settled(&log, first[0].position, 1).await;
    assert_eq!(second[0].aggregate_id, "early");
    assert_eq!(second[0].position.global_position, early_position);
    assert!(log
        .read_after(second[0].position, 100)
        .await
        .expect("read")
        .is_empty());
    assert_eq!(log.head().await.expect("head"), second[0].position);

    db.teardown().await;
}

/// Appending wakes `LISTEN events` sessions, so workers need not poll.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appending_notifies_listeners_on_postgres() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let mut listener = sqlx::postgres::PgListener::connect_with(db.postgres_pool())
        .await
        .expect("listener");
    listener.listen("events").await.expect("listen");

    let bus = CommandBus::<Counter>::new(&db.database, CounterServices::plain());
    bus.execute(
        "counter-1",
        CounterCommand::IncrementEach { steps: vec![1, 2] },
        actor("alice"),
    )
    .await
    .expect("command");

    let notification = tokio::time::timeout(std::time::Duration::from_secs(5), listener.recv())
        .await
        .expect("a notification within 5 s")
        .expect("receive");
    assert_eq!(notification.channel(), "events");
    assert_eq!(notification.payload(), "");

    drop(listener);
    db.teardown().await;
}
