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
