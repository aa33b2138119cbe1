//! Lending settings as data (issue 55, after Apache Fineract's maker-checker, the
//! event-sourced way): a [`ChangeLine`] keeps every version of one setting, a loan
//! product's terms ([`ProductLine`], id `product:<app id>`) or the lender's settings
//! (invite codes, company texts, receiving accounts: [`SettingsLine`], id `settings`),
//! and changes them only by maker-checker.
//!
//! Guarantees, each decided in [`ChangeLine`]'s `handle`, the same for every
//! [`Setting`]:
//! - a change is proposed by one staff member and is checked at once: its shape
//!   ([`Product::check_offer`], [`LenderSettings::check_shape`]; 10004 naming the
//!   field) and, for a product, the compliance profile for every amount and period it
//!   offers (50007 naming the cap, PRODUCT.md 11);
//! - a proposal takes effect only once a *different* staff member approves it (50006
//!   for its maker), at the moment it states, or at the approval when that moment has
//!   already passed; never before; the checks run again at the approval, and a
//!   proposal made before a newer version was approved is refused (propose again), so
//!   an approval never silently undoes a newer version;
//! - every version is kept, in order: [`ChangeLine::value_at`] answers the version in
//!   force at any moment, stamped with its number, so the terms a borrower is shown
//!   and signs can always be traced to the version they came from;
//! - a proposal not approved may be rejected, with a reason; a decided proposal is
//!   never decided again (a repeat of the same decision changes nothing).
//!
//! What this module does not decide: which product a loan is signed under is the
//! Order's (`LoanTerms` copy the product's terms and version at apply and keep them
//! forever, so a later change never reaches a signed loan).

mod aggregate;
mod commands;
mod errors;
mod events;
mod settings;

#[cfg(test)]
mod tests;

pub use aggregate::{ChangeLine, ChangeServices, Proposal, Version};
pub use commands::ChangeCommand;
pub use errors::ChangeError;
pub use events::ChangeEvent;
pub use settings::{
    LenderSettings, ReceivingAccount, EDITABLE_TEXTS, LANGUAGES, LINK_TEXTS, PER_LANGUAGE_TEXTS,
};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::pricing::Product;

/// What a [`ChangeLine`] keeps versions of.
pub trait Setting:
    Clone + std::fmt::Debug + PartialEq + Eq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The aggregate type of its lines in the store.
    const LINE: &'static str;
    /// The line this value belongs to (a product's id; the lender's settings: 0).
    fn line_key(&self) -> i64;
    /// Whether it may be proposed and approved: its shape, then any cap it must keep
    /// (the profile's) and any list it must name from (the reference data's).
    /// Errors: [`ChangeError::Offer`] (10004), [`ChangeError::Cap`] (50007).
    fn check(&self, services: &ChangeServices) -> Result<(), ChangeError>;
    /// Itself as version `version` (0: as proposed).
    fn as_version(&self, version: u32) -> Self;
}

impl Setting for Product {
    const LINE: &'static str = "ProductLine";

    fn line_key(&self) -> i64 {
        self.id
    }

    fn check(&self, services: &ChangeServices) -> Result<(), ChangeError> {
        // The shape first: it bounds the amounts the caps are priced for.
        self.check_offer().map_err(ChangeError::Offer)?;
        services
            .compliance
            .check_product(self)
            .map_err(ChangeError::Cap)
    }

    fn as_version(&self, version: u32) -> Self {
        Self {
            version,
            ..self.clone()
        }
    }
}

/// A loan product's line (id `product:<app id>`).
pub type ProductLine = ChangeLine<Product>;
/// A command to a [`ProductLine`].
pub type ProductCommand = ChangeCommand<Product>;
/// An event of a [`ProductLine`].
pub type ProductEvent = ChangeEvent<Product>;
/// The lender's settings' line (id `settings`).
pub type SettingsLine = ChangeLine<LenderSettings>;
/// A command to a [`SettingsLine`].
pub type SettingsCommand = ChangeCommand<LenderSettings>;
