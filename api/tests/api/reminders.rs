//! Due-date reminders and the inbox (PRODUCT.md 12.5, issue 16) with a moved clock:
//! each reminder is recorded, texted and shown once — across scheduler passes, a
//! restart (a new app over the same store, a workflow step repeated after a crash)
//! and two api processes running the scheduler at once on PostgreSQL; the inbox
//! lists newest first with its unread count, and `/user/notices/read` never touches
//! another borrower's notices.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use aggregates::order::{OrderCommand, OrderStatus, ReminderKind};
use aggregates::services::doubles::{test_now, FixedClock};
use aggregates::wallet::WalletCommand;
use aggregates::Actor;
use api::workflows::reminders::{ReminderWorker, REMINDER_WORKER};
use chrono::Days;
use projections::consumer::Workflow;
use projections::store::{Database, EventLog, LogPosition};
use rust_decimal::Decimal;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::helpers::{on_both_stores, TestApp};

/// A number from the first column of `sql`'s first row (one `$1` bound to `bind`).
async fn count(app: &TestApp, sql: &str, bind: &str) -> i64 {
    match &app.state.database {
        Database::Sqlite { pool, .. } => sqlx::query_scalar(sql).bind(bind).fetch_one(pool).await,
        Database::Postgres(pool) => sqlx::query_scalar(sql).bind(bind).fetch_one(pool).await,
    }
    .expect("the count runs")
}

/// Waits until the workflows (the reminder workflow included) and the read models
/// have handled the whole log.
pub(crate) async fn settle(app: &TestApp) {
    app.quiesce().await;
    let database = &app.state.database;
    let head = EventLog::new(database).head().await.unwrap();
    assert!(
        projections::consumer::runner::wait_for_checkpoints(
            database,
            &app.state.checkpoints,
            &[REMINDER_WORKER],
            head,
            Duration::from_secs(10),
        )
        .await
        .unwrap(),
        "the reminder workflow did not catch up"
    );
    app.quiesce().await;
}

/// A borrower of `mobile` with a disbursed loan of 100,000 over 6 days, paid out on
/// the clock's day (installment k due k days later): (token, user id, order id).
pub(crate) async fn disbursed(app: &TestApp, mobile: &str) -> (String, Uuid, String) {
    let (token, user_id) = app.qualified_borrower(mobile).await;
    let t = Some(token.as_str());
    let terms = json!({"amt": "100000", "periodDays": 6, "appId": 1});
    let order_id = app.ok("/jackey/loan/apply", t, terms).await["loanOrderId"]
        .as_str()
        .unwrap()
        .to_string();
    app.wait_status(&token, &order_id, 0).await;
    app.approve(&token, &order_id).await;
    let withdraw = json!({"password": "246810", "withdrawAmount": "100000", "bankcard": "x"});
    app.ok("/jackey/user/withdraw", t, withdraw).await;
    app.wait_status(&token, &order_id, 4).await;
    (token, user_id, order_id)
}

/// A paid payment page of `amount` on the order (the session, then the webhook's
/// recharge on the wallet), as `TestApp::paid_session` with a decimal amount.
pub(crate) async fn pay(app: &TestApp, user_id: Uuid, order_id: &str, amount: Decimal) {
    let session_id = Uuid::now_v7();
    let open = || OrderCommand::OpenPaymentSession { session_id, amount };
    app.state
        .execute(&app.state.orders, order_id, open, Actor::System, "test")
        .await
        .expect("the order opens the session");
    let recharge = || WalletCommand::RecordRecharge {
        payment_ref: format!("pay-{session_id}"),
        order_id: order_id.parse().unwrap(),
        amount,
        session_id: Some(session_id),
        received_at: None,
    };
    app.state
        .execute(
            &app.state.wallets,
            &user_id.to_string(),
            recharge,
            Actor::System,
            "webhook",
        )
        .await
        .expect("the recharge is recorded");
    app.wrote().await;
}

/// Pays installment 1 of `order_id` in full and waits until the borrower's order
/// shows it repaid; answers the order as `/loan/orderInfo` showed it before.
async fn pay_first_installment(app: &TestApp, token: &str, user_id: Uuid, order_id: &str) -> Value {
    let order = app
        .ok(
            "/jackey/loan/orderInfo",
            Some(token),
            json!({"loanOrderId": order_id}),
        )
        .await;
    let first_amount: Decimal = order["periodViews"][0]["amt"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    pay(app, user_id, order_id, first_amount).await;
    app.wait_order(
        token,
        order_id,
        "repaid",
        json!(format!("{first_amount:.2}")),
    )
    .await;
    order
}

/// Runs two scheduler passes on each day from the payout day to `last_day` (the
/// clock moved each time), letting the workers settle in between.
pub(crate) async fn days_pass(
    app: &TestApp,
    clock: &FixedClock,
    days: std::ops::RangeInclusive<u64>,
) {
    for day in days {
        clock.set(test_now() + Days::new(day));
        for _ in 0..2 {
            api::workflows::scheduler::run_once(&app.state)
                .await
                .unwrap();
        }
        settle(app).await;
    }
}

/// The borrower's whole inbox (one page of 100).
async fn inbox(app: &TestApp, token: &str) -> Value {
    app.ok(
        "/jackey/user/notices",
        Some(token),
        json!({"pageSize": 100}),
    )
    .await
}

/// The (installment, kind) pairs of an inbox page.
fn reminded(page: &Value) -> Vec<(u64, String)> {
    page["notices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["period"].as_u64().unwrap(),
                n["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The reminders a 6-day loan paid out on day 0 gets by day 8 when installment 1 is
/// paid on day 0: 3 days before (installments 3–6), 1 day before (all), overdue
/// (2–6).
fn expected_with_first_paid() -> BTreeSet<(u64, String)> {
    let mut expected = BTreeSet::new();
    for period in 1..=6u64 {
        if period >= 3 {
            expected.insert((period, "due_in_3_days".to_string()));
        }
        expected.insert((period, "due_in_1_day".to_string()));
        if period >= 2 {
            expected.insert((period, "overdue".to_string()));
        }
    }
    expected
}

const REMINDER_SMS: &str = "select count(*) from sms_outbox where message_id like $1";
const REMINDER_EVENTS: &str =
    "select count(*) from events where event_type = 'ReminderDue' and aggregate_id = $1";

/// Every reminder once: scheduler passes twice a day for nine days, a paid
/// installment skipped, the SMS queued once each, then a restart (a new app on the
/// same store) that passes the same days again and repeats every workflow step,
/// recording and queueing nothing more.
async fn each_reminder_once_across_a_restart(clock: Arc<FixedClock>, app: TestApp) {
    let (token, user_id, order_id) = disbursed(&app, "09175550101").await;
    // Day 0 (payout day): installment 1 is due tomorrow, installment 3 in 3 days.
    days_pass(&app, &clock, 0..=0).await;
    let first = inbox(&app, &token).await;
    let day_zero: BTreeSet<_> = reminded(&first).into_iter().collect();
    assert_eq!(
        day_zero,
        BTreeSet::from([
            (1, "due_in_1_day".to_string()),
            (3, "due_in_3_days".to_string())
        ]),
        "{first}"
    );
    // Installment 1 is paid on day 0: it never becomes overdue, so no overdue notice.
    let order = pay_first_installment(&app, &token, user_id, &order_id).await;
    days_pass(&app, &clock, 1..=8).await;

    let page = inbox(&app, &token).await;
    let pairs = reminded(&page);
    let unique: BTreeSet<_> = pairs.iter().cloned().collect();
    assert_eq!(pairs.len(), unique.len(), "a reminder shown twice: {page}");
    assert_eq!(unique, expected_with_first_paid(), "{page}");
    // Installment 1's "due tomorrow" is settled by its payment: it asks for nothing
    // more and does not count as unread (issue 52); every other notice does.
    assert_eq!(
        (page["total"].clone(), page["unread"].clone()),
        (json!(15), json!(14))
    );
    for notice in page["notices"].as_array().unwrap() {
        let first = notice["period"] == 1;
        assert_eq!(notice["settled"], first, "{notice}");
    }
    // Newest first; amounts as two-decimal strings; the due date of each installment.
    let notices = page["notices"].as_array().unwrap();
    let times: Vec<&str> = notices
        .iter()
        .map(|n| n["createdAt"].as_str().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "{times:?}");
    assert_eq!(notices[0]["kind"], "overdue");
    assert_eq!(notices[0]["period"], 6);
    for notice in notices {
        let amount = notice["amount"].as_str().unwrap();
        assert!(
            amount.split_once('.').is_some_and(|(_, c)| c.len() == 2),
            "{amount}"
        );
        assert_eq!(notice["orderId"], order_id.as_str());
        assert_eq!(notice["readAt"], Value::Null);
        let period = notice["period"].as_u64().unwrap() as usize;
        assert_eq!(
            notice["dueDate"],
            order["periodViews"][period - 1]["dueDate"]
        );
    }
    let like = format!("reminder:{order_id}:%");
    assert_eq!(count(&app, REMINDER_EVENTS, &order_id).await, 15);
    assert_eq!(count(&app, REMINDER_SMS, &like).await, 15);
    let text = app
        .scalar(
            "select body from sms_outbox where message_id like $1 order by created_at desc limit 1",
            &like,
        )
        .await
        .unwrap();
    assert!(text.contains("installment 6 of PHP "), "{text}");
    assert!(
        text.contains("is now overdue. You can pay in the app under Repay."),
        "{text}"
    );
    let to_borrower =
        "select count(*) from sms_outbox where message_id like $1 and mobile = '09175550101'";
    assert_eq!(count(&app, to_borrower, &like).await, 15);

    // A restart: a new app (state, pools, workers) on the same store at the same clock.
    let again = TestApp::over_at(
        app.state.database.clone(),
        Some(app.state.storage.clone()),
        clock.clone(),
    )
    .await;
    days_pass(&again, &clock, 0..=8).await;
    // The reminder workflow repeats every step, as after a crash before its checkpoint.
    let worker = ReminderWorker::new(again.state.clone());
    let log = EventLog::new(&again.state.database)
        .read_after(LogPosition::START, 10_000)
        .await
        .unwrap();
    let mut repeated = 0;
    for event in log.iter().filter(|e| worker.reacts_to(e)) {
        worker.react(event).await.unwrap();
        repeated += 1;
    }
    assert_eq!(repeated, 15);
    settle(&again).await;
    assert_eq!(count(&again, REMINDER_EVENTS, &order_id).await, 15);
    assert_eq!(count(&again, REMINDER_SMS, &like).await, 15);
    let after = inbox(&again, &token).await;
    assert_eq!(after["total"], 15, "{after}");
    // The notices are a read model like the others: a fresh rebuild gives the same rows.
    let report = projections::verify::verify(&again.state.database)
        .await
        .unwrap();
    assert!(report.is_clean(), "{:?}", report.drifts);
}

/// A reminder due at 23:00 in Manila is queued for 06:00 the next morning (P15, issue
/// 53): the relay finds nothing to send at night and sends it at six.
async fn a_reminder_at_night_waits_for_the_morning(clock: Arc<FixedClock>, app: TestApp) {
    let (_, _, order_id) = disbursed(&app, "09175550131").await;
    // 15:00 UTC is 23:00 in Manila: the payout day's reminders are recorded now.
    let night = test_now() + chrono::Duration::hours(6);
    clock.set(night);
    for _ in 0..2 {
        api::workflows::scheduler::run_once(&app.state)
            .await
            .unwrap();
    }
    settle(&app).await;
    let like = format!("reminder:{order_id}:%");
    assert_eq!(count(&app, REMINDER_SMS, &like).await, 2);
    // 06:00 in Manila is 22:00 UTC the same day.
    let morning = night + chrono::Duration::hours(7);
    let held = "select next_attempt_at from sms_outbox where message_id like $1";
    let at = app.scalar(held, &like).await.unwrap();
    assert_eq!(at, projections::projection::time_text(morning));
    let due = |now| api::db::sms_outbox::due(&app.state.database, 10, now, 100);
    let ours = |rows: Vec<api::db::sms_outbox::Waiting>| {
        rows.into_iter()
            .filter(|row| row.message_id.starts_with(&format!("reminder:{order_id}")))
            .count()
    };
    assert_eq!(
        ours(due(night).await.unwrap()),
        0,
        "nothing is sent at 23:00"
    );
    let before_six = morning - chrono::Duration::seconds(1);
    assert_eq!(ours(due(before_six).await.unwrap()), 0);
    assert_eq!(ours(due(morning).await.unwrap()), 2, "both at 06:00");
}

on_both_stores!(
    at_a_fixed_clock: a_reminder_at_night_waits_for_the_morning,
    a_reminder_at_night_waits_for_the_morning_on_sqlite,
    a_reminder_at_night_waits_for_the_morning_on_postgres
);

/// A reminder's SMS step that runs late (a backlog, a restart) sends nothing that is
/// no longer true: not after the installment was paid, nor after its window closed.
async fn a_late_step_sends_no_stale_text(clock: Arc<FixedClock>, app: TestApp) {
    let (token, user_id, order_id) = disbursed(&app, "09175550121").await;
    // Day 0: installment 1 is due tomorrow, installment 3 in 3 days.
    days_pass(&app, &clock, 0..=0).await;
    let like = format!("reminder:{order_id}:%");
    assert_eq!(count(&app, REMINDER_SMS, &like).await, 2);
    pay_first_installment(&app, &token, user_id, &order_id).await;
    // The workflow's step on each recorded reminder, run again now with the texts
    // gone from the outbox (as a step that had not run yet would find them).
    let worker = ReminderWorker::new(app.state.clone());
    let step_again = || async {
        assert!(
            app.sql(&format!(
                "delete from sms_outbox where message_id like '{like}'"
            ))
            .await
                > 0
        );
        let log = EventLog::new(&app.state.database)
            .read_after(LogPosition::START, 10_000)
            .await
            .unwrap();
        for event in log.iter().filter(|e| worker.reacts_to(e)) {
            worker.react(event).await.unwrap();
        }
    };
    step_again().await;
    let texts = "select body from sms_outbox where message_id like $1";
    let text = app.scalar(texts, &like).await.unwrap_or_default();
    assert_eq!(count(&app, REMINDER_SMS, &like).await, 1, "{text}");
    assert!(
        text.contains("installment 3 of PHP "),
        "only the unpaid one: {text}"
    );
    // Day 2: installment 3's "3 days before" window (days 0 and 1) has closed.
    clock.set(test_now() + Days::new(2));
    step_again().await;
    assert_eq!(count(&app, REMINDER_SMS, &like).await, 0);
}

on_both_stores!(
    at_a_fixed_clock: a_late_step_sends_no_stale_text,
    a_late_step_sends_no_stale_text_on_sqlite,
    a_late_step_sends_no_stale_text_on_postgres
);

on_both_stores!(
    at_a_fixed_clock: each_reminder_once_across_a_restart,
    each_reminder_once_across_a_restart_on_sqlite,
    each_reminder_once_across_a_restart_on_postgres
);

/// Two api processes (two pools, two sets of workers and schedulers) pass the same
/// days at the same moment, each twice: every reminder is recorded, shown and queued
/// once (optimistic concurrency decides; the loser's retry finds it done).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_remind_once_on_postgres() {
    let clock = Arc::new(FixedClock::at(test_now()));
    let Some((a, b)) = TestApp::postgres_pair_at(clock.clone()).await else {
        return;
    };
    let (token, _, order_id) = disbursed(&a, "09175550301").await;
    b.wait_status(&token, &order_id, 4).await;
    // The same reminder asked for eight times at once from both processes, with no
    // read model to filter: the order records it once.
    let mut asks = tokio::task::JoinSet::new();
    for i in 0..8 {
        let state = if i % 2 == 0 { &a.state } else { &b.state }.clone();
        let order_id = order_id.clone();
        asks.spawn(async move {
            let command = || OrderCommand::SendReminder {
                period: 1,
                kind: ReminderKind::DueIn1Day,
            };
            state
                .execute(&state.orders, &order_id, command, Actor::System, "test")
                .await
                .map(|events| events.len())
        });
    }
    let asks = asks.join_all().await;
    let recorded: usize = asks.into_iter().map(Result::unwrap).sum();
    assert_eq!(recorded, 1);
    assert_eq!(count(&a, REMINDER_EVENTS, &order_id).await, 1);
    for day in 0..=8 {
        clock.set(test_now() + Days::new(day));
        let (x, y, z, w) = tokio::join!(
            api::workflows::scheduler::run_once(&a.state),
            api::workflows::scheduler::run_once(&b.state),
            api::workflows::scheduler::run_once(&a.state),
            api::workflows::scheduler::run_once(&b.state),
        );
        for outcome in [x, y, z, w] {
            outcome.unwrap();
        }
        settle(&a).await;
        settle(&b).await;
    }
    // Nothing repaid: 3 days before (3–6), 1 day before (1–6), overdue (1–6).
    let like = format!("reminder:{order_id}:%");
    assert_eq!(count(&a, REMINDER_EVENTS, &order_id).await, 16);
    assert_eq!(count(&a, REMINDER_SMS, &like).await, 16);
    for app in [&a, &b] {
        let page = inbox(app, &token).await;
        let pairs = reminded(&page);
        let unique: BTreeSet<_> = pairs.iter().cloned().collect();
        assert_eq!((pairs.len(), unique.len()), (16, 16), "{page}");
    }
}

/// Days without a scheduler pass (an outage over days 1 and 2): the next pass, on
/// day 3, makes up the reminders still open (each kind until the next kind's day, the
/// overdue one for a week), once each, and skips those another kind has replaced.
async fn missed_days_are_made_up(clock: Arc<FixedClock>, app: TestApp) {
    let (token, _, order_id) = disbursed(&app, "09175550211").await;
    days_pass(&app, &clock, 0..=0).await;
    days_pass(&app, &clock, 3..=3).await;
    let got: BTreeSet<_> = reminded(&inbox(&app, &token).await).into_iter().collect();
    let expected: BTreeSet<(u64, String)> = [
        // Day 0, on time.
        (1, "due_in_1_day"),
        (3, "due_in_3_days"),
        // Day 3: installments 1 and 2 overdue (since days 2 and 3), 3 due today, 4
        // due tomorrow, 5 and 6 due in two and three days.
        (1, "overdue"),
        (2, "overdue"),
        (3, "due_in_1_day"),
        (4, "due_in_1_day"),
        (5, "due_in_3_days"),
        (6, "due_in_3_days"),
    ]
    .into_iter()
    .map(|(period, kind)| (period, kind.to_string()))
    .collect();
    // Installment 2's 1-day reminder (day 1) and 4's 3-day one (day 1) are not sent
    // late: a later reminder of the same installment stands in for each.
    assert_eq!(got, expected);
    assert_eq!(count(&app, REMINDER_EVENTS, &order_id).await, 8);
    let sms = format!("reminder:{order_id}:%");
    assert_eq!(count(&app, REMINDER_SMS, &sms).await, 8);
    // Back to one pass a day: day 4 adds only what opens on it (installment 3
    // overdue, 5 due tomorrow); nothing recorded on day 3 is sent again.
    days_pass(&app, &clock, 4..=4).await;
    let got: BTreeSet<_> = reminded(&inbox(&app, &token).await).into_iter().collect();
    let added: Vec<_> = got.difference(&expected).cloned().collect();
    assert_eq!(
        added,
        vec![(3, "overdue".to_string()), (5, "due_in_1_day".to_string())]
    );
    assert_eq!(count(&app, REMINDER_SMS, &sms).await, 10);
}

on_both_stores!(
    at_a_fixed_clock: missed_days_are_made_up,
    missed_days_are_made_up_on_sqlite,
    missed_days_are_made_up_on_postgres
);

/// Whom a pass visits (`schedule::orders_due`): a loan on the days it has something
/// due, not again once that is recorded; a row from before the column existed; and
/// an order that fails (a row with no events behind it) does not stop the pass for
/// the others.
async fn a_pass_visits_only_the_loans_with_something_due(clock: Arc<FixedClock>, app: TestApp) {
    let (token, _, order_id) = disbursed(&app, "09175550231").await;
    // 09:00 UTC on day n.
    let day = |n: u64| test_now() + Days::new(n);
    let due = |at| {
        projections::reads::schedule::orders_due(&app.state.database, OrderStatus::Disbursed, at)
    };
    let ids =
        |loans: Vec<(String, String)>| loans.into_iter().map(|(id, _)| id).collect::<Vec<_>>();
    // Paid out today: installment 1's 1-day reminder and 3's 3-day one open today.
    assert_eq!(ids(due(day(0)).await.unwrap()), vec![order_id.clone()]);
    days_pass(&app, &clock, 0..=0).await;
    // Recorded: nothing more today; tomorrow installment 2's 1-day reminder opens.
    assert!(due(day(0)).await.unwrap().is_empty());
    assert_eq!(ids(due(day(1)).await.unwrap()), vec![order_id.clone()]);
    let next = "select next_scheduled_at from order_detail where order_id = $1";
    let next: String = match &app.state.database {
        Database::Sqlite { pool, .. } => {
            sqlx::query_scalar(next)
                .bind(&order_id)
                .fetch_one(pool)
                .await
        }
        Database::Postgres(pool) => {
            sqlx::query_scalar(next)
                .bind(&order_id)
                .fetch_one(pool)
                .await
        }
    }
    .unwrap();
    assert_eq!(next, "2026-11-22T16:00:00.000000Z", "00:00 Manila on day 1");
    // A row with no day (written before migration 0016) is visited, and so is one
    // with no events behind it; the second fails its commands, the first is reminded.
    let sql = [
        "update order_detail set next_scheduled_at = '' where order_id = $1",
        "insert into order_detail (order_id, user_id, status, applied_at, doc, state, next_scheduled_at) \
         select 'ghost-order', user_id, status, applied_at, doc, state, '' from order_detail where order_id = $1",
    ];
    for sql in sql {
        match &app.state.database {
            Database::Sqlite { pool, .. } => sqlx::query(sql)
                .bind(&order_id)
                .execute(pool)
                .await
                .map(drop),
            Database::Postgres(pool) => sqlx::query(sql)
                .bind(&order_id)
                .execute(pool)
                .await
                .map(drop),
        }
        .unwrap();
    }
    let visited: BTreeSet<_> = ids(due(day(0)).await.unwrap()).into_iter().collect();
    assert_eq!(
        visited,
        BTreeSet::from(["ghost-order".to_string(), order_id.clone()])
    );
    days_pass(&app, &clock, 1..=1).await;
    let got: BTreeSet<_> = reminded(&inbox(&app, &token).await).into_iter().collect();
    assert!(got.contains(&(2, "due_in_1_day".to_string())), "{got:?}");
    assert_eq!(
        ids(due(day(1)).await.unwrap()),
        vec!["ghost-order".to_string()]
    );
}

on_both_stores!(
    at_a_fixed_clock: a_pass_visits_only_the_loans_with_something_due,
    a_pass_visits_only_the_loans_with_something_due_on_sqlite,
    a_pass_visits_only_the_loans_with_something_due_on_postgres
);

/// The inbox: newest first with counts, pages, marking read some or all, and no way
/// to list or mark another borrower's notices; bad input answers 10004.
async fn the_inbox_is_the_borrowers_own(clock: Arc<FixedClock>, app: TestApp) {
    let (token, _, _) = disbursed(&app, "09175550201").await;
    days_pass(&app, &clock, 0..=3).await;
    let t = Some(token.as_str());
    let page = inbox(&app, &token).await;
    // Day 0: 1/1d, 3/3d; day 1: 2/1d, 4/3d; day 2: 1/overdue, 3/1d, 5/3d; day 3: 2/od, 4/1d, 6/3d.
    assert_eq!(
        (page["total"].clone(), page["unread"].clone()),
        (json!(10), json!(10))
    );
    let ids: Vec<String> = page["notices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_str().unwrap().to_string())
        .collect();
    // Pages follow the same order.
    let second = app
        .ok("/jackey/user/notices", t, json!({"page": 2, "pageSize": 4}))
        .await;
    let second_ids: Vec<&str> = second["notices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        second_ids,
        ids[4..8].iter().map(String::as_str).collect::<Vec<_>>()
    );
    assert_eq!(
        (second["page"].clone(), second["pageSize"].clone()),
        (json!(2), json!(4))
    );
    let past_the_end = app
        .ok("/jackey/user/notices", t, json!({"page": 9, "pageSize": 4}))
        .await;
    assert_eq!(past_the_end["notices"], json!([]));
    assert_eq!(past_the_end["unread"], 10);

    // Another borrower sees none of them and can mark none of them.
    let other = app.register("09175550202").await;
    let o = Some(other.as_str());
    let theirs = app.ok("/jackey/user/notices", o, json!({})).await;
    assert_eq!(
        (
            theirs["total"].clone(),
            theirs["unread"].clone(),
            theirs["notices"].clone()
        ),
        (json!(0), json!(0), json!([]))
    );
    let marked = app
        .ok("/jackey/user/notices/read", o, json!({"ids": ids.clone()}))
        .await;
    assert_eq!(marked["marked"], 0);
    let marked = app
        .ok("/jackey/user/notices/read", o, json!({"all": true}))
        .await;
    assert_eq!(marked["marked"], 0);
    assert_eq!(inbox(&app, &token).await["unread"], 10);

    // The borrower marks two, then the same two again (nothing new), then all.
    let two = json!({"ids": [ids[0], ids[1]]});
    let marked = app.ok("/jackey/user/notices/read", t, two.clone()).await;
    assert_eq!(marked["marked"], 2);
    let marked = app.ok("/jackey/user/notices/read", t, two).await;
    assert_eq!(marked["marked"], 0);
    let page = inbox(&app, &token).await;
    assert_eq!(page["unread"], 8);
    let notices = page["notices"].as_array().unwrap();
    assert!(notices[0]["readAt"].is_string() && notices[1]["readAt"].is_string());
    assert!(notices[2..].iter().all(|n| n["readAt"].is_null()));
    let marked = app
        .ok("/jackey/user/notices/read", t, json!({"all": true}))
        .await;
    assert_eq!(marked["marked"], 8);
    assert_eq!(inbox(&app, &token).await["unread"], 0);

    // Bad input: 10004 naming the field, never a 500.
    for (path, body, field) in [
        ("/jackey/user/notices/read", json!({}), "ids"),
        ("/jackey/user/notices/read", json!({"ids": []}), "ids"),
        ("/jackey/user/notices/read", json!({"ids": [""]}), "ids"),
        (
            "/jackey/user/notices/read",
            json!({"ids": ["x".repeat(65)]}),
            "ids",
        ),
        (
            "/jackey/user/notices/read",
            json!({"ids": vec!["x"; 101]}),
            "ids",
        ),
        ("/jackey/user/notices/read", json!({"ids": "all"}), "ids"),
        ("/jackey/user/notices", json!({"page": 0}), "page"),
        ("/jackey/user/notices", json!({"pageSize": 0}), "pageSize"),
        ("/jackey/user/notices", json!({"pageSize": 101}), "pageSize"),
    ] {
        let refused = app.fails(path, t, body.clone(), 10004).await;
        assert!(
            refused["msg"].as_str().unwrap().contains(field),
            "{body}: {refused}"
        );
    }
    // Without a session: 401.
    app.fails("/jackey/user/notices", None, json!({}), 401)
        .await;
    app.fails("/jackey/user/notices/read", None, json!({"all": true}), 401)
        .await;
}

on_both_stores!(
    at_a_fixed_clock: the_inbox_is_the_borrowers_own,
    the_inbox_is_the_borrowers_own_on_sqlite,
    the_inbox_is_the_borrowers_own_on_postgres
);
