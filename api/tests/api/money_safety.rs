//! Requests that move money: Idempotency-Key, and many parallel withdrawals of one
//! order giving exactly one payout.

use serde_json::json;

use crate::helpers::{futures_join, TestApp};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn money_safety_on_sqlite() {
    money_safety(TestApp::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn money_safety_on_postgres() {
    if let Some(app) = TestApp::postgres().await {
        money_safety(app).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn idempotency_survives_a_crash_on_sqlite() {
    idempotency_after_a_crash(TestApp::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn idempotency_survives_a_crash_on_postgres() {
    if let Some(app) = TestApp::postgres().await {
        idempotency_after_a_crash(app).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_repeat_after_still_processing_on_sqlite() {
    a_repeat_after_still_processing(TestApp::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_repeat_after_still_processing_on_postgres() {
    if let Some(app) = TestApp::postgres().await {
        a_repeat_after_still_processing(app).await;
    }
}

/// An apply answered "still being processed" (40003: the loan workflow, stopped here,
/// had not opened the order within the wait) has opened the application. Its repeat
/// with the same key names the same order and, once the workflow runs, answers it:
/// not a refusal as a second application (40005) beside the first.
async fn a_repeat_after_still_processing(app: TestApp) {
    let (token, user_id) = app.qualified_borrower("09175550019").await;
    app.stop_workers().await;
    let apply = json!({"amt": "100000", "periodDays": 6, "appId": 1});
    let slow = app
        .post_with_key("/jackey/loan/apply", &token, "k-slow", apply.clone())
        .await;
    assert_eq!(slow["code"], 40003, "{slow}");
    // The workflow runs again (a second process over the same store).
    let restarted = TestApp::over(app.state.database.clone(), None).await;
    let again = restarted
        .post_with_key("/jackey/loan/apply", &token, "k-slow", apply)
        .await;
    assert_eq!(again["code"], 0, "{again}");
    let order_id = again["data"]["loanOrderId"].as_str().unwrap();
    assert_eq!(
        open_order(&restarted, user_id)
            .await
            .map(|id| id.to_string())
            .as_deref(),
        Some(order_id),
        "the order the first call opened"
    );
    let orders = restarted
        .ok("/jackey/loan/getUserOrderList", Some(&token), json!({}))
        .await;
    assert_eq!(orders.as_array().unwrap().len(), 1, "one order");

    // The borrower cancels that order; a late repeat of the same apply (the claim is
    // still free, its answer was never stored) names the closed order: it answers it
    // and opens nothing, so the borrower can apply again.
    restarted
        .ok(
            "/jackey/loan/cancel",
            Some(&token),
            json!({"loanOrderId": order_id}),
        )
        .await;
    restarted.quiesce().await;
    let stored = "update idempotency set response = null, \
                  claimed_at = '1970-01-01T00:00:00.000000Z' where key = 'k-slow'";
    assert_eq!(restarted.sql(stored).await, 1);
    let late = restarted
        .post_with_key("/jackey/loan/apply", &token, "k-slow", apply_body())
        .await;
    assert_eq!(late["data"]["loanOrderId"], order_id, "{late}");
    restarted.quiesce().await;
    assert_eq!(
        open_order(&restarted, user_id).await,
        None,
        "no closed order reopened"
    );
    let next = restarted
        .post_with_key("/jackey/loan/apply", &token, "k-next", apply_body())
        .await;
    assert_eq!(next["code"], 0, "a new application opens: {next}");
    restarted.stop_workers().await;
}

/// The order the User holds open, as its aggregate says.
async fn open_order(app: &TestApp, user_id: uuid::Uuid) -> Option<uuid::Uuid> {
    let user = app.state.users.load(&user_id.to_string()).await.unwrap();
    user.open_order
}

fn apply_body() -> serde_json::Value {
    json!({"amt": "100000", "periodDays": 6, "appId": 1})
}

/// The header is served only on the calls that move money: elsewhere it stores
/// nothing (no answer with personal data kept beside the events).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_key_is_ignored_where_no_money_moves() {
    let app = TestApp::sqlite().await;
    let (token, _) = app.qualified_borrower("09175550029").await;
    for (path, key, body, kept) in [
        ("/jackey/user/info", "k-info", json!({}), "0"),
        ("/jackey/loan/apply", "k-apply", apply_body(), "1"),
    ] {
        let answer = app.post_with_key(path, &token, key, body).await;
        assert_eq!(answer["code"], 0, "{path}: {answer}");
        let rows = app
            .scalar(
                "select cast(count(*) as text) from idempotency where key = $1",
                key,
            )
            .await;
        assert_eq!(rows.as_deref(), Some(kept), "{path}");
    }
}

/// A key over the documented 200 bytes is refused with 10004 naming the limit, and
/// the call does nothing: ignored, two repeats of it opened two payment pages.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_over_long_key_is_refused_not_ignored() {
    let app = TestApp::sqlite().await;
    let (token, _) = app.qualified_borrower("09175550031").await;
    let long = "k".repeat(api::http::middleware::idempotency::MAX_KEY_BYTES + 1);
    for key in [long.as_str(), "   "] {
        let answer = app
            .post_with_key("/jackey/loan/apply", &token, key, apply_body())
            .await;
        assert_eq!(answer["code"], 10004, "{answer}");
        assert!(
            answer["msg"].as_str().unwrap().contains("Idempotency-Key"),
            "{answer}"
        );
    }
    // At the limit, the key is taken and kept with the answer; the apply succeeds,
    // so the refused ones opened no order (a second would answer 40005).
    let at_limit = "k".repeat(api::http::middleware::idempotency::MAX_KEY_BYTES);
    let answer = app
        .post_with_key("/jackey/loan/apply", &token, &at_limit, apply_body())
        .await;
    assert_eq!(answer["code"], 0, "{answer}");
    let rows = app
        .scalar(
            "select cast(count(*) as text) from idempotency where key = $1",
            &at_limit,
        )
        .await;
    assert_eq!(rows.as_deref(), Some("1"));
}

/// What a process killed mid-request leaves: the claim, and no answer.
async fn crash_after_the_effect(app: &TestApp, key: &str) {
    let abandoned = format!(
        "update idempotency set response = null, \
         claimed_at = '2000-01-01T00:00:00.000000Z' where key = '{key}'"
    );
    assert_eq!(app.sql(&abandoned).await, 1);
}

/// A claim taken by a request that died before doing anything.
async fn crash_before_the_effect(
    app: &TestApp,
    user_id: uuid::Uuid,
    key: &str,
    path: &str,
    body: &serde_json::Value,
) {
    let hash = api::http::middleware::idempotency::request_fingerprint(
        "POST",
        path,
        body.to_string().as_bytes(),
    );
    let claim = format!(
        "insert into idempotency (scope, key, request_hash, response, created_at, claimed_at) \
         values ('user:{user_id}', '{key}', '{hash}', null, \
         '2026-01-01T00:00:00.000000Z', '2000-01-01T00:00:00.000000Z')"
    );
    assert_eq!(app.sql(&claim).await, 1);
}

/// Issue 12: a key whose effect happened answers that effect; one whose effect did not
/// happen runs once; a refusal is not stored; answers expire after 24 hours.
async fn idempotency_after_a_crash(app: TestApp) {
    let (token, user_id) = app.qualified_borrower("09175550009").await;
    let apply = json!({"amt": "100000", "periodDays": 6, "appId": 1});
    let first = app
        .post_with_key("/jackey/loan/apply", &token, "k-apply", apply.clone())
        .await;
    assert_eq!(first["code"], 0, "{first}");
    crash_after_the_effect(&app, "k-apply").await;
    let again = app
        .post_with_key("/jackey/loan/apply", &token, "k-apply", apply.clone())
        .await;
    assert_eq!(again, first, "the effect that happened is the answer");
    let orders = app
        .ok("/jackey/loan/getUserOrderList", Some(&token), json!({}))
        .await;
    assert_eq!(orders.as_array().unwrap().len(), 1, "one order");
    let order_id = first["data"]["loanOrderId"].as_str().unwrap().to_string();
    // The key is in the metadata of what it produced, on the user and the order.
    let events =
        projections::store::load_events::<aggregates::order::Order>(&app.state.database, &order_id)
            .await
            .unwrap();
    assert_eq!(
        events[0]
            .metadata
            .get("idempotency_key")
            .map(String::as_str),
        Some("k-apply")
    );

    // A withdrawal whose process died after the payout was requested.
    app.approve(&token, &order_id).await;
    let withdraw = json!({"password": "246810", "withdrawAmount": "50000", "bankcard": "x"});
    let paid = app
        .post_with_key(
            "/jackey/user/withdraw",
            &token,
            "k-withdraw",
            withdraw.clone(),
        )
        .await;
    assert_eq!(paid["code"], 0, "{paid}");
    crash_after_the_effect(&app, "k-withdraw").await;
    let again = app
        .post_with_key(
            "/jackey/user/withdraw",
            &token,
            "k-withdraw",
            withdraw.clone(),
        )
        .await;
    assert_eq!(again, paid, "the same payout, not a second one");
    app.quiesce().await;
    let events =
        projections::store::load_events::<aggregates::order::Order>(&app.state.database, &order_id)
            .await
            .unwrap();
    let payouts = events
        .iter()
        .filter(|e| {
            matches!(
                e.payload,
                aggregates::order::OrderEvent::PayoutRequested { .. }
            )
        })
        .count();
    assert_eq!(payouts, 1);

    // A repayment page whose request died before doing anything: it runs, once.
    let recharge = json!({"amt": "1000"});
    crash_before_the_effect(&app, user_id, "k-pay", "/jackey/loan/recharge", &recharge).await;
    let page = app
        .post_with_key("/jackey/loan/recharge", &token, "k-pay", recharge.clone())
        .await;
    assert_eq!(page["code"], 0, "{page}");
    let replayed = app
        .post_with_key("/jackey/loan/recharge", &token, "k-pay", recharge.clone())
        .await;
    assert_eq!(replayed, page);
    let order = app.state.orders.load(&order_id).await.unwrap();
    assert_eq!(order.sessions.len(), 1, "one payment session");

    // A refusal is not a stored answer: the key is free again.
    let too_much = json!({"amt": "20000.01"});
    let refused = app
        .post_with_key("/jackey/loan/recharge", &token, "k-refused", too_much)
        .await;
    assert_eq!(refused["code"], 40001, "{refused}");
    let stored = app
        .sql("update idempotency set response = response where key = 'k-refused'")
        .await;
    assert_eq!(stored, 0);

    // Answers expire after 24 hours: an old key may carry another request.
    let old =
        "update idempotency set created_at = '2000-01-01T00:00:00.000000Z' where key = 'k-pay'";
    assert_eq!(app.sql(old).await, 1);
    let other = app
        .post_with_key(
            "/jackey/loan/recharge",
            &token,
            "k-pay",
            json!({"amt": "2000"}),
        )
        .await;
    assert_eq!(other["code"], 0, "{other}");
}

async fn money_safety(app: TestApp) {
    let (token, _) = app.qualified_borrower("09175550001").await;
    let apply = json!({"amt": "100000", "periodDays": 6, "appId": 1});
    // Ten concurrent repeats of one key: one order, ten identical answers.
    let answers = futures_join(10, |_| {
        app.post_with_key("/jackey/loan/apply", &token, "apply-1", apply.clone())
    })
    .await;
    assert!(answers.iter().all(|a| a == &answers[0]), "{answers:?}");
    assert_eq!(answers[0]["code"], 0, "{}", answers[0]);
    let list = app
        .ok("/jackey/loan/getUserOrderList", Some(&token), json!({}))
        .await;
    assert_eq!(list.as_array().unwrap().len(), 1, "one effect");
    // The same key with another body is refused.
    let other = app
        .post_with_key(
            "/jackey/loan/apply",
            &token,
            "apply-1",
            json!({"amt": "90000", "periodDays": 6, "appId": 1}),
        )
        .await;
    assert_eq!(other["code"], 10004, "{other}");
    let order_id = answers[0]["data"]["loanOrderId"]
        .as_str()
        .unwrap()
        .to_string();
    app.approve(&token, &order_id).await;

    // Fifty parallel withdrawals of 80,000 from a 100,000 balance: one payout.
    let body = json!({"password": "246810", "withdrawAmount": "80000", "bankcard": "x", "loanOrderId": order_id});
    let app_ref = &app;
    let results = futures_join(50, |n| {
        let (key, body, token) = (format!("w-{n}"), body.clone(), token.clone());
        async move {
            app_ref
                .post_with_key("/jackey/user/withdraw", &token, &key, body)
                .await
        }
    })
    .await;
    let succeeded = results.iter().filter(|r| r["code"] == 0).count();
    assert_eq!(succeeded, 1, "{results:?}");
    let outcomes: std::collections::BTreeSet<String> = results
        .iter()
        .map(|r| format!("{} {}", r["code"], r["msg"]))
        .collect();
    assert!(
        results
            .iter()
            // 40007: asked after the one payout went out (nothing left to withdraw).
            .all(|r| [0, 10004, 40003, 40006, 40007].contains(&r["code"].as_u64().unwrap())),
        "{outcomes:?}"
    );
    let order = app.wait_status(&token, &order_id, 4).await;
    assert_eq!(order["principal"], "80000.00");
    assert_eq!(order["balance"], "0.00");
    let payouts =
        projections::store::load_events::<aggregates::order::Order>(&app.state.database, &order_id)
            .await
            .unwrap()
            .iter()
            .filter(|e| {
                matches!(
                    e.payload,
                    aggregates::order::OrderEvent::PayoutRequested { .. }
                )
            })
            .count();
    assert_eq!(payouts, 1, "exactly one payout");
    // The books agree, once the loan process has done its part too.
    app.quiesce().await;
    let report = projections::verify::verify(&app.state.database)
        .await
        .unwrap();
    assert!(report.is_clean(), "{:?}", report.drifts);
}

/// The one-command rule is observable, so the check every test call makes (helpers'
/// `checked_router`) can fail: a command answers 1, a query 0.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_says_how_many_commands_its_handler_sent() {
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;
    let app = TestApp::sqlite().await;
    let token = app.register("09175550077").await;
    let sent = |path: &'static str, body: serde_json::Value| {
        let (router, token) = (app.router.clone(), token.clone());
        async move {
            let request = Request::post(path)
                .header("content-type", "application/json")
                .header("authorization", format!("Bearer {token}"))
                .body(Body::from(body.to_string()))
                .unwrap();
            let response = router.oneshot(request).await.unwrap();
            response.headers()[api::http::middleware::command_count::HEADER]
                .to_str()
                .unwrap()
                .to_string()
        }
    };
    let contacts =
        json!({"contacts": [{"name": "Ben", "relation": "brother", "mobile": "09171112222"}]});
    assert_eq!(sent("/jackey/user/updateEmergency", contacts).await, "1");
    assert_eq!(sent("/jackey/user/info", json!({})).await, "0");
}
