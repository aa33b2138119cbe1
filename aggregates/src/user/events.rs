//! Events of the User aggregate. `event_type` is the variant name, a permanent wire
//! name; `event_version` is "1.0" for all (a change ships an upcaster, DESIGN.md).

use crate::actor::Actor;
use crate::codes::StepRefusal;
use crate::types::{BankAccount, ImageRef, ResubmissionItem};
use chrono::{DateTime, Utc};
use cqrs_es::DomainEvent;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The two kinds of lock (P4).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LockKind {
    /// Too many wrong passwords or PINs; lifted by the borrower with an SMS code.
    Security,
    /// Set and lifted by an auditor, with the reason shown on the lock screen.
    Compliance,
}

/// What placed a security lock (P4): the lock screen words it in the borrower's
/// language (issue 52). The event keeps [`LockCause::reason`] as its text.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LockCause {
    /// Five wrong passwords in a row.
    WrongPasswords,
    /// Five wrong withdraw PINs in a row.
    WrongPins,
}

impl LockCause {
    /// The reason a security lock of this cause records (and always recorded).
    pub const fn reason(self) -> &'static str {
        match self {
            Self::WrongPasswords => "too many wrong passwords",
            Self::WrongPins => "too many wrong withdraw PINs",
        }
    }

    /// The cause of a lock of `kind` recorded with `reason`: `None` for a compliance
    /// hold (its reason is the auditor's words) or a text this build does not know.
    pub fn of(kind: LockKind, reason: &str) -> Option<Self> {
        let causes = [Self::WrongPasswords, Self::WrongPins];
        (kind == LockKind::Security)
            .then(|| causes.into_iter().find(|c| c.reason() == reason))
            .flatten()
    }
}

/// A signed application as the borrower submitted it (PRODUCT.md 2 step 6): what the
/// loan workflow needs to open the order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoanApplication {
    /// Product id.
    pub app_id: i64,
    /// Amount chosen (P7).
    pub amount: Decimal,
    /// Period chosen, days (P7).
    pub period_days: u32,
    /// The signature on file when applying.
    pub signature: ImageRef,
    /// The applicant's real name when applying.
    pub applicant_name: String,
    /// Version of the contract text shown.
    pub terms_version: String,
    /// The monthly income declared in the questionnaire when applying, the basis of
    /// the affordability rule (`pricing::affordability`, 40010); `None` when the
    /// answer is not an amount, and in applications opened before 2026-12. Personal:
    /// reads `null` once erased.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub monthly_income: Option<Decimal>,
    /// The product version of the disclosure the borrower was shown, when the app
    /// sent it (issue 55); the Order refuses the application once another is in force.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_version: Option<u32>,
}

/// The six questionnaire answers (PRODUCT.md section 2 step 5). All required.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Questionnaire {
    /// Job.
    pub job: String,
    /// Monthly income, as answered.
    pub monthly_income: String,
    /// Monthly expenses, as answered.
    pub expenses: String,
    /// Loan purpose.
    pub loan_purpose: String,
    /// Borrowed before.
    pub loan_before: bool,
    /// Has a guarantor.
    pub guarantee: bool,
}

/// An emergency contact (`/user/updateEmergency`).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmergencyContact {
    /// Name.
    pub name: String,
    /// Relation to the borrower.
    pub relation: String,
    /// Phone number.
    pub mobile: String,
}

/// Something that happened to a user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum UserEvent {
    /// The account was created. The password is stored only as a hash.
    UserRegistered {
        /// User id (UUID v7).
        user_id: Uuid,
        /// Phone number.
        mobile: String,
        /// argon2id hash of the password.
        password_hash: String,
        /// The agent code, for attribution only (P13).
        invite_code: Option<String>,
        /// Installation channel.
        channel: Option<String>,
        /// When.
        registered_at: DateTime<Utc>,
        /// The version of the privacy notice the borrower accepted (PRODUCT.md 12.6),
        /// the one the registration screen showed. Absent in events recorded before
        /// consent was asked (the upcast): no consent is on record for them.
        #[serde(default)]
        privacy_notice_version: Option<String>,
        /// The language of the notice's text the borrower was shown (`en`, `zh`,
        /// `fil`). Absent in events recorded before it was (the upcast).
        #[serde(default)]
        privacy_notice_language: Option<String>,
    },
    /// A correct password; resets the failure count.
    LoginSucceeded {
        /// When.
        at: DateTime<Utc>,
    },
    /// A wrong password; `failed_attempts` in a row so far.
    LoginFailed {
        /// Consecutive failures including this one.
        failed_attempts: u32,
        /// When.
        at: DateTime<Utc>,
    },
    /// ID photos uploaded (identity status 1).
    IdentitySubmitted {
        /// Front of the ID.
        front: ImageRef,
        /// Back of the ID.
        back: ImageRef,
        /// Hand-held with face.
        hand_hold: ImageRef,
    },
    /// An auditor verified the identity (status 2).
    IdentityVerified {
        /// The auditor.
        auditor_id: Uuid,
    },
    /// An auditor rejected the identity (status 3): the borrower re-uploads.
    IdentityRejected {
        /// The auditor.
        auditor_id: Uuid,
        /// Shown to the borrower.
        reason: String,
    },
    /// Profile fields changed; only the fields present were set.
    ProfileUpdated {
        /// The new values.
        changes: super::ProfileUpdate,
    },
    /// The questionnaire was answered.
    QuestionnaireAnswered {
        /// The answers.
        answers: Questionnaire,
    },
    /// The emergency contacts were replaced.
    EmergencyContactsUpdated {
        /// The new list.
        contacts: Vec<EmergencyContact>,
    },
    /// A bank account was bound, in the borrower's own name (P3).
    BankCardBound {
        /// The account.
        account: BankAccount,
        /// True when it replaced an earlier account (an SMS code was given).
        replaced: bool,
    },
    /// A signature image is on file.
    SignatureUploaded {
        /// The image.
        image: ImageRef,
    },
    /// The borrower chose a withdraw PIN; stored only as a hash (P2).
    WithdrawPinSet {
        /// argon2id hash.
        pin_hash: String,
        /// True when it replaced an earlier PIN (an SMS code was given).
        changed: bool,
    },
    /// A wrong withdraw PIN; `failed_attempts` in a row so far.
    WithdrawPinFailed {
        /// Consecutive failures including this one.
        failed_attempts: u32,
    },
    /// The correct PIN authorised a withdrawal to the bound account. Written by
    /// earlier versions (one command per step in the api); kept so old logs load.
    /// New withdrawals record [`UserEvent::WithdrawalRequested`].
    WithdrawPinVerified {
        /// The order withdrawn from.
        order_id: Uuid,
        /// Amount requested.
        amount: Decimal,
        /// The bound account at this moment; the payout goes there (P3).
        account: BankAccount,
    },
    /// A lock was placed (P4).
    AccountLocked {
        /// Security or compliance.
        kind: LockKind,
        /// Shown on the lock screen.
        reason: String,
        /// Who placed it.
        by: Actor,
    },
    /// A lock was lifted (P4). No payment is ever involved.
    AccountUnlocked {
        /// Which lock.
        kind: LockKind,
        /// Who lifted it: the borrower (SMS code) or an auditor (compliance).
        by: Actor,
        /// The auditor's reason for lifting a hold.
        reason: Option<String>,
    },
    /// The correct PIN authorised a payout of `amount` from the open order to the
    /// bound account (P2, P3). The withdrawal is in flight from here until
    /// `WithdrawalSettled` or `WithdrawalCancelled`; the account cannot change
    /// meanwhile, so the payout goes to `account`.
    WithdrawalRequested {
        /// The order withdrawn from.
        order_id: Uuid,
        /// The payout's id.
        payout_id: Uuid,
        /// Amount requested.
        amount: Decimal,
        /// The bound account at this moment; the payout goes there (P3).
        account: BankAccount,
        /// When.
        at: DateTime<Utc>,
    },
    /// The Order refused the payout (e.g. 40006 above the balance, 40004 offer
    /// expired): nothing moved and the withdrawal is no longer in flight.
    WithdrawalCancelled {
        /// The payout.
        payout_id: Uuid,
        /// The Order's refusal.
        refusal: StepRefusal,
    },
    /// The payout has its result; the withdrawal is no longer in flight. When paid
    /// out, the order is being repaid and the account stays fixed until it closes.
    WithdrawalSettled {
        /// The order.
        order_id: Uuid,
        /// The payout.
        payout_id: Uuid,
        /// True when the money reached the borrower.
        paid_out: bool,
    },
    /// The user opened an application (order); no other may be open (40005). The
    /// loan workflow opens the order from `application`.
    ApplicationOpened {
        /// The order.
        order_id: Uuid,
        /// When.
        at: DateTime<Utc>,
        /// What the borrower applied for. Absent in events of earlier versions,
        /// whose api opened the order itself.
        #[serde(default)]
        application: Option<LoanApplication>,
    },
    /// The password was reset with an SMS code (12.3); sessions issued before `at` are
    /// revoked by the loan workflow.
    PasswordReset {
        /// argon2id hash of the new password.
        password_hash: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// The borrower changed the password while logged in (12.3).
    PasswordChanged {
        /// argon2id hash of the new password.
        password_hash: String,
        /// When.
        at: DateTime<Utc>,
        /// The session it was changed from, which stays signed in; every other session
        /// issued before `at` is revoked (12.3). `None` in events recorded before
        /// sessions were revoked on a change: those revoke nothing.
        #[serde(default)]
        kept_session: Option<String>,
    },
    /// The open order asks the borrower to fix `items` (12.4).
    ResubmissionOpened {
        /// The order.
        order_id: Uuid,
        /// What to fix.
        items: Vec<ResubmissionItem>,
    },
    /// The borrower resubmitted; the items are no longer open.
    ResubmissionClosed {
        /// The order.
        order_id: Uuid,
    },
    /// A verified name or ID number was changed under a resubmission request: the
    /// identity awaits review again (1).
    IdentityReopened {
        /// Wire name of the field that changed.
        field: String,
    },
    /// The order reached a terminal status, or was refused before it opened; the
    /// user may apply again.
    ApplicationClosed {
        /// The order.
        order_id: Uuid,
        /// Why the Order refused to open (absent when it closed normally).
        #[serde(default)]
        refusal: Option<StepRefusal>,
        /// When (the start of the retention period, PRODUCT.md 12.6). Absent in events
        /// of earlier versions; the event store's upcaster fills it from the event's
        /// `recorded_at` when the User is loaded.
        #[serde(default)]
        at: Option<DateTime<Utc>>,
    },
    /// The retention period was over and an auditor erased the borrower's personal
    /// data (PRODUCT.md 12.6, RA 10173): the borrower's data key is destroyed by the
    /// erasure workflow, after which every personal field of their events reads as
    /// erased. The account accepts no command afterwards.
    PersonalDataErased {
        /// The auditor.
        auditor_id: Uuid,
        /// When.
        at: DateTime<Utc>,
    },
}

impl DomainEvent for UserEvent {
    fn event_type(&self) -> String {
        let name = match self {
            Self::UserRegistered { .. } => "UserRegistered",
            Self::LoginSucceeded { .. } => "LoginSucceeded",
            Self::LoginFailed { .. } => "LoginFailed",
            Self::IdentitySubmitted { .. } => "IdentitySubmitted",
            Self::IdentityVerified { .. } => "IdentityVerified",
            Self::IdentityRejected { .. } => "IdentityRejected",
            Self::ProfileUpdated { .. } => "ProfileUpdated",
            Self::QuestionnaireAnswered { .. } => "QuestionnaireAnswered",
            Self::EmergencyContactsUpdated { .. } => "EmergencyContactsUpdated",
            Self::BankCardBound { .. } => "BankCardBound",
            Self::SignatureUploaded { .. } => "SignatureUploaded",
            Self::WithdrawPinSet { .. } => "WithdrawPinSet",
            Self::WithdrawPinFailed { .. } => "WithdrawPinFailed",
            Self::WithdrawPinVerified { .. } => "WithdrawPinVerified",
            Self::AccountLocked { .. } => "AccountLocked",
            Self::AccountUnlocked { .. } => "AccountUnlocked",
            Self::WithdrawalRequested { .. } => "WithdrawalRequested",
            Self::WithdrawalCancelled { .. } => "WithdrawalCancelled",
            Self::WithdrawalSettled { .. } => "WithdrawalSettled",
            Self::ApplicationOpened { .. } => "ApplicationOpened",
            Self::ApplicationClosed { .. } => "ApplicationClosed",
            Self::PasswordReset { .. } => "PasswordReset",
            Self::PasswordChanged { .. } => "PasswordChanged",
            Self::ResubmissionOpened { .. } => "ResubmissionOpened",
            Self::ResubmissionClosed { .. } => "ResubmissionClosed",
            Self::IdentityReopened { .. } => "IdentityReopened",
            Self::PersonalDataErased { .. } => "PersonalDataErased",
        };
        name.to_string()
    }

    fn event_version(&self) -> String {
        "1.0".to_string()
    }
}
