//! The application's steps: the order opened for an application (and the application
//! closed with the Order's refusal when it refuses), the application closed when its
//! order ends, and a resubmission's items opened and closed on the user (12.4).

use aggregates::order::OrderCommand;
use aggregates::types::ResubmissionItem;
use aggregates::user::{LoanApplication, UserCommand};
use aggregates::wallet::WalletCommand;
use uuid::Uuid;

use super::{LoanProcess, LoanRef};
use crate::projection::ProjectionError;
use crate::store::StoredEvent;

impl LoanProcess {
    /// `ApplicationOpened`: applies for the loan on the order, on behalf of the
    /// borrower; when the Order refuses, closes the application with its reason
    /// (compensation).
    pub(super) async fn open_order(
        &self,
        user_id: Uuid,
        order_id: Uuid,
        application: LoanApplication,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let command = OrderCommand::ApplyForLoan {
            order_id,
            user_id,
            app_id: application.app_id,
            amount: application.amount,
            period_days: application.period_days,
            signature: Some(application.signature),
            applicant_name: application.applicant_name,
            terms_version: application.terms_version,
            monthly_income: application.monthly_income,
            product_version: application.product_version,
        };
        if let Some(refusal) = self.order_step(order_id, command, cause).await? {
            let close = UserCommand::CloseApplication {
                order_id,
                refusal: Some(refusal),
            };
            self.user(user_id, close, cause).await?;
        }
        Ok(())
    }

    /// `LoanRefused`, `LoanRepaid`: the borrower may apply again.
    pub(super) async fn close_application(
        &self,
        loan: LoanRef,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let command = UserCommand::CloseApplication {
            order_id: loan.order_id,
            refusal: None,
        };
        self.user(loan.user_id, command, cause).await
    }

    /// `LoanCancelled`, `OfferExpired`: the proceeds credited at approval go back to
    /// the lender, and the application closes.
    pub(super) async fn release_and_close(
        &self,
        loan: LoanRef,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let release = WalletCommand::ReleaseProceeds {
            order_id: loan.order_id,
        };
        self.wallet(loan.user_id, release, cause).await?;
        self.close_application(loan, cause).await
    }

    /// `ResubmissionRequested`: the items the officer named become changeable (12.4).
    pub(super) async fn open_resubmission(
        &self,
        loan: LoanRef,
        items: Vec<ResubmissionItem>,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let command = UserCommand::OpenResubmission {
            order_id: loan.order_id,
            items,
        };
        self.user(loan.user_id, command, cause).await
    }

    /// `Resubmitted`: they are read-only again.
    pub(super) async fn close_resubmission(
        &self,
        loan: LoanRef,
        cause: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        let command = UserCommand::CloseResubmission {
            order_id: loan.order_id,
        };
        self.user(loan.user_id, command, cause).await
    }
}
