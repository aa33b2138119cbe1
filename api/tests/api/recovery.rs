//! Resubmission (PRODUCT.md 12.4) and recovery and credentials (12.3) over HTTP, on
//! both stores: an officer's request opens exactly the items it names, even verified
//! ones, until the borrower resubmits; a password reset needs the phone's code,
//! lifts a security lock and revokes every earlier session; a wrong current password
//! counts toward the lock; a borrower lists and revokes only their own sessions.

use serde_json::json;

use crate::helpers::{address_of, on_both_stores, TestApp};

on_both_stores!(
    resubmission_round_trip,
    an_officer_asks_for_photos_the_borrower_replaces_them_and_resubmits_on_sqlite,
    an_officer_asks_for_photos_the_borrower_replaces_them_and_resubmits_on_postgres
);
on_both_stores!(
    password_reset,
    a_password_reset_needs_the_code_lifts_the_lock_and_revokes_sessions_on_sqlite,
    a_password_reset_needs_the_code_lifts_the_lock_and_revokes_sessions_on_postgres
);
on_both_stores!(
    password_change,
    a_password_change_signs_out_other_sessions_and_a_wrong_current_one_counts_on_sqlite,
    a_password_change_signs_out_other_sessions_and_a_wrong_current_one_counts_on_postgres
);
on_both_stores!(
    sessions,
    a_borrower_lists_and_revokes_only_their_own_sessions_on_sqlite,
    a_borrower_lists_and_revokes_only_their_own_sessions_on_postgres
);

on_both_stores!(
    abandoned_phone_claim,
    a_phone_claim_left_by_a_crash_before_register_is_taken_over_on_sqlite,
    a_phone_claim_left_by_a_crash_before_register_is_taken_over_on_postgres
);

/// A registration that died between claiming the phone number and `Register` (the
/// process stopped at that point: the claim row, no User events). While such a claim
/// is younger than the request timeout it may still be a registration in flight
/// (10001); older, it is taken over and the phone registers. A claim whose holder
/// registered is never taken, however old.
async fn abandoned_phone_claim(app: TestApp) {
    let register = |mobile: &'static str| {
        let app = &app;
        async move {
            let body = json!({"mobile": mobile, "password": "secret-pass",
                "telemarketingCode": "WELCOME", "installationSource": "web", "platform": "h5"});
            // One code a minute per phone: each attempt here is a minute later.
            app.sql("delete from sms_throttle").await;
            let body = app.with_register_code(body).await;
            app.post_from(&address_of(mobile), "/jackey/user/register", body)
                .await
        }
    };
    let mobile = "09170000431";
    let ghost = uuid::Uuid::now_v7();
    let claimed = format!(
        "insert into user_mobile (mobile, user_id, created_at) \
         values ('{mobile}', '{ghost}', '2999-01-01T00:00:00.000000Z')"
    );
    assert_eq!(app.sql(&claimed).await, 1);
    assert_eq!(register(mobile).await["code"], 10001);
    let aged = format!("update user_mobile set created_at = '2000-01-01T00:00:00.000000Z' where mobile = '{mobile}'");
    assert_eq!(app.sql(&aged).await, 1);
    let answer = register(mobile).await;
    assert_eq!(answer["code"], 0, "{answer}");
    let token = answer["data"]["token"].as_str().unwrap();
    let user_id = app.user_id_of(token).await;
    assert_ne!(user_id, ghost);
    let holder = app
        .scalar("select user_id from user_mobile where mobile = $1", mobile)
        .await;
    assert_eq!(holder, Some(user_id.to_string()));
    assert_eq!(login(&app, mobile, "secret-pass").await["code"], 0);
    // The registered holder's claim, however old, stays theirs.
    assert_eq!(app.sql(&aged).await, 1);
    assert_eq!(register(mobile).await["code"], 10001);
}

async fn resubmission_round_trip(app: TestApp) {
    let (token, user_id, order_id) = app.applicant("09170000401", "Ana Santos").await;
    let t = Some(token.as_str());
    app.verify_identity(&user_id).await;
    let (_, officer) = app.auditor("officer").await;
    let o = Some(officer.as_str());
    let order = json!({ "orderId": order_id });
    app.ok("/admin/api/orders/startReview", o, order.clone())
        .await;
    // Given verified photos, the borrower cannot replace them on their own.
    let refused = app.upload_identity_parts(&token, &photos()).await;
    assert_eq!(refused["code"], 10006, "{refused}");

    // A request naming nothing is refused; one naming the photos is recorded.
    let ask = |items: serde_json::Value| json!({"orderId": order_id, "reason": "the hand-held photo is blurred", "items": items});
    app.fails(
        "/admin/api/orders/requestResubmission",
        o,
        ask(json!([])),
        10004,
    )
    .await;
    app.fails(
        "/admin/api/orders/requestResubmission",
        o,
        ask(json!(["passport"])),
        10004,
    )
    .await;
    app.ok(
        "/admin/api/orders/requestResubmission",
        o,
        ask(json!(["photos"])),
    )
    .await;
    let shown = app.wait_status(&token, &order_id, 2).await;
    assert_eq!(shown["resubmissionItems"], json!(["photos"]));
    assert_eq!(
        shown["resubmissionReason"],
        "the hand-held photo is blurred"
    );
    app.quiesce().await;
    let info = app.ok("/jackey/user/info", t, json!({})).await;
    assert_eq!(info["resubmissionItems"], json!(["photos"]));

    // Resubmitting before changing anything asked for is refused (issue 52).
    let unchanged = json!({ "loanOrderId": order_id });
    let refused = app
        .fails("/jackey/loan/resubmit", t, unchanged, 40009)
        .await;
    assert!(
        refused["msg"].as_str().unwrap().contains("photos"),
        "{refused}"
    );

    // The name stays read-only (not asked for); the photos can be replaced, and the
    // identity awaits review again.
    let rename = json!({"realName": "Someone Else"});
    app.fails("/jackey/user/update", t, rename, 10006).await;
    // Retaken photos: other bytes than those on file (a JPEG of the same picture).
    let retaken = ["frontImage", "backImage", "handHoldImage"]
        .map(|name| (name, crate::helpers::photo(image::ImageFormat::Jpeg)));
    let replaced = app.upload_identity_parts(&token, &retaken).await;
    assert_eq!(replaced["code"], 0, "{replaced}");
    let info = app.ok("/jackey/user/info", t, json!({})).await;
    assert_eq!(info["userQualificationView"]["identity"], 1);

    // Resubmit, pressed three times at once: one returns the order to 0, the others
    // are refused (the Order decides on its own version), and a later press too.
    let body = json!({ "loanOrderId": order_id });
    let answers = crate::helpers::futures_join(3, |_| {
        let body = body.clone();
        let app = &app;
        async move { app.post("/jackey/loan/resubmit", t, body).await }
    })
    .await;
    let codes: Vec<_> = answers.iter().map(|a| a["code"].clone()).collect();
    assert_eq!(codes.iter().filter(|c| **c == 0).count(), 1, "{answers:?}");
    assert_eq!(
        codes.iter().filter(|c| **c == 10004).count(),
        2,
        "{answers:?}"
    );
    app.fails("/jackey/loan/resubmit", t, body, 10004).await;
    let back = app.wait_status(&token, &order_id, 0).await;
    assert_eq!(back["resubmissionItems"], json!([]));
    let (types, _) = app.timeline(&token, &order_id).await;
    assert_eq!(
        types.iter().filter(|t| *t == "Resubmitted").count(),
        1,
        "{types:?}"
    );
    app.quiesce().await;
    let info = app.ok("/jackey/user/info", t, json!({})).await;
    assert_eq!(info["resubmissionItems"], json!(null));

    // The officer sees what was asked and what of it the borrower changed (issue 52).
    let review = app.ok("/admin/api/orders/detail", o, order.clone()).await;
    let last = &review["review"]["lastResubmission"];
    assert_eq!(last["asked"], json!(["photos"]), "{review}");
    assert_eq!(last["fixed"], json!(["photos"]), "{review}");
    assert!(last["at"].is_string(), "{review}");

    // The officer verifies the new photos and passes the review: photos closed again.
    app.verify_identity(&user_id).await;
    app.ok("/admin/api/orders/startReview", o, order.clone())
        .await;
    app.ok(
        "/admin/api/orders/passFirst",
        o,
        json!({"orderId": order_id, "note": "new photos match"}),
    )
    .await;
    let again = app.upload_identity_parts(&token, &photos()).await;
    assert_eq!(again["code"], 10006, "{again}");

    // Another borrower cannot resubmit this order.
    let other = app.register("09170000402").await;
    let theirs = json!({ "loanOrderId": order_id });
    app.fails("/jackey/loan/resubmit", Some(&other), theirs, 40007)
        .await;
}

fn photos() -> [(&'static str, Vec<u8>); 3] {
    ["frontImage", "backImage", "handHoldImage"].map(|name| (name, crate::helpers::png_photo()))
}

async fn login(app: &TestApp, mobile: &str, password: &str) -> serde_json::Value {
    let body = json!({"mobile": mobile, "password": password});
    app.post_from(&address_of(mobile), "/jackey/user/login", body)
        .await
}

async fn reset_code(app: &TestApp, mobile: &str) -> Option<String> {
    let send = json!({ "mobile": mobile });
    let sent = app
        .post_from(&address_of(mobile), "/jackey/sms/reset", send)
        .await;
    assert_eq!(sent["code"], 0, "{sent}");
    let sql = "select body from sms_outbox where mobile = $1 order by created_at desc limit 1";
    app.scalar(sql, mobile).await.map(|_| ())?;
    Some(app.last_sms_code(mobile).await)
}

async fn password_reset(app: TestApp) {
    let mobile = "09170000411";
    let first = app.register(mobile).await;
    let second = login(&app, mobile, "secret-pass").await["data"]["token"]
        .as_str()
        .unwrap()
        .to_string();
    // Five wrong passwords lock the account.
    for _ in 0..5 {
        login(&app, mobile, "wrong-pass").await;
    }
    // Locked: a wrong password answers as for an unknown phone (12.2); the right
    // one is told of the lock, with its reason, and still does not sign in.
    assert_eq!(login(&app, mobile, "wrong-pass").await["code"], 10002);
    let told = login(&app, mobile, "secret-pass").await;
    assert_eq!(told["code"], 20003, "{told}");
    assert!(
        told["data"].is_null() || told["data"]["token"].is_null(),
        "{told}"
    );

    let reset = |code: &str, password: &str| json!({"mobile": mobile, "smsCode": code, "password": password});
    // No code waiting, then a wrong one: nothing changes.
    let path = "/jackey/user/resetPassword";
    let answer = app
        .post_from(&address_of(mobile), path, reset("123456", "new-secret-1"))
        .await;
    assert_eq!(answer["code"], 10013, "{answer}");
    let code = reset_code(&app, mobile)
        .await
        .expect("a code to the registered phone");
    let wrong = if code == "000000" { "000001" } else { "000000" };
    let answer = app
        .post_from(&address_of(mobile), path, reset(wrong, "new-secret-1"))
        .await;
    assert_eq!(answer["code"], 10011, "{answer}");
    // A bad new password is refused before the code is spent.
    let answer = app
        .post_from(&address_of(mobile), path, reset(&code, "short"))
        .await;
    assert_eq!(answer["code"], 10004, "{answer}");
    let answer = app
        .post_from(&address_of(mobile), path, reset(&code, "new-secret-1"))
        .await;
    assert_eq!(answer["code"], 0, "{answer}");
    // The code is single use.
    let answer = app
        .post_from(&address_of(mobile), path, reset(&code, "new-secret-2"))
        .await;
    assert_ne!(answer["code"], 0, "{answer}");

    // The lock is lifted, the old password is gone, every earlier session is revoked.
    app.quiesce().await;
    assert_eq!(login(&app, mobile, "secret-pass").await["code"], 10002);
    let fresh = login(&app, mobile, "new-secret-1").await;
    assert_eq!(fresh["code"], 0, "{fresh}");
    for old in [&first, &second] {
        app.fails("/jackey/user/info", Some(old), json!({}), 20001)
            .await;
    }
    let token = fresh["data"]["token"].as_str().unwrap();
    app.ok("/jackey/user/info", Some(token), json!({})).await;

    // An unknown phone gets no message and the same answers.
    let nobody = "09170000419";
    assert_eq!(reset_code(&app, nobody).await, None);
    let answer = app
        .post_from(
            &address_of(nobody),
            path,
            json!({"mobile": nobody, "smsCode": "123456", "password": "new-secret-1"}),
        )
        .await;
    assert_eq!(answer["code"], 10011, "{answer}");
}

async fn password_change(app: TestApp) {
    let mobile = "09170000421";
    let token = app.register(mobile).await;
    let t = Some(token.as_str());
    // Another device of the borrower's (or whoever took it), and another borrower.
    let elsewhere = login(&app, mobile, "secret-pass").await["data"]["token"]
        .as_str()
        .unwrap()
        .to_string();
    let neighbour = app.register("09170000422").await;
    let change = |old: &str| json!({"oldPassword": old, "password": "new-secret-1"});
    let wrong = app
        .fails(
            "/jackey/user/changePassword",
            t,
            change("guess-guess"),
            10002,
        )
        .await;
    assert!(
        wrong["msg"].as_str().unwrap().contains("4 attempts left"),
        "{wrong}"
    );
    let short = json!({"oldPassword": "secret-pass", "password": "short"});
    app.fails("/jackey/user/changePassword", t, short, 10004)
        .await;
    // A refused change signed nobody out.
    app.quiesce().await;
    app.ok("/jackey/user/info", Some(&elsewhere), json!({}))
        .await;
    app.ok("/jackey/user/changePassword", t, change("secret-pass"))
        .await;
    // The session it was changed from stays; every other of the account is signed out
    // (12.3); another borrower's is not touched.
    app.quiesce().await;
    app.ok("/jackey/user/info", t, json!({})).await;
    app.fails("/jackey/user/info", Some(&elsewhere), json!({}), 20001)
        .await;
    app.ok("/jackey/user/info", Some(&neighbour), json!({}))
        .await;
    assert_eq!(login(&app, mobile, "secret-pass").await["code"], 10002);
    let after = login(&app, mobile, "new-secret-1").await;
    assert_eq!(after["code"], 0);
    // A login after the change is not signed out by it.
    app.quiesce().await;
    let after = after["data"]["token"].as_str().unwrap();
    app.ok("/jackey/user/info", Some(after), json!({})).await;
    // Four more wrong current passwords after a success: the count started again,
    // so the fifth wrong one in a row (the login above reset it) locks.
    for left in (1..=4).rev() {
        let wrong = app
            .fails(
                "/jackey/user/changePassword",
                t,
                change("guess-guess"),
                10002,
            )
            .await;
        assert!(
            wrong["msg"]
                .as_str()
                .unwrap()
                .contains(&format!("{left} attempts left")),
            "{wrong}"
        );
    }
    app.fails(
        "/jackey/user/changePassword",
        t,
        change("guess-guess"),
        20003,
    )
    .await;
}

async fn sessions(app: TestApp) {
    let mobile = "09170000431";
    let here = app.register(mobile).await;
    let there = login(&app, mobile, "secret-pass").await["data"]["token"]
        .as_str()
        .unwrap()
        .to_string();
    let list = app
        .ok("/jackey/user/sessions", Some(&here), json!({}))
        .await;
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 2, "{list:?}");
    let current: Vec<_> = list.iter().filter(|s| s["current"] == true).collect();
    assert_eq!(current.len(), 1);
    let other = list.iter().find(|s| s["current"] == false).unwrap();
    let other_id = other["id"].as_str().unwrap().to_string();
    assert_eq!(other_id.len(), 16);

    // Someone else cannot name this borrower's session.
    let stranger = app.register("09170000432").await;
    let revoke = json!({ "sessionId": other_id });
    app.fails(
        "/jackey/user/sessions/revoke",
        Some(&stranger),
        revoke.clone(),
        40007,
    )
    .await;
    app.ok("/jackey/user/info", Some(&there), json!({})).await;
    // Odd input is a request error, not a server error.
    for odd in ["", "zz", "' or 1=1 --", &"a".repeat(4096)] {
        let body = json!({ "sessionId": odd });
        app.fails("/jackey/user/sessions/revoke", Some(&here), body, 10004)
            .await;
    }
    app.ok("/jackey/user/sessions/revoke", Some(&here), revoke.clone())
        .await;
    app.fails("/jackey/user/info", Some(&there), json!({}), 20001)
        .await;
    app.fails("/jackey/user/sessions/revoke", Some(&here), revoke, 40007)
        .await;
    let list = app
        .ok("/jackey/user/sessions", Some(&here), json!({}))
        .await;
    assert_eq!(list.as_array().unwrap().len(), 1);
}
