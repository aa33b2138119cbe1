//! Given-when-then tests of the User aggregate, one per rule, named after it.

use super::*;
use crate::actor::Actor;
use crate::services::doubles::{test_now, user_services, FixedClock, PRIVACY_NOTICE_VERSION};
use crate::types::{BankAccount, ImageRef, InvalidInput, ResubmissionItem};
use chrono::NaiveDate;
use cqrs_es::test::TestFramework;
use cqrs_es::Aggregate;
use rust_decimal_macros::dec;
use std::sync::Arc;
use uuid::Uuid;

type UserTest = TestFramework<User>;

fn user_id() -> Uuid {
    Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_0001)
}
fn auditor() -> Uuid {
    Uuid::from_u128(0xA1)
}
fn order_id() -> Uuid {
    Uuid::from_u128(0x0D1)
}

fn test() -> UserTest {
    UserTest::with(user_services(Arc::new(FixedClock::at(test_now()))))
}

fn image(name: &str) -> ImageRef {
    ImageRef {
        key: format!("id/{name}.jpg"),
        sha256: "ab".repeat(32),
    }
}

fn registered(invite_code: &str) -> UserEvent {
    UserEvent::UserRegistered {
        user_id: user_id(),
        mobile: "09171234567".to_string(),
        password_hash: "hashed:secret-pass".to_string(),
        invite_code: Some(invite_code.to_string()),
        channel: Some("store".to_string()),
        registered_at: test_now(),
        privacy_notice_version: Some(PRIVACY_NOTICE_VERSION.to_string()),
        privacy_notice_language: Some("en".to_string()),
    }
}

fn full_profile() -> ProfileUpdate {
    ProfileUpdate {
        real_name: Some("Ana Santos".to_string()),
        identity: Some("123456789012".to_string()),
        sex: Some(2),
        birthday: NaiveDate::from_ymd_opt(1995, 3, 14),
        marriage: Some("single".to_string()),
        email: Some("ana@example.ph".to_string()),
        facebook: None,
        education: Some("college".to_string()),
        province_city: Some("National Capital Region (NCR),,Quezon City".to_string()),
        address: Some("12 Mabini St".to_string()),
    }
}

fn account() -> BankAccount {
    BankAccount {
        bank_name: "BDO".to_string(),
        account_no: "001234567890".to_string(),
        holder_name: "Ana Santos".to_string(),
    }
}

/// A registered, verified, fully profiled borrower with a bank account and a signature.
fn qualified() -> Vec<UserEvent> {
    vec![
        registered("WELCOME"),
        UserEvent::IdentitySubmitted {
            front: image("front"),
            back: image("back"),
            hand_hold: image("hand"),
        },
        UserEvent::IdentityVerified {
            auditor_id: auditor(),
        },
        UserEvent::ProfileUpdated {
            changes: full_profile(),
        },
        UserEvent::BankCardBound {
            account: account(),
            replaced: false,
        },
        UserEvent::SignatureUploaded {
            image: image("signature"),
        },
    ]
}

fn with_pin() -> Vec<UserEvent> {
    let mut events = qualified();
    events.push(UserEvent::WithdrawPinSet {
        pin_hash: "hashed:246810".to_string(),
        changed: false,
    });
    events
}

fn opened() -> UserEvent {
    UserEvent::ApplicationOpened {
        order_id: order_id(),
        at: test_now(),
        application: None,
    }
}

/// A borrower with a PIN and an open (approved) order to withdraw from.
fn with_open_order() -> Vec<UserEvent> {
    let mut events = with_pin();
    events.push(opened());
    events
}

fn payout_id() -> Uuid {
    Uuid::from_u128(0xB0)
}

fn withdraw(pin: &str) -> UserCommand {
    UserCommand::RequestWithdrawal {
        order_id: None,
        payout_id: payout_id(),
        amount: dec!(80000),
        pin: pin.to_string(),
    }
}

fn requested() -> UserEvent {
    UserEvent::WithdrawalRequested {
        order_id: order_id(),
        payout_id: payout_id(),
        amount: dec!(80000),
        account: account(),
        at: test_now(),
    }
}

fn open_application(order: Uuid) -> UserCommand {
    UserCommand::OpenApplication {
        order_id: order,
        app_id: 1,
        amount: dec!(80000),
        period_days: 7,
        terms_version: "2026-11".to_string(),
        product_version: None,
    }
}

fn closed(refusal: Option<crate::codes::StepRefusal>) -> UserEvent {
    UserEvent::ApplicationClosed {
        order_id: order_id(),
        refusal,
        at: Some(test_now()),
    }
}

fn fold(events: Vec<UserEvent>) -> User {
    crate::history::state_as_of::<User>(events, usize::MAX)
}

fn wrong_pin() -> UserCommand {
    withdraw("000000")
}

// ---- registration and login -------------------------------------------------------

#[test]
fn registration_records_the_password_only_as_a_hash_p2() {
    let events = test()
        .given_no_previous_events()
        .when(UserCommand::Register {
            user_id: user_id(),
            mobile: "09171234567".to_string(),
            password: "secret-pass".to_string(),
            invite_code: Some("WELCOME".to_string()),
            channel: Some("store".to_string()),
            privacy_notice_version: Some(PRIVACY_NOTICE_VERSION.to_string()),
            privacy_notice_language: None,
        })
        .inspect_result()
        .unwrap();
    assert_eq!(events, vec![registered("WELCOME")]);
    let stored = serde_json::to_string(&events).unwrap();
    assert!(
        !stored.contains("\"secret-pass\""),
        "plain password stored: {stored}"
    );
}

/// A registration accepting the current notice, shown in `language`.
fn register_with_notice_in(language: Option<&str>) -> UserCommand {
    UserCommand::Register {
        user_id: user_id(),
        mobile: "09171234567".to_string(),
        password: "secret-pass".to_string(),
        invite_code: Some("WELCOME".to_string()),
        channel: Some("store".to_string()),
        privacy_notice_version: Some(PRIVACY_NOTICE_VERSION.to_string()),
        privacy_notice_language: language.map(str::to_string),
    }
}

#[test]
fn registration_records_the_privacy_notice_version_and_language_accepted_and_when() {
    let events = test()
        .given_no_previous_events()
        .when(register_with_notice_in(Some("zh")))
        .inspect_result()
        .unwrap();
    let UserEvent::UserRegistered {
        privacy_notice_version,
        privacy_notice_language,
        ..
    } = &events[0]
    else {
        panic!("not a registration: {events:?}");
    };
    assert_eq!(
        privacy_notice_version.as_deref(),
        Some(PRIVACY_NOTICE_VERSION)
    );
    assert_eq!(privacy_notice_language.as_deref(), Some("zh"));
    assert_eq!(
        fold(events).privacy_consent,
        Some(PrivacyConsent {
            version: PRIVACY_NOTICE_VERSION.to_string(),
            accepted_at: test_now(),
            language: Some("zh".to_string()),
        })
    );
}

#[test]
fn a_registration_naming_no_language_records_the_english_notice() {
    // The plain `privacy-notice` text of /loan/getAllCompanyConfigs is English
    // (PRODUCT.md 10): a client that names no language was shown that one.
    let events = test()
        .given_no_previous_events()
        .when(register_with_notice_in(None))
        .inspect_result()
        .unwrap();
    assert_eq!(
        fold(events).privacy_consent.and_then(|c| c.language),
        Some("en".to_string())
    );
}

#[test]
fn registration_naming_a_language_the_notice_is_not_given_in_is_refused() {
    // A language the lender gave no text in (or a forged value) would record
    // consent to a text nobody showed: nothing is recorded.
    for language in ["de", "", "ZH", "en-US", &"x".repeat(10_000)] {
        test()
            .given_no_previous_events()
            .when(register_with_notice_in(Some(language)))
            .then_expect_error(UserError::PrivacyNoticeLanguage {
                languages: "en, zh, fil".to_string(),
            });
    }
}

#[test]
fn registration_without_accepting_the_current_privacy_notice_is_refused() {
    // None accepted, a stale version (the screen was opened before the notice
    // changed), or one the deployment never showed: nothing is recorded.
    for version in [None, Some("2025-01"), Some(""), Some("2026-11-draft")] {
        test()
            .given_no_previous_events()
            .when(UserCommand::Register {
                user_id: user_id(),
                mobile: "09171234567".to_string(),
                password: "secret-pass".to_string(),
                invite_code: Some("WELCOME".to_string()),
                channel: None,
                privacy_notice_version: version.map(str::to_string),
                privacy_notice_language: Some("en".to_string()),
            })
            .then_expect_error(UserError::PrivacyNoticeNotAccepted {
                current: PRIVACY_NOTICE_VERSION.to_string(),
            });
    }
}

#[test]
fn a_registration_recorded_before_consent_was_asked_loads_with_no_consent() {
    // The upcast: the stored form of a registration from before the privacy notice
    // version was recorded.
    let stored = serde_json::json!({"UserRegistered": {
        "user_id": user_id(),
        "mobile": "09171234567",
        "password_hash": "hashed:secret-pass",
        "invite_code": "WELCOME",
        "channel": null,
        "registered_at": test_now(),
    }});
    let event: UserEvent = serde_json::from_value(stored).expect("old form loads");
    let UserEvent::UserRegistered {
        privacy_notice_version,
        privacy_notice_language,
        ..
    } = &event
    else {
        panic!("not a registration: {event:?}");
    };
    assert_eq!(*privacy_notice_version, None);
    assert_eq!(*privacy_notice_language, None, "no language is invented");
    let user = fold(vec![event]);
    assert_eq!(user.id, Some(user_id()));
    assert_eq!(user.privacy_consent, None, "no consent is invented");
}

#[test]
fn registration_with_an_unknown_invite_code_is_refused() {
    test()
        .given_no_previous_events()
        .when(UserCommand::Register {
            user_id: user_id(),
            mobile: "09171234567".to_string(),
            password: "secret-pass".to_string(),
            invite_code: Some("NOPE".to_string()),
            channel: None,
            privacy_notice_version: Some(PRIVACY_NOTICE_VERSION.to_string()),
            privacy_notice_language: None,
        })
        .then_expect_error(UserError::InvalidInviteCode);
}

#[test]
fn registration_validates_phone_and_password() {
    let register = |mobile: &str, password: &str| UserCommand::Register {
        user_id: user_id(),
        mobile: mobile.to_string(),
        password: password.to_string(),
        invite_code: Some("WELCOME".to_string()),
        channel: None,
        privacy_notice_version: Some(PRIVACY_NOTICE_VERSION.to_string()),
        privacy_notice_language: None,
    };
    test()
        .given_no_previous_events()
        .when(register("9171234567", "secret-pass"))
        .then_expect_error(UserError::InvalidInput(InvalidInput::new(
            "mobile",
            "must be 11 digits starting with 0",
        )));
    test()
        .given_no_previous_events()
        .when(register("09171234567", "short"))
        .then_expect_error(UserError::InvalidInput(InvalidInput::new(
            "password",
            "must be at least 8 characters",
        )));
    test()
        .given(vec![registered("WELCOME")])
        .when(register("09171234567", "secret-pass"))
        .then_expect_error(UserError::AlreadyRegistered);
}

#[test]
fn invite_code_is_attribution_only_p13() {
    // Two borrowers identical but for the agent code: same qualification, same right
    // to apply. The code never reaches pricing (OrderCommand has no such field).
    let via_agent = {
        let mut events = qualified();
        events[0] = registered("AGENT7");
        events
    };
    let a = fold(qualified());
    let b = fold(via_agent.clone());
    assert_eq!(b.invite_code.as_deref(), Some("AGENT7"));
    assert_eq!(a.qualification(), b.qualification());
    let open = open_application(order_id());
    let from_a = test()
        .given(qualified())
        .when(open.clone())
        .inspect_result();
    let from_b = test().given(via_agent).when(open).inspect_result();
    assert_eq!(from_a, from_b);
    assert!(from_a.is_ok());
}

#[test]
fn correct_password_logs_in_and_resets_the_failure_count() {
    let mut given = vec![registered("WELCOME")];
    given.push(UserEvent::LoginFailed {
        failed_attempts: 1,
        at: test_now(),
    });
    test()
        .given(given.clone())
        .when(UserCommand::Login {
            password: "secret-pass".to_string(),
        })
        .then_expect_events(vec![UserEvent::LoginSucceeded { at: test_now() }]);
    given.push(UserEvent::LoginSucceeded { at: test_now() });
    assert_eq!(fold(given).failed_logins, 0);
}

#[test]
fn the_fifth_wrong_password_places_a_security_lock_p4() {
    let mut given = vec![registered("WELCOME")];
    for n in 1..=3 {
        given.push(UserEvent::LoginFailed {
            failed_attempts: n,
            at: test_now(),
        });
    }
    let wrong = UserCommand::Login {
        password: "wrong-pass".to_string(),
    };
    // The fourth is recorded without a lock.
    test()
        .given(given.clone())
        .when(wrong.clone())
        .then_expect_events(vec![UserEvent::LoginFailed {
            failed_attempts: 4,
            at: test_now(),
        }]);
    given.push(UserEvent::LoginFailed {
        failed_attempts: 4,
        at: test_now(),
    });
    // The fifth locks.
    test().given(given).when(wrong).then_expect_events(vec![
        UserEvent::LoginFailed {
            failed_attempts: 5,
            at: test_now(),
        },
        UserEvent::AccountLocked {
            kind: LockKind::Security,
            reason: "too many wrong passwords".to_string(),
            by: Actor::System,
        },
    ]);
}

#[test]
fn a_security_lock_is_told_only_to_the_right_password_p4_12_2() {
    // Given an account locked after wrong guesses: a wrong password answers as for
    // an unknown phone (nothing tells a guesser that the account exists or is locked)
    // and records nothing; the right password learns of the lock and its reason, so
    // its owner can lift it with an SMS code (issue 52). Neither signs in.
    let given = vec![
        registered("WELCOME"),
        UserEvent::AccountLocked {
            kind: LockKind::Security,
            reason: "too many wrong passwords".to_string(),
            by: Actor::System,
        },
    ];
    test()
        .given(given.clone())
        .when(UserCommand::Login {
            password: "wrong-pass".to_string(),
        })
        .then_expect_error(UserError::LoginRefused);
    test()
        .given(given)
        .when(UserCommand::Login {
            password: "secret-pass".to_string(),
        })
        .then_expect_error(UserError::AccountLocked {
            kind: LockKind::Security,
            reason: "too many wrong passwords".to_string(),
        });
}

#[test]
fn a_compliance_hold_and_its_reason_are_said_at_login_only_to_the_right_password_p4_12_2() {
    let given = vec![
        registered("WELCOME"),
        UserEvent::AccountLocked {
            kind: LockKind::Compliance,
            reason: "document check".to_string(),
            by: Actor::Auditor(auditor()),
        },
    ];
    test()
        .given(given.clone())
        .when(UserCommand::Login {
            password: "secret-pass".to_string(),
        })
        .then_expect_error(UserError::AccountLocked {
            kind: LockKind::Compliance,
            reason: "document check".to_string(),
        });
    // A wrong password is counted as any other (and may add a security lock).
    test()
        .given(given)
        .when(UserCommand::Login {
            password: "wrong-pass".to_string(),
        })
        .then_expect_events(vec![UserEvent::LoginFailed {
            failed_attempts: 1,
            at: test_now(),
        }]);
}

#[test]
fn login_to_an_unknown_account_is_refused() {
    test()
        .given_no_previous_events()
        .when(UserCommand::Login {
            password: "secret-pass".to_string(),
        })
        .then_expect_error(UserError::NotRegistered);
}

// ---- identity and profile ----------------------------------------------------------

#[test]
fn identity_is_submitted_then_verified_or_rejected_with_a_reason() {
    let submitted = vec![
        registered("WELCOME"),
        UserEvent::IdentitySubmitted {
            front: image("front"),
            back: image("back"),
            hand_hold: image("hand"),
        },
    ];
    assert_eq!(fold(submitted.clone()).qualification().identity, 1);
    test()
        .given(submitted.clone())
        .when(UserCommand::VerifyIdentity {
            auditor_id: auditor(),
        })
        .then_expect_events(vec![UserEvent::IdentityVerified {
            auditor_id: auditor(),
        }]);
    test()
        .given(submitted.clone())
        .when(UserCommand::RejectIdentity {
            auditor_id: auditor(),
            reason: "photo blurred".to_string(),
        })
        .then_expect_events(vec![UserEvent::IdentityRejected {
            auditor_id: auditor(),
            reason: "photo blurred".to_string(),
        }]);
    test()
        .given(submitted)
        .when(UserCommand::RejectIdentity {
            auditor_id: auditor(),
            reason: " ".to_string(),
        })
        .then_expect_error(InvalidInput::new("reason", "is required").into());
    test()
        .given(vec![registered("WELCOME")])
        .when(UserCommand::VerifyIdentity {
            auditor_id: auditor(),
        })
        .then_expect_error(UserError::IdentityNotAwaitingReview);
}

#[test]
fn name_and_id_number_are_read_only_after_verification() {
    let change_name = UserCommand::UpdateProfile(ProfileUpdate {
        real_name: Some("Someone Else".to_string()),
        ..ProfileUpdate::default()
    });
    test()
        .given(qualified())
        .when(change_name)
        .then_expect_error(UserError::VerifiedFieldReadOnly { field: "realName" });
    // Sending the same verified value again is fine (the forms resend it).
    let same_name = ProfileUpdate {
        real_name: Some("Ana Santos".to_string()),
        email: Some("ana.s@example.ph".to_string()),
        ..ProfileUpdate::default()
    };
    test()
        .given(qualified())
        .when(UserCommand::UpdateProfile(same_name.clone()))
        .then_expect_events(vec![UserEvent::ProfileUpdated { changes: same_name }]);
}

#[test]
fn a_name_never_given_may_be_set_after_verification() {
    let given = vec![
        registered("WELCOME"),
        UserEvent::IdentitySubmitted {
            front: image("front"),
            back: image("back"),
            hand_hold: image("hand"),
        },
        UserEvent::IdentityVerified {
            auditor_id: auditor(),
        },
    ];
    let first_name = ProfileUpdate {
        real_name: Some("Ana Santos".to_string()),
        ..ProfileUpdate::default()
    };
    test()
        .given(given)
        .when(UserCommand::UpdateProfile(first_name.clone()))
        .then_expect_events(vec![UserEvent::ProfileUpdated {
            changes: first_name,
        }]);
}

#[test]
fn profile_fields_are_validated() {
    let cases = [
        (
            ProfileUpdate {
                identity: Some("12AB".to_string()),
                ..ProfileUpdate::default()
            },
            UserError::InvalidIdNumber,
        ),
        (
            ProfileUpdate {
                email: Some("ana@".to_string()),
                ..ProfileUpdate::default()
            },
            InvalidInput::new("email", "Please input correct email").into(),
        ),
        (
            ProfileUpdate {
                birthday: NaiveDate::from_ymd_opt(1899, 12, 31),
                ..ProfileUpdate::default()
            },
            InvalidInput::new("birthday", "must be between 1900-01-01 and today").into(),
        ),
        (
            ProfileUpdate {
                birthday: NaiveDate::from_ymd_opt(2026, 11, 23),
                ..ProfileUpdate::default()
            },
            InvalidInput::new("birthday", "must be between 1900-01-01 and today").into(),
        ),
        (
            ProfileUpdate {
                sex: Some(3),
                ..ProfileUpdate::default()
            },
            InvalidInput::new("sex", "must be 1 (male) or 2 (female)").into(),
        ),
    ];
    for (update, error) in cases {
        test()
            .given(vec![registered("WELCOME")])
            .when(UserCommand::UpdateProfile(update))
            .then_expect_error(error);
    }
}

fn answers() -> Questionnaire {
    Questionnaire {
        job: "teacher".to_string(),
        monthly_income: "30000".to_string(),
        expenses: "12000".to_string(),
        loan_purpose: "tuition".to_string(),
        loan_before: false,
        guarantee: true,
    }
}

#[test]
fn the_questionnaire_needs_all_six_answers() {
    let mut answers = answers();
    test()
        .given(vec![registered("WELCOME")])
        .when(UserCommand::AnswerQuestionnaire {
            answers: answers.clone(),
            profile: ProfileUpdate::default(),
        })
        .then_expect_events(vec![UserEvent::QuestionnaireAnswered {
            answers: answers.clone(),
        }]);
    // The profile fields the questionnaire screen sends go in the same command.
    let name = ProfileUpdate {
        real_name: Some("Ana Santos".to_string()),
        ..ProfileUpdate::default()
    };
    test()
        .given(vec![registered("WELCOME")])
        .when(UserCommand::AnswerQuestionnaire {
            answers: answers.clone(),
            profile: name.clone(),
        })
        .then_expect_events(vec![
            UserEvent::ProfileUpdated { changes: name },
            UserEvent::QuestionnaireAnswered {
                answers: answers.clone(),
            },
        ]);
    answers.loan_purpose = String::new();
    test()
        .given(vec![registered("WELCOME")])
        .when(UserCommand::AnswerQuestionnaire {
            answers,
            profile: ProfileUpdate::default(),
        })
        .then_expect_error(InvalidInput::new("loanPurpose", "is required").into());
}

#[test]
fn emergency_contacts_cannot_repeat_a_mobile() {
    let contact = EmergencyContact {
        name: "Ben".to_string(),
        relation: "brother".to_string(),
        mobile: "09170000001".to_string(),
    };
    test()
        .given(vec![registered("WELCOME")])
        .when(UserCommand::UpdateEmergencyContacts {
            contacts: vec![contact.clone(), contact],
        })
        .then_expect_error(InvalidInput::new("contacts", "duplicate mobile").into());
}

// ---- bank account (P3) ---------------------------------------------------------------

fn bind(actor: Actor, sms: bool) -> UserCommand {
    UserCommand::BindBankCard {
        actor,
        bank_name: "BPI".to_string(),
        card_no: "998877665544".to_string(),
        sms_code_verified: sms,
    }
}

fn new_account() -> BankAccount {
    BankAccount {
        bank_name: "BPI".to_string(),
        account_no: "998877665544".to_string(),
        holder_name: "Ana Santos".to_string(),
    }
}

#[test]
fn the_bank_account_holder_is_always_the_borrowers_real_name_p3() {
    let mut given = vec![registered("WELCOME")];
    given.push(UserEvent::ProfileUpdated {
        changes: full_profile(),
    });
    test()
        .given(given)
        .when(bind(Actor::User(user_id()), false))
        .then_expect_events(vec![UserEvent::BankCardBound {
            account: new_account(),
            replaced: false,
        }]);
    // Without a real name there is nobody to hold the account.
    test()
        .given(vec![registered("WELCOME")])
        .when(bind(Actor::User(user_id()), false))
        .then_expect_error(UserError::NotQualified("enter your real name first"));
}

#[test]
fn no_back_office_actor_can_bind_a_bank_account_p3() {
    for actor in [
        Actor::Auditor(auditor()),
        Actor::System,
        Actor::User(Uuid::from_u128(9)),
    ] {
        test()
            .given(qualified())
            .when(bind(actor, true))
            .then_expect_error(UserError::OnlyTheBorrower);
    }
}

#[test]
fn replacing_a_bound_account_needs_an_sms_code_p3() {
    test()
        .given(qualified())
        .when(bind(Actor::User(user_id()), false))
        .then_expect_error(UserError::SmsCodeRequired);
    test()
        .given(qualified())
        .when(bind(Actor::User(user_id()), true))
        .then_expect_events(vec![UserEvent::BankCardBound {
            account: new_account(),
            replaced: true,
        }]);
}

#[test]
fn the_account_cannot_change_while_a_withdrawal_is_in_flight_p3() {
    let mut given = with_open_order();
    given.push(requested());
    test()
        .given(given.clone())
        .when(bind(Actor::User(user_id()), true))
        .then_expect_error(UserError::BankAccountChangeNotAllowed);
    // A failed payout frees the account again, so the borrower can fix it (5).
    given.push(UserEvent::WithdrawalSettled {
        order_id: order_id(),
        payout_id: payout_id(),
        paid_out: false,
    });
    test()
        .given(given)
        .when(bind(Actor::User(user_id()), true))
        .then_expect_events(vec![UserEvent::BankCardBound {
            account: new_account(),
            replaced: true,
        }]);
}

#[test]
fn the_account_cannot_change_while_the_loan_is_repaid_and_can_once_it_closes_p3() {
    let mut given = with_open_order();
    given.push(requested());
    given.push(UserEvent::WithdrawalSettled {
        order_id: order_id(),
        payout_id: payout_id(),
        paid_out: true,
    });
    test()
        .given(given.clone())
        .when(bind(Actor::User(user_id()), true))
        .then_expect_error(UserError::BankAccountChangeNotAllowed);
    given.push(closed(None));
    test()
        .given(given)
        .when(bind(Actor::User(user_id()), true))
        .then_expect_events(vec![UserEvent::BankCardBound {
            account: new_account(),
            replaced: true,
        }]);
}

#[test]
fn a_withdrawal_after_a_bank_change_captures_the_new_account_p3() {
    let mut given = with_open_order();
    given.push(UserEvent::BankCardBound {
        account: new_account(),
        replaced: true,
    });
    test()
        .given(given)
        .when(withdraw("246810"))
        .then_expect_events(vec![UserEvent::WithdrawalRequested {
            order_id: order_id(),
            payout_id: payout_id(),
            amount: dec!(80000),
            account: new_account(),
            at: test_now(),
        }]);
}

#[test]
fn a_second_withdrawal_waits_for_the_first_to_settle_p3() {
    let mut given = with_open_order();
    given.push(requested());
    test()
        .given(given.clone())
        .when(UserCommand::RequestWithdrawal {
            order_id: None,
            payout_id: Uuid::from_u128(0xB1),
            amount: dec!(1000),
            pin: "246810".to_string(),
        })
        .then_expect_error(UserError::WithdrawalInFlight);
    // Refused by the order: the withdrawal is over, with the order's reason kept.
    let refusal = crate::codes::StepRefusal::new(
        crate::codes::ErrorCode::InsufficientBalance,
        "insufficient balance",
    );
    given.push(UserEvent::WithdrawalCancelled {
        payout_id: payout_id(),
        refusal: refusal.clone(),
    });
    let user = fold(given.clone());
    assert_eq!(user.withdrawal, None);
    assert_eq!(user.refusal_of(payout_id()), Some(&refusal));
    assert!(test()
        .given(given)
        .when(withdraw("246810"))
        .inspect_result()
        .is_ok());
}

#[test]
fn workflow_results_for_another_payout_change_nothing() {
    let mut given = with_open_order();
    given.push(requested());
    let other = Uuid::from_u128(0xB9);
    test()
        .given(given.clone())
        .when(UserCommand::CancelWithdrawal {
            payout_id: other,
            refusal: crate::codes::StepRefusal::new(crate::codes::ErrorCode::OfferExpired, "x"),
        })
        .then_expect_events(vec![]);
    test()
        .given(given.clone())
        .when(UserCommand::SettleWithdrawal {
            order_id: order_id(),
            payout_id: other,
            paid_out: false,
        })
        .then_expect_events(vec![]);
    // The same result twice: recorded once.
    given.push(UserEvent::WithdrawalSettled {
        order_id: order_id(),
        payout_id: payout_id(),
        paid_out: true,
    });
    test()
        .given(given)
        .when(UserCommand::SettleWithdrawal {
            order_id: order_id(),
            payout_id: payout_id(),
            paid_out: true,
        })
        .then_expect_events(vec![]);
}

#[test]
fn only_the_open_order_can_be_withdrawn_from() {
    test()
        .given(with_pin())
        .when(withdraw("246810"))
        .then_expect_error(UserError::RecordNotFound);
    test()
        .given(with_open_order())
        .when(UserCommand::RequestWithdrawal {
            order_id: Some(Uuid::from_u128(0x0D9)),
            payout_id: payout_id(),
            amount: dec!(80000),
            pin: "246810".to_string(),
        })
        .then_expect_error(UserError::RecordNotFound);
}

#[test]
fn bank_and_account_number_are_validated() {
    let command = |bank: &str, card: &str| UserCommand::BindBankCard {
        actor: Actor::User(user_id()),
        bank_name: bank.to_string(),
        card_no: card.to_string(),
        sms_code_verified: true,
    };
    test()
        .given(qualified())
        .when(command("Nowhere Bank", "998877665544"))
        .then_expect_error(InvalidInput::new("bankName", "choose a bank from the list").into());
    test()
        .given(qualified())
        .when(command("BDO", "1234567"))
        .then_expect_error(UserError::InvalidBankAccount);
}

// ---- withdraw PIN (P2) -----------------------------------------------------------------

#[test]
fn the_withdraw_pin_is_chosen_by_the_borrower_and_stored_only_as_a_hash_p2() {
    let events = test()
        .given(qualified())
        .when(UserCommand::SetWithdrawPin {
            actor: Actor::User(user_id()),
            pin: "246810".to_string(),
            sms_code_verified: false,
        })
        .inspect_result()
        .unwrap();
    assert_eq!(
        events,
        vec![UserEvent::WithdrawPinSet {
            pin_hash: "hashed:246810".to_string(),
            changed: false
        }]
    );
}

#[test]
fn no_back_office_actor_can_set_or_reset_a_pin_p2() {
    for actor in [Actor::Auditor(auditor()), Actor::System] {
        for given in [qualified(), with_pin()] {
            test()
                .given(given)
                .when(UserCommand::SetWithdrawPin {
                    actor,
                    pin: "135790".to_string(),
                    sms_code_verified: true,
                })
                .then_expect_error(UserError::OnlyTheBorrower);
        }
    }
}

#[test]
fn changing_the_pin_needs_an_sms_code_p2() {
    let change = |sms| UserCommand::SetWithdrawPin {
        actor: Actor::User(user_id()),
        pin: "135790".to_string(),
        sms_code_verified: sms,
    };
    test()
        .given(with_pin())
        .when(change(false))
        .then_expect_error(UserError::SmsCodeRequired);
    test()
        .given(with_pin())
        .when(change(true))
        .then_expect_events(vec![UserEvent::WithdrawPinSet {
            pin_hash: "hashed:135790".to_string(),
            changed: true,
        }]);
    test()
        .given(qualified())
        .when(UserCommand::SetWithdrawPin {
            actor: Actor::User(user_id()),
            pin: "12345".to_string(),
            sms_code_verified: false,
        })
        .then_expect_error(InvalidInput::new("pin", "must be 6 digits").into());
}

#[test]
fn the_correct_pin_authorises_a_payout_to_the_bound_account_p2_p3() {
    test()
        .given(with_open_order())
        .when(withdraw("246810"))
        .then_expect_events(vec![requested()]);
}

#[test]
fn five_wrong_pins_lock_the_account_p2() {
    let mut given = with_open_order();
    for n in 1..=4 {
        given.push(UserEvent::WithdrawPinFailed { failed_attempts: n });
    }
    test()
        .given(given.clone())
        .when(wrong_pin())
        .then_expect_events(vec![
            UserEvent::WithdrawPinFailed { failed_attempts: 5 },
            UserEvent::AccountLocked {
                kind: LockKind::Security,
                reason: "too many wrong withdraw PINs".to_string(),
                by: Actor::System,
            },
        ]);
    // Before the fifth, a wrong PIN is only recorded: attempts left = 5 − 4 = 1.
    given.pop();
    test()
        .given(given)
        .when(wrong_pin())
        .then_expect_events(vec![UserEvent::WithdrawPinFailed { failed_attempts: 4 }]);
}

#[test]
fn a_locked_account_cannot_withdraw_even_with_the_right_pin_p2() {
    let mut given = with_open_order();
    given.push(UserEvent::AccountLocked {
        kind: LockKind::Compliance,
        reason: "document check".to_string(),
        by: Actor::Auditor(auditor()),
    });
    test()
        .given(given)
        .when(withdraw("246810"))
        .then_expect_error(UserError::AccountLocked {
            kind: LockKind::Compliance,
            reason: "document check".to_string(),
        });
}

#[test]
fn a_withdrawal_needs_a_pin_and_a_bank_account_in_the_borrowers_name_p2_p3() {
    let mut no_pin = qualified();
    no_pin.push(opened());
    test()
        .given(no_pin)
        .when(wrong_pin())
        .then_expect_error(InvalidInput::new("password", "set your withdraw PIN first").into());
    let mut no_bank = vec![registered("WELCOME")];
    no_bank.push(UserEvent::WithdrawPinSet {
        pin_hash: "hashed:246810".to_string(),
        changed: false,
    });
    no_bank.push(opened());
    test()
        .given(no_bank)
        .when(wrong_pin())
        .then_expect_error(UserError::NotQualified("bind a bank account first"));
    // An account bound before the real name changed (identity not yet verified) is
    // no longer in the borrower's name.
    let mut renamed = with_open_order();
    renamed[2] = UserEvent::IdentityRejected {
        auditor_id: auditor(),
        reason: "name mismatch".to_string(),
    };
    renamed.push(UserEvent::ProfileUpdated {
        changes: ProfileUpdate {
            real_name: Some("Ana Reyes".to_string()),
            ..ProfileUpdate::default()
        },
    });
    test()
        .given(renamed)
        .when(wrong_pin())
        .then_expect_error(UserError::NotQualified(
            "the bank account must be in your own name; bind it again",
        ));
}

// ---- locks (P4) -----------------------------------------------------------------------

fn security_locked() -> Vec<UserEvent> {
    let mut events = with_pin();
    events.push(UserEvent::AccountLocked {
        kind: LockKind::Security,
        reason: "too many wrong withdraw PINs".to_string(),
        by: Actor::System,
    });
    events
}

#[test]
fn a_security_lock_is_lifted_by_the_borrower_with_an_sms_code_p4() {
    test()
        .given(security_locked())
        .when(UserCommand::UnlockWithSmsCode {
            sms_code_verified: true,
        })
        .then_expect_events(vec![UserEvent::AccountUnlocked {
            kind: LockKind::Security,
            by: Actor::User(user_id()),
            reason: None,
        }]);
    test()
        .given(security_locked())
        .when(UserCommand::UnlockWithSmsCode {
            sms_code_verified: false,
        })
        .then_expect_error(UserError::SmsCodeRequired);
    let mut unlocked = security_locked();
    unlocked.push(UserEvent::AccountUnlocked {
        kind: LockKind::Security,
        by: Actor::User(user_id()),
        reason: None,
    });
    let state = fold(unlocked);
    assert_eq!(state.lock(), None);
    assert_eq!((state.failed_pins, state.failed_logins), (0, 0));
}

#[test]
fn a_locked_account_changes_nothing_but_through_an_sms_flow_p4() {
    let locked = || UserError::AccountLocked {
        kind: LockKind::Security,
        reason: "too many wrong withdraw PINs".to_string(),
    };
    let changes = [
        UserCommand::SubmitIdentity {
            front: image("f"),
            back: image("b"),
            hand_hold: image("h"),
        },
        UserCommand::UpdateProfile(full_profile()),
        UserCommand::UpdateEmergencyContacts { contacts: vec![] },
        UserCommand::UploadSignature { image: image("s") },
        UserCommand::SetWithdrawPin {
            actor: Actor::User(user_id()),
            pin: "135790".to_string(),
            sms_code_verified: false,
        },
    ];
    for command in changes {
        test()
            .given(security_locked())
            .when(command)
            .then_expect_error(locked());
    }
    // The PIN flow with an SMS code sent to the registered phone still works.
    test()
        .given(security_locked())
        .when(UserCommand::SetWithdrawPin {
            actor: Actor::User(user_id()),
            pin: "135790".to_string(),
            sms_code_verified: true,
        })
        .then_expect_events(vec![UserEvent::WithdrawPinSet {
            pin_hash: "hashed:135790".to_string(),
            changed: true,
        }]);
}

#[test]
fn a_compliance_hold_is_set_and_lifted_only_by_an_auditor_with_a_reason_p4() {
    let hold = UserEvent::AccountLocked {
        kind: LockKind::Compliance,
        reason: "verifying employment".to_string(),
        by: Actor::Auditor(auditor()),
    };
    test()
        .given(qualified())
        .when(UserCommand::PlaceComplianceHold {
            auditor_id: auditor(),
            reason: "verifying employment".to_string(),
        })
        .then_expect_events(vec![hold.clone()]);
    test()
        .given(qualified())
        .when(UserCommand::PlaceComplianceHold {
            auditor_id: auditor(),
            reason: String::new(),
        })
        .then_expect_error(InvalidInput::new("reason", "is required").into());
    let mut held = qualified();
    held.push(hold);
    assert_eq!(
        fold(held.clone()).lock(),
        Some((LockKind::Compliance, "verifying employment"))
    );
    // An SMS code never lifts a compliance hold.
    test()
        .given(held.clone())
        .when(UserCommand::UnlockWithSmsCode {
            sms_code_verified: true,
        })
        .then_expect_error(UserError::AccountLocked {
            kind: LockKind::Compliance,
            reason: "verifying employment".to_string(),
        });
    test()
        .given(held)
        .when(UserCommand::ReleaseComplianceHold {
            auditor_id: auditor(),
            reason: "employment confirmed".to_string(),
        })
        .then_expect_events(vec![UserEvent::AccountUnlocked {
            kind: LockKind::Compliance,
            by: Actor::Auditor(auditor()),
            reason: Some("employment confirmed".to_string()),
        }]);
    test()
        .given(qualified())
        .when(UserCommand::ReleaseComplianceHold {
            auditor_id: auditor(),
            reason: "none".to_string(),
        })
        .then_expect_error(UserError::RecordNotFound);
}

#[test]
fn unlocking_never_involves_a_payment_p4() {
    // The unlock command carries nothing but the SMS check, and its event no amount.
    let events = test()
        .given(security_locked())
        .when(UserCommand::UnlockWithSmsCode {
            sms_code_verified: true,
        })
        .inspect_result()
        .unwrap();
    let json = serde_json::to_value(&events).unwrap().to_string();
    for word in ["amount", "fee", "payment"] {
        assert!(!json.contains(word), "{word} in {json}");
    }
}

// ---- applications ------------------------------------------------------------------------

#[test]
fn a_qualified_borrower_opens_one_application() {
    test()
        .given(qualified())
        .when(open_application(order_id()))
        .then_expect_events(vec![UserEvent::ApplicationOpened {
            order_id: order_id(),
            at: test_now(),
            application: Some(LoanApplication {
                app_id: 1,
                amount: dec!(80000),
                period_days: 7,
                signature: image("signature"),
                applicant_name: "Ana Santos".to_string(),
                terms_version: "2026-11".to_string(),
                monthly_income: None,
                product_version: None,
            }),
        }]);
}

#[test]
fn an_application_carries_the_declared_monthly_income_for_the_affordability_rule() {
    let mut given = qualified();
    given.push(UserEvent::QuestionnaireAnswered {
        answers: Questionnaire {
            monthly_income: "25,000".to_string(),
            ..answers()
        },
    });
    let events = test()
        .given(given)
        .when(open_application(order_id()))
        .inspect_result()
        .expect("opened");
    let UserEvent::ApplicationOpened {
        application: Some(application),
        ..
    } = &events[0]
    else {
        panic!("expected ApplicationOpened, got {events:?}")
    };
    assert_eq!(application.monthly_income, Some(dec!(25000)));
}

#[test]
fn a_monthly_income_that_is_not_an_amount_is_refused_naming_the_field() {
    let mut given = qualified();
    given.truncate(1);
    for income in ["about 30k", "-5000", "1e9"] {
        let refused = test()
            .given(given.clone())
            .when(UserCommand::AnswerQuestionnaire {
                answers: Questionnaire {
                    monthly_income: income.to_string(),
                    ..answers()
                },
                profile: Default::default(),
            })
            .inspect_result()
            .expect_err(income);
        assert!(
            refused.to_string().contains("monthlyIncome"),
            "{income}: {refused}"
        );
    }
}

#[test]
fn a_second_open_order_is_refused() {
    let mut given = qualified();
    given.push(opened());
    test()
        .given(given.clone())
        .when(open_application(Uuid::from_u128(0x0D2)))
        .then_expect_error(UserError::OrderInProgress);
    // Once the first order is closed, the borrower may apply again.
    given.push(closed(None));
    let events = test()
        .given(given)
        .when(open_application(Uuid::from_u128(0x0D2)))
        .inspect_result()
        .unwrap();
    assert_eq!(events.len(), 1);
}

#[test]
fn a_repeated_apply_for_a_closed_order_opens_nothing() {
    // Given an order opened and closed since (cancelled, refused or expired)
    let mut given = qualified();
    given.push(opened());
    given.push(closed(None));
    // When the apply that opened it is repeated (the same Idempotency-Key names the
    // same order id), nothing opens: the User does not point at a closed order.
    test()
        .given(given.clone())
        .when(open_application(order_id()))
        .then_expect_events(vec![]);
    // And a new application still opens beside the closed one.
    let next = test()
        .given(given)
        .when(open_application(Uuid::from_u128(0x0D3)))
        .inspect_result();
    assert!(
        matches!(next.as_deref(), Ok([UserEvent::ApplicationOpened { .. }])),
        "{next:?}"
    );
}

#[test]
fn an_unqualified_borrower_cannot_apply() {
    // Missing bank account → bankCard 0.
    let mut given = qualified();
    given.remove(4);
    assert_eq!(fold(given.clone()).qualification().bank_card, 0);
    test()
        .given(given)
        .when(open_application(order_id()))
        .then_expect_error(UserError::NotQualified("complete your information first"));
}

#[test]
fn a_rejected_identity_disqualifies_until_reuploaded() {
    let mut given = qualified();
    given[2] = UserEvent::IdentityRejected {
        auditor_id: auditor(),
        reason: "blurred".to_string(),
    };
    assert!(!fold(given.clone()).qualification().is_qualified());
    test()
        .given(given)
        .when(open_application(order_id()))
        .then_expect_error(UserError::NotQualified("complete your information first"));
}

#[test]
fn applicants_must_be_aged_22_to_50_at_apply() {
    // Today is 2026-11-22.
    for (birthday, ok) in [
        ((2004, 11, 22), true),  // 22 today
        ((2004, 11, 23), false), // 21
        ((1976, 11, 23), true),  // 50
        ((1975, 11, 22), false), // 51 today
    ] {
        let mut given = qualified();
        given.push(UserEvent::ProfileUpdated {
            changes: ProfileUpdate {
                birthday: NaiveDate::from_ymd_opt(birthday.0, birthday.1, birthday.2),
                ..ProfileUpdate::default()
            },
        });
        let result = test()
            .given(given)
            .when(open_application(order_id()))
            .inspect_result();
        match ok {
            true => assert!(result.is_ok(), "{birthday:?}"),
            false => assert_eq!(
                result,
                Err(UserError::NotQualified("applicants must be aged 22 to 50"))
            ),
        }
    }
}

#[test]
fn applying_needs_a_signature_on_file_p7() {
    let mut given = qualified();
    given.pop();
    test()
        .given(given)
        .when(open_application(order_id()))
        .then_expect_error(InvalidInput::new("signature", "please sign first").into());
}

#[test]
fn closing_an_application_is_idempotent() {
    let mut given = qualified();
    given.push(opened());
    given.push(closed(None));
    test()
        .given(given)
        .when(UserCommand::CloseApplication {
            order_id: order_id(),
            refusal: None,
        })
        .then_expect_events(vec![]);
}

#[test]
fn every_user_error_maps_to_its_catalogue_code() {
    use crate::codes::ErrorCode as C;
    let table = [
        (UserError::InvalidInput(InvalidInput::new("x", "y")), 10004),
        (UserError::InvalidInviteCode, 10000),
        (UserError::AlreadyRegistered, 10001),
        (UserError::NotRegistered, 10003),
        (
            UserError::AccountLocked {
                kind: LockKind::Security,
                reason: String::new(),
            },
            20003,
        ),
        (UserError::InvalidIdNumber, 10014),
        (UserError::VerifiedFieldReadOnly { field: "x" }, 10006),
        (UserError::IdentityNotAwaitingReview, 10009),
        (UserError::InvalidBankAccount, 10028),
        (UserError::SmsCodeRequired, 10011),
        (UserError::BankAccountChangeNotAllowed, 110012),
        (UserError::OnlyTheBorrower, 401),
        (UserError::NotQualified("x"), 40000),
        (UserError::OrderInProgress, 40005),
        (UserError::RecordNotFound, 40007),
    ];
    for (error, code) in table {
        assert_eq!(error.code().code(), code, "{error:?}");
        assert!(C::ALL.contains(&error.code()));
    }
}

#[test]
fn apply_only_assigns_state() {
    // Folding the qualified history gives the state every rule above relies on.
    let user = fold(qualified());
    assert_eq!(user.id, Some(user_id()));
    assert!(user.qualification().is_qualified());
    assert_eq!(user.bank_account, Some(account()));
    assert_eq!(User::TYPE, "User");
}

#[test]
fn oversized_free_text_is_refused_naming_the_field() {
    let long = |n: usize| "é".repeat(n);
    let cases = [
        (
            "realName",
            ProfileUpdate {
                real_name: Some(long(61)),
                ..ProfileUpdate::default()
            },
        ),
        (
            "address",
            ProfileUpdate {
                address: Some(long(201)),
                ..ProfileUpdate::default()
            },
        ),
        (
            "provinceCity",
            ProfileUpdate {
                province_city: Some(long(201)),
                ..ProfileUpdate::default()
            },
        ),
        (
            "education",
            ProfileUpdate {
                education: Some(long(61)),
                ..ProfileUpdate::default()
            },
        ),
    ];
    for (field, update) in cases {
        test()
            .given(vec![registered("WELCOME")])
            .when(UserCommand::UpdateProfile(update))
            .then_expect_error(
                InvalidInput::new(field, "at most ".to_string() + &limit(field)).into(),
            );
    }
    // At the limit, counted in characters (not bytes), the value is kept.
    let at_limit = ProfileUpdate {
        address: Some(long(200)),
        ..ProfileUpdate::default()
    };
    let events = test()
        .given(vec![registered("WELCOME")])
        .when(UserCommand::UpdateProfile(at_limit.clone()))
        .inspect_result();
    assert_eq!(events.unwrap().len(), 1);
}

fn limit(field: &str) -> String {
    match field {
        "realName" | "education" => "60 characters".to_string(),
        _ => "200 characters".to_string(),
    }
}

// ---- recovery and credentials (PRODUCT.md 12.3) -------------------------------------

fn password_locked() -> UserEvent {
    UserEvent::AccountLocked {
        kind: LockKind::Security,
        reason: "too many wrong passwords".to_string(),
        by: Actor::System,
    }
}

#[test]
fn a_password_reset_needs_the_sms_code_and_lifts_a_security_lock_12_3() {
    let reset = |verified: bool| UserCommand::ResetPassword {
        password: "new-secret-1".to_string(),
        sms_code_verified: verified,
    };
    // Given a locked account, when the reset comes without a code, then nothing.
    test()
        .given(vec![registered("WELCOME"), password_locked()])
        .when(reset(false))
        .then_expect_error(UserError::SmsCodeRequired);
    // With the code: the new password, and the security lock lifted.
    test()
        .given(vec![registered("WELCOME"), password_locked()])
        .when(reset(true))
        .then_expect_events(vec![
            UserEvent::PasswordReset {
                password_hash: "hashed:new-secret-1".to_string(),
                at: test_now(),
            },
            UserEvent::AccountUnlocked {
                kind: LockKind::Security,
                by: Actor::User(user_id()),
                reason: None,
            },
        ]);
    // The password rules hold here too.
    test()
        .given(vec![registered("WELCOME")])
        .when(UserCommand::ResetPassword {
            password: "short".to_string(),
            sms_code_verified: true,
        })
        .then_expect_error(InvalidInput::new("password", "must be at least 8 characters").into());
    // The failure count starts again, and the new password logs in.
    let user = fold(vec![
        registered("WELCOME"),
        UserEvent::LoginFailed {
            failed_attempts: 4,
            at: test_now(),
        },
        UserEvent::PasswordReset {
            password_hash: "hashed:new-secret-1".to_string(),
            at: test_now(),
        },
    ]);
    assert_eq!(user.failed_logins, 0);
    assert_eq!(user.password_hash, "hashed:new-secret-1");
}

#[test]
fn a_password_reset_never_lifts_a_compliance_hold_p4() {
    let hold = UserEvent::AccountLocked {
        kind: LockKind::Compliance,
        reason: "fraud review".to_string(),
        by: Actor::Auditor(auditor()),
    };
    // The password changes (the phone proved it), the hold stays.
    test()
        .given(vec![registered("WELCOME"), hold.clone()])
        .when(UserCommand::ResetPassword {
            password: "new-secret-1".to_string(),
            sms_code_verified: true,
        })
        .then_expect_events(vec![UserEvent::PasswordReset {
            password_hash: "hashed:new-secret-1".to_string(),
            at: test_now(),
        }]);
    let user = fold(vec![
        registered("WELCOME"),
        hold,
        UserEvent::PasswordReset {
            password_hash: "hashed:new-secret-1".to_string(),
            at: test_now(),
        },
    ]);
    assert!(matches!(user.lock(), Some((LockKind::Compliance, _))));
}

#[test]
fn changing_the_password_needs_the_current_one_and_a_wrong_one_counts_p4() {
    let change = |old: &str| UserCommand::ChangePassword {
        old_password: old.to_string(),
        password: "new-secret-1".to_string(),
        session: "0123456789abcdef".to_string(),
    };
    // The session it was changed from is named in the event: the workflow keeps it and
    // revokes every other.
    test()
        .given(vec![registered("WELCOME")])
        .when(change("secret-pass"))
        .then_expect_events(vec![UserEvent::PasswordChanged {
            password_hash: "hashed:new-secret-1".to_string(),
            at: test_now(),
            kept_session: Some("0123456789abcdef".to_string()),
        }]);
    // A wrong current password is a failed login; the fifth in a row locks.
    let mut given = vec![registered("WELCOME")];
    for n in 1..=4 {
        given.push(UserEvent::LoginFailed {
            failed_attempts: n,
            at: test_now(),
        });
    }
    test()
        .given(given)
        .when(change("guess"))
        .then_expect_events(vec![
            UserEvent::LoginFailed {
                failed_attempts: 5,
                at: test_now(),
            },
            password_locked(),
        ]);
    // A locked account cannot change it (only the SMS reset can).
    test()
        .given(vec![registered("WELCOME"), password_locked()])
        .when(change("secret-pass"))
        .then_expect_error(UserError::AccountLocked {
            kind: LockKind::Security,
            reason: "too many wrong passwords".to_string(),
        });
}

// ---- resubmission (PRODUCT.md 12.4) ---------------------------------------------------

fn resubmission_opened(items: Vec<ResubmissionItem>) -> UserEvent {
    UserEvent::ResubmissionOpened {
        order_id: order_id(),
        items,
    }
}

fn new_photos() -> UserCommand {
    UserCommand::SubmitIdentity {
        front: image("front-2"),
        back: image("back-2"),
        hand_hold: image("hand-2"),
    }
}

#[test]
fn verified_photos_can_be_replaced_only_when_the_order_asks_for_them_12_4() {
    // Given a verified identity and no request, re-uploading is refused.
    test()
        .given(qualified())
        .when(new_photos())
        .then_expect_error(UserError::VerifiedFieldReadOnly { field: "identity" });
    // A request for something else does not open the photos.
    let mut bank_only = qualified();
    bank_only.push(opened());
    bank_only.push(resubmission_opened(vec![ResubmissionItem::Bank]));
    test()
        .given(bank_only)
        .when(new_photos())
        .then_expect_error(UserError::VerifiedFieldReadOnly { field: "identity" });
    // Asked for photos: the new ones are recorded and await review again (1).
    let mut given = qualified();
    given.push(opened());
    given.push(resubmission_opened(vec![ResubmissionItem::Photos]));
    let submitted = UserEvent::IdentitySubmitted {
        front: image("front-2"),
        back: image("back-2"),
        hand_hold: image("hand-2"),
    };
    test()
        .given(given.clone())
        .when(new_photos())
        .then_expect_events(vec![submitted.clone()]);
    given.push(submitted);
    assert_eq!(fold(given.clone()).identity, IdentityStatus::Submitted);
    // Once resubmitted, the photos are closed again.
    given.push(UserEvent::ResubmissionClosed {
        order_id: order_id(),
    });
    given.push(UserEvent::IdentityVerified {
        auditor_id: auditor(),
    });
    test()
        .given(given)
        .when(new_photos())
        .then_expect_error(UserError::VerifiedFieldReadOnly { field: "identity" });
}

#[test]
fn new_photos_asked_for_do_not_open_the_verified_name_and_id_number_12_4() {
    // Given a photos-only request whose new photos await review (status 1 again).
    let mut given = qualified();
    given.push(opened());
    given.push(resubmission_opened(vec![ResubmissionItem::Photos]));
    given.push(UserEvent::IdentitySubmitted {
        front: image("front-2"),
        back: image("back-2"),
        hand_hold: image("hand-2"),
    });
    assert_eq!(fold(given.clone()).identity, IdentityStatus::Submitted);
    // The name and the ID number were verified, and the order did not ask for them.
    let change_name = ProfileUpdate {
        real_name: Some("Someone Else".to_string()),
        ..ProfileUpdate::default()
    };
    test()
        .given(given.clone())
        .when(UserCommand::UpdateProfile(change_name))
        .then_expect_error(UserError::VerifiedFieldReadOnly { field: "realName" });
    let change_number = ProfileUpdate {
        identity: Some("999999999999".to_string()),
        ..ProfileUpdate::default()
    };
    test()
        .given(given)
        .when(UserCommand::UpdateProfile(change_number))
        .then_expect_error(UserError::VerifiedFieldReadOnly { field: "identity" });
}

#[test]
fn a_profile_request_lets_the_verified_name_change_and_reopens_the_identity_12_4() {
    let mut given = qualified();
    given.push(opened());
    given.push(resubmission_opened(vec![ResubmissionItem::Profile]));
    let change = ProfileUpdate {
        real_name: Some("Ana Reyes Santos".to_string()),
        ..ProfileUpdate::default()
    };
    test()
        .given(given)
        .when(UserCommand::UpdateProfile(change.clone()))
        .then_expect_events(vec![
            UserEvent::ProfileUpdated { changes: change },
            UserEvent::IdentityReopened {
                field: "realName".to_string(),
            },
        ]);
}

#[test]
fn a_profile_request_does_not_open_the_verified_photos_12_4() {
    // Given a profile-only request under which the verified name was changed: the
    // identity awaits review again (status 1), but the order asked for no photos.
    let mut given = qualified();
    given.push(opened());
    given.push(resubmission_opened(vec![ResubmissionItem::Profile]));
    given.push(UserEvent::ProfileUpdated {
        changes: ProfileUpdate {
            real_name: Some("Ana Reyes Santos".to_string()),
            ..ProfileUpdate::default()
        },
    });
    given.push(UserEvent::IdentityReopened {
        field: "realName".to_string(),
    });
    assert_eq!(fold(given.clone()).identity, IdentityStatus::Submitted);
    // When the borrower uploads new ID photos, they are refused: the verified ones stay.
    test()
        .given(given)
        .when(new_photos())
        .then_expect_error(UserError::VerifiedFieldReadOnly { field: "identity" });
    // A request naming both lets the photos be replaced too.
    let mut both = qualified();
    both.push(opened());
    both.push(resubmission_opened(vec![
        ResubmissionItem::Photos,
        ResubmissionItem::Profile,
    ]));
    both.push(UserEvent::IdentityReopened {
        field: "realName".to_string(),
    });
    test()
        .given(both)
        .when(new_photos())
        .then_expect_events(vec![UserEvent::IdentitySubmitted {
            front: image("front-2"),
            back: image("back-2"),
            hand_hold: image("hand-2"),
        }]);
}

#[test]
fn the_user_knows_which_requested_items_the_borrower_changed_12_4() {
    // Given a request for photos and the bank account, when the borrower re-binds the
    // same account (nothing changed), then nothing counts as fixed; new photos do,
    // and only what was asked is answered (issue 52: the Order refuses 40009 else).
    let mut given = qualified();
    given.push(opened());
    given.push(resubmission_opened(vec![
        ResubmissionItem::Photos,
        ResubmissionItem::Bank,
    ]));
    let same_bank = fold(given.clone()).bank_account.expect("a bank account");
    given.push(UserEvent::BankCardBound {
        account: same_bank,
        replaced: true,
    });
    assert_eq!(fold(given.clone()).fixed_items(), vec![]);
    given.push(UserEvent::IdentitySubmitted {
        front: image("front-2"),
        back: image("back-2"),
        hand_hold: image("hand-2"),
    });
    assert_eq!(
        fold(given.clone()).fixed_items(),
        vec![ResubmissionItem::Photos]
    );
    // A new request starts again from nothing changed.
    given.push(resubmission_opened(vec![ResubmissionItem::Bank]));
    assert_eq!(fold(given).fixed_items(), vec![]);
}

#[test]
fn resubmission_steps_are_idempotent_and_close_with_the_order_12_4() {
    let mut given = qualified();
    given.push(opened());
    let open = UserCommand::OpenResubmission {
        order_id: order_id(),
        items: vec![ResubmissionItem::Photos, ResubmissionItem::Photos],
    };
    test()
        .given(given.clone())
        .when(open.clone())
        .then_expect_events(vec![resubmission_opened(vec![ResubmissionItem::Photos])]);
    given.push(resubmission_opened(vec![ResubmissionItem::Photos]));
    // Delivered again: nothing new.
    test()
        .given(given.clone())
        .when(open)
        .then_expect_events(vec![]);
    // Closing another order's request changes nothing.
    test()
        .given(given.clone())
        .when(UserCommand::CloseResubmission {
            order_id: Uuid::from_u128(0xBAD),
        })
        .then_expect_events(vec![]);
    // The order closing (cancelled, refused) closes the request with it.
    given.push(closed(None));
    assert_eq!(fold(given).resubmission, None);
}

// ---- erasure after the retention period (PRODUCT.md 12.6) -------------------------

fn erase() -> UserCommand {
    UserCommand::EraseAfterRetention {
        auditor_id: auditor(),
    }
}

fn closed_at(at: chrono::DateTime<chrono::Utc>) -> UserEvent {
    UserEvent::ApplicationClosed {
        order_id: order_id(),
        refusal: None,
        at: Some(at),
    }
}

fn years_ago(years: u32) -> chrono::DateTime<chrono::Utc> {
    test_now() - chrono::Months::new(years * 12)
}

#[test]
fn personal_data_is_not_erased_while_an_order_is_open() {
    test()
        .given(vec![registered("WELCOME"), opened()])
        .when(erase())
        .then_expect_error(UserError::OrderInProgress);
}

#[test]
fn personal_data_is_kept_until_five_years_after_the_last_loan_closed() {
    let closed = years_ago(5) + chrono::Duration::days(1);
    test()
        .given(vec![registered("WELCOME"), opened(), closed_at(closed)])
        .when(erase())
        .then_expect_error(UserError::RetentionNotOver {
            until: test_now() + chrono::Duration::days(1),
        });
}

#[test]
fn personal_data_is_erased_once_the_retention_period_is_over() {
    test()
        .given(vec![
            registered("WELCOME"),
            opened(),
            closed_at(years_ago(5)),
        ])
        .when(erase())
        .then_expect_events(vec![UserEvent::PersonalDataErased {
            auditor_id: auditor(),
            at: test_now(),
        }]);
}

#[test]
fn a_borrower_who_never_borrowed_is_kept_five_years_from_registration() {
    test()
        .given(vec![registered("WELCOME")])
        .when(erase())
        .then_expect_error(UserError::RetentionNotOver {
            until: test_now() + chrono::Months::new(60),
        });
}

#[test]
fn a_close_without_a_time_keeps_the_data_rather_than_erase_it_early() {
    let untimed = UserEvent::ApplicationClosed {
        order_id: order_id(),
        refusal: None,
        at: None,
    };
    let user = fold(vec![registered("WELCOME"), opened(), untimed]);
    assert_eq!(
        user.retention_ends(5),
        chrono::DateTime::<chrono::Utc>::MAX_UTC
    );
}

#[test]
fn an_erased_account_accepts_no_command_and_erasing_again_records_nothing() {
    let erased = UserEvent::PersonalDataErased {
        auditor_id: auditor(),
        at: years_ago(0),
    };
    let given = vec![
        registered("WELCOME"),
        opened(),
        closed_at(years_ago(6)),
        erased,
    ];
    test()
        .given(given.clone())
        .when(erase())
        .then_expect_events(vec![]);
    test()
        .given(given)
        .when(UserCommand::Login {
            password: "secret-pass".to_string(),
        })
        .then_expect_error(UserError::NotRegistered);
}

#[test]
fn an_erased_account_reads_erased_at_once_as_the_log_will() {
    let erased = UserEvent::PersonalDataErased {
        auditor_id: auditor(),
        at: test_now(),
    };
    let user = fold(vec![
        registered("WELCOME"),
        UserEvent::ProfileUpdated {
            changes: full_profile(),
        },
        erased,
    ]);
    assert_eq!(user.mobile, "[erased]");
    assert_eq!(user.profile.fields.real_name.as_deref(), Some("[erased]"));
    assert_eq!(user.profile.fields.address.as_deref(), Some("[erased]"));
    assert_eq!(user.profile.fields.facebook, None, "never set, stays unset");
    assert_eq!(user.profile.fields.birthday, None);
    assert_eq!(user.profile.fields.sex, None);
    assert_eq!(user.erased_at, Some(test_now()));
}

#[test]
fn a_security_lock_names_its_cause_and_a_hold_names_none() {
    // The lock screen words a security lock in the borrower's language by its cause
    // (issue 52); a hold's reason is the auditor's own words.
    assert_eq!(
        LockCause::of(LockKind::Security, LockCause::WrongPasswords.reason()),
        Some(LockCause::WrongPasswords)
    );
    assert_eq!(
        LockCause::of(LockKind::Security, "too many wrong withdraw PINs"),
        Some(LockCause::WrongPins)
    );
    assert_eq!(
        LockCause::of(LockKind::Compliance, "too many wrong passwords"),
        None
    );
    assert_eq!(LockCause::of(LockKind::Security, "something else"), None);
}
