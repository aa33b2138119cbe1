//! The Wallet aggregate: state, `handle` and `apply`.
//!
//! `handle` and `apply` only dispatch: each command is decided, and each event
//! assigned, by a method in the module of its concern (`proceeds`, `cash`, `refund`).

use super::commands::WalletCommand;
use super::errors::WalletError;
use super::events::WalletEvent;
use crate::types::BankAccount;
use cqrs_es::event_sink::EventSink;
use cqrs_es::Aggregate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use uuid::Uuid;

/// A withdrawal and whether it came back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct WithdrawalRecord {
    pub(super) order_id: Uuid,
    pub(super) amount: Decimal,
    pub(super) reversed: bool,
}

/// A borrower's wallet as folded from its events.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Wallet {
    /// Undrawn approved proceeds per order.
    pub proceeds: BTreeMap<Uuid, Decimal>,
    /// Orders whose proceeds were ever credited (an approval credits once).
    pub(super) credited_orders: BTreeSet<Uuid>,
    pub(super) withdrawals: BTreeMap<Uuid, WithdrawalRecord>,
    /// Unapplied cash per payment reference.
    pub(super) recharges: BTreeMap<String, Decimal>,
    /// The order each recharge was paid towards.
    #[serde(default)]
    pub(super) recharge_orders: BTreeMap<String, Uuid>,
    /// Payment references already applied to an order.
    pub(super) applied_payments: BTreeSet<String>,
    /// Payment references whose excess was refunded.
    #[serde(default)]
    pub(super) refunded_payments: BTreeSet<String>,
    /// Refunds by id.
    #[serde(default)]
    pub(super) refunds: BTreeMap<Uuid, RefundRecord>,
}

/// A refund and whether it has its result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct RefundRecord {
    pub(super) payment_ref: String,
    pub(super) order_id: Uuid,
    pub(super) amount: Decimal,
    pub(super) resolved: bool,
    /// The account it was sent to (absent in states folded by earlier versions).
    #[serde(default)]
    pub(super) account: Option<BankAccount>,
}

/// Cash a bank sent back from a refund, waiting to be refunded again to a fixed
/// account (12.1: the wallet never keeps money the borrower cannot take out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnedRefund {
    /// The wallet key of the cash (`refund:{refund_id}`): the `payment_ref` of the
    /// [`WalletCommand::RefundExcess`] that sends it again.
    pub key: String,
    /// Amount returned.
    pub amount: Decimal,
    /// The account that returned it; `None` in states folded by earlier versions.
    pub returned_by: Option<BankAccount>,
}

/// The wallet key under which a returned refund's cash waits.
pub(super) fn returned_key(refund_id: Uuid) -> String {
    format!("refund:{refund_id}")
}

impl Wallet {
    /// Cash received and not applied to a loan.
    pub fn cash(&self) -> Decimal {
        self.recharges.values().copied().sum()
    }

    /// The account balance shown to the borrower: undrawn proceeds plus cash.
    pub fn balance(&self) -> Decimal {
        self.proceeds.values().copied().sum::<Decimal>() + self.cash()
    }

    /// `amount` may be taken from the cash that payment `payment_ref` brought:
    /// positive, two decimals (10004), a payment this wallet has (40007), at most
    /// what is left of it (40006).
    pub(super) fn check_cash(&self, payment_ref: &str, amount: Decimal) -> Result<(), WalletError> {
        Self::check_amount(amount)?;
        let cash = self
            .recharges
            .get(payment_ref)
            .copied()
            .ok_or(WalletError::RecordNotFound)?;
        if amount > cash {
            return Err(WalletError::InsufficientBalance);
        }
        Ok(())
    }

    /// Refunds the bank sent back whose cash is still here, oldest first. The loan
    /// process sends each again ([`WalletCommand::RefundExcess`] with `key` as the
    /// payment reference) once the bound account differs from `returned_by`.
    pub fn returned_refunds(&self) -> Vec<ReturnedRefund> {
        self.refunds
            .iter()
            .filter_map(|(refund_id, record)| {
                let key = returned_key(*refund_id);
                let amount = self.recharges.get(&key).copied()?;
                Some(ReturnedRefund {
                    key,
                    amount,
                    returned_by: record.account.clone(),
                })
            })
            .collect()
    }

    pub(super) fn check_amount(amount: Decimal) -> Result<(), WalletError> {
        if amount <= Decimal::ZERO || amount.round_dp(2) != amount {
            return Err(WalletError::InvalidAmount);
        }
        Ok(())
    }
}

impl Aggregate for Wallet {
    const TYPE: &'static str = "Wallet";
    type Command = WalletCommand;
    type Event = WalletEvent;
    type Error = WalletError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        // One method per command, in the module of its concern; a command of four or
        // more fields goes whole, and the method takes it apart.
        use WalletCommand as C;
        match command {
            C::CreditLoanProceeds { order_id, amount } => {
                self.credit_loan_proceeds(order_id, amount, sink).await
            }
            C::Withdraw {
                order_id,
                payout_id,
                amount,
            } => self.withdraw(order_id, payout_id, amount, sink).await,
            C::ReverseWithdrawal { payout_id, reason } => {
                self.reverse_withdrawal(payout_id, reason, sink).await
            }
            C::ReleaseProceeds { order_id } => self.release_proceeds(order_id, sink).await,
            command @ C::RecordRecharge { .. } => self.record_recharge(command, sink).await,
            command @ C::RefundExcess { .. } => self.refund_excess(command, sink).await,
            C::RecordRefundResult { refund_id, failure } => {
                self.record_refund_result(refund_id, failure, sink).await
            }
            C::ApplyRepayment {
                payment_ref,
                order_id,
                amount,
            } => {
                self.apply_repayment(payment_ref, order_id, amount, sink)
                    .await
            }
        }
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            event @ (WalletEvent::LoanProceedsCredited { .. }
            | WalletEvent::ProceedsReleased { .. }
            | WalletEvent::Withdrawn { .. }
            | WalletEvent::WithdrawalReversed { .. }) => self.apply_proceeds_event(event),
            event @ (WalletEvent::Recharged { .. } | WalletEvent::RepaymentApplied { .. }) => {
                self.apply_cash_event(event)
            }
            event @ (WalletEvent::RefundRequested { .. }
            | WalletEvent::RefundPaid { .. }
            | WalletEvent::RefundFailed { .. }) => self.apply_refund_event(event),
        }
    }
}
