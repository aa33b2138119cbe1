//! Deployment configuration, in three rooms: `env.rs` reads every environment variable
//! of the api (README "Configuration") into [`Env`], secrets as `SecretString`s that
//! `Debug` never prints, and holds the start-up checks on it (the providers this build
//! has, the production policy of PRODUCT.md 12.7); `lending.rs` is the lending
//! configuration file's schema ([`LendingConfig`], `api/config/demo.json` unless
//! `CONFIG_FILE` names another) with its validation beside it (compliance caps P5, the
//! lender P14, company texts, reference lists) and [`ConfigError`]; `catalogue.rs`
//! adapts a loaded configuration to the domain's services ([`Configured`]: the
//! `ProductCatalogue` and the `ReferenceData` the aggregates ask).

mod catalogue;
mod env;
mod lending;

pub use catalogue::{product_line_id, Configured, PRODUCT_REFRESH, SETTINGS_LINE_ID};
pub use env::{
    database_url, log_filter, otlp_endpoint, s3_from_env, storage_url, AppEnv, Env, Providers,
    SemaphoreSettings, XenditSettings, MIN_PRODUCTION_SECRET_LEN, OUTBOX, SANDBOX, SEMAPHORE,
    XENDIT,
};
pub use lending::{
    company_settings, CompanySettings, ConfigError, Currency, LendingConfig, ProductConfig,
    Province, Region, Translations, APP_LANGUAGES, DEMO_CONFIG, EDITABLE_TEXTS, SHIPPED_LOCATIONS,
    TRANSLATED_TEXTS,
};
