//! The borrower's own record (`/user/info`, PRODUCT.md 10 "User"): the document the
//! `users` projection stores in `user_profile.doc` ([`crate::read_models::users::user_doc`]) and the
//! answer made of it. See [`crate::views`] for the field order of stored documents.

use aggregates::types::ResubmissionItem;
use aggregates::user::{LockCause, LockKind};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

/// The `user_profile` document. Fields in the byte order of their names (the stored
/// text is hashed); every optional field is written, null when absent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserDoc {
    /// Street address; null before the profile gives one.
    #[schema(required = true)]
    pub address: Option<String>,
    /// The bound account's bank or e-wallet; null before one is bound.
    #[schema(required = true)]
    pub bank_name: Option<String>,
    /// Date of birth: YYYY-MM-DD.
    #[schema(required = true)]
    pub birthday: Option<String>,
    /// The bound account's number, masked: all but the last four digits hidden.
    #[schema(required = true)]
    pub card_no: Option<String>,
    /// Education (a `getConfigByKey` `education` value).
    #[schema(required = true)]
    pub education: Option<String>,
    /// E-mail address.
    #[schema(required = true)]
    pub email: Option<String>,
    /// Questionnaire: monthly expenses, as answered.
    #[schema(required = true)]
    pub expenses: Option<String>,
    /// Facebook profile.
    #[schema(required = true)]
    pub facebook: Option<String>,
    /// Questionnaire: has a guarantor.
    #[schema(required = true)]
    pub guarantee: Option<bool>,
    /// A withdraw PIN is set.
    pub has_withdraw_pin: bool,
    /// The three ID photos as `/files/{key}` URLs; null before they are uploaded.
    #[schema(required = true)]
    pub id_images: Option<IdImageUrls>,
    /// The national ID number.
    #[schema(required = true)]
    pub identity: Option<String>,
    /// Why the ID photos were rejected; null unless they were.
    #[schema(required = true)]
    pub identity_reject_reason: Option<String>,
    /// The agent code the borrower registered with (attribution only).
    #[schema(required = true)]
    pub invite_code: Option<String>,
    /// Questionnaire: occupation.
    #[schema(required = true)]
    pub job: Option<String>,
    /// The open order (the answer of `/user/info` puts the latest order here).
    #[schema(required = true)]
    pub last_order_id: Option<Uuid>,
    /// Questionnaire: borrowed before.
    #[schema(required = true)]
    pub loan_before: Option<bool>,
    /// Questionnaire: what the loan is for.
    #[schema(required = true)]
    pub loan_purpose: Option<String>,
    /// The lock on the account (P4); null when not locked.
    #[schema(required = true)]
    pub lock: Option<AccountLock>,
    /// Marital status (a `getConfigByKey` `marriage` value).
    #[schema(required = true)]
    pub marriage: Option<String>,
    /// The registered phone number.
    pub mobile: String,
    /// Questionnaire: monthly income, as answered.
    #[schema(required = true)]
    pub monthly_income: Option<String>,
    /// The privacy notice accepted at registration (PRODUCT.md 12.6); null for an
    /// account registered before consent was recorded.
    #[schema(required = true)]
    pub privacy_notice: Option<PrivacyNotice>,
    /// "Region,Province,City" (`getConfigByKey` `provinces`).
    #[schema(required = true)]
    pub province_city: Option<String>,
    /// The borrower's real name.
    #[schema(required = true)]
    pub real_name: Option<String>,
    /// What the open order asks to fix (PRODUCT.md 12.4): these are editable; null
    /// when nothing is asked.
    #[schema(required = true)]
    pub resubmission_items: Option<Vec<ResubmissionItem>>,
    /// Sex code as given in the profile.
    #[schema(required = true)]
    pub sex: Option<u8>,
    /// The signature on file as its `/files/{key}` URL.
    #[schema(required = true)]
    pub signature_img: Option<String>,
    /// The borrower.
    pub user_id: Uuid,
    /// Qualification sub-statuses (PRODUCT.md 4.1).
    pub user_qualification_view: QualificationView,
}

/// The three ID photos of [`UserDoc::id_images`]: `/files/{key}` URLs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IdImageUrls {
    /// The back of the ID.
    pub back_image: String,
    /// The front of the ID.
    pub front_image: String,
    /// The borrower holding the ID.
    pub hand_hold_image: String,
}

/// A lock on the account (P4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountLock {
    /// `security` (wrong passwords or PINs) or `compliance` (set by an auditor).
    pub kind: LockKind,
    /// Why, as recorded: a security lock's fixed text, or the auditor's words for a
    /// hold.
    pub reason: String,
    /// What placed a security lock, which the lock screen words in the borrower's
    /// language (issue 52); absent for a hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub cause: Option<LockCause>,
}

impl AccountLock {
    /// The lock of `kind` recorded with `reason`.
    pub fn of(kind: LockKind, reason: &str) -> Self {
        Self {
            kind,
            reason: reason.to_string(),
            cause: LockCause::of(kind, reason),
        }
    }
}

/// Qualification sub-statuses (PRODUCT.md 4.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QualificationView {
    /// 1 when a bank account is bound.
    pub bank_card: u8,
    /// 1 when the full profile is complete.
    pub basic_information: u8,
    /// Identity: 0 none, 1 submitted, 2 verified, 3 rejected.
    pub identity: u8,
}

/// The privacy notice accepted at registration (PRODUCT.md 12.6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PrivacyNotice {
    /// When: RFC 3339 UTC.
    pub accepted_at: String,
    /// The text's language (`en`, `zh`, `fil`); null when not recorded.
    #[schema(required = true)]
    pub language: Option<String>,
    /// The version of the `privacy-notice` text accepted.
    pub version: String,
}

/// `/user/info`: the stored document with the latest order as `lastOrderId` and the
/// credit score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserInfo {
    /// No credit scoring model is configured: always null (the score is not invented).
    #[schema(required = true, value_type = Option<u32>)]
    pub credit_score: Option<u32>,
    /// The document.
    #[serde(flatten)]
    pub doc: UserDoc,
}
