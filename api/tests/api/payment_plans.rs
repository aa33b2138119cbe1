//! Payment plans for hardship (issue 53, P16) over HTTP on both stores: the borrower
//! asks (twice at once: recorded once; hostile reasons refused; another borrower's
//! order 40007), one officer proposes, the same officer cannot approve (50006), a
//! second does; the borrower sees the plan and signs it as shown; the loan then owes
//! exactly the plan's total on the plan's days, nothing was paid to get it, and the
//! books follow.

use std::sync::Arc;

use aggregates::services::doubles::{test_now, FixedClock};
use chrono::Days;
use serde_json::{json, Value};

use crate::documents::{pdf, text_of};
use crate::helpers::{futures_join, on_both_stores, TestApp};
use crate::reminders::{days_pass, disbursed};

/// YYYY-MM-DD of the UTC day `n` days after the payout.
fn day(n: u64) -> String {
    (test_now() + Days::new(n)).format("%Y-%m-%d").to_string()
}

async fn record(app: &TestApp, officer: &str, order_id: &str) -> Value {
    app.ok(
        "/admin/api/collections/record",
        Some(officer),
        json!({ "orderId": order_id }),
    )
    .await
}

async fn payment_plan(clock: Arc<FixedClock>, app: TestApp) {
    let (ana, _, order_id) = disbursed(&app, "09170000541").await;
    let (stranger, _, _) = disbursed(&app, "09170000542").await;
    let (_, first) = app.auditor("plans-53-1").await;
    let (_, second) = app.auditor("plans-53-2").await;
    days_pass(&app, &clock, 0..=11).await;
    let t = Some(ana.as_str());
    let ask = |reason: Value| json!({"loanOrderId": order_id, "reason": reason});

    // Hostile asks: no reason, one too long, another borrower's order.
    app.fails("/jackey/loan/requestPaymentPlan", t, ask(json!(" ")), 10004)
        .await;
    app.fails(
        "/jackey/loan/requestPaymentPlan",
        t,
        ask(json!("x".repeat(501))),
        10004,
    )
    .await;
    app.fails(
        "/jackey/loan/requestPaymentPlan",
        Some(&stranger),
        ask(json!("not mine")),
        40007,
    )
    .await;
    // Asked twice at once: both answered, recorded once.
    let both = futures_join(2, |_| {
        app.post(
            "/jackey/loan/requestPaymentPlan",
            t,
            ask(json!("lost my job")),
        )
    })
    .await;
    assert!(both.iter().all(|a| a["code"] == json!(0)), "{both:?}");
    app.wrote().await;
    let seen = record(&app, &first, &order_id).await;
    assert_eq!(seen["planRequested"], json!(true));
    let asked = seen["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["eventType"] == json!("PaymentPlanRequested"))
        .count();
    assert_eq!(asked, 1);
    // The demo product charges no overdue fee (the Order's tests waive fees).
    let fees: rust_decimal::Decimal = seen["feesUnpaid"].as_str().unwrap().parse().unwrap();

    // The officer proposes four weekly installments, all fees waived; bounds checked.
    let propose = |installments: u32, first_due: String, waived: String| {
        json!({"orderId": order_id, "installments": installments, "everyDays": 7,
               "firstDue": first_due, "feesWaived": waived, "reason": "job loss; can pay weekly"})
    };
    let path = "/admin/api/collections/proposePlan";
    let o = Some(first.as_str());
    app.fails(path, o, propose(13, day(12), "0".into()), 10004)
        .await;
    app.fails(path, o, propose(4, day(10), "0".into()), 10004)
        .await;
    app.fails(
        path,
        o,
        propose(4, day(12), (fees + rust_decimal::Decimal::ONE).to_string()),
        10004,
    )
    .await;
    app.fails(
        path,
        o,
        json!({"orderId": "nope", "installments": 4, "everyDays": 7,
        "firstDue": day(12), "feesWaived": "0", "reason": "x"}),
        40007,
    )
    .await;
    app.ok(path, o, propose(4, day(18), fees.to_string())).await;
    // Not approved yet: the borrower is offered nothing and cannot sign.
    let info = app
        .ok(
            "/jackey/loan/orderInfo",
            t,
            json!({"loanOrderId": order_id}),
        )
        .await;
    assert!(info.get("paymentPlan").is_none(), "{info}");
    app.fails(
        "/jackey/loan/signPaymentPlan",
        t,
        json!({"loanOrderId": order_id, "acceptedTotal": "1.00"}),
        10004,
    )
    .await;
    // The proposer cannot approve it; a second officer does (twice at once: once).
    let approve = json!({"orderId": order_id});
    app.fails(
        "/admin/api/collections/approvePlan",
        o,
        approve.clone(),
        50006,
    )
    .await;
    let both = futures_join(2, |_| {
        app.post(
            "/admin/api/collections/approvePlan",
            Some(&second),
            approve.clone(),
        )
    })
    .await;
    assert!(both.iter().all(|a| a["code"] == json!(0)), "{both:?}");
    app.wrote().await;

    // The borrower sees the plan and signs it as shown.
    let before = app
        .ok(
            "/jackey/loan/orderInfo",
            t,
            json!({"loanOrderId": order_id}),
        )
        .await;
    let plan = before["paymentPlan"].clone();
    assert_eq!(
        plan["installments"].as_array().unwrap().len(),
        4,
        "{before}"
    );
    assert_eq!(plan["installments"][3]["dueDate"], json!(day(39)));
    assert_eq!(plan["feesWaived"], json!(fees.to_string()));
    let total = plan["total"].as_str().unwrap().to_string();
    let remaining: rust_decimal::Decimal = before["remaining"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        total.parse::<rust_decimal::Decimal>().unwrap(),
        remaining - fees,
        "nothing added"
    );
    app.fails(
        "/jackey/loan/signPaymentPlan",
        t,
        json!({"loanOrderId": order_id, "acceptedTotal": "1.00"}),
        10004,
    )
    .await;
    let events_before = app.event_count().await;
    app.ok(
        "/jackey/loan/signPaymentPlan",
        t,
        json!({"loanOrderId": order_id, "acceptedTotal": total}),
    )
    .await;
    app.wrote().await;
    assert!(app.event_count().await > events_before);
    let after = app
        .ok(
            "/jackey/loan/orderInfo",
            t,
            json!({"loanOrderId": order_id}),
        )
        .await;
    assert_eq!(after["remaining"], json!(total), "owed exactly the plan");
    assert!(after.get("paymentPlan").is_none());
    let views = after["periodViews"].as_array().unwrap();
    let owed: Vec<&Value> = views.iter().filter(|v| v["status"] != json!(1)).collect();
    assert_eq!(owed.len(), 4, "{after}");
    assert_eq!(owed[0]["dueDate"], json!(day(18)));
    // The loan is current again, nothing was paid to get the plan, and the officers'
    // proposal stays off the borrower's timeline.
    assert_eq!(
        record(&app, &first, &order_id).await["daysPastDue"],
        json!(0)
    );
    let (types, _) = app.timeline(&ana, &order_id).await;
    assert!(
        types.contains(&"PaymentPlanSigned".to_string()),
        "{types:?}"
    );
    assert!(!types.contains(&"PaymentPlanProposed".to_string()));
    assert!(!types.iter().any(|t| t.starts_with("PaymentSession")));
    // Signed twice: the second finds no plan to sign.
    app.fails(
        "/jackey/loan/signPaymentPlan",
        t,
        json!({"loanOrderId": order_id, "acceptedTotal": total}),
        10004,
    )
    .await;

    // The books follow: the receivable is what the plan asks for.
    let trial = app.ok("/admin/api/ledger/trialBalance", o, json!({})).await;
    assert_eq!(trial["sum"], json!("0.00"));
    let receivable = format!("loan_receivable:{order_id}");
    let balance = trial["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["account"] == json!(receivable))
        .unwrap()["balance"]
        .clone();
    assert_eq!(balance, json!(total));
    let report = projections::verify::verify(&app.state.database)
        .await
        .unwrap();
    assert!(report.is_clean(), "{:?}", report.drifts);

    // The contract prints the plan among the changes signed after the payout, and
    // the schedule it now has.
    let contract = pdf(
        &app,
        "/jackey/loan/contractPdf",
        &ana,
        json!({"loanOrderId": order_id}),
    )
    .await
    .unwrap();
    let text: String = text_of(&contract)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("Changes signed after the payout"), "{text}");
    assert!(text.contains("payment plan of 4 installments"), "{text}");
    assert!(
        text.contains(&day(39)),
        "the plan's last day is in the schedule: {text}"
    );
}

on_both_stores!(
    at_a_fixed_clock: payment_plan,
    payment_plan_on_sqlite,
    payment_plan_on_postgres
);
