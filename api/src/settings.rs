//! Deployment configuration: environment variables (README "Configuration") and the
//! lending configuration file (products, lender, company texts, reference lists),
//! `api/config/demo.json` unless `CONFIG_FILE` names another.
//!
//! Products are checked against the compliance profile when the file loads: the
//! server refuses to start with a product that breaks a cap (P5). The lender's name
//! and licence numbers are required (P14).

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use aggregates::pricing::{CompliancePolicy, ComplianceProfile, Lender, Product};
use aggregates::reference::{AccountKind, Place, PLACE_SEPARATOR};
use aggregates::services::{ProductCatalogue, ReferenceData};
use serde::Deserialize;
use serde_json::Value as Json;

/// The demo configuration shipped with the code.
pub const DEMO_CONFIG: &str = include_str!("../config/demo.json");

/// A product as configured: the domain's product plus its logo and the name in the
/// app's other languages.
#[derive(Debug, Clone, Deserialize)]
pub struct ProductConfig {
    /// The product.
    #[serde(flatten)]
    pub product: Product,
    /// Logo URL.
    #[serde(default)]
    pub logo: String,
    /// The product's name in the app's other languages (`{"zh": …, "fil": …}`); the
    /// product's `name` is the English one, which a language without its own shows.
    /// Display only: orders record `name` (PRODUCT.md 10).
    #[serde(default)]
    pub name_translations: BTreeMap<String, String>,
}

/// Currency settings (PRODUCT.md section 1).
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
pub struct Currency {
    /// ISO 4217 code.
    pub code: String,
    /// Symbol.
    pub symbol: String,
    /// BCP 47 locale for number formatting.
    pub locale: String,
}

/// A region of the location tree (PRODUCT.md 11), PSGC names under `PH`: either
/// provinces with their cities, or, in a region without provinces (NCR), its cities
/// directly. `/loan/getConfigByKey` `provinces` answers the tree in this shape; empty
/// lists are left out.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
pub struct Region {
    /// Region name, e.g. `Region VII (Central Visayas)`.
    pub region: String,
    /// Its provinces; empty in a region without provinces.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub provinces: Vec<Province>,
    /// Cities and municipalities directly under the region (NCR); empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cities: Vec<String>,
}

/// A province and its cities and municipalities.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
pub struct Province {
    /// Province name.
    pub province: String,
    /// Its cities and municipalities.
    pub cities: Vec<String>,
}

/// Location trees shipped with the code, by the name a configuration gives as
/// `provinces`: `ph-psgc-2025-2q.json` is the PSA's PSGC of 30 June 2025
/// (`api/config/README.md`, rebuilt by `scripts/psgc-locations.mjs`).
pub const SHIPPED_LOCATIONS: [(&str, &str); 1] = [(
    "ph-psgc-2025-2q.json",
    include_str!("../config/ph-psgc-2025-2q.json"),
)];

/// `provinces` in the configuration: the tree inline, or the name of a shipped tree.
fn locations<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<Region>, D::Error> {
    use serde::de::Error;
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Source {
        Inline(Vec<Region>),
        Shipped(String),
    }
    match Source::deserialize(deserializer)? {
        Source::Inline(regions) => Ok(regions),
        Source::Shipped(name) => {
            let (_, text) = SHIPPED_LOCATIONS
                .iter()
                .find(|(shipped, _)| *shipped == name)
                .ok_or_else(|| {
                    D::Error::custom(format!(
                        "provinces: {name:?} is no shipped location tree (expected a list of regions or one of {:?})",
                        SHIPPED_LOCATIONS.map(|(n, _)| n)
                    ))
                })?;
            serde_json::from_str(text).map_err(D::Error::custom)
        }
    }
}

/// The company texts that may be given per language (`{"en": …, "zh": …}`): what the
/// borrower reads about the lender, its FAQ, its service hours and the privacy notice.
pub const TRANSLATED_TEXTS: &[&str] = &[
    "about-us",
    "faq",
    "customer-service-hours",
    "privacy-notice",
];

/// The borrower app's languages (web/src/lib/i18n.ts `LANGUAGES`).
pub const APP_LANGUAGES: &[&str] = &["en", "zh", "fil"];

/// The lending configuration file.
#[derive(Debug, Clone, Deserialize)]
pub struct LendingConfig {
    /// The lender (P14).
    pub lender: Lender,
    /// Currency.
    pub currency: Currency,
    /// Whether registration needs an invite code (default true).
    #[serde(default = "yes")]
    pub invite_code_required: bool,
    /// Known agent codes (attribution only, P13).
    pub invite_codes: Vec<String>,
    /// The version of the privacy notice (the company text `privacy-notice`) that
    /// registration shows and records as accepted (PRODUCT.md 12.6). Change it with
    /// the text: a registration screen opened before the change is then refused.
    pub privacy_notice_version: String,
    /// Years a borrower's personal data is kept after their last loan closed (or after
    /// registration, for one who never borrowed) before an auditor may erase it
    /// (PRODUCT.md 12.6; default 5).
    #[serde(default = "five")]
    pub retention_years: u32,
    /// Company config: key → value (`/loan/getAllCompanyConfigs`).
    pub company: serde_json::Map<String, Json>,
    /// Products.
    pub products: Vec<ProductConfig>,
    /// Banks and e-wallets a payout can go to, by the name the borrower picks.
    pub banks: Vec<String>,
    /// The names in `banks` that are e-wallets: their account number is the wallet's
    /// mobile number (`aggregates::reference::AccountKind`).
    #[serde(default)]
    pub e_wallets: Vec<String>,
    /// Education levels.
    pub education: Vec<String>,
    /// Marital statuses.
    pub marriage: Vec<String>,
    /// The location tree, region → province → city/municipality: inline, or the name
    /// of a shipped tree ([`SHIPPED_LOCATIONS`]).
    #[serde(deserialize_with = "locations")]
    pub provinces: Vec<Region>,
    /// Bank name → the payout provider's channel code (Xendit's `PH_BDO`, ...):
    /// `PAYOUT_PROVIDER=xendit` needs one for every bank in `banks`.
    #[serde(default)]
    pub payout_channels: std::collections::HashMap<String, String>,
}

fn yes() -> bool {
    true
}

fn five() -> u32 {
    5
}

/// Why the configuration cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// Path.
        path: String,
        /// Cause.
        source: std::io::Error,
    },
    /// The file is not valid configuration.
    #[error("invalid lending configuration: {0}")]
    Parse(#[from] serde_json::Error),
    /// A product breaks the compliance profile (P5).
    #[error("product {product} breaks the {profile} compliance profile: {breach}")]
    Compliance {
        /// Product id.
        product: i64,
        /// Profile name.
        profile: String,
        /// What breaks.
        breach: String,
    },
    /// Something required is missing.
    #[error("{0}")]
    Missing(&'static str),
    /// `COMPLIANCE_PROFILE` names no shipped profile.
    #[error("unknown COMPLIANCE_PROFILE {0:?}: expected PH or TH")]
    Profile(String),
    /// `TRUST_PROXY` names no client address source.
    #[error(
        "unknown TRUST_PROXY {0:?}: expected false, true (the right-most X-Forwarded-For \
         entry) or an axum-client-ip source such as XRealIp"
    )]
    TrustProxy(String),
    /// `APP_ENV` is neither `demo` nor `production`.
    #[error("unknown APP_ENV {0:?}: expected demo or production")]
    AppEnv(String),
    /// A provider variable names an adapter this build does not have.
    #[error("unknown {name} {value:?}: expected one of {known}")]
    Provider {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
        /// The names this build has.
        known: String,
    },
    /// `PAYOUT_PROVIDER=xendit` and a bank without a channel code.
    #[error("PAYOUT_PROVIDER=xendit: the bank {0:?} has no entry in payout_channels")]
    NoPayoutChannel(String),
    /// Reference data that cannot be used: an e-wallet that is not a bank of the
    /// list, or a location tree with a nameless, duplicated or comma-holding name, or
    /// a region with both or neither provinces and cities.
    #[error("invalid reference data: {0}")]
    Reference(String),
    /// A company text that is neither one text nor one per language with English.
    #[error("invalid company text: {0}")]
    Text(String),
    /// `APP_ENV=production` with something only a demo may run with.
    #[error("APP_ENV=production refused: {0}")]
    Production(&'static str),
}

impl LendingConfig {
    /// Parses and validates the configuration against `profile`.
    pub fn load(text: &str, profile: &ComplianceProfile) -> Result<Self, ConfigError> {
        let config: LendingConfig = serde_json::from_str(text)?;
        let lender = &config.lender;
        if lender.legal_name.trim().is_empty() || lender.licence_no.trim().is_empty() {
            return Err(ConfigError::Missing(
                "the lender's legal name and licence number are required (P14)",
            ));
        }
        let version = &config.privacy_notice_version;
        if version.trim().is_empty() || version.trim() != version || version.chars().count() > 40 {
            return Err(ConfigError::Missing(
                "privacy_notice_version must name the privacy notice's version \
                 (1-40 characters, no surrounding spaces; PRODUCT.md 12.6)",
            ));
        }
        if !config.products.iter().any(|p| p.product.enabled) {
            return Err(ConfigError::Missing(
                "at least one enabled product is required",
            ));
        }
        for configured in &config.products {
            profile
                .check_product(&configured.product)
                .map_err(|breach| ConfigError::Compliance {
                    product: configured.product.id,
                    profile: format!("{profile:?}"),
                    breach: breach.to_string(),
                })?;
        }
        config.check_reference_data()?;
        config.check_texts()?;
        config.check_product_names()?;
        Ok(config)
    }

    /// The company texts a borrower reads ([`TRANSLATED_TEXTS`]) are one text, or one
    /// per language of the app ([`APP_LANGUAGES`], `{"en": …, "zh": …, "fil": …}`) with
    /// a non-blank English one, which the app shows for a language that has none. The
    /// privacy notice per language has every language: its version is what consent
    /// records, so no borrower may be shown another language's notice under it, and a
    /// change to any of its translations needs a new `privacy_notice_version`.
    fn check_texts(&self) -> Result<(), ConfigError> {
        for key in TRANSLATED_TEXTS {
            let refuse = |why: String| Err(ConfigError::Text(format!("{key}: {why}")));
            let texts = match self.company.get(*key) {
                None | Some(Json::Null | Json::String(_)) => continue,
                Some(Json::Object(texts)) => texts,
                Some(_) => {
                    return refuse("must be a text, or an object of texts by language".into())
                }
            };
            if let Some(language) = texts.keys().find(|l| !APP_LANGUAGES.contains(&l.as_str())) {
                return refuse(format!(
                    "{language:?} is not a language of the app ({})",
                    APP_LANGUAGES.join(", ")
                ));
            }
            if let Some((language, _)) = texts.iter().find(|(_, text)| !text.is_string()) {
                return refuse(format!("the {language:?} text is not a string"));
            }
            let english = texts.get("en").and_then(Json::as_str);
            if english.is_none_or(|en| en.trim().is_empty()) {
                return refuse("a text per language needs a non-blank English one (\"en\")".into());
            }
            if *key == "privacy-notice" {
                // Consent records the language read in: each one has a text to read.
                let blank = |l: &str| {
                    texts
                        .get(l)
                        .and_then(Json::as_str)
                        .is_none_or(|t| t.trim().is_empty())
                };
                if let Some(missing) = APP_LANGUAGES.iter().find(|l| blank(l)) {
                    return refuse(format!(
                        "the privacy notice per language needs a non-blank text in every \
                         language of the app: {missing:?} is missing or blank"
                    ));
                }
            }
        }
        Ok(())
    }

    /// A product's translated names are in the app's languages other than English
    /// (its `name` is the English one), each non-blank.
    fn check_product_names(&self) -> Result<(), ConfigError> {
        for configured in &self.products {
            for (language, name) in &configured.name_translations {
                if language == "en" || !APP_LANGUAGES.contains(&language.as_str()) {
                    return Err(ConfigError::Text(format!(
                        "product {}: name_translations {language:?} is not one of the app's \
                         other languages ({}; `name` is the English one)",
                        configured.product.id,
                        APP_LANGUAGES[1..].join(", ")
                    )));
                }
                if name.trim().is_empty() {
                    return Err(ConfigError::Text(format!(
                        "product {}: the {language:?} name is blank",
                        configured.product.id
                    )));
                }
            }
        }
        Ok(())
    }

    /// Every e-wallet is a listed bank; every location name is non-empty, holds no
    /// comma (the stored form is `"Region,Province,City"`) and is unique among its
    /// siblings; a region has provinces or cities directly, not both.
    fn check_reference_data(&self) -> Result<(), ConfigError> {
        let refuse = |why: String| Err(ConfigError::Reference(why));
        if let Some(wallet) = self.e_wallets.iter().find(|w| !self.banks.contains(w)) {
            return refuse(format!("the e-wallet {wallet:?} is not in banks"));
        }
        fn names<'a>(
            kind: &str,
            list: impl Iterator<Item = &'a String>,
        ) -> Result<(), ConfigError> {
            let mut seen = HashSet::new();
            for name in list {
                if name.trim().is_empty() || name.trim() != name || name.contains(PLACE_SEPARATOR) {
                    return Err(ConfigError::Reference(format!(
                        "the {kind} name {name:?} is empty, padded or holds a comma"
                    )));
                }
                if !seen.insert(name) {
                    return Err(ConfigError::Reference(format!(
                        "the {kind} {name:?} is listed twice"
                    )));
                }
            }
            Ok(())
        }
        names("region", self.provinces.iter().map(|r| &r.region))?;
        for region in &self.provinces {
            if region.provinces.is_empty() == region.cities.is_empty() {
                return refuse(format!(
                    "the region {:?} must have either provinces or cities",
                    region.region
                ));
            }
            names("province", region.provinces.iter().map(|p| &p.province))?;
            names("city", region.cities.iter())?;
            for province in &region.provinces {
                if province.cities.is_empty() {
                    return refuse(format!(
                        "the province {:?} has no cities",
                        province.province
                    ));
                }
                names("city", province.cities.iter())?;
            }
        }
        Ok(())
    }
}

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

/// Environment settings (README "Configuration").
#[derive(Debug, Clone)]
pub struct Env {
    /// `DATABASE_URL`.
    pub database_url: String,
    /// `READ_DATABASE_URL`: a PostgreSQL read replica (streaming standby) of
    /// `DATABASE_URL` for the read-model queries; unset, they read the primary
    /// (ADR 0013).
    pub read_database_url: Option<String>,
    /// `BIND_ADDR`.
    pub bind_addr: String,
    /// `COMPLIANCE_PROFILE` (`PH` default, `TH`).
    pub compliance_profile: ComplianceProfile,
    /// `CONFIG_FILE`: lending configuration; the shipped demo when unset.
    pub config_file: Option<String>,
    /// `TOKEN_TTL_HOURS`: a borrower session's lifetime (default 720 = 30 days).
    pub token_ttl_hours: i64,
    /// `AUDITOR_TOKEN_TTL_HOURS`: an auditor (loan officer) session's lifetime
    /// (default 12, a working day): an officer's token opens every borrower's personal
    /// data and moves money, so one left signed in on a shared desk, or copied, lasts
    /// a day at most, not a month.
    pub auditor_token_ttl_hours: i64,
    /// `STORAGE_URL`: where uploaded images are stored (see [`crate::files`]).
    pub storage_url: String,
    /// `TRUST_PROXY`: where the per-address limits read the client address
    /// ([`crate::ops::client_ip_source`]).
    pub client_ip_source: axum_client_ip::ClientIpSource,
    /// `WEB_DIST`: the built web app (default `web/dist`).
    pub web_dist: std::path::PathBuf,
    /// `APP_ENV`: `demo` (default) or `production` (PRODUCT.md 12.7, [`Env::check_production`]).
    pub app_env: AppEnv,
    /// `PAYMENT_PROVIDER`, `PAYOUT_PROVIDER` and `SMS_PROVIDER` (PRODUCT.md 12.7).
    pub providers: Providers,
    /// `XENDIT_SECRET_KEY`, `XENDIT_CALLBACK_TOKEN`, `XENDIT_BASE_URL`: needed when a
    /// provider is `xendit`.
    pub xendit: Option<XenditSettings>,
    /// `SEMAPHORE_API_KEY`, `SEMAPHORE_SENDER_NAME`, `SEMAPHORE_BASE_URL`: needed with
    /// `SMS_PROVIDER=semaphore`.
    pub semaphore: Option<SemaphoreSettings>,
    /// `WEBHOOK_SECRET`, as set (checked by a production start; the webhook itself
    /// reads it through [`crate::payment::webhook_secret`]).
    pub webhook_secret: Option<String>,
    /// `METRICS_TOKEN`: the bearer token `GET /metrics` needs; without one `/metrics`
    /// answers 404, so the figures are never public.
    pub metrics_token: Option<String>,
    /// `PDF_FONT`: the font of the PDF documents (Latin and CJK glyphs); when unset,
    /// Noto Sans CJK where Linux distributions install it
    /// ([`crate::documents::fonts::DEFAULT_FONT_PATHS`]). Checked at start-up.
    pub pdf_font: Option<std::path::PathBuf>,
}

/// Which kind of deployment this is (`APP_ENV`, PRODUCT.md 12.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppEnv {
    /// The default: the sandbox payment page and sandbox payout are allowed.
    Demo,
    /// Real money: [`Env::check_production`] must pass before anything is opened.
    Production,
}

/// The providers named by configuration (PRODUCT.md 12.7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Providers {
    /// `PAYMENT_PROVIDER`: `sandbox` (default) or `xendit` (invoices).
    pub payment: String,
    /// `PAYOUT_PROVIDER`: `sandbox` (default) or `xendit` (payouts v2).
    pub payout: String,
    /// `SMS_PROVIDER`: `outbox` (default: the `sms_outbox` table is the delivery) or
    /// `semaphore` (the outbox relayed to Semaphore's API).
    pub sms: String,
}

impl Default for Providers {
    fn default() -> Self {
        Self {
            payment: SANDBOX.to_string(),
            payout: SANDBOX.to_string(),
            sms: OUTBOX.to_string(),
        }
    }
}

/// The built-in payment and payout provider that moves no money.
pub const SANDBOX: &str = "sandbox";
/// Xendit (api.xendit.co): invoices for payments, payouts v2 for payouts.
pub const XENDIT: &str = "xendit";
/// The built-in SMS "provider": messages stay in the `sms_outbox` table.
pub const OUTBOX: &str = "outbox";
/// Semaphore (api.semaphore.co), a Philippine SMS gateway.
pub const SEMAPHORE: &str = "semaphore";

/// How to reach Xendit.
#[derive(Clone, PartialEq, Eq)]
pub struct XenditSettings {
    /// `XENDIT_BASE_URL` (default `https://api.xendit.co`; a loopback fake in tests).
    pub base_url: String,
    /// `XENDIT_SECRET_KEY`: the API key, sent as the basic-auth user name.
    pub secret_key: String,
    /// `XENDIT_CALLBACK_TOKEN`: the webhook verification token Xendit sends as
    /// `x-callback-token`.
    pub callback_token: String,
    /// `XENDIT_TIMEOUT_SECS` (default 15): how long one call may take before it counts
    /// as unanswered and is retried with the same idempotency key.
    pub timeout: std::time::Duration,
}

impl std::fmt::Debug for XenditSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "XenditSettings({}, keys hidden)", self.base_url)
    }
}

/// How to reach Semaphore.
#[derive(Clone, PartialEq, Eq)]
pub struct SemaphoreSettings {
    /// `SEMAPHORE_BASE_URL` (default `https://api.semaphore.co`).
    pub base_url: String,
    /// `SEMAPHORE_API_KEY`.
    pub api_key: String,
    /// `SEMAPHORE_SENDER_NAME`: the registered sender name, when there is one.
    pub sender_name: Option<String>,
}

impl std::fmt::Debug for SemaphoreSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SemaphoreSettings({}, key hidden)", self.base_url)
    }
}

/// Shortest `WEBHOOK_SECRET` a production start accepts: 32 bytes, the HMAC-SHA256
/// block-size guidance of RFC 2104 section 3 for a key of full strength.
pub const MIN_PRODUCTION_SECRET_LEN: usize = 32;

/// One environment variable, trimmed; `None` when unset or empty. Every setting of
/// the api is read through here (README "Configuration").
pub fn var(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// `STORAGE_URL`; else the deprecated `STORAGE_DIR` (with a warning); else the default
/// directory.
pub fn storage_url() -> String {
    if let Some(url) = var("STORAGE_URL") {
        return url;
    }
    if let Some(dir) = var("STORAGE_DIR") {
        tracing::warn!(
            "STORAGE_DIR is deprecated: set STORAGE_URL (a directory or file:///path) instead"
        );
        return dir;
    }
    crate::files::DEFAULT_STORAGE_DIR.to_string()
}

impl Env {
    /// Reads the environment, with working defaults.
    pub fn from_env() -> Result<Self, ConfigError> {
        let profile_name = var("COMPLIANCE_PROFILE").unwrap_or_else(|| "PH".to_string());
        let compliance_profile =
            ComplianceProfile::named(&profile_name).ok_or(ConfigError::Profile(profile_name))?;
        let trust_proxy = var("TRUST_PROXY");
        let app_env = match var("APP_ENV").as_deref() {
            None | Some("demo") => AppEnv::Demo,
            Some("production") => AppEnv::Production,
            Some(other) => return Err(ConfigError::AppEnv(other.to_string())),
        };
        let providers = Providers {
            payment: var("PAYMENT_PROVIDER").unwrap_or_else(|| SANDBOX.to_string()),
            payout: var("PAYOUT_PROVIDER").unwrap_or_else(|| SANDBOX.to_string()),
            sms: var("SMS_PROVIDER").unwrap_or_else(|| OUTBOX.to_string()),
        };
        let xendit = match (var("XENDIT_SECRET_KEY"), var("XENDIT_CALLBACK_TOKEN")) {
            (Some(secret_key), Some(callback_token)) => Some(XenditSettings {
                base_url: var("XENDIT_BASE_URL")
                    .unwrap_or_else(|| "https://api.xendit.co".to_string()),
                secret_key,
                callback_token,
                timeout: std::time::Duration::from_secs(
                    var("XENDIT_TIMEOUT_SECS")
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(15),
                ),
            }),
            _ => None,
        };
        let semaphore = var("SEMAPHORE_API_KEY").map(|api_key| SemaphoreSettings {
            base_url: var("SEMAPHORE_BASE_URL")
                .unwrap_or_else(|| "https://api.semaphore.co".to_string()),
            api_key,
            sender_name: var("SEMAPHORE_SENDER_NAME"),
        });
        Ok(Self {
            database_url: projections::store::default_database_url(),
            read_database_url: var("READ_DATABASE_URL"),
            bind_addr: var("BIND_ADDR").unwrap_or_else(|| crate::DEFAULT_BIND_ADDR.to_string()),
            compliance_profile,
            config_file: var("CONFIG_FILE"),
            token_ttl_hours: var("TOKEN_TTL_HOURS")
                .and_then(|v| v.parse().ok())
                .unwrap_or(720),
            auditor_token_ttl_hours: var("AUDITOR_TOKEN_TTL_HOURS")
                .and_then(|v| v.parse().ok())
                .unwrap_or(12),
            storage_url: storage_url(),
            client_ip_source: crate::ops::client_ip_source(trust_proxy.as_deref())
                .ok_or(ConfigError::TrustProxy(trust_proxy.unwrap_or_default()))?,
            web_dist: var("WEB_DIST").map_or_else(
                || std::path::PathBuf::from("web/dist"),
                std::path::PathBuf::from,
            ),
            app_env,
            providers,
            xendit,
            semaphore,
            webhook_secret: var("WEBHOOK_SECRET"),
            metrics_token: var("METRICS_TOKEN"),
            pdf_font: var("PDF_FONT").map(std::path::PathBuf::from),
        })
    }

    /// Refuses a provider name this build does not have, a xendit or semaphore
    /// provider without its settings, and Xendit payouts to a configured bank that
    /// has no channel code.
    pub fn check_providers(&self, config: &LendingConfig) -> Result<(), ConfigError> {
        let known = [
            (
                "PAYMENT_PROVIDER",
                &self.providers.payment,
                [SANDBOX, XENDIT],
            ),
            ("PAYOUT_PROVIDER", &self.providers.payout, [SANDBOX, XENDIT]),
            ("SMS_PROVIDER", &self.providers.sms, [OUTBOX, SEMAPHORE]),
        ];
        for (name, value, names) in known {
            if !names.contains(&value.as_str()) {
                return Err(ConfigError::Provider {
                    name,
                    value: value.clone(),
                    known: names.join(", "),
                });
            }
        }
        let uses_xendit = [&self.providers.payment, &self.providers.payout]
            .iter()
            .any(|p| p.as_str() == XENDIT);
        if uses_xendit && self.xendit.is_none() {
            return Err(ConfigError::Missing(
                "a xendit provider needs XENDIT_SECRET_KEY and XENDIT_CALLBACK_TOKEN",
            ));
        }
        if self.providers.sms == SEMAPHORE && self.semaphore.is_none() {
            return Err(ConfigError::Missing(
                "SMS_PROVIDER=semaphore needs SEMAPHORE_API_KEY",
            ));
        }
        if self.providers.payout == XENDIT {
            if let Some(bank) = config
                .banks
                .iter()
                .find(|bank| !config.payout_channels.contains_key(*bank))
            {
                return Err(ConfigError::NoPayoutChannel(bank.clone()));
            }
        }
        Ok(())
    }

    /// With `APP_ENV=production`, refuses what would let a real-money deployment take
    /// or pay money that never moves, text no phone, or verify webhooks with a public
    /// key (PRODUCT.md 12.7): a sandbox payment or payout provider, the outbox as the
    /// SMS provider, an unset, development or short `WEBHOOK_SECRET`, or the shipped
    /// demo configuration (its lender and licence are fictional; a missing licence is
    /// refused in every mode, P14). The error says which, in one line. Nothing is
    /// checked in demo.
    pub fn check_production(&self) -> Result<(), ConfigError> {
        if self.app_env != AppEnv::Production {
            return Ok(());
        }
        let refuse = |reason: &'static str| Err(ConfigError::Production(reason));
        if self.providers.payment == SANDBOX {
            return refuse("PAYMENT_PROVIDER is the sandbox, which takes no real money");
        }
        if self.providers.payout == SANDBOX {
            return refuse("PAYOUT_PROVIDER is the sandbox, which pays no real money");
        }
        if self.providers.sms == OUTBOX {
            return refuse("SMS_PROVIDER is the outbox, which texts no phone");
        }
        match self.webhook_secret.as_deref() {
            None => return refuse("WEBHOOK_SECRET is not set"),
            Some(crate::payment::DEVELOPMENT_WEBHOOK_SECRET) => {
                return refuse("WEBHOOK_SECRET is the public development secret")
            }
            Some(secret) if secret.len() < MIN_PRODUCTION_SECRET_LEN => {
                return refuse("WEBHOOK_SECRET is shorter than 32 bytes")
            }
            Some(_) => {}
        }
        if self.config_file.is_none() {
            return refuse(
                "CONFIG_FILE is not set: the shipped demo configuration names a fictional lender and licence",
            );
        }
        Ok(())
    }

    /// Loads the lending configuration this environment names.
    pub fn lending_config(&self) -> Result<LendingConfig, ConfigError> {
        let text = match &self.config_file {
            Some(path) => std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
                path: path.clone(),
                source,
            })?,
            None => DEMO_CONFIG.to_string(),
        };
        LendingConfig::load(&text, &self.compliance_profile)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_configuration_loads_under_ph_and_is_refused_under_th() {
        let config = LendingConfig::load(DEMO_CONFIG, &ComplianceProfile::Ph).unwrap();
        assert_eq!(config.products.len(), 3);
        assert_eq!(
            config.products.iter().filter(|p| p.product.enabled).count(),
            1
        );
        // PRODUCT.md 11: the PH configuration ships Philippine banks and e-wallets.
        for bank in [
            "BDO Unibank",
            "Land Bank of the Philippines",
            "GCash",
            "Maya",
        ] {
            assert!(config.banks.iter().any(|b| b == bank), "{bank}");
        }
        assert!(!config.banks.iter().any(|b| b == "Bangkok Bank"));
        assert_eq!(config.e_wallets, ["GCash", "Maya"]);
        assert_eq!(config.payout_channels["GCash"], "PH_GCASH");
        assert!(config
            .banks
            .iter()
            .all(|b| config.payout_channels.contains_key(b)));
        assert!(config.invite_codes.contains(&"WELCOME".to_string()));
        let refused = LendingConfig::load(DEMO_CONFIG, &ComplianceProfile::Th);
        assert!(matches!(refused, Err(ConfigError::Compliance { .. })));
    }

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

    #[test]
    fn unusable_reference_data_stops_the_server_from_starting() {
        let shipped = "\"provinces\": \"ph-psgc-2025-2q.json\"";
        let refused = |from: &str, to: &str| {
            let text = DEMO_CONFIG.replace(from, to);
            assert_ne!(text, DEMO_CONFIG, "{from}");
            let result = LendingConfig::load(&text, &ComplianceProfile::Ph);
            assert!(
                matches!(
                    result,
                    Err(ConfigError::Reference(_) | ConfigError::Parse(_))
                ),
                "{to}: {result:?}"
            );
        };
        refused(shipped, r#""provinces": "th-provinces.json""#);
        refused(
            shipped,
            r#""provinces": [{"region": "R", "provinces": [{"province": "P", "cities": ["C"]}], "cities": ["D"]}]"#,
        );
        refused(shipped, r#""provinces": [{"region": "R"}]"#);
        refused(
            shipped,
            r#""provinces": [{"region": "R", "cities": ["A, B"]}]"#,
        );
        refused(
            shipped,
            r#""provinces": [{"region": "R", "cities": ["C", "C"]}]"#,
        );
        refused(
            shipped,
            r#""provinces": [{"region": "R", "provinces": [{"province": "P", "cities": []}]}]"#,
        );
        refused(
            r#""e_wallets": ["GCash", "Maya"]"#,
            r#""e_wallets": ["GCash", "PayPal"]"#,
        );
    }

    #[test]
    fn a_product_above_the_cap_stops_the_server_from_starting_p5() {
        let text = DEMO_CONFIG.replace("\"daily_rate\": 200", "\"daily_rate\": 400");
        let refused = LendingConfig::load(&text, &ComplianceProfile::Ph);
        assert!(
            matches!(refused, Err(ConfigError::Compliance { product: 1, .. })),
            "{refused:?}"
        );
    }

    #[test]
    fn the_privacy_notice_must_have_a_version_12_6() {
        let config = LendingConfig::load(DEMO_CONFIG, &ComplianceProfile::Ph).unwrap();
        assert_eq!(config.privacy_notice_version, "2026-11");
        assert!(config.company.contains_key("privacy-notice"));
        for version in ["", " 2026-11", &"9".repeat(41)] {
            let text = DEMO_CONFIG.replace(
                "\"privacy_notice_version\": \"2026-11\"",
                &format!("\"privacy_notice_version\": \"{version}\""),
            );
            assert!(
                matches!(
                    LendingConfig::load(&text, &ComplianceProfile::Ph),
                    Err(ConfigError::Missing(_))
                ),
                "{version:?}"
            );
        }
        let without = DEMO_CONFIG.replace("\"privacy_notice_version\": \"2026-11\",", "");
        assert!(LendingConfig::load(&without, &ComplianceProfile::Ph).is_err());
    }

    #[test]
    fn a_company_text_is_one_text_or_one_per_language_with_english() {
        let config = LendingConfig::load(DEMO_CONFIG, &ComplianceProfile::Ph).unwrap();
        for key in TRANSLATED_TEXTS {
            let texts = config.company.get(*key).and_then(Json::as_object);
            let texts = texts.unwrap_or_else(|| panic!("the demo translates {key}"));
            for language in ["en", "zh", "fil"] {
                assert!(
                    texts.get(language).is_some_and(Json::is_string),
                    "{key} {language}"
                );
            }
        }
        let load = |about: Json| {
            let mut value: Json = serde_json::from_str(DEMO_CONFIG).unwrap();
            value["company"]["about-us"] = about;
            LendingConfig::load(&value.to_string(), &ComplianceProfile::Ph)
        };
        assert!(load(serde_json::json!("One text for every language")).is_ok());
        assert!(load(serde_json::json!({"en": "English", "zh": "中文"})).is_ok());
        assert!(load(Json::Null).is_ok());
        for bad in [
            serde_json::json!({"zh": "中文"}),
            serde_json::json!({"en": "  ", "zh": "中文"}),
            serde_json::json!({"en": "English", "zh": 3}),
            serde_json::json!({"en": "English", "zh-CN": "中文"}),
            serde_json::json!({"en": "English", "tl": "Tagalog"}),
            serde_json::json!(["English"]),
            serde_json::json!(7),
        ] {
            assert!(
                matches!(load(bad.clone()), Err(ConfigError::Text(_))),
                "{bad}"
            );
        }
        // The privacy notice per language comes in every language of the app.
        let mut value: Json = serde_json::from_str(DEMO_CONFIG).unwrap();
        for notice in [
            serde_json::json!({"en": "Notice", "zh": "通知"}),
            serde_json::json!({"en": "Notice", "zh": "通知", "fil": " "}),
        ] {
            value["company"]["privacy-notice"] = notice;
            let refused = LendingConfig::load(&value.to_string(), &ComplianceProfile::Ph);
            assert!(matches!(refused, Err(ConfigError::Text(_))), "{refused:?}");
        }
    }

    #[test]
    fn product_names_are_translated_only_into_the_apps_other_languages() {
        let demo = LendingConfig::load(DEMO_CONFIG, &ComplianceProfile::Ph).unwrap();
        assert_eq!(
            demo.products[0]
                .name_translations
                .get("zh")
                .map(String::as_str),
            Some("现金贷款")
        );
        let value: Json = serde_json::from_str(DEMO_CONFIG).unwrap();
        for (translations, why) in [
            (
                serde_json::json!({"de": "Bargeld"}),
                "not a language of the app",
            ),
            (serde_json::json!({"en": "Other"}), "two English names"),
            (serde_json::json!({"zh": "  "}), "blank"),
        ] {
            let mut value = value.clone();
            value["products"][0]["name_translations"] = translations;
            let refused = LendingConfig::load(&value.to_string(), &ComplianceProfile::Ph);
            assert!(
                matches!(refused, Err(ConfigError::Text(_))),
                "{why}: {refused:?}"
            );
        }
    }

    #[test]
    fn the_lender_must_be_named_p14() {
        let text = DEMO_CONFIG.replace("Honest Lending Corporation\"", "\"");
        assert!(matches!(
            LendingConfig::load(&text, &ComplianceProfile::Ph),
            Err(ConfigError::Missing(_))
        ));
    }
}
