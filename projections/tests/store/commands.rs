//! Executing commands: what is committed, what is returned, what is loaded back.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use cqrs_es::AggregateError;
use projections::store::{CommandBus, Database, EventLog, LogPosition};
use tokio::sync::Barrier;

use crate::counter::{Counter, CounterCommand, CounterError, CounterEvent, CounterServices};
use crate::helpers::{actor, TestDb};

on_both_stores!(
    committed_events_load_back_in_order_with_their_metadata,
    a_refused_command_writes_nothing,
    a_command_is_stamped_when_its_append_is_written,
    a_side_insert_commits_with_the_events_and_only_with_them,
);

/// A row claimed beside a command's events (a webhook's event id,
/// `projections::store::with_side_insert`) is written by the append of those events,
/// in its transaction: a command that appends commits the row with its events; one
/// that is refused, or appends nothing, writes no row (and says so, for the caller to
/// write it alone).
async fn a_side_insert_commits_with_the_events_and_only_with_them(db: &TestDb) {
    use projections::store::{with_side_insert, SideInsert};
    let bus = CommandBus::<Counter>::new(&db.database, CounterServices::plain());
    let claim = |event_id: &str| SideInsert {
        table: "processed_webhook",
        columns: &[
            "event_id",
            "session_id",
            "payment_ref",
            "outcome",
            "received_at",
        ],
        key: "event_id",
        values: vec![
            event_id.to_string(),
            "s1".to_string(),
            "ref-1".to_string(),
            "paid".to_string(),
            "2026-12-02T00:00:00.000000Z".to_string(),
        ],
    };
    let claimed = |event_id: &'static str| {
        let database = db.database.clone();
        async move {
            let sql = "select count(*) from processed_webhook where event_id = $1";
            let count: i64 = projections::with_pool!(&database, pool =>
                sqlx::query_scalar(sql).bind(event_id).fetch_one(pool).await)
            .expect("count");
            count
        }
    };
    let increment = |by| bus.execute("counter-side", CounterCommand::Increment { by }, actor("a"));

    let (done, written) = with_side_insert(claim("e1"), increment(1)).await;
    assert_eq!(done.expect("appended").len(), 1);
    assert!(written);
    assert_eq!(claimed("e1").await, 1);

    // Refused: no events, no row.
    let (refused, written) = with_side_insert(claim("e2"), increment(0)).await;
    assert!(refused.is_err());
    assert!(!written);
    assert_eq!(claimed("e2").await, 0);

    // Nothing to append: no row either.
    let nothing = bus.execute(
        "counter-side",
        CounterCommand::IncrementEach { steps: vec![] },
        actor("a"),
    );
    let (done, written) = with_side_insert(claim("e3"), nothing).await;
    assert!(done.expect("no events").is_empty());
    assert!(!written);
    assert_eq!(claimed("e3").await, 0);

    // The same claim again with new events: the row stays as it was, the events land.
    let (done, written) = with_side_insert(claim("e1"), increment(2)).await;
    assert_eq!(done.expect("appended").len(), 1);
    assert!(written);
    assert_eq!(claimed("e1").await, 1);
}

async fn committed_events_load_back_in_order_with_their_metadata(db: &TestDb) {
    let bus = CommandBus::<Counter>::new(&db.database, CounterServices::plain());

    let first = bus
        .execute(
            "counter-1",
            CounterCommand::IncrementEach {
                steps: vec![1, 2, 3],
            },
            actor("alice"),
        )
        .await
        .expect("first command");
    let second = bus
        .execute(
            "counter-1",
            CounterCommand::Increment { by: 4 },
            actor("bob"),
        )
        .await
        .expect("second command");

    // `execute` returns exactly the envelopes it committed, numbered from 1.
    let summary = |envelopes: &[cqrs_es::EventEnvelope<Counter>]| {
        envelopes
            .iter()
            .map(|e| (e.aggregate_id.clone(), e.sequence, e.payload.clone()))
            .collect::<Vec<_>>()
    };
    let incremented = |by| CounterEvent::Incremented { by };
    assert_eq!(
        summary(&first),
        vec![
            ("counter-1".to_owned(), 1, incremented(1)),
            ("counter-1".to_owned(), 2, incremented(2)),
            ("counter-1".to_owned(), 3, incremented(3)),
        ]
    );
    let actor_of = |e: &cqrs_es::EventEnvelope<Counter>| e.metadata["actor"].clone();
    assert!(first.iter().all(|e| actor_of(e) == "alice"));
    // Every event is stamped with its commit time.
    assert!(first
        .iter()
        .all(|e| chrono::DateTime::parse_from_rfc3339(&e.metadata["recorded_at"]).is_ok()));
    assert_eq!(
        summary(&second),
        vec![("counter-1".to_owned(), 4, incremented(4))]
    );
    assert_eq!(actor_of(&second[0]), "bob");

    // Loading gives back the same events, in order, with their metadata.
    let loaded = bus.load_events("counter-1").await.expect("load events");
    assert_eq!(
        summary(&loaded),
        [summary(&first), summary(&second)].concat()
    );
    let loaded_metadata: Vec<_> = loaded.iter().map(|e| e.metadata.clone()).collect();
    let committed_metadata: Vec<_> = first
        .iter()
        .chain(&second)
        .map(|e| e.metadata.clone())
        .collect();
    assert_eq!(loaded_metadata, committed_metadata);
    assert_eq!(bus.load("counter-1").await.expect("load").value, 10);

    // Other aggregates are untouched.
    assert!(bus.load_events("counter-2").await.expect("load").is_empty());
    assert_eq!(
        bus.load("counter-2").await.expect("load"),
        Counter::default()
    );
}

async fn a_refused_command_writes_nothing(db: &TestDb) {
    let bus = CommandBus::<Counter>::new(&db.database, CounterServices::plain());
    let log = EventLog::new(&db.database);
    bus.execute(
        "counter-1",
        CounterCommand::Increment { by: 1 },
        actor("alice"),
    )
    .await
    .expect("a valid command");
    let head = log.head().await.expect("head");
    assert_ne!(head, LogPosition::START);

    let refused = bus
        .execute(
            "counter-1",
            CounterCommand::Increment { by: 0 },
            actor("alice"),
        )
        .await;
    assert!(
        matches!(
            refused,
            Err(AggregateError::UserError(CounterError::ZeroIncrement))
        ),
        "{refused:?}"
    );
    // A refusal after some events were already written to the sink commits none of them.
    let refused_midway = bus
        .execute(
            "counter-1",
            CounterCommand::IncrementEach { steps: vec![5, 0] },
            actor("alice"),
        )
        .await;
    assert!(
        matches!(
            refused_midway,
            Err(AggregateError::UserError(CounterError::ZeroIncrement))
        ),
        "{refused_midway:?}"
    );
    // A command that decides nothing needs to happen commits nothing and succeeds.
    let nothing = bus
        .execute(
            "counter-1",
            CounterCommand::IncrementEach { steps: vec![] },
            actor("alice"),
        )
        .await
        .expect("an empty command");
    assert!(nothing.is_empty());

    assert_eq!(bus.load_events("counter-1").await.expect("load").len(), 1);
    assert_eq!(bus.load("counter-1").await.expect("load").value, 1);
    assert_eq!(log.head().await.expect("head"), head);
}

/// A command's events are stamped `recorded_at` when its append holds its connection,
/// not when the command decided them: a command whose append waits for one (every
/// connection that writes is held here for 300 ms after the command loaded) is stamped
/// after the wait, and answers the stamp the log holds. The read models' lag counts
/// from the stamp (`projections::consumer::lag`; bench/PROFILE.md, issue 14).
async fn a_command_is_stamped_when_its_append_is_written(db: &TestDb) {
    let meeting = Arc::new(Barrier::new(2));
    let bus = CommandBus::<Counter>::new(&db.database, CounterServices::meeting(meeting.clone()));
    let command = bus.execute(
        "stamped",
        CounterCommand::Increment { by: 1 },
        actor("alice"),
    );
    let hold_the_writers = async {
        // The command has loaded; its load's connection is back in the pool.
        meeting.wait().await;
        let mut held: Vec<Box<dyn Send>> = Vec::new();
        match &db.database {
            Database::Sqlite { pool, .. } => held.push(Box::new(pool.acquire().await.unwrap())),
            Database::Postgres(pool) => {
                for _ in 0..pool.options().get_max_connections() {
                    held.push(Box::new(pool.acquire().await.unwrap()));
                }
            }
        }
        meeting.wait().await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let released = Utc::now();
        drop(held);
        released
    };
    let (committed, released) = tokio::join!(command, hold_the_writers);
    let committed = committed.expect("the command commits after the wait");
    let stamp = |text: &str| DateTime::parse_from_rfc3339(text).expect("RFC 3339");
    let answered = stamp(&committed[0].metadata["recorded_at"]);
    assert!(
        answered >= released,
        "stamped {answered}, before the connection was free at {released}"
    );
    let loaded = bus.load_events("stamped").await.expect("load events");
    assert_eq!(loaded[0].metadata, committed[0].metadata);
}
