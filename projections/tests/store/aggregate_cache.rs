//! The command bus's cache of folded aggregates (`store::aggregate_cache`): a command
//! folds only the events past its cached state, yet decides on exactly the fold of
//! every event, whoever appended them, read back as a load reads them; a refusal, a
//! lost race or an erased key never leaves a state behind that the log does not hold.

use std::sync::Arc;

use aggregates::services::doubles::{test_now, user_services, FixedClock};
use aggregates::types::BankAccount;
use aggregates::user::{ProfileUpdate, User, UserCommand};
use aggregates::wallet::{Wallet, WalletCommand};
use aggregates::Actor;
use cqrs_es::AggregateError;
use projections::store::sealing::DataKeys;
use projections::store::{CommandBus, Database};
use rust_decimal_macros::dec;
use uuid::Uuid;

use crate::counter::{Counter, CounterCommand, CounterError, CounterServices};
use crate::helpers::{actor, TestDb};
use crate::journey::onboarding;

on_both_stores!(
    a_command_reads_only_the_events_past_its_cached_state,
    events_appended_by_another_bus_are_folded_in,
    a_refusal_leaves_the_cached_state_as_it_was,
    a_lost_race_keeps_the_state_from_before_the_command,
    an_erased_key_drops_the_cached_state,
    a_load_is_the_cached_fold_brought_up_to_date,
    a_tail_sealed_for_a_new_subject_is_opened_and_its_key_watched,
);

fn counters(db: &TestDb) -> CommandBus<Counter> {
    CommandBus::new(&db.database, CounterServices::plain())
}

fn increment(by: i64) -> CounterCommand {
    CounterCommand::Increment { by }
}

/// Runs `sql` (one statement, no parameters) on `database`.
async fn run(database: &Database, sql: &str) {
    match database {
        Database::Sqlite { pool, .. } => sqlx::query(sql).execute(pool).await.map(drop),
        Database::Postgres(pool) => sqlx::query(sql).execute(pool).await.map(drop),
    }
    .expect(sql);
}

/// Rewrites counter `c`'s first event, behind every bus's back, to an increment of
/// 1000 (nothing in the product does this): only a fold that reads it again sees it.
async fn rewrite_first_increment_to_1000(db: &TestDb) {
    let cast = match db.database {
        Database::Sqlite { .. } => "'{\"Incremented\":{\"by\":1000}}'",
        Database::Postgres(_) => "cast('{\"Incremented\":{\"by\":1000}}' as json)",
    };
    run(
        &db.database,
        &format!("update events set payload = {cast} where aggregate_id = 'c' and sequence = 1"),
    )
    .await;
}

async fn a_command_reads_only_the_events_past_its_cached_state(db: &TestDb) {
    let bus = counters(db);
    bus.execute("c", increment(1), actor("t")).await.unwrap();
    bus.execute("c", increment(2), actor("t")).await.unwrap();
    assert_eq!(bus.cached("c"), Some((Counter { value: 3 }, 2)));
    // Behind the bus's back, rewrite the first event (nothing in the product does
    // this): the next command does not read it again, so its state is the cached one.
    rewrite_first_increment_to_1000(db).await;
    bus.execute("c", increment(4), actor("t")).await.unwrap();
    assert_eq!(bus.cached("c"), Some((Counter { value: 7 }, 3)));
    // A full load reads every event.
    assert_eq!(bus.reload("c").await.unwrap(), Counter { value: 1006 });
}

async fn events_appended_by_another_bus_are_folded_in(db: &TestDb) {
    // Two buses are two api processes.
    let (a, b) = (counters(db), counters(db));
    a.execute("c", increment(1), actor("a")).await.unwrap();
    b.execute("c", increment(10), actor("b")).await.unwrap();
    b.execute("c", increment(100), actor("b")).await.unwrap();
    assert_eq!(
        a.cached("c"),
        Some((Counter { value: 1 }, 1)),
        "a has not seen b's"
    );
    let committed = a.execute("c", increment(1000), actor("a")).await.unwrap();
    assert_eq!(committed[0].sequence, 4, "appended after b's events");
    assert_eq!(a.cached("c"), Some((Counter { value: 1111 }, 4)));
    assert_eq!(a.reload("c").await.unwrap(), Counter { value: 1111 });
}

async fn a_load_is_the_cached_fold_brought_up_to_date(db: &TestDb) {
    let (a, b) = (counters(db), counters(db));
    assert_eq!(
        a.load("c").await.unwrap(),
        Counter::default(),
        "no events yet"
    );
    assert_eq!(
        a.cached("c"),
        None,
        "an aggregate without events is not cached"
    );
    a.execute("c", increment(1), actor("a")).await.unwrap();
    b.execute("c", increment(10), actor("b")).await.unwrap();
    // The first event rewritten behind the buses: a load folds only the tail past
    // its cached state, so it does not read it again; a reload does.
    rewrite_first_increment_to_1000(db).await;
    assert_eq!(a.load("c").await.unwrap(), Counter { value: 11 });
    assert_eq!(a.cached("c"), Some((Counter { value: 11 }, 2)), "kept");
    // The next command decides on the loaded state.
    a.execute("c", increment(100), actor("a")).await.unwrap();
    assert_eq!(a.cached("c"), Some((Counter { value: 111 }, 3)));
    assert_eq!(a.reload("c").await.unwrap(), Counter { value: 1110 });
}

async fn a_refusal_leaves_the_cached_state_as_it_was(db: &TestDb) {
    let bus = counters(db);
    bus.execute("c", increment(1), actor("t")).await.unwrap();
    // A plain refusal leaves the cached state as it was.
    let zero = bus.execute("c", increment(0), actor("t")).await;
    assert!(matches!(
        zero,
        Err(AggregateError::UserError(CounterError::ZeroIncrement))
    ));
    assert_eq!(bus.cached("c"), Some((Counter { value: 1 }, 1)));
    // This command folds +5 into its state, then refuses: nothing is appended, and
    // the +5 must not survive in the cache either.
    let refused = bus
        .execute(
            "c",
            CounterCommand::IncrementEach { steps: vec![5, 0] },
            actor("t"),
        )
        .await;
    assert!(matches!(
        refused,
        Err(AggregateError::UserError(CounterError::ZeroIncrement))
    ));
    assert_eq!(bus.cached("c"), Some((Counter { value: 1 }, 1)));
    bus.execute("c", increment(2), actor("t")).await.unwrap();
    assert_eq!(bus.cached("c"), Some((Counter { value: 3 }, 2)));
    assert_eq!(bus.reload("c").await.unwrap(), Counter { value: 3 });
}

async fn a_lost_race_keeps_the_state_from_before_the_command(db: &TestDb) {
    counters(db)
        .execute("c", increment(1), actor("setup"))
        .await
        .unwrap();
    // Both buses load version 1, then wait for each other before deciding.
    let services = CounterServices::rendezvous(2);
    let a = CommandBus::<Counter>::new(&db.database, services.clone());
    let b = CommandBus::<Counter>::new(&db.database, services);
    let (ten, hundred) = tokio::join!(
        a.execute("c", increment(10), actor("a")),
        b.execute("c", increment(100), actor("b")),
    );
    let (winner, loser, won, error) = match (ten, hundred) {
        (Ok(_), Err(error)) => (&a, &b, 10, error),
        (Err(error), Ok(_)) => (&b, &a, 100, error),
        outcome => panic!("expected exactly one winner, got {outcome:?}"),
    };
    assert!(
        matches!(error, AggregateError::AggregateConflict),
        "{error:?}"
    );
    assert_eq!(winner.cached("c"), Some((Counter { value: 1 + won }, 2)));
    assert_eq!(loser.cached("c"), Some((Counter { value: 1 }, 1)));
    // The loser's next command reads the winner's event after it.
    loser
        .execute("c", increment(1000), actor("l"))
        .await
        .unwrap();
    assert_eq!(loser.cached("c"), Some((Counter { value: 1001 + won }, 3)));
}

async fn an_erased_key_drops_the_cached_state(db: &TestDb) {
    let bus = CommandBus::<User>::new(
        &db.database,
        user_services(Arc::new(FixedClock::at(test_now()))),
    );
    let user_id = Uuid::now_v7();
    let id = user_id.to_string();
    for command in onboarding(user_id) {
        bus.execute(&id, command, Actor::User(user_id).metadata("t", None))
            .await
            .unwrap();
    }
    let (cached, _) = bus.cached(&id).expect("cached after onboarding");
    assert_eq!(cached.mobile, "09171234567");
    assert_eq!(cached, bus.reload(&id).await.unwrap());
    let watcher = CommandBus::<User>::new(
        &db.database,
        user_services(Arc::new(FixedClock::at(test_now()))),
    );
    assert_eq!(watcher.load(&id).await.unwrap().mobile, "09171234567");
    // Erased outside the bus, as another process would.
    assert!(DataKeys::new(&db.database)
        .erase(&id, "auditor:test", test_now())
        .await
        .unwrap());
    // A load (what a workflow's wait polls) on a bus that cached the plain values
    // reads the log again: erased.
    let loaded = watcher.load(&id).await.unwrap();
    assert_eq!(loaded.mobile, "[erased]");
    assert_eq!(watcher.cached(&id).map(|(user, _)| user), Some(loaded));
    // A command that writes nothing personal: its state comes from the log again,
    // erased, although the cached fold still held the plain values.
    let auditor_id = Uuid::now_v7();
    bus.execute(
        &id,
        UserCommand::VerifyIdentity { auditor_id },
        Actor::Auditor(auditor_id).metadata("t", None),
    )
    .await
    .unwrap();
    let (cached, _) = bus.cached(&id).expect("kept");
    assert_eq!(cached.mobile, "[erased]");
    assert_eq!(cached.profile.fields.real_name.as_deref(), Some("[erased]"));
    assert_eq!(cached, bus.reload(&id).await.unwrap());
    // A command that writes a personal value writes it erased; a state holding the
    // plain value would not match the log, so none is kept.
    bus.execute(
        &id,
        UserCommand::UpdateProfile(ProfileUpdate {
            address: Some("99 New Street".into()),
            ..Default::default()
        }),
        Actor::User(user_id).metadata("t", None),
    )
    .await
    .unwrap();
    assert_eq!(bus.cached(&id), None);
    let reloaded = bus.reload(&id).await.unwrap();
    assert_eq!(reloaded.profile.fields.address.as_deref(), Some("[erased]"));
}

async fn a_tail_sealed_for_a_new_subject_is_opened_and_its_key_watched(db: &TestDb) {
    let (a, b) = (
        CommandBus::<Wallet>::new(&db.database, ()),
        CommandBus::<Wallet>::new(&db.database, ()),
    );
    let id = Uuid::now_v7().to_string();
    let payment_ref = "pay-1".to_string();
    let recharge = WalletCommand::RecordRecharge {
        payment_ref: payment_ref.clone(),
        order_id: Uuid::now_v7(),
        amount: dec!(500),
        session_id: None,
        received_at: None,
    };
    a.execute(&id, recharge, actor("t")).await.unwrap();
    // Nothing personal yet: a's entry opened no value and watches no key. Another bus
    // then appends the wallet's first sealed value (the refund's account).
    let account = BankAccount {
        bank_name: "BDO Unibank".into(),
        account_no: "001234567890".into(),
        holder_name: "Juan Dela Cruz".into(),
    };
    let refund = WalletCommand::RefundExcess {
        payment_ref,
        refund_id: Uuid::now_v7(),
        amount: dec!(500),
        account,
    };
    b.execute(&id, refund, actor("t")).await.unwrap();
    // a's tail holds a value sealed under a key its entry never read: opened all the
    // same, as a full load opens it.
    let loaded = format!("{:?}", a.load(&id).await.unwrap());
    assert!(loaded.contains("001234567890"), "{loaded}");
    assert_eq!(loaded, format!("{:?}", a.reload(&id).await.unwrap()));
    // The entry now watches that key: once erased, a's next load reads `[erased]`.
    assert!(DataKeys::new(&db.database)
        .erase(&id, "auditor:test", test_now())
        .await
        .unwrap());
    let erased = format!("{:?}", a.load(&id).await.unwrap());
    assert!(!erased.contains("001234567890"), "{erased}");
    assert!(erased.contains("[erased]"), "{erased}");
}
