//! Crypto-shredding (PRODUCT.md 12.6, ADR 0012) with a moved clock: a whole loan over
//! HTTP, then an auditor's erasure — refused while the loan is open and one day before
//! the retention period ends, accepted after it. Afterwards the books are the same
//! (trial balance, `verify` after a rebuild), the borrower is closed for good, and none
//! of the personal values the borrower entered is left anywhere: not in the raw bytes
//! of the SQLite file (or any table's text on PostgreSQL), not in the export, not in
//! the stored images, not in anything logged along the way.

use std::sync::Arc;

use aggregates::services::doubles::{test_now, FixedClock};
use api::workflows::erasure::ErasureWorker;
use chrono::{Duration, Months};
use projections::consumer::Workflow;
use projections::store::{Database, EventLog, LogPosition};
use serde_json::{json, Value};

use crate::helpers::{logs, TestApp};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn erasure_after_the_retention_period_leaves_no_personal_value_on_sqlite() {
    let clock = Arc::new(FixedClock::at(test_now()));
    let app = TestApp::sqlite_at(clock.clone()).await;
    let ((), logged) = logs::capture(erasure_journey(&app, &clock)).await;
    let left = personal_values()
        .into_iter()
        .filter(|value| logged.contains(value.as_str()))
        .collect::<Vec<_>>();
    assert!(left.is_empty(), "logged: {left:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn erasure_after_the_retention_period_leaves_no_personal_value_on_postgres() {
    let clock = Arc::new(FixedClock::at(test_now()));
    if let Some(app) = TestApp::postgres_at(clock.clone()).await {
        erasure_journey(&app, &clock).await;
    }
}

/// An erasure and an application sent at the same moment: the User decides one after
/// the other, so either the application is refused (the account is erased) or the
/// erasure is (an order is open) — never both through, never a half-erased borrower
/// with a new loan.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_erasure_racing_an_application_lets_exactly_one_through() {
    let clock = Arc::new(FixedClock::at(test_now()));
    let app = TestApp::sqlite_at(clock.clone()).await;
    let mobile = "09174440002";
    let (_, user_id) = app.qualified_borrower(mobile).await;
    // Five years after registration, never borrowed: erasable, and still able to apply.
    clock.set(test_now() + Months::new(60));
    let login = json!({"mobile": mobile, "password": "secret-pass"});
    let token = app.ok("/jackey/user/login", None, login).await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, auditor) = app.auditor("privacy-racer").await;
    let terms = json!({"amt": "100000", "periodDays": 6, "appId": 1, "configId": 1});
    let (erased, applied) = tokio::join!(
        app.post(
            "/admin/api/users/erase",
            Some(&auditor),
            json!({ "userId": user_id })
        ),
        app.post("/jackey/loan/apply", Some(&token), terms),
    );
    app.quiesce().await;
    let user = app.state.users.load(&user_id.to_string()).await.unwrap();
    if erased["code"] == 0 {
        assert_ne!(applied["code"], 0, "{applied}");
        assert!(user.erased_at.is_some() && user.open_order.is_none());
    } else {
        assert_eq!(erased["code"], 40005, "{erased}");
        assert_eq!(applied["code"], 0, "{applied}");
        assert!(user.erased_at.is_none() && user.open_order.is_some());
    }
}

const MOBILE: &str = "09174440001";

/// Everything personal the borrower enters below, as it would be stored.
fn personal_values() -> Vec<String> {
    [
        MOBILE,
        "Dolores Erasmo",
        "59174440001",
        "b09174440001@example.ph",
        "1995-03-14",
        "12 Mabini St",
        "001234567890",
        "Fidel Erasmo",
        "09998887771",
        "https://facebook.com/dolores.erasmo",
        "teacher",
        "tuition",
    ]
    .map(str::to_string)
    .to_vec()
}

async fn erasure_journey(app: &TestApp, clock: &FixedClock) {
    let (token, user_id, order_id) = app.applicant(MOBILE, "Dolores Erasmo").await;
    let t = Some(token.as_str());
    let facebook = json!({"facebook": "https://facebook.com/dolores.erasmo"});
    app.ok("/jackey/user/update", t, facebook).await;
    let contacts = json!({"contacts": [
        {"name": "Fidel Erasmo", "relation": "brother", "mobile": "09998887771"},
    ]});
    app.ok("/jackey/user/updateEmergency", t, contacts).await;
    let info = app.ok("/jackey/user/info", t, json!({})).await;
    let images: Vec<String> = ["frontImage", "backImage", "handHoldImage"]
        .iter()
        .map(|side| info["idImages"][side].as_str().unwrap().to_string())
        .chain([info["signatureImg"].as_str().unwrap().to_string()])
        .collect();

    // The loan is open: nothing can be erased (40005), and nothing is.
    let (_, auditor) = app.auditor("privacy-officer").await;
    let erase = json!({ "userId": user_id });
    app.fails(
        "/admin/api/users/erase",
        Some(&auditor),
        erase.clone(),
        40005,
    )
    .await;

    // Approved, 10,000 paid out, repaid in full with a payment page: closed (10).
    app.verify_identity(&user_id).await;
    app.approve(&token, &order_id).await;
    let withdraw = json!({"password": "246810", "withdrawAmount": "10000", "bankcard": "x", "loanOrderId": order_id});
    app.ok("/jackey/user/withdraw", t, withdraw).await;
    app.wait_status(&token, &order_id, 4).await;
    let page = app
        .ok("/jackey/loan/recharge", t, json!({"amt": "10000"}))
        .await;
    app.press(page.as_str().unwrap(), "outcome=paid").await;
    app.wait_status(&token, &order_id, 10).await;
    app.quiesce().await;
    let books = app
        .ok("/admin/api/ledger/trialBalance", Some(&auditor), json!({}))
        .await;
    let order_before = app
        .ok(
            "/admin/api/orders/detail",
            Some(&auditor),
            json!({ "orderId": order_id }),
        )
        .await;

    // One day before five years have passed since the loan closed: refused, with the
    // date the retention period ends.
    let closed_at = test_now();
    clock.set(closed_at + Months::new(60) - Duration::days(1));
    let (_, auditor) = app.auditor("privacy-officer-2").await;
    let refused = app
        .fails(
            "/admin/api/users/erase",
            Some(&auditor),
            erase.clone(),
            10004,
        )
        .await;
    let msg = refused["msg"].as_str().unwrap();
    assert!(
        msg.contains("retention") && msg.contains("2031"),
        "{refused}"
    );
    assert_personal_data_held(app, &auditor, &user_id).await;

    // Five years on: erased. The erasure workflow runs (quiesce waits for it).
    clock.set(closed_at + Months::new(60));
    app.ok("/admin/api/users/erase", Some(&auditor), erase.clone())
        .await;
    app.quiesce().await;
    // Erasing again changes nothing, and neither does the workflow's step run again
    // (as after a crash before its checkpoint moved).
    app.ok("/admin/api/users/erase", Some(&auditor), erase)
        .await;
    let log = EventLog::new(&app.state.database);
    let erased = log.read_after(LogPosition::START, 100_000).await.unwrap();
    let erased = erased
        .iter()
        .find(|event| event.event_type == "PersonalDataErased")
        .expect("recorded");
    ErasureWorker::new(app.state.clone())
        .react(erased)
        .await
        .expect("the step runs again without harm");

    // The books: the same trial balance; rebuilt from the log, `verify` is clean.
    let after = app
        .ok("/admin/api/ledger/trialBalance", Some(&auditor), json!({}))
        .await;
    assert_eq!(amounts(&after), amounts(&books), "the ledger is untouched");
    let holders: Vec<&Value> = after["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|account| &account["holder"])
        .filter(|holder| !holder.is_null())
        .collect();
    assert_eq!(holders, [&json!("[erased]"), &json!("[erased]")], "{after}");
    projections::rebuild::rebuild(
        &app.state.database,
        &projections::projection::all(),
        &mut |_| {},
    )
    .await
    .unwrap();
    let report = projections::verify::verify(&app.state.database)
        .await
        .unwrap();
    assert!(report.is_clean(), "{:?}", report.drifts);
    // The order keeps its amounts and status; the applicant reads erased.
    let order_after = app
        .ok(
            "/admin/api/orders/detail",
            Some(&auditor),
            json!({ "orderId": order_id }),
        )
        .await;
    for field in ["status", "principal", "totalRepay", "repaid", "periodViews"] {
        assert_eq!(order_after[field], order_before[field], "{field}");
    }

    // The borrower is closed for good: the session is gone and the number no longer
    // signs in.
    let info = app.post("/jackey/user/info", t, json!({})).await;
    assert_ne!(info["code"], 0, "{info}");
    let login = json!({"mobile": MOBILE, "password": "secret-pass"});
    let login = app.post("/jackey/user/login", None, login).await;
    assert_ne!(login["code"], 0, "{login}");

    // The stored photos and signature are deleted.
    for url in &images {
        let key = url.trim_start_matches("/files/");
        let stored = api::providers::storage::get(&app.state.storage, key)
            .await
            .unwrap();
        assert!(stored.is_none(), "{key} is still stored");
    }

    // The export reads erased, and holds none of the values.
    let export = app
        .ok(
            "/admin/api/users/dataExport",
            Some(&auditor),
            json!({ "userId": user_id }),
        )
        .await;
    assert_eq!(export["user"]["mobile"], "[erased]", "{}", export["user"]);
    assert_eq!(export["user"]["realName"], "[erased]", "{}", export["user"]);
    assert_eq!(
        export["user"]["birthday"],
        Value::Null,
        "{}",
        export["user"]
    );
    assert_none_in("the export", &export.to_string());

    // The order's documents still print, with the amounts and without the person.
    let order = json!({ "orderId": order_id });
    for path in [
        "/admin/api/documents/contractPdf",
        "/admin/api/documents/statementPdf",
    ] {
        let pdf = crate::documents::pdf(app, path, &auditor, order.clone())
            .await
            .unwrap_or_else(|refusal| panic!("{path}: {refusal}"));
        let text = crate::documents::text_of(&pdf);
        assert!(
            text.contains("10,000.00") && text.contains("[erased]"),
            "{path}: {text}"
        );
        assert_none_in(path, &text);
    }

    // Nothing in the database: every table's text, and on SQLite the file's bytes.
    assert_none_in("the tables", &all_tables_text(&app.state.database).await);
    if let Database::Sqlite { pool, .. } = &app.state.database {
        let path = pool.connect_options().get_filename().to_owned();
        let mut bytes = std::fs::read(&path).unwrap();
        if let Ok(wal) = std::fs::read(format!("{}-wal", path.display())) {
            bytes.extend(wal);
        }
        assert_none_in("the SQLite file", &String::from_utf8_lossy(&bytes));
    }
}

/// The trial balance without the holders' names.
fn amounts(trial_balance: &Value) -> Value {
    let mut amounts = trial_balance.clone();
    for account in amounts["accounts"].as_array_mut().unwrap() {
        account.as_object_mut().unwrap().remove("holder");
    }
    amounts
}

/// Before the erasure the auditor sees the borrower's data as entered.
async fn assert_personal_data_held(app: &TestApp, auditor: &str, user_id: &str) {
    let export = app
        .ok(
            "/admin/api/users/dataExport",
            Some(auditor),
            json!({ "userId": user_id }),
        )
        .await;
    assert_eq!(export["user"]["mobile"], MOBILE);
    assert_eq!(export["user"]["realName"], "Dolores Erasmo");
    // The search below can find them: the read models hold them until the erasure.
    let tables = all_tables_text(&app.state.database).await;
    assert!(tables.contains(MOBILE) && tables.contains("12 Mabini St"));
    // The event log holds none of them even now: they are sealed.
    let events = events_text(&app.state.database).await;
    assert!(events.contains("$sealed"), "{events}");
    assert_none_in("the events table", &events);
}

/// The text of every stored event's payload and metadata.
async fn events_text(database: &Database) -> String {
    let sql = "select cast(payload as text) || ' ' || cast(metadata as text) from events";
    let rows: Vec<String> = match database {
        Database::Sqlite { pool, .. } => sqlx::query_scalar(sql).fetch_all(pool).await.unwrap(),
        Database::Postgres(pool) => sqlx::query_scalar(sql).fetch_all(pool).await.unwrap(),
    };
    rows.join("\n")
}

fn assert_none_in(place: &str, text: &str) {
    let found: Vec<String> = personal_values()
        .into_iter()
        .filter(|value| text.contains(value.as_str()))
        .collect();
    assert!(found.is_empty(), "{place} still holds {found:?}");
}

/// The text of every row of every table (PostgreSQL: of the test's schema).
async fn all_tables_text(database: &Database) -> String {
    let mut text = String::new();
    match database {
        Database::Sqlite { pool, .. } => {
            let tables: Vec<String> = sqlx::query_scalar(
                "select name from sqlite_master where type = 'table' and name not like 'sqlite_%'",
            )
            .fetch_all(pool)
            .await
            .unwrap();
            for table in tables {
                let columns: Vec<String> =
                    sqlx::query_scalar(&format!("select name from pragma_table_info('{table}')"))
                        .fetch_all(pool)
                        .await
                        .unwrap();
                let row = columns
                    .iter()
                    .map(|c| format!("coalesce(cast(\"{c}\" as text), '')"))
                    .collect::<Vec<_>>()
                    .join(" || ' ' || ");
                // Blobs are not UTF-8: read bytes.
                let rows: Vec<Vec<u8>> =
                    sqlx::query_scalar(&format!("select cast({row} as blob) from \"{table}\""))
                        .fetch_all(pool)
                        .await
                        .unwrap();
                for row in rows {
                    text.push_str(&String::from_utf8_lossy(&row));
                    text.push('\n');
                }
            }
        }
        Database::Postgres(pool) => {
            let tables: Vec<String> = sqlx::query_scalar(
                "select table_name::text from information_schema.tables \
                 where table_schema = current_schema() and table_type = 'BASE TABLE'",
            )
            .fetch_all(pool)
            .await
            .unwrap();
            for table in tables {
                let rows: Vec<String> =
                    sqlx::query_scalar(&format!("select cast(t as text) from \"{table}\" t"))
                        .fetch_all(pool)
                        .await
                        .unwrap();
                text.push_str(&rows.join("\n"));
            }
        }
    }
    text
}
