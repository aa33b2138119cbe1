//! The real domain through the real store: a whole loan, from registration to
//! repaid, with the User, Order and Wallet aggregates committed and loaded back on
//! both back ends. Proves the events survive serialization (money as decimal
//! strings, never floats) and that the folded state after a reload is the same.

use std::sync::Arc;

use aggregates::order::{Order, OrderCommand, OrderStatus, RepaymentSource};
use aggregates::services::doubles::{order_services, test_now, user_services, FixedClock};
use aggregates::user::{User, UserCommand, UserEvent};
use aggregates::wallet::{Wallet, WalletCommand};
use aggregates::Actor;
use chrono::Days;
use projections::store::{CommandBus, EventLog, LogPosition};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use uuid::Uuid;

use crate::helpers::TestDb;
use crate::journey::onboarding;

on_both_stores!(a_loan_runs_from_registration_to_repaid_through_the_store);

async fn a_loan_runs_from_registration_to_repaid_through_the_store(db: &TestDb) {
    let clock = Arc::new(FixedClock::at(test_now()));
    let users = CommandBus::<User>::new(&db.database, user_services(clock.clone()));
    let orders = CommandBus::<Order>::new(&db.database, order_services(clock.clone()));
    let wallets = CommandBus::<Wallet>::new(&db.database, ());
    let user_id = Uuid::now_v7();
    let order_id = Uuid::now_v7();
    let (auditor_1, auditor_2) = (Uuid::now_v7(), Uuid::now_v7());
    let uid = user_id.to_string();
    let oid = order_id.to_string();
    let borrower = |request: &str| Actor::User(user_id).metadata(request, None);
    let staff = |who: Uuid| Actor::Auditor(who).metadata("req", None);

    // The borrower registers, proves identity, completes the profile and binds a bank.
    let steps = onboarding(user_id);
    for step in steps {
        users
            .execute(&uid, step, borrower("onboarding"))
            .await
            .expect("onboarding step");
    }
    users
        .execute(
            &uid,
            UserCommand::VerifyIdentity {
                auditor_id: auditor_1,
            },
            staff(auditor_1),
        )
        .await
        .expect("identity verified");

    // Apply: the user's single application slot, then the order itself.
    users
        .execute(
            &uid,
            UserCommand::OpenApplication {
                order_id,
                app_id: 1,
                amount: dec!(100000),
                period_days: 6,
                terms_version: "2026-11".into(),
                product_version: None,
            },
            borrower("apply"),
        )
        .await
        .expect("application opened");
    let signature = users.load(&uid).await.expect("load user").signature;
    orders
        .execute(
            &oid,
            OrderCommand::ApplyForLoan {
                order_id,
                user_id,
                app_id: 1,
                amount: dec!(100000),
                period_days: 6,
                signature,
                applicant_name: "Ana Santos".into(),
                terms_version: "2026-11".into(),
                monthly_income: None,
                product_version: None,
            },
            borrower("apply"),
        )
        .await
        .expect("applied");

    // Two auditors review (four-eyes); approval credits the wallet.
    let reviews = [
        (
            auditor_1,
            OrderCommand::StartReview {
                auditor_id: auditor_1,
            },
        ),
        (
            auditor_1,
            OrderCommand::PassFirstAudit {
                auditor_id: auditor_1,
                note: "ok".into(),
                identity_verified: true,
            },
        ),
        (
            auditor_2,
            OrderCommand::PassFinalAudit {
                auditor_id: auditor_2,
                note: "ok".into(),
            },
        ),
    ];
    for (who, review) in reviews {
        orders
            .execute(&oid, review, staff(who))
            .await
            .expect("review step");
    }
    wallets
        .execute(
            &uid,
            WalletCommand::CreditLoanProceeds {
                order_id,
                amount: dec!(100000),
            },
            Actor::System.metadata("pm", None),
        )
        .await
        .expect("proceeds credited");

    // Withdraw 80,000 of the 100,000 with the PIN; the payout succeeds.
    let payout_id = Uuid::now_v7();
    let verified = users
        .execute(
            &uid,
            UserCommand::RequestWithdrawal {
                order_id: Some(order_id),
                payout_id,
                amount: dec!(80000),
                pin: "246810".into(),
            },
            borrower("withdraw"),
        )
        .await
        .expect("PIN checked");
    let UserEvent::WithdrawalRequested { account, .. } = verified[0].payload.clone() else {
        panic!("expected the PIN to verify: {verified:?}");
    };
    let system = || Actor::System.metadata("worker", None);
    orders
        .execute(
            &oid,
            OrderCommand::RequestPayout {
                payout_id,
                amount: dec!(80000),
                account,
                requested_at: None,
            },
            borrower("withdraw"),
        )
        .await
        .expect("payout requested");
    wallets
        .execute(
            &uid,
            WalletCommand::Withdraw {
                order_id,
                payout_id,
                amount: dec!(80000),
            },
            system(),
        )
        .await
        .expect("withdrawn");
    orders
        .execute(
            &oid,
            OrderCommand::RecordPayoutSucceeded { payout_id },
            system(),
        )
        .await
        .expect("payout succeeded");
    wallets
        .execute(&uid, WalletCommand::ReleaseProceeds { order_id }, system())
        .await
        .expect("remainder released");
    let disbursed = orders.load(&oid).await.expect("load order");
    assert_eq!(disbursed.status, OrderStatus::Disbursed);
    assert_eq!(
        disbursed.outstanding(),
        dec!(80960.0),
        "interest on 80,000 only (P10)"
    );

    // Day 8 (past cooling-off and the term): four recharges of 20,000 and one of 960.
    clock.set(test_now() + Days::new(8));
    for (n, amount) in [
        dec!(20000),
        dec!(20000),
        dec!(20000),
        dec!(20000),
        dec!(960),
    ]
    .into_iter()
    .enumerate()
    {
        let payment_ref = format!("pay-{n}");
        let session_id = Uuid::now_v7();
        orders
            .execute(
                &oid,
                OrderCommand::OpenPaymentSession { session_id, amount },
                borrower("recharge"),
            )
            .await
            .expect("payment page opened");
        wallets
            .execute(
                &uid,
                WalletCommand::RecordRecharge {
                    payment_ref: payment_ref.clone(),
                    order_id,
                    amount,
                    session_id: Some(session_id),
                    received_at: None,
                },
                system(),
            )
            .await
            .expect("recharge recorded");
        orders
            .execute(
                &oid,
                OrderCommand::ReceiveRepayment {
                    payment_ref: payment_ref.clone(),
                    amount,
                    source: RepaymentSource::Recharge,
                    session_id: Some(session_id),
                    received_at: None,
                },
                system(),
            )
            .await
            .expect("repayment received");
        wallets
            .execute(
                &uid,
                WalletCommand::ApplyRepayment {
                    payment_ref,
                    order_id,
                    amount,
                },
                system(),
            )
            .await
            .expect("repayment applied");
    }
    users
        .execute(
            &uid,
            UserCommand::CloseApplication {
                order_id,
                refusal: None,
            },
            system(),
        )
        .await
        .expect("application closed");

    // Reloaded from the store, every aggregate is where the journey left it.
    let order = orders.reload(&oid).await.expect("reload order");
    assert_eq!(order.status, OrderStatus::Repaid);
    assert_eq!(order.outstanding(), Decimal::ZERO);
    assert_eq!(order.loan.as_ref().map(|l| l.repaid), Some(dec!(80960.0)));
    let wallet = wallets.reload(&uid).await.expect("reload wallet");
    assert_eq!(wallet.balance(), Decimal::ZERO);
    let user = users.reload(&uid).await.expect("reload user");
    assert_eq!(user.open_order, None);
    // Each bus's cached fold, built from the events its commands decided rather than
    // read back, is the same state at the same sequence, down to each decimal's scale
    // (hence `Debug`, which shows it, rather than `==`, which compares numbers).
    let same = |cached: Option<(String, usize)>, reloaded: String, events: usize| {
        assert_eq!(cached, Some((reloaded, events)));
    };
    let shown = |state: &dyn std::fmt::Debug| format!("{state:?}");
    same(
        orders.cached(&oid).map(|(o, n)| (shown(&o), n)),
        shown(&order),
        orders.load_events(&oid).await.unwrap().len(),
    );
    same(
        wallets.cached(&uid).map(|(w, n)| (shown(&w), n)),
        shown(&wallet),
        wallets.load_events(&uid).await.unwrap().len(),
    );
    same(
        users.cached(&uid).map(|(u, n)| (shown(&u), n)),
        shown(&user),
        users.load_events(&uid).await.unwrap().len(),
    );

    // The global log holds every event in commit order, money as decimal strings.
    let log = EventLog::new(&db.database);
    let all = log
        .read_after(LogPosition::START, 1000)
        .await
        .expect("read log");
    let types: Vec<&str> = all.iter().map(|e| e.event_type.as_str()).collect();
    assert_eq!(types.first(), Some(&"UserRegistered"));
    assert_eq!(types.last(), Some(&"ApplicationClosed"));
    assert_eq!(
        types.iter().filter(|t| **t == "RepaymentReceived").count(),
        5
    );
    assert!(types.contains(&"LoanRepaid"));
    let positions: Vec<LogPosition> = all.iter().map(|e| e.position).collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "strictly increasing"
    );
    let requested = all
        .iter()
        .find(|e| e.event_type == "PayoutRequested")
        .expect("payout in the log");
    let payload = requested.payload.to_value().unwrap();
    assert_eq!(payload["PayoutRequested"]["amount"], "80000");
    assert_eq!(
        requested.metadata.get("actor").as_deref(),
        Some(format!("user:{user_id}").as_str())
    );
    let registered = all
        .iter()
        .find(|e| e.event_type == "UserRegistered")
        .unwrap();
    // No field holds the plain password (the test hasher prefixes "hashed:").
    assert!(!registered.payload.text().contains("\"secret-pass\""), "P2");
    assert_eq!(
        registered.payload.to_value().unwrap()["UserRegistered"]["password_hash"],
        "hashed:secret-pass"
    );
}
