//! The ProductLine aggregate (id = `product:<app id>`): one loan product's terms as
//! data, changed only by maker-checker (issue 55, after Apache Fineract's
//! maker-checker, the event-sourced way).
//!
//! Guarantees, each decided in [`ProductLine`]'s `handle`:
//! - a change is proposed by one staff member and is checked at once against the
//!   compliance profile: a product that breaks a cap for any amount and period it
//!   offers is refused with 50007 naming the cap (PRODUCT.md 11);
//! - a proposal takes effect only once a *different* staff member approves it (50006
//!   for its maker), at the moment it states, or at the approval when that moment has
//!   already passed; never before; the caps are checked again at the approval, and a
//!   proposal made before a newer version was approved is refused (propose again), so
//!   an approval never silently undoes a newer version;
//! - every version is kept, in order: [`ProductLine::product_at`] answers the version in
//!   force at any moment, so the terms a borrower is shown and signs can always be
//!   traced to the version they came from;
//! - a proposal not approved may be rejected, with a reason; a decided proposal is
//!   never decided again (a repeat of the same decision changes nothing).
//!
//! What this aggregate does not decide: which product a loan is signed under is the
//! Order's (`LoanTerms` copy the product's terms at apply and keep them forever, so a
//! later change never reaches a signed loan).

mod aggregate;
mod commands;
mod errors;
mod events;

#[cfg(test)]
mod tests;

pub use aggregate::{ProductLine, ProductServices, Proposal, Version};
pub use commands::ProductCommand;
pub use errors::ProductError;
pub use events::ProductEvent;
