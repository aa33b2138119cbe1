//! The auditor console over HTTP (PRODUCT.md sections 6 and 7): accounts and tokens,
//! review with the four-eyes rule, refusals and resubmission with their reasons shown
//! to the borrower, identity review, compliance holds, history replay, manual
//! repayments and the ledger. The borrowers' side goes through `/jackey` only.

use api::accounts::auditors::{create_auditor, CreateAuditorError};
use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;
use uuid::Uuid;

use crate::helpers::{on_both_stores, TestApp};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auditor_console_on_sqlite() {
    console(&TestApp::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auditor_console_on_postgres() {
    if let Some(app) = TestApp::postgres().await {
        console(&app).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auditor_accounts_and_tokens_on_sqlite() {
    accounts(&TestApp::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auditor_accounts_and_tokens_on_postgres() {
    if let Some(app) = TestApp::postgres().await {
        accounts(&app).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_back_office_route_for_pins_banks_or_charges_on_sqlite() {
    no_forbidden_routes(&TestApp::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_back_office_route_for_pins_banks_or_charges_on_postgres() {
    if let Some(app) = TestApp::postgres().await {
        no_forbidden_routes(&app).await;
    }
}

// ---------------------------------------------------------------------------------
// Shared steps.

/// Status and body of a raw POST (for paths that must not exist).
async fn raw_post(app: &TestApp, path: &str, token: &str, body: Value) -> (u16, Vec<u8>) {
    let request = Request::post(path)
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"))
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, bytes.to_vec())
}

// ---------------------------------------------------------------------------------
// The console.

async fn console(app: &TestApp) {
    let (a1, t1) = app.auditor("auditor-one").await;
    let (a2, t2) = app.auditor("auditor-two").await;
    let (s1, s2) = (Some(t1.as_str()), Some(t2.as_str()));
    let (token_a, user_a, order_a) = app.applicant("09171110001", "Ana Santos").await;
    let (token_b, user_b, order_b) = app.applicant("09171110002", "Ben Cruz").await;
    let ta = Some(token_a.as_str());
    let tb = Some(token_b.as_str());

    // Tokens: a borrower's never opens the console, and an auditor's is no borrower's.
    app.fails("/admin/api/orders/queue", ta, json!({}), 20001)
        .await;
    app.fails("/admin/api/orders/queue", None, json!({}), 401)
        .await;
    app.fails("/jackey/user/info", s1, json!({}), 20001).await;

    // The queue: oldest first, with the applicant summary; by status; paged.
    let queue = app.ok("/admin/api/orders/queue", s1, json!({})).await;
    assert_eq!(queue["total"], 2);
    let listed: Vec<&str> = queue["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["orderId"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [order_a.as_str(), order_b.as_str()]);
    let first = &queue["orders"][0];
    assert_eq!(first["status"], 0);
    assert_eq!(first["applyAmount"], "100000.00");
    assert_eq!(first["applicant"]["realName"], "Ana Santos");
    assert_eq!(first["applicant"]["userId"], user_a.as_str());
    assert_eq!(first["applicant"]["identityStatus"], 1);
    let page2 = app
        .ok(
            "/admin/api/orders/queue",
            s1,
            json!({"status": 0, "page": 2, "pageSize": 1}),
        )
        .await;
    assert_eq!(page2["total"], 2);
    assert_eq!(page2["orders"][0]["orderId"], order_b.as_str());
    assert_eq!(page2["orders"].as_array().unwrap().len(), 1);
    let in_review = app
        .ok("/admin/api/orders/queue", s1, json!({"status": 1}))
        .await;
    assert_eq!(in_review["total"], 0);
    app.fails("/admin/api/orders/queue", s1, json!({"pageSize": 0}), 10004)
        .await;

    // The review page: order, applicant, ID photos, questionnaire, disclosure,
    // signature and timeline.
    let detail = app
        .ok("/admin/api/orders/detail", s1, json!({"orderId": order_a}))
        .await;
    assert_eq!(detail["order"]["orderId"], order_a.as_str());
    assert_eq!(detail["order"]["status"], 0);
    assert_eq!(detail["applicant"]["realName"], "Ana Santos");
    assert_eq!(detail["applicant"]["mobile"], "09171110001");
    assert_eq!(detail["identityStatus"], 1);
    assert_eq!(detail["questionnaire"]["job"], "teacher");
    assert_eq!(detail["disclosure"]["principal"], "100000.00");
    assert_eq!(detail["disclosure"]["totalRepayable"], "101200.00");
    assert!(detail["signature"]["key"]
        .as_str()
        .unwrap()
        .starts_with(&format!("signature/{user_a}/")));
    for part in ["front", "back", "handHold"] {
        let key = detail["images"][part]["key"].as_str().unwrap();
        assert!(key.starts_with(&format!("id/{user_a}/")), "{key}");
        // Auditors may open the stored photos, as their owner can; another borrower
        // may not.
        let url = detail["images"][part]["url"].as_str().unwrap();
        let owned = app
            .file(url, Some(&token_a))
            .await
            .expect("the owner's image");
        assert_eq!(app.file(url, Some(&t1)).await, Ok(owned), "{url}");
        let denied = app.file(url, Some(&token_b)).await.unwrap_err();
        assert_eq!(denied["code"], 40007, "{url}");
    }
    assert_eq!(detail["timeline"][0]["type"], "LoanApplied");
    assert_eq!(detail["timeline"][0]["actor"], format!("user:{user_a}"));

    // Unknown ids are 40007 everywhere.
    let nobody = Uuid::now_v7().to_string();
    for (path, body) in [
        ("/admin/api/orders/detail", json!({"orderId": nobody})),
        ("/admin/api/orders/detail", json!({"orderId": "not-an-id"})),
        ("/admin/api/orders/startReview", json!({"orderId": nobody})),
        (
            "/admin/api/orders/refuse",
            json!({"orderId": nobody, "reason": "x"}),
        ),
        ("/admin/api/orders/history", json!({"orderId": nobody})),
        ("/admin/api/users/detail", json!({"userId": nobody})),
        ("/admin/api/users/detail", json!({"userId": "garbage"})),
        ("/admin/api/users/verifyIdentity", json!({"userId": nobody})),
        (
            "/admin/api/users/hold",
            json!({"userId": nobody, "reason": "x"}),
        ),
    ] {
        app.fails(path, s1, body, 40007).await;
    }

    // First review: it passes only once the identity is verified (4.3).
    app.ok(
        "/admin/api/orders/startReview",
        s1,
        json!({"orderId": order_a}),
    )
    .await;
    app.fails(
        "/admin/api/orders/startReview",
        s1,
        json!({"orderId": order_a}),
        10004,
    )
    .await;
    app.fails(
        "/admin/api/orders/passFirst",
        s1,
        json!({"orderId": order_a, "note": "looks fine"}),
        40000,
    )
    .await;
    app.ok(
        "/admin/api/users/verifyIdentity",
        s1,
        json!({"userId": user_a}),
    )
    .await;
    let info_a = app.ok("/jackey/user/info", ta, json!({})).await;
    assert_eq!(info_a["userQualificationView"]["identity"], 2);
    app.ok(
        "/admin/api/orders/passFirst",
        s1,
        json!({"orderId": order_a, "note": "documents match"}),
    )
    .await;

    // Four eyes: the first reviewer cannot pass the final review.
    let same = app
        .fails(
            "/admin/api/orders/passFinal",
            s1,
            json!({"orderId": order_a, "note": "ok"}),
            10004,
        )
        .await;
    assert!(
        same["msg"].as_str().unwrap().contains("another auditor"),
        "{same}"
    );
    // Nor refuse it: a refusal now is the final review's decision too.
    app.fails(
        "/admin/api/orders/refuse",
        s1,
        json!({"orderId": order_a, "reason": "second thoughts"}),
        10004,
    )
    .await;
    app.ok(
        "/admin/api/orders/passFinal",
        s2,
        json!({"orderId": order_a, "note": "approved"}),
    )
    .await;
    let approved = app.wait_status(&token_a, &order_a, 9).await;
    assert_eq!(approved["balance"], "100000.00");
    let detail = app
        .ok("/admin/api/orders/detail", s2, json!({"orderId": order_a}))
        .await;
    assert_eq!(detail["review"]["firstAuditor"], json!(a1));
    assert_eq!(detail["review"]["finalAuditor"], json!(a2));

    // Second order: identity rejected, resubmission requested, then refused; every
    // reason reaches the borrower (P8).
    app.fails(
        "/admin/api/users/rejectIdentity",
        s1,
        json!({"userId": user_b, "reason": "  "}),
        10004,
    )
    .await;
    app.ok(
        "/admin/api/users/rejectIdentity",
        s1,
        json!({"userId": user_b, "reason": "the ID photo is blurred"}),
    )
    .await;
    let info_b = app.ok("/jackey/user/info", tb, json!({})).await;
    assert_eq!(info_b["userQualificationView"]["identity"], 3);
    assert_eq!(info_b["identityRejectReason"], "the ID photo is blurred");
    app.ok(
        "/admin/api/orders/requestResubmission",
        s1,
        json!({"orderId": order_b, "reason": "upload a sharper ID photo", "items": ["photos"]}),
    )
    .await;
    let order = app
        .ok(
            "/jackey/loan/orderInfo",
            tb,
            json!({"loanOrderId": order_b}),
        )
        .await;
    assert_eq!(order["status"], 2);
    assert_eq!(order["resubmissionReason"], "upload a sharper ID photo");
    app.fails(
        "/admin/api/orders/refuse",
        s1,
        json!({"orderId": order_b}),
        10004,
    )
    .await;
    // A code the console does not offer is bad input, and changes nothing.
    app.fails(
        "/admin/api/orders/refuse",
        s1,
        json!({"orderId": order_b, "reasons": ["looks_poor"]}),
        10004,
    )
    .await;
    // Coded reasons (read in the borrower's language) and the officer's note.
    app.ok(
        "/admin/api/orders/refuse",
        s1,
        json!({
            "orderId": order_b,
            "reasons": ["repayment_capacity", "income_not_verified", "income_not_verified"],
            "reason": "income could not be verified"
        }),
    )
    .await;
    let order = app
        .ok(
            "/jackey/loan/orderInfo",
            tb,
            json!({"loanOrderId": order_b}),
        )
        .await;
    assert_eq!(order["status"], 5);
    assert_eq!(order["refuseReason"], "income could not be verified");
    assert_eq!(
        order["refuseReasons"],
        json!(["income_not_verified", "repayment_capacity"])
    );
    let detail = app
        .ok("/admin/api/orders/detail", s1, json!({"orderId": order_b}))
        .await;
    assert_eq!(
        detail["review"]["refusal"]["reasons"],
        json!(["income_not_verified", "repayment_capacity"])
    );

    // Compliance hold (P4): set and lifted by an auditor, reason on the lock screen.
    app.fails(
        "/admin/api/users/hold",
        s1,
        json!({"userId": user_b, "reason": ""}),
        10004,
    )
    .await;
    app.ok(
        "/admin/api/users/hold",
        s1,
        json!({"userId": user_b, "reason": "document review in progress"}),
    )
    .await;
    let info_b = app.ok("/jackey/user/info", tb, json!({})).await;
    assert_eq!(
        info_b["lock"],
        json!({"kind": "compliance", "reason": "document review in progress"})
    );
    // Its reason is said at login only to the password's holder (PRODUCT.md 12.2):
    // a wrong password reads as for a phone without an account.
    let login = |password: &str| json!({"mobile": "09171110002", "password": password});
    let guess = app
        .fails("/jackey/user/login", None, login("guess-guess"), 10002)
        .await;
    assert_eq!(guess["msg"], "wrong phone number or password", "{guess}");
    let held = app
        .fails("/jackey/user/login", None, login("secret-pass"), 20003)
        .await;
    assert!(
        held["msg"]
            .as_str()
            .unwrap()
            .contains("document review in progress"),
        "{held}"
    );
    let user = app
        .ok("/admin/api/users/detail", s2, json!({"userId": user_b}))
        .await;
    assert_eq!(user["lock"]["kind"], "compliance");
    assert_eq!(user["identity"]["status"], 3);
    assert_eq!(user["identity"]["rejectReason"], "the ID photo is blurred");
    assert_eq!(user["profile"]["realName"], "Ben Cruz");
    assert_eq!(user["orders"][0]["orderId"], order_b.as_str());
    assert!(user["identity"]["images"]["front"]["key"].is_string());
    app.ok(
        "/admin/api/users/releaseHold",
        s2,
        json!({"userId": user_b, "reason": "documents confirmed"}),
    )
    .await;
    let info_b = app.ok("/jackey/user/info", tb, json!({})).await;
    assert_eq!(info_b["lock"], Value::Null);
    // The user page lists who did what to the account, and nothing the borrower did.
    let user = app
        .ok("/admin/api/users/detail", s1, json!({"userId": user_b}))
        .await;
    let actions: Vec<(String, String)> = user["auditorActions"]
        .as_array()
        .expect("auditorActions is a list")
        .iter()
        .map(|a| {
            let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (text(&a["type"]), text(&a["actorName"]))
        })
        .collect();
    assert!(
        actions.contains(&("AccountLocked".into(), "auditor-one".into())),
        "{actions:?}"
    );
    assert!(
        actions.contains(&("AccountUnlocked".into(), "auditor-two".into())),
        "{actions:?}"
    );
    assert!(
        actions.iter().any(|(kind, _)| kind == "IdentityRejected"),
        "{actions:?}"
    );
    assert!(
        actions.iter().all(
            |(kind, _)| !["UserRegistered", "WithdrawPinSet", "BankCardBound"]
                .contains(&kind.as_str())
        ),
        "{actions:?}"
    );
    app.fails(
        "/admin/api/users/releaseHold",
        s2,
        json!({"userId": user_b, "reason": "again"}),
        40007,
    )
    .await;

    // The borrower draws the loan; an auditor records a bank transfer (manual
    // repayment). Amounts the domain refuses keep their codes; nothing before payout.
    app.fails(
        "/admin/api/repayments/manual",
        s2,
        json!({"orderId": order_a, "amount": "20000", "reference": "BANK-TX-0"}),
        40007,
    )
    .await;
    app.ok(
        "/jackey/user/withdraw",
        ta,
        json!({"password": "246810", "withdrawAmount": "100000", "bankcard": "x"}),
    )
    .await;
    app.wait_status(&token_a, &order_a, 4).await;
    for (amount, reference, code) in [
        ("50", "BANK-TX-1", 40001),
        ("0", "BANK-TX-1", 40001),
        ("20000", " ", 10004),
    ] {
        app.fails(
            "/admin/api/repayments/manual",
            s2,
            json!({"orderId": order_a, "amount": amount, "reference": reference}),
            code,
        )
        .await;
    }
    app.fails(
        "/admin/api/repayments/manual",
        s2,
        json!({"orderId": order_b, "amount": "20000", "reference": "BANK-TX-1"}),
        40007,
    )
    .await;
    let recorded = app
        .ok(
            "/admin/api/repayments/manual",
            s2,
            json!({"orderId": order_a, "amount": "20000", "reference": "BANK-TX-1"}),
        )
        .await;
    assert_eq!(recorded["recorded"], true);
    // The same reference applies once.
    let repeat = app
        .ok(
            "/admin/api/repayments/manual",
            s2,
            json!({"orderId": order_a, "amount": "20000", "reference": "BANK-TX-1"}),
        )
        .await;
    assert_eq!(repeat["recorded"], false);
    let order = app
        .ok(
            "/jackey/loan/orderInfo",
            ta,
            json!({"loanOrderId": order_a}),
        )
        .await;
    assert_eq!(order["repaid"], "20000.00");

    // History (P9): every event with its actor, and the state as of any event.
    let history = app
        .ok("/admin/api/orders/history", s1, json!({"orderId": order_a}))
        .await;
    let events = history["events"].as_array().unwrap();
    let summary: Vec<(&str, &str)> = events
        .iter()
        .map(|e| (e["type"].as_str().unwrap(), e["actor"].as_str().unwrap()))
        .collect();
    let (user, first, second) = (
        format!("user:{user_a}"),
        format!("auditor:{a1}"),
        format!("auditor:{a2}"),
    );
    assert_eq!(
        summary,
        [
            ("LoanApplied", user.as_str()),
            ("ReviewStarted", first.as_str()),
            ("FirstAuditPassed", first.as_str()),
            ("FinalAuditPassed", second.as_str()),
            ("PayoutRequested", user.as_str()),
            ("PayoutSucceeded", "system"),
            ("RepaymentReceived", second.as_str()),
        ]
    );
    for (n, event) in events.iter().enumerate() {
        assert_eq!(event["sequence"], n + 1);
        assert!(event["time"].is_string(), "{event}");
    }
    assert_eq!(events[1]["actorName"], "auditor-one");
    assert_eq!(events[3]["actorName"], "auditor-two");
    let repayment = events[6]["payload"].to_string();
    assert!(
        repayment.contains("manual") && repayment.contains(&a2.to_string()),
        "{repayment}"
    );
    // The bound account number reads masked, as everywhere else in the console,
    // in the payloads and in the state (PRODUCT.md 10).
    let payout = events[4]["payload"].to_string();
    assert!(
        payout.contains("********7890") && !payout.contains("001234567890"),
        "{payout}"
    );
    // In the state while the payout is in flight (as of event 5, PayoutRequested).
    let in_flight = app
        .ok(
            "/admin/api/orders/history",
            s1,
            json!({"orderId": order_a, "atSequence": 5}),
        )
        .await;
    assert_eq!(
        in_flight["state"]["payout"]["account"]["account_no"], "********7890",
        "{in_flight}"
    );
    assert!(
        !in_flight.to_string().contains("001234567890"),
        "{in_flight}"
    );
    assert_eq!(history["atSequence"], 7);
    assert_eq!(history["status"], 4);
    let statuses = [0, 1, 3, 9, 9, 4, 4];
    for (sequence, status) in (1..=7).zip(statuses) {
        let at = app
            .ok(
                "/admin/api/orders/history",
                s1,
                json!({"orderId": order_a, "atSequence": sequence}),
            )
            .await;
        assert_eq!(at["atSequence"], sequence);
        assert_eq!(at["status"], status, "as of event {sequence}");
        assert_eq!(at["events"].as_array().unwrap().len(), 7);
        let first_auditor = if sequence >= 3 {
            json!(a1)
        } else {
            Value::Null
        };
        let final_auditor = if sequence >= 4 {
            json!(a2)
        } else {
            Value::Null
        };
        assert_eq!(at["state"]["first_auditor"], first_auditor, "{sequence}");
        assert_eq!(at["state"]["final_auditor"], final_auditor, "{sequence}");
    }
    app.fails(
        "/admin/api/orders/history",
        s1,
        json!({"orderId": order_a, "atSequence": 0}),
        10004,
    )
    .await;

    // The ledger: the manual repayment is cash received against the receivable;
    // every entry balances and so does the trial balance.
    let journal = app
        .ok("/admin/api/ledger/journal", s1, json!({"orderId": order_a}))
        .await;
    let entries = journal["entries"].as_array().unwrap();
    assert_eq!(journal["total"], entries.len());
    let receivable = format!("loan_receivable:{order_a}");
    let repayment = entries
        .iter()
        .find(|e| e["description"] == "repayment")
        .expect("a repayment entry");
    assert_eq!(repayment["code"], "repayment");
    let codes: Vec<&str> = entries
        .iter()
        .map(|e| e["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        ["payout_sent", "payout_confirmed", "repayment"],
        "{journal}"
    );
    let postings: Vec<(String, String)> = repayment["postings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["account"].as_str().unwrap().to_string(),
                p["amount"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        postings,
        [
            ("lender_cash".to_string(), "20000.00".to_string()),
            (receivable.clone(), "-20000.00".to_string()),
        ]
    );
    for entry in entries {
        let sum: rust_decimal::Decimal = entry["postings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                p["amount"]
                    .as_str()
                    .unwrap()
                    .parse::<rust_decimal::Decimal>()
                    .unwrap()
            })
            .sum();
        assert!(sum.is_zero(), "{entry}");
        assert_eq!(entry["orderId"], order_a.as_str());
    }
    let by_account = app
        .ok(
            "/admin/api/ledger/journal",
            s1,
            json!({"account": "lender_cash", "pageSize": 1}),
        )
        .await;
    assert_eq!(by_account["entries"].as_array().unwrap().len(), 1);
    assert!(by_account["total"].as_i64().unwrap() >= 2);
    assert!(by_account["entries"][0]["postings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["account"] == "lender_cash"));
    app.fails(
        "/admin/api/ledger/journal",
        s1,
        json!({"orderId": order_a, "account": "lender_cash"}),
        10004,
    )
    .await;
    let trial = app
        .ok("/admin/api/ledger/trialBalance", s2, json!({}))
        .await;
    assert_eq!(trial["sum"], "0.00", "{trial}");
    assert_eq!(trial["balanced"], true);
    let balance = |account: &str| {
        trial["accounts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["account"] == account)
            .map(|a| a["balance"].clone())
    };
    assert_eq!(balance(&receivable), Some(json!("81200.00")));
    assert_eq!(balance("lender_cash"), Some(json!("-80000.00")));
    assert_eq!(balance("interest_income"), Some(json!("-1200.00")));
}

// ---------------------------------------------------------------------------------
// Accounts and tokens.

async fn accounts(app: &TestApp) {
    let database = &app.state.database;
    assert!(matches!(
        create_auditor(database, "x", "long enough").await,
        Err(CreateAuditorError::InvalidUsername(_))
    ));
    assert!(matches!(
        create_auditor(database, "has space", "long enough").await,
        Err(CreateAuditorError::InvalidUsername(_))
    ));
    assert!(matches!(
        create_auditor(database, "maria", "short").await,
        Err(CreateAuditorError::PasswordTooShort)
    ));
    let id = create_auditor(database, "Maria.Reyes", "long enough")
        .await
        .unwrap();
    // Names are case-insensitive: the same name twice is refused.
    assert!(matches!(
        create_auditor(database, "maria.reyes", "another one").await,
        Err(CreateAuditorError::DuplicateUsername(name)) if name == "maria.reyes"
    ));

    // Login: a wrong password and an unknown name look the same.
    for body in [
        json!({"username": "maria.reyes", "password": "wrong password"}),
        json!({"username": "nobody", "password": "long enough"}),
    ] {
        let wrong = app.fails("/admin/api/login", None, body, 10002).await;
        assert_eq!(wrong["msg"], "wrong username, password or code");
    }
    app.fails(
        "/admin/api/login",
        None,
        json!({"username": "maria"}),
        10004,
    )
    .await;
    let login = app
        .ok(
            "/admin/api/login",
            None,
            json!({"username": "MARIA.REYES", "password": "long enough"}),
        )
        .await;
    assert_eq!(login["auditorId"], json!(id));
    assert_eq!(login["username"], "maria.reyes");
    let token = login["token"].as_str().unwrap().to_string();
    assert_eq!(token.len(), 64);
    let t = Some(token.as_str());

    // Separate token kinds, both ways; garbage and no token.
    let borrower = app
        .ok(
            "/jackey/user/register",
            None,
            app.with_register_code(json!({"mobile": "09171112222", "password": "secret-pass", "telemarketingCode": "WELCOME"})).await,
        )
        .await["token"]
        .as_str()
        .unwrap()
        .to_string();
    for path in [
        "/admin/api/orders/queue",
        "/admin/api/ledger/trialBalance",
        "/admin/api/logout",
    ] {
        app.fails(path, Some(&borrower), json!({}), 20001).await;
        app.fails(path, Some("garbage"), json!({}), 20001).await;
        app.fails(path, None, json!({}), 401).await;
    }
    app.fails("/jackey/user/info", t, json!({}), 20001).await;
    let empty = app.ok("/admin/api/orders/queue", t, json!({})).await;
    assert_eq!(empty["total"], 0);
    let trial = app.ok("/admin/api/ledger/trialBalance", t, json!({})).await;
    assert_eq!(trial["sum"], "0.00");

    // Logout revokes the token.
    app.ok("/admin/api/logout", t, json!({})).await;
    app.fails("/admin/api/orders/queue", t, json!({}), 20001)
        .await;
}

// ---------------------------------------------------------------------------------
// P2, P3, P11: no back-office call can set a PIN, touch a bank account or charge.

async fn no_forbidden_routes(app: &TestApp) {
    let (_, token) = app.auditor("auditor-three").await;
    let (borrower, user_id, order_id) = app.applicant("09171113333", "Carla Diaz").await;
    let before_info = app
        .ok("/jackey/user/info", Some(&borrower), json!({}))
        .await;
    let before_order = app
        .ok(
            "/jackey/loan/orderInfo",
            Some(&borrower),
            json!({"loanOrderId": order_id}),
        )
        .await;
    let before_events = app.event_count().await;
    let body = json!({
        "userId": user_id, "orderId": order_id, "pin": "111111", "newPin": "111111",
        "bankName": "Metrobank", "cardNo": "009999999999", "amount": "500",
        "amt": "500", "fee": "500", "kind": "verification", "reason": "x",
    });
    for path in [
        "/admin/api/users/setPin",
        "/admin/api/users/resetPin",
        "/admin/api/users/withdrawPin",
        "/admin/api/users/bindBank",
        "/admin/api/users/updateBank",
        "/admin/api/users/bank/binding",
        "/admin/api/users/unlock",
        "/admin/api/orders/addFee",
        "/admin/api/orders/charge",
        "/admin/api/orders/addCharge",
        "/admin/api/orders/unfreeze",
        "/admin/api/fees/create",
    ] {
        let (status, _) = raw_post(app, path, &token, body.clone()).await;
        assert_eq!(status, 404, "{path} must not exist");
    }
    assert_eq!(app.event_count().await, before_events, "nothing recorded");
    let after_info = app
        .ok("/jackey/user/info", Some(&borrower), json!({}))
        .await;
    assert_eq!(after_info, before_info);
    assert_eq!(after_info["cardNo"], "********7890");
    assert_eq!(after_info["hasWithdrawPin"], true);
    let after_order = app
        .ok(
            "/jackey/loan/orderInfo",
            Some(&borrower),
            json!({"loanOrderId": order_id}),
        )
        .await;
    assert_eq!(after_order, before_order);
}

// ---------------------------------------------------------------------------------
// Login lockout: per username and per client IP (code 5), as borrower login has.

on_both_stores!(
    login_lockout,
    auditor_login_is_limited_per_username_and_per_ip_on_sqlite,
    auditor_login_is_limited_per_username_and_per_ip_on_postgres
);

on_both_stores!(
    parallel_guesses,
    parallel_wrong_auditor_logins_check_five_passwords_at_most_on_sqlite,
    parallel_wrong_auditor_logins_check_five_passwords_at_most_on_postgres
);

/// Counts the passwords the api checks.
struct CountingHasher {
    inner: std::sync::Arc<dyn aggregates::services::SecretHasher>,
    checks: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

#[async_trait::async_trait]
impl aggregates::services::SecretHasher for CountingHasher {
    async fn hash(&self, secret: &str) -> String {
        self.inner.hash(secret).await
    }
    async fn verify(&self, secret: &str, hash: &str) -> bool {
        self.checks
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.inner.verify(secret, hash).await
    }
}

async fn parallel_guesses(app: TestApp) {
    let checks = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut user_services = app.state.user_services.clone();
    user_services.hasher = std::sync::Arc::new(CountingHasher {
        inner: user_services.hasher.clone(),
        checks: checks.clone(),
    });
    let state = api::AppState::from(api::runtime::state::Shared {
        rate_limits: std::sync::Arc::new(api::http::middleware::ops::RateLimits::new(
            axum_client_ip::ClientIpSource::RightmostXForwardedFor,
        )),
        user_services,
        ..app.state.shared()
    });
    let app = app.with_state(state);
    let (_, _) = app.auditor("race-target").await; // logs in once
    checks.store(0, std::sync::atomic::Ordering::SeqCst);
    // Ten wrong passwords at once, each from its own address: the attempt is taken
    // before the password is checked, so only five are checked (the fifth locks).
    let app_ref = &app;
    let answers = crate::helpers::futures_join(10, |n| async move {
        let body = json!({"username": "race-target", "password": format!("guess {n}")});
        app_ref
            .post_from(&format!("198.51.100.{}", 100 + n), "/admin/api/login", body)
            .await
    })
    .await;
    let codes: Vec<u64> = answers
        .iter()
        .map(|a| a["code"].as_u64().unwrap())
        .collect();
    assert_eq!(
        checks.load(std::sync::atomic::Ordering::SeqCst),
        5,
        "{codes:?}"
    );
    assert_eq!(
        codes.iter().filter(|c| **c == 10002).count(),
        4,
        "{codes:?}"
    );
    assert_eq!(codes.iter().filter(|c| **c == 5).count(), 6, "{codes:?}");
    // Locked now: the right password is refused without being checked.
    let right = json!({"username": "race-target", "password": "correct horse"});
    let locked = app
        .post_from("198.51.100.99", "/admin/api/login", right)
        .await;
    assert_eq!(locked["code"], 5);
    assert_eq!(checks.load(std::sync::atomic::Ordering::SeqCst), 5);
}

async fn login_lockout(app: TestApp) {
    // Behind a proxy, so each attempt can come from its own address: only the
    // username's count can refuse these.
    let state = api::AppState::from(api::runtime::state::Shared {
        rate_limits: std::sync::Arc::new(api::http::middleware::ops::RateLimits::new(
            axum_client_ip::ClientIpSource::RightmostXForwardedFor,
        )),
        ..app.state.shared()
    });
    let app = app.with_state(state);
    let (_, _) = app.auditor("lock-target").await;
    let (_, _) = app.auditor("bystander").await;
    let login =
        |username: &str, password: &str| json!({"username": username, "password": password});
    let code = |answer: Value| answer["code"].as_u64().unwrap();
    let mut address = 0;
    let mut attempt = |username: &str, password: &str| {
        address += 1;
        let (ip, body) = (format!("198.51.100.{address}"), login(username, password));
        let app = app.clone();
        async move { app.post_from(&ip, "/admin/api/login", body).await }
    };

    // Four wrong passwords answer 10002; the fifth locks the username (5); then even
    // the right password is refused, from any address.
    for _ in 0..4 {
        assert_eq!(code(attempt("lock-target", "wrong password").await), 10002);
    }
    let locked = attempt("Lock-Target", "wrong password").await;
    assert_eq!(code(locked.clone()), 5, "{locked}");
    assert!(
        locked["msg"].as_str().unwrap().contains("15 minutes"),
        "{locked}"
    );
    assert_eq!(code(attempt("lock-target", "correct horse").await), 5);
    // Other usernames are not affected.
    assert_eq!(code(attempt("bystander", "wrong password").await), 10002);
    assert_eq!(code(attempt("bystander", "correct horse").await), 0);
    // Unknown names lock the same way, so the lock tells nobody which names exist.
    for _ in 0..4 {
        assert_eq!(code(attempt("nobody-here", "whatever-1").await), 10002);
    }
    assert_eq!(code(attempt("nobody-here", "whatever-1").await), 5);

    // Once the lock has passed, the right password works and clears the count.
    let expire = "update auditor_login_failure set locked_until = '2000-01-01T00:00:00.000000Z'";
    let expired = match &app.state.database {
        projections::store::Database::Sqlite { pool, .. } => sqlx::query(expire)
            .execute(pool)
            .await
            .map(|r| r.rows_affected()),
        projections::store::Database::Postgres(pool) => sqlx::query(expire)
            .execute(pool)
            .await
            .map(|r| r.rows_affected()),
    };
    assert_eq!(expired.unwrap(), 2, "the two locked names");
    assert_eq!(code(attempt("lock-target", "correct horse").await), 0);
    for _ in 0..4 {
        assert_eq!(code(attempt("lock-target", "wrong password").await), 10002);
    }
    assert_eq!(code(attempt("lock-target", "correct horse").await), 0);

    // Per client address: ten at once, then one every 3 seconds, whatever the names.
    let ip = "203.0.113.7";
    for n in 0..10 {
        let answer = app
            .post_from(ip, "/admin/api/login", login(&format!("guess-{n}"), "x"))
            .await;
        assert_eq!(code(answer), 10002);
    }
    let limited = app
        .post_from(ip, "/admin/api/login", login("bystander", "correct horse"))
        .await;
    assert_eq!(code(limited), 5);
    let elsewhere = app
        .post_from(
            "203.0.113.8",
            "/admin/api/login",
            login("bystander", "correct horse"),
        )
        .await;
    assert_eq!(code(elsewhere), 0);
}

// ---------------------------------------------------------------------------------
// Order numbers (12.5) and the work queue: open orders only, and search.

on_both_stores!(
    queue_search,
    the_queue_finds_orders_by_name_mobile_or_number_and_leaves_out_closed_ones_on_sqlite,
    the_queue_finds_orders_by_name_mobile_or_number_and_leaves_out_closed_ones_on_postgres
);

async fn queue_search(app: TestApp) {
    let (_, officer) = app.auditor("queue-officer").await;
    let o = Some(officer.as_str());
    let (token_a, _, order_a) = app.applicant("09171110101", "Ana Santos").await;
    let (token_b, _, order_b) = app.applicant("09171110102", "Ben Cruz").await;
    // Ben cancels: closed.
    app.ok(
        "/jackey/loan/cancel",
        Some(&token_b),
        json!({"loanOrderId": order_b}),
    )
    .await;
    app.wait_status(&token_b, &order_b, 11).await;
    app.quiesce().await;

    // Every order has a short human number, the same on every screen.
    let detail = app
        .ok(
            "/jackey/loan/orderInfo",
            Some(&token_a),
            json!({"loanOrderId": order_a}),
        )
        .await;
    let number = detail["orderNo"].as_str().unwrap().to_string();
    let month = chrono::Utc::now().format("%y%m").to_string();
    assert!(number.starts_with(&format!("HL-{month}-")), "{number}");
    assert!(number.len() >= "HL-2611-000001".len(), "{number}");
    let list = app
        .ok("/jackey/loan/getUserOrderList", Some(&token_a), json!({}))
        .await;
    assert_eq!(list[0]["orderNo"], number.as_str());

    let ids = |queue: &Value| -> Vec<String> {
        queue["orders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["orderId"].as_str().unwrap().to_string())
            .collect()
    };
    let all = app.ok("/admin/api/orders/queue", o, json!({})).await;
    assert_eq!(ids(&all), [order_a.clone(), order_b.clone()]);
    let open = app
        .ok("/admin/api/orders/queue", o, json!({"open": true}))
        .await;
    assert_eq!(
        (ids(&open), open["total"].clone()),
        (vec![order_a.clone()], json!(1))
    );
    assert_eq!(open["orders"][0]["orderNo"], number.as_str());

    for search in [
        number.as_str(),
        &number.to_lowercase(),
        "ana sant",
        "09171110101",
        &order_a[24..],
    ] {
        let found = app
            .ok("/admin/api/orders/queue", o, json!({"search": search}))
            .await;
        assert_eq!(ids(&found), vec![order_a.clone()], "search {search:?}");
    }
    let ben = app
        .ok(
            "/admin/api/orders/queue",
            o,
            json!({"search": "Cruz", "open": true}),
        )
        .await;
    assert_eq!(ben["total"], 0);
    // LIKE wildcards are taken literally; odd input is no server error.
    for odd in ["%", "_", "\\", "' or 1=1 --"] {
        let found = app
            .ok("/admin/api/orders/queue", o, json!({"search": odd}))
            .await;
        assert_eq!(found["total"], 0, "search {odd:?}");
    }
    app.fails(
        "/admin/api/orders/queue",
        o,
        json!({"search": "x".repeat(101)}),
        10004,
    )
    .await;
}

// ---------------------------------------------------------------------------------
// Ledger accounts by name (issue 15): the console shows "Borrower wallet · Ana Santos"
// and "Loan receivable · HL-…", not UUIDs; the account itself stays on the wire.

on_both_stores!(
    ledger_names,
    ledger_accounts_name_their_borrower_and_order_on_sqlite,
    ledger_accounts_name_their_borrower_and_order_on_postgres
);

async fn ledger_names(app: TestApp) {
    let (_, officer) = app.auditor("ledger-officer").await;
    let o = Some(officer.as_str());
    let (token, user_id, order_id) = app.applicant("09171110201", "Ana Santos").await;
    let t = Some(token.as_str());
    app.approve(&token, &order_id).await;
    app.ok(
        "/jackey/user/withdraw",
        t,
        json!({"password": "246810", "withdrawAmount": "100000", "bankcard": "x"}),
    )
    .await;
    app.wait_status(&token, &order_id, 4).await;
    // A payment through the payment page: cash, the borrower's wallet, the receivable.
    app.paid_session(&user_id, &order_id, "pay-names-1", 1000)
        .await;
    app.quiesce().await;
    let number = app
        .ok(
            "/jackey/loan/orderInfo",
            t,
            json!({"loanOrderId": order_id}),
        )
        .await["orderNo"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(number.starts_with("HL-"), "{number}");

    let wallet = format!("borrower_wallet:{user_id}");
    let receivable = format!("loan_receivable:{order_id}");
    // (account, kind, orderNo, holder) as the console names them.
    let named = |item: &Value| {
        (
            item["account"].as_str().unwrap().to_string(),
            item["kind"].clone(),
            item["orderNo"].clone(),
            item["holder"].clone(),
        )
    };
    let trial = app.ok("/admin/api/ledger/trialBalance", o, json!({})).await;
    assert_eq!(trial["sum"], "0.00", "{trial}");
    let accounts: Vec<_> = trial["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(named)
        .collect();
    let find = |account: &str| {
        accounts
            .iter()
            .find(|a| a.0 == account)
            .cloned()
            .unwrap_or_else(|| panic!("no {account} in {trial}"))
    };
    assert_eq!(
        find(&wallet),
        (
            wallet.clone(),
            json!("borrower_wallet"),
            json!(number),
            json!("Ana Santos")
        )
    );
    assert_eq!(
        find(&receivable),
        (
            receivable.clone(),
            json!("loan_receivable"),
            json!(number),
            json!("Ana Santos")
        )
    );
    // The lender's own accounts name nobody.
    for account in ["lender_cash", "payout_clearing", "interest_income"] {
        assert_eq!(
            find(account),
            (
                account.to_string(),
                json!(account),
                Value::Null,
                Value::Null
            )
        );
    }

    // The journal names the same accounts, and each entry's order by its number.
    let journal = app
        .ok("/admin/api/ledger/journal", o, json!({"orderId": order_id}))
        .await;
    let entries = journal["entries"].as_array().unwrap();
    assert!(!entries.is_empty());
    for entry in entries {
        assert_eq!(entry["orderNo"], number.as_str(), "{entry}");
    }
    // The filter takes the number an officer reads (any case), as well as the id;
    // a number of no order lists nothing, junk is no order.
    for typed in [number.clone(), number.to_lowercase(), format!(" {number} ")] {
        let by_number = app
            .ok("/admin/api/ledger/journal", o, json!({"orderId": typed}))
            .await;
        assert_eq!(by_number, journal, "{typed}");
    }
    let unknown = app
        .ok(
            "/admin/api/ledger/journal",
            o,
            json!({"orderId": "HL-0101-999999"}),
        )
        .await;
    assert_eq!(unknown["total"], 0, "{unknown}");
    app.fails(
        "/admin/api/ledger/journal",
        o,
        json!({"orderId": "not-an-order"}),
        40007,
    )
    .await;
    let postings: Vec<_> = entries
        .iter()
        .flat_map(|e| e["postings"].as_array().unwrap().iter().map(named))
        .collect();
    assert!(
        postings.contains(&(
            wallet.clone(),
            json!("borrower_wallet"),
            json!(number),
            json!("Ana Santos")
        )),
        "{journal}"
    );
    assert!(
        postings.contains(&(
            receivable.clone(),
            json!("loan_receivable"),
            json!(number),
            json!("Ana Santos")
        )),
        "{journal}"
    );
    assert!(
        postings.contains(&(
            "lender_cash".to_string(),
            json!("lender_cash"),
            Value::Null,
            Value::Null
        )),
        "{journal}"
    );
    // Filtering by the account still takes the journal's name of it.
    let by_wallet = app
        .ok("/admin/api/ledger/journal", o, json!({"account": wallet}))
        .await;
    assert!(by_wallet["total"].as_i64().unwrap() >= 2, "{by_wallet}");
}

// ---------------------------------------------------------------------------------
// The two disclosures of a paid-out order (P5, P10): the console shows what the
// borrower signed at application and, apart from it, the same terms on the amount
// paid out; the signed one is never replaced by the recomputed one.

on_both_stores!(
    signed_and_paid_out_disclosures,
    console_keeps_the_signed_disclosure_beside_the_paid_out_one_on_sqlite,
    console_keeps_the_signed_disclosure_beside_the_paid_out_one_on_postgres
);

async fn signed_and_paid_out_disclosures(app: TestApp) {
    let (_, officer) = app.auditor("disclosure-officer").await;
    let o = Some(officer.as_str());
    let (token, _, order_id) = app.applicant("09171110301", "Ana Santos").await;
    app.quiesce().await;
    let before = app
        .ok("/admin/api/orders/detail", o, json!({"orderId": order_id}))
        .await;
    assert_eq!(before["disclosure"]["principal"], "100000.00", "{before}");
    assert_eq!(before["loanDisclosure"], Value::Null, "{before}");

    // A part of the approved amount is withdrawn (single drawdown, the rest released).
    app.approve(&token, &order_id).await;
    app.ok(
        "/jackey/user/withdraw",
        Some(token.as_str()),
        json!({"password": "246810", "withdrawAmount": "60000", "bankcard": "x"}),
    )
    .await;
    app.wait_status(&token, &order_id, 4).await;
    app.quiesce().await;
    let after = app
        .ok("/admin/api/orders/detail", o, json!({"orderId": order_id}))
        .await;
    assert_eq!(after["disclosure"], before["disclosure"], "{after}");
    assert_eq!(after["loanDisclosure"]["principal"], "60000.00", "{after}");
    assert_ne!(
        after["loanDisclosure"]["totalRepayable"], after["disclosure"]["totalRepayable"],
        "{after}"
    );
    assert_eq!(
        after["loanDisclosure"]["dailyRatePct"], after["disclosure"]["dailyRatePct"],
        "{after}"
    );
}

// ---------------------------------------------------------------------------------
// An operator disables an officer's account (`api disable-auditor`) and enables it again.

on_both_stores!(
    disable_and_enable,
    a_disabled_auditor_cannot_log_in_and_its_tokens_stop_at_once_on_sqlite,
    a_disabled_auditor_cannot_log_in_and_its_tokens_stop_at_once_on_postgres
);

async fn disable_and_enable(app: TestApp) {
    use api::accounts::auditors::{set_disabled, SetDisabledError};
    use api::http::auth::{issue, TokenKind};
    let database = &app.state.database;
    let (leaver, first) = app.auditor("leaver").await;
    let (_, colleague) = app.auditor("colleague").await;
    let second = app.auditor_login("leaver").await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let queue = "/admin/api/orders/queue";
    app.ok(queue, Some(&first), json!({})).await;

    // Refused without a reason, or for a name nobody has; nothing changes.
    for blank in ["", "   "] {
        assert!(matches!(
            set_disabled(database, "leaver", Some(blank), app.state.now()).await,
            Err(SetDisabledError::Reason)
        ));
    }
    assert!(matches!(
        set_disabled(database, "nobody", Some("left"), app.state.now()).await,
        Err(SetDisabledError::UnknownUsername(name)) if name == "nobody"
    ));
    app.ok(queue, Some(&first), json!({})).await;

    // Disabled: every token of the account stops, its right password is refused as an
    // unknown name's would be, and a colleague works on.
    assert!(set_disabled(
        database,
        " LEAVER ",
        Some("left the company"),
        app.state.now()
    )
    .await
    .unwrap());
    for token in [&first, &second] {
        app.fails(queue, Some(token), json!({}), 20001).await;
    }
    let refused = app
        .fails(
            "/admin/api/login",
            None,
            json!({"username": "leaver", "password": "correct horse"}),
            10002,
        )
        .await;
    assert_eq!(refused["msg"], "wrong username, password or code");
    app.ok(queue, Some(&colleague), json!({})).await;
    // A second disable changes nothing.
    assert!(
        !set_disabled(database, "leaver", Some("again"), app.state.now())
            .await
            .unwrap()
    );

    // A login that had found the account just before the disable issues its token
    // after it: the session check still refuses it.
    let raced = issue(&app.state, leaver, TokenKind::Auditor).await.unwrap();
    app.fails(queue, Some(&raced), json!({}), 20001).await;

    // Enabled again: a new login works; no token from before comes back.
    assert!(set_disabled(database, "leaver", None, app.state.now())
        .await
        .unwrap());
    for token in [&first, &second, &raced] {
        app.fails(queue, Some(token), json!({}), 20001).await;
    }
    let fresh = app.auditor_login("leaver").await["token"]
        .as_str()
        .unwrap()
        .to_string();
    app.ok(queue, Some(&fresh), json!({})).await;
    // Enabling an enabled account signs nobody out.
    assert!(!set_disabled(database, "leaver", None, app.state.now())
        .await
        .unwrap());
    app.ok(queue, Some(&fresh), json!({})).await;
    app.ok(queue, Some(&colleague), json!({})).await;
}

// ---------------------------------------------------------------------------------
// An auditor's session lasts AUDITOR_TOKEN_TTL_HOURS (a working day), a borrower's
// TOKEN_TTL_HOURS.

on_both_stores!(
    at_a_fixed_clock: session_lifetimes,
    an_auditor_session_ends_after_a_working_day_and_a_borrowers_lasts_on_sqlite,
    an_auditor_session_ends_after_a_working_day_and_a_borrowers_lasts_on_postgres
);

async fn session_lifetimes(
    clock: std::sync::Arc<aggregates::services::doubles::FixedClock>,
    app: TestApp,
) {
    use aggregates::services::Clock;
    use api::http::auth::{issue, TokenKind};
    let (auditor_id, _) = app.auditor("day-shift").await;
    let borrower = app.register("09171114444").await;
    let user_id = app.user_id_of(&borrower).await;
    // The shipped defaults: 30 days and 12 hours.
    let mut env = (*app.state.env).clone();
    env.token_ttl_hours = 720;
    env.auditor_token_ttl_hours = 12;
    let shipped = api::AppState::from(api::runtime::state::Shared {
        env: std::sync::Arc::new(env),
        ..app.state.shared()
    });
    let officer = issue(&shipped, auditor_id, TokenKind::Auditor)
        .await
        .unwrap();
    let borrower = issue(&shipped, user_id, TokenKind::Borrower).await.unwrap();
    let start = clock.now();
    clock.set(start + chrono::Duration::hours(11));
    app.ok("/admin/api/orders/queue", Some(&officer), json!({}))
        .await;
    clock.set(start + chrono::Duration::hours(12));
    app.fails("/admin/api/orders/queue", Some(&officer), json!({}), 7)
        .await;
    app.ok("/jackey/user/info", Some(&borrower), json!({}))
        .await;
    clock.set(start + chrono::Duration::days(30));
    app.fails("/jackey/user/info", Some(&borrower), json!({}), 7)
        .await;
}
