//! The shapes of the deployment's reference data that the User aggregate checks
//! values against (PRODUCT.md 5, 10, 11): where a borrower lives, and what a payout
//! account number looks like for the kind of institution chosen. Which places and
//! institutions exist is configuration (`services::ReferenceData`); the formats are
//! decided here, once.
//!
//! **Stored location format.** `provinceCity` holds `"Region,Province,City"` with the
//! PSGC names of the region, the province and the city or municipality. A region
//! without provinces (NCR, whose cities sit directly under it) leaves the middle
//! empty: `"National Capital Region (NCR),,Quezon City"`. PSGC names hold no comma,
//! and the configuration refuses a name that does, so the three parts are unambiguous.
//! Values stored before this format (`"province,city"`, two parts) still load: events
//! are never rewritten, and the User accepts an update that repeats the stored value
//! unchanged; any other value must name a configured place.

use crate::types::{all_digits, check_account_no};

/// Separates the parts of a stored location.
pub const PLACE_SEPARATOR: char = ',';

/// A city or municipality named by its region and, where the region has them, its
/// province. Built by [`Place::parse`] from the stored form.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Place {
    /// Region name, e.g. `Region VII (Central Visayas)`.
    pub region: String,
    /// Province name; `None` in a region without provinces (NCR).
    pub province: Option<String>,
    /// City or municipality name.
    pub city: String,
}

impl Place {
    /// A place from its parts; an empty province means none.
    pub fn new(region: &str, province: Option<&str>, city: &str) -> Self {
        Self {
            region: region.to_string(),
            province: province.filter(|p| !p.is_empty()).map(str::to_string),
            city: city.to_string(),
        }
    }

    /// Parses the stored form `"Region,Province,City"` (the province may be empty).
    /// `None` unless there are exactly three parts with a non-empty region and city
    /// and no part has leading or trailing spaces.
    pub fn parse(text: &str) -> Option<Self> {
        let parts: Vec<&str> = text.split(PLACE_SEPARATOR).collect();
        let [region, province, city] = parts.as_slice() else {
            return None;
        };
        let tidy = |part: &str| part.trim() == part;
        if region.is_empty() || city.is_empty() || ![region, province, city].iter().all(|p| tidy(p))
        {
            return None;
        }
        Some(Self::new(region, Some(province), city))
    }

    /// The stored form, the inverse of [`Place::parse`].
    pub fn to_stored(&self) -> String {
        format!(
            "{}{PLACE_SEPARATOR}{}{PLACE_SEPARATOR}{}",
            self.region,
            self.province.as_deref().unwrap_or(""),
            self.city
        )
    }
}

/// What kind of institution a payout account is held at, which decides what its
/// account number looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountKind {
    /// A bank: the account number is 8–20 digits (PRODUCT.md 5).
    Bank,
    /// An e-wallet (GCash, Maya): the account is the wallet's mobile number,
    /// `09` and 9 more digits.
    EWallet,
}

impl AccountKind {
    /// True when `account_no` is a well-formed account number of this kind.
    pub fn accepts(self, account_no: &str) -> bool {
        match self {
            Self::Bank => check_account_no(account_no),
            Self::EWallet => {
                account_no.len() == 11 && account_no.starts_with("09") && all_digits(account_no)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_with_a_province_round_trips() {
        let place = Place::parse("Region VII (Central Visayas),Cebu,City of Cebu").unwrap();
        assert_eq!(
            place,
            Place::new("Region VII (Central Visayas)", Some("Cebu"), "City of Cebu")
        );
        assert_eq!(
            place.to_stored(),
            "Region VII (Central Visayas),Cebu,City of Cebu"
        );
    }

    #[test]
    fn a_place_in_ncr_has_no_province() {
        let place = Place::parse("National Capital Region (NCR),,Quezon City").unwrap();
        assert_eq!(place.province, None);
        assert_eq!(
            place.to_stored(),
            "National Capital Region (NCR),,Quezon City"
        );
    }

    #[test]
    fn malformed_places_are_refused() {
        for text in [
            "Metro Manila,Quezon City",
            "",
            ",,",
            "Region,Province,",
            ",Province,City",
            "Region,Province,City,Extra",
            " Region,Province,City",
            "Region,Province ,City",
        ] {
            assert_eq!(Place::parse(text), None, "{text:?}");
        }
    }

    #[test]
    fn an_e_wallet_account_is_a_mobile_number() {
        assert!(AccountKind::EWallet.accepts("09171234567"));
        assert!(!AccountKind::EWallet.accepts("0917123456"));
        assert!(!AccountKind::EWallet.accepts("091712345678"));
        assert!(!AccountKind::EWallet.accepts("08171234567"));
        assert!(!AccountKind::EWallet.accepts("0917123456a"));
        assert!(AccountKind::Bank.accepts("001234567890"));
        assert!(!AccountKind::Bank.accepts("1234567"));
    }
}
