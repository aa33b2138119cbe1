//! The lending configuration file (products, lender, company texts, reference lists),
//! `api/config/demo.json` unless `CONFIG_FILE` names another: its schema, and its
//! validation beside it.
//!
//! Products are checked against the compliance profile when the file loads: the
//! server refuses to start with a product that breaks a cap (P5). The lender's name
//! and licence numbers are required (P14).

use std::collections::{BTreeMap, HashSet};

use aggregates::catalogue::LenderSettings;
use aggregates::pricing::{CompliancePolicy, ComplianceProfile, Lender, Product};
use aggregates::reference::PLACE_SEPARATOR;
use rust_decimal::Decimal;
use serde::Deserialize;
use serde_json::Value as Json;

/// The demo configuration shipped with the code.
pub const DEMO_CONFIG: &str = include_str!("../../config/demo.json");

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
#[derive(Debug, Clone, Deserialize, serde::Serialize, utoipa::ToSchema)]
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
#[derive(Debug, Clone, Deserialize, serde::Serialize, utoipa::ToSchema)]
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
#[derive(Debug, Clone, Deserialize, serde::Serialize, utoipa::ToSchema)]
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
    include_str!("../../config/ph-psgc-2025-2q.json"),
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
    "invite-code-help",
];

/// The company texts changed in the console (issue 55): the per-language texts but
/// the privacy notice, and the contacts (`aggregates::catalogue::EDITABLE_TEXTS`).
pub use aggregates::catalogue::EDITABLE_TEXTS;

/// A company block as the borrower app reads it: the texts of [`TRANSLATED_TEXTS`] in
/// English, their other languages apart. Errors: a known key of another type.
pub fn company_settings(
    company: &serde_json::Map<String, Json>,
) -> Result<(CompanySettings, Translations), ConfigError> {
    let mut company = company.clone();
    let mut translations = BTreeMap::new();
    for key in TRANSLATED_TEXTS {
        if let Some(Json::Object(texts)) = company.get(*key).cloned() {
            let english = texts.get("en").cloned().unwrap_or(Json::Null);
            company.insert((*key).into(), english);
            let texts = texts
                .into_iter()
                .filter_map(|(language, text)| Some((language, text.as_str()?.to_string())))
                .collect();
            translations.insert((*key).to_string(), texts);
        }
    }
    let settings = serde_json::from_value(Json::Object(company))
        .map_err(|error| ConfigError::Text(format!("company: {error}")))?;
    Ok((settings, translations))
}

/// The company block of the lending file (`company`) as the borrower app reads it
/// (`/loan/getAllCompanyConfigs`): the keys the app knows, each optional, and any other
/// key the lender adds, as configured. The texts of [`TRANSLATED_TEXTS`] are English
/// here (the other languages ride in the answer's `translations`). Checked when the
/// file is loaded ([`LendingConfig::company_settings`]): a known key of another type
/// refuses the file.
#[derive(Debug, Clone, Default, Deserialize, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompanySettings {
    /// The app's name, shown in the title bar.
    pub title: Option<String>,
    /// Legacy client ids of the original app (PRODUCT.md 10).
    pub app_id: Option<i64>,
    /// Legacy client id of the original app.
    pub company_id: Option<i64>,
    /// The app's default language (`en`, `zh`, `fil`).
    pub lang: Option<String>,
    /// The app's colours.
    pub theme: Option<Theme>,
    /// About the lender (English).
    #[serde(rename = "about-us")]
    pub about_us: Option<String>,
    /// Questions and answers (English).
    pub faq: Option<String>,
    /// The privacy notice (English; PRODUCT.md 12.6).
    #[serde(rename = "privacy-notice")]
    pub privacy_notice: Option<String>,
    /// When customer service answers (English).
    #[serde(rename = "customer-service-hours")]
    pub customer_service_hours: Option<String>,
    /// Customer service's web page.
    #[serde(rename = "customer-service-link")]
    pub customer_service_link: Option<String>,
    /// Customer service's phone number.
    #[serde(rename = "customer-service-phone")]
    pub customer_service_phone: Option<String>,
    /// Customer service's e-mail address.
    #[serde(rename = "customer-service-email")]
    pub customer_service_email: Option<String>,
    /// The lender's Facebook page.
    #[serde(rename = "customer-service-facebook")]
    pub customer_service_facebook: Option<String>,
    /// The lender's website.
    pub website: Option<String>,
    /// A WhatsApp contact; empty when none.
    pub whatsapp: Option<String>,
    /// A LINE contact; empty when none.
    pub line: Option<String>,
    /// Where a borrower gets an invite code, shown under the registration's invite
    /// field (English; issue 52), e.g. "Ask the agent who told you about us".
    #[serde(rename = "invite-code-help")]
    pub invite_code_help: Option<String>,
    /// The partner logo's URL on the home screen.
    #[serde(rename = "partner-image")]
    pub partner_image: Option<String>,
    /// Any other key the lender configured, as configured.
    // Not in the OpenAPI document: a flattened free map would type every known key as
    // `never` in the generated TypeScript; the keys listed above are what the app reads.
    #[serde(flatten)]
    #[schema(ignore)]
    pub other: serde_json::Map<String, Json>,
}

/// The app's colours (CSS colours), each optional.
#[derive(Debug, Clone, Default, Deserialize, serde::Serialize, utoipa::ToSchema)]
pub struct Theme {
    /// Buttons and links.
    pub primary: Option<String>,
    /// The page.
    pub background: Option<String>,
    /// Body text.
    pub text: Option<String>,
}

/// The borrower app's languages (web/src/lib/i18n.ts `LANGUAGES`).
pub const APP_LANGUAGES: &[&str] = &aggregates::catalogue::LANGUAGES;

/// The lending configuration file.
#[derive(Debug, Clone, Deserialize)]
pub struct LendingConfig {
    /// The lender (P14).
    pub lender: Lender,
    /// Currency.
    pub currency: Currency,
    /// The lender's time zone (IANA name, `Asia/Manila`): the times of the documents
    /// a borrower reads (contract, statement, receipts) are shown in it, named (the
    /// rules and the ledger keep UTC). Default `UTC`; an unknown name stops the
    /// server at start-up.
    #[serde(default = "utc_zone")]
    pub time_zone: chrono_tz::Tz,
    /// The delinquency buckets' highest days past due, ascending from 0 (issue 53;
    /// default `[0, 30, 60, 90, 180]`: current, 1–30, 31–60, 61–90, 91–180, over 180).
    /// Anything else stops the server at start-up.
    #[serde(default)]
    pub delinquency_buckets: aggregates::collections::Buckets,
    /// The collection texts officers may send a borrower (P15, issue 53): id →
    /// language (`en` required, `zh`, `fil`) → text with `{lender}` and `{amount}` (the
    /// amount overdue). Officers pick one; they never type a text to a borrower.
    /// Checked at start-up ([`check_collection_template`]).
    #[serde(default)]
    pub collection_templates: Translations,
    /// Waivers above this amount need a second officer (issue 53; default 1,000).
    #[serde(default = "waiver_four_eyes_above")]
    pub waiver_four_eyes_above: Decimal,
    /// Days past due from which a loan may be charged off (issue 53; default 180).
    #[serde(default = "charge_off_after_days")]
    pub charge_off_after_days: u32,
    /// The deployment's public holidays, local dates YYYY-MM-DD (P15): contacts and
    /// system messages keep the holiday hours on them (`TH`: 08:00–18:00, as on
    /// weekends). Default none.
    #[serde(default)]
    pub public_holidays: Vec<chrono::NaiveDate>,
    /// Whether registration needs an invite code (default true).
    #[serde(default = "yes")]
    pub invite_code_required: bool,
    /// Known agent codes (attribution only, P13).
    pub invite_codes: Vec<String>,
    /// The lender's accounts where borrowers may pay by transfer (default none;
    /// changed in the console afterwards, issue 55).
    #[serde(default)]
    pub receiving_accounts: Vec<aggregates::catalogue::ReceivingAccount>,
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

/// Words a collection text may not carry (P15; SEC MC 18 s. 2019 forbids threats of
/// violence or criminal action, obscene or insulting language, and disclosure to third
/// parties). A start-up guard against an obvious mistake, not a review: templates are
/// settings a second person approves (issue 55).
const FORBIDDEN_IN_COLLECTION: &[&str] = &[
    "police",
    "jail",
    "arrest",
    "prison",
    "court",
    "kulong",
    "pulis",
    "barangay",
    "employer",
    "family",
    "relatives",
    "neighbour",
    "neighbor",
    "facebook",
    "post your",
    "shame",
    "kahihiyan",
    "警察",
    "坐牢",
    "逮捕",
    "家人",
    "雇主",
    "曝光",
];

/// A collection template: English and only the app's languages, at most 320
/// characters, placeholders `{lender}` and `{amount}` only, none of
/// [`FORBIDDEN_IN_COLLECTION`]. Errors: why, in words.
fn check_collection_template(texts: &BTreeMap<String, String>) -> Result<(), String> {
    if texts.get("en").is_none_or(|text| text.trim().is_empty()) {
        return Err("an English text is required".to_string());
    }
    for (language, text) in texts {
        if !APP_LANGUAGES.contains(&language.as_str()) {
            return Err(format!("{language}: not a language of the app"));
        }
        if text.chars().count() > 320 {
            return Err(format!("{language}: at most 320 characters"));
        }
        let lower = text.to_lowercase();
        if let Some(word) = FORBIDDEN_IN_COLLECTION.iter().find(|w| lower.contains(*w)) {
            return Err(format!(
                "{language}: {word:?} may not be in a collection text (P15)"
            ));
        }
        let rest = text.replace("{lender}", "").replace("{amount}", "");
        if rest.contains('{') || rest.contains('}') {
            return Err(format!(
                "{language}: only {{lender}} and {{amount}} may be filled in"
            ));
        }
    }
    Ok(())
}

fn waiver_four_eyes_above() -> Decimal {
    Decimal::ONE_THOUSAND
}

fn charge_off_after_days() -> u32 {
    180
}

fn utc_zone() -> chrono_tz::Tz {
    chrono_tz::UTC
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
    /// A provider variable names an adapter this build does not have (or another
    /// variable with a fixed set of values, such as `STAFF_SECOND_FACTOR`, holds none of them).
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
    /// A collection template that is not one a borrower may be sent (P15).
    #[error("collection_templates.{0}")]
    Template(String),
    /// A product that is not one a borrower can be offered (`Product::check_offer`).
    #[error("product {product}: {invalid}")]
    Offer {
        /// The product's id.
        product: i64,
        /// The field at fault.
        invalid: aggregates::types::InvalidInput,
    },
    /// A product's `max_income_share_pct` outside (0, 100].
    #[error("product {0}: max_income_share_pct must be above 0 and at most 100 (percent of the declared monthly income)")]
    IncomeShare(i64),
}

/// The company texts given per language: key (`about-us`, `faq`, ...) → language
/// (`en`, `zh`, `fil`) → text.
pub type Translations = BTreeMap<String, BTreeMap<String, String>>;

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
            let product = &configured.product;
            if product
                .max_income_share_pct
                .is_some_and(|share| share <= Decimal::ZERO || share > Decimal::ONE_HUNDRED)
            {
                return Err(ConfigError::IncomeShare(product.id));
            }
            // Version 0 is held to what a proposal is (issue 55).
            product
                .check_offer()
                .map_err(|invalid| ConfigError::Offer {
                    product: product.id,
                    invalid,
                })?;
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
        for (id, texts) in &config.collection_templates {
            check_collection_template(texts)
                .map_err(|why| ConfigError::Template(format!("{id}: {why}")))?;
        }
        config.company_settings()?;
        config.check_product_names()?;
        config
            .lender_settings()
            .check_shape()
            .map_err(|invalid| ConfigError::Text(invalid.to_string()))?;
        Ok(config)
    }

    /// The file's invite codes, texts changed in the console ([`EDITABLE_TEXTS`], blank
    /// ones left out) and receiving accounts: version 0 of the lender's settings
    /// (issue 55).
    pub fn lender_settings(&self) -> LenderSettings {
        let texts = EDITABLE_TEXTS
            .iter()
            .filter_map(|key| {
                let by_language: BTreeMap<String, String> = match self.company.get(*key)? {
                    Json::String(text) => {
                        std::iter::once(("en".to_string(), text.clone())).collect()
                    }
                    Json::Object(texts) => texts
                        .iter()
                        .filter_map(|(l, t)| Some((l.clone(), t.as_str()?.to_string())))
                        .collect(),
                    _ => return None,
                };
                let by_language: BTreeMap<String, String> = by_language
                    .into_iter()
                    .filter(|(_, text)| !text.trim().is_empty())
                    .collect();
                (!by_language.is_empty()).then(|| (key.to_string(), by_language))
            })
            .collect();
        LenderSettings {
            invite_code_required: self.invite_code_required,
            invite_codes: self.invite_codes.clone(),
            texts,
            receiving_accounts: self.receiving_accounts.clone(),
            version: 0,
        }
    }

    /// The company block as [`CompanySettings`] and the texts given per language
    /// (key → language → text). Errors: [`ConfigError::Text`] naming a known key whose
    /// value is of another type.
    pub fn company_settings(&self) -> Result<(CompanySettings, Translations), ConfigError> {
        company_settings(&self.company)
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
    fn an_income_share_outside_0_to_100_percent_stops_the_server_from_starting() {
        for share in ["0", "-5", "100.01"] {
            let mut value: Json = serde_json::from_str(DEMO_CONFIG).unwrap();
            value["products"][0]["max_income_share_pct"] = Json::from(share);
            let refused = LendingConfig::load(&value.to_string(), &ComplianceProfile::Ph);
            assert!(
                matches!(refused, Err(ConfigError::IncomeShare(1))),
                "{share}: {refused:?}"
            );
        }
    }

    #[test]
    fn the_time_zone_is_an_iana_name_or_the_server_does_not_start() {
        let config = LendingConfig::load(DEMO_CONFIG, &ComplianceProfile::Ph).unwrap();
        assert_eq!(config.time_zone, chrono_tz::Asia::Manila);
        let mut value: Json = serde_json::from_str(DEMO_CONFIG).unwrap();
        value["time_zone"] = Json::from("Mars/Olympus_Mons");
        let refused = LendingConfig::load(&value.to_string(), &ComplianceProfile::Ph);
        assert!(refused.is_err(), "{refused:?}");
        value.as_object_mut().unwrap().remove("time_zone");
        let default = LendingConfig::load(&value.to_string(), &ComplianceProfile::Ph).unwrap();
        assert_eq!(default.time_zone, chrono_tz::UTC);
    }

    #[test]
    fn a_collection_template_with_a_threat_or_free_fields_stops_the_server() {
        let config = LendingConfig::load(DEMO_CONFIG, &ComplianceProfile::Ph).unwrap();
        assert!(config.collection_templates.contains_key("payment_reminder"));
        for bad in [
            serde_json::json!({"en": "Pay {amount} or we call the police"}),
            serde_json::json!({"en": "We will tell your employer"}),
            serde_json::json!({"en": "Dear {name}, pay now"}),
            serde_json::json!({"zh": "请还款"}),
            serde_json::json!({"en": "ok", "de": "bitte zahlen"}),
        ] {
            let mut value: Json = serde_json::from_str(DEMO_CONFIG).unwrap();
            value["collection_templates"]["bad"] = bad.clone();
            let refused = LendingConfig::load(&value.to_string(), &ComplianceProfile::Ph);
            assert!(
                matches!(refused, Err(ConfigError::Template(_))),
                "{bad}: {refused:?}"
            );
        }
    }

    #[test]
    fn delinquency_buckets_ascend_from_0_or_the_server_does_not_start() {
        let config = LendingConfig::load(DEMO_CONFIG, &ComplianceProfile::Ph).unwrap();
        assert_eq!(config.delinquency_buckets.bucket(45), "31-60");
        let mut value: Json = serde_json::from_str(DEMO_CONFIG).unwrap();
        value["delinquency_buckets"] = serde_json::json!([0, 7, 30]);
        let custom = LendingConfig::load(&value.to_string(), &ComplianceProfile::Ph).unwrap();
        assert_eq!(custom.delinquency_buckets.bucket(8), "8-30");
        for bad in [serde_json::json!([5, 30]), serde_json::json!([0, 30, 10])] {
            value["delinquency_buckets"] = bad;
            let refused = LendingConfig::load(&value.to_string(), &ComplianceProfile::Ph);
            assert!(refused.is_err(), "{refused:?}");
        }
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
