//! An ID number or email one account at most holds (10026, 10025), when one account
//! changes it twice at once: the value the profile ends with stays claimed, whatever
//! order the two requests settle in, and the value it replaced is released.

use api::claims::{self, ClaimKind};
use serde_json::json;
use uuid::Uuid;

use crate::helpers::{on_both_stores, TestApp};

on_both_stores!(
    settled_out_of_order,
    the_value_recorded_last_stays_claimed_when_settlements_run_out_of_order_on_sqlite,
    the_value_recorded_last_stays_claimed_when_settlements_run_out_of_order_on_postgres
);
on_both_stores!(
    parallel_updates,
    two_id_numbers_sent_at_once_leave_the_profiles_one_claimed_on_sqlite,
    two_id_numbers_sent_at_once_leave_the_profiles_one_claimed_on_postgres
);

/// Y recorded after X (sequence 3 against 2), but X's request settles last.
async fn settled_out_of_order(app: TestApp) {
    let (one, other) = (Uuid::now_v7(), Uuid::now_v7());
    let (x, y) = ("111111111111", "222222222222");
    let claim_x = claims::claim(&app.state, one, ClaimKind::Identity, x)
        .await
        .unwrap();
    let claim_y = claims::claim(&app.state, one, ClaimKind::Identity, y)
        .await
        .unwrap();
    claims::settle(&app.state, one, &[claim_y], Some(3)).await;
    claims::settle(&app.state, one, &[claim_x], Some(2)).await;
    let taken = claims::claim(&app.state, other, ClaimKind::Identity, y).await;
    assert_eq!(taken.err().map(|e| e.code.code()), Some(10026));
    claims::claim(&app.state, other, ClaimKind::Identity, x)
        .await
        .expect("the replaced value is free again");
}

/// Over HTTP: two `/user/update`s of one account at once, twenty times; then another
/// account tries the value the profile holds.
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
        assert_eq!(
            (a["code"].clone(), b["code"].clone()),
            (json!(0), json!(0)),
            "{a} {b}"
        );
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
