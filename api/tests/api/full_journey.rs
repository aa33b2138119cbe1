//! One whole loan through HTTP only, as the web app and the auditor console drive it:
//! no command bus, no SQL except reading the SMS the sandbox sender wrote to
//! `sms_outbox` (the phone's inbox). Registration, ID photos, profile, bank account
//! (and its replacement with an SMS code), questionnaire, quote, signature, apply; two
//! auditors review (four eyes); PIN, withdrawal and the payout worker; two repayments
//! through the sandbox payment page and its webhook; the loan closed, every
//! installment settled and the books balanced.

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{on_both_stores, profile, questionnaire, TestApp, PNG};

on_both_stores!(
    whole_journey,
    a_whole_loan_over_http_only_on_sqlite,
    a_whole_loan_over_http_only_on_postgres
);

async fn whole_journey(app: TestApp) {
    let mobile = "09172223333";

    // Register, then log in (the session used from here on).
    app.register(mobile).await;
    let login = json!({"mobile": mobile, "password": "secret-pass"});
    let token = app.ok("/jackey/user/login", None, login).await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let t = Some(token.as_str());
    let user_id = app.ok("/jackey/user/info", t, json!({})).await["userId"]
        .as_str()
        .unwrap()
        .to_string();

    // Identity photos (multipart), profile, bank account.
    app.upload_identity(&token).await;
    app.ok("/jackey/user/update", t, profile("Ana Santos", mobile))
        .await;
    let first_account = json!({"bankName": "BDO Unibank", "cardNo": "001234567890"});
    app.ok("/jackey/user/bank/binding", t, first_account).await;
    // Replacing the account needs the SMS code sent to the registered phone (P3).
    app.ok("/jackey/sms/bank", None, json!({ "mobile": mobile }))
        .await;
    let code = app.last_sms_code(mobile).await;
    let replacement = json!({"bankName": "Metrobank", "cardNo": "009876543210", "smsCode": code});
    app.ok("/jackey/user/bank/binding", t, replacement).await;

    // Questionnaire: the borrower is qualified (identity submitted, not yet verified).
    app.ok("/jackey/user/update", t, questionnaire()).await;
    let info = app.ok("/jackey/user/info", t, json!({})).await;
    assert_eq!(
        info["userQualificationView"],
        json!({"identity": 1, "basicInformation": 1, "bankCard": 1})
    );
    assert_eq!(
        (info["bankName"].clone(), info["cardNo"].clone()),
        (json!("Metrobank"), json!("********3210"))
    );

    // The disclosure before signing (P5), the signature, the application.
    let terms = json!({"amt": "100000", "periodDays": 6, "appId": 1, "configId": 1});
    let quote = app.ok("/jackey/loan/quote", None, terms.clone()).await;
    assert_eq!(
        (quote["interest"].clone(), quote["totalRepayable"].clone()),
        (json!("1200.00"), json!("101200.00"))
    );
    app.ok("/jackey/user/signatureImg/upload", t, json!({"img": PNG}))
        .await;
    let order_id = app.ok("/jackey/loan/apply", t, terms).await["loanOrderId"]
        .as_str()
        .unwrap()
        .to_string();
    let order = json!({ "orderId": order_id });

    // Two auditors, created as `api create-auditor` does and logged in over HTTP.
    let (_, first) = app.auditor("journey-first").await;
    let (_, second) = app.auditor("journey-final").await;
    let (s1, s2) = (Some(first.as_str()), Some(second.as_str()));
    let queue = app
        .ok("/admin/api/orders/queue", s1, json!({"status": 0}))
        .await;
    assert_eq!(queue["orders"][0]["orderId"], order_id.as_str());
    app.ok("/admin/api/orders/startReview", s1, order.clone())
        .await;
    let applicant = json!({ "userId": user_id });
    app.ok("/admin/api/users/verifyIdentity", s1, applicant)
        .await;
    let note = |text: &str| json!({ "orderId": order_id, "note": text });
    app.ok("/admin/api/orders/passFirst", s1, note("documents match"))
        .await;
    // Four eyes: the first reviewer cannot also pass the final review.
    let same = app
        .fails("/admin/api/orders/passFinal", s1, note("approved"), 10004)
        .await;
    assert!(
        same["msg"].as_str().unwrap().contains("another auditor"),
        "{same}"
    );
    app.ok("/admin/api/orders/passFinal", s2, note("approved"))
        .await;
    let approved = app.wait_status(&token, &order_id, 9).await;
    assert_eq!(approved["balance"], "100000.00");

    // The borrower's own PIN (P2), a withdrawal of part of the offer, the payout.
    app.ok("/jackey/user/withdrawPin", t, json!({"pin": "246810"}))
        .await;
    let withdraw = json!({"password": "246810", "withdrawAmount": "30000", "bankcard": "x", "loanOrderId": order_id});
    assert_eq!(
        app.ok("/jackey/user/withdraw", t, withdraw).await["verified"],
        true
    );
    let disbursed = app.wait_status(&token, &order_id, 4).await;
    assert_eq!(
        disbursed["principal"], "30000.00",
        "P10: the amount paid out"
    );
    assert_eq!(disbursed["totalRepay"], "30360.00");
    assert_eq!(
        app.ok("/jackey/user/getLastWithdrawError", t, json!({}))
            .await,
        ""
    );
    let id = json!({ "loanOrderId": order_id });
    let payoff = app.ok("/jackey/loan/payoffQuote", t, id).await;
    assert_eq!(
        (payoff["amount"].clone(), payoff["coolingOff"].clone()),
        (json!("30000.00"), json!(true)),
        "P12: within cooling-off the principal closes the loan"
    );

    // Two repayments through the sandbox payment page, as a browser would.
    for (amount, shown, repaid) in [
        ("20000", "₱20,000.00", "20000.00"),
        ("10000", "₱10,000.00", "30000.00"),
    ] {
        let url = app
            .ok("/jackey/loan/recharge", t, json!({ "amt": amount }))
            .await;
        let url = url.as_str().unwrap().to_string();
        let (status, page) = app.page(&url).await;
        assert_eq!(status, StatusCode::OK);
        assert!(page.contains(shown), "{page}");
        assert!(page.contains("value=\"paid\""), "{page}");
        // In the app's language, kept through Pay (issue 52).
        let (_, zh) = app.page(&format!("{url}?lang=zh")).await;
        assert!(
            zh.contains("<html lang=\"zh-CN\">") && zh.contains("贷款还款"),
            "{zh}"
        );
        assert!(zh.contains(&format!("action=\"{url}?lang=zh\"")), "{zh}");
        let (status, location) = app.press(&format!("{url}?lang=fil"), "outcome=paid").await;
        let back = format!("{url}?lang=fil");
        assert_eq!(
            (status, location.as_deref()),
            (StatusCode::SEE_OTHER, Some(back.as_str()))
        );
        assert!(app.page(&back).await.1.contains("Natanggap ang bayad"));
        assert!(app.page(&url).await.1.contains("Payment received"));
        app.wait_order(&token, &order_id, "repaid", json!(repaid))
            .await;
    }

    // Closed: repaid (10), every installment settled, nothing owed, nothing payable.
    let closed = app.wait_status(&token, &order_id, 10).await;
    assert_eq!(closed["remaining"], "0.00");
    assert_eq!(closed["interestWaived"], "360.00");
    let schedule = closed["periodViews"].as_array().unwrap();
    assert_eq!(schedule.len(), 6);
    assert!(
        schedule.iter().all(|line| line["status"] == 1),
        "{schedule:?}"
    );
    let paid: rust_decimal::Decimal = schedule.iter().map(|line| amount(&line["paid"])).sum();
    assert_eq!(paid, amount(&json!("30000.00")));
    app.fails("/jackey/loan/recharge", t, json!({"amt": "100"}), 40007)
        .await;
    let (types, _) = app.timeline(&token, &order_id).await;
    assert_eq!(
        (
            types.first().unwrap().as_str(),
            types.last().unwrap().as_str()
        ),
        ("LoanApplied", "LoanRepaid")
    );

    // The books: every entry and the trial balance sum to zero; the loan's receivable
    // is settled.
    let trial = app
        .ok("/admin/api/ledger/trialBalance", s2, json!({}))
        .await;
    assert_eq!(
        (trial["sum"].clone(), trial["balanced"].clone()),
        (json!("0.00"), json!(true)),
        "{trial}"
    );
    let receivable = format!("loan_receivable:{order_id}");
    let balance = trial["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|account| account["account"] == receivable.as_str())
        .map(|account| account["balance"].clone());
    assert_eq!(balance, Some(json!("0.00")), "{trial}");
}

fn amount(value: &Value) -> rust_decimal::Decimal {
    value.as_str().unwrap().parse().unwrap()
}
