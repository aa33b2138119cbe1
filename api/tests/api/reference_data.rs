//! The PH reference data of PRODUCT.md 11 over HTTP: the PSGC region → province →
//! city/municipality tree and the Philippine banks and e-wallets, and the server
//! refusing a location or an e-wallet account that does not fit them (10004, 10028).

use serde_json::{json, Value};

use crate::helpers::{on_both_stores, TestApp};

on_both_stores!(
    lists,
    the_reference_lists_are_the_philippine_ones_on_sqlite,
    the_reference_lists_are_the_philippine_ones_on_postgres
);
on_both_stores!(
    locations,
    a_profile_location_must_name_a_psgc_place_on_sqlite,
    a_profile_location_must_name_a_psgc_place_on_postgres
);
on_both_stores!(
    e_wallets,
    an_e_wallet_is_bound_with_its_mobile_number_on_sqlite,
    an_e_wallet_is_bound_with_its_mobile_number_on_postgres
);

async fn list(app: &TestApp, key: &str) -> Value {
    app.ok("/jackey/loan/getConfigByKey", None, json!({ "key": key }))
        .await
}

async fn lists(app: TestApp) {
    let banks = list(&app, "banks").await;
    let banks: Vec<&str> = banks
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap())
        .collect();
    for bank in [
        "BDO Unibank",
        "Land Bank of the Philippines",
        "GCash",
        "Maya",
    ] {
        assert!(banks.contains(&bank), "{bank} in {banks:?}");
    }
    assert!(!banks.contains(&"Bangkok Bank"));
    assert_eq!(list(&app, "eWallets").await, json!(["GCash", "Maya"]));

    let regions = list(&app, "provinces").await;
    let regions = regions.as_array().unwrap();
    assert_eq!(regions.len(), 18);
    // NCR: cities directly under the region, no provinces key.
    assert_eq!(regions[0]["region"], "National Capital Region (NCR)");
    assert!(regions[0].get("provinces").is_none());
    assert!(regions[0]["cities"]
        .as_array()
        .unwrap()
        .contains(&json!("Quezon City")));
    let central_visayas = regions
        .iter()
        .find(|r| r["region"] == "Region VII (Central Visayas)")
        .unwrap();
    assert!(central_visayas.get("cities").is_none());
    let cebu = central_visayas["provinces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["province"] == "Cebu")
        .unwrap();
    assert!(cebu["cities"]
        .as_array()
        .unwrap()
        .contains(&json!("City of Cebu")));
}

async fn locations(app: TestApp) {
    let token = app.register("09170000701").await;
    let t = Some(token.as_str());
    let update = |place: &str| json!({ "provinceCity": place });
    for place in [
        "Region VII (Central Visayas),Cebu,City of Cebu",
        "National Capital Region (NCR),,Quezon City",
    ] {
        app.ok("/jackey/user/update", t, update(place)).await;
        app.wrote().await;
        let info = app.ok("/jackey/user/info", t, json!({})).await;
        assert_eq!(info["provinceCity"], place);
    }
    for place in [
        "Region VII (Central Visayas),Bohol,City of Cebu",
        "National Capital Region (NCR),Metro Manila,Quezon City",
        "Metro Manila,Quezon City",
        "Region VII (Central Visayas),Cebu",
    ] {
        let refused = app
            .fails("/jackey/user/update", t, update(place), 10004)
            .await;
        assert!(
            refused["msg"].as_str().unwrap().contains("provinceCity"),
            "{place}: {refused}"
        );
    }
    app.wrote().await;
    let info = app.ok("/jackey/user/info", t, json!({})).await;
    assert_eq!(
        info["provinceCity"],
        "National Capital Region (NCR),,Quezon City"
    );
}

async fn e_wallets(app: TestApp) {
    let token = app.register("09170000702").await;
    let t = Some(token.as_str());
    app.ok("/jackey/user/update", t, json!({"realName": "Ana Santos"}))
        .await;
    let bind = |account: &str| json!({"bankName": "GCash", "cardNo": account});
    for account in ["001234567890", "0917123456", "08171234567"] {
        app.fails("/jackey/user/bank/binding", t, bind(account), 10028)
            .await;
    }
    app.ok("/jackey/user/bank/binding", t, bind("09171234567"))
        .await;
    app.wrote().await;
    let info = app.ok("/jackey/user/info", t, json!({})).await;
    assert_eq!(info["bankName"], "GCash");
}
