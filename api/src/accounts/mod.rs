//! What the api keeps about accounts beside the event log: the loan officers'
//! accounts and login attempts ([`auditors`]), the values one account at most may
//! hold ([`claims`]) and the SMS verification codes ([`sms`]). Their SQL is in
//! `crate::db`.

pub mod auditors;
pub mod claims;
pub mod sms;
