//! Given-when-then tests of the User's reference-data rules (PRODUCT.md 5, 11): a
//! location names a configured place as "Region,Province,City", a location stored in
//! the old "province,city" form still loads and may be saved again unchanged, and an
//! e-wallet account number is the wallet's mobile number.

use super::*;
use crate::actor::Actor;
use crate::services::doubles::{test_now, user_services, FixedClock, KNOWN_PLACES};
use crate::types::{BankAccount, InvalidInput};
use cqrs_es::test::TestFramework;
use cqrs_es::Aggregate;
use std::sync::Arc;
use uuid::Uuid;

type UserTest = TestFramework<User>;

fn user_id() -> Uuid {
    Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_0002)
}

fn test() -> UserTest {
    UserTest::with(user_services(Arc::new(FixedClock::at(test_now()))))
}

fn registered() -> UserEvent {
    UserEvent::UserRegistered {
        user_id: user_id(),
        mobile: "09171234567".to_string(),
        password_hash: "hashed:secret-pass".to_string(),
        invite_code: Some("WELCOME".to_string()),
        channel: None,
        registered_at: test_now(),
        privacy_notice_version: Some("2026-11".to_string()),
        privacy_notice_language: Some("en".to_string()),
    }
}

fn located(place: &str) -> ProfileUpdate {
    ProfileUpdate {
        province_city: Some(place.to_string()),
        ..ProfileUpdate::default()
    }
}

fn moved_to(place: &str) -> UserCommand {
    UserCommand::UpdateProfile(located(place))
}

/// A profile saved before "Region,Province,City", as its event was stored.
fn legacy_profile() -> UserEvent {
    let stored = r#"{"ProfileUpdated":{"changes":{"realName":"Ana Santos","provinceCity":"Metro Manila,Quezon City"}}}"#;
    serde_json::from_str(stored).expect("the old ProfileUpdated payload deserialises")
}

fn unknown_place() -> UserError {
    InvalidInput::new(
        "provinceCity",
        "choose a region, province and city or municipality from the list",
    )
    .into()
}

#[test]
fn a_city_under_its_region_and_province_is_accepted() {
    let place = KNOWN_PLACES[1];
    test()
        .given(vec![registered()])
        .when(moved_to(place))
        .then_expect_events(vec![UserEvent::ProfileUpdated {
            changes: located(place),
        }]);
}

#[test]
fn a_city_of_a_region_without_provinces_is_stored_with_an_empty_province() {
    let place = "National Capital Region (NCR),,Quezon City";
    assert!(KNOWN_PLACES.contains(&place));
    test()
        .given(vec![registered()])
        .when(moved_to(place))
        .then_expect_events(vec![UserEvent::ProfileUpdated {
            changes: located(place),
        }]);
}

#[test]
fn a_place_that_is_not_configured_is_refused() {
    for place in [
        // A real city under the wrong province.
        "Region VII (Central Visayas),Bohol,City of Cebu",
        // NCR has no provinces: naming one is wrong.
        "National Capital Region (NCR),Metro Manila,Quezon City",
        "Region VII (Central Visayas),Cebu,Atlantis",
    ] {
        test()
            .given(vec![registered()])
            .when(moved_to(place))
            .then_expect_error(unknown_place());
    }
}

#[test]
fn a_location_not_in_the_three_part_form_is_refused() {
    test()
        .given(vec![registered()])
        .when(moved_to("Metro Manila,Quezon City"))
        .then_expect_error(
            InvalidInput::new("provinceCity", "must be \"Region,Province,City\"").into(),
        );
}

#[test]
fn a_location_stored_in_the_old_form_still_loads() {
    let mut user = User::default();
    user.apply(registered());
    user.apply(legacy_profile());
    assert_eq!(
        user.profile.fields.province_city.as_deref(),
        Some("Metro Manila,Quezon City")
    );
}

#[test]
fn a_location_stored_in_the_old_form_may_be_saved_again_unchanged() {
    test()
        .given(vec![registered(), legacy_profile()])
        .when(moved_to("Metro Manila,Quezon City"))
        .then_expect_events(vec![UserEvent::ProfileUpdated {
            changes: located("Metro Manila,Quezon City"),
        }]);
}

#[test]
fn a_borrower_with_an_old_location_can_move_to_a_configured_place() {
    let place = KNOWN_PLACES[0];
    test()
        .given(vec![registered(), legacy_profile()])
        .when(moved_to(place))
        .then_expect_events(vec![UserEvent::ProfileUpdated {
            changes: located(place),
        }]);
}

#[test]
fn the_questionnaire_checks_the_location_it_carries() {
    let answers = super::events::Questionnaire {
        job: "Teacher".to_string(),
        monthly_income: "30000".to_string(),
        expenses: "12000".to_string(),
        loan_purpose: "School fees".to_string(),
        loan_before: false,
        guarantee: false,
    };
    test()
        .given(vec![registered()])
        .when(UserCommand::AnswerQuestionnaire {
            answers,
            profile: located("Region VII (Central Visayas),Cebu,Atlantis"),
        })
        .then_expect_error(unknown_place());
}

fn bind(bank: &str, account_no: &str) -> UserCommand {
    UserCommand::BindBankCard {
        actor: Actor::User(user_id()),
        bank_name: bank.to_string(),
        card_no: account_no.to_string(),
        sms_code_verified: false,
    }
}

fn named() -> UserEvent {
    UserEvent::ProfileUpdated {
        changes: ProfileUpdate {
            real_name: Some("Ana Santos".to_string()),
            ..ProfileUpdate::default()
        },
    }
}

#[test]
fn an_e_wallet_is_bound_with_its_mobile_number() {
    test()
        .given(vec![registered(), named()])
        .when(bind("GCash", "09171234567"))
        .then_expect_events(vec![UserEvent::BankCardBound {
            account: BankAccount {
                bank_name: "GCash".to_string(),
                account_no: "09171234567".to_string(),
                holder_name: "Ana Santos".to_string(),
            },
            replaced: false,
        }]);
}

#[test]
fn an_e_wallet_account_that_is_not_a_mobile_number_is_refused() {
    for account_no in ["001234567890", "0917123456", "08171234567"] {
        test()
            .given(vec![registered(), named()])
            .when(bind("GCash", account_no))
            .then_expect_error(UserError::InvalidBankAccount);
    }
}

#[test]
fn a_bank_account_keeps_the_eight_to_twenty_digit_rule() {
    test()
        .given(vec![registered(), named()])
        .when(bind("BDO", "0917123"))
        .then_expect_error(UserError::InvalidBankAccount);
    test()
        .given(vec![registered(), named()])
        .when(bind("BDO", "09171234567"))
        .then_expect_events(vec![UserEvent::BankCardBound {
            account: BankAccount {
                bank_name: "BDO".to_string(),
                account_no: "09171234567".to_string(),
                holder_name: "Ana Santos".to_string(),
            },
            replaced: false,
        }]);
}
