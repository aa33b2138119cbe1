//! Queries on a PostgreSQL read replica (`READ_DATABASE_URL`, ADR 0013), against a
//! real streaming standby (`TEST_READ_DATABASE_URL`; `scripts/pg-replica` starts one
//! beside the local server). The replica's replay is paused to hold it behind the
//! primary: what a query answers then shows where it read and what it waited for.
//! One test, so that no other test's replica reads see the pause.

use std::time::Duration;

use serde_json::json;

use crate::helpers::TestApp;

/// Pauses (true) or resumes the standby's replay of the primary's WAL.
async fn replay(control: &sqlx::PgPool, on: bool) {
    let sql = if on {
        "select pg_wal_replay_resume()"
    } else {
        "select pg_wal_replay_pause()"
    };
    sqlx::query(sql)
        .execute(control)
        .await
        .expect("replay control");
}

/// Answers `/jackey/user/info` for `token` with `X-Min-Position` as given (`0:0`:
/// no wait), or as the client knows it when `None`.
async fn info(app: &TestApp, token: &str, min_position: Option<&str>) -> serde_json::Value {
    let mut headers = vec![("authorization", format!("Bearer {token}"))];
    if let Some(position) = min_position {
        headers.push((
            api::http::middleware::read_your_writes::MIN_POSITION,
            position.to_string(),
        ));
    }
    app.post_with_headers("/jackey/user/info", &headers, json!({}))
        .await
}

#[tokio::test]
async fn queries_read_the_replica_wait_for_their_writes_there_and_never_outlive_a_logout() {
    let Some((app, control)) = TestApp::postgres_with_replica().await else {
        return;
    };
    replay(&control, true).await;
    let token = app.register("09175550301").await;
    let t = Some(token.as_str());
    let before = app.ok("/jackey/user/info", t, json!({})).await;
    assert!(before["facebook"].is_null(), "{before}");

    // Held behind: a write commits on the primary only.
    replay(&control, false).await;
    let facebook = json!({"facebook": "https://facebook.com/replica.reader"});
    app.ok("/jackey/user/update", t, facebook).await;

    // Once the primary's read model has it ...
    for _ in 0..300 {
        let profile: Option<String> =
            sqlx::query_scalar("select doc from user_profile where doc like '%replica.reader%'")
                .fetch_optional(match &app.state.database {
                    projections::store::Database::Postgres(pool) => pool,
                    projections::store::Database::Sqlite { .. } => unreachable!(),
                })
                .await
                .unwrap();
        if profile.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // ... a query without a position to wait for still answers without it: the rows
    // come from the replica, which has not seen the write, not from the primary.
    let stale = info(&app, &token, Some("0:0")).await;
    assert_eq!(stale["code"], 0, "{stale}");
    assert!(stale["data"]["facebook"].is_null(), "{stale}");

    // With the write's position, the query waits for the replica's checkpoints ...
    let waiting = tokio::spawn({
        let app = app.clone();
        let token = token.clone();
        async move { info(&app, &token, None).await }
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !waiting.is_finished(),
        "the query did not wait for the replica"
    );
    // ... and reads its own write there once the replica has it.
    replay(&control, true).await;
    let fresh = waiting.await.unwrap();
    assert_eq!(fresh["code"], 0, "{fresh}");
    assert_eq!(
        fresh["data"]["facebook"], "https://facebook.com/replica.reader",
        "{fresh}"
    );

    // A login the replica has not received yet reads at once (the session is found
    // on the primary).
    replay(&control, false).await;
    let login = json!({"mobile": "09175550301", "password": "secret-pass"});
    let second = app.ok("/jackey/user/login", None, login).await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let by_second = info(&app, &second, Some("0:0")).await;
    assert_eq!(by_second["code"], 0, "{by_second}");

    // A logout (sent without a position to wait for) is answered only once the
    // replica has replayed it ...
    let logout = tokio::spawn({
        let app = app.clone();
        let token = token.clone();
        async move {
            let headers = [
                ("authorization", format!("Bearer {token}")),
                (
                    api::http::middleware::read_your_writes::MIN_POSITION,
                    "0:0".to_string(),
                ),
            ];
            app.post_with_headers("/jackey/user/logout", &headers, json!({}))
                .await
        }
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !logout.is_finished(),
        "the logout did not wait for the replica"
    );
    replay(&control, true).await;
    assert_eq!(logout.await.unwrap()["code"], 0);
    // ... so no read on the replica accepts the token afterwards.
    let after = info(&app, &token, Some("0:0")).await;
    assert_eq!(after["code"], 20001, "{after}");
    assert_eq!(info(&app, &second, Some("0:0")).await["code"], 0);
}

#[tokio::test]
async fn a_read_replica_is_refused_beside_the_embedded_store() {
    let dir = std::env::temp_dir()
        .join("api-tests")
        .join(uuid::Uuid::now_v7().simple().to_string());
    let env = api::config::Env {
        database_url: format!("sqlite://{}", dir.join("loan.db").display()).into(),
        read_database_url: Some("postgres://postgres@127.0.0.1:5433/test".into()),
        ..crate::helpers::env()
    };
    let refused = api::Application::build(env).await.err();
    assert!(
        matches!(refused, Some(api::StartError::ReadReplica(_))),
        "{refused:?}"
    );
}
