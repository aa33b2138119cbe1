//! The affordability rule end to end (issue 52, `pricing::affordability`, 40010): what
//! `/loan/affordability` answers is what apply decides by, for the income the
//! questionnaire declared. Demo product 1: 40 % of the monthly income may go to the
//! repayments due in any 30 days.

use crate::helpers::{on_both_stores, questionnaire, TestApp};
use serde_json::{json, Value};

on_both_stores!(
    the_income_declared_decides_the_largest_amount,
    the_income_declared_decides_the_largest_amount_on_sqlite,
    the_income_declared_decides_the_largest_amount_on_postgres
);

fn declaring(income: &str) -> Value {
    let mut answers = questionnaire();
    answers["monthlyIncome"] = json!(income);
    answers
}

fn limit(view: &Value, period_days: u64) -> Value {
    view["limits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["periodDays"] == period_days)
        .unwrap_or_else(|| panic!("no limit for {period_days} days: {view}"))["maxAmount"]
        .clone()
}

async fn the_income_declared_decides_the_largest_amount(app: TestApp) {
    let (token, _) = app.qualified_borrower("09175550301").await;
    let t = Some(token.as_str());
    let product = json!({"appId": 1});

    // Not an amount: refused, naming the field, and nothing changes.
    let words = app
        .fails(
            "/jackey/user/update",
            t,
            declaring("thirty thousand"),
            10004,
        )
        .await;
    assert!(
        words["msg"].as_str().unwrap().contains("monthlyIncome"),
        "{words}"
    );

    // 30,000 a month: 12,000 may go to repayments, below even 80,000 over 6 days.
    app.ok("/jackey/user/update", t, declaring("30,000")).await;
    let view = app
        .ok("/jackey/loan/affordability", t, product.clone())
        .await;
    assert_eq!(view["monthlyIncome"], "30000.00", "{view}");
    assert_eq!(view["incomeSharePct"], "40", "{view}");
    assert_eq!(view["limits"].as_array().unwrap().len(), 4, "{view}");
    assert!(
        view["limits"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["maxAmount"].is_null()),
        "{view}"
    );
    let none = app
        .fails(
            "/jackey/loan/apply",
            t,
            json!({"amt": "80000", "periodDays": 24, "appId": 1}),
            40010,
        )
        .await;
    assert!(
        none["msg"]
            .as_str()
            .unwrap()
            .contains("none of this product's amounts"),
        "{none}"
    );

    // 400,000 a month: over 24 days at 0.1 %/day, 150,000 repays 153,600 (within
    // 160,000) and 160,000 repays 163,840; the call and apply agree.
    app.ok("/jackey/user/update", t, declaring("400000")).await;
    let view = app
        .ok("/jackey/loan/affordability", t, product.clone())
        .await;
    assert_eq!(limit(&view, 24), "150000.00", "{view}");
    let above = json!({"amt": "160000", "periodDays": 24, "appId": 1});
    // Sent twice at once: the first refused with the maximum, the second either the
    // same or "in progress" while the first held the single application; neither
    // keeps it held.
    let (first, second) = tokio::join!(
        app.post("/jackey/loan/apply", t, above.clone()),
        app.post("/jackey/loan/apply", t, above.clone()),
    );
    let codes = [&first, &second].map(|answer| answer["code"].as_u64().unwrap());
    assert!(
        codes.contains(&40010) && codes.iter().all(|c| [40010, 40005].contains(c)),
        "{first} {second}"
    );
    for refused in [first, second].iter().filter(|a| a["code"] == 40010) {
        assert!(
            refused["msg"]
                .as_str()
                .unwrap()
                .contains("at most 150,000.00"),
            "{refused}"
        );
    }
    let applied = app
        .ok(
            "/jackey/loan/apply",
            t,
            json!({"amt": "150000", "periodDays": 24, "appId": 1}),
        )
        .await;
    assert!(applied["loanOrderId"].is_string(), "{applied}");

    // The income is the session's own: without one, nothing is answered.
    let anonymous = app.post("/jackey/loan/affordability", None, product).await;
    assert_eq!(anonymous["code"], 401, "{anonymous}");
}
