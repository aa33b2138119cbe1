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

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use aggregates::codes::StepRefusal;
use aggregates::order::{Order, OrderCommand, OrderEvent, RepaymentSource};
use aggregates::services::{OrderServices, UserServices};
use aggregates::types::BankAccount;
use aggregates::user::{User, UserCommand, UserEvent};
use aggregates::wallet::{Wallet, WalletCommand, WalletEvent};
use aggregates::Actor;
use cqrs_es::{Aggregate, AggregateError};
use rust_decimal::Decimal;
use uuid::Uuid;

use crate::projection::{decode, ProjectionError};
use crate::store::{CommandBus, Database, RetryPolicy, StoredEvent};

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

/// A stable partition of an aggregate id (FNV-1a): the same in every process and
/// every release.
/// Creates partition `name`'s checkpoint where [`LOAN_PROCESS`] stands, or at the
/// start of the log.
async fn ensure_partition_checkpoint(
    database: &Database,
    name: &str,
) -> Result<(), ProjectionError> {
    let from_single = "insert into projection_checkpoint \
         (name, transaction_id, global_position, updated_at) \
         select $1, transaction_id, global_position, updated_at \
         from projection_checkpoint where name = $2 on conflict (name) do nothing";
    let mut tx = crate::runner::begin(database).await?;
    tx.execute(from_single, &[name.into(), LOAN_PROCESS.into()])
        .await?;
    tx.commit().await?;
    crate::runner::ensure_checkpoint(database, name).await
}

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

/// A command the manager sent was refused by the domain: the step is skipped and
/// logged (retrying a refusal cannot succeed); infrastructure errors are retried.
fn refused<E: std::error::Error>(error: AggregateError<E>) -> Result<(), ProjectionError> {
    match error {
        AggregateError::UserError(refusal) => {
            tracing::warn!(%refusal, "process step refused by the domain; skipped");
            Ok(())
        }
        other => Err(ProjectionError::Load(other.to_string())),
    }
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

    /// Counts a command about to be sent; the simulated crash of `with_failpoint_before_command`.
    fn failpoint(&self) -> Result<(), ProjectionError> {
        let step = self.sent.fetch_add(1, Ordering::SeqCst);
        match self.crash_before {
            Some(crash) if step >= crash => {
                Err(ProjectionError::Failpoint("before a workflow command"))
            }
            _ => Ok(()),
        }
    }

    fn metadata(cause: &StoredEvent) -> HashMap<String, String> {
        let mut metadata = Actor::System.metadata(&format!("process:{}", cause.position), None);
        metadata.insert(
            "caused_by".to_string(),
            format!(
                "{}/{}/{}",
                cause.aggregate_type, cause.aggregate_id, cause.sequence
            ),
        );
        metadata
    }

    /// Metadata of a step taken on behalf of the person whose command caused it (the
    /// borrower's apply or withdrawal): their actor, request id and idempotency key,
    /// plus `caused_by`, so the order's history names who acted.
    fn on_behalf_of(cause: &StoredEvent) -> HashMap<String, String> {
        let mut metadata = Self::metadata(cause);
        for key in ["actor", "request_id", "idempotency_key"] {
            if let Some(value) = cause.metadata.get(key) {
                metadata.insert(key.to_string(), value.into_owned());
            }
        }
        metadata
    }

    async fn wallet(
        &self,
        user_id: Uuid,
        command: WalletCommand,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        self.failpoint()?;
        let result = self
            .wallets
            .execute_with_retry(
                &user_id.to_string(),
                || command.clone(),
                Self::metadata(cause),
                RetryPolicy::default(),
            )
            .await;
        result.map(drop).or_else(refused)
    }

    async fn close_application(
        &self,
        user_id: Uuid,
        order_id: Uuid,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let command = UserCommand::CloseApplication {
            order_id,
            refusal: None,
        };
        self.user(user_id, command, cause).await
    }

    async fn user(
        &self,
        user_id: Uuid,
        command: UserCommand,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        self.failpoint()?;
        let result = self
            .users
            .execute_with_retry(
                &user_id.to_string(),
                || command.clone(),
                Self::metadata(cause),
                RetryPolicy::default(),
            )
            .await;
        result.map(drop).or_else(refused)
    }

    /// Sends `command` to the order on behalf of the cause's actor; a domain refusal
    /// is returned as `Ok(Some(..))` for the caller to compensate, infrastructure
    /// errors as `Err` (retried).
    async fn order_step(
        &self,
        order_id: Uuid,
        command: OrderCommand,
        cause: &StoredEvent,
    ) -> Result<Option<StepRefusal>, ProjectionError> {
        self.failpoint()?;
        let result = self
            .orders
            .execute_with_retry(
                &order_id.to_string(),
                || command.clone(),
                Self::on_behalf_of(cause),
                RetryPolicy::default(),
            )
            .await;
        match result {
            Ok(_) => Ok(None),
            Err(AggregateError::UserError(refusal)) => {
                Ok(Some(StepRefusal::new(refusal.code(), refusal.to_string())))
            }
            Err(other) => Err(ProjectionError::Load(other.to_string())),
        }
    }

    /// The user's workflow steps: open the order of an application, request the
    /// payout of a withdrawal; each compensated on the user when the Order refuses.
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
            } => {
                let command = OrderCommand::ApplyForLoan {
                    order_id,
                    user_id,
                    app_id: application.app_id,
                    amount: application.amount,
                    period_days: application.period_days,
                    signature: Some(application.signature),
                    applicant_name: application.applicant_name,
                    terms_version: application.terms_version,
                };
                if let Some(refusal) = self.order_step(order_id, command, event).await? {
                    let close = UserCommand::CloseApplication {
                        order_id,
                        refusal: Some(refusal),
                    };
                    self.user(user_id, close, event).await?;
                }
                Ok(())
            }
            UserEvent::WithdrawalRequested {
                order_id,
                payout_id,
                amount,
                account,
                at,
            } => {
                let command = OrderCommand::RequestPayout {
                    payout_id,
                    amount,
                    account,
                    requested_at: Some(at),
                };
                if let Some(refusal) = self.order_step(order_id, command, event).await? {
                    let cancel = UserCommand::CancelWithdrawal { payout_id, refusal };
                    self.user(user_id, cancel, event).await?;
                }
                Ok(())
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

    /// Revokes the borrower sessions of `user_id` issued before `at` (a password reset
    /// or change, 12.3), but `kept` (a session id), the one a change was made from
    /// ([`SessionRevoker`]).
    async fn revoke_sessions(
        &self,
        user_id: Uuid,
        at: chrono::DateTime<chrono::Utc>,
        kept: Option<&str>,
    ) -> Result<(), ProjectionError> {
        self.failpoint()?;
        self.sessions.revoke_issued_before(user_id, at, kept).await
    }

    async fn load_order(&self, order_id: &str) -> Result<Order, ProjectionError> {
        self.orders
            .load(order_id)
            .await
            .map_err(|error| ProjectionError::Load(error.to_string()))
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

    async fn react_to_order(
        &self,
        event: &StoredEvent,
        payload: OrderEvent,
    ) -> Result<(), ProjectionError> {
        let order = self.load_order(&event.aggregate_id).await?;
        let (Some(order_id), user_id) = (order.id, order.user_id) else {
            return Ok(());
        };
        match payload {
            OrderEvent::FinalAuditPassed {
                approved_amount, ..
            } => {
                let command = WalletCommand::CreditLoanProceeds {
                    order_id,
                    amount: approved_amount,
                };
                self.wallet(user_id, command, event).await
            }
            OrderEvent::PayoutRequested {
                payout_id, amount, ..
            } => {
                let command = WalletCommand::Withdraw {
                    order_id,
                    payout_id,
                    amount,
                };
                self.wallet(user_id, command, event).await
            }
            OrderEvent::PayoutSucceeded { payout_id, .. } => {
                self.wallet(user_id, WalletCommand::ReleaseProceeds { order_id }, event)
                    .await?;
                let settle = UserCommand::SettleWithdrawal {
                    order_id,
                    payout_id,
                    paid_out: true,
                };
                self.user(user_id, settle, event).await
            }
            OrderEvent::PayoutFailed {
                payout_id, reason, ..
            } => {
                let command = WalletCommand::ReverseWithdrawal { payout_id, reason };
                self.wallet(user_id, command, event).await?;
                let settle = UserCommand::SettleWithdrawal {
                    order_id,
                    payout_id,
                    paid_out: false,
                };
                self.user(user_id, settle, event).await
            }
            OrderEvent::LoanCancelled { .. } | OrderEvent::OfferExpired { .. } => {
                self.wallet(user_id, WalletCommand::ReleaseProceeds { order_id }, event)
                    .await?;
                self.close_application(user_id, order_id, event).await
            }
            OrderEvent::LoanRefused { .. } | OrderEvent::LoanRepaid { .. } => {
                self.close_application(user_id, order_id, event).await
            }
            OrderEvent::ResubmissionRequested { items, .. } => {
                let command = UserCommand::OpenResubmission { order_id, items };
                self.user(user_id, command, event).await
            }
            OrderEvent::Resubmitted { .. } => {
                let command = UserCommand::CloseResubmission { order_id };
                self.user(user_id, command, event).await
            }
            OrderEvent::PaymentRefundDue {
                payment_ref,
                amount,
                ..
            } => {
                self.refund(user_id, order_id, payment_ref, amount, event)
                    .await
            }
            OrderEvent::RepaymentReceived {
                payment_ref,
                amount,
                source: RepaymentSource::Recharge,
                ..
            } => {
                let command = WalletCommand::ApplyRepayment {
                    payment_ref,
                    order_id,
                    amount,
                };
                self.wallet(user_id, command, event).await
            }
            _ => Ok(()),
        }
    }

    async fn react_to_wallet(
        &self,
        event: &StoredEvent,
        payload: WalletEvent,
    ) -> Result<(), ProjectionError> {
        if let WalletEvent::RefundFailed { .. } = payload {
            let user_id = event
                .aggregate_id
                .parse()
                .map_err(|_| ProjectionError::Load(format!("wallet id {}", event.aggregate_id)))?;
            return self.resend_returned_refunds(user_id, event).await;
        }
        let WalletEvent::Recharged {
            payment_ref,
            order_id,
            amount,
            session_id,
            received_at,
        } = payload
        else {
            return Ok(());
        };
        // P1: the order decides what of the money it takes (its session, what is owed
        // on the day the money arrived) and asks for the rest to be refunded; it is
        // idempotent on the payment reference.
        let command = OrderCommand::ReceiveRepayment {
            payment_ref,
            amount,
            source: RepaymentSource::Recharge,
            session_id,
            received_at,
        };
        if let Some(refusal) = self.order_step(order_id, command, event).await? {
            // Money that arrived is never refused by the order (it refunds what it does
            // not take); a refusal here is a malformed payment, logged for an operator.
            tracing::warn!(%order_id, code = ?refusal.code, msg = %refusal.message,
                "payment refused by the order; skipped");
        }
        Ok(())
    }

    /// Sends back what the order did not take, to the borrower's bound account. The
    /// money is first recorded as received in the wallet: a no-op for a recharge (it
    /// is there already), the excess of an auditor's entry otherwise.
    async fn refund(
        &self,
        user_id: Uuid,
        order_id: Uuid,
        payment_ref: String,
        amount: Decimal,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let received = WalletCommand::RecordRecharge {
            payment_ref: payment_ref.clone(),
            order_id,
            amount,
            session_id: None,
            received_at: None,
        };
        self.wallet(user_id, received, cause).await?;
        let Some(account) = self.bound_account(user_id).await? else {
            tracing::error!(%payment_ref, "refund due but no bound account; kept until one is bound");
            return Ok(());
        };
        let command = WalletCommand::RefundExcess {
            payment_ref,
            refund_id: Uuid::now_v7(),
            amount,
            account,
        };
        self.wallet(user_id, command, cause).await
    }

    /// The account the borrower has bound now (P3), read from the User aggregate.
    async fn bound_account(&self, user_id: Uuid) -> Result<Option<BankAccount>, ProjectionError> {
        let user = self
            .users
            .load(&user_id.to_string())
            .await
            .map_err(|error| ProjectionError::Load(error.to_string()))?;
        Ok(user.bank_account)
    }

    /// Sends each refund the bank returned again, to the borrower's bound account
    /// unless that is the account that returned it (the borrower fixes the account,
    /// as for a failed payout, P3). The wallet refunds each returned amount once.
    async fn resend_returned_refunds(
        &self,
        user_id: Uuid,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let wallet = self
            .wallets
            .load(&user_id.to_string())
            .await
            .map_err(|error| ProjectionError::Load(error.to_string()))?;
        let returned = wallet.returned_refunds();
        if returned.is_empty() {
            return Ok(());
        }
        let Some(account) = self.bound_account(user_id).await? else {
            return Ok(());
        };
        for refund in returned {
            if refund.returned_by.as_ref() == Some(&account) {
                continue; // the same account would return it again
            }
            let command = WalletCommand::RefundExcess {
                payment_ref: refund.key,
                refund_id: Uuid::now_v7(),
                amount: refund.amount,
                account: account.clone(),
            };
            self.wallet(user_id, command, cause).await?;
        }
        Ok(())
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
            None => crate::runner::ensure_checkpoint(&self.database, LOAN_PROCESS).await,
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
