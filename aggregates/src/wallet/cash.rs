//! The Wallet's cash: money received (a recharge), always recorded once per payment
//! reference (P1), and applied to the loan it was paid towards.

use super::aggregate::Wallet;
use super::commands::WalletCommand;
use super::errors::WalletError;
use super::events::WalletEvent;
use cqrs_es::event_sink::EventSink;
use rust_decimal::Decimal;
use uuid::Uuid;

impl Wallet {
    /// `RecordRecharge`: money received for an order, recorded once per payment
    /// reference, whatever it turns out to be owed.
    pub(super) async fn record_recharge(
        &mut self,
        command: WalletCommand,
        sink: &EventSink<Self>,
    ) -> Result<(), WalletError> {
        let WalletCommand::RecordRecharge {
            payment_ref,
            order_id,
            amount,
            session_id,
            received_at,
        } = command
        else {
            unreachable!("called with RecordRecharge only")
        };
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
        Ok(())
    }

    /// `ApplyRepayment`: `amount` of the payment's cash applied to its order, once.
    pub(super) async fn apply_repayment(
        &mut self,
        payment_ref: String,
        order_id: Uuid,
        amount: Decimal,
        sink: &EventSink<Self>,
    ) -> Result<(), WalletError> {
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
        Ok(())
    }

    /// Assigns a recharge or repayment event.
    pub(super) fn apply_cash_event(&mut self, event: WalletEvent) {
        match event {
            WalletEvent::Recharged {
                payment_ref,
                order_id,
                amount,
                ..
            } => {
                self.recharge_orders.insert(payment_ref.clone(), order_id);
                self.recharges.insert(payment_ref, amount);
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
            _ => unreachable!("`apply` routes only cash events here"),
        }
    }
}
