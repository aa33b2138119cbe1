//! Events of the Wallet aggregate.

use crate::types::BankAccount;
use chrono::{DateTime, Utc};
use cqrs_es::DomainEvent;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A money movement in a borrower's wallet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum WalletEvent {
    /// Final approval made the amount withdrawable.
    LoanProceedsCredited {
        /// Order.
        order_id: Uuid,
        /// Approved amount.
        amount: Decimal,
    },
    /// Undrawn proceeds released (single drawdown, cancellation, expiry).
    ProceedsReleased {
        /// Order.
        order_id: Uuid,
        /// Amount released.
        amount: Decimal,
    },
    /// Proceeds sent towards the borrower's bank account.
    Withdrawn {
        /// Order.
        order_id: Uuid,
        /// Payout id.
        payout_id: Uuid,
        /// Amount.
        amount: Decimal,
    },
    /// A failed payout came back (P3).
    WithdrawalReversed {
        /// Order.
        order_id: Uuid,
        /// Payout id.
        payout_id: Uuid,
        /// Amount returned.
        amount: Decimal,
        /// The provider's reason.
        reason: String,
    },
    /// A payment from the borrower arrived.
    Recharged {
        /// The payment's external reference.
        payment_ref: String,
        /// The order the borrower paid towards.
        order_id: Uuid,
        /// Amount.
        amount: Decimal,
        /// The payment session (absent in events of earlier versions).
        #[serde(default)]
        session_id: Option<Uuid>,
        /// When the money arrived (absent in events of earlier versions, and for an
        /// amount recorded only to be refunded).
        #[serde(default)]
        received_at: Option<DateTime<Utc>>,
    },
    /// Cash the order did not take is on its way back to the borrower's account.
    RefundRequested {
        /// The refund (payout provider's idempotency key).
        refund_id: Uuid,
        /// The payment the cash came from.
        payment_ref: String,
        /// The order paid towards.
        order_id: Uuid,
        /// Amount.
        amount: Decimal,
        /// The borrower's bound account.
        account: BankAccount,
    },
    /// The refund reached the borrower.
    RefundPaid {
        /// The refund.
        refund_id: Uuid,
        /// The order paid towards.
        order_id: Uuid,
        /// Amount.
        amount: Decimal,
    },
    /// The bank returned the refund; the cash is the borrower's again.
    RefundFailed {
        /// The refund.
        refund_id: Uuid,
        /// The order paid towards.
        order_id: Uuid,
        /// Amount.
        amount: Decimal,
        /// The provider's reason.
        reason: String,
    },
    /// Cash applied as a repayment of an order.
    RepaymentApplied {
        /// The payment the cash came from.
        payment_ref: String,
        /// Order repaid.
        order_id: Uuid,
        /// Amount.
        amount: Decimal,
    },
}

impl DomainEvent for WalletEvent {
    fn event_type(&self) -> String {
        let name = match self {
            Self::LoanProceedsCredited { .. } => "LoanProceedsCredited",
            Self::ProceedsReleased { .. } => "ProceedsReleased",
            Self::Withdrawn { .. } => "Withdrawn",
            Self::WithdrawalReversed { .. } => "WithdrawalReversed",
            Self::Recharged { .. } => "Recharged",
            Self::RepaymentApplied { .. } => "RepaymentApplied",
            Self::RefundRequested { .. } => "RefundRequested",
            Self::RefundPaid { .. } => "RefundPaid",
            Self::RefundFailed { .. } => "RefundFailed",
        };
        name.to_string()
    }

    fn event_version(&self) -> String {
        "1.0".to_string()
    }
}
