//! Errors of the User aggregate; each maps onto one code of PRODUCT.md section 9.

use crate::codes::ErrorCode;
use crate::types::InvalidInput;

/// A command the User aggregate refuses. Nothing is recorded when one is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UserError {
    /// 10004: input breaks a rule of section 5.
    #[error("{0}")]
    InvalidInput(#[from] InvalidInput),
    /// 10000: invite code unknown (or missing where required).
    #[error("invalid invite code")]
    InvalidInviteCode,
    /// 10004: registration without accepting the current privacy notice: none given,
    /// or a version the deployment does not show (stale or unknown, PRODUCT.md 12.6).
    #[error("privacyNoticeVersion: accept the current privacy notice (version {current})")]
    PrivacyNoticeNotAccepted {
        /// The version the deployment shows now.
        current: String,
    },
    /// 10004: registration naming a language the privacy notice is not given in
    /// (PRODUCT.md 12.6): consent records the text the borrower read.
    #[error("privacyNoticeLanguage: the privacy notice is given in {languages}")]
    PrivacyNoticeLanguage {
        /// The languages it is given in, comma-separated.
        languages: String,
    },
    /// 10002: a login refused without saying why (PRODUCT.md 12.2: a login failure
    /// does not reveal whether the phone has an account, nor its locks to whoever
    /// lacks the password).
    #[error("wrong phone number or password")]
    LoginRefused,
    /// 10001: the account already exists.
    #[error("phone number already registered")]
    AlreadyRegistered,
    /// 10003: no such account.
    #[error("account not found")]
    NotRegistered,
    /// 20003: the account is locked; `reason` is shown on the lock screen.
    #[error("account locked: {reason}")]
    AccountLocked {
        /// Security or compliance.
        kind: super::LockKind,
        /// Shown to the borrower.
        reason: String,
    },
    /// 10014: the ID number is not digits.
    #[error("invalid ID number")]
    InvalidIdNumber,
    /// 10006: name and ID number are read-only once the identity is verified.
    #[error("{field} cannot be changed after identity verification")]
    VerifiedFieldReadOnly {
        /// Wire name of the field.
        field: &'static str,
    },
    /// 10009: the identity is not in a state this action needs.
    #[error("unable to get ID info: identity is not awaiting review")]
    IdentityNotAwaitingReview,
    /// 10028: account number must be 8–20 digits.
    #[error("invalid bank account number")]
    InvalidBankAccount,
    /// 10011: replacing a bound account or a PIN, or lifting a lock, needs a valid SMS code.
    #[error("verification code invalid or expired")]
    SmsCodeRequired,
    /// 110012: not while a payout is in flight or a loan is being repaid.
    #[error("bank account cannot be changed while a loan is active")]
    BankAccountChangeNotAllowed,
    /// 401: only the borrower may do this (P2, P3); no back-office call can.
    #[error("only the borrower can do this")]
    OnlyTheBorrower,
    /// 40000: qualification incomplete, or the applicant conditions are not met.
    #[error("not qualified: {0}")]
    NotQualified(&'static str),
    /// 40005: another order is still open.
    #[error("an order is already in progress")]
    OrderInProgress,
    /// 40007: the thing acted on does not exist (a hold, an application, an order
    /// of this borrower's to withdraw from). The message never says whose it is.
    #[error("record not found")]
    RecordNotFound,
    /// 10004: personal data must be kept until `until` (the retention period after the
    /// last loan closed, PRODUCT.md 12.6).
    #[error(
        "retention period not over: personal data is kept until {}",
        .until.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    )]
    RetentionNotOver {
        /// The first moment erasure is allowed (UTC).
        until: chrono::DateTime<chrono::Utc>,
    },
    /// 40006: a withdrawal is already in flight; its result comes first.
    #[error("insufficient balance: a payout is already in progress")]
    WithdrawalInFlight,
}

impl UserError {
    /// The section-9 code of this error.
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::InvalidInput(_) => ErrorCode::RequestError,
            Self::InvalidInviteCode => ErrorCode::InvalidInviteCode,
            Self::PrivacyNoticeNotAccepted { .. } | Self::PrivacyNoticeLanguage { .. } => {
                ErrorCode::RequestError
            }
            Self::LoginRefused => ErrorCode::WrongPhoneOrPassword,
            Self::AlreadyRegistered => ErrorCode::PhoneAlreadyRegistered,
            Self::NotRegistered => ErrorCode::AccountNotFound,
            Self::AccountLocked { .. } => ErrorCode::AccountLocked,
            Self::InvalidIdNumber => ErrorCode::InvalidIdNumber,
            Self::VerifiedFieldReadOnly { .. } => ErrorCode::UserUpdateFailed,
            Self::IdentityNotAwaitingReview => ErrorCode::UnableToGetIdInfo,
            Self::InvalidBankAccount => ErrorCode::InvalidBankAccountNumber,
            Self::SmsCodeRequired => ErrorCode::VerificationCodeInvalid,
            Self::BankAccountChangeNotAllowed => ErrorCode::BankAccountChangeNotAllowed,
            Self::OnlyTheBorrower => ErrorCode::NotLoggedIn,
            Self::NotQualified(_) => ErrorCode::NotQualified,
            Self::OrderInProgress => ErrorCode::OrderInProgress,
            Self::RecordNotFound => ErrorCode::RecordNotFound,
            Self::WithdrawalInFlight => ErrorCode::InsufficientBalance,
            Self::RetentionNotOver { .. } => ErrorCode::RequestError,
        }
    }
}
