//! An ID number or email one account at most holds (10026, 10025), when one account
//! changes it twice at once: the value the profile ends with stays claimed and the
//! value it replaced is released, whichever request commits or is refused first
//! (one claiming request of an account at a time, `claims::take_turn`).

use serde_json::json;

use crate::helpers::{on_both_stores, TestApp};

on_both_stores!(
    parallel_updates,
    two_id_numbers_sent_at_once_leave_the_profiles_one_claimed_on_sqlite,
    two_id_numbers_sent_at_once_leave_the_profiles_one_claimed_on_postgres
);
on_both_stores!(
    parallel_with_a_refusal,
    a_refused_update_beside_an_accepted_one_of_the_same_value_leaves_it_claimed_on_sqlite,
    a_refused_update_beside_an_accepted_one_of_the_same_value_leaves_it_claimed_on_postgres
);

/// Two `/user/update`s of one account at once, twenty times; then another account
/// tries the value the profile holds, and the one it replaced.
async fn parallel_updates(app: TestApp) {
    let token = app.register("09178881201").await;
    let second = app.register("09178881202").await;
    let t = Some(token.as_str());
    for round in 0..20 {
        let (x, y) = (
            format!("7000000000{round:02}"),
            format!("8000000000{round:02}"),
        );
        let (a, b) = tokio::join!(
            app.post("/jackey/user/update", t, json!({"identity": x})),
            app.post("/jackey/user/update", t, json!({"identity": y})),
        );
        assert_eq!((&a["code"], &b["code"]), (&json!(0), &json!(0)), "{a} {b}");
        app.quiesce().await;
        let held = app.ok("/jackey/user/info", t, json!({})).await["identity"]
            .as_str()
            .unwrap()
            .to_string();
        let replaced = if held == x { &y } else { &x };
        let taken = app
            .post(
                "/jackey/user/update",
                Some(&second),
                json!({"identity": held}),
            )
            .await;
        assert_eq!(
            taken["code"], 10026,
            "round {round}: {held} was left unclaimed: {taken}"
        );
        let free = app
            .post(
                "/jackey/user/update",
                Some(&second),
                json!({"identity": replaced}),
            )
            .await;
        assert_eq!(
            free["code"], 0,
            "round {round}: {replaced} was kept: {free}"
        );
    }
}

/// The same ID number sent twice at once, once beside an email another account
/// holds (refused, 10025): the accepted one's value stays claimed.
async fn parallel_with_a_refusal(app: TestApp) {
    let token = app.register("09178881211").await;
    let second = app.register("09178881212").await;
    let s = Some(second.as_str());
    app.ok(
        "/jackey/user/update",
        s,
        json!({"email": "held@example.ph"}),
    )
    .await;
    let t = Some(token.as_str());
    for round in 0..10 {
        let x = format!("6000000000{round:02}");
        let (refused, accepted) = tokio::join!(
            app.post(
                "/jackey/user/update",
                t,
                json!({"identity": x, "email": "held@example.ph"})
            ),
            app.post("/jackey/user/update", t, json!({"identity": x})),
        );
        assert_eq!(refused["code"], 10025, "{refused}");
        assert_eq!(accepted["code"], 0, "{accepted}");
        app.quiesce().await;
        let taken = app
            .post("/jackey/user/update", s, json!({"identity": x}))
            .await;
        assert_eq!(
            taken["code"], 10026,
            "round {round}: {x} was left unclaimed: {taken}"
        );
    }
}
