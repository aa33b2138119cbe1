//! Commands of the User aggregate. Imperative names; the api builds them from calls
//! of PRODUCT.md section 8 after authenticating the caller.

use super::events::{EmergencyContact, Questionnaire};
use crate::actor::Actor;
use crate::codes::StepRefusal;
use crate::types::{ImageRef, ResubmissionItem};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The profile fields of `/user/update`; `None` leaves a field unchanged.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfileUpdate {
    /// Real name (read-only after identity verification).
    pub real_name: Option<String>,
    /// ID number, digits (read-only after identity verification).
    pub identity: Option<String>,
    /// 1 male, 2 female.
    pub sex: Option<u8>,
    /// Between 1900-01-01 and today.
    pub birthday: Option<NaiveDate>,
    /// Marital status from the configured list.
    pub marriage: Option<String>,
    /// Email address.
    pub email: Option<String>,
    /// Facebook profile (optional everywhere).
    pub facebook: Option<String>,
    /// Education from the configured list.
    pub education: Option<String>,
    /// "province,city".
    pub province_city: Option<String>,
    /// Street address.
    pub address: Option<String>,
}

/// Something a borrower, an auditor or the platform asks of a user account.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum UserCommand {
    /// `/user/register`. Errors: 10001 exists, 10000 invite code, 10004 mobile/password
    /// or a privacy notice version other than the current one, or a language the
    /// notice is not given in.
    Register {
        /// New id (UUID v7).
        user_id: Uuid,
        /// Phone number.
        mobile: String,
        /// Plain password; hashed in `handle`, never stored.
        password: String,
        /// Agent code (attribution only, P13).
        invite_code: Option<String>,
        /// Installation channel.
        channel: Option<String>,
        /// The privacy notice version the registration screen showed and the borrower
        /// accepted; it must be the deployment's current one (PRODUCT.md 12.6).
        privacy_notice_version: Option<String>,
        /// The language the screen showed the notice in (`en`, `zh`, `fil`); `None`
        /// is English, the plain text (PRODUCT.md 10, 12.6).
        privacy_notice_language: Option<String>,
    },
    /// `/user/login`. A wrong password is recorded as `LoginFailed` (not an error, so
    /// it is committed); the fifth in a row also locks the account (P4). Errors:
    /// 10002 a wrong password while security-locked (as for an unknown phone, 12.2);
    /// 20003 a security lock or a compliance hold, with its reason, to the right
    /// password only.
    Login {
        /// Plain password.
        password: String,
    },
    /// `/user/identity/apply`: the three ID photos (status → 1).
    SubmitIdentity {
        /// Front.
        front: ImageRef,
        /// Back.
        back: ImageRef,
        /// Hand-held with face.
        hand_hold: ImageRef,
    },
    /// Auditor: identity verified (1 → 2).
    VerifyIdentity {
        /// The auditor.
        auditor_id: Uuid,
    },
    /// Auditor: identity rejected with a reason (1 → 3).
    RejectIdentity {
        /// The auditor.
        auditor_id: Uuid,
        /// Shown to the borrower.
        reason: String,
    },
    /// `/user/update` (profile part).
    UpdateProfile(ProfileUpdate),
    /// `/user/update` with the questionnaire: the six answers, and the profile fields
    /// the questionnaire screen sends with them (realName, identity, marriage), in one
    /// command so the call records both or neither.
    AnswerQuestionnaire {
        /// All six answers.
        answers: Questionnaire,
        /// Profile fields sent along (`ProfileUpdate::default()` for none).
        profile: ProfileUpdate,
    },
    /// `/user/updateEmergency`.
    UpdateEmergencyContacts {
        /// No duplicate mobiles.
        contacts: Vec<EmergencyContact>,
    },
    /// `/user/bank/binding`. Holder = the borrower's real name (P3).
    BindBankCard {
        /// Who asks; must be the borrower (P3).
        actor: Actor,
        /// From the configured list.
        bank_name: String,
        /// 8–20 digits.
        card_no: String,
        /// True when the api checked a valid `/sms/bank` code.
        sms_code_verified: bool,
    },
    /// `/user/signatureImg/upload`.
    UploadSignature {
        /// The stored image.
        image: ImageRef,
    },
    /// `/user/withdrawPin`. Only the borrower; changing a PIN needs an SMS code (P2).
    SetWithdrawPin {
        /// Who asks; must be the borrower.
        actor: Actor,
        /// Six digits; hashed in `handle`.
        pin: String,
        /// True when the api checked a valid `/sms/pin` code.
        sms_code_verified: bool,
    },
    /// `/user/withdraw`: check the PIN and capture the bound account for a payout
    /// from the open order. The withdrawal is then in flight until the loan workflow
    /// settles or cancels it; while it is, the bound account cannot change (P3), so
    /// the payout goes to the account bound when this command committed. A wrong PIN
    /// is recorded as `WithdrawPinFailed`; the fifth locks (P2).
    RequestWithdrawal {
        /// The order; `None` is the open order. Any other order answers 40007.
        order_id: Option<Uuid>,
        /// New payout id (the provider's idempotency key).
        payout_id: Uuid,
        /// Amount requested; the Order decides it against its balance.
        amount: Decimal,
        /// Plain PIN.
        pin: String,
    },
    /// Loan workflow: the Order refused the payout of `payout_id`; the withdrawal is
    /// no longer in flight. Idempotent: any other payout id changes nothing.
    CancelWithdrawal {
        /// The payout the Order refused.
        payout_id: Uuid,
        /// Why, as the Order said it (shown to the borrower).
        refusal: StepRefusal,
    },
    /// Loan workflow: the payout of `payout_id` has its result. Paid out: the open
    /// order is now being repaid (the account stays fixed until it closes, 5).
    /// Idempotent on the payout id.
    SettleWithdrawal {
        /// The order paid out from.
        order_id: Uuid,
        /// The payout.
        payout_id: Uuid,
        /// True when the money reached the borrower.
        paid_out: bool,
    },
    /// Auditor: place a compliance hold with a reason (P4).
    PlaceComplianceHold {
        /// The auditor.
        auditor_id: Uuid,
        /// Shown on the lock screen.
        reason: String,
    },
    /// Auditor: lift a compliance hold, with a reason (P4).
    ReleaseComplianceHold {
        /// The auditor.
        auditor_id: Uuid,
        /// Why it is lifted.
        reason: String,
    },
    /// `/user/unlock`: lift a security lock with an SMS code sent to the phone (P4).
    UnlockWithSmsCode {
        /// True when the api checked a valid `/sms/unlock` code.
        sms_code_verified: bool,
    },
    /// `/user/resetPassword` (forgot password, PRODUCT.md 12.3): a new password with a
    /// `/sms/reset` code. Lifts a security lock, never a compliance hold; the loan
    /// workflow then revokes every session issued before it.
    ResetPassword {
        /// Plain new password (section 5); hashed in `handle`.
        password: String,
        /// True when the api checked a valid `/sms/reset` code.
        sms_code_verified: bool,
    },
    /// `/user/changePassword` (logged in, 12.3). A wrong old password counts as a failed
    /// login (`LoginFailed`, the fifth locks, P4) and changes nothing else.
    ChangePassword {
        /// Plain current password.
        old_password: String,
        /// Plain new password (section 5).
        password: String,
        /// The session the change is made from (the id `/jackey/user/sessions` gives
        /// it: the first 16 hex digits of its token's SHA-256). It stays signed in;
        /// every other session of the account is revoked (the loan workflow's step on
        /// `PasswordChanged`), so whoever holds one of them, a lost phone or a thief,
        /// is out once the borrower changes the password.
        session: String,
    },
    /// Loan workflow: the open order asks the borrower to fix `items` (12.4); photos
    /// and the verified name and ID number become changeable until it closes.
    /// Idempotent: the same request again changes nothing.
    OpenResubmission {
        /// The order asking.
        order_id: Uuid,
        /// What to fix.
        items: Vec<ResubmissionItem>,
    },
    /// Loan workflow: the borrower resubmitted `order_id`; what it opened is closed.
    /// Idempotent: another order id, or none open, changes nothing.
    CloseResubmission {
        /// The order.
        order_id: Uuid,
    },
    /// `/loan/apply`: the applicant conditions and the one-open-order rule, decided
    /// here; the loan workflow then opens the order from the recorded application
    /// (signature and real name taken from this account), or closes the application
    /// again with the Order's refusal. Repeating the same order id changes nothing.
    OpenApplication {
        /// The new order's id.
        order_id: Uuid,
        /// Product id.
        app_id: i64,
        /// Amount chosen by the borrower (P7).
        amount: Decimal,
        /// Period chosen by the borrower (P7).
        period_days: u32,
        /// Version of the contract text shown.
        terms_version: String,
        /// The product version of the disclosure shown (`/loan/quote`), when the app
        /// sent it: the Order refuses the application once another is in force.
        #[serde(default)]
        product_version: Option<u32>,
    },
    /// Loan workflow: the order reached a terminal status, or was refused before it
    /// opened (`refusal`). Idempotent: another order id changes nothing.
    CloseApplication {
        /// The order.
        order_id: Uuid,
        /// Set when the Order refused to open (the borrower's apply answers it).
        refusal: Option<StepRefusal>,
    },
    /// An auditor erases the borrower's personal data once the retention period is
    /// over (PRODUCT.md 12.6): no order open, and `retention_years` (configuration,
    /// default 5) since the last loan closed, or since registration for a borrower who
    /// never borrowed. Errors: 40005 an order is open, 10004 the retention period is not
    /// over (the message gives the date it ends), 10003 no such account. Erasing again
    /// changes nothing.
    EraseAfterRetention {
        /// The auditor.
        auditor_id: Uuid,
    },
}

/// Applicant age limits (PRODUCT.md section 1), checked from the birthday at apply.
pub const MIN_AGE: u32 = 22;
/// Upper applicant age limit (inclusive).
pub const MAX_AGE: u32 = 50;
