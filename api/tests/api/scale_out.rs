//! Two api processes (two pools, two sets of workers) on one PostgreSQL serve one
//! borrower concurrently with the same guarantees: one payout for many parallel
//! withdrawals across both, and books that verify.

use serde_json::json;

use crate::helpers::TestApp;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_api_processes_on_one_postgres() {
    let Some((a, b)) = TestApp::postgres_pair().await else {
        return;
    };
    // Register on one, log in and apply on the other.
    let (token, _) = a.qualified_borrower("09176660001").await;
    let login = b
        .ok(
            "/jackey/user/login",
            None,
            json!({"mobile": "09176660001", "password": "secret-pass"}),
        )
        .await;
    let token_b = login["token"].as_str().unwrap().to_string();
    let applied = b
        .ok(
            "/jackey/loan/apply",
            Some(&token_b),
            json!({"amt": "100000", "periodDays": 6, "appId": 1}),
        )
        .await;
    let order_id = applied["loanOrderId"].as_str().unwrap().to_string();
    a.approve(&token, &order_id).await;
    // Withdrawals race on both processes: exactly one payout.
    let body = json!({"password": "246810", "withdrawAmount": "80000", "bankcard": "x", "loanOrderId": order_id});
    let mut tasks = Vec::new();
    for n in 0..10 {
        let (app, t) = if n % 2 == 0 {
            (a.clone(), token.clone())
        } else {
            (b.clone(), token_b.clone())
        };
        let body = body.clone();
        tasks.push(tokio::spawn(async move {
            app.post_with_key("/jackey/user/withdraw", &t, &format!("x-{n}"), body)
                .await
        }));
    }
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.unwrap());
    }
    assert_eq!(
        results.iter().filter(|r| r["code"] == 0).count(),
        1,
        "{results:?}"
    );
    let order = b.wait_status(&token_b, &order_id, 4).await;
    assert_eq!(order["principal"], "80000.00");
    a.quiesce().await;
    b.quiesce().await;
    let report = projections::verify::verify(&a.state.database)
        .await
        .unwrap();
    assert!(report.is_clean(), "{:?}", report.drifts);
}
