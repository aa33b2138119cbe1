//! Errors of the Order aggregate; each maps onto one code of PRODUCT.md section 9.

use crate::codes::ErrorCode;
use crate::pricing::{ComplianceBreach, TermsError};
use crate::types::InvalidInput;
use rust_decimal::Decimal;

/// A command the Order aggregate refuses. Nothing is recorded when one is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OrderError {
    /// 10004: input breaks a rule of section 5 (names the field).
    #[error("{0}")]
    InvalidInput(#[from] InvalidInput),
    /// 10004: amount or period not offered by the product.
    #[error("{0}")]
    Terms(#[from] TermsError),
    /// 10004: the product is disabled.
    #[error("appId: this product is not available")]
    ProductDisabled,
    /// 40007: no such product.
    #[error("record not found: product")]
    ProductNotFound,
    /// 40003: the product breaks the deployment's compliance profile (a configuration
    /// fault, never the borrower's; P5).
    #[error("server error: product outside the compliance profile ({0})")]
    Compliance(ComplianceBreach),
    /// 40005: this order id is already taken.
    #[error("an order is already in progress")]
    AlreadyApplied,
    /// 40007: no such order.
    #[error("record not found")]
    NotFound,
    /// 10004: the action does not apply in the order's current status.
    #[error("request error: cannot {action} an order in status {status}")]
    WrongStatus {
        /// Current status code.
        status: u8,
        /// What was attempted.
        action: &'static str,
    },
    /// 40009: the borrower resubmits without having changed any item the officer
    /// asked to fix (PRODUCT.md 12.4; issue 52).
    #[error("nothing was changed of what the officer asked to fix ({items})")]
    NothingFixed {
        /// The items asked for, as the borrower's screen names them (`photos, bank`).
        items: String,
    },
    /// 40010: the repayments due in a month would be above the product's share of the
    /// borrower's declared monthly income (`pricing::affordability`; issue 52).
    #[error("amt: the amount is above what your declared income allows ({})", max.map_or_else(|| "none of this product's amounts".to_string(), |m| format!("at most {}", crate::money::grouped(m))))]
    Unaffordable {
        /// The largest amount the income allows over the period asked for; `None` when
        /// not even the product's smallest amount fits.
        max: Option<Decimal>,
    },
    /// 40010: the product tests affordability and the borrower has declared no monthly
    /// income as an amount (no questionnaire, or a free-text answer from before 2026-12).
    #[error("monthlyIncome: answer the questionnaire with your monthly income in digits before applying")]
    IncomeNotDeclared,
    /// 40000: the first review passes only once the identity is verified.
    #[error("not qualified: the applicant's identity is not verified")]
    IdentityNotVerified,
    /// 10004: the final review must be done by another auditor (four-eyes).
    #[error("request error: the final review must be done by another auditor than the first")]
    SameAuditor,
    /// 40004: the offer's validity has passed.
    #[error("offer expired")]
    OfferExpired,
    /// 40006: more than the balance.
    #[error("insufficient balance")]
    InsufficientBalance,
    /// 40006: a payout is already in flight; its result comes first.
    #[error("insufficient balance: a payout is already in progress")]
    PayoutInFlight,
    /// 10028: the payout account is not in the borrower's name (P3).
    #[error("invalid bank account number: the account must be in your own name")]
    AccountNotInBorrowersName,
    /// 40007: no such payout on this order.
    #[error("record not found: payout")]
    UnknownPayout,
    /// 10004: a manual repayment above the four-eyes limit is confirmed by another
    /// auditor than the one who entered it (12.1).
    #[error("request error: another auditor must confirm a manual repayment above 20,000")]
    SecondAuditorRequired,
    /// 10004: the reference was entered with another amount.
    #[error("request error: amount differs from the one entered for this reference")]
    ManualAmountMismatch,
    /// 40007: no such payment session on this order.
    #[error("record not found: payment session")]
    UnknownSession,
    /// 40007: nothing is owed, so nothing can be repaid (P1).
    #[error("record not found: nothing is owed")]
    NothingOwed,
    /// 40001: the amount must be within the range, or exactly what is owed.
    #[error("enter an amount between {min}–{max} for repayment")]
    RepaymentAmount {
        /// Smallest accepted.
        min: Decimal,
        /// Largest accepted (never above what is owed, P1).
        max: Decimal,
    },
    /// 50001: a collection contact outside the profile's hours (P15).
    #[error("contact not allowed at this hour ({window}, local time)")]
    ContactHours {
        /// The allowed window, `06:00–22:00`, or `once a day`.
        window: String,
    },
    /// 50002: only the borrower (or a named guarantor) may be contacted about the debt (P15).
    #[error("this person may not be contacted about the debt: only the borrower or a guarantor they named")]
    ContactPerson,
    /// 50004: a promise to pay that cannot be taken (issue 53).
    #[error("promise to pay not valid ({why})")]
    InvalidPromise {
        /// What is wrong, in words.
        why: String,
    },
    /// 10004: a charge-off before the configured days past due (issue 53).
    #[error("request error: a loan is charged off at {threshold} days past due; this one is {days_past_due}")]
    ChargeOffTooEarly {
        /// Days past due now.
        days_past_due: u32,
        /// The configured threshold.
        threshold: u32,
    },
    /// 50003: an extension the product does not offer, or that would break a cap.
    #[error("extension not available ({why})")]
    ExtensionNotAvailable {
        /// Why, in words.
        why: String,
    },
    /// 50006: the second step of a four-eyes action by the officer who took the first.
    #[error("a second staff member must approve this")]
    SecondStaffRequired,
    /// 10004: the offer has not expired yet.
    #[error("request error: the offer is still valid")]
    OfferStillValid,
}

impl OrderError {
    /// The section-9 code of this error.
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::InvalidInput(_)
            | Self::Terms(_)
            | Self::ProductDisabled
            | Self::WrongStatus { .. }
            | Self::SameAuditor
            | Self::SecondAuditorRequired
            | Self::ManualAmountMismatch
            | Self::OfferStillValid
            | Self::ChargeOffTooEarly { .. } => ErrorCode::RequestError,
            Self::SecondStaffRequired => ErrorCode::SecondStaffRequired,
            Self::ExtensionNotAvailable { .. } => ErrorCode::ExtensionNotAvailable,
            Self::ProductNotFound
            | Self::NotFound
            | Self::UnknownPayout
            | Self::UnknownSession
            | Self::NothingOwed => ErrorCode::RecordNotFound,
            Self::Compliance(_) => ErrorCode::ServerError,
            Self::AlreadyApplied => ErrorCode::OrderInProgress,
            Self::IdentityNotVerified => ErrorCode::NotQualified,
            Self::NothingFixed { .. } => ErrorCode::NothingFixed,
            Self::Unaffordable { .. } | Self::IncomeNotDeclared => ErrorCode::Unaffordable,
            Self::OfferExpired => ErrorCode::OfferExpired,
            Self::InsufficientBalance | Self::PayoutInFlight => ErrorCode::InsufficientBalance,
            Self::AccountNotInBorrowersName => ErrorCode::InvalidBankAccountNumber,
            Self::RepaymentAmount { .. } => ErrorCode::RepaymentAmountOutOfRange,
            Self::ContactHours { .. } => ErrorCode::ContactHours,
            Self::ContactPerson => ErrorCode::ContactPerson,
            Self::InvalidPromise { .. } => ErrorCode::InvalidPromise,
        }
    }
}
