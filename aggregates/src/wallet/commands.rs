//! Commands of the Wallet aggregate, sent by the process managers of DESIGN.md.

use crate::types::BankAccount;
use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A step of a cross-aggregate money flow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum WalletCommand {
    /// After `FinalAuditPassed`.
    CreditLoanProceeds {
        /// Order.
        order_id: Uuid,
        /// Approved amount.
        amount: Decimal,
    },
    /// After `PayoutRequested`.
    Withdraw {
        /// Order.
        order_id: Uuid,
        /// Payout id.
        payout_id: Uuid,
        /// Amount.
        amount: Decimal,
    },
    /// After `PayoutFailed`.
    ReverseWithdrawal {
        /// Payout id.
        payout_id: Uuid,
        /// The provider's reason.
        reason: String,
    },
    /// After `PayoutSucceeded`, `LoanCancelled` or `OfferExpired`: release what is undrawn.
    ReleaseProceeds {
        /// Order.
        order_id: Uuid,
    },
    /// A verified payment webhook.
    RecordRecharge {
        /// External reference.
        payment_ref: String,
        /// The order the payment page was opened for.
        order_id: Uuid,
        /// Amount received.
        amount: Decimal,
        /// The payment session it was paid on.
        session_id: Option<Uuid>,
        /// When the money arrived (the verified webhook, at the `Clock`'s now); `None`
        /// for an amount recorded only to be refunded. The Order judges the payment as
        /// of this time, however late its workflow runs (12.1, P12).
        received_at: Option<DateTime<Utc>>,
    },
    /// After `PaymentRefundDue`: send back cash of `payment_ref` that the order did not
    /// take, to the borrower's bound account (12.1). Once per payment reference; the
    /// cash of a refund the bank returned is sent again under its own key
    /// ([`super::ReturnedRefund::key`]) once the borrower binds another account.
    RefundExcess {
        /// The payment the cash came from.
        payment_ref: String,
        /// New refund id (the payout provider's idempotency key).
        refund_id: Uuid,
        /// Amount to send back.
        amount: Decimal,
        /// The borrower's bound account (P3).
        account: BankAccount,
    },
    /// Payout worker: the provider's result for a refund; `failure` is its reason.
    RecordRefundResult {
        /// The refund.
        refund_id: Uuid,
        /// `None` when the money reached the borrower.
        failure: Option<String>,
    },
    /// After `RepaymentReceived` on the order.
    ApplyRepayment {
        /// The payment.
        payment_ref: String,
        /// Order.
        order_id: Uuid,
        /// Amount the order accepted.
        amount: Decimal,
    },
}
