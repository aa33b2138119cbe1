//! The environment: every environment variable the api reads is read here (README
//! "Configuration"), into [`Env`], with the production policy that checks it. Secrets
//! are [`SecretString`]s: `Debug` never prints them, and they are exposed only where
//! they are used.

use aggregates::pricing::ComplianceProfile;
use object_store::aws::AmazonS3Builder;
use projections::store::DEFAULT_DATABASE_URL;
use secrecy::{ExposeSecret, SecretString};

use super::lending::{ConfigError, LendingConfig, DEMO_CONFIG};

/// Environment settings (README "Configuration").
#[derive(Debug, Clone)]
pub struct Env {
    /// `DATABASE_URL` ([`database_url`]): a secret, as a PostgreSQL URL may hold a
    /// password.
    pub database_url: SecretString,
    /// `READ_DATABASE_URL`: a PostgreSQL read replica (streaming standby) of
    /// `DATABASE_URL` for the read-model queries; unset, they read the primary
    /// (ADR 0013). A secret, like `DATABASE_URL`.
    pub read_database_url: Option<SecretString>,
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
    /// `STORAGE_URL`: where uploaded images are stored (see [`crate::providers::storage`]).
    pub storage_url: String,
    /// `TRUST_PROXY`: where the per-address limits read the client address
    /// ([`crate::http::middleware::ops::client_ip_source`]).
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
    /// `WEBHOOK_SECRET`, as set: the key of the payment webhooks' signatures
    /// ([`crate::providers::signing::webhook_secret`]; the public development secret
    /// when unset, which a production start refuses).
    pub webhook_secret: Option<SecretString>,
    /// `METRICS_TOKEN`: the bearer token `GET /metrics` needs; without one `/metrics`
    /// answers 404, so the figures are never public.
    pub metrics_token: Option<SecretString>,
    /// `PDF_FONT`: the font of the PDF documents (Latin and CJK glyphs); when unset,
    /// Noto Sans CJK where Linux distributions install it
    /// ([`crate::documents::fonts::DEFAULT_FONT_PATHS`]). Checked at start-up.
    pub pdf_font: Option<std::path::PathBuf>,
    /// `STAFF_SECOND_FACTOR`: `required` (the default with `APP_ENV=production`) or
    /// `optional` (the default in demo). Required, every staff log-in needs a TOTP code
    /// (RFC 6238) and every setup link enrolls one (issue 55).
    pub staff_second_factor: bool,
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
#[derive(Debug, Clone)]
pub struct XenditSettings {
    /// `XENDIT_BASE_URL` (default `https://api.xendit.co`; a loopback fake in tests).
    pub base_url: String,
    /// `XENDIT_SECRET_KEY`: the API key, sent as the basic-auth user name.
    pub secret_key: SecretString,
    /// `XENDIT_CALLBACK_TOKEN`: the webhook verification token Xendit sends as
    /// `x-callback-token`.
    pub callback_token: SecretString,
    /// `XENDIT_TIMEOUT_SECS` (default 15): how long one call may take before it counts
    /// as unanswered and is retried with the same idempotency key.
    pub timeout: std::time::Duration,
}

/// How to reach Semaphore.
#[derive(Debug, Clone)]
pub struct SemaphoreSettings {
    /// `SEMAPHORE_BASE_URL` (default `https://api.semaphore.co`).
    pub base_url: String,
    /// `SEMAPHORE_API_KEY`.
    pub api_key: SecretString,
    /// `SEMAPHORE_SENDER_NAME`: the registered sender name, when there is one.
    pub sender_name: Option<String>,
}

/// Shortest `WEBHOOK_SECRET` a production start accepts: 32 bytes, the HMAC-SHA256
/// block-size guidance of RFC 2104 section 3 for a key of full strength.
pub const MIN_PRODUCTION_SECRET_LEN: usize = 32;

/// One environment variable, trimmed; `None` when unset or empty. Every setting of
/// the api is read through here (README "Configuration"), but `DATABASE_URL`
/// ([`database_url`]) and the two that libraries read themselves ([`log_filter`],
/// [`s3_from_env`]).
fn var(name: &str) -> Option<String> {
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
    crate::providers::storage::DEFAULT_STORAGE_DIR.to_string()
}

/// `DATABASE_URL` as given when it is set and not blank, otherwise
/// [`DEFAULT_DATABASE_URL`]. The operator commands (`api create-auditor`, ...) open
/// the store with it without reading the rest of the environment.
pub fn database_url() -> String {
    std::env::var("DATABASE_URL")
        .ok()
        .filter(|url| !url.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_DATABASE_URL.to_owned())
}

/// `OTEL_EXPORTER_OTLP_ENDPOINT`: where traces are exported, when set
/// ([`crate::runtime::telemetry::init`]; the exporter reads it, and the other `OTEL_*`
/// variables, itself).
pub fn otlp_endpoint() -> Option<String> {
    var("OTEL_EXPORTER_OTLP_ENDPOINT")
}

/// `RUST_LOG`: which log lines are written (`tracing_subscriber`'s directives);
/// `info` when unset or not understood.
pub fn log_filter() -> tracing_subscriber::EnvFilter {
    tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into())
}

/// The S3 client's settings from the usual `AWS_*` variables (`AWS_ENDPOINT` for
/// MinIO), for a `STORAGE_URL` of `s3://` ([`crate::providers::storage::open`]).
pub fn s3_from_env() -> AmazonS3Builder {
    AmazonS3Builder::from_env()
}

/// A secret variable ([`var`]), never printed by `Debug`.
fn secret(name: &str) -> Option<SecretString> {
    var(name).map(SecretString::from)
}

/// A variable parsed as a `T`; `None` when unset or not a `T`.
fn parsed<T: std::str::FromStr>(name: &str) -> Option<T> {
    var(name).and_then(|v| v.parse().ok())
}

/// `COMPLIANCE_PROFILE` (default `PH`).
fn compliance_profile() -> Result<ComplianceProfile, ConfigError> {
    let name = var("COMPLIANCE_PROFILE").unwrap_or_else(|| "PH".to_string());
    ComplianceProfile::named(&name).ok_or(ConfigError::Profile(name))
}

/// `APP_ENV` (default `demo`).
fn app_env() -> Result<AppEnv, ConfigError> {
    match var("APP_ENV").as_deref() {
        None | Some("demo") => Ok(AppEnv::Demo),
        Some("production") => Ok(AppEnv::Production),
        Some(other) => Err(ConfigError::AppEnv(other.to_string())),
    }
}

/// `STAFF_SECOND_FACTOR`: required by default in production, optional in demo.
fn staff_second_factor(app_env: AppEnv) -> Result<bool, ConfigError> {
    match var("STAFF_SECOND_FACTOR").as_deref() {
        None => Ok(app_env == AppEnv::Production),
        Some("required") => Ok(true),
        Some("optional") => Ok(false),
        Some(other) => Err(ConfigError::Provider {
            name: "STAFF_SECOND_FACTOR",
            value: other.to_string(),
            known: "required, optional".to_string(),
        }),
    }
}

/// `PAYMENT_PROVIDER`, `PAYOUT_PROVIDER`, `SMS_PROVIDER` (checked against the
/// adapters of this build by [`Env::check_providers`]).
fn providers() -> Providers {
    Providers {
        payment: var("PAYMENT_PROVIDER").unwrap_or_else(|| SANDBOX.to_string()),
        payout: var("PAYOUT_PROVIDER").unwrap_or_else(|| SANDBOX.to_string()),
        sms: var("SMS_PROVIDER").unwrap_or_else(|| OUTBOX.to_string()),
    }
}

/// Xendit's settings when both its key and its callback token are set.
fn xendit() -> Option<XenditSettings> {
    let (secret_key, callback_token) = (
        secret("XENDIT_SECRET_KEY")?,
        secret("XENDIT_CALLBACK_TOKEN")?,
    );
    Some(XenditSettings {
        base_url: var("XENDIT_BASE_URL").unwrap_or_else(|| "https://api.xendit.co".to_string()),
        secret_key,
        callback_token,
        timeout: std::time::Duration::from_secs(parsed("XENDIT_TIMEOUT_SECS").unwrap_or(15)),
    })
}

/// Semaphore's settings when its API key is set.
fn semaphore() -> Option<SemaphoreSettings> {
    let api_key = secret("SEMAPHORE_API_KEY")?;
    Some(SemaphoreSettings {
        base_url: var("SEMAPHORE_BASE_URL")
            .unwrap_or_else(|| "https://api.semaphore.co".to_string()),
        api_key,
        sender_name: var("SEMAPHORE_SENDER_NAME"),
    })
}

impl Env {
    /// Reads the environment, with working defaults.
    pub fn from_env() -> Result<Self, ConfigError> {
        let compliance_profile = compliance_profile()?;
        let app_env = app_env()?;
        let trust_proxy = var("TRUST_PROXY");
        Ok(Self {
            database_url: database_url().into(),
            read_database_url: secret("READ_DATABASE_URL"),
            bind_addr: var("BIND_ADDR").unwrap_or_else(|| crate::DEFAULT_BIND_ADDR.to_string()),
            compliance_profile,
            config_file: var("CONFIG_FILE"),
            token_ttl_hours: parsed("TOKEN_TTL_HOURS").unwrap_or(720),
            auditor_token_ttl_hours: parsed("AUDITOR_TOKEN_TTL_HOURS").unwrap_or(12),
            storage_url: storage_url(),
            client_ip_source: crate::http::middleware::ops::client_ip_source(
                trust_proxy.as_deref(),
            )
            .ok_or(ConfigError::TrustProxy(trust_proxy.unwrap_or_default()))?,
            web_dist: var("WEB_DIST").map_or_else(
                || std::path::PathBuf::from("web/dist"),
                std::path::PathBuf::from,
            ),
            app_env,
            providers: providers(),
            xendit: xendit(),
            semaphore: semaphore(),
            webhook_secret: secret("WEBHOOK_SECRET"),
            metrics_token: secret("METRICS_TOKEN"),
            pdf_font: var("PDF_FONT").map(std::path::PathBuf::from),
            staff_second_factor: staff_second_factor(app_env)?,
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
        match self
            .webhook_secret
            .as_ref()
            .map(|secret| secret.expose_secret())
        {
            None => return refuse("WEBHOOK_SECRET is not set"),
            Some(crate::providers::signing::DEVELOPMENT_WEBHOOK_SECRET) => {
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
    fn debug_never_prints_a_secret() {
        let secrets = [
            "postgres://loan:primary-password@db/loan",
            "postgres://loan:replica-password@replica/loan",
            "webhook-secret-value-0123456789abcdef",
            "metrics-token-value",
            "xnd_secret_key_value",
            "xendit-callback-token-value",
            "semaphore-api-key-value",
        ];
        let env = Env {
            database_url: secrets[0].into(),
            read_database_url: Some(secrets[1].into()),
            bind_addr: "127.0.0.1:0".into(),
            compliance_profile: ComplianceProfile::Ph,
            config_file: None,
            token_ttl_hours: 720,
            auditor_token_ttl_hours: 12,
            storage_url: "memory://".into(),
            client_ip_source: axum_client_ip::ClientIpSource::ConnectInfo,
            web_dist: "web/dist".into(),
            app_env: AppEnv::Production,
            providers: Providers::default(),
            xendit: Some(XenditSettings {
                base_url: "https://api.xendit.co".into(),
                secret_key: secrets[4].into(),
                callback_token: secrets[5].into(),
                timeout: std::time::Duration::from_secs(15),
            }),
            semaphore: Some(SemaphoreSettings {
                base_url: "https://api.semaphore.co".into(),
                api_key: secrets[6].into(),
                sender_name: Some("LENDER".into()),
            }),
            webhook_secret: Some(secrets[2].into()),
            metrics_token: Some(secrets[3].into()),
            pdf_font: None,
            staff_second_factor: true,
        };
        let printed = format!("{env:?} {env:#?}");
        for secret in secrets {
            assert!(!printed.contains(secret), "{secret} in {printed}");
        }
        for password in ["primary-password", "replica-password"] {
            assert!(!printed.contains(password), "{password} in {printed}");
        }
        // The rest is still there to read.
        assert!(printed.contains("https://api.xendit.co") && printed.contains("LENDER"));
    }
}
