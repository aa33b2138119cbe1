//! The loan workflow (process manager) as a crash and a racing borrower would try it:
//! killed before each of its commands in turn and restarted, it ends exactly where an
//! uninterrupted run ends; a withdrawal and a bank-account change sent together never
//! send money to an account other than the one bound when the withdrawal committed,
//! and never change the account while a payout is in flight (P3).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use aggregates::codes::ErrorCode;
use aggregates::order::{Order, OrderCommand, OrderEvent, OrderStatus};
use aggregates::services::doubles::{order_services, test_now, user_services, FixedClock};
use aggregates::services::Clock;
use aggregates::types::BankAccount;
use aggregates::user::{User, UserCommand, UserError, UserEvent};
use aggregates::wallet::{Wallet, WalletCommand};
use aggregates::Actor;
use cqrs_es::AggregateError;
use projections::process::{LoanProcess, LOAN_PROCESS_PARTITIONS};
use projections::store::{CommandBus, Database};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use serde_json::json;
use uuid::Uuid;

use crate::helpers::TestDb;
use crate::journey::onboarding;
use crate::sessions::SqlSessions;

on_both_stores!(
    the_loan_workflow_killed_before_any_command_ends_as_an_uninterrupted_run,
    the_partitioned_loan_workflow_ends_as_the_single_one,
    a_withdrawal_and_a_bank_change_sent_together_never_race_p3,
    a_payment_the_workflow_takes_after_its_page_expired_is_applied_as_of_its_arrival_p1,
    a_payment_the_workflow_takes_after_midnight_of_its_due_day_leaves_it_not_overdue_p11,
    a_withdrawal_asked_for_before_the_offer_ended_is_paid_out_when_the_workflow_takes_it_later_p2,
);

/// The buses a test drives the aggregates with, on a fixed clock.
struct Buses {
    database: Database,
    clock: Arc<FixedClock>,
    users: CommandBus<User>,
    orders: CommandBus<Order>,
    wallets: CommandBus<Wallet>,
}

impl Buses {
    fn new(database: &Database) -> Self {
        let clock = Arc::new(FixedClock::at(test_now()));
        Self {
            database: database.clone(),
            users: CommandBus::new(database, user_services(clock.clone())),
            orders: CommandBus::new(database, order_services(clock.clone())),
            wallets: CommandBus::new(database, ()),
            clock,
        }
    }

    fn process(&self) -> LoanProcess {
        LoanProcess::new(
            &self.database,
            user_services(self.clock.clone()),
            order_services(self.clock.clone()),
            SqlSessions::on(&self.database),
        )
    }
}

/// The loan workflow of one process that may be killed once, at its failpoint, and
/// is then restarted (a fresh manager from the stored checkpoint).
struct Workflow<'a> {
    buses: &'a Buses,
    process: LoanProcess,
    crashed: bool,
    /// The api's partitions; when there are some, they run instead of `process`.
    partitions: Vec<LoanProcess>,
}

impl<'a> Workflow<'a> {
    fn new(buses: &'a Buses, crash_before_command: Option<usize>) -> Self {
        let process = match crash_before_command {
            Some(n) => buses.process().with_failpoint_before_command(n),
            None => buses.process(),
        };
        Self {
            buses,
            process,
            crashed: false,
            partitions: Vec::new(),
        }
    }

    /// The workflow as the api runs it: one manager per partition.
    async fn partitioned(buses: &'a Buses) -> Self {
        LoanProcess::ensure_partition_checkpoints(&buses.database)
            .await
            .unwrap();
        let partitions = (0..LOAN_PROCESS_PARTITIONS.len())
            .map(|index| buses.process().partition(index))
            .collect();
        Self {
            buses,
            process: buses.process(),
            crashed: false,
            partitions,
        }
    }

    /// Runs the workflow until it has handled the whole log, restarting it once if
    /// its failpoint fires.
    async fn pump(&mut self) {
        if !self.partitions.is_empty() {
            // Each partition in turn until none has anything left (a step of one may
            // append events another reacts to).
            loop {
                let mut handled = 0;
                for partition in &self.partitions {
                    handled += partition.catch_up().await.expect("a partition catches up");
                }
                if handled == 0 {
                    return;
                }
            }
        }
        if let Err(error) = self.process.catch_up().await {
            assert!(!self.crashed, "a restarted workflow failed: {error}");
            assert!(
                matches!(error, projections::ProjectionError::Failpoint(_)),
                "{error}"
            );
            self.crashed = true;
            self.process = self.buses.process();
            self.process
                .catch_up()
                .await
                .expect("the restarted workflow completes");
        }
    }
}

fn me(user_id: Uuid) -> HashMap<String, String> {
    Actor::User(user_id).metadata("test", None)
}

fn staff(auditor: Uuid) -> HashMap<String, String> {
    Actor::Auditor(auditor).metadata("test", None)
}

/// A borrower onboarded and identity-verified, ready to apply.
async fn verified_borrower(buses: &Buses) -> Uuid {
    let user_id = Uuid::now_v7();
    let uid = user_id.to_string();
    for command in onboarding(user_id) {
        buses
            .users
            .execute(&uid, command, me(user_id))
            .await
            .expect("onboarding step");
    }
    let auditor_id = Uuid::now_v7();
    buses
        .users
        .execute(
            &uid,
            UserCommand::VerifyIdentity { auditor_id },
            staff(auditor_id),
        )
        .await
        .expect("identity verified");
    user_id
}

fn apply(order_id: Uuid, app_id: i64) -> UserCommand {
    UserCommand::OpenApplication {
        order_id,
        app_id,
        amount: dec!(100000),
        period_days: 6,
        terms_version: "2026-11".into(),
        product_version: None,
    }
}

fn withdraw(payout_id: Uuid, amount: Decimal) -> UserCommand {
    UserCommand::RequestWithdrawal {
        order_id: None,
        payout_id,
        amount,
        pin: "246810".into(),
    }
}

/// Two auditors pass the order (four eyes).
async fn approve(buses: &Buses, order_id: Uuid) {
    let oid = order_id.to_string();
    let (a1, a2) = (Uuid::now_v7(), Uuid::now_v7());
    let reviews = [
        (a1, OrderCommand::StartReview { auditor_id: a1 }),
        (
            a1,
            OrderCommand::PassFirstAudit {
                auditor_id: a1,
                note: "ok".into(),
                identity_verified: true,
            },
        ),
        (
            a2,
            OrderCommand::PassFinalAudit {
                auditor_id: a2,
                note: "ok".into(),
            },
        ),
    ];
    for (auditor, review) in reviews {
        buses
            .orders
            .execute(&oid, review, staff(auditor))
            .await
            .expect("review step");
    }
}

/// A verified borrower's order of 100,000 applied for and approved, the workflow run
/// after each step: (user id, order id).
async fn approved_order(buses: &Buses, workflow: &mut Workflow<'_>) -> (Uuid, Uuid) {
    let user_id = verified_borrower(buses).await;
    let order_id = Uuid::now_v7();
    buses
        .users
        .execute(&user_id.to_string(), apply(order_id, 1), me(user_id))
        .await
        .unwrap();
    workflow.pump().await;
    approve(buses, order_id).await;
    workflow.pump().await;
    (user_id, order_id)
}

/// The borrower asks to withdraw 90,000 (PIN and all): the payout id. The loan
/// workflow has not run.
async fn ask_to_withdraw(buses: &Buses, user_id: Uuid) -> Uuid {
    let payout = Uuid::now_v7();
    buses
        .users
        .execute(
            &user_id.to_string(),
            withdraw(payout, dec!(90000)),
            me(user_id),
        )
        .await
        .unwrap();
    payout
}

/// [`approved_order`] with 90,000 of it drawn and paid out: (user id, order id).
async fn disbursed_order(buses: &Buses, workflow: &mut Workflow<'_>) -> (Uuid, Uuid) {
    let (user_id, order_id) = approved_order(buses, workflow).await;
    let payout = ask_to_withdraw(buses, user_id).await;
    workflow.pump().await;
    let succeeded = OrderCommand::RecordPayoutSucceeded { payout_id: payout };
    let system = Actor::System.metadata("test", None);
    buses
        .orders
        .execute(&order_id.to_string(), succeeded, system)
        .await
        .unwrap();
    workflow.pump().await;
    (user_id, order_id)
}

/// A payment page for `amount` opened by the borrower now, and `amount` recorded as
/// arrived on it at `arrived` (the webhook's time; the clock moves there). The loan
/// workflow has not run.
async fn paid_on_a_page(
    buses: &Buses,
    user_id: Uuid,
    order_id: Uuid,
    amount: Decimal,
    arrived: chrono::DateTime<chrono::Utc>,
    payment_ref: &str,
) {
    let session_id = Uuid::now_v7();
    let open = OrderCommand::OpenPaymentSession { session_id, amount };
    buses
        .orders
        .execute(&order_id.to_string(), open, me(user_id))
        .await
        .unwrap();
    buses.clock.set(arrived);
    let received = WalletCommand::RecordRecharge {
        payment_ref: payment_ref.into(),
        order_id,
        amount,
        session_id: Some(session_id),
        received_at: Some(arrived),
    };
    let system = Actor::System.metadata("test", None);
    buses
        .wallets
        .execute(&user_id.to_string(), received, system)
        .await
        .unwrap();
}

/// What a borrower's journey ended as, without ids and times.
async fn outcome(buses: &Buses, user_id: Uuid, orders: &[Uuid]) -> serde_json::Value {
    let user = buses.users.load(&user_id.to_string()).await.unwrap();
    let wallet = buses.wallets.load(&user_id.to_string()).await.unwrap();
    let mut order_states = Vec::new();
    for order_id in orders {
        let order = buses.orders.load(&order_id.to_string()).await.unwrap();
        order_states.push(json!({
            "exists": order.id.is_some(),
            "status": order.status.code(),
            "balance": order.balance,
            "inFlight": order.payout.is_some(),
            "resolvedPayouts": order.resolved_payouts.len(),
            "principal": order.loan.as_ref().map(|l| l.principal()),
        }));
    }
    json!({
        "openOrder": user.open_order.map(|o| orders.iter().position(|x| *x == o)),
        "withdrawalInFlight": user.withdrawal.is_some(),
        "repaying": user.repaying.is_some(),
        "lastRefusal": user.last_refusal.as_ref().map(|(_, r)| r.code.code()),
        "wallet": wallet.balance(),
        "orders": order_states,
    })
}

/// One borrower through every step the workflow takes: an application the Order
/// refuses (closed with its reason), an application it opens, approval (wallet
/// credited), a withdrawal above the balance (cancelled with the Order's reason), a
/// withdrawal whose payout fails (reversed, settled), and one that succeeds
/// (proceeds released, settled as repaying). The workflow runs after each outside
/// command, as the api's worker does, and may be killed once before its command
/// number `crash_before_command`. Returns the outcome and how many commands the
/// workflow sent.
async fn journey(buses: &Buses, crash_before_command: Option<usize>) -> serde_json::Value {
    journey_with(buses, Workflow::new(buses, crash_before_command)).await
}

async fn journey_with(buses: &Buses, mut workflow: Workflow<'_>) -> serde_json::Value {
    let user_id = verified_borrower(buses).await;
    let uid = user_id.to_string();
    let (refused, order_id) = (Uuid::now_v7(), Uuid::now_v7());
    let oid = order_id.to_string();

    // Product 2 is disabled: the Order refuses, the application closes again.
    buses
        .users
        .execute(&uid, apply(refused, 2), me(user_id))
        .await
        .unwrap();
    workflow.pump().await;
    buses
        .users
        .execute(&uid, apply(order_id, 1), me(user_id))
        .await
        .expect("the slot was released by the compensation");
    workflow.pump().await;
    approve(buses, order_id).await;
    workflow.pump().await;

    buses
        .users
        .execute(&uid, withdraw(Uuid::now_v7(), dec!(100000.01)), me(user_id))
        .await
        .unwrap();
    workflow.pump().await;

    let failing = Uuid::now_v7();
    buses
        .users
        .execute(&uid, withdraw(failing, dec!(90000)), me(user_id))
        .await
        .expect("the refused withdrawal is no longer in flight");
    workflow.pump().await;
    buses
        .orders
        .execute(
            &oid,
            OrderCommand::RecordPayoutFailed {
                payout_id: failing,
                reason: "connection to bank account failed".into(),
            },
            Actor::System.metadata("payout", None),
        )
        .await
        .expect("the payout was requested by the workflow");
    workflow.pump().await;

    let paid = Uuid::now_v7();
    buses
        .users
        .execute(&uid, withdraw(paid, dec!(90000)), me(user_id))
        .await
        .expect("the failed withdrawal was settled");
    workflow.pump().await;
    buses
        .orders
        .execute(
            &oid,
            OrderCommand::RecordPayoutSucceeded { payout_id: paid },
            Actor::System.metadata("payout", None),
        )
        .await
        .unwrap();
    workflow.pump().await;

    let end = outcome(buses, user_id, &[refused, order_id]).await;
    let sent = if workflow.crashed { "crashed" } else { "ran" };
    json!({ "end": end, "run": sent })
}

async fn the_loan_workflow_killed_before_any_command_ends_as_an_uninterrupted_run(db: &TestDb) {
    let buses = Buses::new(&db.database);
    let reference = journey(&buses, None).await;
    assert_eq!(reference["run"], "ran");
    // What an uninterrupted run gives, stated, so an equal wrong answer cannot pass.
    let end = &reference["end"];
    assert_eq!(end["openOrder"], json!(1));
    assert_eq!(end["withdrawalInFlight"], json!(false));
    assert_eq!(end["repaying"], json!(true));
    assert_eq!(
        end["lastRefusal"],
        json!(ErrorCode::InsufficientBalance.code())
    );
    assert_eq!(end["orders"][0]["exists"], json!(false));
    assert_eq!(end["orders"][1]["status"], json!(4));
    assert_eq!(end["orders"][1]["resolvedPayouts"], json!(2));
    assert_eq!(end["orders"][1]["principal"], json!("90000.00"));
    assert_eq!(end["wallet"], json!("0"));

    // The workflow sends 10 commands in this journey (close, open, credit, cancel,
    // request, withdraw, reverse + settle, request + withdraw, release + settle …);
    // a crash before each of them, and one past the end, all end the same way.
    let mut crashes = 0;
    for n in 0..=14 {
        let run = journey(&buses, Some(n)).await;
        assert_eq!(run["end"], reference["end"], "killed before command {n}");
        if run["run"] == "crashed" {
            crashes += 1;
        }
    }
    assert!(crashes >= 12, "the failpoint fired in {crashes} runs only");
}

async fn the_partitioned_loan_workflow_ends_as_the_single_one(db: &TestDb) {
    let buses = Buses::new(&db.database);
    let single = journey(&buses, None).await;
    let partitioned = journey_with(&buses, Workflow::partitioned(&buses).await).await;
    assert_eq!(partitioned["end"], single["end"]);
    assert_eq!(single["end"]["orders"][1]["status"], json!(4));
}

fn account(number: &str) -> BankAccount {
    BankAccount {
        bank_name: "BDO".into(),
        account_no: number.into(),
        holder_name: "Ana Santos".into(),
    }
}

async fn a_withdrawal_and_a_bank_change_sent_together_never_race_p3(db: &TestDb) {
    let buses = Buses::new(&db.database);
    let mut workflow = Workflow::new(&buses, None);
    let (user_id, order_id) = approved_order(&buses, &mut workflow).await;
    let (uid, oid) = (user_id.to_string(), order_id.to_string());

    // Every payout fails (the order stays withdrawable), so the race can be run again.
    let numbers = ["001234567890", "998877665544"];
    let mut changes_refused = 0;
    for round in 0..50 {
        let bind = UserCommand::BindBankCard {
            actor: Actor::User(user_id),
            bank_name: "BDO".into(),
            card_no: numbers[(round + 1) % 2].into(),
            sms_code_verified: true,
        };
        let payout_id = Uuid::now_v7();
        // Two tasks released together, as two requests on two connections; which
        // one reaches the store first alternates.
        let start = Arc::new(tokio::sync::Barrier::new(2));
        let send = |command: UserCommand, late: bool| {
            let bus = CommandBus::<User>::new(&buses.database, user_services(buses.clock.clone()));
            let (start, uid) = (start.clone(), uid.clone());
            tokio::spawn(async move {
                start.wait().await;
                if late {
                    tokio::task::yield_now().await;
                }
                let policy = projections::store::RetryPolicy {
                    max_retries: 20,
                    ..Default::default()
                };
                bus.execute_with_retry(&uid, || command.clone(), me(user_id), policy)
                    .await
            })
        };
        let withdrawn = send(withdraw(payout_id, dec!(100000)), round % 2 == 0);
        let bound = send(bind, round % 2 == 1);
        let (withdrawn, bound) = (withdrawn.await.unwrap(), bound.await.unwrap());
        withdrawn.expect("the withdrawal is taken");
        match bound {
            Ok(_) => {}
            Err(AggregateError::UserError(UserError::BankAccountChangeNotAllowed)) => {
                changes_refused += 1
            }
            Err(other) => panic!("round {round}: {other}"),
        }
        workflow.pump().await;
        buses
            .orders
            .execute(
                &oid,
                OrderCommand::RecordPayoutFailed {
                    payout_id,
                    reason: "connection to bank account failed".into(),
                },
                Actor::System.metadata("payout", None),
            )
            .await
            .expect("the payout was requested");
        workflow.pump().await;
    }

    // Walk the user's log: every withdrawal captured the account bound at that
    // moment, and no change landed while one was in flight.
    let user_events = events_of::<User>(&buses.database, &uid).await;
    let mut bound = Some(account(numbers[0]));
    let mut in_flight: Option<Uuid> = None;
    let mut captured: BTreeMap<Uuid, BankAccount> = BTreeMap::new();
    let mut mismatches = 0;
    for event in &user_events {
        match event {
            UserEvent::BankCardBound { account, .. } => {
                if in_flight.is_some() {
                    mismatches += 1;
                }
                bound = Some(account.clone());
            }
            UserEvent::WithdrawalRequested {
                payout_id, account, ..
            } => {
                if Some(account) != bound.as_ref() {
                    mismatches += 1;
                }
                in_flight = Some(*payout_id);
                captured.insert(*payout_id, account.clone());
            }
            UserEvent::WithdrawalSettled { .. } | UserEvent::WithdrawalCancelled { .. } => {
                in_flight = None
            }
            _ => {}
        }
    }
    // And every payout the Order requested went to the captured account.
    let mut payouts = 0;
    for event in events_of::<Order>(&buses.database, &oid).await {
        if let OrderEvent::PayoutRequested {
            payout_id, account, ..
        } = event
        {
            payouts += 1;
            if captured.get(&payout_id) != Some(&account) {
                mismatches += 1;
            }
        }
    }
    assert_eq!(mismatches, 0);
    // Both orders of arrival happened: changes before a withdrawal (the payout goes
    // to the new account) and changes during one (refused).
    assert!(
        changes_refused > 0 && changes_refused < 50,
        "{changes_refused}"
    );
    assert_eq!(payouts, 50);
    assert_eq!(captured.len(), 50);
    let order = buses.orders.load(&oid).await.unwrap();
    assert_eq!(order.status, OrderStatus::Approved);
    assert_eq!(order.balance, dec!(100000));
    eprintln!("P3 race: 50 rounds, {changes_refused} bank changes answered 110012, 0 mismatches");
}

/// An aggregate's events in sequence order, from the store.
async fn events_of<A: cqrs_es::Aggregate>(database: &Database, id: &str) -> Vec<A::Event> {
    let log = projections::store::EventLog::new(database);
    let mut events = Vec::new();
    let mut after = projections::store::LogPosition::default();
    loop {
        let page = log.read_after(after, 1000).await.expect("read the log");
        let Some(last) = page.last() else { break };
        after = last.position;
        for stored in page {
            if stored.aggregate_type == A::TYPE && stored.aggregate_id == id {
                events.push(stored.payload.decode().expect("decode"));
            }
        }
    }
    events
}

/// The workflow down while a payment arrives: the webhook recorded it at minute 20 of
/// its 30-minute page, the workflow takes it at minute 40. The Order judges it as of
/// its arrival, so it is applied, not refunded as "expired" (12.1, P1).
async fn a_payment_the_workflow_takes_after_its_page_expired_is_applied_as_of_its_arrival_p1(
    db: &TestDb,
) {
    let buses = Buses::new(&db.database);
    let mut workflow = Workflow::new(&buses, None);
    let (user_id, order_id) = disbursed_order(&buses, &mut workflow).await;
    let oid = order_id.to_string();

    let opened = buses.clock.now();
    let paid_at = opened + chrono::Duration::minutes(20);
    paid_on_a_page(
        &buses,
        user_id,
        order_id,
        dec!(5000),
        paid_at,
        "pay-late-workflow",
    )
    .await;
    // The workflow comes back ten minutes after the page expired.
    buses.clock.set(opened + chrono::Duration::minutes(40));
    workflow.pump().await;

    let order = buses.orders.load(&oid).await.unwrap();
    assert_eq!(order.loan.as_ref().map(|l| l.repaid), Some(dec!(5000)));
    let refunds: Vec<_> = events_of::<Order>(&buses.database, &oid)
        .await
        .into_iter()
        .filter(|e| matches!(e, OrderEvent::PaymentRefundDue { .. }))
        .collect();
    assert_eq!(refunds, vec![], "a payment made in time was refunded");
}

/// The workflow late across midnight: installment 1's amount arrived at 23:59:59 on its
/// due day, the scheduler marked the installment overdue at 00:00:01, and the workflow
/// takes the payment at 00:00:06. The order takes the mark back and applies the
/// payment as of its arrival: the installment is paid, never overdue (P11, 12.1).
async fn a_payment_the_workflow_takes_after_midnight_of_its_due_day_leaves_it_not_overdue_p11(
    db: &TestDb,
) {
    let buses = Buses::new(&db.database);
    let mut workflow = Workflow::new(&buses, None);
    let (user_id, order_id) = disbursed_order(&buses, &mut workflow).await;
    let oid = order_id.to_string();
    let system = || Actor::System.metadata("test", None);
    let order = buses.orders.load(&oid).await.unwrap();
    let first = order.loan.as_ref().unwrap().schedule[0].clone();

    // The loan's midnight: its days are the profile's local days (Manila here).
    let terms = &order.loan.as_ref().unwrap().terms;
    let arrived =
        terms.day_start(first.due_date.succ_opt().unwrap()) - chrono::Duration::seconds(1);
    buses.clock.set(arrived - chrono::Duration::seconds(5));
    let payment = "pay-before-midnight";
    paid_on_a_page(&buses, user_id, order_id, first.amount, arrived, payment).await;
    // The scheduler's pass after midnight, before the workflow.
    buses.clock.set(arrived + chrono::Duration::seconds(2));
    buses
        .orders
        .execute(&oid, OrderCommand::AccrueOverdue, system())
        .await
        .unwrap();
    let marked = buses.orders.load(&oid).await.unwrap();
    assert!(marked.loan.as_ref().unwrap().schedule[0].overdue);

    buses.clock.set(arrived + chrono::Duration::seconds(7));
    workflow.pump().await;
    let order = buses.orders.load(&oid).await.unwrap();
    let paid = &order.loan.as_ref().unwrap().schedule[0];
    assert_eq!(paid.paid, first.amount);
    assert!(!paid.overdue, "{paid:?}");
    assert_eq!(paid.fee, Decimal::ZERO);
    let reversed: Vec<_> = events_of::<Order>(&buses.database, &oid)
        .await
        .into_iter()
        .filter(|e| matches!(e, OrderEvent::OverdueReversed { .. }))
        .collect();
    assert_eq!(
        reversed,
        vec![OrderEvent::OverdueReversed {
            period: 1,
            from: None,
            through: None,
            amount: Decimal::ZERO,
            payment_ref: payment.into(),
            at: arrived,
            day_start: None,
        }]
    );
    // The cached fold and a full reload agree.
    assert_eq!(order, buses.orders.reload(&oid).await.unwrap());
}

/// The workflow down across the end of an offer: the borrower asked for the withdrawal
/// (PIN and all) a second before the end, and the workflow takes it five minutes
/// after. The order judges the offer as of the asking: the payout is requested, and
/// the scheduler, still within the grace, does not expire the offer (P2).
async fn a_withdrawal_asked_for_before_the_offer_ended_is_paid_out_when_the_workflow_takes_it_later_p2(
    db: &TestDb,
) {
    let buses = Buses::new(&db.database);
    let mut workflow = Workflow::new(&buses, None);
    let (user_id, order_id) = approved_order(&buses, &mut workflow).await;
    let oid = order_id.to_string();
    let end = buses
        .orders
        .load(&oid)
        .await
        .unwrap()
        .offer_expires_at
        .unwrap();
    buses.clock.set(end - chrono::Duration::seconds(1));
    let payout = ask_to_withdraw(&buses, user_id).await;
    buses.clock.set(end + chrono::Duration::minutes(5));
    let system = || Actor::System.metadata("test", None);
    let expire = buses
        .orders
        .execute(&oid, OrderCommand::ExpireOffer, system())
        .await;
    assert!(expire.is_err(), "expired within the grace");
    workflow.pump().await;

    let order = buses.orders.load(&oid).await.unwrap();
    assert_eq!(order.payout.as_ref().map(|p| p.payout_id), Some(payout));
    let user = buses.users.load(&user_id.to_string()).await.unwrap();
    assert!(user.withdrawal.is_some(), "the withdrawal was cancelled");
    assert_eq!(user.last_refusal, None);
}
