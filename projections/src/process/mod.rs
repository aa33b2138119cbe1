//! Process managers: the cross-aggregate steps of DESIGN.md, driven by the log.
//!
//! | Event | Step |
//! |---|---|
//! | `ApplicationOpened` (user) | open the order; if the Order refuses, close the application with its reason (compensation) |
//! | `WithdrawalRequested` (user) | request the payout on the order, to the account the User captured (P3); if the Order refuses, cancel the withdrawal with its reason (compensation) |
//! | `FinalAuditPassed` | credit the proceeds to the borrower's wallet |
//! | `PayoutRequested` | withdraw them from the wallet |
//! | `PayoutSucceeded` | release the undrawn remainder; settle the user's withdrawal (the account stays fixed while repaying) |
//! | `PayoutFailed` | reverse the withdrawal (P3); settle the user's withdrawal (the account can be fixed) |
//! | `LoanCancelled`, `OfferExpired` | release the proceeds; close the application |
//! | `LoanRefused`, `LoanRepaid` | close the application |
//! | `Recharged` (wallet) | hand the payment to the order, which applies what its session allows and is owed today (P1) |
//! | `PaymentRefundDue` | refund the rest from the wallet to the bound account (12.1) |
//! | `RepaymentReceived` (recharge) | apply the wallet cash it used |
//! | `RefundFailed` (wallet), `BankCardBound` (user) | send each refund the bank returned again, to the bound account if it is not the one that returned it (12.1) |
//! | `ResubmissionRequested` | open the requested items on the user (12.4) |
//! | `Resubmitted` | close them again |
//! | `PasswordReset` (user) | revoke every session issued before it (12.3) |
//! | `PasswordChanged` (user) | revoke every session issued before it but the one it was changed from (12.3) |
//!
//! One file a concern: `application` (the order opened, closed, and its resubmission),
//! `payout` (proceeds, payout and its result), `repayment` (payments applied, refunds
//! sent and sent again); `commands` sends the steps' commands and counts them for the
//! crash tests. This file routes each event to its step.
//!
//! The sessions are the api's (its `auth_token` table): the manager revokes them
//! through the [`SessionRevoker`] it is given, and holds no SQL of the api's tables.
//!
//! Guarantees: every step is idempotent on its source's identity (order id, payout id,
//! payment reference), which the target aggregate remembers; the checkpoint moves
//! only after an event's steps are committed. So a retry, a crash before the
//! checkpoint, or a second process running the same manager never applies a step
//! twice — it finds the step already done and writes nothing. The crash tests
//! (`projections/tests/store/workflow.rs`) stop the manager before each of its
//! commands in turn ([`LoanProcess::with_failpoint_before_command`]), restart it, and
//! compare the end state with an uncrashed run.

use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

use aggregates::order::{Order, OrderEvent, RepaymentSource};
use aggregates::services::{OrderServices, UserServices};
use aggregates::user::{User, UserEvent};
use aggregates::wallet::{Wallet, WalletEvent};
use cqrs_es::Aggregate;
use uuid::Uuid;

use crate::projection::{decode, ProjectionError};
use crate::store::{CommandBus, Database, StoredEvent};

mod application;
mod commands;
mod payout;
mod repayment;

/// Checkpoint name of the loan process manager run as one consumer (tests,
/// `replay-tool`), and the checkpoint its partitions start from.
pub const LOAN_PROCESS: &str = "process:loan";

/// The partitions the api runs the loan process manager in, each with its own
/// checkpoint, reacting to the events of the aggregates whose id hashes to it. A
/// borrower's steps never wait for another borrower's: each step depends only on
/// state its target aggregate already committed, and the events of one aggregate
/// stay in one partition, in log order.
pub const LOAN_PROCESS_PARTITIONS: [&str; 4] = [
    "process:loan:0",
    "process:loan:1",
    "process:loan:2",
    "process:loan:3",
];

/// The event types the loan process reacts to; every other event is passed over
/// without decoding it.
const REACTS_TO: [&str; 19] = [
    "ApplicationOpened",
    "WithdrawalRequested",
    "FinalAuditPassed",
    "PayoutRequested",
    "PayoutSucceeded",
    "PayoutFailed",
    "LoanCancelled",
    "OfferExpired",
    "LoanRefused",
    "LoanRepaid",
    "RepaymentReceived",
    "PaymentRefundDue",
    "Recharged",
    "RefundFailed",
    "BankCardBound",
    "ResubmissionRequested",
    "Resubmitted",
    "PasswordReset",
    "PasswordChanged",
];

/// Creates partition `name`'s checkpoint where [`LOAN_PROCESS`] stands, or at the
/// start of the log.
async fn ensure_partition_checkpoint(
    database: &Database,
    name: &str,
) -> Result<(), ProjectionError> {
    crate::rows::checkpoints::copy_checkpoint(database, name, LOAN_PROCESS).await?;
    crate::consumer::runner::ensure_checkpoint(database, name).await
}

/// A stable partition of an aggregate id (FNV-1a): the same in every process and
/// every release.
fn partition_of(aggregate_id: &str, count: usize) -> usize {
    let hash = aggregate_id
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        });
    (hash % count as u64) as usize
}

/// The command buses of one process, one per aggregate type. The api's handlers and
/// its workflows share them, so each aggregate is cached once per process and their
/// commands on one aggregate take turns instead of racing (ADR 0016).
#[derive(Clone)]
pub struct CommandBuses {
    /// Borrowers.
    pub users: Arc<CommandBus<User>>,
    /// Loan orders.
    pub orders: Arc<CommandBus<Order>>,
    /// Borrowers' wallets.
    pub wallets: Arc<CommandBus<Wallet>>,
}

impl CommandBuses {
    /// New buses (empty caches) writing to `database` with these services.
    pub fn new(database: &Database, users: UserServices, orders: OrderServices) -> Self {
        Self {
            users: Arc::new(CommandBus::new(database, users)),
            orders: Arc::new(CommandBus::new(database, orders)),
            wallets: Arc::new(CommandBus::new(database, ())),
        }
    }
}

/// Revokes a borrower's sessions for the loan process (a password reset or change,
/// PRODUCT.md 12.3). The sessions are the api's, so the api implements it
/// (`api::db::sessions::Revoker`) and hands it to [`LoanProcess::new`].
#[async_trait::async_trait]
pub trait SessionRevoker: Send + Sync {
    /// Revokes the borrower sessions of `subject` issued at or before `at`, but
    /// `except_session` (a session id: the first 16 hex digits of its token's
    /// SHA-256), the one a change was made from. Idempotent: a revoked session stays
    /// revoked with its first time.
    async fn revoke_issued_before(
        &self,
        subject: Uuid,
        at: chrono::DateTime<chrono::Utc>,
        except_session: Option<&str>,
    ) -> Result<(), ProjectionError>;
}

/// The loan process manager.
pub struct LoanProcess {
    database: Database,
    sessions: Arc<dyn SessionRevoker>,
    users: Arc<CommandBus<User>>,
    orders: Arc<CommandBus<Order>>,
    wallets: Arc<CommandBus<Wallet>>,
    /// Crash tests: the manager stops (returns an error, as if the process died)
    /// before sending its command number `n` (0-based), counted from its start.
    crash_before: Option<usize>,
    /// Commands sent so far (for `crash_before`).
    sent: AtomicUsize,
    /// Which partition of [`LOAN_PROCESS_PARTITIONS`] this manager runs; `None`: all
    /// events, under [`LOAN_PROCESS`].
    partition: Option<usize>,
}

impl LoanProcess {
    /// A manager sending commands with these services, on buses of its own (as in a
    /// process of its own), and revoking sessions through `sessions`.
    pub fn new(
        database: &Database,
        users: UserServices,
        orders: OrderServices,
        sessions: Arc<dyn SessionRevoker>,
    ) -> Self {
        Self::sharing(
            database,
            CommandBuses::new(database, users, orders),
            sessions,
        )
    }

    /// A manager sending its commands through `buses`, shared with the rest of the
    /// process, and revoking sessions through `sessions`.
    pub fn sharing(
        database: &Database,
        buses: CommandBuses,
        sessions: Arc<dyn SessionRevoker>,
    ) -> Self {
        Self {
            database: database.clone(),
            sessions,
            users: buses.users,
            orders: buses.orders,
            wallets: buses.wallets,
            crash_before: None,
            sent: AtomicUsize::new(0),
            partition: None,
        }
    }

    /// The manager of partition `index` of [`LOAN_PROCESS_PARTITIONS`].
    pub fn partition(mut self, index: usize) -> Self {
        self.partition = Some(index % LOAN_PROCESS_PARTITIONS.len());
        self
    }

    /// Creates the checkpoints of the partitions where [`LOAN_PROCESS`] stands (so a
    /// store that ran the single manager does not react to its whole log again), or
    /// at the start of the log.
    pub async fn ensure_partition_checkpoints(database: &Database) -> Result<(), ProjectionError> {
        for name in LOAN_PROCESS_PARTITIONS {
            ensure_partition_checkpoint(database, name).await?;
        }
        Ok(())
    }

    /// For crash tests: this manager fails, as a killed process would, just before
    /// sending its command number `step` (0-based, counted from its creation); what
    /// it committed before stays, its checkpoint does not move past the event.
    pub fn with_failpoint_before_command(mut self, step: usize) -> Self {
        self.crash_before = Some(step);
        self
    }

    /// True for the events this process (partition) takes a step on.
    pub fn reacts_to(&self, event: &StoredEvent) -> bool {
        REACTS_TO.contains(&event.event_type.as_str())
            && self.partition.is_none_or(|index| {
                partition_of(&event.aggregate_id, LOAN_PROCESS_PARTITIONS.len()) == index
            })
    }

    /// The steps one event calls for.
    pub async fn react(&self, event: &StoredEvent) -> Result<(), ProjectionError> {
        if !self.reacts_to(event) {
            return Ok(());
        }
        if event.aggregate_type == Order::TYPE {
            let payload = decode::<OrderEvent>(event)?;
            self.react_to_order(event, payload.into_owned()).await
        } else if event.aggregate_type == Wallet::TYPE {
            let payload = decode::<WalletEvent>(event)?;
            self.react_to_wallet(event, payload.into_owned()).await
        } else if event.aggregate_type == User::TYPE {
            let payload = decode::<UserEvent>(event)?;
            self.react_to_user(event, payload.into_owned()).await
        } else {
            Ok(())
        }
    }

    /// A User event's step: open the order of an application, request the payout of a
    /// withdrawal (each compensated on the user when the Order refuses), send returned
    /// refunds to a newly bound account, revoke sessions after a password change.
    async fn react_to_user(
        &self,
        event: &StoredEvent,
        payload: UserEvent,
    ) -> Result<(), ProjectionError> {
        let user_id: Uuid = event
            .aggregate_id
            .parse()
            .map_err(|_| ProjectionError::Load(format!("user id {}", event.aggregate_id)))?;
        match payload {
            UserEvent::ApplicationOpened {
                order_id,
                application: Some(application),
                ..
            } => self.open_order(user_id, order_id, application, event).await,
            UserEvent::WithdrawalRequested {
                order_id,
                payout_id,
                amount,
                account,
                at,
            } => {
                let withdrawal = payout::Withdrawal {
                    order_id,
                    payout_id,
                    amount,
                    account,
                    at,
                };
                self.request_payout(user_id, withdrawal, event).await
            }
            UserEvent::BankCardBound { .. } => self.resend_returned_refunds(user_id, event).await,
            UserEvent::PasswordReset { at, .. } => self.revoke_sessions(user_id, at, None).await,
            // A change recorded before changes signed other sessions out names no
            // session: it signs nobody out now either (a replay must not sign a
            // borrower out of the device the password was changed on).
            UserEvent::PasswordChanged {
                at,
                kept_session: Some(kept),
                ..
            } => self.revoke_sessions(user_id, at, Some(&kept)).await,
            _ => Ok(()),
        }
    }

    /// An Order event's step, on the order's wallet or user.
    async fn react_to_order(
        &self,
        event: &StoredEvent,
        payload: OrderEvent,
    ) -> Result<(), ProjectionError> {
        let order = self.load_order(&event.aggregate_id).await?;
        let (Some(order_id), user_id) = (order.id, order.user_id) else {
            return Ok(());
        };
        let loan = LoanRef { user_id, order_id };
        match payload {
            OrderEvent::FinalAuditPassed {
                approved_amount, ..
            } => self.credit_proceeds(loan, approved_amount, event).await,
            OrderEvent::PayoutRequested {
                payout_id, amount, ..
            } => self.withdraw(loan, payout_id, amount, event).await,
            OrderEvent::PayoutSucceeded { payout_id, .. } => {
                self.payout_succeeded(loan, payout_id, event).await
            }
            OrderEvent::PayoutFailed {
                payout_id, reason, ..
            } => self.payout_failed(loan, payout_id, reason, event).await,
            OrderEvent::LoanCancelled { .. } | OrderEvent::OfferExpired { .. } => {
                self.release_and_close(loan, event).await
            }
            OrderEvent::LoanRefused { .. } | OrderEvent::LoanRepaid { .. } => {
                self.close_application(loan, event).await
            }
            OrderEvent::ResubmissionRequested { items, .. } => {
                self.open_resubmission(loan, items, event).await
            }
            OrderEvent::Resubmitted { .. } => self.close_resubmission(loan, event).await,
            OrderEvent::PaymentRefundDue {
                payment_ref,
                amount,
                ..
            } => self.refund(loan, payment_ref, amount, event).await,
            OrderEvent::RepaymentReceived {
                payment_ref,
                amount,
                source: RepaymentSource::Recharge,
                ..
            } => {
                self.apply_wallet_cash(loan, payment_ref, amount, event)
                    .await
            }
            _ => Ok(()),
        }
    }

    /// A Wallet event's step: hand a payment to its order, send a returned refund again.
    async fn react_to_wallet(
        &self,
        event: &StoredEvent,
        payload: WalletEvent,
    ) -> Result<(), ProjectionError> {
        match payload {
            WalletEvent::RefundFailed { .. } => {
                let user_id = event.aggregate_id.parse().map_err(|_| {
                    ProjectionError::Load(format!("wallet id {}", event.aggregate_id))
                })?;
                self.resend_returned_refunds(user_id, event).await
            }
            WalletEvent::Recharged {
                payment_ref,
                order_id,
                amount,
                session_id,
                received_at,
            } => {
                let payment = repayment::Payment {
                    payment_ref,
                    order_id,
                    amount,
                    session_id,
                    received_at,
                };
                self.hand_to_order(payment, event).await
            }
            _ => Ok(()),
        }
    }

    /// Reacts to the next batch of events, then moves the checkpoint past the batch
    /// ([`crate::consumer::workflow_step`]). Returns the number of events handled.
    pub async fn step(&self) -> Result<usize, ProjectionError> {
        crate::consumer::workflow_step(self).await
    }

    /// Steps until caught up ([`crate::consumer::workflow_catch_up`]); returns the
    /// number of events handled.
    pub async fn catch_up(&self) -> Result<usize, ProjectionError> {
        crate::consumer::workflow_catch_up(self).await
    }
}

/// The borrower and order an Order event's step acts for.
#[derive(Debug, Clone, Copy)]
struct LoanRef {
    user_id: Uuid,
    order_id: Uuid,
}

#[async_trait::async_trait]
impl crate::consumer::Workflow for LoanProcess {
    fn name(&self) -> &'static str {
        match self.partition {
            Some(index) => LOAN_PROCESS_PARTITIONS[index],
            None => LOAN_PROCESS,
        }
    }

    fn database(&self) -> &Database {
        &self.database
    }

    fn reacts_to(&self, event: &StoredEvent) -> bool {
        LoanProcess::reacts_to(self, event)
    }

    async fn ensure(&self) -> Result<(), ProjectionError> {
        match self.partition {
            Some(_) => ensure_partition_checkpoint(&self.database, self.name()).await,
            None => crate::consumer::runner::ensure_checkpoint(&self.database, LOAN_PROCESS).await,
        }
    }

    #[tracing::instrument(name = "loan_process", skip_all, fields(
        event = %event.event_type,
        aggregate = %event.aggregate_id,
        request_id = %event.request_id(),
    ))]
    async fn react(&self, event: &StoredEvent) -> Result<(), ProjectionError> {
        LoanProcess::react(self, event).await
    }
}
