//! Error codes per call (PRODUCT.md sections 8 and 9): the (call, code) pairs no other
//! test asserts, table-driven. `docs/api-error-coverage.md` lists every reachable pair
//! and the test that asserts it.

use std::sync::Arc;

use aggregates::services::doubles::FixedClock;
use aggregates::services::OrderServices;
use api::http::auth::{self, TokenKind};
use api::AppState;
use chrono::{Duration, Utc};
use projections::store::CommandBus;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::helpers::{on_both_stores, png_photo, profile, TestApp};

on_both_stores!(
    sessions_and_bodies,
    every_call_refuses_missing_wrong_and_expired_sessions_and_malformed_bodies_on_sqlite,
    every_call_refuses_missing_wrong_and_expired_sessions_and_malformed_bodies_on_postgres
);
on_both_stores!(
    account_codes,
    account_calls_answer_their_codes_on_sqlite,
    account_calls_answer_their_codes_on_postgres
);
on_both_stores!(
    loan_codes,
    loan_calls_answer_their_codes_on_sqlite,
    loan_calls_answer_their_codes_on_postgres
);
on_both_stores!(
    auditor_codes,
    auditor_calls_answer_their_codes_on_sqlite,
    auditor_calls_answer_their_codes_on_postgres
);

/// Every borrower call that needs a session.
const BORROWER_CALLS: [&str; 26] = [
    "/jackey/user/logout",
    "/jackey/user/info",
    "/jackey/user/update",
    "/jackey/user/updateEmergency",
    "/jackey/user/bank/binding",
    "/jackey/user/withdrawPin",
    "/jackey/user/signatureImg/upload",
    "/jackey/user/identity/apply",
    "/jackey/user/identity",
    "/jackey/loan/getLoanProgress",
    "/jackey/loan/getUserOrderList",
    "/jackey/loan/orderInfo",
    "/jackey/loan/orderTimeline",
    "/jackey/loan/affordability",
    "/jackey/loan/apply",
    "/jackey/loan/cancel",
    "/jackey/loan/payoffQuote",
    "/jackey/user/getLastWithdrawError",
    "/jackey/user/withdraw",
    "/jackey/loan/recharge",
    "/jackey/loan/promiseToPay",
    "/jackey/loan/contactHours",
    "/jackey/loan/extensionQuote",
    "/jackey/loan/extend",
    "/jackey/loan/requestPaymentPlan",
    "/jackey/loan/signPaymentPlan",
];

/// Every auditor call but login.
const AUDITOR_CALLS: [&str; 46] = [
    "/admin/api/logout",
    "/admin/api/orders/queue",
    "/admin/api/orders/detail",
    "/admin/api/orders/startReview",
    "/admin/api/orders/passFirst",
    "/admin/api/orders/passFinal",
    "/admin/api/orders/refuse",
    "/admin/api/orders/requestResubmission",
    "/admin/api/orders/history",
    "/admin/api/users/detail",
    "/admin/api/users/verifyIdentity",
    "/admin/api/users/rejectIdentity",
    "/admin/api/users/hold",
    "/admin/api/users/releaseHold",
    "/admin/api/users/erase",
    "/admin/api/repayments/manual",
    "/admin/api/collections/queue",
    "/admin/api/collections/record",
    "/admin/api/collections/contact",
    "/admin/api/collections/assign",
    "/admin/api/collections/promise",
    "/admin/api/collections/chargeOff",
    "/admin/api/collections/reverseChargeOff",
    "/admin/api/collections/book",
    "/admin/api/collections/waive",
    "/admin/api/collections/proposePlan",
    "/admin/api/collections/approvePlan",
    "/admin/api/ledger/journal",
    "/admin/api/ledger/trialBalance",
    "/admin/api/me",
    "/admin/api/staff/list",
    "/admin/api/staff/create",
    "/admin/api/staff/assignRoles",
    "/admin/api/staff/disable",
    "/admin/api/staff/enable",
    "/admin/api/staff/resetPassword",
    "/admin/api/audit/trail",
    "/admin/api/audit/export",
    "/admin/api/products/list",
    "/admin/api/products/propose",
    "/admin/api/products/approve",
    "/admin/api/products/reject",
    "/admin/api/settings/list",
    "/admin/api/settings/propose",
    "/admin/api/settings/approve",
    "/admin/api/settings/reject",
];

/// Calls with a JSON body that need no session.
const OPEN_JSON_CALLS: [&str; 10] = [
    "/admin/api/staff/setupInfo",
    "/admin/api/staff/completeSetup",
    "/jackey/sms/register",
    "/jackey/user/register",
    "/jackey/user/login",
    "/jackey/user/unlock",
    "/jackey/loan/getPeriodConfig",
    "/jackey/loan/getConfigByKey",
    "/jackey/loan/quote",
    "/admin/api/login",
];

/// Calls with a session that read no body.
const BODILESS_CALLS: [&str; 12] = [
    "/jackey/user/logout",
    "/jackey/user/info",
    "/jackey/user/identity",
    "/jackey/loan/getLoanProgress",
    "/jackey/loan/getUserOrderList",
    "/jackey/user/getLastWithdrawError",
    "/admin/api/logout",
    "/admin/api/ledger/trialBalance",
    "/admin/api/me",
    "/admin/api/staff/list",
    "/admin/api/products/list",
    "/admin/api/settings/list",
];

/// The envelope's code for `path` with `token`: a GET for `/files`, else a POST of `{}`.
async fn code_of(app: &TestApp, path: &str, token: Option<&str>) -> Value {
    if path.starts_with("/files/") {
        return app.file(path, token).await.expect_err(path)["code"].clone();
    }
    app.post(path, token, json!({})).await["code"].clone()
}

/// A token of `kind` for `subject` that has already expired.
async fn expired_token(app: &TestApp, subject: Uuid, kind: TokenKind) -> String {
    let mut env = (*app.state.env).clone();
    env.token_ttl_hours = -1;
    env.auditor_token_ttl_hours = -1;
    let expired = AppState::from(api::runtime::state::Shared {
        env: Arc::new(env),
        ..app.state.shared()
    });
    auth::issue(&expired, subject, kind).await.unwrap()
}

async fn sessions_and_bodies(app: TestApp) {
    let borrower = app.register("09178880100").await;
    let (auditor_id, auditor) = app.auditor("codes-sessions").await;
    let user_id = app.user_id_of(&borrower).await;
    let old_borrower = expired_token(&app, user_id, TokenKind::Borrower).await;
    let old_auditor = expired_token(&app, auditor_id, TokenKind::Auditor).await;
    // 401 none, 20001 garbage or the other kind's token, 7 expired.
    let sessions = |calls: &'static [&'static str], other: String, old: String| {
        calls.iter().flat_map(move |path| {
            [
                (*path, None, 401),
                (*path, Some("garbage".to_string()), 20001),
                (*path, Some(other.clone()), 20001),
                (*path, Some(old.clone()), 7),
            ]
        })
    };
    // Images open to both kinds of session: any live one gets past the session check
    // (40007: no such image), a dead one does not.
    let files = [
        "/files/id/someone/front-x.png",
        "/files/signature/someone/x.png",
    ];
    let file_cases = files.into_iter().flat_map(|path| {
        [
            (path, None, 401),
            (path, Some("garbage".to_string()), 20001),
            (path, Some(old_borrower.clone()), 7),
            (path, Some(old_auditor.clone()), 7),
            (path, Some(borrower.clone()), 40007),
            (path, Some(auditor.clone()), 40007),
        ]
    });
    let cases: Vec<_> = sessions(&BORROWER_CALLS, auditor.clone(), old_borrower.clone())
        .chain(sessions(
            &AUDITOR_CALLS,
            borrower.clone(),
            old_auditor.clone(),
        ))
        .chain(file_cases)
        .collect();
    for (path, token, code) in cases {
        assert_eq!(
            code_of(&app, path, token.as_deref()).await,
            code,
            "{path} with {token:?}"
        );
    }
    // Every call with a body (the ID photos' multipart one too): 10004 for one that is
    // not JSON.
    let with_body = |calls: &'static [&'static str], token: &str| {
        let token = token.to_string();
        calls
            .iter()
            .filter(|path| !BODILESS_CALLS.contains(path))
            .map(move |path| (*path, Some(token.clone())))
    };
    let bodies: Vec<(&str, Option<String>)> = OPEN_JSON_CALLS
        .iter()
        .map(|path| (*path, None))
        .chain(with_body(&BORROWER_CALLS, &borrower))
        .chain(with_body(&AUDITOR_CALLS, &auditor))
        .collect();
    assert_eq!(bodies.len(), 10 + 20 + 40);
    for (path, token) in bodies {
        let answer = app
            .post_raw(path, token.as_deref(), "{not json".into())
            .await;
        assert_eq!(answer["code"], 10004, "{path}: {answer}");
    }
}

/// Account calls: SMS, profile (claims on the ID number and the email), emergency
/// contacts, bank account, PIN, signature, ID photos, unlock.
async fn account_codes(app: TestApp) {
    let (verified, _) = app.qualified_borrower("09178880001").await;
    let v = Some(verified.as_str());
    let fresh = app.register("09178880002").await;
    let f = Some(fresh.as_str());
    let taken = profile("Ana Santos", "09178880001");
    let bank = json!({"bankName": "BDO Unibank", "cardNo": "001234567890"});
    let other_bank =
        json!({"bankName": "Metrobank", "cardNo": "009999999999", "smsCode": "123456"});
    let twins = json!({"contacts": [
        {"name": "Mia", "relation": "sister", "mobile": "09171110000"},
        {"name": "Leo", "relation": "brother", "mobile": "09171110000"},
    ]});
    let email_upper = taken["email"].as_str().unwrap().to_uppercase();
    let cases: Vec<(&str, Option<&str>, Value, u32)> = vec![
        (
            "/jackey/sms/fax",
            None,
            json!({"mobile": "09178880001"}),
            10004,
        ),
        ("/jackey/sms/bank", None, json!({"mobile": "12345"}), 10004),
        (
            "/jackey/user/update",
            f,
            json!({"identity": "12-34"}),
            10014,
        ),
        (
            "/jackey/user/update",
            f,
            json!({"identity": taken["identity"]}),
            10026,
        ),
        (
            "/jackey/user/update",
            f,
            json!({ "email": email_upper }),
            10025,
        ),
        ("/jackey/user/updateEmergency", f, twins, 10004),
        ("/jackey/user/bank/binding", f, bank.clone(), 40000),
        // Replacing needs a code; none was sent (10013).
        ("/jackey/user/bank/binding", v, other_bank.clone(), 10013),
        (
            "/jackey/user/withdrawPin",
            f,
            json!({"pin": "12ab56"}),
            10004,
        ),
        (
            "/jackey/user/withdrawPin",
            v,
            json!({"pin": "135790", "smsCode": "123456"}),
            10013,
        ),
        (
            "/jackey/user/signatureImg/upload",
            f,
            json!({"img": "not a data url"}),
            10004,
        ),
        (
            "/jackey/user/unlock",
            None,
            json!({"mobile": "09178889999", "unlockCode": "123456"}),
            10013,
        ),
    ];
    for (path, token, body, code) in cases {
        app.fails(path, token, body, code).await;
    }
    // A code is waiting but this is not it: 10011 (the bank and the PIN alike).
    let not = |code: String| if code == "000000" { "000001" } else { "000000" };
    app.ok("/jackey/sms/bank", None, json!({"mobile": "09178880001"}))
        .await;
    let mut wrong_bank = other_bank.clone();
    wrong_bank["smsCode"] = json!(not(app.last_sms_code("09178880001").await));
    app.fails("/jackey/user/bank/binding", v, wrong_bank, 10011)
        .await;
    app.ok("/jackey/sms/pin", None, json!({"mobile": "09178880001"}))
        .await;
    let wrong_pin_code = not(app.last_sms_code("09178880001").await);
    let pin = json!({"pin": "135790", "smsCode": wrong_pin_code});
    app.fails("/jackey/user/withdrawPin", v, pin, 10011).await;

    // Claims: a refused change releases what it claimed; a replaced value is released.
    let third = app.register("09178880003").await;
    let both = json!({"identity": "998877665544", "email": taken["email"]});
    app.fails("/jackey/user/update", f, both, 10025).await;
    app.ok(
        "/jackey/user/update",
        Some(&third),
        json!({"identity": "998877665544"}),
    )
    .await;
    app.ok(
        "/jackey/user/update",
        v,
        json!({"email": "new-address@example.ph"}),
    )
    .await;
    app.ok("/jackey/user/update", f, json!({"email": taken["email"]}))
        .await;

    // ID photos: verified ones cannot be replaced (10006); one that does not decode
    // (10035).
    let photos = ["frontImage", "backImage", "handHoldImage"].map(|name| (name, png_photo()));
    let replaced = app.upload_identity_parts(&verified, &photos).await;
    assert_eq!(replaced["code"], 10006, "{replaced}");
    let mut broken = b"\x89PNG\r\n\x1a\n".to_vec();
    broken.extend_from_slice(&[0u8; 64]);
    let mut parts = photos.clone();
    parts[0].1 = broken;
    let undecodable = app.upload_identity_parts(&fresh, &parts).await;
    assert_eq!(undecodable["code"], 10035, "{undecodable}");

    // A compliance hold: the borrower can neither bind an account nor apply, and an
    // SMS code does not lift it (P4): 20003.
    let (_, auditor) = app.auditor("codes-hold").await;
    let user_id = app.ok("/jackey/user/info", v, json!({})).await["userId"].clone();
    let hold = json!({"userId": user_id, "reason": "documents under review"});
    app.ok("/admin/api/users/hold", Some(&auditor), hold).await;
    let terms = json!({"amt": "100000", "periodDays": 6, "appId": 1});
    app.fails("/jackey/user/bank/binding", v, bank, 20003).await;
    app.fails("/jackey/loan/apply", v, terms, 20003).await;
    app.ok("/jackey/sms/unlock", None, json!({"mobile": "09178880001"}))
        .await;
    let code = app.last_sms_code("09178880001").await;
    let unlock = json!({"mobile": "09178880001", "unlockCode": code});
    app.fails("/jackey/user/unlock", None, unlock, 20003).await;

    // Unlock is limited per client: ten at once (two were used above), then code 5.
    let guess = json!({"mobile": "09178880002", "unlockCode": "123456"});
    let mut codes = Vec::new();
    for _ in 0..15 {
        let answer = app.post("/jackey/user/unlock", None, guess.clone()).await;
        codes.push(answer["code"].as_u64().unwrap());
    }
    let allowed = codes.iter().take_while(|code| **code == 10013).count();
    assert!((8..15).contains(&allowed), "{codes:?}");
    assert!(codes[allowed..].iter().all(|code| *code == 5), "{codes:?}");
}

/// A qualified borrower (PIN 246810) who applied for 100,000 over 6 days: (token,
/// order id).
async fn applied(app: &TestApp, mobile: &str) -> (String, String) {
    let (token, _) = app.qualified_borrower(mobile).await;
    let terms = json!({"amt": "100000", "periodDays": 6, "appId": 1});
    let order = app.ok("/jackey/loan/apply", Some(&token), terms).await["loanOrderId"]
        .as_str()
        .unwrap()
        .to_string();
    (token, order)
}

/// Loan calls: products, apply, withdraw (offer expired, PIN lock), cancel, the bank
/// account while repaying, and the scheduler expiring an offer.
async fn loan_codes(app: TestApp) {
    let fresh = app.register("09178881000").await;
    let f = Some(fresh.as_str());
    let terms = json!({"amt": "100000", "periodDays": 6, "appId": 1});
    let unknown = json!({"amt": "100000", "periodDays": 6, "appId": 99});
    let withdraw = |pin: &str| json!({"password": pin, "withdrawAmount": "80000", "bankcard": "x"});
    let cases: Vec<(&str, Option<&str>, Value, u32)> = vec![
        (
            "/jackey/loan/getPeriodConfig",
            None,
            json!({"appId": 99}),
            40007,
        ),
        (
            "/jackey/loan/getConfigByKey",
            None,
            json!({"key": "secrets"}),
            10004,
        ),
        ("/jackey/loan/quote", None, unknown.clone(), 40007),
        ("/jackey/loan/affordability", f, json!({"appId": 99}), 40007),
        ("/jackey/loan/apply", f, terms.clone(), 40000),
        ("/jackey/loan/orderInfo", f, json!({}), 40007),
        ("/jackey/loan/payoffQuote", f, json!({}), 40007),
        ("/jackey/user/withdraw", f, withdraw("246810"), 40007),
    ];
    for (path, token, body, code) in cases {
        app.fails(path, token, body, code).await;
    }

    // A qualified borrower applying for an unknown product: the Order refuses (40007)
    // through the loan workflow, which releases the application slot again, so the
    // next apply opens an order.
    let (qualified, _) = app.qualified_borrower("09178881009").await;
    let q = Some(qualified.as_str());
    app.fails("/jackey/loan/apply", q, unknown, 40007).await;
    app.ok("/jackey/loan/apply", q, terms.clone()).await;

    // Qualified but not signed: apply names the signature (10004).
    let unsigned = app.register("09178881001").await;
    let u = Some(unsigned.as_str());
    app.ok(
        "/jackey/user/update",
        u,
        profile("Una Signed", "09178881001"),
    )
    .await;
    app.upload_identity(&unsigned).await;
    let bank = json!({"bankName": "BDO Unibank", "cardNo": "001234567890"});
    app.ok("/jackey/user/bank/binding", u, bank).await;
    let refused = app
        .fails("/jackey/loan/apply", u, terms.clone(), 10004)
        .await;
    assert!(
        refused["msg"].as_str().unwrap().contains("signature"),
        "{refused}"
    );

    // An offer approved eight days ago has expired: 40004, and the scheduler then
    // expires the order (13).
    let (late, order) = applied(&app, "09178881002").await;
    let eight_days_ago = Arc::new(FixedClock::at(Utc::now() - Duration::days(8)));
    let past = CommandBus::new(
        &app.state.database,
        OrderServices {
            clock: eight_days_ago,
            ..app.state.order_services.clone()
        },
    );
    app.approve_on(&past, &late, &order).await;
    app.fails(
        "/jackey/user/withdraw",
        Some(&late),
        withdraw("246810"),
        40004,
    )
    .await;
    assert_eq!(
        api::workflows::scheduler::run_once(&app.state)
            .await
            .unwrap(),
        (1, 0)
    );
    app.wait_status(&late, &order, 13).await;

    // Five wrong PINs in a row lock the account (P2): 40008 four times, then 20003.
    let (pins, order) = applied(&app, "09178881003").await;
    let p = Some(pins.as_str());
    app.approve(&pins, &order).await;
    for left in [4, 3, 2, 1] {
        let wrong = app
            .fails("/jackey/user/withdraw", p, withdraw("000000"), 40008)
            .await;
        let msg = wrong["msg"].as_str().unwrap();
        assert!(msg.contains(&format!("{left} attempts left")), "{msg}");
    }
    app.fails("/jackey/user/withdraw", p, withdraw("000000"), 20003)
        .await;
    app.fails("/jackey/user/withdraw", p, withdraw("246810"), 20003)
        .await;

    // A payout the bank refuses (the sandbox refuses accounts ending in 0000): the
    // money returns to the balance, status 9, and the reason names 10012 (P3).
    let (refused, order) = applied(&app, "09178881005").await;
    let x = Some(refused.as_str());
    app.approve(&refused, &order).await;
    app.ok("/jackey/sms/bank", None, json!({"mobile": "09178881005"}))
        .await;
    let code = app.last_sms_code("09178881005").await;
    let failing = json!({"bankName": "BDO Unibank", "cardNo": "001234560000", "smsCode": code});
    app.ok("/jackey/user/bank/binding", x, failing).await;
    app.ok("/jackey/user/withdraw", x, withdraw("246810")).await;
    let back = app
        .wait_order(&refused, &order, "payoutInFlight", json!(false))
        .await;
    assert_eq!(
        (back["status"].clone(), back["balance"].clone()),
        (json!(9), json!("100000.00"))
    );
    let reason = app
        .ok("/jackey/user/getLastWithdrawError", x, json!({}))
        .await;
    assert!(reason.as_str().unwrap().contains("10012"), "{reason}");

    // Repaying (status 4): the bank account cannot be replaced (110012), even with
    // the SMS code, and the order cannot be cancelled (10004).
    let (repaying, order) = applied(&app, "09178881004").await;
    let r = Some(repaying.as_str());
    app.approve(&repaying, &order).await;
    app.ok("/jackey/user/withdraw", r, withdraw("246810")).await;
    app.wait_status(&repaying, &order, 4).await;
    app.ok("/jackey/sms/bank", None, json!({"mobile": "09178881004"}))
        .await;
    let code = app.last_sms_code("09178881004").await;
    let replace = json!({"bankName": "Metrobank", "cardNo": "009999999999", "smsCode": code});
    app.fails("/jackey/user/bank/binding", r, replace, 110012)
        .await;
    app.fails(
        "/jackey/loan/cancel",
        r,
        json!({ "loanOrderId": order }),
        10004,
    )
    .await;
}

/// Auditor calls: unknown records, wrong statuses, identity not awaiting review.
async fn auditor_codes(app: TestApp) {
    let (_, first) = app.auditor("codes-first").await;
    let s = Some(first.as_str());
    let fresh = app.register("09178882000").await;
    let fresh_id = app.ok("/jackey/user/info", Some(&fresh), json!({})).await["userId"].clone();
    let (_, _, submitted) = app.applicant("09178882001", "Sara Status").await;
    let nobody = Uuid::now_v7().to_string();
    let note = |order: &str| json!({"orderId": order, "note": "ok", "reason": "x"});
    let cases: Vec<(&str, Value, u32)> = vec![
        // No ID photos to review: 10009.
        (
            "/admin/api/users/verifyIdentity",
            json!({ "userId": fresh_id }),
            10009,
        ),
        (
            "/admin/api/users/rejectIdentity",
            json!({"userId": fresh_id, "reason": "blurred"}),
            10009,
        ),
        // Not in the status the step needs: 10004.
        ("/admin/api/orders/passFirst", note(&submitted), 10004),
        ("/admin/api/orders/passFinal", note(&submitted), 10004),
        (
            "/admin/api/orders/requestResubmission",
            json!({ "orderId": submitted }),
            10004,
        ),
        // Unknown records: 40007.
        ("/admin/api/orders/passFirst", note(&nobody), 40007),
        ("/admin/api/orders/passFinal", note(&nobody), 40007),
        (
            "/admin/api/orders/requestResubmission",
            note(&nobody),
            40007,
        ),
        (
            "/admin/api/users/rejectIdentity",
            json!({"userId": nobody, "reason": "x"}),
            40007,
        ),
        (
            "/admin/api/users/releaseHold",
            json!({"userId": nobody, "reason": "x"}),
            40007,
        ),
        ("/admin/api/users/erase", json!({ "userId": nobody }), 40007),
        (
            "/admin/api/users/erase",
            json!({ "userId": "not-a-user" }),
            40007,
        ),
        (
            "/admin/api/repayments/manual",
            json!({"orderId": nobody, "amount": "100", "reference": "T-1"}),
            40007,
        ),
        (
            "/admin/api/ledger/journal",
            json!({"orderId": "not-an-order"}),
            40007,
        ),
        ("/admin/api/orders/queue", json!({"pageSize": 101}), 10004),
    ];
    let before = app.event_count().await;
    for (path, body, code) in cases {
        app.fails(path, s, body, code).await;
    }
    assert_eq!(app.event_count().await, before, "refusals record nothing");
    // An approved order can no longer be refused: 10004.
    let (token, _, order) = app.applicant("09178882002", "Aldo Approved").await;
    app.approve(&token, &order).await;
    let refuse = json!({"orderId": order, "reason": "too late"});
    app.fails("/admin/api/orders/refuse", s, refuse, 10004)
        .await;
}
