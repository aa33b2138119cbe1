//! An event's metadata as the log holds it: a JSON object of strings (`actor`,
//! `request_id`, `recorded_at`, …), kept as its text.
//!
//! Readers look up one or two keys of it per event. Parsed into a
//! [`serde_json::Value`] in the log reader, every event paid for a map, its keys and
//! its strings, and their freeing: about 6 % of a rebuild's CPU (bench/PROFILE.md,
//! issue 14). A lookup here walks the text once and borrows the value from it (it
//! allocates only for a value with escapes).

use std::borrow::Cow;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;

/// The metadata of one stored event: the JSON text of an object whose values are
/// strings (PRODUCT.md P9: who acted and when; the request that wrote it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Metadata(Box<str>);

impl Metadata {
    /// The metadata whose text is `text` (as the events table holds it).
    pub fn from_text(text: String) -> Self {
        Self(text.into_boxed_str())
    }

    /// The metadata that serializes `value`.
    pub fn from_value(value: &Value) -> Self {
        Self(value.to_string().into_boxed_str())
    }

    /// The JSON text.
    pub fn text(&self) -> &str {
        &self.0
    }

    /// The string under `key`; `None` when there is none, when it is not a string,
    /// or when the text is not a JSON object (as `Value::get(key)?.as_str()` answers).
    pub fn get(&self, key: &str) -> Option<Cow<'_, str>> {
        let mut json = serde_json::Deserializer::from_str(&self.0);
        Lookup(key).deserialize(&mut json).ok().flatten()
    }
}

/// Finds one key's string in a JSON object, skipping the other entries unparsed.
struct Lookup<'k>(&'k str);

impl<'de> DeserializeSeed<'de> for Lookup<'_> {
    type Value = Option<Cow<'de, str>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Lookup<'_> {
    type Value = Option<Cow<'de, str>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        let mut found = None;
        // Every entry is read (the deserializer checks the object's end). A value that
        // is not a string fails the walk, which `Metadata::get` answers as `None`, as
        // `Value::as_str` would; metadata is written from a map, so no key repeats.
        while let Some(key) = map.next_key_seed(Text)? {
            if key == self.0 {
                found = Some(map.next_value_seed(Text)?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

/// A JSON string, borrowed from the text when it has no escapes.
struct Text;

impl<'de> DeserializeSeed<'de> for Text {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Text {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(text))
    }

    fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_lookup_answers_what_the_parsed_object_answers() {
        let value = json!({
            "actor": "user:0191",
            "request_id": "req-1",
            "recorded_at": "2026-11-22T09:00:00.000000Z",
            "escaped": "line\nbreak \"quoted\" \u{e9}",
            "number": 7,
            "nested": {"actor": "not this one"},
            "list": ["a", {"b": 1}],
            "nothing": null,
        });
        let metadata = Metadata::from_value(&value);
        for key in [
            "actor",
            "request_id",
            "recorded_at",
            "escaped",
            "number",
            "nested",
            "list",
            "nothing",
            "absent",
        ] {
            assert_eq!(
                metadata.get(key).as_deref(),
                value.get(key).and_then(Value::as_str),
                "{key}"
            );
        }
        assert!(matches!(metadata.get("actor"), Some(Cow::Borrowed(_))));
    }

    #[test]
    fn text_that_is_not_an_object_has_no_keys() {
        for text in [
            "",
            "null",
            "[]",
            "\"actor\"",
            "{\"actor\": \"user:1\"",
            "{\"actor\": 1}",
        ] {
            assert_eq!(
                Metadata::from_text(text.to_string()).get("actor"),
                None,
                "{text}"
            );
        }
    }
}
