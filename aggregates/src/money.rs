//! Money on the wire and in stored documents: a decimal string with exactly two
//! places ("1200.00"), PRODUCT.md 4.4. Reading accepts any decimal string or number.
//! Use as `#[serde(with = "crate::money")]` on `Decimal` money fields.

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serializer};

/// Serializes `amount` as a string with two decimals.
pub fn serialize<S: Serializer>(amount: &Decimal, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(&format_args!("{:.2}", amount.round_dp(2)))
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
}
