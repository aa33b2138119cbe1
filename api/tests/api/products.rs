//! Products as data (issue 55): a rate change proposed by one admin and approved by
//! another takes effect at its moment, a new application is priced at the new rate
//! while a signed loan keeps its own, the maker cannot approve, a cap is named, a
//! repeat or a race is recorded once, and a restart keeps what the console changed.

use std::sync::Arc;

use aggregates::services::doubles::{test_now, FixedClock};
use chrono::Duration;
use serde_json::{json, Value};

use crate::helpers::{env, futures_join, on_both_stores, TestApp};

/// The list's entry for product 1.
async fn product_1(app: &TestApp, token: &str) -> Value {
    let lines = app
        .ok("/admin/api/products/list", Some(token), json!({}))
        .await;
    lines
        .as_array()
        .unwrap()
        .iter()
        .find(|line| line["productId"] == json!(1))
        .cloned()
        .unwrap()
}

/// Product 1's terms in force with the 6-day rate set to `rate_pct`.
fn with_six_day_rate(line: &Value, rate_pct: &str) -> Value {
    let in_force = line["inForce"].as_u64().unwrap() as usize;
    let mut terms = line["versions"][in_force]["terms"].clone();
    let periods = terms["rateConfigs"].as_array_mut().unwrap();
    let six = periods
        .iter_mut()
        .find(|period| period["periodDays"] == json!(6))
        .unwrap();
    six["dailyRatePct"] = json!(rate_pct);
    terms
}

/// The 6-day rate a borrower is shown (`getPeriodConfig`).
async fn six_day_rate_shown(app: &TestApp) -> String {
    let config = app
        .ok("/jackey/loan/getPeriodConfig", None, json!({"appId": 1}))
        .await;
    config["rateConfigs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["periodDays"] == json!(6))
        .unwrap()["rate"]
        .as_str()
        .unwrap()
        .to_string()
}

/// An admin account `username` created by the admin of `token` in the console, its
/// link used and logged in: its token.
async fn made_by(app: &TestApp, token: &str, username: &str) -> String {
    let body = json!({"username": username, "roles": ["admin"]});
    let link = app.ok("/admin/api/staff/create", Some(token), body).await;
    let path = link["path"].as_str().unwrap();
    let setup = path.strip_prefix("/admin/setup#").unwrap();
    let set = json!({"token": setup, "password": "correct horse"});
    app.ok("/admin/api/staff/completeSetup", None, set).await;
    app.auditor_login(username).await["token"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn rate_change(clock: Arc<FixedClock>, app: TestApp) {
    let (_, maker) = app.auditor("admin.maker").await;
    let (_, checker) = app.auditor("admin.checker").await;
    // Given a borrower who applied under the configuration file's product (version 0),
    let (_, _, signed) = app.applicant("09170000551", "Ana Santos").await;
    assert_eq!(six_day_rate_shown(&app).await, "0.2");
    let line = product_1(&app, &maker).await;
    assert_eq!(line["inForce"], json!(0));

    // a proposal over the PH cap (0.2 %/day) is refused naming the cap,
    let over = app
        .fails(
            "/admin/api/products/propose",
            Some(&maker),
            json!({"productId": 1, "terms": with_six_day_rate(&line, "0.3"), "reason": "more"}),
            50007,
        )
        .await;
    assert!(
        over["msg"].as_str().unwrap().contains("daily rate"),
        "{over}"
    );
    // and a rate cut to take effect tomorrow is proposed, sent twice, recorded once;
    let tomorrow = test_now() + Duration::days(1);
    let body = json!({
        "productId": 1,
        "proposalId": "0193a0c4-0000-7000-8000-000000000055",
        "terms": with_six_day_rate(&line, "0.15"),
        "effectiveAt": tomorrow.to_rfc3339(),
        "reason": "lower the 6-day rate for the holidays",
    });
    for _ in 0..2 {
        app.ok("/admin/api/products/propose", Some(&maker), body.clone())
            .await;
    }
    let line = product_1(&app, &checker).await;
    assert_eq!(line["proposals"].as_array().unwrap().len(), 1);
    let proposal = &line["proposals"][0];
    assert_eq!(proposal["status"], json!("pending"));
    assert_eq!(proposal["maker"]["username"], json!("admin.maker"));
    let decide = json!({"productId": 1, "proposalId": proposal["proposalId"]});

    // When its maker approves it: 50006, and nothing changes.
    app.fails(
        "/admin/api/products/approve",
        Some(&maker),
        decide.clone(),
        50006,
    )
    .await;
    // When an admin the maker made approves it (the maker held its setup link, and so
    // did whoever that admin made in turn): 50006.
    let puppet = made_by(&app, &maker, "admin.puppet").await;
    let puppets_puppet = made_by(&app, &puppet, "admin.puppet2").await;
    for token in [&puppet, &puppets_puppet] {
        let refused = app
            .fails(
                "/admin/api/products/approve",
                Some(token),
                decide.clone(),
                50006,
            )
            .await;
        assert!(
            refused["msg"]
                .as_str()
                .unwrap()
                .contains("set up the approving account"),
            "{refused}"
        );
    }
    // When the second admin approves it twice at once: one version.
    let approvals = futures_join(2, |_| {
        app.post(
            "/admin/api/products/approve",
            Some(&checker),
            decide.clone(),
        )
    })
    .await;
    assert!(
        approvals.iter().all(|a| a["code"] == json!(0)),
        "{approvals:?}"
    );
    let line = product_1(&app, &checker).await;
    assert_eq!(line["versions"].as_array().unwrap().len(), 2);
    assert_eq!(
        line["proposals"][0]["checker"]["username"],
        json!("admin.checker")
    );
    assert_eq!(line["proposals"][0]["version"], json!(1));

    // Then not before its moment,
    assert_eq!(line["inForce"], json!(0));
    assert_eq!(six_day_rate_shown(&app).await, "0.2");
    // but from it, without a restart: a new application is priced at the new rate,
    clock.set(tomorrow);
    assert_eq!(six_day_rate_shown(&app).await, "0.15");
    let quote = app
        .ok(
            "/jackey/loan/quote",
            None,
            json!({"appId": 1, "amt": "100000", "periodDays": 6}),
        )
        .await;
    let interest: rust_decimal::Decimal = quote["interest"].as_str().unwrap().parse().unwrap();
    assert_eq!(interest, rust_decimal::Decimal::from(900), "{quote}");
    assert_eq!(quote["productVersion"], json!(1), "{quote}");
    // A borrower shown version 0's disclosure before the change cannot sign it under
    // version 1: asked to look again; with the version shown now, applied.
    let (ben, _) = app.qualified_borrower("09170000552").await;
    let terms = |version: u32| json!({"amt": "100000", "periodDays": 6, "appId": 1, "productVersion": version});
    let stale = app
        .fails("/jackey/loan/apply", Some(&ben), terms(0), 10004)
        .await;
    assert!(
        stale["msg"].as_str().unwrap().contains("terms changed"),
        "{stale}"
    );
    let later = app.ok("/jackey/loan/apply", Some(&ben), terms(1)).await["loanOrderId"]
        .as_str()
        .unwrap()
        .to_string();
    let later = app.state.orders.load(&later).await.unwrap();
    let terms = later.terms.unwrap();
    assert_eq!((terms.daily_rate, terms.product_version), (150, 1));
    // while the loan signed before keeps its version's terms.
    let signed = app.state.orders.load(&signed).await.unwrap();
    let terms = signed.terms.unwrap();
    assert_eq!((terms.daily_rate, terms.product_version), (200, 0));

    // A restart (a new process over the same store) keeps the console's version.
    let restarted = api::state_at(app.state.database.clone(), env(), clock.clone()).expect("state");
    restarted
        .catalogue
        .refresh(&restarted.products, &restarted.settings)
        .await
        .unwrap();
    let product = restarted.catalogue.product_at(1, tomorrow).unwrap();
    assert_eq!(
        (product.version, product.rate_configs[0].daily_rate),
        (1, 150)
    );
}

on_both_stores!(
    at_a_fixed_clock: rate_change,
    a_rate_change_takes_effect_at_its_moment_and_signed_loans_keep_theirs_on_sqlite,
    a_rate_change_takes_effect_at_its_moment_and_signed_loans_keep_theirs_on_postgres
);

async fn rejections(app: TestApp) {
    let (_, maker) = app.auditor("admin.maker").await;
    let (_, checker) = app.auditor("admin.checker").await;
    let line = product_1(&app, &maker).await;
    let proposed = app
        .ok(
            "/admin/api/products/propose",
            Some(&maker),
            json!({"productId": 1, "terms": with_six_day_rate(&line, "0.1"), "reason": "cut"}),
        )
        .await;
    let decide = |reason: Option<&str>| json!({"productId": 1, "proposalId": proposed["proposalId"], "reason": reason});
    // A rejection needs a reason; once rejected, it is never approved.
    app.fails(
        "/admin/api/products/reject",
        Some(&checker),
        decide(None),
        10004,
    )
    .await;
    app.ok(
        "/admin/api/products/reject",
        Some(&checker),
        decide(Some("the board has not agreed")),
    )
    .await;
    app.fails(
        "/admin/api/products/approve",
        Some(&checker),
        decide(None),
        10004,
    )
    .await;
    let line = product_1(&app, &maker).await;
    assert_eq!(line["proposals"][0]["status"], json!("rejected"));
    assert_eq!(
        line["proposals"][0]["rejection"],
        json!("the board has not agreed")
    );
    assert_eq!(line["inForce"], json!(0));
    // Bad input is refused naming the field, an unknown product is 40007, and a huge
    // offer (a million amounts) is refused before anything is priced.
    let mut terms = with_six_day_rate(&line, "0.1");
    terms["amountStep"] = json!("1");
    terms["amountMax"] = json!("1000000");
    let huge = app
        .fails(
            "/admin/api/products/propose",
            Some(&maker),
            json!({"productId": 1, "terms": terms, "reason": "many"}),
            10004,
        )
        .await;
    assert!(
        huge["msg"].as_str().unwrap().contains("amountStep"),
        "{huge}"
    );
    let bad = app
        .fails(
            "/admin/api/products/propose",
            Some(&maker),
            json!({"productId": 1, "terms": with_six_day_rate(&line, "0.0001"), "reason": "x"}),
            10004,
        )
        .await;
    assert!(
        bad["msg"].as_str().unwrap().contains("dailyRatePct"),
        "{bad}"
    );
    app.fails(
        "/admin/api/products/propose",
        Some(&maker),
        json!({"productId": 99, "terms": with_six_day_rate(&line, "0.1"), "reason": "x"}),
        40007,
    )
    .await;
    // A product renamed in the console is shown by its new name in every language (the
    // file's translations name the old one).
    let product = |list: &Value| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == json!(1))
            .cloned()
            .unwrap()
    };
    let listed = app.ok("/jackey/loan/appList", None, json!({})).await;
    assert_eq!(
        product(&listed)["nameTranslations"]["zh"],
        json!("现金贷款")
    );
    let mut renamed = with_six_day_rate(&line, "0.2");
    renamed["name"] = json!("Cash Loan Plus");
    let proposed = app
        .ok(
            "/admin/api/products/propose",
            Some(&maker),
            json!({"productId": 1, "terms": renamed, "reason": "a new name"}),
        )
        .await;
    app.ok(
        "/admin/api/products/approve",
        Some(&checker),
        json!({"productId": 1, "proposalId": proposed["proposalId"]}),
    )
    .await;
    let listed = app.ok("/jackey/loan/appList", None, json!({})).await;
    assert_eq!(product(&listed)["name"], json!("Cash Loan Plus"));
    assert_eq!(product(&listed)["nameTranslations"], json!({}));
}

on_both_stores!(
    rejections,
    a_rejected_proposal_is_never_approved_and_bad_terms_are_named_on_sqlite,
    a_rejected_proposal_is_never_approved_and_bad_terms_are_named_on_postgres
);

/// A registration of `mobile` with `code`: the envelope.
async fn register_with(app: &TestApp, mobile: &str, code: &str) -> Value {
    let body = json!({"mobile": mobile, "password": "secret-pass", "telemarketingCode": code,
        "installationSource": "web", "platform": "h5"});
    let body = app.with_register_code(body).await;
    app.post_from(
        &crate::helpers::address_of(mobile),
        "/jackey/user/register",
        body,
    )
    .await
}

/// The lender's settings as data: invite codes, a company text and a receiving account
/// changed by one admin and approved by another reach the borrower app at once; bad
/// settings are refused naming the field.
async fn lender_settings(app: TestApp) {
    let (_, maker) = app.auditor("admin.maker").await;
    let (_, checker) = app.auditor("admin.checker").await;
    let line = app
        .ok("/admin/api/settings/list", Some(&maker), json!({}))
        .await;
    assert_eq!(line["inForce"], json!(0));
    let mut terms = line["versions"][0]["terms"].clone();
    assert_eq!(terms["inviteCodes"], json!(["WELCOME"]));
    assert!(terms["texts"]["faq"]["zh"].is_string(), "{terms}");

    // Refused, naming the field: a code with a space, a text the console does not
    // change (the privacy notice's version is what consent records).
    let mut bad = terms.clone();
    bad["inviteCodes"] = json!(["AGENT 7"]);
    let refused = app
        .fails(
            "/admin/api/settings/propose",
            Some(&maker),
            json!({"terms": bad, "reason": "codes"}),
            10004,
        )
        .await;
    assert!(
        refused["msg"].as_str().unwrap().contains("inviteCodes"),
        "{refused}"
    );
    let mut notice = terms.clone();
    notice["texts"]["privacy-notice"] = json!({"en": "changed"});
    app.fails(
        "/admin/api/settings/propose",
        Some(&maker),
        json!({"terms": notice, "reason": "notice"}),
        10004,
    )
    .await;

    terms["inviteCodes"] = json!(["AGENT7"]);
    terms["texts"]["faq"]["en"] = json!("Repay any time, at no cost.");
    terms["receivingAccounts"] = json!([{"bankName": "BDO Unibank",
        "accountName": "Honest Lending Corporation", "accountNo": "001234567890"}]);
    let proposed = app
        .ok(
            "/admin/api/settings/propose",
            Some(&maker),
            json!({"terms": terms, "reason": "a new agent; the FAQ in plainer words"}),
        )
        .await;
    let decide = json!({"proposalId": proposed["proposalId"]});
    app.fails(
        "/admin/api/settings/approve",
        Some(&maker),
        decide.clone(),
        50006,
    )
    .await;
    // Not yet approved: the file's code still opens an account.
    assert_eq!(
        register_with(&app, "09170000561", "WELCOME").await["code"],
        0
    );
    app.ok("/admin/api/settings/approve", Some(&checker), decide)
        .await;

    let company = app
        .ok("/jackey/loan/getAllCompanyConfigs", None, json!({}))
        .await;
    assert_eq!(company["faq"], json!("Repay any time, at no cost."));
    assert_eq!(
        company["translations"]["faq"]["en"],
        json!("Repay any time, at no cost.")
    );
    assert_eq!(
        company["receivingAccounts"][0]["accountName"],
        json!("Honest Lending Corporation")
    );
    assert_eq!(
        company["customer-service-phone"],
        json!("+63 2 8000 0000"),
        "a contact is one text"
    );
    assert_eq!(
        register_with(&app, "09170000562", "WELCOME").await["code"],
        10000
    );
    assert_eq!(
        register_with(&app, "09170000563", "AGENT7").await["code"],
        0
    );
    let line = app
        .ok("/admin/api/settings/list", Some(&checker), json!({}))
        .await;
    assert_eq!(line["inForce"], json!(1));
    assert_eq!(
        line["proposals"][0]["checker"]["username"],
        json!("admin.checker")
    );
    // The lines fold again from the log (replay-tool verify).
    app.quiesce().await;
    let report = projections::verify::verify(&app.state.database)
        .await
        .unwrap();
    assert!(report.is_clean(), "{:?}", report.drifts);
}

on_both_stores!(
    lender_settings,
    lender_settings_changed_by_two_admins_reach_the_borrower_app_on_sqlite,
    lender_settings_changed_by_two_admins_reach_the_borrower_app_on_postgres
);
