//! The OpenAPI document (`GET /api-docs/openapi.json`) lists exactly the routes the
//! router serves, and parses as OpenAPI 3.
//!
//! Three views of the routes are compared both ways: the explicit list [`ROUTES`], the
//! `.route(...)` calls in `api/src` (so a new route cannot be added without the list
//! noticing), and the document's paths. Each listed route is also probed on the real
//! router: its method is routed there, another method answers 405.
//!
//! The last tests keep what `scripts/schemathesis` (fuzzing against this document)
//! found: bad input answers an envelope error, never a server error.

use std::collections::BTreeSet;
use std::path::Path;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;
use uuid::Uuid;

use crate::helpers::TestApp;

/// Every route the router serves: method and path as the document writes it.
const ROUTES: &[(&str, &str)] = &[
    // lib.rs and ops.rs
    ("get", "/"),
    ("get", "/healthz"),
    ("get", "/readyz"),
    ("get", "/metrics"),
    // openapi.rs
    ("get", "/api-docs/openapi.json"),
    // routes/user.rs
    ("post", "/jackey/sms/{purpose}"),
    ("post", "/jackey/user/register"),
    ("post", "/jackey/user/login"),
    ("post", "/jackey/user/logout"),
    ("post", "/jackey/user/info"),
    ("post", "/jackey/user/update"),
    ("post", "/jackey/user/updateEmergency"),
    ("post", "/jackey/user/bank/binding"),
    ("post", "/jackey/user/withdrawPin"),
    ("post", "/jackey/user/signatureImg/upload"),
    ("post", "/jackey/user/unlock"),
    // routes/xendit.rs (404 unless a provider is xendit)
    ("post", "/jackey/payment/xendit/invoice"),
    ("post", "/jackey/payment/xendit/payout"),
    // routes/borrower/sms_inbox.rs (APP_ENV=demo)
    ("get", "/sandbox/sms/{mobile}"),
    // routes/loan.rs
    ("post", "/jackey/loan/appList"),
    ("post", "/jackey/loan/getPeriodConfig"),
    ("post", "/jackey/loan/getCustomerService"),
    ("post", "/jackey/loan/getAllCompanyConfigs"),
    ("post", "/jackey/loan/getConfigByKey"),
    ("post", "/jackey/loan/getLoanProgress"),
    ("post", "/jackey/loan/getUserOrderList"),
    ("post", "/jackey/loan/orderInfo"),
    ("post", "/jackey/loan/orderTimeline"),
    ("post", "/jackey/loan/quote"),
    ("post", "/jackey/loan/affordability"),
    ("post", "/jackey/loan/apply"),
    ("post", "/jackey/loan/cancel"),
    ("post", "/jackey/loan/resubmit"),
    ("post", "/jackey/loan/payoffQuote"),
    ("post", "/jackey/user/getLastWithdrawError"),
    // routes/borrower/collection.rs
    ("post", "/jackey/loan/promiseToPay"),
    ("post", "/jackey/loan/contactHours"),
    ("post", "/jackey/loan/extensionQuote"),
    ("post", "/jackey/loan/extend"),
    ("post", "/jackey/loan/requestPaymentPlan"),
    ("post", "/jackey/loan/signPaymentPlan"),
    ("post", "/jackey/user/withdraw"),
    // routes/borrower/credentials.rs
    ("post", "/jackey/user/resetPassword"),
    ("post", "/jackey/user/changePassword"),
    ("post", "/jackey/user/sessions"),
    ("post", "/jackey/user/sessions/revoke"),
    ("post", "/jackey/user/notices"),
    ("post", "/jackey/user/notices/read"),
    // routes/files.rs
    ("post", "/jackey/user/identity/apply"),
    ("post", "/jackey/user/identity"),
    ("get", "/files/{key}"),
    // routes/pay.rs
    ("post", "/jackey/loan/recharge"),
    ("post", "/jackey/payment/webhook"),
    ("get", "/pay/sandbox/{session}"),
    ("post", "/pay/sandbox/{session}"),
    // routes/admin.rs
    ("post", "/admin/api/login"),
    ("post", "/admin/api/logout"),
    ("post", "/admin/api/orders/queue"),
    ("post", "/admin/api/orders/detail"),
    ("post", "/admin/api/orders/startReview"),
    ("post", "/admin/api/orders/passFirst"),
    ("post", "/admin/api/orders/passFinal"),
    ("post", "/admin/api/orders/refuse"),
    ("post", "/admin/api/orders/requestResubmission"),
    ("post", "/admin/api/orders/history"),
    ("post", "/admin/api/users/detail"),
    ("post", "/admin/api/users/verifyIdentity"),
    ("post", "/admin/api/users/rejectIdentity"),
    ("post", "/admin/api/users/hold"),
    ("post", "/admin/api/users/releaseHold"),
    ("post", "/admin/api/users/erase"),
    ("post", "/admin/api/repayments/manual"),
    ("post", "/admin/api/collections/queue"),
    ("post", "/admin/api/collections/record"),
    ("post", "/admin/api/collections/contact"),
    ("post", "/admin/api/collections/assign"),
    ("post", "/admin/api/collections/promise"),
    ("post", "/admin/api/collections/book"),
    ("post", "/admin/api/collections/waive"),
    ("post", "/admin/api/collections/proposePlan"),
    ("post", "/admin/api/collections/approvePlan"),
    ("post", "/admin/api/collections/chargeOff"),
    ("post", "/admin/api/collections/reverseChargeOff"),
    ("post", "/admin/api/ledger/journal"),
    ("post", "/admin/api/ledger/trialBalance"),
    ("post", "/admin/api/me"),
    ("post", "/admin/api/staff/list"),
    ("post", "/admin/api/staff/create"),
    ("post", "/admin/api/staff/assignRoles"),
    ("post", "/admin/api/staff/disable"),
    ("post", "/admin/api/staff/enable"),
    ("post", "/admin/api/staff/resetPassword"),
    ("post", "/admin/api/staff/setupInfo"),
    ("post", "/admin/api/staff/completeSetup"),
    ("post", "/admin/api/audit/trail"),
    ("post", "/admin/api/audit/export"),
    ("post", "/admin/api/products/list"),
    ("post", "/admin/api/products/propose"),
    ("post", "/admin/api/products/approve"),
    ("post", "/admin/api/products/reject"),
    ("post", "/admin/api/settings/list"),
    ("post", "/admin/api/settings/propose"),
    ("post", "/admin/api/settings/approve"),
    ("post", "/admin/api/settings/reject"),
    // PDF documents (routes::documents).
    ("post", "/jackey/loan/contractPdf"),
    ("post", "/jackey/loan/receiptPdf"),
    ("post", "/jackey/loan/statementPdf"),
    ("post", "/jackey/loan/receipts"),
    ("post", "/admin/api/documents/contractPdf"),
    ("post", "/admin/api/documents/receiptPdf"),
    ("post", "/admin/api/documents/statementPdf"),
    ("post", "/admin/api/documents/receipts"),
    ("post", "/admin/api/documents/downloads"),
    // Personal data export (routes::data_export).
    ("post", "/jackey/user/dataExport"),
    ("post", "/admin/api/users/dataExport"),
    ("post", "/admin/api/users/exportLog"),
];

type RouteSet = BTreeSet<(String, String)>;

fn listed() -> RouteSet {
    let set: RouteSet = ROUTES
        .iter()
        .map(|(method, path)| (method.to_string(), path.to_string()))
        .collect();
    assert_eq!(set.len(), ROUTES.len(), "ROUTES lists a route twice");
    set
}

/// What is in `left` and not in `right`, for the failure message.
fn missing(left: &RouteSet, right: &RouteSet) -> Vec<String> {
    left.difference(right)
        .map(|(method, path)| format!("{} {path}", method.to_uppercase()))
        .collect()
}

fn assert_same(what_left: &str, left: &RouteSet, what_right: &str, right: &RouteSet) {
    let only_left = missing(left, right);
    let only_right = missing(right, left);
    assert!(
        only_left.is_empty() && only_right.is_empty(),
        "{what_left} but not {what_right}: {only_left:?}\n{what_right} but not {what_left}: {only_right:?}"
    );
}

async fn document(app: &TestApp) -> Value {
    let request = Request::builder()
        .method(Method::GET)
        .uri("/api-docs/openapi.json")
        .body(Body::empty())
        .expect("request");
    let response = app.router.clone().oneshot(request).await.expect("answer");
    assert_eq!(response.status(), StatusCode::OK);
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    assert!(
        content_type.starts_with("application/json"),
        "{content_type}"
    );
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    serde_json::from_slice(&bytes).expect("the document is JSON")
}

/// `(method, path)` of every operation in the document.
fn documented(document: &Value) -> RouteSet {
    let paths = document["paths"].as_object().expect("paths");
    let mut set = RouteSet::new();
    for (path, item) in paths {
        let item = item.as_object().expect("path item");
        for method in [
            "get", "put", "post", "delete", "options", "head", "patch", "trace",
        ] {
            if item.contains_key(method) {
                set.insert((method.to_string(), path.clone()));
            }
        }
    }
    set
}

/// The routes registered with `.route("path", method(handler)...)` in `api/src`,
/// with axum's `{*rest}` written `{rest}` as in the document.
fn in_source() -> RouteSet {
    let mut set = RouteSet::new();
    let mut files = vec![];
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("api/src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    for file in files {
        let text = std::fs::read_to_string(&file).expect("source");
        // Comments may mention `.route(` too.
        let code: String = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for (start, _) in code.match_indices(".route(") {
            let args = &code[start + ".route(".len()..];
            let args = args.trim_start();
            let path = args
                .strip_prefix('"')
                .and_then(|rest| rest.split('"').next())
                .unwrap_or_else(|| panic!("{}: .route( without a literal path", file.display()));
            let path = path.replace("{*", "{");
            // The handler expression, up to the parenthesis that closes `.route(`.
            let mut depth = 1;
            let mut end = args.len();
            for (i, c) in args.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            end = i;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let handlers = &args[..end];
            let mut found = false;
            for method in ["get", "post", "put", "delete", "patch", "head", "options"] {
                let call = format!("{method}(");
                for (at, _) in handlers.match_indices(&call) {
                    let before = handlers[..at].chars().next_back();
                    if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                        set.insert((method.to_string(), path.clone()));
                        found = true;
                    }
                }
            }
            assert!(found, "{}: no method for {path}", file.display());
        }
    }
    set
}

#[tokio::test]
async fn the_document_parses_as_openapi_3() {
    let app = TestApp::sqlite().await;
    let document = document(&app).await;
    let version = document["openapi"].as_str().expect("openapi version");
    assert!(version.starts_with("3."), "{version}");
    assert!(document["info"]["title"].is_string());
    // The whole document deserializes into utoipa's OpenAPI model.
    let parsed: utoipa::openapi::OpenApi =
        serde_json::from_value(document.clone()).expect("an OpenAPI document");
    assert!(!parsed.paths.paths.is_empty());
    // Every `$ref` points at a schema that exists.
    let schemas = document["components"]["schemas"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let text = document.to_string();
    for (at, _) in text.match_indices("\"$ref\":\"#/components/schemas/") {
        let rest = &text[at + "\"$ref\":\"#/components/schemas/".len()..];
        let name = rest.split('"').next().unwrap_or_default();
        assert!(schemas.contains_key(name), "dangling $ref to {name}");
    }
    // Operation ids are unique (utoipa names them after the handlers).
    let mut ids = BTreeSet::new();
    for item in document["paths"].as_object().expect("paths").values() {
        for operation in item.as_object().expect("item").values() {
            if let Some(id) = operation["operationId"].as_str() {
                assert!(ids.insert(id.to_string()), "operationId {id} twice");
            }
        }
    }
    // Borrower and auditor calls carry the bearer scheme, which is declared.
    assert_eq!(
        document["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    for (path, method) in [
        ("/jackey/user/info", "post"),
        ("/jackey/loan/apply", "post"),
        ("/admin/api/orders/queue", "post"),
        ("/files/{key}", "get"),
    ] {
        let security = &document["paths"][path][method]["security"];
        assert_eq!(security[0]["bearer"], serde_json::json!([]), "{path}");
    }
    // Every envelope's `data` may be null (domain errors answer HTTP 200 with it).
    for (name, schema) in &schemas {
        if !name.starts_with("Envelope_") {
            continue;
        }
        let data = &schema["properties"]["data"];
        let text = data.to_string();
        let nullable = data["type"] == "null"
            || data["type"]
                .as_array()
                .is_some_and(|t| t.contains(&json!("null")))
            || data["oneOf"]
                .as_array()
                .is_some_and(|s| s.contains(&json!({"type": "null"})));
        assert!(nullable, "{name}: data is not nullable: {text}");
    }
    // Money is a decimal string.
    let quote = &document["components"]["schemas"]["QuoteBody"]["properties"]["amt"];
    assert_eq!(quote["type"], "string", "{quote}");
}

#[tokio::test]
async fn the_document_lists_every_route_the_router_serves() {
    let app = TestApp::sqlite().await;
    let listed = listed();
    assert_same(
        "in ROUTES",
        &listed,
        "in the document",
        &documented(&document(&app).await),
    );
    assert_same("in ROUTES", &listed, "in api/src", &in_source());
}

/// The routes whose document names the `Idempotency-Key` header are exactly those the
/// middleware serves it on (`idempotency::IDEMPOTENT_PATHS`): elsewhere it is ignored.
#[tokio::test]
async fn the_idempotent_routes_are_the_documented_ones() {
    let app = TestApp::sqlite().await;
    let document = document(&app).await;
    let mut documented = BTreeSet::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for operation in item.as_object().expect("path item").values() {
            let takes_key = operation["parameters"]
                .as_array()
                .is_some_and(|parameters| {
                    parameters
                        .iter()
                        .any(|p| p["name"] == "Idempotency-Key" && p["in"] == "header")
                });
            if takes_key {
                documented.insert(path.clone());
            }
        }
    }
    let served: BTreeSet<String> = api::http::route_table::idempotent_paths()
        .map(|path| path.to_string())
        .collect();
    assert_eq!(documented, served);
}

#[tokio::test]
async fn every_listed_route_is_served() {
    let app = TestApp::sqlite().await;
    let call = |method: Method, path: String| {
        let router = app.router.clone();
        async move {
            let request = Request::builder()
                .method(method)
                .uri(path)
                .body(Body::empty())
                .expect("request");
            router.oneshot(request).await.expect("answer").status()
        }
    };
    // The probe tells an unknown path from a known one.
    assert_eq!(
        call(Method::DELETE, "/no/such/route".into()).await,
        StatusCode::NOT_FOUND
    );
    for (method, path) in ROUTES {
        let path = path
            .replace("{purpose}", "register")
            .replace("{key}", "id/someone/front.jpg")
            .replace("{session}", "00000000-0000-4000-8000-000000000000");
        let method: Method = method.to_uppercase().parse().expect("method");
        assert_eq!(
            call(Method::DELETE, path.clone()).await,
            StatusCode::METHOD_NOT_ALLOWED,
            "DELETE {path}: the path is not routed"
        );
        assert_ne!(
            call(method.clone(), path.clone()).await,
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {path}: the method is not routed"
        );
    }
}

// ---------------------------------------------------------------------------------
// What the fuzzing found.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn odd_input_answers_an_envelope_error_on_sqlite() {
    odd_input(&TestApp::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn odd_input_answers_an_envelope_error_on_postgres() {
    if let Some(app) = TestApp::postgres().await {
        odd_input(&app).await;
    }
}

/// Method, path, headers and body of a request; the status and body of its answer.
async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    headers: &[(&str, String)],
    body: impl Into<Body>,
) -> (StatusCode, Vec<u8>) {
    let mut request = Request::builder().method(method).uri(path);
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    let response = app
        .router
        .clone()
        .oneshot(request.body(body.into()).expect("request"))
        .await
        .expect("answer");
    let status = response.status();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (status, bytes.to_vec())
}

fn envelope(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|_| panic!("not an envelope: {}", String::from_utf8_lossy(bytes)))
}

async fn odd_input(app: &TestApp) {
    let mobile = format!("09{:09}", Uuid::now_v7().as_u128() % 1_000_000_000);
    let register =
        json!({"mobile": mobile, "password": "secret-pass", "telemarketingCode": "WELCOME"});
    let borrower = app
        .ok(
            "/jackey/user/register",
            None,
            app.with_register_code(register).await,
        )
        .await["token"]
        .as_str()
        .expect("token")
        .to_string();
    let username = format!("fuzz{}", Uuid::now_v7().simple());
    api::accounts::auditors::create_auditor(&app.state.database, &username, "correct horse")
        .await
        .expect("auditor");
    let login = json!({"username": username, "password": "correct horse"});
    let auditor = app.ok("/admin/api/login", None, login).await["token"]
        .as_str()
        .expect("token")
        .to_string();

    // A NUL character in a text: PostgreSQL cannot store it, so it used to fail as
    // code 500 (unknown error); now 10004 naming the field, on every store.
    let nul = r"0917\u00001234567";
    for (path, token, body, field) in [
        (
            "/jackey/user/login",
            None,
            format!(r#"{{"mobile":"{nul}","password":"x"}}"#),
            "mobile",
        ),
        (
            "/jackey/user/register",
            None,
            format!(r#"{{"mobile":"{nul}","password":"secret-pass","smsCode":"123456"}}"#),
            "mobile",
        ),
        (
            "/jackey/user/unlock",
            None,
            format!(r#"{{"mobile":"{nul}","unlockCode":"1"}}"#),
            "mobile",
        ),
        (
            "/admin/api/login",
            None,
            format!(r#"{{"username":"{nul}","password":"x"}}"#),
            "username",
        ),
        (
            "/jackey/user/updateEmergency",
            Some(borrower.as_str()),
            format!(r#"{{"contacts":[{{"name":"{nul}","relation":"x","mobile":"09171234567"}}]}}"#),
            "contacts[0].name",
        ),
        (
            "/jackey/loan/orderInfo",
            Some(borrower.as_str()),
            format!(r#"{{"loanOrderId":"{nul}"}}"#),
            "loanOrderId",
        ),
        (
            "/admin/api/ledger/journal",
            Some(auditor.as_str()),
            format!(r#"{{"account":"{nul}"}}"#),
            "account",
        ),
    ] {
        let answer = app.post_raw(path, token, body).await;
        assert_eq!(answer["code"], 10004, "{path}: {answer}");
        assert!(
            answer["msg"]
                .as_str()
                .unwrap_or_default()
                .starts_with(field),
            "{path}: {answer}"
        );
    }
    // An escaped backslash before `u0000` is not a NUL.
    let answer = app
        .post_raw(
            "/jackey/user/login",
            None,
            r#"{"mobile":"0917\\u0000","password":"x"}"#.to_string(),
        )
        .await;
    assert_eq!(answer["code"], 10002, "{answer}");

    // The webhook: signed with a NUL, 400 + 10004; unsigned, still 401.
    let event = r#"{"eventId":"e\u0000","sessionId":"00000000-0000-4000-8000-000000000000","paymentRef":"r","amount":"1.00","outcome":"paid"}"#;
    let now = chrono::Utc::now().timestamp();
    let signed = [
        (api::providers::signing::TIMESTAMP_HEADER, now.to_string()),
        (
            api::providers::signing::SIGNATURE_HEADER,
            api::providers::signing::webhook_secret(&app.state.env).sign(now, event.as_bytes()),
        ),
        ("content-type", "application/json".to_string()),
    ];
    let (status, body) = send(app, Method::POST, "/jackey/payment/webhook", &signed, event).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(envelope(&body)["code"], 10004);
    let (status, _) = send(
        app,
        Method::POST,
        "/jackey/payment/webhook",
        &signed[2..],
        event,
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // The ID photo upload without a multipart body: an envelope (it was a plain-text
    // 400 from axum).
    let bearer = ("authorization", format!("Bearer {borrower}"));
    for content_type in ["application/json", "multipart/form-data", "text/plain"] {
        let headers = [bearer.clone(), ("content-type", content_type.to_string())];
        let (status, body) = send(
            app,
            Method::POST,
            "/jackey/user/identity/apply",
            &headers,
            "{}",
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{content_type}");
        assert_eq!(envelope(&body)["code"], 10004, "{content_type}");
    }

    // A path segment that is not UTF-8: an envelope for the SMS call, a 404 page for
    // the sandbox and the files (they were axum's plain-text 400).
    let json_type = ("content-type", "application/json".to_string());
    let (status, body) = send(
        app,
        Method::POST,
        "/jackey/sms/%FF",
        &[json_type],
        r#"{"mobile":"09171234567"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(envelope(&body)["code"], 10004);
    for method in [Method::GET, Method::POST] {
        let (status, _) = send(app, method, "/pay/sandbox/%FF", &[], "").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }

    // Stored files: an absolute key would have escaped the storage directory for an
    // auditor (`root.join("/etc/passwd")` is `/etc/passwd`); such keys name no record.
    let as_auditor = [("authorization", format!("Bearer {auditor}"))];
    for path in [
        "/files//etc/passwd",
        "/files//etc/hostname",
        "/files/id/%2E%2E/%2E%2E/etc/passwd",
        "/files/./id/x.png",
        "/files/id//x.png",
        "/files/id/x%00.png",
        "/files/%FF",
    ] {
        let (status, body) = send(app, Method::GET, path, &as_auditor, "").await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(envelope(&body)["code"], 40007, "{path}");
    }
}

/// A PNG of about `side * side * 3` bytes (noise does not compress).
fn noisy_png(side: u32) -> Vec<u8> {
    let mut seed: u32 = 0x2545_f491;
    let pixels = image::RgbImage::from_fn(side, side, |_, _| {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        let [r, g, b, _] = seed.to_le_bytes();
        image::Rgb([r, g, b])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(pixels)
        .write_to(&mut out, image::ImageFormat::Png)
        .expect("png");
    out.into_inner()
}

/// Uploads up to the documented 5 MB per image are accepted, not only up to axum's
/// default 2 MB body limit (which `lib.rs` must lift to its own 8 MB limit).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_above_two_megabytes_are_accepted() {
    use base64::Engine;
    let app = TestApp::sqlite().await;
    let mobile = format!("09{:09}", Uuid::now_v7().as_u128() % 1_000_000_000);
    let register =
        json!({"mobile": mobile, "password": "secret-pass", "telemarketingCode": "WELCOME"});
    let token = app
        .ok(
            "/jackey/user/register",
            None,
            app.with_register_code(register).await,
        )
        .await["token"]
        .as_str()
        .expect("token")
        .to_string();

    // A 3 MB signature: 4 MB of JSON once base64-encoded.
    let big = noisy_png(1000);
    assert!(big.len() > 2_900_000, "{}", big.len());
    let img = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&big)
    );
    let answer = app
        .post(
            "/jackey/user/signatureImg/upload",
            Some(&token),
            json!({ "img": img }),
        )
        .await;
    assert_eq!(answer["code"], 0, "{answer}");

    // Three 1 MB ID photos in one multipart body.
    let photo = noisy_png(600);
    let boundary = "photo-boundary";
    let mut body = Vec::new();
    for name in ["frontImage", "backImage", "handHoldImage"] {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; \
                 filename=\"{name}.png\"\r\nContent-Type: image/png\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(&photo);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    let headers = [
        ("authorization", format!("Bearer {token}")),
        (
            "content-type",
            format!("multipart/form-data; boundary={boundary}"),
        ),
    ];
    let (status, answer) = send(
        &app,
        Method::POST,
        "/jackey/user/identity/apply",
        &headers,
        body,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(envelope(&answer)["code"], 0, "{}", envelope(&answer));
}

/// The web app's types are generated from a committed copy of this document
/// (`web/src/lib/openapi.json` → `web/src/lib/api-schema.ts`, checked by
/// `web/scripts/contract.mjs --check`); this fails when the copy is stale.
#[test]
fn the_web_apps_copy_of_the_document_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/lib/openapi.json");
    let committed = std::fs::read_to_string(path).expect("web/src/lib/openapi.json");
    let current = api::http::openapi::document().to_pretty_json().unwrap() + "\n";
    assert!(
        committed == current,
        "web/src/lib/openapi.json differs from the api's document: run scripts/contract"
    );
}
