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

use crate::runtime::state::AppState;

/// A payout's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayoutOutcome {
    /// The bank accepted it.
    Paid,
    /// The bank refused it, with the reason shown to the borrower.
    Failed(String),
    /// The provider took it and reports the result later (its webhook calls
    /// [`record_result`]); nothing is recorded now.
    Accepted,
}

/// What is being paid out: a withdrawal of an order or a refund of a wallet, with the
/// aggregate its result is recorded on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PayoutFor {
    /// `PayoutRequested` of this order.
    Withdrawal {
        /// The order.
        order_id: Uuid,
    },
    /// `RefundRequested` of this wallet (the user id).
    Refund {
        /// The wallet.
        wallet_id: Uuid,
    },
}

/// One payout to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payout {
    /// The payout (or refund) id: the provider's idempotency key.
    pub id: Uuid,
    /// Whose result it is.
    pub kind: PayoutFor,
    /// The borrower's own bound account (P3).
    pub account: BankAccount,
    /// Amount, in the configured currency.
    pub amount: Decimal,
}

impl Payout {
    /// The reference a provider keeps and quotes back in its webhook:
    /// `order:<order id>:<payout id>` or `wallet:<user id>:<refund id>`.
    pub fn reference(&self) -> String {
        match self.kind {
            PayoutFor::Withdrawal { order_id } => format!("order:{order_id}:{}", self.id),
            PayoutFor::Refund { wallet_id } => format!("wallet:{wallet_id}:{}", self.id),
        }
    }

    /// Reads a [`Payout::reference`] back: (kind, payout id).
    pub fn parse_reference(reference: &str) -> Option<(PayoutFor, Uuid)> {
        let mut parts = reference.splitn(3, ':');
        let (kind, owner, id) = (parts.next()?, parts.next()?, parts.next()?);
        let (owner, id) = (owner.parse().ok()?, id.parse().ok()?);
        let kind = match kind {
            "order" => PayoutFor::Withdrawal { order_id: owner },
            "wallet" => PayoutFor::Refund { wallet_id: owner },
            _ => return None,
        };
        Some((kind, id))
    }
}

/// The provider could not be reached or did not answer in time: nothing is known, so
/// the step runs again later with the same idempotency key (never a second payment).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("payout provider unavailable: {0}")]
pub struct PayoutUnavailable(pub String);

/// Sends money to a borrower's bank account.
#[async_trait::async_trait]
pub trait PayoutProvider: Send + Sync {
    /// Pays `payout.amount` to `payout.account`; `payout.id` is the idempotency key (a
    /// repeat must not pay twice). `Err` when the outcome is unknown (retried).
    async fn pay(&self, payout: &Payout) -> Result<PayoutOutcome, PayoutUnavailable>;
}

/// The offline default: succeeds, and fails with 10012 for account numbers ending in
/// `0000` (DESIGN.md "API conventions").
pub struct SandboxPayout;

#[async_trait::async_trait]
impl PayoutProvider for SandboxPayout {
    async fn pay(&self, payout: &Payout) -> Result<PayoutOutcome, PayoutUnavailable> {
        Ok(if payout.account.account_no.ends_with("0000") {
            PayoutOutcome::Failed("connection to bank account failed (10012)".to_string())
        } else {
            PayoutOutcome::Paid
        })
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
            let payload: OrderEvent = event.payload.decode().map_err(decode("PayoutRequested"))?;
            if let OrderEvent::PayoutRequested {
                payout_id,
                net_amount,
                account,
                ..
            } = payload
            {
                let order_id = event.aggregate_id.parse().map_err(|_| {
                    projections::ProjectionError::Load(format!("order id {}", event.aggregate_id))
                })?;
                let payout = Payout {
                    id: payout_id,
                    kind: PayoutFor::Withdrawal { order_id },
                    account,
                    amount: net_amount,
                };
                send(state, provider, &payout).await?;
            }
        } else if event.aggregate_type == "Wallet" && event.event_type == "RefundRequested" {
            let payload: WalletEvent = event.payload.decode().map_err(decode("RefundRequested"))?;
            if let WalletEvent::RefundRequested {
                refund_id,
                amount,
                account,
                ..
            } = payload
            {
                // A refund of money not owed (12.1) goes out like a payout, to the
                // bound account, keyed by its own id.
                let wallet_id = event.aggregate_id.parse().map_err(|_| {
                    projections::ProjectionError::Load(format!("wallet id {}", event.aggregate_id))
                })?;
                let payout = Payout {
                    id: refund_id,
                    kind: PayoutFor::Refund { wallet_id },
                    account,
                    amount,
                };
                send(state, provider, &payout).await?;
            }
        }
        Ok(())
    }
}

/// Sends `payout` and records its outcome, unless the provider reports it later. An
/// unreachable provider is an error: the step runs again with the same key.
async fn send(
    state: &AppState,
    provider: &dyn PayoutProvider,
    payout: &Payout,
) -> Result<(), projections::ProjectionError> {
    match provider.pay(payout).await {
        Ok(PayoutOutcome::Accepted) => {
            tracing::info!(payout_id = %payout.id, "payout accepted; the provider reports its result");
            Ok(())
        }
        Ok(outcome) => record_result(state, payout.kind, payout.id, outcome).await,
        Err(unavailable) => Err(projections::ProjectionError::Load(unavailable.to_string())),
    }
}

/// Records a payout's final `outcome` (paid or failed) on the order or wallet it is
/// for: from the worker, or from a provider's webhook. A repeat is refused by the
/// aggregate and skipped; [`PayoutOutcome::Accepted`] records nothing.
pub async fn record_result(
    state: &AppState,
    kind: PayoutFor,
    id: Uuid,
    outcome: PayoutOutcome,
) -> Result<(), projections::ProjectionError> {
    let failure = match outcome {
        PayoutOutcome::Accepted => return Ok(()),
        PayoutOutcome::Paid => None,
        PayoutOutcome::Failed(reason) => Some(reason),
    };
    match kind {
        PayoutFor::Withdrawal { order_id } => {
            let command = match failure {
                None => OrderCommand::RecordPayoutSucceeded { payout_id: id },
                Some(reason) => OrderCommand::RecordPayoutFailed {
                    payout_id: id,
                    reason,
                },
            };
            record(&state.orders, &order_id.to_string(), command, id).await
        }
        PayoutFor::Refund { wallet_id } => {
            let command = WalletCommand::RecordRefundResult {
                refund_id: id,
                failure,
            };
            record(&state.wallets, &wallet_id.to_string(), command, id).await
        }
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
    A: cqrs_es::Aggregate + Clone,
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
