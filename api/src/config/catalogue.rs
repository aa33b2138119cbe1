//! The lending configuration as the domain's services: the product catalogue and the
//! reference data (banks, places, invite codes, the privacy notice) the aggregates ask.

use std::collections::HashSet;
use std::sync::Arc;

use aggregates::pricing::{Lender, Product};
use aggregates::reference::{AccountKind, Place};
use aggregates::services::{ProductCatalogue, ReferenceData};
use serde_json::Value as Json;

use super::lending::{LendingConfig, APP_LANGUAGES};

/// The configured catalogue and reference data, as the aggregates' services.
pub struct Configured {
    config: Arc<LendingConfig>,
    banks: HashSet<String>,
    e_wallets: HashSet<String>,
    places: HashSet<Place>,
    invite_codes: HashSet<String>,
}

impl Configured {
    /// Wraps a loaded configuration.
    pub fn new(config: Arc<LendingConfig>) -> Self {
        Self {
            banks: config.banks.iter().cloned().collect(),
            e_wallets: config.e_wallets.iter().cloned().collect(),
            places: config
                .provinces
                .iter()
                .flat_map(|region| {
                    let direct = region
                        .cities
                        .iter()
                        .map(|city| Place::new(&region.region, None, city));
                    let under_provinces = region.provinces.iter().flat_map(|province| {
                        province
                            .cities
                            .iter()
                            .map(|city| Place::new(&region.region, Some(&province.province), city))
                    });
                    direct.chain(under_provinces).collect::<Vec<_>>()
                })
                .collect(),
            invite_codes: config.invite_codes.iter().cloned().collect(),
            config,
        }
    }
}

impl ProductCatalogue for Configured {
    fn product(&self, app_id: i64) -> Option<Product> {
        self.config
            .products
            .iter()
            .find(|p| p.product.id == app_id)
            .map(|p| p.product.clone())
    }

    fn lender(&self) -> Lender {
        self.config.lender.clone()
    }

    fn collection_template(&self, id: &str) -> bool {
        self.config.collection_templates.contains_key(id)
    }

    fn waiver_four_eyes_above(&self) -> rust_decimal::Decimal {
        self.config.waiver_four_eyes_above
    }

    fn charge_off_after_days(&self) -> u32 {
        self.config.charge_off_after_days
    }

    fn delinquency_buckets(&self) -> aggregates::collections::Buckets {
        self.config.delinquency_buckets.clone()
    }
    fn public_holidays(&self) -> Vec<chrono::NaiveDate> {
        self.config.public_holidays.clone()
    }
}

impl ReferenceData for Configured {
    fn account_kind(&self, bank_name: &str) -> Option<AccountKind> {
        if self.e_wallets.contains(bank_name) {
            Some(AccountKind::EWallet)
        } else if self.banks.contains(bank_name) {
            Some(AccountKind::Bank)
        } else {
            None
        }
    }

    fn is_known_place(&self, place: &Place) -> bool {
        self.places.contains(place)
    }

    fn accepts_invite_code(&self, code: Option<&str>) -> bool {
        match code {
            Some(code) => self.invite_codes.contains(code),
            None => !self.config.invite_code_required,
        }
    }

    fn privacy_notice_version(&self) -> String {
        self.config.privacy_notice_version.clone()
    }

    /// Every language of the app when the notice is configured per language (the
    /// check at start requires all of them), else English only: one text is shown
    /// to every borrower as it is.
    fn privacy_notice_languages(&self) -> Vec<String> {
        let languages: &[&str] = match self.config.company.get("privacy-notice") {
            Some(Json::Object(_)) => APP_LANGUAGES,
            _ => &["en"],
        };
        languages.iter().map(|l| l.to_string()).collect()
    }

    fn retention_years(&self) -> u32 {
        self.config.retention_years
    }
}

#[cfg(test)]
mod tests {
    use aggregates::pricing::ComplianceProfile;

    use super::super::lending::DEMO_CONFIG;
    use super::*;

    #[test]
    fn the_demo_configuration_ships_the_psgc_region_province_city_tree() {
        let config = LendingConfig::load(DEMO_CONFIG, &ComplianceProfile::Ph).unwrap();
        let regions = &config.provinces;
        assert_eq!(regions.len(), 18);
        let provinces: usize = regions.iter().map(|r| r.provinces.len()).sum();
        let cities: usize = regions
            .iter()
            .map(|r| r.cities.len() + r.provinces.iter().map(|p| p.cities.len()).sum::<usize>())
            .sum();
        assert_eq!((provinces, cities), (84, 1642));
        // NCR has no provinces: its cities sit under the region.
        let ncr = &regions[0];
        assert_eq!(ncr.region, "National Capital Region (NCR)");
        assert!(ncr.provinces.is_empty());
        assert!(ncr.cities.iter().any(|c| c == "Quezon City"));
        assert!(
            !ncr.cities.iter().any(|c| c == "Binondo"),
            "no sub-municipalities"
        );

        let reference = Configured::new(Arc::new(config));
        let known = |text: &str| reference.is_known_place(&Place::parse(text).unwrap());
        assert!(known("National Capital Region (NCR),,Quezon City"));
        assert!(known("Region VII (Central Visayas),Cebu,City of Cebu"));
        assert!(known("Region IV-A (CALABARZON),Laguna,City of Calamba"));
        assert!(!known("Region VII (Central Visayas),Bohol,City of Cebu"));
        assert!(!known(
            "National Capital Region (NCR),Metro Manila,Quezon City"
        ));
        assert_eq!(reference.account_kind("GCash"), Some(AccountKind::EWallet));
        assert_eq!(
            reference.account_kind("BDO Unibank"),
            Some(AccountKind::Bank)
        );
        assert_eq!(reference.account_kind("Bangkok Bank"), None);
    }

    #[test]
    fn a_location_tree_may_be_given_inline() {
        let text = DEMO_CONFIG.replace(
            "\"provinces\": \"ph-psgc-2025-2q.json\"",
            r#""provinces": [{"region": "R", "provinces": [{"province": "P", "cities": ["C"]}]}, {"region": "N", "cities": ["D"]}]"#,
        );
        let config = LendingConfig::load(&text, &ComplianceProfile::Ph).unwrap();
        let reference = Configured::new(Arc::new(config));
        assert!(reference.is_known_place(&Place::new("R", Some("P"), "C")));
        assert!(reference.is_known_place(&Place::new("N", None, "D")));
        assert!(!reference.is_known_place(&Place::new("R", None, "C")));
    }
}
