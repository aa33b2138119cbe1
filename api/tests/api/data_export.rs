//! Personal data (PRODUCT.md 12.6): registration records the privacy notice version the
//! borrower accepted (only the current one), `/jackey/user/info` shows it; the
//! borrower's `/jackey/user/dataExport` holds every personal field they entered and
//! every order with its schedule, payments and timeline, and no secret; nobody else
//! gets it through that call; an auditor exports any borrower's data and each export
//! is recorded with who, whose and when; an unknown user answers 40007.

use serde_json::{json, Value};
use uuid::Uuid;

use crate::helpers::{on_both_stores, profile, questionnaire, TestApp, PRIVACY_NOTICE_VERSION};

on_both_stores!(
    consent_at_registration,
    registration_records_the_privacy_notice_accepted_on_sqlite,
    registration_records_the_privacy_notice_accepted_on_postgres
);

on_both_stores!(
    export_journey,
    the_export_holds_every_personal_field_and_every_order_and_auditor_exports_are_recorded_on_sqlite,
    the_export_holds_every_personal_field_and_every_order_and_auditor_exports_are_recorded_on_postgres
);

/// The version shown is the configured one; another is refused (10004, the phone's
/// code unspent), as is a language the notice is not given in; the current one is
/// recorded with the registration time and the language it was read in.
async fn consent_at_registration(app: TestApp) {
    let company = app
        .ok("/jackey/loan/getAllCompanyConfigs", None, json!({}))
        .await;
    assert_eq!(company["privacyNoticeVersion"], PRIVACY_NOTICE_VERSION);
    // Plain text in English (PRODUCT.md 10), and the same notice in every language of
    // the app beside it; every one names the law it is given under.
    assert!(
        company["privacy-notice"]
            .as_str()
            .is_some_and(|text| text.contains("Data Privacy Act")),
        "{company}"
    );
    let translations = &company["translations"]["privacy-notice"];
    assert_eq!(translations["en"], company["privacy-notice"], "{company}");
    for language in ["zh", "fil"] {
        assert!(
            translations[language]
                .as_str()
                .is_some_and(|text| text.contains("Data Privacy Act")),
            "{language}: {company}"
        );
    }

    let mobile = "09176660011";
    let code = app.register_code(mobile).await;
    let body = |version: Option<&str>| {
        let mut body = json!({"mobile": mobile, "password": "secret-pass", "smsCode": code, "telemarketingCode": "WELCOME", "privacyNoticeLanguage": "fil"});
        if let Some(version) = version {
            body["privacyNoticeVersion"] = json!(version);
        }
        body
    };
    for refused in [None, Some("2025-01"), Some("")] {
        let answer = app
            .fails("/jackey/user/register", None, body(refused), 10004)
            .await;
        let msg = answer["msg"].as_str().unwrap();
        assert!(
            msg.contains("privacyNoticeVersion") && msg.contains(PRIVACY_NOTICE_VERSION),
            "{answer}"
        );
    }
    for language in [json!("de"), json!(""), json!("x".repeat(5_000)), json!(7)] {
        let mut refused = body(Some(PRIVACY_NOTICE_VERSION));
        refused["privacyNoticeLanguage"] = language;
        let answer = app
            .fails("/jackey/user/register", None, refused, 10004)
            .await;
        assert!(
            answer["msg"].as_str().unwrap().contains("privacyNotice"),
            "{answer}"
        );
    }
    // The refusals did not spend the code: it registers with the current version.
    let token = app
        .ok(
            "/jackey/user/register",
            None,
            body(Some(PRIVACY_NOTICE_VERSION)),
        )
        .await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let info = app.ok("/jackey/user/info", Some(&token), json!({})).await;
    let consent = &info["privacyNotice"];
    assert_eq!(consent["version"], PRIVACY_NOTICE_VERSION, "{info}");
    assert_eq!(consent["language"], "fil", "{info}");
    let accepted_at = consent["acceptedAt"].as_str().unwrap();
    assert!(
        chrono::DateTime::parse_from_rfc3339(accepted_at).is_ok(),
        "{accepted_at}"
    );
    // The registration event carries it.
    let user_id = info["userId"].as_str().unwrap();
    let payload = app
        .scalar(
            "select cast(payload as text) from events where aggregate_id = $1 and sequence = 1",
            user_id,
        )
        .await
        .unwrap();
    let payload: Value = serde_json::from_str(&payload).unwrap();
    assert_eq!(
        payload["UserRegistered"]["privacy_notice_version"], PRIVACY_NOTICE_VERSION,
        "{payload}"
    );
    assert_eq!(
        payload["UserRegistered"]["privacy_notice_language"], "fil",
        "{payload}"
    );
}

/// Every string leaf of `value`.
fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(text) => out.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|item| strings(item, out)),
        Value::Object(map) => map.values().for_each(|item| strings(item, out)),
        _ => {}
    }
}

async fn export_journey(app: TestApp) {
    let mobile = "09176660001";
    // Registered, profile, ID photos, questionnaire, bank account, signature, PIN,
    // applied for 100,000 over 6 days: all over HTTP.
    let (token, user_id, order_id) = app.applicant(mobile, "Ana Export").await;
    let t = Some(token.as_str());
    // The only code texted so far is the registration's.
    let register_code = app.last_sms_code(mobile).await;
    let facebook = json!({"facebook": "https://facebook.com/ana.export"});
    app.ok("/jackey/user/update", t, facebook).await;
    let contacts = json!({"contacts": [
        {"name": "Ben Export", "relation": "brother", "mobile": "09178880001"},
        {"name": "Cora Export", "relation": "mother", "mobile": "09178880002"},
    ]});
    app.ok("/jackey/user/updateEmergency", t, contacts.clone())
        .await;

    // Approved, 10,000 paid out, repaid with a payment page: closed (10).
    app.verify_identity(&user_id).await;
    app.approve(&token, &order_id).await;
    let withdraw = json!({"password": "246810", "withdrawAmount": "10000", "bankcard": "x", "loanOrderId": order_id});
    app.ok("/jackey/user/withdraw", t, withdraw).await;
    app.wait_status(&token, &order_id, 4).await;
    let page = app
        .ok("/jackey/loan/recharge", t, json!({"amt": "10000"}))
        .await;
    app.press(page.as_str().unwrap(), "outcome=paid").await;
    app.wait_status(&token, &order_id, 10).await;
    app.quiesce().await;
    // A second order, cancelled before review (11).
    let terms = json!({"amt": "80000", "periodDays": 12, "appId": 1, "configId": 1});
    let second = app.ok("/jackey/loan/apply", t, terms).await["loanOrderId"]
        .as_str()
        .unwrap()
        .to_string();
    app.ok("/jackey/loan/cancel", t, json!({"loanOrderId": second}))
        .await;
    app.wait_status(&token, &second, 11).await;
    app.quiesce().await;

    let export = app.ok("/jackey/user/dataExport", t, json!({})).await;
    assert_eq!(export["formatVersion"], 1);
    let user = &export["user"];

    // Every personal field the borrower entered, as entered (nothing masked).
    assert_eq!(user["userId"], user_id.as_str());
    assert_eq!(user["mobile"], mobile);
    let entered = profile("Ana Export", mobile);
    for (field, value) in entered.as_object().unwrap() {
        assert_eq!(&user[field], value, "{field}: {user}");
    }
    assert_eq!(user["facebook"], "https://facebook.com/ana.export");
    assert_eq!(user["inviteCode"], "WELCOME");
    assert_eq!(user["channel"], "web");
    assert_eq!(user["privacyNotice"]["version"], PRIVACY_NOTICE_VERSION);
    // Registered without naming a language: the plain, English text.
    assert_eq!(user["privacyNotice"]["language"], "en");
    assert_eq!(
        user["bankAccount"],
        json!({"bankName": "BDO Unibank", "accountNo": "001234567890", "holderName": "Ana Export"})
    );
    assert_eq!(user["emergencyContacts"], contacts["contacts"]);
    let answers = questionnaire();
    for (field, value) in answers.as_object().unwrap() {
        assert_eq!(&user["questionnaire"][field], value, "{field}: {user}");
    }
    assert_eq!(user["identityStatus"], 2);
    assert_eq!(user["hasWithdrawPin"], true);
    // The ID photos and the signature by key and link, as `/user/info` knows them.
    let info = app.ok("/jackey/user/info", t, json!({})).await;
    for (ours, theirs) in [
        ("front", "frontImage"),
        ("back", "backImage"),
        ("handHold", "handHoldImage"),
    ] {
        let image = &user["idImages"][ours];
        assert_eq!(image["url"], info["idImages"][theirs], "{ours}");
        assert_eq!(
            image["url"].as_str().unwrap(),
            format!("/files/{}", image["key"].as_str().unwrap())
        );
        assert_eq!(image["sha256"].as_str().unwrap().len(), 64);
    }
    assert_eq!(user["signature"]["url"], info["signatureImg"]);

    // Every order, with its schedule, payments, receipts, money and timeline.
    let orders = export["orders"].as_array().unwrap();
    let listed = app.ok("/jackey/loan/getUserOrderList", t, json!({})).await;
    let mut exported_ids: Vec<&str> = orders
        .iter()
        .map(|o| o["orderId"].as_str().unwrap())
        .collect();
    let mut listed_ids: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["orderId"].as_str().unwrap())
        .collect();
    exported_ids.sort_unstable();
    listed_ids.sort_unstable();
    assert_eq!(exported_ids, listed_ids);
    assert_eq!(exported_ids.len(), 2);
    let first = &orders[0];
    assert_eq!(first["orderId"], order_id.as_str());
    assert!(first["orderNo"].as_str().unwrap().starts_with("HL-"));
    let order_info = app
        .ok(
            "/jackey/loan/orderInfo",
            t,
            json!({ "loanOrderId": order_id }),
        )
        .await;
    assert_eq!(first["detail"]["status"], 10);
    assert_eq!(first["detail"]["periodViews"], order_info["periodViews"]);
    assert_eq!(first["detail"]["periodViews"].as_array().unwrap().len(), 6);
    assert_eq!(first["detail"]["disclosure"], order_info["disclosure"]);
    let (types, _) = app.timeline(&token, &order_id).await;
    let exported_types: Vec<&str> = first["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(exported_types, types);
    assert!(first["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| matches!(e["by"].as_str(), Some("user" | "auditor" | "system"))));
    let sessions = first["paymentSessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1, "{first}");
    assert_eq!(
        (sessions[0]["amount"].clone(), sessions[0]["status"].clone()),
        (json!("10000.00"), json!("paid"))
    );
    let receipts = first["receipts"].as_array().unwrap();
    assert_eq!(receipts.len(), 1, "{first}");
    assert_eq!(receipts[0]["kind"], "payment");
    assert_eq!(receipts[0]["amount"], "10000.00");
    assert!(!first["transactions"].as_array().unwrap().is_empty());
    assert_eq!(orders[1]["orderId"], second.as_str());
    assert_eq!(orders[1]["detail"]["status"], 11);
    assert!(export["wallet"].is_object(), "{export}");

    // Sessions by their times; the text messages, codes masked; the history.
    assert!(!export["sessions"].as_array().unwrap().is_empty());
    let messages = export["smsMessages"].as_array().unwrap();
    assert!(
        messages.iter().any(|m| m["body"]
            .as_str()
            .unwrap()
            .contains("verification code is ••••••.")),
        "{messages:?}"
    );
    assert!(messages
        .iter()
        .all(|m| !m["body"].as_str().unwrap().contains(&register_code)));
    let history: Vec<&str> = export["accountHistory"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(history.first(), Some(&"UserRegistered"));
    assert!(history.contains(&"EmergencyContactsUpdated"), "{history:?}");
    // No secret: no password, PIN or its hash, no token.
    let mut texts = Vec::new();
    strings(&export, &mut texts);
    for text in &texts {
        for secret in ["secret-pass", "246810", "$argon2", &token] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
    }
    assert!(export.to_string().len() < 200_000, "bounded by one history");

    // The borrower's export was recorded as theirs.
    let actor = app
        .scalar(
            "select actor from data_export where user_id = $1 order by at",
            &user_id,
        )
        .await;
    assert_eq!(actor, Some(format!("user:{user_id}")));

    // Nobody else gets it: another borrower's call answers their own data only; no
    // token, an auditor's token or a garbage one is refused.
    let other_token = app.register("09176660002").await;
    let other = app
        .ok(
            "/jackey/user/dataExport",
            Some(&other_token),
            json!({"userId": user_id}),
        )
        .await;
    assert_ne!(other["user"]["userId"], user_id.as_str());
    assert_eq!(other["orders"], json!([]));
    let other_text = other.to_string();
    for mine in [mobile, order_id.as_str(), user_id.as_str(), "Ana Export"] {
        assert!(!other_text.contains(mine), "{mine} leaked");
    }
    app.fails("/jackey/user/dataExport", None, json!({}), 401)
        .await;
    let (auditor_id, auditor) = app.auditor("privacy-officer").await;
    let s = Some(auditor.as_str());
    app.fails("/jackey/user/dataExport", s, json!({}), 20001)
        .await;
    app.fails(
        "/admin/api/users/dataExport",
        t,
        json!({ "userId": user_id }),
        20001,
    )
    .await;

    // An auditor exports the same data, and the export is recorded with who and whom.
    let by_auditor = app
        .ok(
            "/admin/api/users/dataExport",
            s,
            json!({ "userId": user_id }),
        )
        .await;
    assert_eq!(by_auditor["user"], export["user"]);
    assert_eq!(by_auditor["orders"], export["orders"]);
    let recorded = app
        .scalar(
            "select user_id from data_export where actor = $1",
            &format!("auditor:{auditor_id}"),
        )
        .await;
    assert_eq!(recorded.as_deref(), Some(user_id.as_str()));
    let log = app
        .ok(
            "/admin/api/users/exportLog",
            s,
            json!({ "userId": user_id }),
        )
        .await;
    let log = log.as_array().unwrap();
    assert_eq!(log.len(), 2, "{log:?}");
    assert_eq!(log[0]["actor"], format!("user:{user_id}"));
    assert_eq!(log[1]["actor"], format!("auditor:{auditor_id}"));
    assert_eq!(log[1]["actorName"], "privacy-officer");
    assert!(log[1]["at"].as_str().is_some_and(|at| !at.is_empty()));
    // The borrower sees that it happened, by role.
    let again = app.ok("/jackey/user/dataExport", t, json!({})).await;
    assert_eq!(
        again["exports"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["by"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["user", "auditor"]
    );

    // An unknown user, or no user id at all, is not found, and nothing is recorded.
    let nobody = Uuid::now_v7().to_string();
    for id in [nobody.as_str(), "not-a-user"] {
        app.fails(
            "/admin/api/users/dataExport",
            s,
            json!({ "userId": id }),
            40007,
        )
        .await;
    }
    assert_eq!(
        app.scalar("select actor from data_export where user_id = $1", &nobody)
            .await,
        None
    );
    app.fails("/admin/api/users/dataExport", s, json!({}), 10004)
        .await;
    app.fails(
        "/admin/api/users/exportLog",
        s,
        json!({"userId": "not-a-user"}),
        40007,
    )
    .await;
}

/// A whole history per call: limited per client address like the SMS calls.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exports_are_rate_limited_per_client() {
    let app = TestApp::sqlite().await;
    let mut limited = 0;
    for _ in 0..15 {
        let answer = app
            .post_from("203.0.113.77", "/jackey/user/dataExport", json!({}))
            .await;
        if answer["code"] == 5 {
            limited += 1;
        }
    }
    assert!(limited >= 5, "the 11th call onwards is refused: {limited}");
    // The console's list of exports is not an export: not limited with them.
    let log = app
        .post_from(
            "203.0.113.77",
            "/admin/api/users/exportLog",
            json!({"userId": Uuid::now_v7().to_string()}),
        )
        .await;
    assert_eq!(log["code"], 401, "{log}");
}
