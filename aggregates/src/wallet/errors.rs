//! Errors of the Wallet aggregate; each maps onto one code of PRODUCT.md section 9.

use crate::codes::ErrorCode;

/// A wallet step refused. Nothing is recorded when one is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WalletError {
    /// 10004: amounts are positive with at most two decimals.
    #[error("request error: amount must be positive with at most two decimals")]
    InvalidAmount,
    /// 40006: more than the proceeds or the cash available.
    #[error("insufficient balance")]
    InsufficientBalance,
    /// 40007: no such payout or payment in this wallet.
    #[error("record not found")]
    RecordNotFound,
}

impl WalletError {
    /// The section-9 code of this error.
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::InvalidAmount => ErrorCode::RequestError,
            Self::InsufficientBalance => ErrorCode::InsufficientBalance,
            Self::RecordNotFound => ErrorCode::RecordNotFound,
        }
    }
}
