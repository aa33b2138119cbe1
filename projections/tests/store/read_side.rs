//! The read side on both stores: exact read models and journal entries for a known
//! loan, crash recovery, concurrent workers, and verify/rebuild on a generated workload.

use std::collections::BTreeMap;
use std::sync::Arc;

use aggregates::order::{Order, OrderCommand};
use aggregates::services::doubles::{order_services, test_now, user_services, FixedClock};
use aggregates::user::{User, UserCommand, UserEvent};
use aggregates::wallet::{Wallet, WalletCommand};
use aggregates::Actor;
use chrono::Days;
use projections::consumer::runner::{read_checkpoint, Failpoint, Runner};
use projections::process::LoanProcess;
use projections::projection::{all, Projection};
use projections::read_models::orders::{
    AUDIT_QUEUE, LOAN_PROGRESS, ORDER_DETAIL, ORDER_LIST, ORDER_TIMELINE, STAFF_ONLY_EVENTS,
    TRANSACTIONS,
};
use projections::read_models::users::{REDACTED_HASH, USER_PROFILE};
use projections::read_models::wallets::WALLET;
use projections::rebuild::{rebuild, tables_hash};
use projections::rows::{dump_table, Value};
use projections::store::{CommandBus, Database, EventLog, LogPosition};
use projections::verify::verify;
use projections::workload::seed;
use rust_decimal_macros::dec;
use uuid::Uuid;

use crate::helpers::TestDb;
use crate::journey::{image, onboarding};
use crate::sessions::SqlSessions;

on_both_stores!(
    a_known_loan_gives_exactly_these_read_models_and_journal_entries,
    a_runner_stopped_between_steps_ends_as_an_uninterrupted_run,
    a_generated_workload_verifies_and_rebuilds_to_the_same_tables,
    a_run_of_events_leaves_the_rows_of_applying_them_one_by_one,
    a_projection_writes_nothing_for_aggregate_types_it_does_not_follow,
    one_batch_moves_every_read_model_and_writes_only_the_tables_it_concerns,
    checkpoints_move_all_together_or_not_at_all,
    the_credentials_migration_redacts_the_rows_written_before_it,
);

async fn catch_up_all(database: &Database) -> usize {
    let mut total = 0;
    for projection in all() {
        total += Runner::new(database, projection)
            .catch_up()
            .await
            .expect("projection catches up");
    }
    total
}

async fn hashes(database: &Database) -> Vec<String> {
    let mut result = Vec::new();
    for projection in all() {
        result.push(
            tables_hash(database, projection.as_ref())
                .await
                .expect("hash"),
        );
    }
    result
}

fn text(row: &projections::rows::Row, column: &str) -> String {
    match row.get(column) {
        Some(Value::Text(text)) => text.clone(),
        Some(Value::Int(number)) => number.to_string(),
        None => panic!("no column {column}"),
    }
}

struct Racing<'a>(&'a LoanProcess, &'a LoanProcess);

impl Racing<'_> {
    async fn catch_up(&self) -> Result<(), projections::ProjectionError> {
        let (a, b) = tokio::join!(self.0.catch_up(), self.1.catch_up());
        a.and(b).map(drop)
    }
}

async fn a_known_loan_gives_exactly_these_read_models_and_journal_entries(db: &TestDb) {
    let database = &db.database;
    let clock = Arc::new(FixedClock::at(test_now()));
    let users = CommandBus::<User>::new(database, user_services(clock.clone()));
    let orders = CommandBus::<Order>::new(database, order_services(clock.clone()));
    let wallets = CommandBus::<Wallet>::new(database, ());
    // Two process managers race on every step, as two api processes would: each step
    // must still happen exactly once.
    let first = LoanProcess::new(
        database,
        user_services(clock.clone()),
        order_services(clock.clone()),
        SqlSessions::on(database),
    );
    let second = LoanProcess::new(
        database,
        user_services(clock.clone()),
        order_services(clock.clone()),
        SqlSessions::on(database),
    );
    let process = Racing(&first, &second);
    let (user_id, order_id) = (Uuid::now_v7(), Uuid::now_v7());
    let (uid, oid) = (user_id.to_string(), order_id.to_string());
    let (a1, a2) = (Uuid::now_v7(), Uuid::now_v7());
    let me = || Actor::User(user_id).metadata("test", None);
    let staff = |a| Actor::Auditor(a).metadata("test", None);

    for command in onboarding(user_id) {
        users
            .execute(&uid, command, me())
            .await
            .expect("onboarding step");
    }
    users
        .execute(
            &uid,
            UserCommand::VerifyIdentity { auditor_id: a1 },
            staff(a1),
        )
        .await
        .unwrap();
    users
        .execute(
            &uid,
            UserCommand::OpenApplication {
                order_id,
                app_id: 1,
                amount: dec!(100000),
                period_days: 6,
                terms_version: "2026-11".into(),
                product_version: None,
            },
            me(),
        )
        .await
        .unwrap();
    let signature = users.load(&uid).await.unwrap().signature;
    orders
        .execute(
            &oid,
            OrderCommand::ApplyForLoan {
                order_id,
                user_id,
                app_id: 1,
                amount: dec!(100000),
                period_days: 6,
                signature,
                applicant_name: "Ana Santos".into(),
                terms_version: "2026-11".into(),
                monthly_income: None,
                product_version: None,
            },
            me(),
        )
        .await
        .unwrap();
    orders
        .execute(
            &oid,
            OrderCommand::StartReview { auditor_id: a1 },
            staff(a1),
        )
        .await
        .unwrap();
    orders
        .execute(
            &oid,
            OrderCommand::PassFirstAudit {
                auditor_id: a1,
                note: "ok".into(),
                identity_verified: true,
            },
            staff(a1),
        )
        .await
        .unwrap();
    orders
        .execute(
            &oid,
            OrderCommand::PassFinalAudit {
                auditor_id: a2,
                note: "ok".into(),
            },
            staff(a2),
        )
        .await
        .unwrap();
    process
        .catch_up()
        .await
        .expect("approval credits the wallet");

    let payout_id = Uuid::now_v7();
    let verified = users
        .execute(
            &uid,
            UserCommand::RequestWithdrawal {
                order_id: Some(order_id),
                payout_id,
                amount: dec!(80000),
                pin: "246810".into(),
            },
            me(),
        )
        .await
        .unwrap();
    let UserEvent::WithdrawalRequested { account, .. } = verified[0].payload.clone() else {
        panic!()
    };
    orders
        .execute(
            &oid,
            OrderCommand::RequestPayout {
                payout_id,
                amount: dec!(80000),
                account,
                requested_at: None,
            },
            me(),
        )
        .await
        .unwrap();
    process.catch_up().await.unwrap();
    orders
        .execute(
            &oid,
            OrderCommand::RecordPayoutSucceeded { payout_id },
            Actor::System.metadata("payout", None),
        )
        .await
        .unwrap();
    process.catch_up().await.unwrap();

    // Day 8: five payments; the process manager repays the order and applies the cash.
    clock.set(test_now() + Days::new(8));
    for (n, amount) in [
        dec!(20000),
        dec!(20000),
        dec!(20000),
        dec!(20000),
        dec!(960),
    ]
    .into_iter()
    .enumerate()
    {
        let session_id = Uuid::from_u128(0x5E55_0000 + n as u128);
        orders
            .execute(
                &oid,
                OrderCommand::OpenPaymentSession { session_id, amount },
                me(),
            )
            .await
            .unwrap();
        wallets
            .execute(
                &uid,
                WalletCommand::RecordRecharge {
                    payment_ref: format!("pay-{n}"),
                    order_id,
                    amount,
                    session_id: Some(session_id),
                    received_at: None,
                },
                Actor::System.metadata("webhook", None),
            )
            .await
            .unwrap();
        process.catch_up().await.unwrap();
    }
    // A webhook delivered again changes nothing.
    wallets
        .execute(
            &uid,
            WalletCommand::RecordRecharge {
                payment_ref: "pay-0".into(),
                order_id,
                amount: dec!(20000),
                session_id: Some(Uuid::from_u128(0x5E55_0000)),
                received_at: None,
            },
            Actor::System.metadata("webhook", None),
        )
        .await
        .unwrap();
    process.catch_up().await.unwrap();
    assert!(
        users.load(&uid).await.unwrap().open_order.is_none(),
        "closing the loan closed the application"
    );
    let applied = catch_up_all(database).await;
    assert!(applied > 0);

    // Order read models.
    let detail = dump_table(database, &ORDER_DETAIL).await.unwrap();
    assert_eq!(detail.len(), 1);
    let doc: serde_json::Value = serde_json::from_str(&text(&detail[0], "doc")).unwrap();
    assert_eq!(doc["status"], 10);
    assert_eq!(doc["principal"], "80000.00");
    assert_eq!(doc["applyAmount"], "100000.00");
    assert_eq!(doc["totalRepay"], "80960.00");
    assert_eq!(doc["repaid"], "80960.00");
    assert_eq!(doc["remaining"], "0.00");
    assert_eq!(doc["rate"], "0.2");
    // The true annual rate of the disclosure: the IRR compounded over 365 days.
    assert_eq!(doc["apr"], "247.55");
    let views = doc["periodViews"].as_array().unwrap();
    assert_eq!(views.len(), 6);
    assert!(views.iter().all(|v| v["status"] == 1));
    assert_eq!(views[0]["amt"], "13493.30");
    assert_eq!(views[5]["amt"], "13493.50");
    assert_eq!(views[0]["dueDate"], "2026-11-23");
    let list = dump_table(database, &ORDER_LIST).await.unwrap();
    assert_eq!(
        (text(&list[0], "status"), text(&list[0], "principal")),
        ("10".into(), "80000.00".into())
    );
    let progress = dump_table(database, &LOAN_PROGRESS).await.unwrap();
    assert_eq!(progress.len(), 1);
    assert_eq!(text(&progress[0], "order_id"), oid);
    assert_eq!(text(&progress[0], "apply_amount"), "100000.00");
    assert_eq!(text(&progress[0], "balance"), "0.00");
    let queue = dump_table(database, &AUDIT_QUEUE).await.unwrap();
    assert_eq!(text(&queue[0], "applicant_name"), "Ana Santos");
    assert_eq!(text(&queue[0], "status"), "10");
    let order_events = EventLog::new(database)
        .read_after(LogPosition::START, 10_000)
        .await
        .unwrap()
        .into_iter()
        .filter(|e| e.aggregate_type == "Order")
        .count();
    let timeline = dump_table(database, &ORDER_TIMELINE).await.unwrap();
    assert_eq!(
        timeline.len(),
        order_events,
        "one timeline row per order event"
    );
    let types: Vec<String> = timeline.iter().map(|r| text(r, "event_type")).collect();
    assert_eq!(
        &types[..5],
        [
            "LoanApplied",
            "ReviewStarted",
            "FirstAuditPassed",
            "FinalAuditPassed",
            "PayoutRequested"
        ]
    );
    assert_eq!(types.last().unwrap(), "LoanRepaid");
    assert_eq!(text(&timeline[2], "actor"), format!("auditor:{a1}"));
    let transactions = dump_table(database, &TRANSACTIONS).await.unwrap();
    let mut moves: Vec<(String, String)> = transactions
        .iter()
        .map(|r| (text(r, "kind"), text(r, "amount")))
        .collect();
    moves.sort();
    assert_eq!(
        moves,
        vec![
            ("disbursement".into(), "80000.00".into()),
            ("repayment".into(), "20000.00".into()),
            ("repayment".into(), "20000.00".into()),
            ("repayment".into(), "20000.00".into()),
            ("repayment".into(), "20000.00".into()),
            ("repayment".into(), "960.00".into()),
        ]
    );

    // User and wallet.
    let profile = dump_table(database, &USER_PROFILE).await.unwrap();
    let user_doc: serde_json::Value = serde_json::from_str(&text(&profile[0], "doc")).unwrap();
    assert_eq!(user_doc["cardNo"], "********7890");
    assert_eq!(user_doc["hasWithdrawPin"], true);
    assert_eq!(user_doc["userQualificationView"]["identity"], 2);
    assert!(user_doc["lastOrderId"].is_null());
    assert!(
        !text(&profile[0], "doc").contains("246810")
            && !text(&profile[0], "doc").contains("001234567890")
    );
    // The stored fold keeps no credentials (`users::redact_credentials`), while the
    // aggregate's own fold, which checks them, still has both hashes.
    let stored_state = text(&profile[0], "state");
    let stored: User = serde_json::from_str(&stored_state).unwrap();
    let folded = users.load(&uid).await.unwrap();
    let pin_hash = folded.pin_hash.clone().unwrap();
    assert!(!folded.password_hash.is_empty() && pin_hash != REDACTED_HASH);
    assert_eq!(
        (stored.password_hash.as_str(), stored.pin_hash.as_deref()),
        ("", Some(REDACTED_HASH))
    );
    assert!(!stored_state.contains(&folded.password_hash) && !stored_state.contains(&pin_hash));
    let wallet = dump_table(database, &WALLET).await.unwrap();
    assert_eq!(
        (text(&wallet[0], "balance"), text(&wallet[0], "cash")),
        ("0.00".into(), "0.00".into())
    );

    // Ledger: balances through the SQL view, and the trial balance.
    let sql = "select account, balance_minor from ledger_balances order by account";
    let balances: Vec<(String, i64)> = match database {
        Database::Sqlite { pool, .. } => sqlx::query_as(sql).fetch_all(pool).await.unwrap(),
        Database::Postgres(pool) => sqlx::query_as(sql).fetch_all(pool).await.unwrap(),
    };
    let balances: BTreeMap<String, i64> = balances.into_iter().collect();
    assert_eq!(
        balances["lender_cash"], 96_000,
        "960.00 of interest collected in cash"
    );
    assert_eq!(balances["interest_income"], -96_000);
    assert_eq!(balances[&format!("loan_receivable:{oid}")], 0);
    assert_eq!(balances[&format!("borrower_wallet:{uid}")], 0);
    assert_eq!(balances["payout_clearing"], 0);
    assert_eq!(balances["payment_clearing"], 0);
    assert_eq!(balances.values().sum::<i64>(), 0, "trial balance");
    let journal = dump_table(database, &projections::read_models::ledger::LEDGER_JOURNAL)
        .await
        .unwrap();
    // payout (2) + confirmation (3) + 5 × (recharge 2 + repayment 2 + applied 2)
    assert_eq!(journal.len(), 2 + 3 + 5 * 6);

    let report = verify(database).await.unwrap();
    assert!(report.is_clean(), "{:?}", report.drifts);
    assert_eq!(report.aggregates, 3);

    // History replay (P9): every event with its actor and time, and the state after it.
    let history = projections::history::order_history(database, &oid)
        .await
        .unwrap();
    assert_eq!(history.len(), order_events);
    assert_eq!(history[0].event_type, "LoanApplied");
    assert_eq!(history[0].actor, format!("user:{uid}"));
    assert_eq!(history[2].actor, format!("auditor:{a1}"));
    assert_eq!(history[3].actor, format!("auditor:{a2}"));
    assert!(history.iter().all(|e| e.time.is_some()));
    let codes: Vec<u8> = history.iter().map(|e| e.state.status.code()).collect();
    assert_eq!(&codes[..6], [0, 1, 3, 9, 9, 4]);
    assert_eq!(*codes.last().unwrap(), 10);
    let as_of = projections::history::state_as_of(&history, 4).unwrap();
    assert_eq!((as_of.status.code(), as_of.balance), (9, dec!(100000)));
    let export = serde_json::to_value(projections::history::export(&oid, &history)).unwrap();
    assert_eq!(export["events"].as_array().unwrap().len(), order_events);
    assert_eq!(export["finalState"]["status"], "Repaid");

    // Read-your-writes: a new event is not yet in the read models until the workers
    // pass its position, which the wait helper observes.
    users
        .execute(
            &uid,
            UserCommand::UploadSignature {
                image: image("sig2"),
            },
            me(),
        )
        .await
        .unwrap();
    let head = EventLog::new(database).head().await.unwrap();
    let names = ["users", "orders", "wallets", "ledger"];
    let short = std::time::Duration::from_millis(50);
    let board = projections::consumer::runner::Checkpoints::default();
    let caught_up = || {
        projections::consumer::runner::wait_for_checkpoints(database, &board, &names, head, short)
    };
    assert!(!caught_up().await.unwrap());
    catch_up_all(database).await;
    assert!(caught_up().await.unwrap());
}

async fn a_runner_stopped_between_steps_ends_as_an_uninterrupted_run(db: &TestDb) {
    let database = &db.database;
    seed(database, 26).await.expect("seed");
    let orders = projections::projection::by_name("orders").unwrap();
    // A runner that "crashes" after applying 7 events of its first batch.
    let crashing = Runner::new(database, orders.clone())
        .with_batch_size(50)
        .with_failpoint(Failpoint { after_events: 7 });
    projections::consumer::runner::ensure_checkpoint(database, "orders")
        .await
        .unwrap();
    let error = crashing.step().await.expect_err("the failpoint fires");
    assert!(error.to_string().contains("failpoint"), "{error}");
    assert_eq!(
        read_checkpoint(database, "orders").await.unwrap(),
        LogPosition::START,
        "checkpoint did not move"
    );
    assert!(
        dump_table(database, &ORDER_TIMELINE)
            .await
            .unwrap()
            .is_empty(),
        "nothing half-applied"
    );
    // Restarted without the failpoint, in small batches, it catches up.
    Runner::new(database, orders.clone())
        .with_batch_size(37)
        .catch_up()
        .await
        .unwrap();
    let after_crash = tables_hash(database, orders.as_ref()).await.unwrap();
    let order_events = EventLog::new(database)
        .read_after(LogPosition::START, 100_000)
        .await
        .unwrap()
        .into_iter()
        .filter(|e| e.aggregate_type == "Order")
        .filter(|e| !STAFF_ONLY_EVENTS.contains(&e.event_type.as_str()))
        .count();
    assert_eq!(
        dump_table(database, &ORDER_TIMELINE).await.unwrap().len(),
        order_events,
        "no event applied twice or lost"
    );
    // An uninterrupted run (a rebuild from the log) gives the same tables.
    rebuild(database, std::slice::from_ref(&orders), &mut |_| {})
        .await
        .unwrap();
    assert_eq!(
        tables_hash(database, orders.as_ref()).await.unwrap(),
        after_crash
    );
}

/// `Projection::apply_all` may write an aggregate's rows once per run: given every
/// event of a generated workload (many orders of one user, every status), when they
/// are applied as one run and when they are applied one at a time, then every table
/// of every projection holds the same rows.
async fn a_run_of_events_leaves_the_rows_of_applying_them_one_by_one(db: &TestDb) {
    let database = &db.database;
    seed(database, 60).await.expect("seed");
    let events = EventLog::new(database)
        .read_after(LogPosition::START, 1_000_000)
        .await
        .unwrap();
    assert!(events.len() > 600, "{} events", events.len());
    for projection in all() {
        let mut one_run = projections::rows::MemoryStore::default();
        projection.apply_all(&mut one_run, &events).await.unwrap();
        let mut one_by_one = projections::rows::MemoryStore::default();
        for event in &events {
            projection
                .apply_all(&mut one_by_one, std::slice::from_ref(event))
                .await
                .unwrap();
        }
        assert!(!one_run.is_empty(), "{} wrote nothing", projection.name());
        assert!(one_run == one_by_one, "{} differs", projection.name());
    }
}

/// `Projection::follows` is what lets a live batch skip a read model's transaction, so
/// it must name every aggregate type the projection writes rows for: given every event
/// of a generated workload, when a projection applies only the events of the other
/// aggregate types, then it writes nothing; with its own, it writes rows.
async fn a_projection_writes_nothing_for_aggregate_types_it_does_not_follow(db: &TestDb) {
    let database = &db.database;
    seed(database, 40).await.expect("seed");
    let events = EventLog::new(database)
        .read_after(LogPosition::START, 1_000_000)
        .await
        .unwrap();
    for projection in all() {
        let (followed, others): (Vec<_>, Vec<_>) = events
            .iter()
            .cloned()
            .partition(|e| projection.follows().contains(&e.aggregate_type.as_str()));
        assert!(
            !others.is_empty(),
            "{} follows every type",
            projection.name()
        );
        let mut store = projections::rows::MemoryStore::default();
        projection.apply_all(&mut store, &others).await.unwrap();
        assert!(
            store.is_empty(),
            "{} wrote rows for types it does not follow",
            projection.name()
        );
        projection.apply_all(&mut store, &followed).await.unwrap();
        assert!(
            !store.is_empty(),
            "{} wrote nothing for its own types",
            projection.name()
        );
    }
}

/// Given read models caught up, when one user's commands append only User events and
/// the group's reader takes them in one batch, then every read model's checkpoint is at
/// the batch's end (those that skipped it too), `user_profile` holds the user, and no
/// other read model's table changed.
async fn one_batch_moves_every_read_model_and_writes_only_the_tables_it_concerns(db: &TestDb) {
    let database = &db.database;
    seed(database, 5).await.expect("seed");
    let reader = Runner::group(database, all());
    reader.catch_up().await.unwrap();
    let before = hashes(database).await;
    let users = CommandBus::<User>::new(
        database,
        user_services(Arc::new(FixedClock::at(test_now()))),
    );
    let user_id = Uuid::now_v7();
    for command in onboarding(user_id) {
        users
            .execute(
                &user_id.to_string(),
                command,
                Actor::User(user_id).metadata("test", None),
            )
            .await
            .expect("onboarding step");
    }
    let head = EventLog::new(database).head().await.unwrap();
    assert_eq!(reader.step().await.unwrap(), onboarding(user_id).len());
    for projection in all() {
        assert_eq!(
            read_checkpoint(database, projection.name()).await.unwrap(),
            head,
            "{}'s checkpoint",
            projection.name()
        );
    }
    let after = hashes(database).await;
    for ((projection, before), after) in all().iter().zip(&before).zip(&after) {
        assert_eq!(
            before == after,
            projection.name() != "users",
            "{}'s tables",
            projection.name()
        );
    }
    let profile = dump_table(database, &USER_PROFILE).await.unwrap();
    assert!(profile
        .iter()
        .any(|row| text(row, "user_id") == user_id.to_string()));
    // Nothing is left for the next step, and the tables are what a rebuild gives.
    assert_eq!(reader.step().await.unwrap(), 0);
    let report = verify(database).await.unwrap();
    assert!(report.is_clean(), "{report:?}");
}

/// Given two checkpoints and a third worker that moved one of them, when a worker moves
/// both from where it believes they are, then it fails naming them and, rolled back,
/// neither moved: a batch is never recorded as applied by one read model and not another
/// that shared its transaction.
async fn checkpoints_move_all_together_or_not_at_all(db: &TestDb) {
    let database = &db.database;
    for name in ["first", "second"] {
        projections::consumer::runner::ensure_checkpoint(database, name)
            .await
            .unwrap();
    }
    let at = |global_position| LogPosition {
        transaction_id: 1,
        global_position,
    };
    // Another worker moves "second" to 3.
    let mut tx = projections::consumer::runner::begin(database)
        .await
        .unwrap();
    projections::consumer::runner::advance_checkpoint(&mut tx, "second", LogPosition::START, at(3))
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let mut tx = projections::consumer::runner::begin(database)
        .await
        .unwrap();
    let error = projections::consumer::runner::advance_checkpoints(
        &mut tx,
        &[
            ("first", LogPosition::START),
            ("second", LogPosition::START),
        ],
        at(7),
    )
    .await
    .expect_err("second was moved by another worker");
    assert!(error.to_string().contains("first, second"), "{error}");
    drop(tx);
    assert_eq!(
        read_checkpoint(database, "first").await.unwrap(),
        LogPosition::START
    );
    assert_eq!(read_checkpoint(database, "second").await.unwrap(), at(3));
    // From where they really are, both move in one statement.
    let mut tx = projections::consumer::runner::begin(database)
        .await
        .unwrap();
    projections::consumer::runner::advance_checkpoints(
        &mut tx,
        &[("first", LogPosition::START), ("second", at(3))],
        at(7),
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(read_checkpoint(database, "first").await.unwrap(), at(7));
    assert_eq!(read_checkpoint(database, "second").await.unwrap(), at(7));
}

async fn a_generated_workload_verifies_and_rebuilds_to_the_same_tables(db: &TestDb) {
    let database = &db.database;
    let report = seed(database, 130).await.expect("seed");
    assert_eq!(report.orders, 130);
    catch_up_all(database).await;
    let verified = verify(database).await.unwrap();
    assert!(verified.is_clean(), "{:?}", verified.drifts);
    assert_eq!(verified.events, report.events);
    // Every status of 4.3 is present.
    let statuses: std::collections::BTreeSet<String> = dump_table(database, &ORDER_LIST)
        .await
        .unwrap()
        .iter()
        .map(|r| text(r, "status"))
        .collect();
    for status in ["0", "1", "2", "3", "4", "5", "9", "10", "11", "12", "13"] {
        assert!(
            statuses.contains(status),
            "status {status} missing: {statuses:?}"
        );
    }
    let live = hashes(database).await;
    rebuild(database, &all(), &mut |_| {}).await.unwrap();
    assert_eq!(
        hashes(database).await,
        live,
        "rebuilt read models are identical to the live ones"
    );
    // Verify catches drift: tamper with one row.
    let tamper =
        "update wallet set cash = '1.00' where user_id = (select min(user_id) from wallet)";
    match database {
        Database::Sqlite { pool, .. } => {
            sqlx::query(tamper).execute(pool).await.unwrap();
        }
        Database::Postgres(pool) => {
            sqlx::query(tamper).execute(pool).await.unwrap();
        }
    }
    let tampered = verify(database).await.unwrap();
    assert!(!tampered.is_clean());
    assert!(
        tampered.drifts.iter().any(|d| d.contains("wallets.wallet")),
        "{:?}",
        tampered.drifts
    );
}

/// Fails its first three steps, then works: the worker must report and retry.
struct Flaky {
    failures_left: std::sync::atomic::AtomicUsize,
}

#[async_trait::async_trait]
impl Projection for Flaky {
    fn name(&self) -> &'static str {
        "flaky"
    }
    fn tables(&self) -> &'static [&'static projections::rows::TableSpec] {
        &[]
    }
    fn follows(&self) -> &'static [&'static str] {
        &["User", "Order", "Wallet"]
    }
    async fn apply_all(
        &self,
        _store: &mut dyn projections::rows::RowStore,
        _events: &[projections::store::StoredEvent],
    ) -> Result<(), projections::ProjectionError> {
        use std::sync::atomic::Ordering;
        let left = self.failures_left.load(Ordering::SeqCst);
        if left > 0 {
            self.failures_left.store(left - 1, Ordering::SeqCst);
            return Err(projections::ProjectionError::Failpoint("flaky projection"));
        }
        Ok(())
    }
}

on_both_stores!(
    a_failing_projection_is_reported_and_retried_until_it_catches_up,
    workers_wake_on_new_events_without_waiting_for_the_poll,
);

async fn a_failing_projection_is_reported_and_retried_until_it_catches_up(db: &TestDb) {
    let database = &db.database;
    seed(database, 3).await.unwrap();
    let board = projections::consumer::runner::Checkpoints::default();
    let runner = Runner::new(
        database,
        Arc::new(Flaky {
            failures_left: 3.into(),
        }),
    )
    .with_checkpoints(board.clone());
    let stats = runner.stats();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let wakeup = Arc::new(tokio::sync::Notify::new());
    let task = tokio::spawn(runner.run(
        projections::consumer::lease::Leases::for_database(database),
        wakeup,
        std::time::Duration::from_millis(20),
        stopped,
    ));
    let head = EventLog::new(database).head().await.unwrap();
    let caught_up = projections::consumer::runner::wait_for_checkpoints(
        database,
        &board,
        &["flaky"],
        head,
        std::time::Duration::from_secs(10),
    )
    .await
    .unwrap();
    stop.send(true).unwrap();
    task.await.unwrap();
    assert!(caught_up, "the worker kept going after its failures");
    assert_eq!(stats.failures.load(std::sync::atomic::Ordering::SeqCst), 3);
    assert!(stats
        .last_error
        .lock()
        .unwrap()
        .as_deref()
        .unwrap()
        .contains("flaky projection"));
}

async fn workers_wake_on_new_events_without_waiting_for_the_poll(db: &TestDb) {
    let database = &db.database;
    let wakeup = projections::consumer::runner::wakeup_for(database).await;
    let board = projections::consumer::runner::Checkpoints::default();
    let runner = Runner::new(database, projections::projection::by_name("users").unwrap())
        .with_checkpoints(board.clone());
    let (stop, stopped) = tokio::sync::watch::channel(false);
    // A one-minute poll: only a wake-up can make the worker react within the test.
    let task = tokio::spawn(runner.run(
        projections::consumer::lease::Leases::for_database(database),
        wakeup.clone(),
        std::time::Duration::from_secs(60),
        stopped,
    ));
    tokio::time::sleep(std::time::Duration::from_millis(300)).await; // idle and waiting
    seed(database, 1).await.unwrap();
    if matches!(database, Database::Sqlite { .. }) {
        wakeup.notify_waiters(); // in-process writers poke the worker; PostgreSQL uses NOTIFY
    }
    let head = EventLog::new(database).head().await.unwrap();
    let woke = projections::consumer::runner::wait_for_checkpoints(
        database,
        &board,
        &["users"],
        head,
        std::time::Duration::from_secs(10),
    )
    .await
    .unwrap();
    stop.send(true).unwrap();
    task.await.unwrap();
    assert!(
        woke,
        "the worker applied the new events long before its poll interval"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_runners_on_one_postgres_end_as_one() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let database = &db.database;
    seed(database, 52).await.expect("seed");
    let projections: Vec<Arc<dyn Projection>> = all();
    let mut tasks = Vec::new();
    for _ in 0..2 {
        for projection in &projections {
            let runner = Runner::new(database, projection.clone()).with_batch_size(20);
            tasks.push(tokio::spawn(async move {
                // Each worker retries a lost compare-and-set, as the real loop does.
                loop {
                    match runner.catch_up().await {
                        Ok(_) => return,
                        Err(projections::ProjectionError::CheckpointMoved(_)) => continue,
                        Err(other) => panic!("{other}"),
                    }
                }
            }));
        }
    }
    for task in tasks {
        task.await.unwrap();
    }
    let concurrent = hashes(database).await;
    rebuild(database, &all(), &mut |_| {}).await.unwrap();
    assert_eq!(hashes(database).await, concurrent);
    let verified = verify(database).await.unwrap();
    assert!(verified.is_clean(), "{:?}", verified.drifts);
    db.teardown().await;
}

/// Migration 0017 on a `user_profile` row the projection wrote before it: the hashes
/// go, the rest of the fold stays, and a row without a PIN keeps none.
async fn the_credentials_migration_redacts_the_rows_written_before_it(db: &TestDb) {
    let database = &db.database;
    let with_pin = User {
        mobile: "09171234567".into(),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$password".into(),
        pin_hash: Some("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$pin".into()),
        ..User::default()
    };
    let without_pin = User {
        pin_hash: None,
        ..with_pin.clone()
    };
    let insert =
        "insert into user_profile (user_id, mobile, identity_status, registered_at, doc, state) \
                  values ($1, '09171234567', 0, '', '{}', $2)";
    let migration = match database {
        Database::Sqlite { .. } => {
            include_str!("../../../migrations/sqlite/0017_user_profile_without_credentials.sql")
        }
        Database::Postgres(_) => {
            include_str!("../../../migrations/postgres/0017_user_profile_without_credentials.sql")
        }
    };
    for (id, user) in [("with-pin", &with_pin), ("without-pin", &without_pin)] {
        let state = serde_json::to_string(user).unwrap();
        match database {
            Database::Sqlite { pool, .. } => sqlx::query(insert)
                .bind(id)
                .bind(state)
                .execute(pool)
                .await
                .map(drop),
            Database::Postgres(pool) => sqlx::query(insert)
                .bind(id)
                .bind(state)
                .execute(pool)
                .await
                .map(drop),
        }
        .unwrap();
    }
    match database {
        Database::Sqlite { pool, .. } => sqlx::raw_sql(migration).execute(pool).await.map(drop),
        Database::Postgres(pool) => sqlx::raw_sql(migration).execute(pool).await.map(drop),
    }
    .unwrap();
    let rows: BTreeMap<String, User> = dump_table(database, &USER_PROFILE)
        .await
        .unwrap()
        .iter()
        .map(|row| {
            (
                text(row, "user_id"),
                serde_json::from_str(&text(row, "state")).unwrap(),
            )
        })
        .collect();
    let mut expected = with_pin.clone();
    expected.password_hash = String::new();
    expected.pin_hash = Some(REDACTED_HASH.into());
    assert_eq!(rows["with-pin"], expected);
    expected.pin_hash = None;
    assert_eq!(rows["without-pin"], expected);
}
