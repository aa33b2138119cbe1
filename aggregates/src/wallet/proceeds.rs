//! The Wallet's proceeds: an approved order's amount credited once, drawn by one
//! withdrawal (given back when its payout fails), and the undrawn rest released.

use super::aggregate::{Wallet, WithdrawalRecord};
use super::errors::WalletError;
use super::events::WalletEvent;
use cqrs_es::event_sink::EventSink;
use rust_decimal::Decimal;
use uuid::Uuid;

impl Wallet {
    /// `CreditLoanProceeds`: an approval credits its order's amount once.
    pub(super) async fn credit_loan_proceeds(
        &mut self,
        order_id: Uuid,
        amount: Decimal,
        sink: &EventSink<Self>,
    ) -> Result<(), WalletError> {
        if self.credited_orders.contains(&order_id) {
            return Ok(());
        }
        Self::check_amount(amount)?;
        let event = WalletEvent::LoanProceedsCredited { order_id, amount };
        sink.write(event, self).await;
        Ok(())
    }

    /// `Withdraw`: `amount` drawn from the order's proceeds for payout `payout_id`.
    pub(super) async fn withdraw(
        &mut self,
        order_id: Uuid,
        payout_id: Uuid,
        amount: Decimal,
        sink: &EventSink<Self>,
    ) -> Result<(), WalletError> {
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
        Ok(())
    }

    /// `ReverseWithdrawal`: the payout failed; its amount returns to the proceeds once.
    pub(super) async fn reverse_withdrawal(
        &mut self,
        payout_id: Uuid,
        reason: String,
        sink: &EventSink<Self>,
    ) -> Result<(), WalletError> {
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
        Ok(())
    }

    /// `ReleaseProceeds`: the order's undrawn proceeds, if any, are released.
    pub(super) async fn release_proceeds(
        &mut self,
        order_id: Uuid,
        sink: &EventSink<Self>,
    ) -> Result<(), WalletError> {
        let undrawn = self.proceeds.get(&order_id).copied().unwrap_or_default();
        if undrawn > Decimal::ZERO {
            let event = WalletEvent::ProceedsReleased {
                order_id,
                amount: undrawn,
            };
            sink.write(event, self).await;
        }
        Ok(())
    }

    /// Assigns a proceeds or withdrawal event.
    pub(super) fn apply_proceeds_event(&mut self, event: WalletEvent) {
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
            _ => unreachable!("`apply` routes only proceeds events here"),
        }
    }
}
