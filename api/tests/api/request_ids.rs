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
        .filter(|line| line.contains("SMS code sent") && line.contains("7731"))
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

    // The events of a command record its request id and its idempotency key.
    let token = app.register("09170007732").await;
    let bearer = format!("Bearer {token}");
    let contacts =
        json!({"contacts": [{"name": "Ana", "relation": "Mother", "mobile": "09170007733"}]});
    let (_, answer) = call(
        &app,
        "/jackey/user/updateEmergency",
        &[
            ("authorization", bearer.as_str()),
            ("x-request-id", "req-emergency-1"),
            ("idempotency-key", "key-emergency-1"),
        ],
        contacts,
    )
    .await;
    assert_eq!(answer["code"], 0, "{answer}");
    let sql = "select cast(metadata as text) from events where event_type = $1";
    let metadata = app
        .scalar(sql, "EmergencyContactsUpdated")
        .await
        .expect("the event");
    let metadata: serde_json::Value = serde_json::from_str(&metadata).unwrap();
    assert_eq!(metadata["request_id"], "req-emergency-1", "{metadata}");
    assert_eq!(metadata["idempotency_key"], "key-emergency-1", "{metadata}");
}
