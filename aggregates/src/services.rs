//! The services the aggregates need, as traits so `handle` stays free of I/O and the
//! tests can supply doubles (`doubles`). Implementations with real effects (argon2,
//! the configured catalogue, the system clock) live in the api.

use crate::pricing::{CompliancePolicy, Lender, Product};
use crate::reference::{AccountKind, Place};
use chrono::{DateTime, Utc};
use std::sync::Arc;

/// The current time (UTC). Commands never carry their own time, so a test can fix it.
pub trait Clock: Send + Sync {
    /// Now, in UTC.
    fn now(&self) -> DateTime<Utc>;
}

/// One-way hashing of passwords and withdraw PINs (argon2id in production, P2).
/// Asynchronous because a real hash takes tens of milliseconds of CPU: the
/// implementation waits for its turn and runs it off the async workers.
#[async_trait::async_trait]
pub trait SecretHasher: Send + Sync {
    /// A PHC-format hash of `secret`.
    async fn hash(&self, secret: &str) -> String;
    /// True when `secret` matches `hash`.
    async fn verify(&self, secret: &str, hash: &str) -> bool;
}

/// The configured products and the lender's identity (P5, P14).
pub trait ProductCatalogue: Send + Sync {
    /// The product with this id, enabled or not.
    fn product(&self, app_id: i64) -> Option<Product>;
    /// The lender named on every disclosure and contract.
    fn lender(&self) -> Lender;
    /// Whether `id` names one of the lender's collection templates (P15: an officer's
    /// text to a borrower is one of them; none by default).
    fn collection_template(&self, _id: &str) -> bool {
        false
    }
    /// Waivers above this amount need a second officer (configuration, default 1,000;
    /// issue 53).
    fn waiver_four_eyes_above(&self) -> rust_decimal::Decimal {
        rust_decimal::Decimal::ONE_THOUSAND
    }
    /// Days past due from which a loan may be charged off (configuration, default 180;
    /// issue 53).
    fn charge_off_after_days(&self) -> u32 {
        180
    }
    /// The delinquency buckets (configuration; issue 53).
    fn delinquency_buckets(&self) -> crate::collections::Buckets {
        crate::collections::Buckets::default()
    }
    /// The deployment's public holidays, local dates: the contact hours keep the
    /// holiday's window on them (P15; `TH` 08:00–18:00). None by default.
    fn public_holidays(&self) -> Vec<chrono::NaiveDate> {
        Vec::new()
    }
}

/// Deployment reference data the User aggregate validates against.
pub trait ReferenceData: Send + Sync {
    /// The kind of the configured bank or e-wallet named `bank_name`, which decides
    /// its account-number format; `None` when it is not in the configured list.
    fn account_kind(&self, bank_name: &str) -> Option<AccountKind>;
    /// True when `place` is a city or municipality of the configured location tree,
    /// under the region and province it names (PSGC names under `PH`).
    fn is_known_place(&self, place: &Place) -> bool;
    /// True when registration may proceed with this invite (agent) code: a known code,
    /// or none when codes are optional. Attribution only (P13).
    fn accepts_invite_code(&self, code: Option<&str>) -> bool;
    /// The version of the privacy notice registration shows now (configuration,
    /// PRODUCT.md 12.6); the only one a new borrower can accept.
    fn privacy_notice_version(&self) -> String;
    /// The languages the privacy notice's text is given in (`en` always; PRODUCT.md
    /// 12.6): a registration records one of them.
    fn privacy_notice_languages(&self) -> Vec<String> {
        vec!["en".to_string()]
    }
    /// Years personal data is kept after the borrower's last loan closed (configuration,
    /// PRODUCT.md 12.6; default 5, the period lenders keep loan records under the PH
    /// Anti-Money Laundering Act, RA 9160 as amended).
    fn retention_years(&self) -> u32 {
        5
    }
}

/// What the User aggregate needs.
#[derive(Clone)]
pub struct UserServices {
    /// Time.
    pub clock: Arc<dyn Clock>,
    /// Password and PIN hashing.
    pub hasher: Arc<dyn SecretHasher>,
    /// Banks and invite codes.
    pub reference: Arc<dyn ReferenceData>,
}

/// What the Order aggregate needs.
#[derive(Clone)]
pub struct OrderServices {
    /// Time.
    pub clock: Arc<dyn Clock>,
    /// Products and lender.
    pub catalogue: Arc<dyn ProductCatalogue>,
    /// The deployment's compliance profile (section 11).
    pub compliance: Arc<dyn CompliancePolicy>,
}

/// Test doubles and the demo data the tests share. Deterministic: the hasher is
/// reversible on purpose and must never be used outside tests.
pub mod doubles {
    use super::*;
    use crate::pricing::{ComplianceProfile, Pricing, RateConfig};
    use chrono::TimeZone;
    use rust_decimal_macros::dec;
    use std::sync::Mutex;

    /// A clock that stays where it is set.
    pub struct FixedClock(Mutex<DateTime<Utc>>);

    impl FixedClock {
        /// A clock at `now`.
        pub fn at(now: DateTime<Utc>) -> Self {
            Self(Mutex::new(now))
        }
        /// Moves the clock.
        pub fn set(&self, now: DateTime<Utc>) {
            *self.0.lock().expect("clock lock") = now;
        }
    }

    impl Clock for FixedClock {
        fn now(&self) -> DateTime<Utc> {
            *self.0.lock().expect("clock lock")
        }
    }

    /// The instant the tests start from: 2026-11-22 09:00 UTC.
    pub fn test_now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, 9, 0, 0).unwrap()
    }

    /// `hash(s) = "hashed:" + s`. Lets tests state the expected event exactly.
    pub struct PlainHasher;

    #[async_trait::async_trait]
    impl SecretHasher for PlainHasher {
        async fn hash(&self, secret: &str) -> String {
            format!("hashed:{secret}")
        }
        async fn verify(&self, secret: &str, hash: &str) -> bool {
            hash == self.hash(secret).await
        }
    }

    /// A catalogue of fixed products.
    pub struct StaticCatalogue {
        /// The products.
        pub products: Vec<Product>,
        /// The lender.
        pub lender: Lender,
    }

    impl ProductCatalogue for StaticCatalogue {
        fn product(&self, app_id: i64) -> Option<Product> {
            self.products.iter().find(|p| p.id == app_id).cloned()
        }
        fn lender(&self) -> Lender {
            self.lender.clone()
        }
        /// The demo's `payment_reminder` only.
        fn collection_template(&self, id: &str) -> bool {
            id == "payment_reminder"
        }
        /// 500, so that the demo loan's 960 of interest needs four eyes.
        fn waiver_four_eyes_above(&self) -> rust_decimal::Decimal {
            dec!(500)
        }
    }

    /// Banks "BDO" and "BPI" and the e-wallet "GCash"; places Quezon City (NCR, no
    /// province) and City of Cebu (Cebu, Region VII); invite codes "WELCOME" and
    /// "AGENT7"; codes required; privacy notice [`PRIVACY_NOTICE_VERSION`] in English,
    /// Chinese and Filipino.
    pub struct StaticReference;

    /// The privacy notice version [`StaticReference`] shows.
    pub const PRIVACY_NOTICE_VERSION: &str = "2026-11";

    /// Places [`StaticReference`] knows, in the stored form.
    pub const KNOWN_PLACES: [&str; 2] = [
        "National Capital Region (NCR),,Quezon City",
        "Region VII (Central Visayas),Cebu,City of Cebu",
    ];

    impl ReferenceData for StaticReference {
        fn account_kind(&self, bank_name: &str) -> Option<AccountKind> {
            match bank_name {
                "BDO" | "BPI" => Some(AccountKind::Bank),
                "GCash" => Some(AccountKind::EWallet),
                _ => None,
            }
        }
        fn is_known_place(&self, place: &Place) -> bool {
            KNOWN_PLACES.contains(&place.to_stored().as_str())
        }
        fn accepts_invite_code(&self, code: Option<&str>) -> bool {
            matches!(code, Some("WELCOME" | "AGENT7"))
        }
        fn privacy_notice_version(&self) -> String {
            PRIVACY_NOTICE_VERSION.to_string()
        }
        fn privacy_notice_languages(&self) -> Vec<String> {
            ["en", "zh", "fil"].map(str::to_string).to_vec()
        }
    }

    /// The demo lender.
    pub fn demo_lender() -> Lender {
        Lender {
            legal_name: "Honest Lending Corporation".to_string(),
            registration_no: "CS201912345".to_string(),
            licence_no: "SEC CA No. 3120".to_string(),
        }
    }

    /// The shipped demo product under PH: 80,000–3,000,000 step 10,000, 6–24 days at
    /// 0.1–0.2 %/day, no processing fee, no overdue fee (section 11).
    pub fn demo_product() -> Product {
        Product {
            id: 1,
            name: "Cash Loan".to_string(),
            enabled: true,
            amount_min: dec!(80000),
            amount_max: dec!(3000000),
            amount_step: dec!(10000),
            rate_configs: vec![
                RateConfig {
                    period_days: 6,
                    daily_rate: 200,
                },
                RateConfig {
                    period_days: 12,
                    daily_rate: 150,
                },
                RateConfig {
                    period_days: 18,
                    daily_rate: 120,
                },
                RateConfig {
                    period_days: 24,
                    daily_rate: 100,
                },
            ],
            pricing: Pricing {
                processing_fee_pct: dec!(0),
                overdue_daily_rate: 0,
                max_total_cost_pct: dec!(100),
                cooling_off_days: 7,
                offer_valid_days: 7,
                repay_min: dec!(100),
                repay_max: dec!(20000),
                extension_days: Vec::new(),
                max_extensions: 0,
            },
            max_income_share_pct: None,
            version: 0,
        }
    }

    /// A disabled product (id 2), otherwise like the demo one.
    pub fn disabled_product() -> Product {
        Product {
            id: 2,
            name: "Business Loan".to_string(),
            enabled: false,
            ..demo_product()
        }
    }

    /// User services with a fixed clock.
    pub fn user_services(clock: Arc<FixedClock>) -> UserServices {
        UserServices {
            clock,
            hasher: Arc::new(PlainHasher),
            reference: Arc::new(StaticReference),
        }
    }

    /// Order services with a fixed clock, the demo products and the PH profile.
    pub fn order_services(clock: Arc<FixedClock>) -> OrderServices {
        order_services_with(clock, vec![demo_product(), disabled_product()])
    }

    /// Order services with the given products.
    pub fn order_services_with(clock: Arc<FixedClock>, products: Vec<Product>) -> OrderServices {
        OrderServices {
            clock,
            catalogue: Arc::new(StaticCatalogue {
                products,
                lender: demo_lender(),
            }),
            compliance: Arc::new(ComplianceProfile::Ph),
        }
    }
}
