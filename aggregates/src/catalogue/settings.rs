//! The lender's settings as data (issue 55): invite codes, company texts and the
//! lender's receiving accounts, versioned in a [`super::SettingsLine`].

use std::collections::BTreeMap;

use crate::pricing::is_zero;
use serde::{Deserialize, Serialize};

use super::{ChangeError, ChangeServices, Setting};
use crate::types::InvalidInput;

/// The borrower app's languages: a company text is in English and, optionally, these
/// others (web/src/lib/i18n.ts `LANGUAGES`).
pub const LANGUAGES: [&str; 3] = ["en", "zh", "fil"];

/// The company texts a borrower reads given per language (English required, the app's
/// other languages optional). The privacy notice is not among them: its version is
/// what consent records (PRODUCT.md 12.6), so it changes with the lending file.
pub const PER_LANGUAGE_TEXTS: [&str; 4] = [
    "about-us",
    "faq",
    "customer-service-hours",
    "invite-code-help",
];

/// Every company text the console changes: [`PER_LANGUAGE_TEXTS`], then the contacts,
/// one text in every language (given as `en`); of those, [`LINK_TEXTS`] are links.
pub const EDITABLE_TEXTS: [&str; 11] = [
    "about-us",
    "faq",
    "customer-service-hours",
    "invite-code-help",
    "customer-service-link",
    "customer-service-phone",
    "customer-service-email",
    "customer-service-facebook",
    "website",
    "whatsapp",
    "line",
];

/// The contacts a borrower's app opens as links: `https://` only.
pub const LINK_TEXTS: [&str; 3] = [
    "customer-service-link",
    "customer-service-facebook",
    "website",
];

/// An account of the lender's where borrowers may pay by transfer (shown with the
/// lender's legal name; PRODUCT.md 0: a borrower pays only the lender, never a person).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReceivingAccount {
    /// The bank or e-wallet (a name of the reference list `banks`).
    pub bank_name: String,
    /// The account's holder as the bank shows it.
    pub account_name: String,
    /// The account number.
    pub account_no: String,
}

/// The lender's settings a staff member may change in the console.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LenderSettings {
    /// Whether registration needs an invite code.
    pub invite_code_required: bool,
    /// The agents' invite codes (attribution only, P13).
    pub invite_codes: Vec<String>,
    /// Company texts by key (`about-us`, `faq`, …), each by language: English required,
    /// the others of [`LANGUAGES`] optional.
    pub texts: BTreeMap<String, BTreeMap<String, String>>,
    /// Where borrowers may pay by transfer.
    pub receiving_accounts: Vec<ReceivingAccount>,
    /// The version these settings are (0: the configuration file's).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub version: u32,
}

/// The longest company text, in characters.
const MAX_TEXT_CHARS: usize = 20_000;

/// The most invite codes (one an agent or branch).
const MAX_INVITE_CODES: usize = 5_000;

impl LenderSettings {
    /// Whether the settings are ones to show borrowers: 1–5,000 invite codes of 1–32
    /// letters, digits, `-` or `_`, each once (none only when no code is required);
    /// texts of [`EDITABLE_TEXTS`] only, each in English and, for
    /// [`PER_LANGUAGE_TEXTS`], the app's other [`LANGUAGES`], non-blank, at most
    /// 20,000 characters, a link of [`LINK_TEXTS`] `https://`; at most 10 receiving
    /// accounts with every field given (at most 100 characters).
    /// Errors: the first field at fault (10004).
    pub fn check_shape(&self) -> Result<(), InvalidInput> {
        let code_ok = |code: &String| {
            (1..=32).contains(&code.len())
                && code
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        };
        let mut codes = self.invite_codes.clone();
        codes.sort();
        codes.dedup();
        if self.invite_codes.len() > MAX_INVITE_CODES
            || codes.len() != self.invite_codes.len()
            || !self.invite_codes.iter().all(code_ok)
            || (self.invite_code_required && self.invite_codes.is_empty())
        {
            return Err(InvalidInput::new(
                "inviteCodes",
                "give 1 to 5,000 different codes of 1 to 32 letters, digits, - or _",
            ));
        }
        for (key, texts) in &self.texts {
            let refuse = |why: String| Err(InvalidInput::new("texts", format!("{key}: {why}")));
            if !EDITABLE_TEXTS.contains(&key.as_str()) {
                return refuse(format!(
                    "not a text changed here ({})",
                    EDITABLE_TEXTS.join(", ")
                ));
            }
            let languages: &[&str] = if PER_LANGUAGE_TEXTS.contains(&key.as_str()) {
                &LANGUAGES
            } else {
                &["en"]
            };
            let english = texts.get("en").is_some_and(|en| !en.trim().is_empty());
            let known = texts.keys().all(|l| languages.contains(&l.as_str()));
            let texts_ok = texts
                .values()
                .all(|text| !text.trim().is_empty() && text.chars().count() <= MAX_TEXT_CHARS);
            if !(english && known && texts_ok) {
                return refuse(format!(
                    "an English text and any of {}, none blank, at most {MAX_TEXT_CHARS} \
                     characters",
                    languages.join(", ")
                ));
            }
            let link_ok = |text: &String| text.trim().starts_with("https://");
            if LINK_TEXTS.contains(&key.as_str()) && !texts.values().all(link_ok) {
                return refuse("a link beginning https://".to_string());
            }
        }
        let field_ok = |text: &String| (1..=100).contains(&text.trim().chars().count());
        let accounts_ok = self.receiving_accounts.len() <= 10
            && self.receiving_accounts.iter().all(|account| {
                field_ok(&account.bank_name)
                    && field_ok(&account.account_name)
                    && field_ok(&account.account_no)
            });
        if !accounts_ok {
            return Err(InvalidInput::new(
                "receivingAccounts",
                "at most 10, each with its bank, holder and number (1 to 100 characters)",
            ));
        }
        Ok(())
    }
}

impl Setting for LenderSettings {
    const LINE: &'static str = "SettingsLine";

    fn line_key(&self) -> i64 {
        0
    }

    fn check(&self, services: &ChangeServices) -> Result<(), ChangeError> {
        self.check_shape().map_err(ChangeError::Offer)?;
        // Borrowers pay only into an account at a bank or e-wallet the app knows.
        let unknown = self.receiving_accounts.iter().find(|account| {
            services
                .reference
                .account_kind(&account.bank_name)
                .is_none()
        });
        match unknown {
            Some(account) => Err(ChangeError::Offer(InvalidInput::new(
                "receivingAccounts",
                format!("{}: not a bank or e-wallet of the list", account.bank_name),
            ))),
            None => Ok(()),
        }
    }

    fn as_version(&self, version: u32) -> Self {
        Self {
            version,
            ..self.clone()
        }
    }
}
