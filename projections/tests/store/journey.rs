//! The borrower the journey tests use: Ana Santos, onboarded up to a withdraw PIN.

use aggregates::types::ImageRef;
use aggregates::user::{ProfileUpdate, UserCommand};
use aggregates::Actor;
use chrono::NaiveDate;
use uuid::Uuid;

/// An uploaded image reference.
pub fn image(name: &str) -> ImageRef {
    ImageRef {
        key: format!("test/{name}.png"),
        sha256: "ef".repeat(32),
    }
}

/// Register, ID photos, full profile, bank account (BDO 001234567890), signature and
/// withdraw PIN 246810 — everything a borrower does before identity verification.
pub fn onboarding(user_id: Uuid) -> Vec<UserCommand> {
    vec![
        UserCommand::Register {
            user_id,
            mobile: "09171234567".into(),
            password: "secret-pass".into(),
            invite_code: Some("WELCOME".into()),
            channel: None,
            privacy_notice_version: Some(
                aggregates::services::doubles::PRIVACY_NOTICE_VERSION.into(),
            ),
            privacy_notice_language: Some("en".into()),
        },
        UserCommand::SubmitIdentity {
            front: image("front"),
            back: image("back"),
            hand_hold: image("hand"),
        },
        UserCommand::UpdateProfile(ProfileUpdate {
            real_name: Some("Ana Santos".into()),
            identity: Some("123456789012".into()),
            sex: Some(2),
            birthday: NaiveDate::from_ymd_opt(1995, 3, 14),
            marriage: Some("single".into()),
            email: Some("ana@example.ph".into()),
            facebook: None,
            education: Some("college".into()),
            province_city: Some("National Capital Region (NCR),,Quezon City".into()),
            address: Some("12 Mabini St".into()),
        }),
        UserCommand::BindBankCard {
            actor: Actor::User(user_id),
            bank_name: "BDO".into(),
            card_no: "001234567890".into(),
            sms_code_verified: false,
        },
        UserCommand::UploadSignature {
            image: image("signature"),
        },
        UserCommand::SetWithdrawPin {
            actor: Actor::User(user_id),
            pin: "246810".into(),
            sms_code_verified: false,
        },
    ]
}
