//! Value types shared by the aggregates. Each `parse` enforces a rule of PRODUCT.md
//! section 5, so an invalid value cannot exist once parsed.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// Input failed a section-5 rule; `field` uses the wire name, `reason` is for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct InvalidInput {
    /// The wire name of the field (PRODUCT.md sections 8 and 10).
    pub field: &'static str,
    /// What is wrong, in words a borrower understands.
    pub reason: String,
}

impl InvalidInput {
    /// Builds the error for `field`.
    pub fn new(field: &'static str, reason: impl Into<String>) -> Self {
        Self {
            field,
            reason: reason.into(),
        }
    }
}

/// A phone number: exactly 11 digits starting with 0 (PRODUCT.md section 5).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Mobile(String);

impl Mobile {
    /// Parses a phone number. Errors: `mobile` when it is not 11 digits starting with 0.
    pub fn parse(text: &str) -> Result<Self, InvalidInput> {
        let ok = text.len() == 11 && text.starts_with('0') && all_digits(text);
        if ok {
            Ok(Self(text.to_string()))
        } else {
            Err(InvalidInput::new(
                "mobile",
                "must be 11 digits starting with 0",
            ))
        }
    }

    /// The digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Minimum password length (PRODUCT.md section 5).
pub const MIN_PASSWORD_LEN: usize = 8;

/// Checks a new password. Errors: `password` when shorter than 8 characters.
pub fn check_password(password: &str) -> Result<(), InvalidInput> {
    if password.chars().count() < MIN_PASSWORD_LEN {
        return Err(InvalidInput::new(
            "password",
            "must be at least 8 characters",
        ));
    }
    Ok(())
}

/// PINs people choose most, beyond the patterns [`check_pin`] refuses (published
/// analyses of leaked PIN sets: keypad lines, mirrored halves, years).
const COMMON_PINS: [&str; 10] = [
    "112233", "123321", "147258", "159753", "258369", "369258", "520520", "789456", "102030",
    "110110",
];

/// Checks a new withdraw PIN: exactly 6 digits (PRODUCT.md section 8
/// `/user/withdrawPin`), and not one a guesser tries first (NIST SP 800-63B 5.1.1.2:
/// refuse values from a list of commonly used ones): one digit repeated (111111), a
/// run up or down (123456, 987654), a repeated pair or triple (121212, 123123), or
/// one of [`COMMON_PINS`]. Only a PIN being set is checked; one already set still
/// opens withdrawals. Errors: `pin` with the reason.
pub fn check_pin(pin: &str) -> Result<(), InvalidInput> {
    if pin.len() != 6 || !all_digits(pin) {
        return Err(InvalidInput::new("pin", "must be 6 digits"));
    }
    let digits: Vec<i8> = pin.bytes().map(|b| (b - b'0') as i8).collect();
    let steps: Vec<i8> = digits.windows(2).map(|w| w[1] - w[0]).collect();
    let run = steps.iter().all(|s| *s == steps[0] && s.abs() <= 1);
    let repeats = |every: usize| {
        digits
            .iter()
            .enumerate()
            .all(|(i, d)| *d == digits[i % every])
    };
    if run || repeats(2) || repeats(3) || COMMON_PINS.contains(&pin) {
        return Err(InvalidInput::new(
            "pin",
            "is too easy to guess (a repeated digit, a sequence such as 123456 or a common PIN): choose another",
        ));
    }
    Ok(())
}

/// True when the text is non-empty and only ASCII digits.
pub fn all_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// Checks an email address syntactically: one `@`, a non-empty local part, a dotted
/// domain without spaces. Errors: `email` ("Please input correct email").
pub fn check_email(email: &str) -> Result<(), InvalidInput> {
    let bad = || InvalidInput::new("email", "Please input correct email");
    let (local, domain) = email.split_once('@').ok_or_else(bad)?;
    let domain_ok = domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..");
    let clean = !email.chars().any(|c| c.is_whitespace()) && !domain.contains('@');
    if local.is_empty() || !domain_ok || !clean || email.len() > 254 {
        return Err(bad());
    }
    Ok(())
}

/// The earliest birthday accepted (PRODUCT.md section 11).
pub fn earliest_birthday() -> NaiveDate {
    NaiveDate::from_ymd_opt(1900, 1, 1).expect("valid constant date")
}

/// Full years between `birthday` and `today` (the age on `today`).
pub fn age_on(birthday: NaiveDate, today: NaiveDate) -> u32 {
    today.years_since(birthday).unwrap_or(0)
}

/// An uploaded image: the object-store key and the SHA-256 of its bytes (hex).
/// Events hold these, never the bytes (DESIGN.md "Stores").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageRef {
    /// Object-store key, e.g. `id/<user>/front-<uuid>.jpg`.
    pub key: String,
    /// Lower-case hex SHA-256 of the stored (re-encoded) bytes.
    pub sha256: String,
}

/// A bank account as bound by the borrower. The holder is always the borrower's
/// verified real name (P3); there is no way to set another holder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BankAccount {
    /// Bank name from the configured list.
    pub bank_name: String,
    /// Account number, 8–20 digits.
    pub account_no: String,
    /// The borrower's real name at the time of binding.
    pub holder_name: String,
}

impl BankAccount {
    /// The account number with all but the last four digits hidden, for logs and
    /// read models (`cardNo (masked)`, PRODUCT.md section 10).
    pub fn masked_account_no(&self) -> String {
        mask(&self.account_no, 4)
    }
}

/// Replaces all but the last `visible` characters with `*`; an erased value
/// ([`crate::personal::ERASED`]) is shown as erased, not as its masked tail.
pub fn mask(text: &str, visible: usize) -> String {
    if text == crate::personal::ERASED {
        return text.to_string();
    }
    let count = text.chars().count();
    text.chars()
        .enumerate()
        .map(|(i, c)| if i + visible < count { '*' } else { c })
        .collect()
}

/// Longest free text, in characters (PRODUCT.md 5): names, job, list choices.
pub const MAX_NAME_CHARS: usize = 60;
/// Longest address, province/city or loan purpose, in characters (PRODUCT.md 5).
pub const MAX_ADDRESS_CHARS: usize = 200;
/// Longest reason or note, in characters (PRODUCT.md 5).
pub const MAX_NOTE_CHARS: usize = 500;

/// `value` is at most `max` characters (PRODUCT.md 5: every free-text field has a
/// maximum length, so nothing oversized becomes permanent in the event log).
/// Errors: [`InvalidInput`] naming `field` (10004).
pub fn check_length(field: &'static str, value: &str, max: usize) -> Result<(), InvalidInput> {
    if value.chars().count() > max {
        return Err(InvalidInput::new(
            field,
            format!("at most {max} characters"),
        ));
    }
    Ok(())
}

/// Checks a bank account number: 8–20 digits (PRODUCT.md section 5). Errors: 10028.
pub fn check_account_no(account_no: &str) -> bool {
    (8..=20).contains(&account_no.len()) && all_digits(account_no)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mobile_must_be_eleven_digits_starting_with_zero() {
        assert!(Mobile::parse("09171234567").is_ok());
        for bad in [
            "9171234567",
            "19171234567",
            "0917123456a",
            "091712345678",
            "",
        ] {
            assert!(Mobile::parse(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn a_pin_a_guesser_tries_first_is_refused_issue_52() {
        for easy in [
            "123456", "654321", "012345", "987654", "111111", "000000", "121212", "123123",
            "909090", "112233", "159753",
        ] {
            let refused = check_pin(easy).expect_err(easy);
            assert!(
                refused.to_string().contains("too easy to guess"),
                "{easy}: {refused}"
            );
        }
        for fine in ["135792", "482913", "120045", "246813", "907312"] {
            assert_eq!(check_pin(fine), Ok(()), "{fine}");
        }
    }

    #[test]
    fn password_pin_email_and_account_rules() {
        assert!(check_password("12345678").is_ok());
        assert!(check_password("1234567").is_err());
        assert!(check_pin("12345").is_err() && check_pin("12345a").is_err());
        assert!(check_email("ana@example.ph").is_ok());
        for bad in [
            "ana",
            "ana@",
            "@x.ph",
            "ana@x",
            "a na@x.ph",
            "ana@x..ph",
            "a@b@c.ph",
        ] {
            assert!(check_email(bad).is_err(), "{bad} accepted");
        }
        assert!(check_account_no("12345678") && check_account_no(&"1".repeat(20)));
        assert!(!check_account_no("1234567") && !check_account_no(&"1".repeat(21)));
        assert!(!check_account_no("1234567a"));
    }

    #[test]
    fn masking_keeps_only_the_last_digits() {
        assert_eq!(mask("1234567890", 4), "******7890");
        assert_eq!(mask("12", 4), "12");
        assert_eq!(mask("[erased]", 4), "[erased]", "erased, not a masked tail");
    }

    #[test]
    fn age_counts_full_years() {
        let birthday = NaiveDate::from_ymd_opt(2000, 6, 15).unwrap();
        assert_eq!(
            age_on(birthday, NaiveDate::from_ymd_opt(2022, 6, 14).unwrap()),
            21
        );
        assert_eq!(
            age_on(birthday, NaiveDate::from_ymd_opt(2022, 6, 15).unwrap()),
            22
        );
    }
}

/// An amount of money as it arrives on the wire (PRODUCT.md 5): a decimal string of 1
/// to 9 digits with at most two decimals, `^\d{1,9}(\.\d{1,2})?$`: no sign, no
/// exponent, no spaces. A whole JSON number (`80000`) is accepted too; a JSON number
/// with a fraction or an exponent is refused, since it arrives as a binary float and
/// money never passes through one (send `"5000.50"`). Refusals name the field (10004
/// in the api).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Amount(rust_decimal::Decimal);

impl Amount {
    /// What a refused amount is told.
    pub const RULE: &'static str =
        "an amount is 1 to 9 digits with at most two decimals (e.g. \"5000\" or \"5000.50\")";

    /// The amount written `text`, or `None` when it breaks the pattern.
    pub fn parse(text: &str) -> Option<Self> {
        let (whole, fraction) = match text.split_once('.') {
            Some((whole, fraction)) => (whole, Some(fraction)),
            None => (text, None),
        };
        let whole_ok = (1..=9).contains(&whole.len()) && all_digits(whole);
        let fraction_ok = fraction.is_none_or(|f| (1..=2).contains(&f.len()) && all_digits(f));
        if !(whole_ok && fraction_ok) {
            return None;
        }
        text.parse().ok().map(Self)
    }

    /// `value` as an amount, `None` when it breaks the pattern (a sign, more than two
    /// decimals or nine digits).
    pub fn new(value: rust_decimal::Decimal) -> Option<Self> {
        Self::parse(&value.to_string())
    }

    /// The value.
    pub fn value(self) -> rust_decimal::Decimal {
        self.0
    }
}

impl<'de> Deserialize<'de> for Amount {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Amount;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(Amount::RULE)
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Amount, E> {
                Amount::parse(text).ok_or_else(|| E::custom(Amount::RULE))
            }
            fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Amount, E> {
                self.visit_str(&value.to_string())
            }
            fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Amount, E> {
                self.visit_str(&value.to_string())
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod amount_tests {
    use super::Amount;
    use rust_decimal_macros::dec;

    fn read(json: &str) -> Option<rust_decimal::Decimal> {
        serde_json::from_str::<Amount>(json).ok().map(Amount::value)
    }

    #[test]
    fn plain_amounts_are_read() {
        assert_eq!(read(r#""80000""#), Some(dec!(80000)));
        assert_eq!(read(r#""5000.5""#), Some(dec!(5000.5)));
        assert_eq!(read(r#""0.01""#), Some(dec!(0.01)));
        assert_eq!(read(r#""999999999.99""#), Some(dec!(999999999.99)));
        assert_eq!(read("80000"), Some(dec!(80000)));
    }

    #[test]
    fn exponents_signs_and_odd_forms_are_refused() {
        for bad in [
            r#""1e5""#,
            r#""8E4""#,
            r#""+80000""#,
            r#""-5""#,
            r#""1e-2""#,
            r#"" 100""#,
            r#""100 ""#,
            r#""1,000""#,
            r#""1.""#,
            r#"".5""#,
            r#""1.234""#,
            r#""""#,
            r#""1000000000""#,
            r#""0x10""#,
            r#""NaN""#,
            r#""١٢٣""#,
            "-5",
            "1.234",
            "1e21",
            "1e5",
            "5000.25",
            "true",
            "null",
            "[]",
        ] {
            assert_eq!(read(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_refusal_says_what_an_amount_is() {
        let error = serde_json::from_str::<Amount>(r#""1e5""#).unwrap_err();
        assert!(error.to_string().contains("1 to 9 digits"), "{error}");
    }
}

/// What an auditor's resubmission request asks the borrower to fix (PRODUCT.md 12.4).
/// On the wire: `"photos"`, `"profile"`, `"bank"`, `"questionnaire"`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ResubmissionItem {
    /// The three ID photos (re-uploading resets identity to pending review).
    Photos,
    /// The profile, including the verified name and ID number.
    Profile,
    /// The bound bank account.
    Bank,
    /// The questionnaire answers.
    Questionnaire,
}

impl ResubmissionItem {
    /// Every item, in display order.
    pub const ALL: [Self; 4] = [Self::Photos, Self::Profile, Self::Bank, Self::Questionnaire];

    /// Sorted and without repeats; an empty request is refused by the Order, so the
    /// only empty lists are those of requests recorded before items existed, which
    /// asked for everything (the upcast of [`Self::all_by_default`]).
    pub fn normalized(mut items: Vec<Self>) -> Vec<Self> {
        items.sort();
        items.dedup();
        items
    }

    /// Serde default of requests recorded before items existed: everything.
    pub fn all_by_default() -> Vec<Self> {
        Self::ALL.to_vec()
    }
}
