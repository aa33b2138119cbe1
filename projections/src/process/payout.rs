//! The payout's steps: the approved proceeds credited to the borrower's wallet, the
//! payout requested on the order for a withdrawal (to the account the User captured,
//! P3), the money withdrawn from the wallet, and the result settled on wallet and user.

use aggregates::order::OrderCommand;
use aggregates::types::BankAccount;
use aggregates::user::UserCommand;
use aggregates::wallet::WalletCommand;
use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use uuid::Uuid;

use super::{LoanProcess, LoanRef};
use crate::projection::ProjectionError;
use crate::store::StoredEvent;

/// A borrower's `WithdrawalRequested`.
pub(super) struct Withdrawal {
    pub(super) order_id: Uuid,
    pub(super) payout_id: Uuid,
    pub(super) amount: Decimal,
    pub(super) account: BankAccount,
    pub(super) at: DateTime<Utc>,
}

impl LoanProcess {
    /// `WithdrawalRequested`: requests the payout on the order, on behalf of the
    /// borrower; when the Order refuses, cancels the withdrawal with its reason
    /// (compensation).
    pub(super) async fn request_payout(
        &self,
        user_id: Uuid,
        withdrawal: Withdrawal,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let Withdrawal {
            order_id,
            payout_id,
            amount,
            account,
            at,
        } = withdrawal;
        let command = OrderCommand::RequestPayout {
            payout_id,
            amount,
            account,
            requested_at: Some(at),
        };
        if let Some(refusal) = self.order_step(order_id, command, cause).await? {
            let cancel = UserCommand::CancelWithdrawal { payout_id, refusal };
            self.user(user_id, cancel, cause).await?;
        }
        Ok(())
    }

    /// `FinalAuditPassed`: the approved amount is credited to the wallet.
    pub(super) async fn credit_proceeds(
        &self,
        loan: LoanRef,
        amount: Decimal,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let command = WalletCommand::CreditLoanProceeds {
            order_id: loan.order_id,
            amount,
        };
        self.wallet(loan.user_id, command, cause).await
    }

    /// `PayoutRequested`: the amount leaves the wallet.
    pub(super) async fn withdraw(
        &self,
        loan: LoanRef,
        payout_id: Uuid,
        amount: Decimal,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let command = WalletCommand::Withdraw {
            order_id: loan.order_id,
            payout_id,
            amount,
        };
        self.wallet(loan.user_id, command, cause).await
    }

    /// `PayoutSucceeded`: the undrawn remainder is released; the user's withdrawal is
    /// settled (the account stays fixed while repaying).
    pub(super) async fn payout_succeeded(
        &self,
        loan: LoanRef,
        payout_id: Uuid,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let release = WalletCommand::ReleaseProceeds {
            order_id: loan.order_id,
        };
        self.wallet(loan.user_id, release, cause).await?;
        self.settle_withdrawal(loan, payout_id, true, cause).await
    }

    /// `PayoutFailed`: the withdrawal is reversed (P3); the user's withdrawal is
    /// settled (the account can be fixed).
    pub(super) async fn payout_failed(
        &self,
        loan: LoanRef,
        payout_id: Uuid,
        reason: String,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let command = WalletCommand::ReverseWithdrawal { payout_id, reason };
        self.wallet(loan.user_id, command, cause).await?;
        self.settle_withdrawal(loan, payout_id, false, cause).await
    }

    async fn settle_withdrawal(
        &self,
        loan: LoanRef,
        payout_id: Uuid,
        paid_out: bool,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let settle = UserCommand::SettleWithdrawal {
            order_id: loan.order_id,
            payout_id,
            paid_out,
        };
        self.user(loan.user_id, settle, cause).await
    }
}
