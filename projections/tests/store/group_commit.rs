//! SQLite's group commit of appends (issue 14): appends that queue while the writer is
//! busy go in one transaction, and each still succeeds or fails alone, as it would in a
//! transaction of its own.

use cqrs_es::persist::{PersistenceError, SerializedEvent};
use projections::store::group_commit::GroupCommit;
use projections::store::Database;
use serde_json::json;

use crate::helpers::TestDb;

fn event(aggregate_id: &str, sequence: usize) -> SerializedEvent {
    SerializedEvent::new(
        aggregate_id.to_string(),
        sequence,
        "Counter".to_string(),
        "Incremented".to_string(),
        "1".to_string(),
        json!({"Incremented": {"by": 1}}),
        json!({}),
    )
}

fn parts(db: &TestDb) -> (sqlx::SqlitePool, GroupCommit) {
    let Database::Sqlite { pool, appends, .. } = &db.database else {
        unreachable!("TestDb::sqlite opens SQLite")
    };
    (pool.clone(), appends.clone())
}

/// Appends sent while the writer is held queue and are written together: the ones
/// with free sequences commit, the one that reuses a taken sequence is refused alone,
/// and nothing of it is written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_commits_every_append_but_the_conflicting_one() {
    let db = TestDb::sqlite().await;
    let (pool, appends) = parts(&db);
    appends.append(vec![event("taken", 1)]).await.unwrap();
    // Hold the one writer connection so that the next appends queue into one group.
    let held = pool.begin().await.unwrap();
    // The writer takes this one first and waits for the connection with it alone;
    // everything sent after it queues into the next group.
    let first = {
        let appends = appends.clone();
        tokio::spawn(async move { appends.append(vec![event("first", 1)]).await })
    };
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    let mut sent = vec![first];
    for n in 0..6 {
        let appends = appends.clone();
        sent.push(tokio::spawn(async move {
            appends
                .append(vec![
                    event(&format!("free-{n}"), 1),
                    event(&format!("free-{n}"), 2),
                ])
                .await
        }));
    }
    let conflicting = {
        let appends = appends.clone();
        tokio::spawn(async move {
            appends
                .append(vec![event("taken", 2), event("taken", 1)])
                .await
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    drop(held);
    let mut answered = Vec::new();
    for append in sent {
        let written = append.await.unwrap().expect("a free sequence commits");
        answered.push(written.position.expect("a position").global_position);
    }
    assert!(matches!(
        conflicting.await.unwrap(),
        Err(PersistenceError::OptimisticLockError)
    ));
    let rows: Vec<(String, i64)> =
        sqlx::query_as("select aggregate_id, sequence from events order by global_position")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(rows.len(), 1 + 1 + 6 * 2, "{rows:?}");
    // Each append is answered with where its last event landed; the positions run
    // 1, 2, 3, … with no gap where the refused append was.
    let positions: Vec<(String, i64, i64)> = sqlx::query_as(
        "select aggregate_id, sequence, global_position from events order by global_position",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let numbered: Vec<i64> = positions.iter().map(|(_, _, p)| *p).collect();
    assert_eq!(numbered, (1..=14).collect::<Vec<i64>>());
    let mut last_of_each: Vec<i64> = positions
        .iter()
        .filter(|(id, sequence, _)| id == "first" || (id.starts_with("free-") && *sequence == 2))
        .map(|(_, _, p)| *p)
        .collect();
    last_of_each.sort_unstable();
    answered.sort_unstable();
    assert_eq!(answered, last_of_each);
    let taken: Vec<i64> = rows
        .iter()
        .filter(|(id, _)| id == "taken")
        .map(|(_, s)| *s)
        .collect();
    assert_eq!(taken, vec![1], "no part of the refused append was written");
    for n in 0..6 {
        let id = format!("free-{n}");
        let sequences: Vec<i64> = rows
            .iter()
            .filter(|(a, _)| *a == id)
            .map(|(_, s)| *s)
            .collect();
        assert_eq!(
            sequences,
            vec![1, 2],
            "an append's events stay together and in order"
        );
    }
    db.teardown().await;
}

/// Many writers at once: every acknowledged append is in the log exactly once, and
/// an append is acknowledged only once it is committed (a reader sees it then).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_append_is_committed_once() {
    let db = TestDb::sqlite().await;
    let (_, appends) = parts(&db);
    let Database::Sqlite { reads, .. } = &db.database else {
        unreachable!()
    };
    let mut writers = Vec::new();
    for writer in 0..16 {
        let appends = appends.clone();
        let reads = reads.clone();
        writers.push(tokio::spawn(async move {
            let id = format!("writer-{writer}");
            for sequence in 1..=20 {
                appends.append(vec![event(&id, sequence)]).await.unwrap();
                let seen: i64 =
                    sqlx::query_scalar("select count(*) from events where aggregate_id = $1")
                        .bind(&id)
                        .fetch_one(&reads)
                        .await
                        .unwrap();
                assert_eq!(
                    seen,
                    i64::try_from(sequence).unwrap(),
                    "visible once answered"
                );
            }
        }));
    }
    for writer in writers {
        writer.await.unwrap();
    }
    let total: i64 = sqlx::query_scalar("select count(*) from events")
        .fetch_one(reads)
        .await
        .unwrap();
    assert_eq!(total, 16 * 20);
    db.teardown().await;
}

/// A row inserted without a position (sqlite-es's own repository, a hand-written row)
/// is still numbered by the trigger, and the next group continues after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rows_inserted_without_a_position_are_numbered_and_appends_continue_after_them() {
    let db = TestDb::sqlite().await;
    let (pool, appends) = parts(&db);
    let first = appends
        .append(vec![event("a", 1), event("a", 2)])
        .await
        .unwrap();
    assert_eq!(first.position.unwrap().global_position, 2);
    sqlx::query(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, \
         event_version, payload, metadata) values ('Counter', 'b', 1, 'Incremented', '1', '{}', '{}')",
    )
    .execute(&pool)
    .await
    .unwrap();
    let next = appends.append(vec![event("c", 1)]).await.unwrap();
    assert_eq!(next.position.unwrap().global_position, 4);
    let rows: Vec<(String, i64)> =
        sqlx::query_as("select aggregate_id, global_position from events order by global_position")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(
        rows,
        vec![
            ("a".to_string(), 1),
            ("a".to_string(), 2),
            ("b".to_string(), 3),
            ("c".to_string(), 4)
        ]
    );
    db.teardown().await;
}
