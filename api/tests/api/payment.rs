//! Repayment through the payment page and the signed webhook (PRODUCT.md 8, P1), on
//! both stores: what is refused before anything is created, the sandbox page, and
//! that each payment counts once however often its webhook arrives.

use aggregates::types::ImageRef;
use aggregates::user::UserCommand;
use aggregates::wallet::WalletEvent;
use aggregates::Actor;
use api::providers::signing::{webhook_secret, WebhookSecret, SIGNATURE_HEADER, TIMESTAMP_HEADER};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use rust_decimal::Decimal;
use serde_json::{json, Value};
use tower::ServiceExt;
use uuid::Uuid;

use crate::helpers::{on_both_stores, TestApp, PNG};
use aggregates::services::doubles::{test_now, FixedClock};
use std::sync::Arc;

on_both_stores!(
    at_a_fixed_clock: expired_sandbox_page,
    an_expired_sandbox_page_takes_no_payment_on_sqlite,
    an_expired_sandbox_page_takes_no_payment_on_postgres
);

/// The sandbox page closes with the Order's session (30 minutes, 12.1), as a real
/// provider's invoice does: it says so, takes nothing and leaves the session open.
async fn expired_sandbox_page(clock: Arc<FixedClock>, app: TestApp) {
    let (borrower, _) = borrower_with_loan(&app, "09171230031").await;
    let url = recharge(&app, &borrower, "20000").await;
    clock.set(test_now() + chrono::Duration::minutes(30));
    let (status, page) = app.page(&url).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Payment page expired"), "{page}");
    assert!(!page.contains("value=\"paid\""), "{page}");
    let (status, _) = app.press(&url, "outcome=paid").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(session_status(&app, &session_of(&url)).await, "open");
}

on_both_stores!(
    recharge_refusals,
    recharge_is_refused_unless_a_disbursed_loan_owes_it_p1_on_sqlite,
    recharge_is_refused_unless_a_disbursed_loan_owes_it_p1_on_postgres
);
on_both_stores!(
    sandbox_payment,
    a_payment_on_the_sandbox_page_reduces_what_is_owed_on_sqlite,
    a_payment_on_the_sandbox_page_reduces_what_is_owed_on_postgres
);
on_both_stores!(
    webhook_deliveries,
    webhooks_are_verified_and_each_payment_counts_once_on_sqlite,
    webhooks_are_verified_and_each_payment_counts_once_on_postgres
);
on_both_stores!(
    repaid_in_full,
    two_recharges_repay_the_loan_and_then_nothing_can_be_paid_p1_on_sqlite,
    two_recharges_repay_the_loan_and_then_nothing_can_be_paid_p1_on_postgres
);

on_both_stores!(
    returned_refund,
    a_refund_the_bank_returned_goes_to_the_account_bound_after_it_p1_on_sqlite,
    a_refund_the_bank_returned_goes_to_the_account_bound_after_it_p1_on_postgres
);

on_both_stores!(
    overpayments,
    money_beyond_what_is_owed_is_refunded_never_kept_p1_on_sqlite,
    money_beyond_what_is_owed_is_refunded_never_kept_p1_on_postgres
);

on_both_stores!(
    replaced_page,
    a_page_left_unpaid_never_blocks_the_payoff_on_sqlite,
    a_page_left_unpaid_never_blocks_the_payoff_on_postgres
);

/// Issue 52: a page left unpaid used to hold its amount for 30 minutes, so the
/// payoff was refused ("enter an amount between ...", not the reason). Now the
/// payoff's page replaces it, even pressed three times at once: one page stays
/// open, the others read `replaced` and take no payment, and paying the open one
/// closes the loan.
async fn replaced_page(app: TestApp) {
    let (borrower, order_id) = borrower_with_loan(&app, "09171234570").await;
    let left_open = recharge(&app, &borrower, "20000").await;
    let payoff = json!({ "amt": "80000" });
    let answers = crate::helpers::futures_join(3, |_| {
        let (app, payoff, t) = (&app, payoff.clone(), borrower.t());
        async move { app.post("/jackey/loan/recharge", t, payoff).await }
    })
    .await;
    assert!(answers.iter().all(|a| a["code"] == 0), "{answers:?}");
    let pages: Vec<String> = answers
        .iter()
        .map(|a| a["data"].as_str().unwrap().to_string())
        .collect();
    let mut open = Vec::new();
    for page in pages.iter().chain([&left_open]) {
        match session_status(&app, &session_of(page)).await.as_str() {
            "open" => open.push(page.clone()),
            "replaced" => {
                // Its page says so, and pressing Pay takes nothing.
                let (status, _) = app.press(page, "outcome=paid").await;
                assert_eq!(status, StatusCode::SEE_OTHER);
                assert_eq!(session_status(&app, &session_of(page)).await, "replaced");
            }
            other => panic!("{page}: {other}"),
        }
    }
    assert_eq!(open.len(), 1, "{pages:?}");
    app.press(&open[0], "outcome=paid").await;
    let closed = app.wait_status(&borrower.token, &order_id, 10).await;
    assert_eq!(closed["repaid"], "80000.00");
    assert_eq!(recharges(&app, &borrower).await.len(), 1);
}

/// A borrower of the tests.
pub(crate) struct Borrower {
    pub(crate) token: String,
    pub(crate) user_id: Uuid,
}

impl Borrower {
    pub(crate) fn t(&self) -> Option<&str> {
        Some(self.token.as_str())
    }
}

/// Registered, verified, profiled, bank account bound, signed: ready to apply (the
/// same HTTP calls and command-bus shortcuts as `journey.rs`).
pub(crate) async fn qualified(app: &TestApp, mobile: &str) -> Borrower {
    let register = json!({"mobile": mobile, "password": "secret-pass", "telemarketingCode": "WELCOME", "installationSource": "web", "platform": "h5", "companyId": 1, "appId": 1});
    let token = app
        .ok(
            "/jackey/user/register",
            None,
            app.with_register_code(register).await,
        )
        .await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let t = Some(token.as_str());
    let user_id: Uuid = app.ok("/jackey/user/info", t, json!({})).await["userId"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    app.ok("/jackey/user/update", t, json!({"realName": "Ana Santos", "identity": "123456789012", "sex": 2, "birthday": "1995-03-14", "marriage": "Single", "email": "ana@example.ph", "education": "College", "provinceCity": "National Capital Region (NCR),,Quezon City", "address": "12 Mabini St"})).await;
    let uid = user_id.to_string();
    let image = |name: &str| ImageRef {
        key: format!("id/{uid}/{name}.jpg"),
        sha256: "ab".repeat(32),
    };
    let submit = UserCommand::SubmitIdentity {
        front: image("f"),
        back: image("b"),
        hand_hold: image("h"),
    };
    app.state
        .users
        .execute(&uid, submit, Actor::User(user_id).metadata("t", None))
        .await
        .unwrap();
    app.verify_identity(&uid).await;
    app.ok(
        "/jackey/user/bank/binding",
        t,
        json!({"bankName": "BDO Unibank", "cardNo": "001234567890"}),
    )
    .await;
    app.ok("/jackey/user/signatureImg/upload", t, json!({"img": PNG}))
        .await;
    app.ok("/jackey/user/update", t, json!({"job": "teacher", "monthlyIncome": "400000", "expenses": "12000", "loanPurpose": "tuition", "loanBefore": false, "guarantee": true})).await;
    Borrower { token, user_id }
}

/// Applies for 100,000 over 6 days and has two auditors approve it (status 9).
pub(crate) async fn approved(app: &TestApp, borrower: &Borrower) -> String {
    let applied = app
        .ok(
            "/jackey/loan/apply",
            borrower.t(),
            json!({"amt": "100000", "periodDays": 6, "appId": 1, "configId": 1}),
        )
        .await;
    let order_id = applied["loanOrderId"].as_str().unwrap().to_string();
    app.approve(&borrower.token, &order_id).await;
    order_id
}

/// Sets the PIN and asks to withdraw 80,000 of the approved order.
pub(crate) async fn withdraw_80000(app: &TestApp, borrower: &Borrower) {
    app.ok(
        "/jackey/user/withdrawPin",
        borrower.t(),
        json!({"pin": "246810"}),
    )
    .await;
    app.ok(
        "/jackey/user/withdraw",
        borrower.t(),
        json!({"password": "246810", "withdrawAmount": "80000", "bankcard": "x"}),
    )
    .await;
}

/// Withdraws 80,000 of the approved order (status 4): 80,000 owed today
/// (cooling-off), repayments 100–20,000.
async fn disbursed(app: &TestApp, borrower: &Borrower, order_id: &str) {
    withdraw_80000(app, borrower).await;
    app.wait_status(&borrower.token, order_id, 4).await;
}

/// A borrower whose 80,000 loan is disbursed; returns it with the order id.
async fn borrower_with_loan(app: &TestApp, mobile: &str) -> (Borrower, String) {
    let borrower = qualified(app, mobile).await;
    let order_id = approved(app, &borrower).await;
    disbursed(app, &borrower, &order_id).await;
    (borrower, order_id)
}

/// Opens a payment page; returns its URL.
async fn recharge(app: &TestApp, borrower: &Borrower, amount: &str) -> String {
    let url = app
        .ok(
            "/jackey/loan/recharge",
            borrower.t(),
            json!({ "amt": amount }),
        )
        .await;
    let url = url.as_str().expect("data is the page URL").to_string();
    assert!(url.starts_with("/pay/sandbox/"), "{url}");
    url
}

/// Opens `n` payment pages of 20,000; returns their URLs.
async fn pages_of_20000(app: &TestApp, borrower: &Borrower, n: usize) -> Vec<String> {
    let mut pages = Vec::new();
    for _ in 0..n {
        pages.push(recharge(app, borrower, "20000").await);
    }
    pages
}

/// Delivers a signed `paid` webhook of `amount` for the page at `url`; it is accepted.
async fn paid_by_webhook(
    app: &TestApp,
    event_id: &str,
    url: &str,
    payment_ref: &str,
    amount: &str,
) {
    let body = event(event_id, &session_of(url), payment_ref, amount, "paid");
    let (status, answer) = deliver_signed(app, &body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

/// The books balance (trial balance zero) and match the log (`verify`).
async fn assert_books_balance(app: &TestApp, auditor: &str) {
    let trial = app
        .ok("/admin/api/ledger/trialBalance", Some(auditor), json!({}))
        .await;
    assert_eq!(trial["sum"], "0.00", "{trial}");
    let report = projections::verify::verify(&app.state.database)
        .await
        .unwrap();
    assert!(report.is_clean(), "{:?}", report.drifts);
}

fn session_of(url: &str) -> String {
    url.trim_start_matches("/pay/sandbox/").to_string()
}

/// POSTs a webhook body with the given signature headers: (HTTP status, envelope).
async fn deliver(
    app: &TestApp,
    body: &str,
    timestamp: Option<i64>,
    signature: Option<&str>,
) -> (StatusCode, Value) {
    let mut request =
        Request::post("/jackey/payment/webhook").header("content-type", "application/json");
    if let Some(timestamp) = timestamp {
        request = request.header(TIMESTAMP_HEADER, timestamp.to_string());
    }
    if let Some(signature) = signature {
        request = request.header(SIGNATURE_HEADER, signature);
    }
    let response = app
        .router
        .clone()
        .oneshot(request.body(Body::from(body.to_string())).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let envelope = serde_json::from_slice(&bytes).unwrap_or_else(|_| panic!("not JSON: {bytes:?}"));
    (status, envelope)
}

/// Delivers `body` signed now with the server's secret.
async fn deliver_signed(app: &TestApp, body: &str) -> (StatusCode, Value) {
    let now = chrono::Utc::now().timestamp();
    let signature = webhook_secret(&app.state.env).sign(now, body.as_bytes());
    deliver(app, body, Some(now), Some(&signature)).await
}

fn event(event_id: &str, session: &str, payment_ref: &str, amount: &str, outcome: &str) -> String {
    json!({"eventId": event_id, "sessionId": session, "paymentRef": payment_ref, "amount": amount, "outcome": outcome}).to_string()
}

async fn order(app: &TestApp, borrower: &Borrower, order_id: &str) -> Value {
    app.ok(
        "/jackey/loan/orderInfo",
        borrower.t(),
        json!({ "loanOrderId": order_id }),
    )
    .await
}

/// Polls until the order's `repaid` is `amount`.
pub(crate) async fn wait_repaid(
    app: &TestApp,
    borrower: &Borrower,
    order_id: &str,
    amount: &str,
) -> Value {
    app.wait_order(&borrower.token, order_id, "repaid", json!(amount))
        .await
}

async fn owed_today(app: &TestApp, borrower: &Borrower) -> Value {
    app.ok("/jackey/loan/payoffQuote", borrower.t(), json!({}))
        .await["amount"]
        .clone()
}

/// The payment references the borrower's wallet has recorded, in order.
async fn recharges(app: &TestApp, borrower: &Borrower) -> Vec<(String, Decimal)> {
    app.state
        .wallets
        .load_events(&borrower.user_id.to_string())
        .await
        .unwrap()
        .into_iter()
        .filter_map(|e| match e.payload {
            WalletEvent::Recharged {
                payment_ref,
                amount,
                ..
            } => Some((payment_ref, amount)),
            _ => None,
        })
        .collect()
}

async fn sessions_of(app: &TestApp, borrower: &Borrower) -> String {
    let sql = "select cast(count(*) as text) from payment_session where user_id = $1";
    app.scalar(sql, &borrower.user_id.to_string())
        .await
        .unwrap()
}

async fn session_status(app: &TestApp, session: &str) -> String {
    let sql = "select status from payment_session where session_id = $1";
    app.scalar(sql, session).await.unwrap()
}

async fn event_claimed(app: &TestApp, event_id: &str) -> bool {
    let sql = "select event_id from processed_webhook where event_id = $1";
    app.scalar(sql, event_id).await.is_some()
}

fn dec(text: &str) -> Decimal {
    text.parse().unwrap()
}

async fn recharge_refusals(app: TestApp) {
    app.fails("/jackey/loan/recharge", None, json!({"amt": "1000"}), 401)
        .await;
    // No order at all, then an approved but not disbursed one: nothing is owed (P1).
    let borrower = qualified(&app, "09171234567").await;
    app.fails(
        "/jackey/loan/recharge",
        borrower.t(),
        json!({"amt": "1000"}),
        40007,
    )
    .await;
    let order_id = approved(&app, &borrower).await;
    app.fails(
        "/jackey/loan/recharge",
        borrower.t(),
        json!({"amt": "1000"}),
        40007,
    )
    .await;
    disbursed(&app, &borrower, &order_id).await;
    assert_eq!(owed_today(&app, &borrower).await, "80000.00");

    // Not a plain amount (PRODUCT.md 5): 10004 naming the field. Out of the range
    // (and not today's payoff, 80,000, which is always one payment, P12), above what
    // is owed, or absent: 40001 with the range.
    let odd = [
        "150.005", "-500", "abc", "", "1e5", "8E4", "+80000", "1e-2", " 100",
    ];
    let out_of_range = ["99.99", "20000.01", "79999.99", "80000.01", "0"];
    let cases = odd
        .map(|amt| (json!(amt), 10004, ["amt", "digits"]))
        .into_iter()
        .chain(out_of_range.map(|amt| (json!(amt), 40001, ["100", "20000"])))
        .chain([(json!(null), 40001, ["100", "20000"])]);
    for (amt, code, said) in cases {
        let body = json!({ "amt": amt });
        let refused = app
            .fails("/jackey/loan/recharge", borrower.t(), body, code)
            .await;
        let msg = refused["msg"].as_str().unwrap();
        assert!(said.iter().all(|s| msg.contains(s)), "{amt}: {msg}");
    }
    app.fails("/jackey/loan/recharge", borrower.t(), json!({}), 40001)
        .await;
    // Nothing was created by any refusal.
    assert_eq!(sessions_of(&app, &borrower).await, "0");
    assert!(recharges(&app, &borrower).await.is_empty());

    // A number works as well as a string; each request opens its own session.
    let url = recharge(&app, &borrower, "100").await;
    let by_number = app
        .ok("/jackey/loan/recharge", borrower.t(), json!({"amt": 20000}))
        .await;
    assert_ne!(by_number.as_str().unwrap(), url);
    assert_eq!(sessions_of(&app, &borrower).await, "2");
    assert_eq!(session_status(&app, &session_of(&url)).await, "open");
    // Opening pages moves no money.
    assert!(recharges(&app, &borrower).await.is_empty());
    assert_eq!(order(&app, &borrower, &order_id).await["repaid"], "0.00");
}

async fn sandbox_payment(app: TestApp) {
    let (borrower, order_id) = borrower_with_loan(&app, "09171234567").await;
    let url = recharge(&app, &borrower, "20000").await;

    let (status, page) = app.page(&url).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("₱20,000.00"), "{page}");
    assert!(page.contains("PHP"), "{page}");
    assert!(page.contains("name=\"viewport\""), "mobile-friendly");
    assert!(page.contains("value=\"paid\"") && page.contains("value=\"failed\""));
    assert!(page.contains("We never ask you to pay to receive a loan."));

    // Pay: the signed webhook is delivered and the page shows the result.
    let (status, location) = app.press(&url, "outcome=paid").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    // Back to the page in the language it was shown in (English by default).
    assert_eq!(location, Some(format!("{url}?lang=en")));
    let repaid = wait_repaid(&app, &borrower, &order_id, "20000.00").await;
    assert_eq!(repaid["status"], 4);
    assert_eq!(owed_today(&app, &borrower).await, "60000.00");
    assert_eq!(session_status(&app, &session_of(&url)).await, "paid");
    let (status, page) = app.page(&url).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Payment received"), "{page}");
    assert!(page.contains("href=\"/repayDetail\""), "{page}");
    assert!(
        !page.contains("value=\"paid\""),
        "a paid page has no Pay button"
    );

    // Pressing again (or Fail afterwards) settles nothing twice.
    for form in ["outcome=paid", "outcome=failed"] {
        let (status, location) = app.press(&url, form).await;
        assert_eq!(
            (status, location),
            (StatusCode::SEE_OTHER, Some(format!("{url}?lang=en")))
        );
    }
    app.quiesce().await;
    assert_eq!(recharges(&app, &borrower).await.len(), 1);
    assert_eq!(
        order(&app, &borrower, &order_id).await["repaid"],
        "20000.00"
    );
    assert_eq!(session_status(&app, &session_of(&url)).await, "paid");

    // Fail: nothing is charged, nothing changes.
    let failing = recharge(&app, &borrower, "5000").await;
    let (status, _) = app.press(&failing, "outcome=maybe").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(session_status(&app, &session_of(&failing)).await, "open");
    let (status, location) = app.press(&failing, "outcome=failed").await;
    assert_eq!(
        (status, location),
        (StatusCode::SEE_OTHER, Some(format!("{failing}?lang=en")))
    );
    let (_, page) = app.page(&failing).await;
    assert!(page.contains("Payment failed"), "{page}");
    assert!(page.contains("href=\"/repayDetail\""), "{page}");
    // A failed page cannot be paid afterwards.
    app.press(&failing, "outcome=paid").await;
    app.quiesce().await;
    assert_eq!(session_status(&app, &session_of(&failing)).await, "failed");
    assert_eq!(recharges(&app, &borrower).await.len(), 1);
    assert_eq!(
        order(&app, &borrower, &order_id).await["repaid"],
        "20000.00"
    );
    assert_eq!(owed_today(&app, &borrower).await, "60000.00");

    // Unknown pages.
    for missing in [
        format!("/pay/sandbox/{}", Uuid::now_v7()),
        "/pay/sandbox/not-a-session".to_string(),
    ] {
        assert_eq!(app.page(&missing).await.0, StatusCode::NOT_FOUND);
        assert_eq!(
            app.press(&missing, "outcome=paid").await.0,
            StatusCode::NOT_FOUND
        );
    }
}

async fn webhook_deliveries(app: TestApp) {
    let (borrower, order_id) = borrower_with_loan(&app, "09171234567").await;
    let session = session_of(&recharge(&app, &borrower, "10000").await);
    let paid = event("evt-1", &session, "psp-123", "10000.00", "paid");

    // The same event five times at once, then again with another event id.
    let mut deliveries = tokio::task::JoinSet::new();
    let now = chrono::Utc::now().timestamp();
    let signature = webhook_secret(&app.state.env).sign(now, paid.as_bytes());
    for _ in 0..5 {
        let (router, body, signature) = (app.router.clone(), paid.clone(), signature.clone());
        deliveries.spawn(async move {
            let request = Request::post("/jackey/payment/webhook")
                .header("content-type", "application/json")
                .header(TIMESTAMP_HEADER, now.to_string())
                .header(SIGNATURE_HEADER, signature)
                .body(Body::from(body))
                .unwrap();
            let response = router.oneshot(request).await.unwrap();
            let status = response.status();
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            (status, serde_json::from_slice::<Value>(&bytes).unwrap())
        });
    }
    while let Some(result) = deliveries.join_next().await {
        let (status, envelope) = result.unwrap();
        assert_eq!(
            (status, envelope["code"].clone()),
            (StatusCode::OK, json!(0)),
            "{envelope}"
        );
    }
    let (status, again) = deliver_signed(&app, &paid).await;
    assert_eq!(
        (status, again["data"]["duplicate"].clone()),
        (StatusCode::OK, json!(true))
    );
    let other_event = event("evt-2", &session, "psp-123", "10000.00", "paid");
    let (status, envelope) = deliver_signed(&app, &other_event).await;
    assert_eq!(
        (status, envelope["code"].clone()),
        (StatusCode::OK, json!(0)),
        "{envelope}"
    );
    wait_repaid(&app, &borrower, &order_id, "10000.00").await;
    app.quiesce().await;
    assert_eq!(
        recharges(&app, &borrower).await,
        vec![("psp-123".to_string(), dec("10000.00"))]
    );
    assert_eq!(
        order(&app, &borrower, &order_id).await["repaid"],
        "10000.00"
    );
    assert_eq!(owed_today(&app, &borrower).await, "70000.00");
    assert_eq!(session_status(&app, &session).await, "paid");
    assert!(event_claimed(&app, "evt-1").await && event_claimed(&app, "evt-2").await);

    // Refused deliveries change nothing: a forged signature, a tampered body, no
    // signature, a stale or future timestamp (401 + 10004).
    let forged = event("evt-3", &session, "psp-forged", "10000.00", "paid");
    let now = chrono::Utc::now().timestamp();
    let wrong_key = WebhookSecret::new("not-the-secret").sign(now, forged.as_bytes());
    let tampered = event("evt-3", &session, "psp-forged", "20000.00", "paid");
    let signed_forged = webhook_secret(&app.state.env).sign(now, forged.as_bytes());
    let stale = now - 400;
    let future = now + 400;
    let refusals: Vec<(Option<i64>, Option<String>, &str, &str)> = vec![
        (Some(now), Some(wrong_key), &forged, "X-Signature"),
        (
            Some(now),
            Some(signed_forged.clone()),
            &tampered,
            "X-Signature",
        ),
        (Some(now), Some("not hex".into()), &forged, "X-Signature"),
        (
            None,
            Some(signed_forged.clone()),
            &forged,
            "X-Signature-Timestamp",
        ),
        (Some(now), None, &forged, "X-Signature"),
        (
            Some(stale),
            Some(webhook_secret(&app.state.env).sign(stale, forged.as_bytes())),
            &forged,
            "window",
        ),
        (
            Some(future),
            Some(webhook_secret(&app.state.env).sign(future, forged.as_bytes())),
            &forged,
            "window",
        ),
    ];
    for (timestamp, signature, body, named) in refusals {
        let (status, envelope) = deliver(&app, body, timestamp, signature.as_deref()).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{envelope}");
        assert_eq!(envelope["code"], 10004, "{envelope}");
        assert!(
            envelope["msg"].as_str().unwrap().contains(named),
            "{envelope}"
        );
    }
    // Signed but not a valid event: 400 + 10004; an unknown session: 40007.
    for body in [
        "{not json".to_string(),
        event("evt-4", &session, "psp-4", "-5", "paid"),
        event("evt-4", &session, "", "5.00", "paid"),
        event("evt-4", &session, "psp-4", "5.00", "refunded"),
    ] {
        let (status, envelope) = deliver_signed(&app, &body).await;
        assert_eq!(
            (status, envelope["code"].clone()),
            (StatusCode::BAD_REQUEST, json!(10004)),
            "{body}: {envelope}"
        );
    }
    let unknown = event(
        "evt-5",
        &Uuid::now_v7().to_string(),
        "psp-5",
        "500.00",
        "paid",
    );
    let (status, envelope) = deliver_signed(&app, &unknown).await;
    assert_eq!(
        (status, envelope["code"].clone()),
        (StatusCode::OK, json!(40007))
    );

    // A failed payment moves no money.
    let declined = session_of(&recharge(&app, &borrower, "5000").await);
    let failed = event("evt-6", &declined, "psp-6", "5000.00", "failed");
    let (status, envelope) = deliver_signed(&app, &failed).await;
    assert_eq!(
        (status, envelope["code"].clone()),
        (StatusCode::OK, json!(0))
    );
    assert_eq!(session_status(&app, &declined).await, "failed");

    app.quiesce().await;
    for event_id in ["evt-3", "evt-4", "evt-5"] {
        assert!(!event_claimed(&app, event_id).await, "{event_id}");
    }
    assert!(event_claimed(&app, "evt-6").await);
    assert_eq!(recharges(&app, &borrower).await.len(), 1);
    assert_eq!(
        order(&app, &borrower, &order_id).await["repaid"],
        "10000.00"
    );
    assert_eq!(owed_today(&app, &borrower).await, "70000.00");
}

async fn repaid_in_full(app: TestApp) {
    let (borrower, order_id) = borrower_with_loan(&app, "09171234567").await;
    // 60,000 already repaid (the command-bus shortcut of journey.rs, with the conflict
    // retry: the process manager writes to the same wallet meanwhile): 20,000 left.
    for n in 0..3 {
        let uid = borrower.user_id.to_string();
        app.paid_session(&uid, &order_id, &format!("earlier-{n}"), 20_000)
            .await;
    }
    wait_repaid(&app, &borrower, &order_id, "60000.00").await;
    assert_eq!(owed_today(&app, &borrower).await, "20000.00");

    // First recharge: all but 50.
    let first = recharge(&app, &borrower, "19950").await;
    app.press(&first, "outcome=paid").await;
    wait_repaid(&app, &borrower, &order_id, "79950.00").await;
    // 50 is below the minimum, but it is exactly what is owed: the final payment.
    let below = app
        .fails(
            "/jackey/loan/recharge",
            borrower.t(),
            json!({"amt": "49"}),
            40001,
        )
        .await;
    assert!(
        below["msg"].as_str().unwrap().contains("50"),
        "the range is capped at what is owed: {below}"
    );
    app.fails(
        "/jackey/loan/recharge",
        borrower.t(),
        json!({"amt": "100"}),
        40001,
    )
    .await;
    let last = recharge(&app, &borrower, "50").await;
    app.press(&last, "outcome=paid").await;
    let closed = app.wait_status(&borrower.token, &order_id, 10).await;
    assert_eq!(closed["repaid"], "80000.00");
    assert_eq!(closed["remaining"], "0.00");

    // Nothing is owed any more: nothing can be paid (P1).
    app.fails(
        "/jackey/loan/recharge",
        borrower.t(),
        json!({"amt": "100"}),
        40007,
    )
    .await;
    app.quiesce().await;
    let wallet = app
        .state
        .wallets
        .load(&borrower.user_id.to_string())
        .await
        .unwrap();
    assert_eq!(
        wallet.cash(),
        Decimal::ZERO,
        "every payment went to the loan"
    );
    assert_eq!(recharges(&app, &borrower).await.len(), 5);
}

/// P1 made exact (12.1): pages never open beyond today's payoff; a webhook for more
/// than its page, a bank transfer above what is owed (entered by two auditors) and a
/// page paid after the loan closed are refunded to the bound account through the
/// payout provider, with ledger entries and a transaction each; no wallet keeps cash,
/// the trial balance is zero and the books verify.
async fn overpayments(app: TestApp) {
    let (borrower, order_id) = borrower_with_loan(&app, "09171234567").await;
    assert_eq!(owed_today(&app, &borrower).await, "80000.00");
    let pages = pages_of_20000(&app, &borrower, 4).await;
    // Four open pages of 20,000 fill the payoff. An amount the payoff itself does not
    // allow is refused and leaves them open (one it allows would replace them, so
    // the open pages never exceed the payoff: the Order's tests, issue 52).
    let beyond = app
        .fails(
            "/jackey/loan/recharge",
            borrower.t(),
            json!({"amt": "80000.01"}),
            40001,
        )
        .await;
    assert!(
        beyond["msg"].as_str().unwrap().contains("20000"),
        "{beyond}"
    );

    // A signed webhook for 1,000,000 on a 20,000 page: 20,000 applied, the rest refunded.
    paid_by_webhook(&app, "evt-big", &pages[0], "pay-big", "1000000.00").await;
    wait_repaid(&app, &borrower, &order_id, "20000.00").await;
    for page in &pages[1..3] {
        app.press(page, "outcome=paid").await;
    }
    wait_repaid(&app, &borrower, &order_id, "60000.00").await;
    // A bank transfer of 25,000 arrives for the last 20,000: above 20,000 it takes two
    // auditors (four eyes); 20,000 closes the loan and 5,000 is refunded.
    let (_, auditor) = app.auditor("cashier").await;
    let (_, second) = app.auditor("controller").await;
    let manual = json!({"orderId": order_id, "amount": "25000", "reference": "BANK-1"});
    let entered = app
        .ok(
            "/admin/api/repayments/manual",
            Some(&auditor),
            manual.clone(),
        )
        .await;
    assert_eq!(
        entered,
        json!({"recorded": false, "awaitingSecondAuditor": true})
    );
    app.fails(
        "/admin/api/repayments/manual",
        Some(&auditor),
        manual.clone(),
        10004,
    )
    .await;
    let confirmed = app
        .ok("/admin/api/repayments/manual", Some(&second), manual)
        .await;
    assert_eq!(
        confirmed,
        json!({"recorded": true, "awaitingSecondAuditor": false})
    );
    app.wait_status(&borrower.token, &order_id, 10).await;
    // The fourth page, opened while the loan owed, is paid after it closed.
    app.press(&pages[3], "outcome=paid").await;
    app.quiesce().await;

    let events = app
        .state
        .wallets
        .load_events(&borrower.user_id.to_string())
        .await
        .unwrap();
    let refunds: Vec<Decimal> = events
        .iter()
        .filter_map(|e| match &e.payload {
            WalletEvent::RefundRequested { amount, .. } => Some(*amount),
            _ => None,
        })
        .collect();
    let expected = [980_000, 5_000, 20_000].map(Decimal::from);
    assert_eq!(refunds, expected);
    let paid_back = events
        .iter()
        .filter(|e| matches!(e.payload, WalletEvent::RefundPaid { .. }))
        .count();
    assert_eq!(paid_back, 3, "every refund reached the bound account");
    let wallet = app
        .state
        .wallets
        .load(&borrower.user_id.to_string())
        .await
        .unwrap();
    assert_eq!(wallet.cash(), Decimal::ZERO, "no money kept in the wallet");
    // The borrower sees each refund on the order's timeline (the transactions list).
    let timeline = app
        .ok(
            "/jackey/loan/orderTimeline",
            borrower.t(),
            json!({ "loanOrderId": order_id }),
        )
        .await;
    let refunded: Vec<&str> = timeline
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "PaymentRefundDue")
        .map(|e| e["detail"]["amount"].as_str().unwrap())
        .collect();
    assert_eq!(refunded, vec!["980000.00", "5000.00", "20000.00"]);
    assert_books_balance(&app, &auditor).await;
}

/// Binds `card_no` as the borrower's new account with a checked SMS code (the
/// command-bus shortcut of `qualified`: the code itself is tested in `bank.rs`).
async fn change_bank(app: &TestApp, borrower: &Borrower, card_no: &str) {
    let bind = UserCommand::BindBankCard {
        actor: Actor::User(borrower.user_id),
        bank_name: "BDO Unibank".to_string(),
        card_no: card_no.to_string(),
        sms_code_verified: true,
    };
    app.state
        .users
        .execute(
            &borrower.user_id.to_string(),
            bind,
            Actor::User(borrower.user_id).metadata("t", None),
        )
        .await
        .unwrap();
}

/// 12.1 and P3: a refund the bank sends back is the borrower's cash again, never
/// kept: once the borrower binds another account it is sent there, once.
async fn returned_refund(app: TestApp) {
    let (borrower, order_id) = borrower_with_loan(&app, "09171234567").await;
    let opened = pages_of_20000(&app, &borrower, 4).await;
    for page in &opened {
        app.press(page, "outcome=paid").await;
    }
    app.wait_status(&borrower.token, &order_id, 10).await;
    app.quiesce().await;
    // Repaid: the borrower moves to an account the bank will refuse (sandbox: `…0000`).
    change_bank(&app, &borrower, "009999990000").await;
    // A late payment on a paid page: refunded to that account, which returns it.
    paid_by_webhook(&app, "evt-late", &opened[3], "pay-late", "20000.00").await;
    app.quiesce().await;
    let wallet_id = borrower.user_id.to_string();
    let wallet = app.state.wallets.load(&wallet_id).await.unwrap();
    assert_eq!(
        wallet.cash(),
        Decimal::from(20_000),
        "returned: the borrower's cash"
    );
    assert_eq!(wallet.returned_refunds().len(), 1);

    // The borrower fixes the account: the refund goes there, once.
    change_bank(&app, &borrower, "001122334455").await;
    app.quiesce().await;
    let events = app.state.wallets.load_events(&wallet_id).await.unwrap();
    let sent: Vec<(Decimal, String)> = events
        .iter()
        .filter_map(|e| match &e.payload {
            WalletEvent::RefundRequested {
                amount, account, ..
            } => Some((*amount, account.account_no.clone())),
            _ => None,
        })
        .collect();
    let twenty = Decimal::from(20_000);
    assert_eq!(
        sent,
        vec![
            (twenty, "009999990000".to_string()),
            (twenty, "001122334455".to_string())
        ]
    );
    let results: Vec<&str> = events
        .iter()
        .filter_map(|e| match e.payload {
            WalletEvent::RefundPaid { .. } => Some("paid"),
            WalletEvent::RefundFailed { .. } => Some("returned"),
            _ => None,
        })
        .collect();
    assert_eq!(results, vec!["returned", "paid"]);
    let wallet = app.state.wallets.load(&wallet_id).await.unwrap();
    assert_eq!(wallet.cash(), Decimal::ZERO, "no money kept in the wallet");
    // A later bank change sends nothing more.
    change_bank(&app, &borrower, "001122334466").await;
    app.quiesce().await;
    let after = app.state.wallets.load_events(&wallet_id).await.unwrap();
    assert_eq!(after.len(), events.len());
    let (_, auditor) = app.auditor("controller").await;
    assert_books_balance(&app, &auditor).await;
}
