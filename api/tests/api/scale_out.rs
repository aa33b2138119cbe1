//! Two api processes (two pools, two sets of workers) on one PostgreSQL serve one
//! borrower concurrently with the same guarantees: one payout for many parallel
//! withdrawals across both, and books that verify.

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::json;

use crate::helpers::TestApp;

/// The log consumers an api process runs (on SQLite one process leads them all).
async fn every_consumer() -> BTreeSet<&'static str> {
    let app = TestApp::sqlite().await;
    let all = leading_soon(&app, |names| names.len() > 1).await;
    app.stop_workers().await;
    all
}

/// What `app` leads once `settled` holds for it (or after 10 s).
async fn leading_soon(
    app: &TestApp,
    settled: impl Fn(&BTreeSet<&'static str>) -> bool,
) -> BTreeSet<&'static str> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        // Every consumer asks for its lease on its first turn of the loop.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let leading: BTreeSet<_> = app.state.leases.leading().into_iter().collect();
        if settled(&leading) || tokio::time::Instant::now() >= deadline {
            return leading;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn each_consumer_runs_in_one_process_and_the_other_takes_over() {
    let Some((a, b)) = TestApp::postgres_pair().await else {
        return;
    };
    let all = every_consumer().await;
    assert!(
        all.contains(projections::consumer::runner::READ_MODELS),
        "{all:?}"
    );
    let leading_on_b = || -> BTreeSet<_> { b.state.leases.leading().into_iter().collect() };
    let on_a = leading_soon(&a, |on_a| on_a.union(&leading_on_b()).count() == all.len()).await;
    let on_b = leading_on_b();
    assert!(on_a.is_disjoint(&on_b), "{on_a:?} and {on_b:?} both led");
    assert_eq!(
        on_a.union(&on_b).copied().collect::<BTreeSet<_>>(),
        all,
        "every consumer is led by one process"
    );

    // The first process stops; the second takes every consumer over and serves a
    // borrower from registration to an approved loan on its own.
    a.stop_workers().await;
    let on_b = leading_soon(&b, |names| *names == all).await;
    assert_eq!(on_b, all);
    let (token, _) = b.qualified_borrower("09176660002").await;
    let applied = b
        .ok(
            "/jackey/loan/apply",
            Some(&token),
            json!({"amt": "100000", "periodDays": 6, "appId": 1}),
        )
        .await;
    let order_id = applied["loanOrderId"].as_str().unwrap().to_string();
    b.approve(&token, &order_id).await;
    b.quiesce().await;
    let report = projections::verify::verify(&b.state.database)
        .await
        .unwrap();
    assert!(report.is_clean(), "{:?}", report.drifts);
}

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
