//! The lending configuration as the domain's services: the product catalogue and the
//! reference data (banks, places, invite codes, the privacy notice) the aggregates ask.
//!
//! Products are data (issue 55): a product whose line (`catalogue::ProductLine`, id
//! `product:<app id>`) has an approved version in force answers that version; the
//! configuration file's product is version 0, in force until the first approved
//! version takes effect, so the file seeds a fresh deployment and a restart never
//! changes a product changed in the console. The lines are read from the store at
//! start, after each product command of this process, and every
//! [`PRODUCT_REFRESH`] by the workers (for the other processes of a deployment): a
//! change shows up without a restart.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

use aggregates::catalogue::{LenderSettings, ProductLine, Setting, SettingsLine};
use aggregates::pricing::{Lender, Product};
use aggregates::reference::{AccountKind, Place};
use aggregates::services::{Clock, ProductCatalogue, ReferenceData};
use chrono::{DateTime, Utc};
use cqrs_es::AggregateError;
use projections::store::CommandBus;
use serde_json::Value as Json;

use super::lending::{LendingConfig, APP_LANGUAGES, EDITABLE_TEXTS, TRANSLATED_TEXTS};

/// The id of the lender's settings' line in the store.
pub const SETTINGS_LINE_ID: &str = "settings";

/// How often a process reads the product lines again (another process may have
/// approved a change).
pub const PRODUCT_REFRESH: Duration = Duration::from_secs(30);

/// The id of product `app_id`'s line in the store.
pub fn product_line_id(app_id: i64) -> String {
    format!("product:{app_id}")
}

/// The configured catalogue and reference data, as the aggregates' services.
pub struct Configured {
    config: Arc<LendingConfig>,
    banks: HashSet<String>,
    e_wallets: HashSet<String>,
    places: HashSet<Place>,
    /// The configuration file's settings: version 0.
    original_settings: LenderSettings,
    clock: Arc<dyn Clock>,
    /// The lines with an approved version, by product id.
    lines: RwLock<HashMap<i64, Arc<ProductLine>>>,
    /// The lender's settings' line.
    settings: RwLock<Arc<SettingsLine>>,
}

impl Configured {
    /// Wraps a loaded configuration; products answer the version in force at
    /// `clock`'s now.
    pub fn new(config: Arc<LendingConfig>, clock: Arc<dyn Clock>) -> Self {
        Self {
            clock,
            lines: RwLock::default(),
            settings: RwLock::default(),
            original_settings: config.lender_settings(),
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
            config,
        }
    }

    /// The configuration file's product `app_id`: version 0.
    fn configured_product(&self, app_id: i64) -> Option<Product> {
        self.config
            .products
            .iter()
            .find(|p| p.product.id == app_id)
            .map(|p| p.product.as_version(0))
    }

    /// Product `app_id` as in force at `at`: the line's version then, else the
    /// configuration file's (version 0). Only configured products exist (their logo
    /// and translated names are the file's).
    pub fn product_at(&self, app_id: i64, at: DateTime<Utc>) -> Option<Product> {
        let configured = self.configured_product(app_id)?;
        let lines = self.lines.read().unwrap_or_else(PoisonError::into_inner);
        let versioned = lines
            .get(&app_id)
            .and_then(|line| line.value_at(at).cloned());
        Some(versioned.unwrap_or(configured))
    }

    /// The line of product `app_id` as last read (empty when none was ever proposed).
    pub fn line(&self, app_id: i64) -> Arc<ProductLine> {
        let lines = self.lines.read().unwrap_or_else(PoisonError::into_inner);
        lines.get(&app_id).cloned().unwrap_or_default()
    }

    /// Keeps `line` (as loaded after a command, or by a refresh) for product `app_id`.
    /// A read older than the one kept (a slow refresh finishing after a command's) is
    /// dropped.
    pub fn keep_line(&self, app_id: i64, line: ProductLine) {
        let mut lines = self.lines.write().unwrap_or_else(PoisonError::into_inner);
        let newer = lines
            .get(&app_id)
            .is_none_or(|kept| kept.events_folded() <= line.events_folded());
        if newer {
            lines.insert(app_id, Arc::new(line));
        }
    }

    /// The lender's settings in force at `at`: the line's version then, else the
    /// configuration file's (version 0).
    pub fn settings_at(&self, at: DateTime<Utc>) -> LenderSettings {
        let line = self.settings_line();
        line.value_at(at)
            .cloned()
            .unwrap_or_else(|| self.original_settings.clone())
    }

    /// The configuration file's settings (version 0).
    pub fn original_settings(&self) -> &LenderSettings {
        &self.original_settings
    }

    /// The lender's settings' line as last read.
    pub fn settings_line(&self) -> Arc<SettingsLine> {
        self.settings
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The company block the borrower app reads now: the file's, its editable texts
    /// ([`EDITABLE_TEXTS`]) those of the settings in force (one text where only English
    /// is given and the key is not one of [`TRANSLATED_TEXTS`], else one per language).
    pub fn company(&self) -> serde_json::Map<String, Json> {
        let settings = self.settings_at(self.clock.now());
        let mut company = self.config.company.clone();
        for key in EDITABLE_TEXTS {
            company.remove(key);
        }
        for (key, texts) in settings.texts {
            // Only the texts the console changes: never the consented privacy notice.
            if !EDITABLE_TEXTS.contains(&key.as_str()) {
                continue;
            }
            let english_only = texts.len() == 1 && texts.contains_key("en");
            let value = match texts.get("en") {
                Some(english) if english_only && !TRANSLATED_TEXTS.contains(&key.as_str()) => {
                    Json::String(english.clone())
                }
                _ => Json::Object(
                    texts
                        .into_iter()
                        .map(|(language, text)| (language, Json::String(text)))
                        .collect(),
                ),
            };
            company.insert(key, value);
        }
        company
    }

    /// Reads every configured product's line and the lender's settings' line from the
    /// store.
    ///
    /// Errors: the store's, as the bus answers them.
    pub async fn refresh(
        &self,
        products: &CommandBus<ProductLine>,
        settings: &CommandBus<SettingsLine>,
    ) -> Result<(), AggregateError<aggregates::catalogue::ChangeError>> {
        for app_id in self.config.products.iter().map(|p| p.product.id) {
            let line = products.load(&product_line_id(app_id)).await?;
            self.keep_line(app_id, line);
        }
        let line = settings.load(SETTINGS_LINE_ID).await?;
        let mut kept = self
            .settings
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        if kept.events_folded() <= line.events_folded() {
            *kept = Arc::new(line);
        }
        Ok(())
    }

    /// Reads the lines again every `every` until `shutdown` (another process of the
    /// deployment may have approved a change); a failed read is logged and retried at
    /// the next turn, the versions already read staying in force.
    pub async fn keep_fresh(
        self: Arc<Self>,
        products: Arc<CommandBus<ProductLine>>,
        settings: Arc<CommandBus<SettingsLine>>,
        every: Duration,
        mut shutdown: tokio::sync::watch::Receiver<bool>,
    ) {
        while !*shutdown.borrow() && shutdown.has_changed().is_ok() {
            tokio::select! {
                () = tokio::time::sleep(every) => {
                    if let Err(error) = self.refresh(&products, &settings).await {
                        tracing::warn!(%error, "reading the product lines failed");
                    }
                },
                _ = shutdown.changed() => {},
            }
        }
    }
}

impl ProductCatalogue for Configured {
    /// The version in force now ([`Configured::product_at`]).
    fn product(&self, app_id: i64) -> Option<Product> {
        self.product_at(app_id, self.clock.now())
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

    /// As the settings in force now say (issue 55).
    fn accepts_invite_code(&self, code: Option<&str>) -> bool {
        let settings = self.settings_at(self.clock.now());
        match code {
            Some(code) => settings.invite_codes.iter().any(|known| known == code),
            None => !settings.invite_code_required,
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

        let reference = Configured::new(
            Arc::new(config),
            Arc::new(crate::runtime::services::SystemClock),
        );
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
        let reference = Configured::new(
            Arc::new(config),
            Arc::new(crate::runtime::services::SystemClock),
        );
        assert!(reference.is_known_place(&Place::new("R", Some("P"), "C")));
        assert!(reference.is_known_place(&Place::new("N", None, "D")));
        assert!(!reference.is_known_place(&Place::new("R", None, "C")));
    }
}
