//! The User aggregate: state, `handle` (the rules) and `apply` (assignment only).
//!
//! `handle` and `apply` only dispatch: each command is decided, and each event
//! assigned, by a method in the module of its concern (`credentials`, `identity`,
//! `profile`, `banking`, `withdrawal`, `application`).

use super::commands::{ProfileUpdate, UserCommand};
use super::errors::UserError;
use super::events::{EmergencyContact, LockKind, Questionnaire, UserEvent};
use crate::actor::Actor;
use crate::codes::StepRefusal;
use crate::services::{ReferenceData, UserServices};
use crate::types::{BankAccount, ImageRef, ResubmissionItem};
use chrono::{DateTime, Utc};
use cqrs_es::event_sink::EventSink;
use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Wrong passwords or PINs in a row that place a security lock (section 11).
pub const MAX_FAILED_ATTEMPTS: u32 = 5;

/// Identity sub-status (4.1): 0 none, 1 submitted, 2 verified, 3 rejected.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum IdentityStatus {
    /// 0: nothing uploaded.
    #[default]
    None,
    /// 1: photos submitted, awaiting review.
    Submitted,
    /// 2: verified by an auditor.
    Verified,
    /// 3: rejected; the borrower re-uploads.
    Rejected,
}

impl IdentityStatus {
    /// The number on the wire.
    pub fn code(self) -> u8 {
        match self {
            Self::None => 0,
            Self::Submitted => 1,
            Self::Verified => 2,
            Self::Rejected => 3,
        }
    }
}

/// The profile as currently known.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    /// All fields, each `None` until set.
    pub fields: ProfileUpdate,
}

impl Profile {
    /// True when every field the full-profile step requires is set (section 5).
    pub fn is_complete(&self) -> bool {
        let f = &self.fields;
        f.real_name.is_some()
            && f.identity.is_some()
            && f.sex.is_some()
            && f.birthday.is_some()
            && f.marriage.is_some()
            && f.email.is_some()
            && f.address.is_some()
            && f.province_city.is_some()
            && f.education.is_some()
    }
}

/// `userQualificationView` (section 10): identity code, and 0/1 for the other two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Qualification {
    /// Identity sub-status code (0–3).
    pub identity: u8,
    /// 1 when the full profile is complete.
    pub basic_information: u8,
    /// 1 when a bank account is bound.
    pub bank_card: u8,
}

impl Qualification {
    /// Qualified when identity is 1 or 2 and both other steps are done (4.1).
    pub fn is_qualified(self) -> bool {
        matches!(self.identity, 1 | 2) && self.basic_information == 1 && self.bank_card == 1
    }
}

/// The privacy notice the borrower accepted at registration (PRODUCT.md 12.6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrivacyConsent {
    /// The notice's version, as configured when the borrower registered.
    pub version: String,
    /// When it was accepted (the registration).
    pub accepted_at: DateTime<Utc>,
    /// The language of the text the borrower was shown (`en`, `zh`, `fil`);
    /// `None` for registrations recorded before the language was.
    #[serde(default)]
    pub language: Option<String>,
}

/// The privacy notice a registration accepts: the version, and the language of the
/// text the registration screen showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcceptedNotice {
    /// The deployment's current version.
    pub version: String,
    /// One of [`ReferenceData::privacy_notice_languages`].
    pub language: String,
}

/// The privacy notice a registration accepts (PRODUCT.md 12.6): consent is to one
/// text, the version the deployment shows now, so none given, or a version from a
/// screen opened before the notice changed, is refused (10004). The language is the
/// one the text was shown in: one the notice is given in
/// ([`ReferenceData::privacy_notice_languages`]), else refused (10004); none named is
/// English, the plain text `/loan/getAllCompanyConfigs` answers (PRODUCT.md 10).
/// Decided by `Register`; the api asks it before spending the phone's SMS code.
pub fn accepted_privacy_notice(
    given_version: Option<&str>,
    given_language: Option<&str>,
    reference: &dyn ReferenceData,
) -> Result<AcceptedNotice, UserError> {
    let current = reference.privacy_notice_version();
    if given_version.map(str::trim) != Some(current.as_str()) {
        return Err(UserError::PrivacyNoticeNotAccepted { current });
    }
    let languages = reference.privacy_notice_languages();
    let language = given_language.map_or("en", str::trim);
    if !languages.iter().any(|l| l == language) {
        return Err(UserError::PrivacyNoticeLanguage {
            languages: languages.join(", "),
        });
    }
    Ok(AcceptedNotice {
        version: current,
        language: language.to_string(),
    })
}

/// A withdrawal authorised by the PIN whose payout has no result yet (P3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingWithdrawal {
    /// The order withdrawn from.
    pub order_id: Uuid,
    /// The payout.
    pub payout_id: Uuid,
}

/// A user account as folded from its events.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct User {
    /// None until registered.
    pub id: Option<Uuid>,
    /// Phone number.
    pub mobile: String,
    /// argon2id hash.
    pub password_hash: String,
    /// Agent code (attribution only).
    pub invite_code: Option<String>,
    /// Installation channel.
    pub channel: Option<String>,
    /// Wrong passwords in a row.
    pub failed_logins: u32,
    /// Wrong PINs in a row.
    pub failed_pins: u32,
    /// Identity sub-status.
    pub identity: IdentityStatus,
    /// The last rejection reason.
    pub identity_rejection: Option<String>,
    /// True once an auditor has verified the identity (`IdentityVerified`). The name
    /// and ID number verified then stay read-only for good, except while the open
    /// order asks for the profile, and the photos likewise except while it asks for
    /// photos (12.4): either change sets `identity` back to submitted, and must not
    /// open the other item with it. `false` in a state stored before it was recorded,
    /// where `identity` still says verified.
    #[serde(default)]
    pub identity_ever_verified: bool,
    /// ID photos (front, back, hand-held).
    pub id_images: Option<[ImageRef; 3]>,
    /// Profile.
    pub profile: Profile,
    /// Questionnaire answers.
    pub questionnaire: Option<Questionnaire>,
    /// Emergency contacts.
    pub contacts: Vec<EmergencyContact>,
    /// Bound bank account.
    pub bank_account: Option<BankAccount>,
    /// Signature image.
    pub signature: Option<ImageRef>,
    /// argon2id hash of the withdraw PIN.
    pub pin_hash: Option<String>,
    /// Security lock reason, when locked.
    pub security_lock: Option<String>,
    /// Compliance hold reason, when held.
    pub compliance_hold: Option<String>,
    /// The one open order, if any.
    pub open_order: Option<Uuid>,
    /// Every order this user ever opened, the open one included: a repeated apply
    /// that names one of them (an `Idempotency-Key` repeat after the order closed)
    /// opens nothing again.
    #[serde(default)]
    pub opened_orders: std::collections::BTreeSet<Uuid>,
    /// The withdrawal in flight, if any (P3).
    #[serde(default)]
    pub withdrawal: Option<PendingWithdrawal>,
    /// Every payout this user requested, with its order (a repeated request with the
    /// same payout id changes nothing and is answered from here).
    #[serde(default)]
    pub requested_payouts: std::collections::BTreeMap<Uuid, Uuid>,
    /// The open order once paid out: being repaid until it closes (section 5).
    #[serde(default)]
    pub repaying: Option<Uuid>,
    /// What the open order asks the borrower to fix, while it asks (12.4).
    #[serde(default)]
    pub resubmission: Option<OpenResubmission>,
    /// The latest refusal a workflow step got, with the id of what it refused (an
    /// order id or a payout id), for the borrower's call to answer.
    #[serde(default)]
    pub last_refusal: Option<(Uuid, StepRefusal)>,
    /// The privacy notice accepted at registration; `None` for accounts registered
    /// before consent was recorded.
    #[serde(default)]
    pub privacy_consent: Option<PrivacyConsent>,
    /// When the account was registered.
    #[serde(default)]
    pub registered_at: Option<DateTime<Utc>>,
    /// When the last application closed (the retention period runs from here).
    #[serde(default)]
    pub last_closed_at: Option<DateTime<Utc>>,
    /// When the personal data was erased (12.6); the account is closed for good.
    #[serde(default)]
    pub erased_at: Option<DateTime<Utc>>,
}

/// The values of the four resubmission items at one moment (12.4).
struct ResubmissionFacts {
    photos: Option<[ImageRef; 3]>,
    profile: Profile,
    bank: Option<BankAccount>,
    questionnaire: Option<Questionnaire>,
}

impl ResubmissionFacts {
    /// The items whose value differs in `after`.
    fn changed_items(&self, after: &Self) -> Vec<ResubmissionItem> {
        [
            (self.photos != after.photos, ResubmissionItem::Photos),
            (self.profile != after.profile, ResubmissionItem::Profile),
            (self.bank != after.bank, ResubmissionItem::Bank),
            (
                self.questionnaire != after.questionnaire,
                ResubmissionItem::Questionnaire,
            ),
        ]
        .into_iter()
        .filter_map(|(changed, item)| changed.then_some(item))
        .collect()
    }
}

/// A resubmission request of the open order, as the User knows it (PRODUCT.md 12.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenResubmission {
    /// The order asking.
    pub order_id: Uuid,
    /// What it asks to fix.
    pub items: Vec<ResubmissionItem>,
    /// The items the borrower has changed since the request was opened (new photos, a
    /// profile, questionnaire or bank account that differs from the one on file),
    /// sorted; the Order refuses a resubmission that changed none of `items` (40009).
    #[serde(default)]
    pub changed: Vec<ResubmissionItem>,
}

impl User {
    /// The items of the open resubmission request that the borrower has changed, for
    /// the Order's `Resubmit` (PRODUCT.md 12.4, 40009); empty when none is open.
    pub fn fixed_items(&self) -> Vec<ResubmissionItem> {
        self.resubmission.as_ref().map_or_else(Vec::new, |open| {
            open.items
                .iter()
                .filter(|item| open.changed.contains(item))
                .copied()
                .collect()
        })
    }

    /// What the resubmission items hold now, to tell which ones an event changed.
    fn resubmission_facts(&self) -> ResubmissionFacts {
        ResubmissionFacts {
            photos: self.id_images.clone(),
            profile: self.profile.clone(),
            bank: self.bank_account.clone(),
            questionnaire: self.questionnaire.clone(),
        }
    }

    /// True while the open order asks the borrower to fix `item` (12.4).
    pub fn may_resubmit(&self, item: ResubmissionItem) -> bool {
        self.resubmission
            .as_ref()
            .is_some_and(|open| open.items.contains(&item))
    }

    /// The lock shown to the borrower: a compliance hold first, else a security lock.
    pub fn lock(&self) -> Option<(LockKind, &str)> {
        if let Some(reason) = &self.compliance_hold {
            return Some((LockKind::Compliance, reason));
        }
        self.security_lock
            .as_deref()
            .map(|reason| (LockKind::Security, reason))
    }

    /// The qualification view (4.1).
    pub fn qualification(&self) -> Qualification {
        Qualification {
            identity: self.identity.code(),
            basic_information: u8::from(self.profile.is_complete()),
            bank_card: u8::from(self.bank_account.is_some()),
        }
    }

    /// The payout of the withdrawal in flight, if any.
    pub fn pending_payout(&self) -> Option<Uuid> {
        self.withdrawal.as_ref().map(|w| w.payout_id)
    }

    /// The refusal a workflow step recorded for `id` (an order or payout id), if any.
    pub fn refusal_of(&self, id: Uuid) -> Option<&StepRefusal> {
        self.last_refusal
            .as_ref()
            .filter(|(refused, _)| *refused == id)
            .map(|(_, refusal)| refusal)
    }

    /// The first moment the personal data may be erased: `years` after the last loan
    /// closed, or after registration for a borrower who never borrowed (PRODUCT.md
    /// 12.6). An account with neither time on record is kept (the far future).
    pub fn retention_ends(&self, years: u32) -> DateTime<Utc> {
        self.last_closed_at
            .or(self.registered_at)
            .and_then(|from| from.checked_add_months(chrono::Months::new(years.saturating_mul(12))))
            .unwrap_or(DateTime::<Utc>::MAX_UTC)
    }

    /// The account's id; every command but `Register` needs a registered account.
    pub(super) fn registered(&self) -> Result<Uuid, UserError> {
        self.id.ok_or(UserError::NotRegistered)
    }

    /// Refused while a security lock or a compliance hold is in place (P4).
    pub(super) fn ensure_unlocked(&self) -> Result<(), UserError> {
        match self.lock() {
            Some((kind, reason)) => Err(UserError::AccountLocked {
                kind,
                reason: reason.to_string(),
            }),
            None => Ok(()),
        }
    }

    /// Refused unless the borrower of this account asks (P2, P3).
    pub(super) fn ensure_borrower(&self, actor: Actor) -> Result<(), UserError> {
        match actor {
            Actor::User(id) if Some(id) == self.id => Ok(()),
            _ => Err(UserError::OnlyTheBorrower),
        }
    }
}

impl Aggregate for User {
    const TYPE: &'static str = "User";
    type Command = UserCommand;
    type Event = UserEvent;
    type Error = UserError;
    type Services = UserServices;

    async fn handle(
        &mut self,
        command: Self::Command,
        services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        let now = services.clock.now();
        if self.erased_at.is_some() {
            // An erased account does nothing more; erasing again changes nothing.
            return match command {
                UserCommand::EraseAfterRetention { .. } => Ok(()),
                _ => Err(UserError::NotRegistered),
            };
        }
        // One method per command, in the module of its concern; a command of three
        // or more fields goes whole, and the method takes it apart.
        use UserCommand as C;
        match command {
            command @ C::Register { .. } => self.register(command, services, sink, now).await,
            C::Login { password } => self.login(password, services, sink, now).await,
            command @ C::SubmitIdentity { .. } => self.submit_identity(command, sink).await,
            C::VerifyIdentity { auditor_id } => self.verify_identity(auditor_id, sink).await,
            C::RejectIdentity { auditor_id, reason } => {
                self.reject_identity(auditor_id, reason, sink).await
            }
            C::UpdateProfile(changes) => self.update_profile(changes, services, sink, now).await,
            C::AnswerQuestionnaire { answers, profile } => {
                self.answer_questionnaire(answers, profile, services, sink, now)
                    .await
            }
            C::UpdateEmergencyContacts { contacts } => {
                self.update_emergency_contacts(contacts, sink).await
            }
            command @ C::BindBankCard { .. } => self.bind_bank_card(command, services, sink).await,
            C::UploadSignature { image } => self.upload_signature(image, sink).await,
            command @ C::SetWithdrawPin { .. } => {
                self.set_withdraw_pin(command, services, sink).await
            }
            command @ C::RequestWithdrawal { .. } => {
                self.request_withdrawal(command, services, sink, now).await
            }
            C::CancelWithdrawal { payout_id, refusal } => {
                self.cancel_withdrawal(payout_id, refusal, sink).await
            }
            command @ C::SettleWithdrawal { .. } => self.settle_withdrawal(command, sink).await,
            C::PlaceComplianceHold { auditor_id, reason } => {
                self.place_compliance_hold(auditor_id, reason, sink).await
            }
            C::ReleaseComplianceHold { auditor_id, reason } => {
                self.release_compliance_hold(auditor_id, reason, sink).await
            }
            C::UnlockWithSmsCode { sms_code_verified } => {
                self.unlock_with_sms_code(sms_code_verified, sink).await
            }
            C::ResetPassword {
                password,
                sms_code_verified,
            } => {
                self.reset_password(password, sms_code_verified, services, sink, now)
                    .await
            }
            command @ C::ChangePassword { .. } => {
                self.change_password(command, services, sink, now).await
            }
            C::OpenResubmission { order_id, items } => {
                self.open_resubmission(order_id, items, sink).await
            }
            C::CloseResubmission { order_id } => self.close_resubmission(order_id, sink).await,
            command @ C::OpenApplication { .. } => self.open_application(command, sink, now).await,
            C::CloseApplication { order_id, refusal } => {
                self.close_application(order_id, refusal, sink, now).await
            }
            C::EraseAfterRetention { auditor_id } => {
                self.erase_after_retention(auditor_id, services, sink, now)
                    .await
            }
        }
    }

    fn apply(&mut self, event: Self::Event) {
        // While a resubmission is open, note each item an event changes (12.4).
        let before = self
            .resubmission
            .as_ref()
            .map(|_| self.resubmission_facts());
        self.assign(event);
        if let Some(before) = before {
            let changed = before.changed_items(&self.resubmission_facts());
            if let Some(open) = self.resubmission.as_mut() {
                open.changed.extend(changed);
                open.changed = ResubmissionItem::normalized(std::mem::take(&mut open.changed));
            }
        }
    }
}

impl User {
    /// Folds one event into the state (`apply` without the resubmission bookkeeping).
    fn assign(&mut self, event: UserEvent) {
        match event {
            event @ (UserEvent::UserRegistered { .. }
            | UserEvent::LoginSucceeded { .. }
            | UserEvent::LoginFailed { .. }
            | UserEvent::PasswordReset { .. }
            | UserEvent::PasswordChanged { .. }
            | UserEvent::WithdrawPinSet { .. }
            | UserEvent::WithdrawPinFailed { .. }
            | UserEvent::WithdrawPinVerified { .. }
            | UserEvent::AccountLocked { .. }
            | UserEvent::AccountUnlocked { .. }) => self.apply_credential_event(event),
            event @ (UserEvent::IdentitySubmitted { .. }
            | UserEvent::IdentityVerified { .. }
            | UserEvent::IdentityRejected { .. }
            | UserEvent::IdentityReopened { .. }
            | UserEvent::ResubmissionOpened { .. }
            | UserEvent::ResubmissionClosed { .. }
            | UserEvent::PersonalDataErased { .. }) => self.apply_identity_event(event),
            event @ (UserEvent::ProfileUpdated { .. }
            | UserEvent::QuestionnaireAnswered { .. }
            | UserEvent::EmergencyContactsUpdated { .. }) => self.apply_profile_event(event),
            UserEvent::BankCardBound { account, .. } => self.bank_account = Some(account),
            event @ (UserEvent::WithdrawalRequested { .. }
            | UserEvent::WithdrawalCancelled { .. }
            | UserEvent::WithdrawalSettled { .. }) => self.apply_withdrawal_event(event),
            event @ (UserEvent::SignatureUploaded { .. }
            | UserEvent::ApplicationOpened { .. }
            | UserEvent::ApplicationClosed { .. }) => self.apply_application_event(event),
        }
    }
}
