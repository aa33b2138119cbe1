//! Money on the wire and in stored documents: a decimal string with exactly two
//! places ("1200.00"), PRODUCT.md 4.4. Reading accepts any decimal string or number.
//! Use as `#[serde(with = "crate::money")]` on `Decimal` money fields.

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serializer};

/// Serializes `amount` as a string with two decimals ([`text`]).
pub fn serialize<S: Serializer>(amount: &Decimal, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&text(*amount))
}

/// `amount` rounded to cents as `Decimal::round_dp(2)` rounds (half to even) and
/// written with exactly two decimals: `"1200.00"`, `"-0.50"`; the same text as
/// `format!("{:.2}", amount.round_dp(2))`, a negative zero included (`"-0.00"`).
/// Written from the cents' integer: every stored document and state holds several
/// amounts, and `Decimal`'s `Display` through `fmt` was about 5 % of a rebuild's
/// instructions (bench/PROFILE.md, "Session of 2026-11-29 (second)").
pub fn text(amount: Decimal) -> String {
    let mut cents = amount.round_dp(2);
    cents.rescale(2);
    if cents.scale() != 2 {
        // Beyond about 7.9e26 the cents do not fit in 96 bits; never money, but exact.
        return format!("{:.2}", amount.round_dp(2));
    }
    let magnitude = cents.mantissa().unsigned_abs();
    let mut digits = itoa::Buffer::new();
    let whole = digits.format(magnitude / 100);
    let fraction = (magnitude % 100) as u8;
    let mut text = String::with_capacity(whole.len() + 4);
    if cents.is_sign_negative() {
        text.push('-');
    }
    text.push_str(whole);
    text.push('.');
    text.push(char::from(b'0' + fraction / 10));
    text.push(char::from(b'0' + fraction % 10));
    text
}

/// `amount` with thousands separators and two decimals (`80,000.00`, `-1,000.00`):
/// how people read an amount (pages the api renders, SMS, refusal messages, PDFs);
/// the symbol is the caller's.
pub fn grouped(amount: Decimal) -> String {
    let text = text(amount);
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.as_str()),
    };
    let (whole, cents) = digits.split_once('.').unwrap_or((digits, "00"));
    let mut grouped = String::with_capacity(text.len() + whole.len() / 3);
    grouped.push_str(sign);
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped.push('.');
    grouped.push_str(cents);
    grouped
}

/// Reads a decimal.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Decimal, D::Error> {
    <Decimal as Deserialize>::deserialize(deserializer)
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;
    use rust_decimal_macros::dec;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Amount(#[serde(with = "crate::money")] Decimal);

    #[test]
    fn money_people_read_is_grouped_in_threes() {
        assert_eq!(super::grouped(dec!(80000)), "80,000.00");
        assert_eq!(super::grouped(dec!(1234567.5)), "1,234,567.50");
        assert_eq!(super::grouped(dec!(999)), "999.00");
        assert_eq!(super::grouped(dec!(-1000)), "-1,000.00");
    }

    #[test]
    fn money_is_written_with_two_decimals_and_read_back_exactly() {
        assert_eq!(
            serde_json::to_string(&Amount(dec!(1200))).unwrap(),
            "\"1200.00\""
        );
        assert_eq!(
            serde_json::to_string(&Amount(dec!(13493.3))).unwrap(),
            "\"13493.30\""
        );
        let back: Amount = serde_json::from_str("\"80960.0\"").unwrap();
        assert_eq!(back, Amount(dec!(80960)));
    }

    /// What `text` must equal: `Decimal`'s own formatting of the rounded amount.
    fn formatted(amount: Decimal) -> String {
        format!("{:.2}", amount.round_dp(2))
    }

    #[test]
    fn text_rounds_half_to_even_and_keeps_the_sign_as_display_does() {
        for amount in [
            dec!(0),
            dec!(-0.001),
            dec!(-0),
            dec!(0.005),
            dec!(0.015),
            dec!(0.025),
            dec!(-0.125),
            dec!(1.999),
            dec!(7),
            dec!(0.1),
            dec!(-12345678901234567890.555),
            Decimal::MAX,
            Decimal::MIN,
            Decimal::new(1, 28),
        ] {
            assert_eq!(super::text(amount), formatted(amount), "{amount:?}");
        }
        assert_eq!(super::text(dec!(0.025)), "0.02");
        assert_eq!(super::text(dec!(-0.5)), "-0.50");
    }

    proptest::proptest! {
        #[test]
        fn text_is_display_of_the_rounded_amount(mantissa: i128, scale in 0u32..=28) {
            let mantissa = mantissa % 79_228_162_514_264_337_593_543_950_335;
            let amount = Decimal::from_i128_with_scale(mantissa, scale);
            proptest::prop_assert_eq!(super::text(amount), formatted(amount));
        }
    }
}
