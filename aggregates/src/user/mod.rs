//! The User aggregate (id = user id): registration and login, identity, profile,
//! questionnaire, bank account, signature, withdraw PIN, locks, and the user's single
//! open loan application.
//!
//! Guarantees (PRODUCT.md section 0):
//! - the password and the withdraw PIN exist only as hashes (P2);
//! - only the borrower sets the PIN or binds the bank account, whose holder is always
//!   the borrower's own real name; replacing it needs an SMS code (P2, P3);
//! - five wrong passwords or five wrong PINs place a security lock, which only the
//!   borrower lifts with an SMS code; a compliance hold is set and lifted only by an
//!   auditor, with a reason; no unlock involves a payment (P4);
//! - registration records the privacy notice version the borrower accepted, and only
//!   the version the deployment shows now is accepted (PRODUCT.md 12.6, code 10004);
//! - at most one non-terminal order at a time (4.3, code 40005);
//! - the bound account and "a withdrawal is in flight" are decided here together, so
//!   a bank change and a withdrawal serialize on this aggregate's version: a payout
//!   goes to the account bound when it was requested, and a change while one is in
//!   flight, or while the loan is being repaid, answers 110012 (P3, section 5).

mod aggregate;
mod application;
mod banking;
mod commands;
mod credentials;
mod errors;
mod events;
mod identity;
mod profile;
mod withdrawal;

#[cfg(test)]
mod reference_tests;
#[cfg(test)]
mod tests;

pub use aggregate::{
    accepted_privacy_notice, AcceptedNotice, IdentityStatus, OpenResubmission, PendingWithdrawal,
    PrivacyConsent, Profile, Qualification, User, MAX_FAILED_ATTEMPTS,
};
pub use commands::{ProfileUpdate, UserCommand};
pub use errors::UserError;
pub use events::{
    EmergencyContact, LoanApplication, LockCause, LockKind, Questionnaire, UserEvent,
};
