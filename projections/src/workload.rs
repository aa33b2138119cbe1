//! A generated workload: many borrowers taking loans to every status, produced by the
//! real domain (`handle` on in-memory aggregates, with the test doubles' fixed clock
//! and plain hasher) and appended to the event store in bulk. Used by the tests and
//! by `replay-tool seed` to check `verify` and `rebuild` at scale, and for benchmarks.
//!
//! The journeys follow the same order of steps as the api and the process managers
//! (approval credits the wallet, the payout withdraws it, a recharge repays the order
//! and applies the cash), so the result is a log the live system could have written.

use std::collections::HashMap;
use std::sync::Arc;

use aggregates::order::{Order, OrderCommand, OrderEvent, RepaymentSource};
use aggregates::services::doubles::{
    order_services, test_now, user_services, FixedClock, PRIVACY_NOTICE_VERSION,
};
use aggregates::services::{OrderServices, UserServices};
use aggregates::types::ImageRef;
use aggregates::user::{ProfileUpdate, User, UserCommand, UserEvent};
use aggregates::wallet::{Wallet, WalletCommand};
use aggregates::Actor;
use chrono::{DateTime, Days, NaiveDate, Utc};
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use rust_decimal::Decimal;
use uuid::Uuid;

use crate::projection::ProjectionError;
use crate::store::{Database, RECORDED_AT};

/// The statuses the generator cycles through, with a payout failure and an overdue
/// loan in between: every status of PRODUCT.md 4.3 appears.
const TARGETS: [Target; 13] = [
    Target::Submitted,
    Target::InFirstReview,
    Target::Resubmission,
    Target::AwaitingFinal,
    Target::Approved,
    Target::ApprovedAfterFailedPayout,
    Target::Repaying,
    Target::Overdue,
    Target::RefusedFirst,
    Target::RefusedFinal,
    Target::Repaid,
    Target::Cancelled,
    Target::Expired,
];

#[derive(Debug, Clone, Copy)]
enum Target {
    Submitted,
    InFirstReview,
    Resubmission,
    AwaitingFinal,
    Approved,
    ApprovedAfterFailedPayout,
    Repaying,
    Overdue,
    RefusedFirst,
    RefusedFinal,
    Repaid,
    Cancelled,
    Expired,
}

/// One event ready to append.
type Pending = crate::store::seed::SeedEvent;

struct Journey {
    clock: Arc<FixedClock>,
    users: UserServices,
    orders: OrderServices,
    sequences: HashMap<String, i64>,
    out: Vec<Pending>,
}

impl Journey {
    fn new() -> Self {
        let clock = Arc::new(FixedClock::at(test_now()));
        Self {
            users: user_services(clock.clone()),
            orders: order_services(clock.clone()),
            clock,
            sequences: HashMap::new(),
            out: Vec::new(),
        }
    }

    fn at(&self, day: u64) {
        self.clock.set(test_now() + Days::new(day));
    }

    fn now(&self) -> DateTime<Utc> {
        aggregates::services::Clock::now(self.clock.as_ref())
    }

    async fn run<A: Aggregate>(
        &mut self,
        id: &str,
        state: &mut A,
        services: &A::Services,
        command: A::Command,
        actor: Actor,
    ) -> Vec<A::Event> {
        let sink = EventSink::default();
        if let Err(error) = state.handle(command, services, &sink).await {
            panic!("workload step refused by the domain: {error}");
        }
        let events = sink.collect().await;
        let mut metadata = actor.metadata("workload", None);
        metadata.insert(
            RECORDED_AT.to_string(),
            crate::projection::time_text(self.now()),
        );
        let metadata = serde_json::to_value(&metadata).expect("metadata serializes");
        for event in &events {
            // User and Wallet share the user id: number each stream by type and id.
            let sequence = self
                .sequences
                .entry(format!("{}/{id}", A::TYPE))
                .or_insert(0);
            *sequence += 1;
            self.out.push(Pending {
                aggregate_type: A::TYPE,
                aggregate_id: id.to_string(),
                sequence: *sequence,
                event_type: event.event_type(),
                payload: serde_json::to_value(event).expect("events serialize"),
                metadata: metadata.clone(),
            });
        }
        events
    }

    async fn user(
        &mut self,
        id: &str,
        state: &mut User,
        command: UserCommand,
        actor: Actor,
    ) -> Vec<UserEvent> {
        let services = self.users.clone();
        self.run(id, state, &services, command, actor).await
    }

    async fn order(
        &mut self,
        id: &str,
        state: &mut Order,
        command: OrderCommand,
        actor: Actor,
    ) -> Vec<OrderEvent> {
        let services = self.orders.clone();
        self.run(id, state, &services, command, actor).await
    }

    async fn wallet(&mut self, id: &str, state: &mut Wallet, command: WalletCommand) {
        self.run(id, state, &(), command, Actor::System).await;
    }

    /// The order reached a terminal status: the user may apply again.
    async fn close_application(&mut self, uid: &str, user: &mut User, order_id: Uuid) {
        let close = UserCommand::CloseApplication {
            order_id,
            refusal: None,
        };
        self.user(uid, user, close, Actor::System).await;
    }

    /// A payout's result reaches the user (the loan workflow's step).
    async fn settle(
        &mut self,
        uid: &str,
        user: &mut User,
        order_id: Uuid,
        payout_id: Uuid,
        paid_out: bool,
    ) {
        let settle = UserCommand::SettleWithdrawal {
            order_id,
            payout_id,
            paid_out,
        };
        self.user(uid, user, settle, Actor::System).await;
    }

    /// Cancelled or expired: release the undrawn proceeds, close the application.
    async fn release_and_close(
        &mut self,
        uid: &str,
        user: &mut User,
        wallet: &mut Wallet,
        order_id: Uuid,
    ) {
        let release = WalletCommand::ReleaseProceeds { order_id };
        self.wallet(uid, wallet, release).await;
        self.close_application(uid, user, order_id).await;
    }
}

fn image(name: &str, user: Uuid) -> ImageRef {
    ImageRef {
        key: format!("{name}/{user}.png"),
        sha256: "ab".repeat(32),
    }
}

/// Appends one borrower's journey to `journey.out`.
async fn generate(journey: &mut Journey, index: usize, target: Target) {
    let user_id = Uuid::now_v7();
    let order_id = Uuid::now_v7();
    let (reviewer, approver) = (Uuid::from_u128(0xA1), Uuid::from_u128(0xA2));
    let (uid, oid) = (user_id.to_string(), order_id.to_string());
    let me = Actor::User(user_id);
    let mut user = User::default();
    let mut order = Order::default();
    let mut wallet = Wallet::default();
    journey.at(0);
    let onboarding = vec![
        UserCommand::Register {
            user_id,
            mobile: format!("09{:09}", index % 1_000_000_000),
            password: "secret-pass".into(),
            invite_code: Some("WELCOME".into()),
            channel: Some("workload".into()),
            privacy_notice_version: Some(PRIVACY_NOTICE_VERSION.into()),
            privacy_notice_language: Some("en".into()),
        },
        UserCommand::SubmitIdentity {
            front: image("front", user_id),
            back: image("back", user_id),
            hand_hold: image("hand", user_id),
        },
        UserCommand::UpdateProfile(ProfileUpdate {
            real_name: Some(format!("Borrower {index}")),
            identity: Some(format!("{:012}", index)),
            sex: Some(1 + (index % 2) as u8),
            birthday: NaiveDate::from_ymd_opt(1990, 1 + (index % 12) as u32, 1),
            marriage: Some("single".into()),
            email: Some(format!("b{index}@example.ph")),
            facebook: None,
            education: Some("college".into()),
            province_city: Some("National Capital Region (NCR),,Quezon City".into()),
            address: Some(format!("{index} Mabini St")),
        }),
        UserCommand::BindBankCard {
            actor: me,
            bank_name: "BDO".into(),
            card_no: format!("{:012}", 100_000_000 + index),
            sms_code_verified: false,
        },
        UserCommand::UploadSignature {
            image: image("signature", user_id),
        },
        UserCommand::SetWithdrawPin {
            actor: me,
            pin: "246810".into(),
            sms_code_verified: false,
        },
    ];
    for command in onboarding {
        journey.user(&uid, &mut user, command, me).await;
    }
    journey
        .user(
            &uid,
            &mut user,
            UserCommand::VerifyIdentity {
                auditor_id: reviewer,
            },
            Actor::Auditor(reviewer),
        )
        .await;
    let amount = Decimal::from(100_000 + 10_000 * (index % 20) as i64);
    let period_days = [6, 12, 18, 24][index % 4];
    let open = UserCommand::OpenApplication {
        order_id,
        app_id: 1,
        amount,
        period_days,
        terms_version: "2026-11".into(),
        product_version: None,
    };
    journey.user(&uid, &mut user, open, me).await;
    let apply = OrderCommand::ApplyForLoan {
        order_id,
        user_id,
        app_id: 1,
        amount,
        period_days,
        signature: user.signature.clone(),
        applicant_name: format!("Borrower {index}"),
        terms_version: "2026-11".into(),
        monthly_income: Some(Decimal::from(1_000_000)),
        product_version: None,
    };
    journey.order(&oid, &mut order, apply, me).await;
    if matches!(target, Target::Submitted) {
        return;
    }
    if matches!(target, Target::Cancelled) && index.is_multiple_of(2) {
        journey
            .order(&oid, &mut order, OrderCommand::Cancel, me)
            .await;
        journey.close_application(&uid, &mut user, order_id).await;
        return;
    }
    let staff = |id| Actor::Auditor(id);
    journey
        .order(
            &oid,
            &mut order,
            OrderCommand::StartReview {
                auditor_id: reviewer,
            },
            staff(reviewer),
        )
        .await;
    match target {
        Target::InFirstReview => return,
        Target::Resubmission => {
            let request = OrderCommand::RequestResubmission {
                auditor_id: reviewer,
                reason: "ID photo is blurred".into(),
                items: vec![aggregates::types::ResubmissionItem::Photos],
            };
            journey
                .order(&oid, &mut order, request, staff(reviewer))
                .await;
            return;
        }
        Target::RefusedFirst => {
            let refuse = OrderCommand::Refuse {
                auditor_id: reviewer,
                reason: "income could not be confirmed".into(),
                reasons: vec![],
            };
            journey
                .order(&oid, &mut order, refuse, staff(reviewer))
                .await;
            journey.close_application(&uid, &mut user, order_id).await;
            return;
        }
        _ => {}
    }
    let pass_first = OrderCommand::PassFirstAudit {
        auditor_id: reviewer,
        note: "documents in order".into(),
        identity_verified: true,
    };
    journey
        .order(&oid, &mut order, pass_first, staff(reviewer))
        .await;
    match target {
        Target::AwaitingFinal => return,
        Target::RefusedFinal => {
            let refuse = OrderCommand::Refuse {
                auditor_id: approver,
                reason: "debt ratio too high".into(),
                reasons: vec![],
            };
            journey
                .order(&oid, &mut order, refuse, staff(approver))
                .await;
            journey.close_application(&uid, &mut user, order_id).await;
            return;
        }
        _ => {}
    }
    let pass_final = OrderCommand::PassFinalAudit {
        auditor_id: approver,
        note: "approved".into(),
    };
    journey
        .order(&oid, &mut order, pass_final, staff(approver))
        .await;
    journey
        .wallet(
            &uid,
            &mut wallet,
            WalletCommand::CreditLoanProceeds { order_id, amount },
        )
        .await;
    match target {
        Target::Approved => return,
        Target::Cancelled => {
            journey
                .order(&oid, &mut order, OrderCommand::Cancel, me)
                .await;
            journey
                .release_and_close(&uid, &mut user, &mut wallet, order_id)
                .await;
            return;
        }
        Target::Expired => {
            journey.at(8);
            journey
                .order(&oid, &mut order, OrderCommand::ExpireOffer, Actor::System)
                .await;
            journey
                .release_and_close(&uid, &mut user, &mut wallet, order_id)
                .await;
            return;
        }
        _ => {}
    }
    // Withdraw: the first payout fails for some, then succeeds (P3).
    let drawn = amount - Decimal::from(10_000 * (index % 3) as i64);
    journey.at(1);
    let attempts = if matches!(target, Target::ApprovedAfterFailedPayout) {
        1
    } else {
        2
    };
    for attempt in 0..attempts {
        let payout_id = Uuid::now_v7();
        let verified = journey
            .user(
                &uid,
                &mut user,
                UserCommand::RequestWithdrawal {
                    order_id: Some(order_id),
                    payout_id,
                    amount: drawn,
                    pin: "246810".into(),
                },
                me,
            )
            .await;
        let Some(UserEvent::WithdrawalRequested { account, .. }) = verified.into_iter().next()
        else {
            panic!("PIN should verify");
        };
        let request = OrderCommand::RequestPayout {
            payout_id,
            amount: drawn,
            account,
            requested_at: None,
        };
        journey.order(&oid, &mut order, request, me).await;
        journey
            .wallet(
                &uid,
                &mut wallet,
                WalletCommand::Withdraw {
                    order_id,
                    payout_id,
                    amount: drawn,
                },
            )
            .await;
        let fail_first =
            index.is_multiple_of(5) || matches!(target, Target::ApprovedAfterFailedPayout);
        if attempt == 0 && fail_first {
            let failed = OrderCommand::RecordPayoutFailed {
                payout_id,
                reason: "connection to bank account failed".into(),
            };
            journey.order(&oid, &mut order, failed, Actor::System).await;
            journey
                .wallet(
                    &uid,
                    &mut wallet,
                    WalletCommand::ReverseWithdrawal {
                        payout_id,
                        reason: "connection to bank account failed".into(),
                    },
                )
                .await;
            journey
                .settle(&uid, &mut user, order_id, payout_id, false)
                .await;
            continue;
        }
        journey
            .order(
                &oid,
                &mut order,
                OrderCommand::RecordPayoutSucceeded { payout_id },
                Actor::System,
            )
            .await;
        journey
            .wallet(
                &uid,
                &mut wallet,
                WalletCommand::ReleaseProceeds { order_id },
            )
            .await;
        journey
            .settle(&uid, &mut user, order_id, payout_id, true)
            .await;
        break;
    }
    if matches!(target, Target::ApprovedAfterFailedPayout) {
        return;
    }
    // Repay: one installment-sized payment, then (for Repaid) the payoff in steps.
    journey.at(if matches!(target, Target::Overdue) {
        40
    } else {
        3
    });
    let mut payments = 0;
    let mut pay = |journey_amount: Decimal| {
        payments += 1;
        (format!("pay-{oid}-{payments}"), journey_amount)
    };
    if matches!(target, Target::Overdue) {
        journey
            .order(&oid, &mut order, OrderCommand::AccrueOverdue, Actor::System)
            .await;
    }
    let first = pay(Decimal::from(5_000));
    let mut schedule = vec![first];
    if matches!(target, Target::Repaid) {
        loop {
            let owed = order
                .loan
                .as_ref()
                .map(|l| l.payoff(order.day_of(journey.now())).amount)
                .unwrap_or_default()
                - schedule.iter().map(|(_, a)| *a).sum::<Decimal>();
            if owed <= Decimal::ZERO {
                break;
            }
            schedule.push(pay(owed.min(Decimal::from(20_000))));
        }
    }
    for (payment_ref, amount) in schedule {
        // Each payment on a page of its own (12.1), as the api opens them.
        let session_id = Uuid::now_v7();
        let open = OrderCommand::OpenPaymentSession { session_id, amount };
        journey.order(&oid, &mut order, open, me).await;
        journey
            .wallet(
                &uid,
                &mut wallet,
                WalletCommand::RecordRecharge {
                    payment_ref: payment_ref.clone(),
                    order_id,
                    amount,
                    session_id: Some(session_id),
                    received_at: None,
                },
            )
            .await;
        let receive = OrderCommand::ReceiveRepayment {
            payment_ref: payment_ref.clone(),
            amount,
            source: RepaymentSource::Recharge,
            session_id: Some(session_id),
            received_at: None,
        };
        let events = journey
            .order(&oid, &mut order, receive, Actor::System)
            .await;
        journey
            .wallet(
                &uid,
                &mut wallet,
                WalletCommand::ApplyRepayment {
                    payment_ref,
                    order_id,
                    amount,
                },
            )
            .await;
        if events
            .iter()
            .any(|e| matches!(e, OrderEvent::LoanRepaid { .. }))
        {
            journey.close_application(&uid, &mut user, order_id).await;
        }
    }
}

/// What `seed` appended.
#[derive(Debug, Clone, Copy)]
pub struct SeedReport {
    /// Orders (one per borrower).
    pub orders: usize,
    /// Events appended.
    pub events: usize,
}

/// Appends `orders` generated journeys (one borrower each) to the store.
pub async fn seed(database: &Database, orders: usize) -> Result<SeedReport, ProjectionError> {
    let mut events = 0;
    let chunk = 250;
    let mut start = 0;
    while start < orders {
        let mut journey = Journey::new();
        for index in start..(start + chunk).min(orders) {
            journey.sequences.clear();
            generate(&mut journey, index, TARGETS[index % TARGETS.len()]).await;
        }
        events += journey.out.len();
        crate::store::seed::insert(database, &journey.out).await?;
        start += chunk;
    }
    Ok(SeedReport { orders, events })
}
