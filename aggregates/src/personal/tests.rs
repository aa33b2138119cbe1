//! The personal-field table against the events it describes: every path names a value
//! serde really writes, and no personal value of a sample event is left outside it.

use super::*;
use crate::order::OrderEvent;
use crate::types::{BankAccount, ImageRef};
use crate::user::{EmergencyContact, LoanApplication, ProfileUpdate, Questionnaire, UserEvent};
use crate::wallet::WalletEvent;
use chrono::{NaiveDate, Utc};
use cqrs_es::DomainEvent;
use rust_decimal::Decimal;
use serde_json::Value;
use uuid::Uuid;

/// Every personal value in the samples starts with this, so a leak is easy to find.
const P: &str = "PERSONAL";

fn account() -> BankAccount {
    BankAccount {
        bank_name: "BDO".into(),
        account_no: format!("{P}-account"),
        holder_name: format!("{P}-holder"),
    }
}

fn image(what: &str) -> ImageRef {
    ImageRef {
        key: format!("{P}-{what}.jpg"),
        sha256: "ab".repeat(32),
    }
}

fn samples() -> Vec<(&'static str, String, Value)> {
    let user = |event: UserEvent| {
        (
            "User",
            event.event_type(),
            serde_json::to_value(event).unwrap(),
        )
    };
    #[allow(clippy::disallowed_methods)] // any time will do for a fixture
    let at = Utc::now();
    vec![
        user(UserEvent::UserRegistered {
            user_id: Uuid::now_v7(),
            mobile: format!("{P}-mobile"),
            password_hash: "$argon2id$hash".into(),
            invite_code: Some("AGENT1".into()),
            channel: None,
            registered_at: at,
            privacy_notice_version: Some("2026-11".into()),
            privacy_notice_language: Some("fil".into()),
        }),
        user(UserEvent::IdentitySubmitted {
            front: image("front"),
            back: image("back"),
            hand_hold: image("hand"),
        }),
        user(UserEvent::ProfileUpdated {
            changes: ProfileUpdate {
                real_name: Some(format!("{P}-name")),
                identity: Some(format!("{P}-id")),
                sex: Some(1),
                birthday: NaiveDate::from_ymd_opt(1990, 5, 17),
                marriage: Some(format!("{P}-married")),
                email: Some(format!("{P}@example.com")),
                facebook: Some(format!("{P}-fb")),
                education: Some(format!("{P}-college")),
                province_city: Some(format!("{P}-province,city")),
                address: Some(format!("{P}-street")),
            },
        }),
        user(UserEvent::QuestionnaireAnswered {
            answers: Questionnaire {
                job: format!("{P}-job"),
                monthly_income: format!("{P}-income"),
                expenses: format!("{P}-expenses"),
                loan_purpose: format!("{P}-purpose"),
                loan_before: false,
                guarantee: true,
            },
        }),
        user(UserEvent::EmergencyContactsUpdated {
            contacts: vec![
                EmergencyContact {
                    name: format!("{P}-contact1"),
                    relation: format!("{P}-mother"),
                    mobile: format!("{P}-0917"),
                },
                EmergencyContact {
                    name: format!("{P}-contact2"),
                    relation: format!("{P}-friend"),
                    mobile: format!("{P}-0918"),
                },
            ],
        }),
        user(UserEvent::BankCardBound {
            account: account(),
            replaced: false,
        }),
        user(UserEvent::SignatureUploaded {
            image: image("signature"),
        }),
        user(UserEvent::WithdrawalRequested {
            order_id: Uuid::now_v7(),
            payout_id: Uuid::now_v7(),
            amount: Decimal::new(5000, 0),
            account: account(),
            at,
        }),
        user(UserEvent::WithdrawPinVerified {
            order_id: Uuid::now_v7(),
            amount: Decimal::new(5000, 0),
            account: account(),
        }),
        user(UserEvent::ApplicationOpened {
            order_id: Uuid::now_v7(),
            at,
            application: Some(LoanApplication {
                app_id: 1,
                amount: Decimal::new(5000, 0),
                period_days: 90,
                signature: image("signed"),
                applicant_name: format!("{P}-applicant"),
                terms_version: "v1".into(),
                monthly_income: Some(Decimal::new(30000, 0)),
                product_version: None,
            }),
        }),
        {
            let event = OrderEvent::PayoutRequested {
                payout_id: Uuid::now_v7(),
                amount: Decimal::new(5000, 0),
                net_amount: Decimal::new(4900, 0),
                account: account(),
                at,
            };
            (
                "Order",
                event.event_type(),
                serde_json::to_value(event).unwrap(),
            )
        },
        {
            let event = WalletEvent::RefundRequested {
                refund_id: Uuid::now_v7(),
                payment_ref: "pay-1".into(),
                order_id: Uuid::now_v7(),
                amount: Decimal::new(10, 0),
                account: account(),
            };
            (
                "Wallet",
                event.event_type(),
                serde_json::to_value(event).unwrap(),
            )
        },
    ]
}

#[test]
fn every_personal_value_of_the_sample_events_is_listed() {
    for (aggregate_type, event_type, mut payload) in samples() {
        let body = payload.get_mut(&event_type).expect("externally tagged");
        for (path, erased) in personal_fields(aggregate_type, &event_type) {
            visit_mut(body, path, &mut |value| *value = erased.value());
        }
        let text = payload.to_string();
        assert!(
            !text.contains(P),
            "{aggregate_type} {event_type} leaks: {text}"
        );
    }
}

#[test]
fn every_listed_path_names_a_value_the_event_has() {
    for (aggregate_type, event_type, mut payload) in samples() {
        let body = payload.get_mut(&event_type).unwrap();
        for (path, _) in personal_fields(aggregate_type, &event_type) {
            let mut found = 0;
            visit_mut(body, path, &mut |_| found += 1);
            assert!(
                found > 0,
                "{aggregate_type} {event_type}: no value at {path}"
            );
        }
    }
}

#[test]
fn erased_values_still_deserialize_into_the_events() {
    for (aggregate_type, event_type, mut payload) in samples() {
        let body = payload.get_mut(&event_type).unwrap();
        for (path, erased) in personal_fields(aggregate_type, &event_type) {
            visit_mut(body, path, &mut |value| *value = erased.value());
        }
        let loads = match aggregate_type {
            "User" => serde_json::from_value::<UserEvent>(payload).is_ok(),
            "Order" => serde_json::from_value::<OrderEvent>(payload).is_ok(),
            _ => serde_json::from_value::<WalletEvent>(payload).is_ok(),
        };
        assert!(
            loads,
            "{aggregate_type} {event_type} no longer loads once erased"
        );
    }
}

#[test]
fn an_order_names_its_borrower_in_its_first_event() {
    let body = serde_json::json!({"user_id": "0193-user", "order_id": "x"});
    assert_eq!(
        data_subject("Order", "x", Some(&body)).as_deref(),
        Some("0193-user")
    );
    assert_eq!(data_subject("User", "u1", None).as_deref(), Some("u1"));
    assert_eq!(data_subject("Wallet", "u1", None).as_deref(), Some("u1"));
    assert_eq!(data_subject("Order", "x", None), None);
    assert_eq!(data_subject("Auditor", "a", None), None);
}
