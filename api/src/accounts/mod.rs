//! What the api keeps about accounts beside the event log: the staff accounts and
//! login attempts ([`auditors`]), what an admin does to them ([`staff`]), their roles
//! ([`roles`]) and second factor ([`second_factor`]), the values one account at most
//! may hold ([`claims`]) and the SMS verification codes ([`sms`]). Their SQL is in
//! `crate::db`.

pub mod auditors;
pub mod claims;
pub mod roles;
pub mod second_factor;
pub mod sms;
pub mod staff;
