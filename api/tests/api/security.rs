//! Locks and unlocking (P4), ID-photo uploads (content-typed, metadata stripped) and
//! who may read a stored image.

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use crate::helpers::TestApp;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_on_sqlite() {
    let app = TestApp::sqlite().await;
    lock_and_unlock(&app).await;
    uploads(&app).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_on_postgres() {
    if let Some(app) = TestApp::postgres().await {
        lock_and_unlock(&app).await;
        uploads(&app).await;
    }
}

async fn register(app: &TestApp, mobile: &str) -> String {
    let body = json!({"mobile": mobile, "password": "secret-pass", "telemarketingCode": "WELCOME"});
    app.ok("/jackey/user/register", None, body).await["token"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn last_code(app: &TestApp, mobile: &str) -> String {
    let sql = "select body from sms_outbox where mobile = $1 order by created_at desc limit 1";
    let body: String = match &app.state.database {
        projections::store::Database::Sqlite(pool) => sqlx::query_scalar(sql)
            .bind(mobile)
            .fetch_one(pool)
            .await
            .unwrap(),
        projections::store::Database::Postgres(pool) => sqlx::query_scalar(sql)
            .bind(mobile)
            .fetch_one(pool)
            .await
            .unwrap(),
    };
    body.split_whitespace()
        .find(|w| w.len() == 7 && w.ends_with('.') && w[..6].chars().all(|c| c.is_ascii_digit()))
        .map(|w| w[..6].to_string())
        .expect("a code in the SMS")
}

async fn lock_and_unlock(app: &TestApp) {
    let mobile = "09170000101";
    register(app, mobile).await;
    let login = |password: &str| json!({"mobile": mobile, "password": password});
    for left in [4, 3, 2, 1] {
        let answer = app
            .fails("/jackey/user/login", None, login("wrong-pass"), 10002)
            .await;
        assert!(
            answer["msg"]
                .as_str()
                .unwrap()
                .contains(&format!("{left} attempts left")),
            "{answer}"
        );
    }
    // The fifth wrong password locks the account; then even the right one is refused.
    app.fails("/jackey/user/login", None, login("wrong-pass"), 20003)
        .await;
    let locked = app
        .fails("/jackey/user/login", None, login("secret-pass"), 20003)
        .await;
    assert!(
        locked["msg"]
            .as_str()
            .unwrap()
            .contains("too many wrong passwords"),
        "{locked}"
    );
    // Unlock with an SMS code: one request per 60 s, a wrong code refused, no payment.
    app.ok("/jackey/sms/unlock", None, json!({"mobile": mobile}))
        .await;
    app.fails("/jackey/sms/unlock", None, json!({"mobile": mobile}), 5)
        .await;
    app.fails(
        "/jackey/user/unlock",
        None,
        json!({"mobile": mobile, "unlockCode": "000000x"}),
        10011,
    )
    .await;
    app.fails(
        "/jackey/user/unlock",
        None,
        json!({"mobile": mobile, "unlockCode": ""}),
        10004,
    )
    .await;
    let code = last_code(app, mobile).await;
    let unlocked = app
        .ok(
            "/jackey/user/unlock",
            None,
            json!({"mobile": mobile, "unlockCode": code}),
        )
        .await;
    assert_eq!(unlocked["unlockToken"].as_str().unwrap().len(), 64);
    // A code is single use.
    app.fails(
        "/jackey/user/unlock",
        None,
        json!({"mobile": mobile, "unlockCode": code}),
        10011,
    )
    .await;
    app.ok("/jackey/user/login", None, login("secret-pass"))
        .await;
}

/// A tiny JPEG with an EXIF segment carrying a secret, as phones write them.
fn jpeg_with_exif() -> Vec<u8> {
    let mut pixels = image::RgbImage::new(8, 8);
    pixels.put_pixel(1, 1, image::Rgb([200, 10, 10]));
    let mut plain = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(pixels)
        .write_to(&mut plain, image::ImageFormat::Jpeg)
        .unwrap();
    let plain = plain.into_inner();
    let payload = b"Exif\0\0GPS-SECRET-14.5995N-120.9842E";
    let length = (payload.len() + 2) as u16;
    let mut with_exif = vec![0xFF, 0xD8, 0xFF, 0xE1];
    with_exif.extend_from_slice(&length.to_be_bytes());
    with_exif.extend_from_slice(payload);
    with_exif.extend_from_slice(&plain[2..]);
    with_exif
}

async fn multipart(app: &TestApp, token: &str, parts: &[(&str, Vec<u8>)]) -> Value {
    let boundary = "----test-boundary-7d3a";
    let mut body = Vec::new();
    for (name, bytes) in parts {
        body.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{name}.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n").as_bytes());
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    let request = Request::post("/jackey/user/identity/apply")
        .header(
            "content-type",
            format!("multipart/form-data; boundary={boundary}"),
        )
        .header("authorization", format!("Bearer {token}"))
        .body(Body::from(body))
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&bytes).unwrap()
}

async fn get_file(app: &TestApp, url: &str, token: &str) -> (u16, Vec<u8>) {
    let request = Request::get(url)
        .header("authorization", format!("Bearer {token}"))
        .body(Body::empty())
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    (
        status,
        response
            .into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec(),
    )
}

async fn uploads(app: &TestApp) {
    let token = register(app, "09170000202").await;
    let photo = jpeg_with_exif();
    assert!(photo.windows(10).any(|w| w == b"GPS-SECRET"));
    // Not an image (by content, whatever the name says) → 20000; a part missing → 10004.
    let text = multipart(
        app,
        &token,
        &[
            ("frontImage", b"hello, not a jpeg".to_vec()),
            ("backImage", photo.clone()),
            ("handHoldImage", photo.clone()),
        ],
    )
    .await;
    assert_eq!(text["code"], 20000, "{text}");
    let missing = multipart(app, &token, &[("frontImage", photo.clone())]).await;
    assert_eq!(missing["code"], 10004, "{missing}");
    let huge = multipart(
        app,
        &token,
        &[
            ("frontImage", vec![0xFF; 5 * 1024 * 1024]),
            ("backImage", photo.clone()),
            ("handHoldImage", photo.clone()),
        ],
    )
    .await;
    assert_eq!(huge["code"], 20000, "{huge}");
    let done = multipart(
        app,
        &token,
        &[
            ("frontImage", photo.clone()),
            ("backImage", photo.clone()),
            ("handHoldImage", photo.clone()),
        ],
    )
    .await;
    assert_eq!(done["code"], 0, "{done}");
    let info = app.ok("/jackey/user/info", Some(&token), json!({})).await;
    assert_eq!(info["userQualificationView"]["identity"], 1);
    let images = app
        .ok("/jackey/user/identity", Some(&token), json!({}))
        .await;
    let front = images["frontImage"].as_str().unwrap().to_string();
    // The owner gets the re-encoded image without its metadata.
    let (status, stored) = get_file(app, &front, &token).await;
    assert_eq!(status, 200);
    assert!(stored.starts_with(&[0xFF, 0xD8]), "still a JPEG");
    assert!(
        !stored.windows(10).any(|w| w == b"GPS-SECRET"),
        "EXIF stripped"
    );
    // Another borrower, or nobody, gets nothing.
    let other = register(app, "09170000303").await;
    assert_eq!(get_file(app, &front, &other).await.0, 404);
    assert_eq!(get_file(app, &front, "garbage").await.0, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_headers_and_metrics() {
    let app = TestApp::sqlite().await;
    // Login is limited per client: ten at once, then code 5.
    let body = json!({"mobile": "09170009999", "password": "whatever-1"});
    let mut codes = Vec::new();
    for _ in 0..12 {
        codes.push(
            app.post("/jackey/user/login", None, body.clone()).await["code"]
                .as_u64()
                .unwrap(),
        );
    }
    assert_eq!(&codes[..10], &[10002; 10], "{codes:?}");
    assert_eq!(&codes[10..], &[5, 5], "{codes:?}");
    // Other calls are not limited.
    app.ok("/jackey/loan/appList", None, json!({})).await;
    // Security headers on every response.
    let response = app
        .router
        .clone()
        .oneshot(Request::get("/healthz").body(Body::empty()).unwrap())
        .await
        .unwrap();
    let headers = response.headers();
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(headers["x-frame-options"], "DENY");
    assert!(headers["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("default-src 'self'"));
    assert!(
        headers.get("access-control-allow-origin").is_none(),
        "same origin only"
    );
    // Metrics: request counts and every worker's lag.
    let response = app
        .router
        .clone()
        .oneshot(Request::get("/metrics").body(Body::empty()).unwrap())
        .await
        .unwrap();
    let text = String::from_utf8(
        response
            .into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec(),
    )
    .unwrap();
    assert!(
        text.contains("http_requests_total{class=\"jackey\"}"),
        "{text}"
    );
    for worker in [
        "users",
        "orders",
        "wallets",
        "ledger",
        "process:loan",
        "worker:payout",
    ] {
        assert!(
            text.contains(&format!("projection_lag_events{{worker=\"{worker}\"}}")),
            "{worker}: {text}"
        );
    }
}
