//! Request ids (issue 17 item 2): every answer carries `x-request-id` (the caller's
//! when usable, else a fresh one), every log line of the request names it, and the
//! events its command writes record it beside the idempotency key.

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use serde_json::json;
use tower::ServiceExt;

use crate::helpers::{logs, on_both_stores, TestApp};

on_both_stores!(
    request_ids,
    a_requests_id_is_answered_logged_and_recorded_in_its_events_on_sqlite,
    a_requests_id_is_answered_logged_and_recorded_in_its_events_on_postgres
);

/// `POST path` with `headers` and a JSON body: (the answered `x-request-id`, envelope).
async fn call(
    app: &TestApp,
    path: &str,
    headers: &[(&str, &str)],
    body: serde_json::Value,
) -> (String, serde_json::Value) {
    let mut request = Request::post(path).header("content-type", "application/json");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = app
        .router
        .clone()
        .oneshot(request.body(Body::from(body.to_string())).unwrap())
        .await
        .unwrap();
    let id = response.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_string();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (id, serde_json::from_slice(&bytes).unwrap())
}

async fn request_ids(app: TestApp) {
    // The caller's id is kept and answered; every line the request logs carries it.
    let mobile = "09170007731";
    let (((id, answer), _), logged) = logs::capture(async {
        let sent = call(
            &app,
            "/jackey/sms/register",
            &[("x-request-id", "journey-req-7731")],
            json!({ "mobile": mobile }),
        )
        .await;
        (sent, ())
    })
    .await;
    assert_eq!(
        (id.as_str(), &answer["code"]),
        ("journey-req-7731", &json!(0))
    );
    let lines: Vec<&str> = logged
        .lines()
        // By the masked mobile: a bare "7731" also matched another test's line whose
        // timestamp held those digits (04:45:23.477318).
        .filter(|line| line.contains("SMS code sent") && line.contains("mobile=*******7731"))
        .collect();
    assert!(!lines.is_empty(), "the send was logged: {logged}");
    for line in lines {
        assert!(line.contains("request_id=journey-req-7731"), "{line}");
    }

    // No id, or one that could forge a log line: a fresh UUID is made and answered.
    for sent in [None, Some("two words"), Some("a\"quote")] {
        let headers: Vec<(&str, &str)> = sent.map(|v| ("x-request-id", v)).into_iter().collect();
        let (id, _) = call(&app, "/jackey/loan/appList", &headers, json!({})).await;
        assert!(uuid::Uuid::parse_str(&id).is_ok(), "{sent:?} -> {id}");
    }

    // The events of a command record its request id and, on a call that takes one
    // (a money call), its idempotency key.
    let (token, _) = app.qualified_borrower("09170007732").await;
    let bearer = format!("Bearer {token}");
    let (_, answer) = call(
        &app,
        "/jackey/loan/apply",
        &[
            ("authorization", bearer.as_str()),
            ("x-request-id", "req-apply-1"),
            ("idempotency-key", "key-apply-1"),
        ],
        json!({"amt": "100000", "periodDays": 6, "appId": 1}),
    )
    .await;
    assert_eq!(answer["code"], 0, "{answer}");
    let sql = "select cast(metadata as text) from events where event_type = $1";
    let metadata = app
        .scalar(sql, "ApplicationOpened")
        .await
        .expect("the event");
    let metadata: serde_json::Value = serde_json::from_str(&metadata).unwrap();
    assert_eq!(metadata["request_id"], "req-apply-1", "{metadata}");
    assert_eq!(metadata["idempotency_key"], "key-apply-1", "{metadata}");
}

/// With `OTEL_EXPORTER_OTLP_ENDPOINT` set, the server exports its spans over OTLP/HTTP:
/// a fake collector on loopback receives a request's span, with the service name and
/// the request id (issue 17 item 2).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spans_are_exported_to_an_otlp_collector_when_one_is_set() {
    use std::sync::{Arc, Mutex};
    use tokio::io::AsyncBufReadExt;

    let received: Arc<Mutex<Vec<Vec<u8>>>> = Arc::default();
    let collector = axum::Router::new()
        .route(
            "/v1/traces",
            axum::routing::post(
                |axum::extract::State(seen): axum::extract::State<Arc<Mutex<Vec<Vec<u8>>>>>,
                 body: axum::body::Bytes| async move {
                    seen.lock().unwrap().push(body.to_vec());
                    axum::http::StatusCode::OK
                },
            ),
        )
        .with_state(received.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let collector_addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, collector).await.unwrap() });

    let dir = std::env::temp_dir().join(format!("otel-{}", uuid::Uuid::now_v7().simple()));
    let mut server = tokio::process::Command::new(env!("CARGO_BIN_EXE_api"))
        .env(
            "DATABASE_URL",
            format!("sqlite://{}", dir.join("loan.db").display()),
        )
        .env("BIND_ADDR", "127.0.0.1:0")
        .env("STORAGE_URL", "memory://")
        .env("WEB_DIST", dir.join("no-web-app"))
        .env("RUST_LOG", "info")
        .env(
            "OTEL_EXPORTER_OTLP_ENDPOINT",
            format!("http://{collector_addr}"),
        )
        .env("OTEL_BSP_SCHEDULE_DELAY", "100")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the api binary");
    let mut lines = tokio::io::BufReader::new(server.stderr.take().unwrap()).lines();
    let base = loop {
        let line = tokio::time::timeout(std::time::Duration::from_secs(60), lines.next_line())
            .await
            .expect("the server starts")
            .unwrap()
            .expect("the server is running");
        if let Some(rest) = line.split("running at ").nth(1) {
            break rest.trim().trim_end_matches('/').to_string();
        }
    };
    // Keep reading its log so the pipe never fills.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    let answer = reqwest::Client::new()
        .get(format!("{base}/readyz"))
        .header("x-request-id", "otel-req-4711")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.headers()["x-request-id"], "otel-req-4711");

    let contains = |haystack: &[u8], needle: &str| {
        haystack
            .windows(needle.len())
            .any(|w| w == needle.as_bytes())
    };
    let mut exported = false;
    for _ in 0..100 {
        exported = received
            .lock()
            .unwrap()
            .iter()
            .any(|body| contains(body, "otel-req-4711") && contains(body, "loan-api"));
        if exported {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    server.kill().await.ok();
    assert!(exported, "the request's span reached the collector");
}
