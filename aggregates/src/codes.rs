//! The error catalogue of PRODUCT.md section 9.
//!
//! Every domain error enum maps each of its variants onto exactly one of these codes
//! (`OrderError::code`, `UserError::code`, `WalletError::code`); the api puts the code
//! into the `{code, msg, data}` envelope and the client translates `service_error_{code}`.

use serde::{Deserialize, Serialize};

/// A code of PRODUCT.md section 9. `code()` is the number on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorCode {
    /// 5: too many requests, try again later.
    TooManyRequests,
    /// 7: session expired, please log in again.
    SessionExpired,
    /// 401: not logged in.
    NotLoggedIn,
    /// 500: unknown error.
    Unknown,
    /// 10000: invalid invite code.
    InvalidInviteCode,
    /// 10001: phone number already registered.
    PhoneAlreadyRegistered,
    /// 10002: wrong phone number or password.
    WrongPhoneOrPassword,
    /// 10003: account not found.
    AccountNotFound,
    /// 10004: request error (bad input; the message names the field).
    RequestError,
    /// 10005: cannot get authentication info.
    CannotGetAuthenticationInfo,
    /// 10006: user update failed.
    UserUpdateFailed,
    /// 10008: could not get user info.
    CouldNotGetUserInfo,
    /// 10009: unable to get ID info.
    UnableToGetIdInfo,
    /// 10011: verification code invalid or expired.
    VerificationCodeInvalid,
    /// 10012: connection to bank account failed.
    BankConnectionFailed,
    /// 10013: get the verification code again.
    GetVerificationCodeAgain,
    /// 10014: invalid ID number.
    InvalidIdNumber,
    /// 10025: email already exists.
    EmailAlreadyExists,
    /// 10026: identity already registered.
    IdentityAlreadyRegistered,
    /// 10028: invalid bank account number.
    InvalidBankAccountNumber,
    /// 10035: ID photo could not be verified, re-upload.
    IdPhotoNotVerified,
    /// 20000: upload failed.
    UploadFailed,
    /// 20001: token invalid.
    TokenInvalid,
    /// 20003: account locked.
    AccountLocked,
    /// 40000: not qualified: complete your information first.
    NotQualified,
    /// 40001: enter an amount between {min}–{max} for repayment.
    RepaymentAmountOutOfRange,
    /// 40003: server error.
    ServerError,
    /// 40004: offer expired.
    OfferExpired,
    /// 40005: an order is already in progress.
    OrderInProgress,
    /// 40006: insufficient balance.
    InsufficientBalance,
    /// 40007: record not found.
    RecordNotFound,
    /// 40008: wrong withdraw PIN ({n} attempts left).
    WrongWithdrawPin,
    /// 40009: a resubmission changed nothing the officer asked to fix (12.4).
    NothingFixed,
    /// 40010: the amount is above what the declared income allows ({max}; issue 52).
    Unaffordable,
    /// 50001: a collection contact outside the allowed hours ({window}; P15).
    ContactHours,
    /// 50002: this person may not be contacted about the debt (P15).
    ContactPerson,
    /// 50003: extension not available ({why}; issue 53).
    ExtensionNotAvailable,
    /// 50004: the promise to pay is not valid ({why}; issue 53).
    InvalidPromise,
    /// 50005: not permitted for your role ({permission}; issue 55).
    NotPermitted,
    /// 50006: a second staff member must approve this (four eyes).
    SecondStaffRequired,
    /// 50007: the proposal breaks a compliance cap ({cap}; issue 55).
    CapBreached,
    /// 110012: bank account cannot be changed while a loan is active.
    BankAccountChangeNotAllowed,
}

impl ErrorCode {
    /// Every code, in the order of PRODUCT.md section 9.
    pub const ALL: [ErrorCode; 42] = [
        Self::TooManyRequests,
        Self::SessionExpired,
        Self::NotLoggedIn,
        Self::Unknown,
        Self::InvalidInviteCode,
        Self::PhoneAlreadyRegistered,
        Self::WrongPhoneOrPassword,
        Self::AccountNotFound,
        Self::RequestError,
        Self::CannotGetAuthenticationInfo,
        Self::UserUpdateFailed,
        Self::CouldNotGetUserInfo,
        Self::UnableToGetIdInfo,
        Self::VerificationCodeInvalid,
        Self::BankConnectionFailed,
        Self::GetVerificationCodeAgain,
        Self::InvalidIdNumber,
        Self::EmailAlreadyExists,
        Self::IdentityAlreadyRegistered,
        Self::InvalidBankAccountNumber,
        Self::IdPhotoNotVerified,
        Self::UploadFailed,
        Self::TokenInvalid,
        Self::AccountLocked,
        Self::NotQualified,
        Self::RepaymentAmountOutOfRange,
        Self::ServerError,
        Self::OfferExpired,
        Self::OrderInProgress,
        Self::InsufficientBalance,
        Self::RecordNotFound,
        Self::WrongWithdrawPin,
        Self::NothingFixed,
        Self::Unaffordable,
        Self::ContactHours,
        Self::ContactPerson,
        Self::ExtensionNotAvailable,
        Self::InvalidPromise,
        Self::NotPermitted,
        Self::SecondStaffRequired,
        Self::CapBreached,
        Self::BankAccountChangeNotAllowed,
    ];

    /// The number sent as `code` in the envelope.
    pub fn code(self) -> u32 {
        match self {
            Self::TooManyRequests => 5,
            Self::SessionExpired => 7,
            Self::NotLoggedIn => 401,
            Self::Unknown => 500,
            Self::InvalidInviteCode => 10000,
            Self::PhoneAlreadyRegistered => 10001,
            Self::WrongPhoneOrPassword => 10002,
            Self::AccountNotFound => 10003,
            Self::RequestError => 10004,
            Self::CannotGetAuthenticationInfo => 10005,
            Self::UserUpdateFailed => 10006,
            Self::CouldNotGetUserInfo => 10008,
            Self::UnableToGetIdInfo => 10009,
            Self::VerificationCodeInvalid => 10011,
            Self::BankConnectionFailed => 10012,
            Self::GetVerificationCodeAgain => 10013,
            Self::InvalidIdNumber => 10014,
            Self::EmailAlreadyExists => 10025,
            Self::IdentityAlreadyRegistered => 10026,
            Self::InvalidBankAccountNumber => 10028,
            Self::IdPhotoNotVerified => 10035,
            Self::UploadFailed => 20000,
            Self::TokenInvalid => 20001,
            Self::AccountLocked => 20003,
            Self::NotQualified => 40000,
            Self::RepaymentAmountOutOfRange => 40001,
            Self::ServerError => 40003,
            Self::OfferExpired => 40004,
            Self::OrderInProgress => 40005,
            Self::InsufficientBalance => 40006,
            Self::RecordNotFound => 40007,
            Self::WrongWithdrawPin => 40008,
            Self::NothingFixed => 40009,
            Self::Unaffordable => 40010,
            Self::ContactHours => 50001,
            Self::ContactPerson => 50002,
            Self::ExtensionNotAvailable => 50003,
            Self::InvalidPromise => 50004,
            Self::NotPermitted => 50005,
            Self::SecondStaffRequired => 50006,
            Self::CapBreached => 50007,
            Self::BankAccountChangeNotAllowed => 110012,
        }
    }

    /// The catalogue's default message (the client prefers its own translation).
    pub fn default_message(self) -> &'static str {
        match self {
            Self::TooManyRequests => "too many requests, try again later",
            Self::SessionExpired => "session expired, please log in again",
            Self::NotLoggedIn => "not logged in",
            Self::Unknown => "unknown error",
            Self::InvalidInviteCode => "invalid invite code",
            Self::PhoneAlreadyRegistered => "phone number already registered",
            Self::WrongPhoneOrPassword => "wrong phone number or password",
            Self::AccountNotFound => "account not found",
            Self::RequestError => "request error",
            Self::CannotGetAuthenticationInfo => "cannot get authentication info",
            Self::UserUpdateFailed => "user update failed",
            Self::CouldNotGetUserInfo => "could not get user info",
            Self::UnableToGetIdInfo => "unable to get ID info",
            Self::VerificationCodeInvalid => "verification code invalid or expired",
            Self::BankConnectionFailed => "connection to bank account failed",
            Self::GetVerificationCodeAgain => "get the verification code again",
            Self::InvalidIdNumber => "invalid ID number",
            Self::EmailAlreadyExists => "email already exists",
            Self::IdentityAlreadyRegistered => "identity already registered",
            Self::InvalidBankAccountNumber => "invalid bank account number",
            Self::IdPhotoNotVerified => "ID photo could not be verified, re-upload",
            Self::UploadFailed => "upload failed",
            Self::TokenInvalid => "token invalid",
            Self::AccountLocked => "account locked",
            Self::NotQualified => "not qualified: complete your information first",
            Self::RepaymentAmountOutOfRange => "enter an amount between {min}–{max} for repayment",
            Self::ServerError => "server error",
            Self::OfferExpired => "offer expired",
            Self::OrderInProgress => "an order is already in progress",
            Self::InsufficientBalance => "insufficient balance",
            Self::RecordNotFound => "record not found",
            Self::WrongWithdrawPin => "wrong withdraw PIN ({n} attempts left)",
            Self::NothingFixed => "nothing was changed of what the officer asked to fix",
            Self::Unaffordable => "the amount is above what your declared income allows ({max})",
            Self::ContactHours => "contact not allowed at this hour ({window}, local time)",
            Self::ContactPerson => "this person may not be contacted about the debt",
            Self::ExtensionNotAvailable => "extension not available ({why})",
            Self::InvalidPromise => "promise to pay not valid ({why})",
            Self::NotPermitted => "not permitted for your role",
            Self::SecondStaffRequired => "a second staff member must approve this",
            Self::CapBreached => "the proposal breaks a compliance cap",
            Self::BankAccountChangeNotAllowed => {
                "bank account cannot be changed while a loan is active"
            }
        }
    }
}

/// A refusal one aggregate gave to a step of a workflow, recorded on the aggregate
/// that started it (e.g. the Order refused a payout the User authorised), so the
/// borrower's call can answer with the real code and reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepRefusal {
    /// The section-9 code.
    pub code: ErrorCode,
    /// The refusing aggregate's message (names the field or the rule).
    pub message: String,
}

impl StepRefusal {
    /// A refusal with this code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_code_of_the_catalogue_is_distinct() {
        let numbers: HashSet<u32> = ErrorCode::ALL.iter().map(|c| c.code()).collect();
        assert_eq!(numbers.len(), ErrorCode::ALL.len());
        assert!(numbers.contains(&110012) && numbers.contains(&40008) && numbers.contains(&5));
    }
}
