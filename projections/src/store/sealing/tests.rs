//! Sealing and opening one payload, without a database.

use super::*;
use serde_json::json;

fn key() -> DataKey {
    Aes256Gcm::new(&Aes256Gcm::generate_key(OsRng))
}

fn registered() -> Value {
    json!({"UserRegistered": {
        "user_id": "u1", "mobile": "09171234567", "password_hash": "$argon2id$x",
        "invite_code": null, "channel": null, "registered_at": "2026-11-24T00:00:00Z"
    }})
}

fn profile() -> Value {
    json!({"ProfileUpdated": {"changes": {
        "realName": "Maria Santos", "identity": "123456789012", "sex": 2,
        "birthday": "1990-05-17", "marriage": null, "email": "maria@example.com",
        "facebook": null, "education": null, "provinceCity": null, "address": null
    }}})
}

#[test]
fn a_sealed_payload_holds_no_personal_value_and_opens_to_the_original() {
    let key = key();
    let mut payload = profile();
    let sealed = seal("User", "ProfileUpdated", &mut payload, "u1", Some(&key));
    assert_eq!(
        sealed, 5,
        "name, ID number, sex, birthday, email; nulls are skipped"
    );
    let text = payload.to_string();
    for value in ["Maria", "123456789012", "1990-05-17", "maria@"] {
        assert!(!text.contains(value), "{value} in {text}");
    }
    let keys = HashMap::from([("u1".to_string(), key)]);
    open(&mut payload, &keys).unwrap();
    assert_eq!(payload, profile());
}

#[test]
fn sealing_twice_changes_nothing_the_second_time() {
    let key = key();
    let mut payload = registered();
    assert_eq!(
        seal("User", "UserRegistered", &mut payload, "u1", Some(&key)),
        1
    );
    let once = payload.clone();
    assert_eq!(
        seal("User", "UserRegistered", &mut payload, "u1", Some(&key)),
        0
    );
    assert_eq!(payload, once);
}

#[test]
fn with_the_key_erased_sealed_values_read_as_erased_and_the_event_still_loads() {
    let key = key();
    let mut payload = profile();
    seal("User", "ProfileUpdated", &mut payload, "u1", Some(&key));
    open(&mut payload, &HashMap::new()).unwrap();
    let changes = &payload["ProfileUpdated"]["changes"];
    assert_eq!(changes["realName"], "[erased]");
    assert_eq!(changes["marriage"], Value::Null, "never set, stays unset");
    assert_eq!(changes["birthday"], Value::Null, "a date reads null");
    let event: aggregates::user::UserEvent = serde_json::from_value(payload).unwrap();
    assert!(matches!(
        event,
        aggregates::user::UserEvent::ProfileUpdated { .. }
    ));

    let mut payload = registered();
    seal("User", "UserRegistered", &mut payload, "u1", Some(&key));
    open(&mut payload, &HashMap::new()).unwrap();
    assert_eq!(payload["UserRegistered"]["mobile"], "[erased]");
}

#[test]
fn an_erased_subject_gets_the_erased_form_written_never_plaintext() {
    let mut payload = registered();
    assert_eq!(seal("User", "UserRegistered", &mut payload, "u1", None), 1);
    assert_eq!(payload["UserRegistered"]["mobile"], "[erased]");
}

#[test]
fn an_altered_or_moved_sealed_value_is_an_error_not_a_silent_erasure() {
    let key = key();
    let mut payload = registered();
    seal("User", "UserRegistered", &mut payload, "u1", Some(&key));
    let keys = HashMap::from([("u1".to_string(), key.clone()), ("u2".to_string(), key)]);

    let mut moved = payload.clone();
    let text = moved["UserRegistered"]["mobile"]["$sealed"]
        .as_str()
        .unwrap()
        .replace(":u1:", ":u2:");
    moved["UserRegistered"]["mobile"]["$sealed"] = Value::from(text);
    assert!(
        open(&mut moved, &keys).is_err(),
        "the subject is authenticated"
    );

    let mut altered = payload.clone();
    let text = altered["UserRegistered"]["mobile"]["$sealed"]
        .as_str()
        .unwrap()
        .to_string();
    // Another base64 digit in the ciphertext (never the one already there: with a
    // random key and nonce it is 'A' one time in 64, and the test then altered nothing).
    let at = text.len() - 3;
    let other = if &text[at..=at] == "A" { "B" } else { "A" };
    let flipped = format!("{}{other}{}", &text[..at], &text[at + 1..]);
    altered["UserRegistered"]["mobile"]["$sealed"] = Value::from(flipped);
    assert!(open(&mut altered, &keys).is_err());
}

#[test]
fn events_without_personal_fields_are_left_alone() {
    let key = key();
    let mut payload = json!({"LoginSucceeded": {"at": "2026-11-24T00:00:00Z"}});
    assert_eq!(
        seal("User", "LoginSucceeded", &mut payload, "u1", Some(&key)),
        0
    );
    assert!(!has_sealed(&payload));
}
