//! Payouts: after `PayoutRequested` (a withdrawal) or `RefundRequested` (money not
//! owed, 12.1) is committed, this worker (never `handle`) sends the money through a
//! [`PayoutProvider`] and records the result on the order or the wallet.
//!
//! At most one payout per withdrawal: the payout id is the provider's idempotency key,
//! and the order accepts one result per payout id (a repeat is a no-op), so a retried
//! or duplicated worker step cannot pay twice. A failure returns the money to the
//! balance with the provider's real reason (P3).

use std::sync::Arc;

use aggregates::order::{OrderCommand, OrderEvent};
use aggregates::types::BankAccount;
use aggregates::wallet::{WalletCommand, WalletEvent};
use aggregates::Actor;
use projections::consumer::Workflow;
use projections::store::{RetryPolicy, StoredEvent};
use rust_decimal::Decimal;
use uuid::Uuid;

use crate::state::AppState;

/// A payout's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayoutOutcome {
    /// The bank accepted it.
    Paid,
    /// The bank refused it, with the reason shown to the borrower.
    Failed(String),
}

/// Sends money to a borrower's bank account.
pub trait PayoutProvider: Send + Sync {
    /// Pays `amount` to `account`; `payout_id` is the idempotency key (a repeat must
    /// not pay twice).
    fn pay(&self, payout_id: Uuid, account: &BankAccount, amount: Decimal) -> PayoutOutcome;
}

/// The offline default: succeeds, and fails with 10012 for account numbers ending in
/// `0000` (DESIGN.md "API conventions").
pub struct SandboxPayout;

impl PayoutProvider for SandboxPayout {
    fn pay(&self, _payout_id: Uuid, account: &BankAccount, _amount: Decimal) -> PayoutOutcome {
        if account.account_no.ends_with("0000") {
            PayoutOutcome::Failed("connection to bank account failed (10012)".to_string())
        } else {
            PayoutOutcome::Paid
        }
    }
}

/// Checkpoint name of the payout worker.
pub const PAYOUT_WORKER: &str = "worker:payout";

/// The payout worker: after `PayoutRequested` or `RefundRequested` it calls the
/// provider and records the result. A [`Workflow`] run by the one consumer loop
/// ([`projections::consumer`]); its checkpoint moves once per batch without waiting
/// for its WAL flush: the provider call is idempotent on the payout (or refund) id and
/// a repeated result is refused by the aggregate, so after a crash the batch runs
/// again without a second payment.
pub struct PayoutWorker {
    state: AppState,
    provider: Arc<dyn PayoutProvider>,
}

impl PayoutWorker {
    /// A worker paying through `provider`.
    pub fn new(state: AppState, provider: Arc<dyn PayoutProvider>) -> Self {
        Self { state, provider }
    }

    /// Handles every payout and refund after its checkpoint; how many events it read.
    pub async fn catch_up(&self) -> Result<usize, projections::ProjectionError> {
        projections::consumer::workflow_catch_up(self).await
    }
}

#[async_trait::async_trait]
impl Workflow for PayoutWorker {
    fn name(&self) -> &'static str {
        PAYOUT_WORKER
    }

    fn database(&self) -> &projections::store::Database {
        &self.state.database
    }

    fn reacts_to(&self, event: &StoredEvent) -> bool {
        matches!(
            (event.aggregate_type.as_str(), event.event_type.as_str()),
            ("Order", "PayoutRequested") | ("Wallet", "RefundRequested")
        )
    }

    #[tracing::instrument(name = "payout", skip_all, fields(
        event = %event.event_type,
        aggregate = %event.aggregate_id,
        request_id = %event.request_id(),
    ))]
    async fn react(&self, event: &StoredEvent) -> Result<(), projections::ProjectionError> {
        let (state, provider) = (&self.state, self.provider.as_ref());
        let decode = |what| {
            move |source| projections::ProjectionError::Decode {
                what,
                position: event.position,
                source,
            }
        };
        if event.aggregate_type == "Order" && event.event_type == "PayoutRequested" {
            let payload: OrderEvent =
                serde_json::from_value(event.payload.clone()).map_err(decode("PayoutRequested"))?;
            if let OrderEvent::PayoutRequested {
                payout_id,
                net_amount,
                account,
                ..
            } = payload
            {
                let command = match provider.pay(payout_id, &account, net_amount) {
                    PayoutOutcome::Paid => OrderCommand::RecordPayoutSucceeded { payout_id },
                    PayoutOutcome::Failed(reason) => {
                        OrderCommand::RecordPayoutFailed { payout_id, reason }
                    }
                };
                record(&state.orders, &event.aggregate_id, command, payout_id).await?;
            }
        } else if event.aggregate_type == "Wallet" && event.event_type == "RefundRequested" {
            let payload: WalletEvent =
                serde_json::from_value(event.payload.clone()).map_err(decode("RefundRequested"))?;
            if let WalletEvent::RefundRequested {
                refund_id,
                amount,
                account,
                ..
            } = payload
            {
                // A refund of money not owed (12.1) goes out like a payout, to the
                // bound account, keyed by its own id.
                let failure = match provider.pay(refund_id, &account, amount) {
                    PayoutOutcome::Paid => None,
                    PayoutOutcome::Failed(reason) => Some(reason),
                };
                let command = WalletCommand::RecordRefundResult { refund_id, failure };
                record(&state.wallets, &event.aggregate_id, command, refund_id).await?;
            }
        }
        Ok(())
    }
}

/// Records the provider's result `command` for `id` (a payout or refund id) on the
/// aggregate `aggregate_id`. A result the aggregate refuses (a repeat) is logged and
/// skipped, since retrying cannot help; infrastructure errors are returned, so the
/// batch runs again.
async fn record<A>(
    bus: &projections::store::CommandBus<A>,
    aggregate_id: &str,
    command: A::Command,
    id: Uuid,
) -> Result<(), projections::ProjectionError>
where
    A: cqrs_es::Aggregate,
    A::Command: Clone,
{
    let metadata = Actor::System.metadata(&format!("payout:{id}"), None);
    let result = bus
        .execute_with_retry(
            aggregate_id,
            || command.clone(),
            metadata,
            RetryPolicy::default(),
        )
        .await;
    match result {
        Ok(_) => Ok(()),
        Err(cqrs_es::AggregateError::UserError(refusal)) => {
            tracing::warn!(%refusal, %id, "payout result refused; skipped");
            Ok(())
        }
        Err(other) => Err(projections::ProjectionError::Load(other.to_string())),
    }
}
