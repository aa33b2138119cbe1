//! The real provider adapters (issue 17 item 1) against fakes of the providers' HTTP
//! APIs served on loopback by the test: Xendit (a repayment through an invoice and
//! its webhook; a payout retried after the provider took it but its answer was lost,
//! paid once) and Semaphore (a text delivered by the outbox relay after two failures).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Form, Json, Router};
use base64::Engine;
use serde_json::{json, Value};

use crate::helpers::{env, TestApp};
use crate::payment::{approved, qualified, wait_repaid, withdraw_80000};

const SECRET_KEY: &str = "xnd_development_test_key";
const CALLBACK_TOKEN: &str = "test-callback-token";

/// What the fake Xendit saw and did.
#[derive(Default)]
struct Xendit {
    invoices: Vec<Value>,
    /// Every payout call: (idempotency key, body).
    payout_calls: Vec<(String, Value)>,
    /// Payouts created, by idempotency key (a repeated key returns the first).
    payouts: HashMap<String, Value>,
}

type Shared = Arc<Mutex<Xendit>>;

fn authorised(headers: &HeaderMap) -> bool {
    let expected = base64::engine::general_purpose::STANDARD.encode(format!("{SECRET_KEY}:"));
    headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == format!("Basic {expected}"))
}

async fn create_invoice(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if !authorised(&headers) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    let mut fake = fake.lock().unwrap();
    let id = format!("inv-{}", fake.invoices.len() + 1);
    fake.invoices.push(body.clone());
    Json(json!({
        "id": id,
        "external_id": body["external_id"],
        "status": "PENDING",
        "amount": body["amount"],
        "invoice_url": format!("https://checkout.xendit.test/web/{id}"),
    }))
    .into_response()
}

/// Creates the payout once per idempotency key. The first call's answer never comes
/// in time: the payout is created, then the answer waits past the client's timeout,
/// as when a connection stalls mid-answer.
async fn create_payout(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if !authorised(&headers) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    let Some(key) = headers.get("idempotency-key").and_then(|v| v.to_str().ok()) else {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({"error_code": "API_VALIDATION_ERROR"})),
        )
            .into_response();
    };
    let (first_call, payout) = {
        let mut fake = fake.lock().unwrap();
        fake.payout_calls.push((key.to_string(), body.clone()));
        let first_call = !fake.payouts.contains_key(key);
        let payout = fake
            .payouts
            .entry(key.to_string())
            .or_insert_with(|| {
                json!({
                    "id": format!("disb-{key}"),
                    "reference_id": body["reference_id"],
                    "status": "ACCEPTED",
                    "amount": body["amount"],
                })
            })
            .clone();
        (first_call, payout)
    };
    if first_call {
        tokio::time::sleep(Duration::from_secs(3)).await;
    }
    Json(payout).into_response()
}

/// The fake Xendit on a loopback port; its base URL.
async fn serve_xendit(fake: Shared) -> String {
    let router = Router::new()
        .route("/v2/invoices", post(create_invoice))
        .route("/v2/payouts", post(create_payout))
        .with_state(fake);
    serve(router).await
}

async fn serve(router: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    format!("http://{addr}")
}

/// Settings with both money providers on Xendit at `base_url`, and a configuration
/// that maps every bank to a channel code.
fn xendit_env(base_url: &str) -> api::config::Env {
    let mut config: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/config/demo.json")).unwrap(),
    )
    .unwrap();
    let channels: serde_json::Map<String, Value> = config["banks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|bank| (bank.as_str().unwrap().to_string(), json!("PH_TEST")))
        .collect();
    config["payout_channels"] = Value::Object(channels);
    let path = std::env::temp_dir().join(format!("xendit-config-{}.json", uuid::Uuid::now_v7()));
    std::fs::write(&path, config.to_string()).unwrap();
    api::config::Env {
        config_file: Some(path.display().to_string()),
        providers: api::config::Providers {
            payment: "xendit".into(),
            payout: "xendit".into(),
            sms: "outbox".into(),
        },
        xendit: Some(api::config::XenditSettings {
            base_url: base_url.to_string(),
            secret_key: SECRET_KEY.into(),
            callback_token: CALLBACK_TOKEN.into(),
            timeout: Duration::from_secs(1),
        }),
        ..env()
    }
}

/// POSTs a Xendit webhook with `token`: (status, envelope).
async fn webhook(app: &TestApp, path: &str, token: &str, body: Value) -> (StatusCode, Value) {
    use axum::body::Body;
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let request = axum::http::Request::post(path)
        .header("content-type", "application/json")
        .header("x-callback-token", token)
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A webhook with a wrong `x-callback-token` is refused before it is read.
async fn refused_when_forged(app: &TestApp, path: &str, body: &Value) {
    let (status, _) = webhook(app, path, "forged", body.clone()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xendit_pays_out_once_after_a_lost_answer_and_takes_a_repayment_on_sqlite() {
    let fake = Shared::default();
    let base = serve_xendit(fake.clone()).await;
    xendit_journey(TestApp::sqlite_with(xendit_env(&base)).await, fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xendit_pays_out_once_after_a_lost_answer_and_takes_a_repayment_on_postgres() {
    let fake = Shared::default();
    let base = serve_xendit(fake.clone()).await;
    if let Some(app) = TestApp::postgres_with(xendit_env(&base)).await {
        xendit_journey(app, fake).await;
    }
}

async fn xendit_journey(app: TestApp, fake: Shared) {
    let borrower = qualified(&app, "09170008801").await;
    let order_id = approved(&app, &borrower).await;
    withdraw_80000(&app, &borrower).await;

    // The worker calls, times out waiting for the answer, calls again with the same key.
    let mut calls = 0;
    for _ in 0..200 {
        calls = fake.lock().unwrap().payout_calls.len();
        if calls >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let (reference, key) = {
        let fake = fake.lock().unwrap();
        assert_eq!(
            fake.payouts.len(),
            1,
            "one payout, however often it was asked"
        );
        let (key, body) = &fake.payout_calls[0];
        assert!(fake.payout_calls.iter().all(|(k, _)| k == key), "one key");
        assert_eq!(body["amount"], json!(80000), "{body}");
        assert_eq!(body["channel_code"], "PH_TEST");
        assert_eq!(body["channel_properties"]["account_number"], "001234567890");
        (
            body["reference_id"].as_str().unwrap().to_string(),
            key.clone(),
        )
    };
    assert!(calls >= 2, "retried after the lost answer: {calls}");
    assert!(
        reference.starts_with(&format!("order:{order_id}:")),
        "{reference}"
    );
    assert!(reference.ends_with(&key));

    // Until Xendit says so, the money is not recorded as paid out; a forged webhook
    // changes nothing.
    let succeeded = json!({"event": "payout.succeeded", "data": {
        "id": format!("disb-{key}"), "reference_id": reference, "status": "SUCCEEDED", "amount": 80000}});
    refused_when_forged(&app, "/jackey/payment/xendit/payout", &succeeded).await;
    let detail = app
        .ok(
            "/jackey/loan/orderInfo",
            borrower.t(),
            json!({"loanOrderId": order_id}),
        )
        .await;
    assert_eq!(detail["status"], 9, "{detail}");
    for _ in 0..2 {
        // Delivered twice: recorded once.
        let (status, answer) = webhook(
            &app,
            "/jackey/payment/xendit/payout",
            CALLBACK_TOKEN,
            succeeded.clone(),
        )
        .await;
        assert_eq!(
            (status, &answer["code"]),
            (StatusCode::OK, &json!(0)),
            "{answer}"
        );
    }
    app.wait_status(&borrower.token, &order_id, 4).await;

    // A repayment: an invoice whose page the borrower pays, then Xendit's webhook.
    let url = app
        .ok(
            "/jackey/loan/recharge",
            borrower.t(),
            json!({"amt": "20000"}),
        )
        .await;
    assert_eq!(url, "https://checkout.xendit.test/web/inv-1");
    let invoice = fake.lock().unwrap().invoices[0].clone();
    assert_eq!(invoice["amount"], json!(20000), "{invoice}");
    // Payable as long as the Order's session, not Xendit's default day.
    assert_eq!(invoice["invoice_duration"], json!(1800), "{invoice}");
    let session = invoice["external_id"].as_str().unwrap().to_string();
    let paid = json!({"id": "inv-1", "external_id": session, "status": "PAID",
        "amount": 20000, "paid_amount": 20000, "currency": "PHP"});
    refused_when_forged(&app, "/jackey/payment/xendit/invoice", &paid).await;
    let (status, answer) = webhook(
        &app,
        "/jackey/payment/xendit/invoice",
        CALLBACK_TOKEN,
        paid.clone(),
    )
    .await;
    assert_eq!(
        (status, &answer["data"]["duplicate"]),
        (StatusCode::OK, &json!(false)),
        "{answer}"
    );
    wait_repaid(&app, &borrower, &order_id, "20000.00").await;
    // Redelivered, and then settled: the money counts once.
    let (_, again) = webhook(&app, "/jackey/payment/xendit/invoice", CALLBACK_TOKEN, paid).await;
    assert_eq!(again["data"]["duplicate"], true, "{again}");
    let settled = json!({"id": "inv-1", "external_id": session, "status": "SETTLED",
        "amount": 20000, "paid_amount": 20000});
    let (status, _) = webhook(
        &app,
        "/jackey/payment/xendit/invoice",
        CALLBACK_TOKEN,
        settled,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    app.quiesce().await;
    wait_repaid(&app, &borrower, &order_id, "20000.00").await;
}

/// The fake Semaphore: fails the first `failures` messages with 500.
#[derive(Default)]
struct Semaphore {
    attempts: usize,
    failures: usize,
    delivered: Vec<HashMap<String, String>>,
}

async fn semaphore_messages(
    State(fake): State<Arc<Mutex<Semaphore>>>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let mut fake = fake.lock().unwrap();
    fake.attempts += 1;
    if fake.attempts <= fake.failures {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    }
    fake.delivered.push(form);
    Json(json!([{"message_id": fake.attempts, "status": "Pending"}])).into_response()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_sms_reaches_semaphore_through_the_relay_after_two_failures() {
    let fake = Arc::new(Mutex::new(Semaphore {
        failures: 2,
        ..Semaphore::default()
    }));
    let router = Router::new()
        .route("/api/v4/messages", post(semaphore_messages))
        .with_state(fake.clone());
    let base_url = serve(router).await;
    let app = TestApp::sqlite().await;
    let mobile = "09170008802";
    api::accounts::sms::send(&app.state, mobile, "register", api::documents::Lang::En)
        .await
        .unwrap();
    let code = app.last_sms_code(mobile).await;
    let sender = api::providers::semaphore::Semaphore::new(api::config::SemaphoreSettings {
        base_url,
        api_key: "semaphore-test-key".into(),
        sender_name: Some("HONESTLEND".into()),
    });
    let mut sent = 0;
    for _ in 0..100 {
        sent += api::workflows::sms_relay::pass(&app.state, &sender, Duration::from_millis(1))
            .await
            .unwrap();
        if sent > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(sent, 1);
    let (attempts, message) = {
        let fake = fake.lock().unwrap();
        (fake.attempts, fake.delivered[0].clone())
    };
    assert_eq!(attempts, 3, "two failures, then delivered");
    assert_eq!(message["number"], mobile);
    assert_eq!(message["apikey"], "semaphore-test-key");
    assert_eq!(message["sendername"], "HONESTLEND");
    assert!(message["message"].contains(&code));
    // Sent once: a later pass sends nothing again.
    assert_eq!(
        api::workflows::sms_relay::pass(&app.state, &sender, Duration::from_millis(1))
            .await
            .unwrap(),
        0
    );
    let attempts = app
        .scalar(
            "select cast(attempts as text) from sms_outbox where mobile = $1 and sent_at is not null",
            mobile,
        )
        .await;
    assert_eq!(attempts.as_deref(), Some("2"));
}

#[test]
fn a_xendit_provider_needs_its_keys_and_a_channel_for_every_bank() {
    let config_text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/config/demo.json")).unwrap();
    let mut config =
        api::config::LendingConfig::load(&config_text, &aggregates::pricing::ComplianceProfile::Ph)
            .unwrap();
    let mut settings = xendit_env("http://127.0.0.1:9");
    settings.xendit = None;
    let missing = settings.check_providers(&config).unwrap_err().to_string();
    assert!(missing.contains("XENDIT_SECRET_KEY"), "{missing}");
    let settings = xendit_env("http://127.0.0.1:9");
    // The shipped PH list has a channel for every bank and e-wallet; one without is refused.
    settings.check_providers(&config).unwrap();
    config.payout_channels.remove("GCash");
    let no_channel = settings.check_providers(&config).unwrap_err().to_string();
    assert!(
        no_channel.contains("payout_channels") && no_channel.contains("GCash"),
        "{no_channel}"
    );
    let unknown = api::config::Env {
        providers: api::config::Providers {
            sms: "pigeon".into(),
            ..api::config::Providers::default()
        },
        ..env()
    };
    let refused = unknown.check_providers(&config).unwrap_err().to_string();
    assert!(
        refused.contains("SMS_PROVIDER") && refused.contains("semaphore"),
        "{refused}"
    );
}

#[tokio::test]
async fn xendits_webhooks_answer_404_where_xendit_is_not_configured() {
    let app = TestApp::sqlite().await;
    for path in [
        "/jackey/payment/xendit/invoice",
        "/jackey/payment/xendit/payout",
    ] {
        let (status, answer) = webhook(&app, path, CALLBACK_TOKEN, json!({})).await;
        assert_eq!(
            (status, &answer["code"]),
            (StatusCode::NOT_FOUND, &json!(40007)),
            "{path}"
        );
    }
}
