//! Executing commands: what is committed, what is returned, what is loaded back.

use cqrs_es::AggregateError;
use projections::store::{CommandBus, EventLog, LogPosition};

use crate::counter::{Counter, CounterCommand, CounterError, CounterEvent, CounterServices};
use crate::helpers::{actor, TestDb};

on_both_stores!(
    committed_events_load_back_in_order_with_their_metadata,
    a_refused_command_writes_nothing,
);

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
