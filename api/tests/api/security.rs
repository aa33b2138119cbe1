//! Locks and unlocking (P4), ID-photo uploads (content-typed, metadata stripped) and
//! who may read a stored image.

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use serde_json::json;
use tower::ServiceExt;

use crate::helpers::{logs, on_both_stores, png_photo, questionnaire, TestApp, PNG};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_on_sqlite() {
    let app = TestApp::sqlite().await;
    lock_and_unlock(&app).await;
    uploads(&app).await;
    others_records(&app).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_on_postgres() {
    if let Some(app) = TestApp::postgres().await {
        lock_and_unlock(&app).await;
        uploads(&app).await;
        others_records(&app).await;
    }
}

async fn lock_and_unlock(app: &TestApp) {
    let mobile = "09170000101";
    app.register(mobile).await;
    let login = |password: &str| json!({"mobile": mobile, "password": password});
    // PRODUCT.md 12.2: a login failure says nothing about the account, so every one
    // reads as a phone without an account does: no attempts left, no lock.
    let unknown = json!({"mobile": "09170000199", "password": "wrong-pass"});
    let unknown = app.fails("/jackey/user/login", None, unknown, 10002).await;
    for _ in 0..5 {
        let answer = app
            .fails("/jackey/user/login", None, login("wrong-pass"), 10002)
            .await;
        assert_eq!(answer["msg"], unknown["msg"], "{answer}");
    }
    // The fifth locked the account: a wrong password still answers as for an
    // unknown phone, so the lock stops the guessing without telling the guesser;
    // only the right password learns of the lock, and is not signed in (issue 52).
    let guessed = app
        .fails("/jackey/user/login", None, login("guess-pass"), 10002)
        .await;
    assert_eq!(guessed["msg"], unknown["msg"], "{guessed}");
    let locked = app
        .fails("/jackey/user/login", None, login("secret-pass"), 20003)
        .await;
    assert!(locked["data"].is_null(), "{locked}");
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
    let code = app.last_sms_code(mobile).await;
    let unlocked = app
        .ok(
            "/jackey/user/unlock",
            None,
            json!({"mobile": mobile, "unlockCode": code}),
        )
        .await;
    assert!(unlocked.is_null(), "no unlock token: {unlocked}");
    // A code is single use: none is waiting any more, so ask for a new one.
    app.fails(
        "/jackey/user/unlock",
        None,
        json!({"mobile": mobile, "unlockCode": code}),
        10013,
    )
    .await;
    app.ok("/jackey/user/login", None, login("secret-pass"))
        .await;
}

/// A tiny JPEG with an EXIF segment carrying a secret, as phones write them.
fn jpeg_with_exif() -> Vec<u8> {
    let plain = crate::helpers::photo(image::ImageFormat::Jpeg);
    let payload = b"Exif\0\0GPS-SECRET-14.5995N-120.9842E";
    let length = (payload.len() + 2) as u16;
    let mut with_exif = vec![0xFF, 0xD8, 0xFF, 0xE1];
    with_exif.extend_from_slice(&length.to_be_bytes());
    with_exif.extend_from_slice(payload);
    with_exif.extend_from_slice(&plain[2..]);
    with_exif
}

async fn uploads(app: &TestApp) {
    let token = app.register("09170000202").await;
    let photo = jpeg_with_exif();
    assert!(photo.windows(10).any(|w| w == b"GPS-SECRET"));
    // Not an image (by content, whatever the name says) → 20000; a part missing → 10004.
    let text = app
        .upload_identity_parts(
            &token,
            &[
                ("frontImage", b"hello, not a jpeg".to_vec()),
                ("backImage", photo.clone()),
                ("handHoldImage", photo.clone()),
            ],
        )
        .await;
    assert_eq!(text["code"], 20000, "{text}");
    let missing = app
        .upload_identity_parts(&token, &[("frontImage", photo.clone())])
        .await;
    assert_eq!(missing["code"], 10004, "{missing}");
    let huge = app
        .upload_identity_parts(
            &token,
            &[
                ("frontImage", vec![0xFF; 5 * 1024 * 1024]),
                ("backImage", photo.clone()),
                ("handHoldImage", photo.clone()),
            ],
        )
        .await;
    assert_eq!(huge["code"], 20000, "{huge}");
    let done = app
        .upload_identity_parts(
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
    let stored = app.file(&front, Some(&token)).await.expect("the image");
    assert!(stored.starts_with(&[0xFF, 0xD8]), "still a JPEG");
    assert!(
        !stored.windows(10).any(|w| w == b"GPS-SECRET"),
        "EXIF stripped"
    );
}

/// Borrower A reaches nothing of borrower B's: B's ID photos and signature answer A
/// `{code: 40007, msg: "record not found", data: null}` while B and an auditor get the
/// bytes, and every call naming B's order answers A 40007 and records nothing, in each
/// status where B's own call would work.
async fn others_records(app: &TestApp) {
    let (token_b, _, order_b) = app.applicant("09170000505", "Ben Cruz").await;
    let token_a = app.register("09170000404").await;
    let (_, auditor) = app.auditor("records-auditor").await;
    let (a, b) = (Some(token_a.as_str()), Some(token_b.as_str()));

    let images = app.ok("/jackey/user/identity", b, json!({})).await;
    let info = app.ok("/jackey/user/info", b, json!({})).await;
    let urls = [
        images["frontImage"].as_str().unwrap(),
        images["backImage"].as_str().unwrap(),
        images["handHoldImage"].as_str().unwrap(),
        info["signatureImg"].as_str().unwrap(),
    ];
    for url in urls {
        let bytes = app.file(url, b).await.expect("the owner's image");
        assert!(bytes.starts_with(b"\x89PNG"), "{url}");
        assert_eq!(app.file(url, Some(&auditor)).await, Ok(bytes), "{url}");
        assert_eq!(
            app.file(url, a).await,
            Err(json!({"code": 40007, "msg": "record not found", "data": null})),
            "{url}"
        );
        assert_eq!(app.file(url, None).await.unwrap_err()["code"], 401);
        assert_eq!(
            app.file(url, Some("garbage")).await.unwrap_err()["code"],
            20001
        );
    }
    // A key of A's own shape that names nothing is not found either.
    let user_a = app.ok("/jackey/user/info", a, json!({})).await["userId"].clone();
    let missing = format!("/files/id/{}/front-none.png", user_a.as_str().unwrap());
    assert_eq!(app.file(&missing, a).await.unwrap_err()["code"], 40007);

    // Every call that takes an order id, with B's order, as A: 40007, nothing recorded.
    let calls = |order: &str| {
        let id = json!({ "loanOrderId": order });
        let withdraw = json!({"password": "246810", "withdrawAmount": "1000", "bankcard": "x", "loanOrderId": order});
        [
            ("/jackey/loan/orderInfo", id.clone()),
            ("/jackey/loan/orderTimeline", id.clone()),
            ("/jackey/loan/cancel", id.clone()),
            ("/jackey/loan/payoffQuote", id),
            ("/jackey/user/withdraw", withdraw),
        ]
    };
    // "Nothing recorded" is counted on the two records A's calls could touch (A's own
    // user and B's order): the background workers may append other events meanwhile
    // (the loan process crediting B's wallet after an approval, say).
    let user_a_id = user_a.as_str().unwrap().to_string();
    let touched = |order_b: String, user_a: String| async move {
        let database = &app.state.database;
        let order = projections::store::load_events::<aggregates::order::Order>(database, &order_b);
        let user = projections::store::load_events::<aggregates::user::User>(database, &user_a);
        order.await.unwrap().len() + user.await.unwrap().len()
    };
    let refused_to_a = |stage: &'static str| {
        let order_b = order_b.clone();
        let user_a = user_a_id.clone();
        async move {
            let before = touched(order_b.clone(), user_a.clone()).await;
            for (path, body) in calls(&order_b) {
                let answer = app.fails(path, a, body, 40007).await;
                assert_eq!(answer["msg"], "record not found", "{stage} {path}");
            }
            assert_eq!(
                touched(order_b, user_a).await,
                before,
                "{stage}: nothing recorded"
            );
        }
    };
    // Submitted: B reads the order and its timeline.
    refused_to_a("submitted").await;
    let id_b = json!({ "loanOrderId": order_b });
    assert_eq!(
        app.ok("/jackey/loan/orderInfo", b, id_b.clone()).await["status"],
        0
    );
    assert!(!app
        .ok("/jackey/loan/orderTimeline", b, id_b.clone())
        .await
        .as_array()
        .unwrap()
        .is_empty());
    // Approved: B may withdraw, A may not.
    app.approve(&token_b, &order_b).await;
    refused_to_a("approved").await;
    let withdraw = json!({"password": "246810", "withdrawAmount": "80000", "bankcard": "x", "loanOrderId": order_b});
    app.ok("/jackey/user/withdraw", b, withdraw).await;
    app.wait_status(&token_b, &order_b, 4).await;
    // Disbursed: B gets the payoff, A does not.
    refused_to_a("disbursed").await;
    assert_eq!(
        app.ok("/jackey/loan/payoffQuote", b, id_b).await["amount"],
        "80000.00"
    );
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
    // Answers that may carry personal data are never cached; others may be.
    assert!(headers.get("cache-control").is_none());
    for path in ["/jackey/user/info", "/admin/api/orders", "/files/id/x.jpg"] {
        let response = app
            .router
            .clone()
            .oneshot(Request::post(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.headers()["cache-control"], "no-store", "{path}");
    }
    // Metrics: only with METRICS_TOKEN as a bearer token; then request counts and
    // every worker's lag.
    let metrics = |auth: Option<&str>| {
        let mut request = Request::get("/metrics");
        if let Some(auth) = auth {
            request = request.header("authorization", auth);
        }
        app.router
            .clone()
            .oneshot(request.body(Body::empty()).unwrap())
    };
    for refused in [None, Some("Bearer wrong-token"), Some("Basic dGVzdA==")] {
        let response = metrics(refused).await.unwrap();
        assert_eq!(response.status(), 401, "{refused:?}");
    }
    let bearer = format!("Bearer {}", crate::helpers::METRICS_TOKEN);
    let response = metrics(Some(&bearer)).await.unwrap();
    assert_eq!(response.status(), 200);
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
        "receipts",
        "process:loan:0",
        "process:loan:3",
        "worker:payout",
        "worker:erasure",
        "worker:reminders",
    ] {
        assert!(
            text.contains(&format!("projection_lag_events{{worker=\"{worker}\"}}")),
            "{worker}: {text}"
        );
    }
}

/// At rest, after a loan's whole cycle of workflow steps, every log consumer's lag on
/// `/metrics` is 0: the operator's alert (README, "Monitoring") fires on a lag that
/// stays above 0. The loan process's lag was read from a checkpoint its partitions no
/// longer move, and never fell.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_lag_on_metrics_falls_to_zero_at_rest() {
    let app = TestApp::sqlite().await;
    let (token, _) = app.qualified_borrower("09175550031").await;
    let apply = json!({"amt": "100000", "periodDays": 6, "appId": 1});
    let order = app.ok("/jackey/loan/apply", Some(&token), apply).await;
    app.approve(&token, order["loanOrderId"].as_str().unwrap())
        .await;
    app.quiesce().await;
    let request = Request::get("/metrics")
        .header(
            "authorization",
            format!("Bearer {}", crate::helpers::METRICS_TOKEN),
        )
        .body(Body::empty())
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8(body.to_vec()).unwrap();
    let lags: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("projection_lag_events{"))
        .collect();
    assert_eq!(lags.len(), api::workflows::consumer_names().len(), "{text}");
    for line in lags {
        assert!(line.ends_with(" 0"), "{line}");
    }
}

on_both_stores!(
    secrets_stay_out_of_the_logs,
    logs_hold_no_password_pin_token_id_number_card_number_or_sms_code_on_sqlite,
    logs_hold_no_password_pin_token_id_number_card_number_or_sms_code_on_postgres
);

/// Every line logged, at every level, while a borrower registers with a password, logs
/// in (once wrongly), fills in an ID number, binds and replaces (SMS code) a bank
/// account, sets a PIN and withdraws (once with a wrong PIN), and an auditor logs in:
/// none of those secrets, nor a session token, appears.
async fn secrets_stay_out_of_the_logs(app: TestApp) {
    let mobile = "09170007007";
    let password = "Log-Audit-Pass-7731";
    let pin = "731946";
    let id_number = "740112345678";
    let cards = ["004455667788", "008877665544"];
    let (secrets, logged) = logs::capture(async {
        let mut secrets: Vec<(&str, String)> = vec![
            ("password", password.to_string()),
            ("PIN", pin.to_string()),
            ("ID number", id_number.to_string()),
            ("card number", cards[0].to_string()),
            ("card number", cards[1].to_string()),
            ("auditor password", "correct horse".to_string()),
        ];
        let register =
            json!({"mobile": mobile, "password": password, "telemarketingCode": "WELCOME"});
        let first = app
            .ok(
                "/jackey/user/register",
                None,
                app.with_register_code(register).await,
            )
            .await;
        secrets.push(("token", first["token"].as_str().unwrap().to_string()));
        let wrong = json!({"mobile": mobile, "password": "Wrong-Pass-0000"});
        app.fails("/jackey/user/login", None, wrong, 10002).await;
        let login = json!({"mobile": mobile, "password": password});
        let token = app.ok("/jackey/user/login", None, login).await["token"]
            .as_str()
            .unwrap()
            .to_string();
        secrets.push(("token", token.clone()));
        let t = Some(token.as_str());
        let mut profile = crate::helpers::profile("Lia Reyes", mobile);
        profile["identity"] = json!(id_number);
        app.ok("/jackey/user/update", t, profile).await;
        let parts = ["frontImage", "backImage", "handHoldImage"].map(|name| (name, png_photo()));
        assert_eq!(app.upload_identity_parts(&token, &parts).await["code"], 0);
        let bank = |card: &str| json!({"bankName": "BDO Unibank", "cardNo": card});
        app.ok("/jackey/user/bank/binding", t, bank(cards[0])).await;
        app.ok("/jackey/sms/bank", None, json!({ "mobile": mobile }))
            .await;
        let code = app.last_sms_code(mobile).await;
        secrets.push(("SMS code", code.clone()));
        let mut replace = bank(cards[1]);
        replace["smsCode"] = json!(code);
        app.ok("/jackey/user/bank/binding", t, replace).await;
        app.ok("/jackey/user/signatureImg/upload", t, json!({"img": PNG}))
            .await;
        app.ok("/jackey/user/update", t, questionnaire()).await;
        app.ok("/jackey/user/withdrawPin", t, json!({ "pin": pin }))
            .await;
        let (_, auditor) = app.auditor("log-auditor").await;
        secrets.push(("auditor token", auditor.clone()));
        let user_id = app.ok("/jackey/user/info", t, json!({})).await["userId"].clone();
        let verify = json!({ "userId": user_id });
        app.ok("/admin/api/users/verifyIdentity", Some(&auditor), verify)
            .await;
        let terms = json!({"amt": "100000", "periodDays": 6, "appId": 1});
        let order_id = app.ok("/jackey/loan/apply", t, terms).await["loanOrderId"]
            .as_str()
            .unwrap()
            .to_string();
        app.approve(&token, &order_id).await;
        let withdraw =
            |pin: &str| json!({"password": pin, "withdrawAmount": "80000", "bankcard": "x"});
        app.fails("/jackey/user/withdraw", t, withdraw("111111"), 40008)
            .await;
        app.ok("/jackey/user/withdraw", t, withdraw(pin)).await;
        app.wait_status(&token, &order_id, 4).await;
        secrets
    })
    .await;
    // The capture works: the SMS sender's line (masked number) and the command bus's
    // debug lines are there.
    assert!(logged.contains("SMS code sent to the outbox"), "{logged}");
    assert!(
        logged.contains("*******7007"),
        "the masked number: {logged}"
    );
    assert!(logged.contains("command committed"), "{logged}");
    // What the lines say, without the time each starts with: a random 6-digit PIN
    // can be the microseconds of a timestamp (or part of a longer number, such as a
    // duration), which is no leak.
    let said: Vec<&str> = logged
        .lines()
        .map(|line| match line.split_once(' ') {
            Some((time, rest)) if time.ends_with('Z') && time.starts_with("20") => rest,
            _ => line,
        })
        .collect();
    for (what, secret) in secrets {
        let leaked: Vec<&str> = said
            .iter()
            .copied()
            .filter(|line| holds_number(line, &secret))
            .collect();
        assert!(
            leaked.is_empty(),
            "the {what} {secret:?} is in the logs: {}",
            leaked.join("\n")
        );
    }
}

/// Whether `secret` stands in `line` on its own: not as digits inside a longer
/// number (a secret that is not all digits is looked for anywhere).
fn holds_number(line: &str, secret: &str) -> bool {
    if !secret.bytes().all(|b| b.is_ascii_digit()) {
        return line.contains(secret);
    }
    line.match_indices(secret).any(|(at, _)| {
        let before = line[..at].bytes().next_back();
        let after = line[at + secret.len()..].bytes().next();
        !before.is_some_and(|b| b.is_ascii_digit()) && !after.is_some_and(|b| b.is_ascii_digit())
    })
}

on_both_stores!(
    reads_check_the_session_in_their_statement,
    one_statement_reads_refuse_revoked_expired_and_unknown_tokens_on_sqlite,
    one_statement_reads_refuse_revoked_expired_and_unknown_tokens_on_postgres
);

/// The four reads that fetch the session with their rows (`projections::reads`)
/// answer as `auth::check` decides: a live token reads, an unknown token and a
/// revoked one answer 20001, an expired one 7, and another borrower's order 40007.
async fn reads_check_the_session_in_their_statement(app: TestApp) {
    let reads = [
        "/jackey/user/info",
        "/jackey/loan/getLoanProgress",
        "/jackey/loan/getUserOrderList",
        "/jackey/loan/orderInfo",
    ];
    let (token, _) = app.qualified_borrower("09170001401").await;
    let t = Some(token.as_str());
    let order = app
        .ok(
            "/jackey/loan/apply",
            t,
            json!({"amt": "80000", "periodDays": 6, "appId": 1}),
        )
        .await;
    let order_id = order["loanOrderId"].as_str().unwrap().to_string();
    let info = app.ok("/jackey/user/info", t, json!({})).await;
    assert_eq!(info["lastOrderId"], order_id.as_str());
    let progress = app.ok("/jackey/loan/getLoanProgress", t, json!({})).await;
    assert_eq!(progress["orderId"], order_id.as_str());
    let list = app.ok("/jackey/loan/getUserOrderList", t, json!({})).await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    let detail = app.ok("/jackey/loan/orderInfo", t, json!({})).await;
    assert_eq!(detail["orderId"], order_id.as_str());

    // Someone else's order is not found, whoever asks for it by id.
    let other = app.register("09170001402").await;
    let by_id = json!({"loanOrderId": order_id});
    app.fails("/jackey/loan/orderInfo", Some(&other), by_id, 40007)
        .await;
    assert_eq!(
        app.ok("/jackey/loan/getUserOrderList", Some(&other), json!({}))
            .await,
        json!([])
    );

    for path in reads {
        app.fails(path, Some("not-a-token"), json!({}), 20001).await;
    }
    app.sql(
        "update auth_token set expires_at = '2000-01-01T00:00:00.000000Z' where kind = 'borrower'",
    )
    .await;
    for path in reads {
        app.fails(path, t, json!({}), 7).await;
    }
    app.sql("update auth_token set expires_at = '2999-01-01T00:00:00.000000Z', revoked_at = '2026-01-01T00:00:00.000000Z' where kind = 'borrower'")
        .await;
    for path in reads {
        app.fails(path, t, json!({}), 20001).await;
    }
}

on_both_stores!(
    positions_are_answered_and_checked,
    a_command_answers_its_log_position_and_a_malformed_min_position_is_refused_on_sqlite,
    a_command_answers_its_log_position_and_a_malformed_min_position_is_refused_on_postgres
);

/// Read-your-writes by position (`api::http::middleware::read_your_writes`): a command answers
/// `X-Log-Position`, a later one a higher position, and a malformed
/// `X-Min-Position` answers 10004 instead of being ignored or failing.
async fn positions_are_answered_and_checked(app: TestApp) {
    let token = app.register("09170001403").await;
    let t = Some(token.as_str());
    let before = *app.position.lock().unwrap();
    let contacts =
        json!({"contacts": [{"name": "Ana", "relation": "Mother", "mobile": "09171234567"}]});
    app.ok("/jackey/user/updateEmergency", t, contacts).await;
    let after = *app.position.lock().unwrap();
    assert!(after.is_some() && after > before, "{before:?} -> {after:?}");
    for bad in ["garbage", "1", "-1:5", "1:2:3", "99999999999999999999:1"] {
        let headers = [
            ("authorization", format!("Bearer {token}")),
            ("x-min-position", bad.to_string()),
        ];
        let answer = app
            .post_with_headers("/jackey/user/info", &headers, json!({}))
            .await;
        assert_eq!(answer["code"], 10004, "{bad}: {answer}");
    }
}

on_both_stores!(
    forged_first_hop,
    a_forged_x_forwarded_for_first_hop_is_still_limited_on_sqlite,
    a_forged_x_forwarded_for_first_hop_is_still_limited_on_postgres
);

/// Behind a trusted proxy (`TRUST_PROXY=true`) the limit keys on the right-most
/// `X-Forwarded-For` entry, the one the proxy appended: a client writing a new first
/// hop on every attempt is still one client (issue 13 item 2).
async fn forged_first_hop(app: TestApp) {
    let state = api::AppState::from(api::runtime::state::Shared {
        rate_limits: std::sync::Arc::new(api::http::middleware::ops::RateLimits::new(
            api::http::middleware::ops::client_ip_source(Some("true")).unwrap(),
        )),
        ..app.state.shared()
    });
    let app = app.with_state(state);
    let body = json!({"mobile": "09170009998", "password": "whatever-1"});
    let mut codes = Vec::new();
    for forged in 0..12 {
        let chain = format!("10.0.{forged}.1, 198.51.100.{forged}, 203.0.113.9");
        let answer = app
            .post_with_headers(
                "/jackey/user/login",
                &[("x-forwarded-for", chain)],
                body.clone(),
            )
            .await;
        codes.push(answer["code"].as_u64().unwrap());
    }
    assert_eq!(&codes[..10], &[10002; 10], "{codes:?}");
    assert_eq!(&codes[10..], &[5, 5], "{codes:?}");
    // Another client behind the same proxy is not held back by the first one.
    let other = [("x-forwarded-for", "10.0.0.1, 203.0.113.10".to_string())];
    let answer = app
        .post_with_headers("/jackey/user/login", &other, body)
        .await;
    assert_eq!(answer["code"], 10002, "{answer}");
}

#[test]
fn trust_proxy_names_a_maintained_client_address_source() {
    use axum_client_ip::ClientIpSource;
    let source = api::http::middleware::ops::client_ip_source;
    assert_eq!(source(None), Some(ClientIpSource::ConnectInfo));
    assert_eq!(source(Some("false")), Some(ClientIpSource::ConnectInfo));
    assert_eq!(
        source(Some("true")),
        Some(ClientIpSource::RightmostXForwardedFor)
    );
    assert_eq!(source(Some("XRealIp")), Some(ClientIpSource::XRealIp));
    assert_eq!(source(Some("first-hop")), None);
}

#[tokio::test]
async fn metrics_are_off_without_a_metrics_token() {
    let app = TestApp::sqlite().await;
    let mut env = (*app.state.env).clone();
    env.metrics_token = None;
    let app = app.with_state(api::AppState::from(api::runtime::state::Shared {
        env: std::sync::Arc::new(env),
        ..app.state.shared()
    }));
    let response = app
        .router
        .clone()
        .oneshot(Request::get("/metrics").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
}

/// `APP_ENV=production` refuses, before anything is opened and in one line, a sandbox
/// provider, a missing, public or short webhook secret and the demo configuration
/// (PRODUCT.md 12.7; issue 13 item 6).
#[tokio::test]
async fn a_production_start_is_refused_with_a_sandbox_provider_or_a_demo_setting() {
    use api::config::{AppEnv, Env, Providers};
    let real = Providers {
        payment: "xendit".into(),
        payout: "xendit".into(),
        sms: "semaphore".into(),
    };
    let production = Env {
        app_env: AppEnv::Production,
        database_url: "sqlite:///nonexistent/never-opened.db".into(),
        providers: real.clone(),
        webhook_secret: Some("k".repeat(32).into()),
        config_file: Some(concat!(env!("CARGO_MANIFEST_DIR"), "/config/demo.json").into()),
        ..crate::helpers::env()
    };
    let cases = [
        (
            Env {
                providers: Providers::default(),
                ..production.clone()
            },
            "PAYMENT_PROVIDER is the sandbox",
        ),
        (
            Env {
                providers: Providers {
                    payout: "sandbox".into(),
                    ..real.clone()
                },
                ..production.clone()
            },
            "PAYOUT_PROVIDER is the sandbox",
        ),
        (
            Env {
                providers: Providers {
                    sms: "outbox".into(),
                    ..real.clone()
                },
                ..production.clone()
            },
            "SMS_PROVIDER is the outbox",
        ),
        (
            Env {
                webhook_secret: None,
                ..production.clone()
            },
            "WEBHOOK_SECRET is not set",
        ),
        (
            Env {
                webhook_secret: Some(api::providers::signing::DEVELOPMENT_WEBHOOK_SECRET.into()),
                ..production.clone()
            },
            "WEBHOOK_SECRET is the public development secret",
        ),
        (
            Env {
                webhook_secret: Some("short".into()),
                ..production.clone()
            },
            "WEBHOOK_SECRET is shorter than 32 bytes",
        ),
        (
            Env {
                config_file: None,
                ..production.clone()
            },
            "CONFIG_FILE is not set",
        ),
    ];
    for (env, says) in cases {
        let Err(error) = api::Application::build(env).await else {
            panic!("{says}: started");
        };
        let error = error.to_string();
        assert!(
            error.starts_with("configuration: APP_ENV=production refused: "),
            "{error}"
        );
        assert!(error.contains(says), "{error}");
        assert!(!error.contains('\n'), "one line: {error}");
    }
    // The same demo settings pass in demo.
    let demo = Env {
        app_env: AppEnv::Demo,
        providers: Providers::default(),
        webhook_secret: None,
        config_file: None,
        ..production
    };
    assert!(demo.check_production().is_ok());
}
