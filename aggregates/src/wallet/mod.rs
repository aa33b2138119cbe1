//! The Wallet aggregate (id = user id): the borrower's money held by the platform.
//!
//! Two pots: `proceeds` (approved, undrawn loan amounts per order) and `cash`
//! (recharges received and not yet applied to a loan). Guarantees:
//! - every external money id (order approval, payout id, payment reference) is
//!   applied at most once, so a retried or duplicated process step changes nothing;
//! - money received is always recorded, even when it turns out to exceed what is
//!   owed: the excess stays the borrower's cash, never an income (P1);
//! - no balance ever goes negative; nothing here ever creates a charge (P11).

mod aggregate;
mod cash;
mod commands;
mod errors;
mod events;
mod proceeds;
mod refund;

#[cfg(test)]
mod tests;

pub use aggregate::{ReturnedRefund, Wallet};
pub use commands::WalletCommand;
pub use errors::WalletError;
pub use events::WalletEvent;
