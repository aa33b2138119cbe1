//! The Wallet's refunds (12.1): cash not owed sent back to the borrower's account
//! once per payment reference, and its result; cash a bank sent back waits under the
//! refund's own key to be refunded again ([`Wallet::returned_refunds`]).

use super::aggregate::{returned_key, RefundRecord, Wallet};
use super::commands::WalletCommand;
use super::errors::WalletError;
use super::events::WalletEvent;
use cqrs_es::event_sink::EventSink;
use uuid::Uuid;

impl Wallet {
    /// `RefundExcess`: the payment's cash not owed, refunded to `account` once.
    pub(super) async fn refund_excess(
        &mut self,
        command: WalletCommand,
        sink: &EventSink<Self>,
    ) -> Result<(), WalletError> {
        let WalletCommand::RefundExcess {
            payment_ref,
            refund_id,
            amount,
            account,
        } = command
        else {
            unreachable!("called with RefundExcess only")
        };
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
        Ok(())
    }

    /// `RecordRefundResult`: the refund was paid, or failed with `failure`; one
    /// result per refund.
    pub(super) async fn record_refund_result(
        &mut self,
        refund_id: Uuid,
        failure: Option<String>,
        sink: &EventSink<Self>,
    ) -> Result<(), WalletError> {
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
        Ok(())
    }

    /// Assigns a refund event.
    pub(super) fn apply_refund_event(&mut self, event: WalletEvent) {
        match event {
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
            _ => unreachable!("`apply` routes only refund events here"),
        }
    }
}
