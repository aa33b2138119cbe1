//! A borrower's whole journey over HTTP, with the error codes met on the way.

use aggregates::order::OrderCommand;
use aggregates::types::ImageRef;
use aggregates::user::UserCommand;
use aggregates::Actor;
use serde_json::json;
use uuid::Uuid;

use crate::helpers::{TestApp, PNG};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn journey_on_sqlite() {
    journey(TestApp::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn journey_on_postgres() {
    if let Some(app) = TestApp::postgres().await {
        journey(app).await;
    }
}

fn image(name: &str) -> ImageRef {
    ImageRef {
        key: format!("id/{name}.jpg"),
        sha256: "ab".repeat(32),
    }
}

async fn journey(app: TestApp) {
    // Registration and its refusals.
    // (The phone's code: `sms_codes.rs` tests it, and that a refusal does not spend it.)
    let sms_code = app.register_code("09171234567").await;
    let register = |mobile: &str, invite: &str| json!({"mobile": mobile, "password": "secret-pass", "smsCode": sms_code, "telemarketingCode": invite, "installationSource": "web", "platform": "h5", "companyId": 1, "appId": 1, "privacyNoticeVersion": "2026-11"});
    app.fails(
        "/jackey/user/register",
        None,
        register("09171234567", "NOPE"),
        10000,
    )
    .await;
    app.fails(
        "/jackey/user/register",
        None,
        register("9171234567", "WELCOME"),
        10004,
    )
    .await;
    let token = app
        .ok(
            "/jackey/user/register",
            None,
            register("09171234567", "WELCOME"),
        )
        .await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let t = Some(token.as_str());

    // Login: a wrong password is refused as a phone without an account is (12.2);
    // the right one gives a new token.
    let wrong = app
        .fails(
            "/jackey/user/login",
            None,
            json!({"mobile": "09171234567", "password": "wrong-pass"}),
            10002,
        )
        .await;
    assert_eq!(wrong["msg"], "wrong phone number or password", "{wrong}");
    app.fails(
        "/jackey/user/login",
        None,
        json!({"mobile": "09170000000", "password": "secret-pass"}),
        10002,
    )
    .await;
    let login = app
        .ok(
            "/jackey/user/login",
            None,
            json!({"mobile": "09171234567", "password": "secret-pass"}),
        )
        .await;
    assert!(login["token"].as_str().unwrap().len() == 64);

    // Bad requests never give a 500, and auth is enforced.
    app.fails("/jackey/user/info", None, json!({}), 401).await;
    app.fails("/jackey/user/info", Some("garbage"), json!({}), 20001)
        .await;
    let malformed = app
        .post_raw("/jackey/user/update", t, "{not json".into())
        .await;
    assert_eq!(malformed["code"], 10004, "{malformed}");
    app.fails(
        "/jackey/user/update",
        t,
        json!({"birthday": "14/03/1995"}),
        10004,
    )
    .await;
    app.fails("/jackey/user/update", t, json!({"email": "ana@"}), 10004)
        .await;

    let info = app.ok("/jackey/user/info", t, json!({})).await;
    assert_eq!(info["mobile"], "09171234567");
    assert_eq!(
        info["userQualificationView"],
        json!({"identity": 0, "basicInformation": 0, "bankCard": 0})
    );
    let user_id: Uuid = info["userId"].as_str().unwrap().parse().unwrap();

    // The identity step: name and ID number, then the photos (multipart upload not
    // built yet: through the command bus), then an auditor's review.
    app.ok("/jackey/user/update", t, json!({"realName": "Ana Santos", "identity": "123456789012", "sex": 2, "birthday": "1995-03-14", "marriage": "Single", "email": "ana@example.ph", "education": "College", "provinceCity": "National Capital Region (NCR),,Quezon City", "address": "12 Mabini St"})).await;

    let uid = user_id.to_string();
    app.state
        .users
        .execute(
            &uid,
            UserCommand::SubmitIdentity {
                front: image("f"),
                back: image("b"),
                hand_hold: image("h"),
            },
            Actor::User(user_id).metadata("t", None),
        )
        .await
        .unwrap();
    app.verify_identity(&uid).await;

    // Verified values are read-only now.
    app.fails(
        "/jackey/user/update",
        t,
        json!({"realName": "Someone Else"}),
        10006,
    )
    .await;
    // Bank, signature, questionnaire.
    app.fails(
        "/jackey/user/bank/binding",
        t,
        json!({"bankName": "Nowhere Bank", "cardNo": "001234567890"}),
        10004,
    )
    .await;
    app.fails(
        "/jackey/user/bank/binding",
        t,
        json!({"bankName": "BDO Unibank", "cardNo": "123"}),
        10028,
    )
    .await;
    app.ok(
        "/jackey/user/bank/binding",
        t,
        json!({"bankName": "BDO Unibank", "cardNo": "001234567890"}),
    )
    .await;
    // Replacing it needs an SMS code (P3).
    app.fails(
        "/jackey/user/bank/binding",
        t,
        json!({"bankName": "Metrobank", "cardNo": "009999999999"}),
        10011,
    )
    .await;
    app.fails(
        "/jackey/user/signatureImg/upload",
        t,
        json!({"img": "data:image/png;base64,aGVsbG8="}),
        20000,
    )
    .await;
    app.ok("/jackey/user/signatureImg/upload", t, json!({"img": PNG}))
        .await;
    app.fails("/jackey/user/update", t, json!({"job": "teacher"}), 10004)
        .await;
    app.ok("/jackey/user/update", t, json!({"job": "teacher", "monthlyIncome": "400000", "expenses": "12000", "loanPurpose": "tuition", "loanBefore": false, "guarantee": true})).await;
    let info = app.ok("/jackey/user/info", t, json!({})).await;
    assert_eq!(
        info["userQualificationView"],
        json!({"identity": 2, "basicInformation": 1, "bankCard": 1})
    );
    assert_eq!(info["cardNo"], "********7890");

    // Products, quote (P5), apply (P7).
    let products = app.ok("/jackey/loan/appList", None, json!({})).await;
    assert_eq!(products.as_array().unwrap().len(), 3);
    let periods = app
        .ok("/jackey/loan/getPeriodConfig", None, json!({"appId": 1}))
        .await;
    assert_eq!(periods["rateConfigs"][0]["periodDays"], 6);
    let company = app
        .ok(
            "/jackey/loan/getAllCompanyConfigs",
            None,
            json!({"appId": 1}),
        )
        .await;
    assert_eq!(
        company["notice"],
        "We never ask you to pay to receive a loan."
    );
    assert_eq!(
        company["lender"]["legal_name"],
        "Honest Lending Corporation"
    );
    let banks = app
        .ok("/jackey/loan/getConfigByKey", None, json!({"key": "banks"}))
        .await;
    // PRODUCT.md 11: the PH banks and e-wallets.
    assert_eq!(banks.as_array().unwrap().len(), 15);
    assert!(banks.as_array().unwrap().contains(&json!("GCash")));
    app.fails(
        "/jackey/loan/quote",
        None,
        json!({"amt": "85000", "periodDays": 6, "appId": 1}),
        10004,
    )
    .await;
    app.fails(
        "/jackey/loan/quote",
        None,
        json!({"amt": "80000", "periodDays": 6, "appId": 2}),
        10004,
    )
    .await;
    let quote = app
        .ok(
            "/jackey/loan/quote",
            None,
            json!({"amt": "100000", "periodDays": 6, "appId": 1}),
        )
        .await;
    assert_eq!(quote["interest"], "1200.00");
    assert_eq!(quote["totalRepayable"], "101200.00");
    let applied = app
        .ok(
            "/jackey/loan/apply",
            t,
            json!({"amt": "100000", "periodDays": 6, "appId": 1, "configId": 1}),
        )
        .await;
    let order_id = applied["loanOrderId"].as_str().unwrap().to_string();
    app.fails(
        "/jackey/loan/apply",
        t,
        json!({"amt": "100000", "periodDays": 6, "appId": 1}),
        40005,
    )
    .await;
    let progress = app.ok("/jackey/loan/getLoanProgress", t, json!({})).await;
    assert_eq!(
        (progress["status"].clone(), progress["orderId"].clone()),
        (json!(0), json!(order_id))
    );
    let list = app.ok("/jackey/loan/getUserOrderList", t, json!({})).await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    // Nothing can be paid before the payout (P1).
    app.fails(
        "/jackey/loan/payoffQuote",
        t,
        json!({"loanOrderId": order_id}),
        40007,
    )
    .await;

    // Two auditors approve (the auditor API comes next: through the command bus).
    let oid = order_id.clone();
    let (a1, a2) = (Uuid::now_v7(), Uuid::now_v7());
    for (who, command) in [
        (a1, OrderCommand::StartReview { auditor_id: a1 }),
        (
            a1,
            OrderCommand::PassFirstAudit {
                auditor_id: a1,
                note: "ok".into(),
                identity_verified: true,
            },
        ),
        (
            a2,
            OrderCommand::PassFinalAudit {
                auditor_id: a2,
                note: "ok".into(),
            },
        ),
    ] {
        app.state
            .orders
            .execute(&oid, command, Actor::Auditor(who).metadata("t", None))
            .await
            .unwrap();
    }
    let approved = app.wait_status(&token, &order_id, 9).await;
    assert_eq!(approved["balance"], "100000.00");

    // Withdraw: PIN set-up, a wrong PIN counts down (P2), the right one pays out.
    app.ok("/jackey/user/withdrawPin", t, json!({"pin": "246810"}))
        .await;
    app.fails(
        "/jackey/user/withdrawPin",
        t,
        json!({"pin": "135790"}),
        10011,
    )
    .await;
    app.fails(
        "/jackey/user/withdraw",
        t,
        json!({"password": "246810", "withdrawAmount": "100000.01", "bankcard": "x"}),
        40006,
    )
    .await;
    let wrong_pin = app
        .fails(
            "/jackey/user/withdraw",
            t,
            json!({"password": "000000", "withdrawAmount": "80000", "bankcard": "x"}),
            40008,
        )
        .await;
    assert!(
        wrong_pin["msg"]
            .as_str()
            .unwrap()
            .contains("4 attempts left"),
        "{wrong_pin}"
    );
    let withdrawn = app
        .ok(
            "/jackey/user/withdraw",
            t,
            json!({"password": "246810", "withdrawAmount": "80000", "bankcard": "x"}),
        )
        .await;
    assert_eq!(withdrawn["verified"], true);
    let disbursed = app.wait_status(&token, &order_id, 4).await;
    assert_eq!(
        disbursed["principal"], "80000.00",
        "P10: interest on what was paid out"
    );
    assert_eq!(disbursed["totalRepay"], "80960.00");
    assert_eq!(disbursed["periodViews"].as_array().unwrap().len(), 6);
    let payoff = app
        .ok(
            "/jackey/loan/payoffQuote",
            t,
            json!({"loanOrderId": order_id}),
        )
        .await;
    assert_eq!(
        (payoff["amount"].clone(), payoff["coolingOff"].clone()),
        (json!("80000.00"), json!(true))
    );
    assert_eq!(
        app.ok("/jackey/user/getLastWithdrawError", t, json!({}))
            .await,
        ""
    );

    // Repay the principal within cooling-off (P12). The payment page and its signed
    // webhook have their own tests (payment.rs); here, their effect: a session the
    // order opened, and a recharge on it recorded on the wallet.
    for n in 0..4 {
        app.paid_session(&uid, &order_id, &format!("pay-{n}"), 20_000)
            .await;
    }
    let repaid = app.wait_status(&token, &order_id, 10).await;
    assert_eq!(repaid["repaid"], "80000.00");
    assert_eq!(repaid["remaining"], "0.00");
    assert_eq!(repaid["interestWaived"], "960.00");
    let (types, timeline) = app.timeline(&token, &order_id).await;
    assert_eq!(types.first().map(String::as_str), Some("LoanApplied"));
    assert_eq!(types.last().map(String::as_str), Some("LoanRepaid"));
    assert!(
        timeline
            .as_array()
            .unwrap()
            .iter()
            .all(|e| !e.to_string().contains(&a1.to_string())),
        "auditor ids stay internal"
    );

    // Logout revokes the token.
    app.ok("/jackey/user/logout", t, json!({})).await;
    app.fails("/jackey/user/info", t, json!({}), 20001).await;
}
