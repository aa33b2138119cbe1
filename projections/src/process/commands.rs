//! Sending the steps' commands: each counted for the crash tests
//! ([`LoanProcess::with_failpoint_before_command`]), with the cause's metadata, retried
//! on a concurrency conflict; a refusal by the domain is logged and skipped.

use std::collections::HashMap;
use std::sync::atomic::Ordering;

use aggregates::codes::StepRefusal;
use aggregates::order::{Order, OrderCommand};
use aggregates::types::BankAccount;
use aggregates::user::UserCommand;
use aggregates::wallet::WalletCommand;
use aggregates::Actor;
use cqrs_es::{Aggregate, AggregateError};
use uuid::Uuid;

use super::LoanProcess;
use crate::projection::ProjectionError;
use crate::store::{CommandBus, RetryPolicy, StoredEvent};

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

    /// Sends `command` to the borrower's wallet (its id is the user's) with the cause's
    /// metadata; a refusal is logged and skipped.
    pub(super) async fn wallet(
        &self,
        user_id: Uuid,
        command: WalletCommand,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        self.send(&self.wallets, user_id, command, cause).await
    }

    /// Sends `command` to the borrower with the cause's metadata; a refusal is logged
    /// and skipped.
    pub(super) async fn user(
        &self,
        user_id: Uuid,
        command: UserCommand,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        self.send(&self.users, user_id, command, cause).await
    }

    /// Counts the command ([`Self::failpoint`]) and sends it to aggregate `id` on
    /// `bus`, retried on a concurrency conflict; a refusal is logged and skipped.
    async fn send<A>(
        &self,
        bus: &CommandBus<A>,
        id: Uuid,
        command: A::Command,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError>
    where
        A: Aggregate + Clone,
        A::Command: Clone + Sync,
    {
        self.failpoint()?;
        let result = bus
            .execute_with_retry(
                &id.to_string(),
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
    pub(super) async fn order_step(
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

    /// Revokes the borrower sessions of `user_id` issued before `at` (a password reset
    /// or change, 12.3), but `kept` (a session id), the one a change was made from
    /// ([`SessionRevoker`]).
    pub(super) async fn revoke_sessions(
        &self,
        user_id: Uuid,
        at: chrono::DateTime<chrono::Utc>,
        kept: Option<&str>,
    ) -> Result<(), ProjectionError> {
        self.failpoint()?;
        self.sessions.revoke_issued_before(user_id, at, kept).await
    }

    pub(super) async fn load_order(&self, order_id: &str) -> Result<Order, ProjectionError> {
        self.orders
            .load(order_id)
            .await
            .map_err(|error| ProjectionError::Load(error.to_string()))
    }

    /// The account the borrower has bound now (P3), read from the User aggregate.
    pub(super) async fn bound_account(
        &self,
        user_id: Uuid,
    ) -> Result<Option<BankAccount>, ProjectionError> {
        let user = self
            .users
            .load(&user_id.to_string())
            .await
            .map_err(|error| ProjectionError::Load(error.to_string()))?;
        Ok(user.bank_account)
    }
}
