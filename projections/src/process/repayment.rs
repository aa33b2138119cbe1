//! The repayment's steps: a payment that arrived handed to its order (P1), the wallet
//! cash the order applied taken from the wallet, what the order did not take refunded
//! to the bound account (12.1), and a refund the bank returned sent again.

use aggregates::order::{OrderCommand, RepaymentSource};
use aggregates::wallet::WalletCommand;
use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use uuid::Uuid;

use super::{LoanProcess, LoanRef};
use crate::projection::ProjectionError;
use crate::store::StoredEvent;

/// A wallet's `Recharged`: money that arrived for an order.
pub(super) struct Payment {
    pub(super) payment_ref: String,
    pub(super) order_id: Uuid,
    pub(super) amount: Decimal,
    /// The payment session it was paid in, if any.
    pub(super) session_id: Option<Uuid>,
    /// When the provider received it (the day what is owed is counted on).
    pub(super) received_at: Option<DateTime<Utc>>,
}

impl LoanProcess {
    /// `Recharged`: hands the payment to its order, which decides what of the money it
    /// takes (its session, what is owed on the day the money arrived, P1) and asks for
    /// the rest to be refunded; the order is idempotent on the payment reference.
    pub(super) async fn hand_to_order(
        &self,
        payment: Payment,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let order_id = payment.order_id;
        let command = OrderCommand::ReceiveRepayment {
            payment_ref: payment.payment_ref,
            amount: payment.amount,
            source: RepaymentSource::Recharge,
            session_id: payment.session_id,
            received_at: payment.received_at,
        };
        if let Some(refusal) = self.order_step(order_id, command, cause).await? {
            // Money that arrived is never refused by the order (it refunds what it does
            // not take); a refusal here is a malformed payment, logged for an operator.
            tracing::warn!(%order_id, code = ?refusal.code, msg = %refusal.message,
                "payment refused by the order; skipped");
        }
        Ok(())
    }

    /// `RepaymentReceived` from a recharge: takes the cash the order applied out of the
    /// wallet.
    pub(super) async fn apply_wallet_cash(
        &self,
        loan: LoanRef,
        payment_ref: String,
        amount: Decimal,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let command = WalletCommand::ApplyRepayment {
            payment_ref,
            order_id: loan.order_id,
            amount,
        };
        self.wallet(loan.user_id, command, cause).await
    }

    /// `PaymentRefundDue`: sends back what the order did not take, to the borrower's
    /// bound account (12.1). The money is first recorded as received in the wallet: a
    /// no-op for a recharge (it is there already), the excess of an auditor's entry
    /// otherwise. Without a bound account the refund waits for one (`BankCardBound`).
    pub(super) async fn refund(
        &self,
        loan: LoanRef,
        payment_ref: String,
        amount: Decimal,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let received = WalletCommand::RecordRecharge {
            payment_ref: payment_ref.clone(),
            order_id: loan.order_id,
            amount,
            session_id: None,
            received_at: None,
        };
        self.wallet(loan.user_id, received, cause).await?;
        let Some(account) = self.bound_account(loan.user_id).await? else {
            tracing::error!(%payment_ref, "refund due but no bound account; kept until one is bound");
            return Ok(());
        };
        let command = WalletCommand::RefundExcess {
            payment_ref,
            refund_id: Uuid::now_v7(),
            amount,
            account,
        };
        self.wallet(loan.user_id, command, cause).await
    }

    /// `RefundFailed`, `BankCardBound`: sends each refund the bank returned again, to
    /// the borrower's bound account unless that is the account that returned it (the
    /// borrower fixes the account, as for a failed payout, P3). The wallet refunds each
    /// returned amount once.
    pub(super) async fn resend_returned_refunds(
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
}
