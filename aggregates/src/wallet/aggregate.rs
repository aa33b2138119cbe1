//! The Wallet aggregate: state, `handle` and `apply`.

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
struct WithdrawalRecord {
    order_id: Uuid,
    amount: Decimal,
    reversed: bool,
}

/// A borrower's wallet as folded from its events.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Wallet {
    /// Undrawn approved proceeds per order.
    pub proceeds: BTreeMap<Uuid, Decimal>,
    /// Orders whose proceeds were ever credited (an approval credits once).
    credited_orders: BTreeSet<Uuid>,
    withdrawals: BTreeMap<Uuid, WithdrawalRecord>,
    /// Unapplied cash per payment reference.
    recharges: BTreeMap<String, Decimal>,
    /// The order each recharge was paid towards.
    #[serde(default)]
    recharge_orders: BTreeMap<String, Uuid>,
    /// Payment references already applied to an order.
    applied_payments: BTreeSet<String>,
    /// Payment references whose excess was refunded.
    #[serde(default)]
    refunded_payments: BTreeSet<String>,
    /// Refunds by id.
    #[serde(default)]
    refunds: BTreeMap<Uuid, RefundRecord>,
}

/// A refund and whether it has its result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct RefundRecord {
    payment_ref: String,
    order_id: Uuid,
    amount: Decimal,
    resolved: bool,
    /// The account it was sent to (absent in states folded by earlier versions).
    #[serde(default)]
    account: Option<BankAccount>,
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
fn returned_key(refund_id: Uuid) -> String {
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
    fn check_cash(&self, payment_ref: &str, amount: Decimal) -> Result<(), WalletError> {
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

    fn check_amount(amount: Decimal) -> Result<(), WalletError> {
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
        match command {
            WalletCommand::CreditLoanProceeds { order_id, amount } => {
                if self.credited_orders.contains(&order_id) {
                    return Ok(());
                }
                Self::check_amount(amount)?;
                let event = WalletEvent::LoanProceedsCredited { order_id, amount };
                sink.write(event, self).await;
            }
            WalletCommand::Withdraw {
                order_id,
                payout_id,
                amount,
            } => {
                if self.withdrawals.contains_key(&payout_id) {
                    return Ok(());
                }
                Self::check_amount(amount)?;
                let available = self.proceeds.get(&order_id).copied().unwrap_or_default();
                if amount > available {
                    return Err(WalletError::InsufficientBalance);
                }
                let event = WalletEvent::Withdrawn {
                    order_id,
                    payout_id,
                    amount,
                };
                sink.write(event, self).await;
            }
            WalletCommand::ReverseWithdrawal { payout_id, reason } => {
                let record = self
                    .withdrawals
                    .get(&payout_id)
                    .ok_or(WalletError::RecordNotFound)?;
                if record.reversed {
                    return Ok(());
                }
                let event = WalletEvent::WithdrawalReversed {
                    order_id: record.order_id,
                    payout_id,
                    amount: record.amount,
                    reason,
                };
                sink.write(event, self).await;
            }
            WalletCommand::ReleaseProceeds { order_id } => {
                let undrawn = self.proceeds.get(&order_id).copied().unwrap_or_default();
                if undrawn > Decimal::ZERO {
                    let event = WalletEvent::ProceedsReleased {
                        order_id,
                        amount: undrawn,
                    };
                    sink.write(event, self).await;
                }
            }
            WalletCommand::RecordRecharge {
                payment_ref,
                order_id,
                amount,
                session_id,
                received_at,
            } => {
                if self.recharges.contains_key(&payment_ref)
                    || self.applied_payments.contains(&payment_ref)
                    || self.refunded_payments.contains(&payment_ref)
                {
                    return Ok(());
                }
                Self::check_amount(amount)?;
                let event = WalletEvent::Recharged {
                    payment_ref,
                    order_id,
                    amount,
                    session_id,
                    received_at,
                };
                sink.write(event, self).await;
            }
            WalletCommand::RefundExcess {
                payment_ref,
                refund_id,
                amount,
                account,
            } => {
                if self.refunded_payments.contains(&payment_ref) {
                    return Ok(());
                }
                self.check_cash(&payment_ref, amount)?;
                let order_id = self
                    .recharge_orders
                    .get(&payment_ref)
                    .copied()
                    .ok_or(WalletError::RecordNotFound)?;
                let event = WalletEvent::RefundRequested {
                    refund_id,
                    payment_ref,
                    order_id,
                    amount,
                    account,
                };
                sink.write(event, self).await;
            }
            WalletCommand::RecordRefundResult { refund_id, failure } => {
                let record = self
                    .refunds
                    .get(&refund_id)
                    .ok_or(WalletError::RecordNotFound)?;
                if record.resolved {
                    return Ok(()); // one result per refund
                }
                let (order_id, amount) = (record.order_id, record.amount);
                let event = match failure {
                    None => WalletEvent::RefundPaid {
                        refund_id,
                        order_id,
                        amount,
                    },
                    Some(reason) => WalletEvent::RefundFailed {
                        refund_id,
                        order_id,
                        amount,
                        reason,
                    },
                };
                sink.write(event, self).await;
            }
            WalletCommand::ApplyRepayment {
                payment_ref,
                order_id,
                amount,
            } => {
                if self.applied_payments.contains(&payment_ref) {
                    return Ok(());
                }
                self.check_cash(&payment_ref, amount)?;
                let event = WalletEvent::RepaymentApplied {
                    payment_ref,
                    order_id,
                    amount,
                };
                sink.write(event, self).await;
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            WalletEvent::LoanProceedsCredited { order_id, amount } => {
                self.credited_orders.insert(order_id);
                *self.proceeds.entry(order_id).or_default() += amount;
            }
            WalletEvent::ProceedsReleased { order_id, amount } => {
                *self.proceeds.entry(order_id).or_default() -= amount;
            }
            WalletEvent::Withdrawn {
                order_id,
                payout_id,
                amount,
            } => {
                *self.proceeds.entry(order_id).or_default() -= amount;
                let record = WithdrawalRecord {
                    order_id,
                    amount,
                    reversed: false,
                };
                self.withdrawals.insert(payout_id, record);
            }
            WalletEvent::WithdrawalReversed {
                order_id,
                payout_id,
                amount,
                ..
            } => {
                *self.proceeds.entry(order_id).or_default() += amount;
                if let Some(record) = self.withdrawals.get_mut(&payout_id) {
                    record.reversed = true;
                }
            }
            WalletEvent::Recharged {
                payment_ref,
                order_id,
                amount,
                ..
            } => {
                self.recharge_orders.insert(payment_ref.clone(), order_id);
                self.recharges.insert(payment_ref, amount);
            }
            WalletEvent::RefundRequested {
                refund_id,
                payment_ref,
                order_id,
                amount,
                account,
            } => {
                if let Some(cash) = self.recharges.get_mut(&payment_ref) {
                    *cash -= amount;
                }
                self.recharges.retain(|_, cash| !cash.is_zero());
                self.refunded_payments.insert(payment_ref.clone());
                let record = RefundRecord {
                    payment_ref,
                    order_id,
                    amount,
                    resolved: false,
                    account: Some(account),
                };
                self.refunds.insert(refund_id, record);
            }
            WalletEvent::RefundPaid { refund_id, .. } => {
                if let Some(record) = self.refunds.get_mut(&refund_id) {
                    record.resolved = true;
                }
            }
            WalletEvent::RefundFailed {
                refund_id,
                order_id,
                amount,
                ..
            } => {
                // The money came back: it is the borrower's cash again, under the
                // refund's own key, until a refund to a fixed account succeeds
                // (`returned_refunds`, sent again with `RefundExcess`).
                if let Some(record) = self.refunds.get_mut(&refund_id) {
                    record.resolved = true;
                }
                let key = returned_key(refund_id);
                self.recharge_orders.insert(key.clone(), order_id);
                self.recharges.insert(key, amount);
            }
            WalletEvent::RepaymentApplied {
                payment_ref,
                amount,
                ..
            } => {
                if let Some(cash) = self.recharges.get_mut(&payment_ref) {
                    *cash -= amount;
                }
                self.recharges.retain(|_, cash| !cash.is_zero());
                self.applied_payments.insert(payment_ref);
            }
        }
    }
}
