//! The User aggregate: state, `handle` (the rules) and `apply` (assignment only).

use super::commands::{ProfileUpdate, UserCommand, MAX_AGE, MIN_AGE};
use super::errors::UserError;
use super::events::{EmergencyContact, LoanApplication, LockKind, Questionnaire, UserEvent};
use crate::actor::Actor;
use crate::codes::StepRefusal;
use crate::reference::Place;
use crate::services::{ReferenceData, UserServices};
use crate::types::{
    age_on, all_digits, check_email, check_length, check_password, check_pin, earliest_birthday,
    BankAccount, ImageRef, InvalidInput, Mobile, ResubmissionItem, MAX_ADDRESS_CHARS,
    MAX_NAME_CHARS,
};
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
    /// order asks for the profile (12.4): photos re-uploaded for a photos-only request
    /// set `identity` back to submitted, and must not open the name and number with
    /// it. `false` in a state stored before it was recorded, where `identity` still
    /// says verified.
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

/// A resubmission request of the open order, as the User knows it (PRODUCT.md 12.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenResubmission {
    /// The order asking.
    pub order_id: Uuid,
    /// What it asks to fix.
    pub items: Vec<ResubmissionItem>,
}

impl User {
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

    /// The state as the log reads once the data key is erased (ADR 0012), at once:
    /// the read models folded from this state show the erasure without waiting for
    /// the erasure workflow's rebuild.
    fn erase_personal_data(&mut self) {
        let erased = || crate::personal::ERASED.to_string();
        let text = |value: &mut Option<String>| {
            if value.is_some() {
                *value = Some(erased());
            }
        };
        self.mobile = erased();
        let fields = &mut self.profile.fields;
        for value in [
            &mut fields.real_name,
            &mut fields.identity,
            &mut fields.marriage,
            &mut fields.email,
            &mut fields.facebook,
            &mut fields.education,
            &mut fields.province_city,
            &mut fields.address,
        ] {
            text(value);
        }
        fields.sex = None;
        fields.birthday = None;
        if let Some(account) = &mut self.bank_account {
            account.account_no = erased();
            account.holder_name = erased();
        }
        for contact in &mut self.contacts {
            contact.name = erased();
            contact.relation = erased();
            contact.mobile = erased();
        }
        if let Some(answers) = &mut self.questionnaire {
            answers.job = erased();
            answers.monthly_income = erased();
            answers.expenses = erased();
            answers.loan_purpose = erased();
        }
        if let Some(images) = &mut self.id_images {
            images.iter_mut().for_each(|image| image.key = erased());
        }
        if let Some(signature) = &mut self.signature {
            signature.key = erased();
        }
    }

    fn registered(&self) -> Result<Uuid, UserError> {
        self.id.ok_or(UserError::NotRegistered)
    }

    fn ensure_unlocked(&self) -> Result<(), UserError> {
        match self.lock() {
            Some((kind, reason)) => Err(UserError::AccountLocked {
                kind,
                reason: reason.to_string(),
            }),
            None => Ok(()),
        }
    }

    fn ensure_borrower(&self, actor: Actor) -> Result<(), UserError> {
        match actor {
            Actor::User(id) if Some(id) == self.id => Ok(()),
            _ => Err(UserError::OnlyTheBorrower),
        }
    }

    /// Checks a profile update against section 5 and the verified fields. Answers the
    /// verified field it changes, when a profile resubmission (12.4) lets it: the
    /// identity then awaits review again.
    fn check_profile_update(
        &self,
        update: &ProfileUpdate,
        today: chrono::NaiveDate,
    ) -> Result<Option<&'static str>, UserError> {
        // A value that was verified is read-only; one never given may still be set.
        // New photos awaiting review (a photos-only request) do not unverify it.
        let verified = self.identity_ever_verified || self.identity == IdentityStatus::Verified;
        let current = &self.profile.fields;
        let changes = |new: &Option<String>, old: &Option<String>| {
            verified && old.is_some() && new.is_some() && new != old
        };
        let mut reopened = None;
        for (field, new, old) in [
            ("realName", &update.real_name, &current.real_name),
            ("identity", &update.identity, &current.identity),
        ] {
            if changes(new, old) {
                if !self.may_resubmit(ResubmissionItem::Profile) {
                    return Err(UserError::VerifiedFieldReadOnly { field });
                }
                reopened.get_or_insert(field);
            }
        }
        let limits = [
            ("realName", &update.real_name, MAX_NAME_CHARS),
            ("identity", &update.identity, MAX_NAME_CHARS),
            ("marriage", &update.marriage, MAX_NAME_CHARS),
            ("facebook", &update.facebook, MAX_ADDRESS_CHARS),
            ("education", &update.education, MAX_NAME_CHARS),
            ("provinceCity", &update.province_city, MAX_ADDRESS_CHARS),
            ("address", &update.address, MAX_ADDRESS_CHARS),
        ];
        for (field, value, max) in limits {
            if let Some(value) = value {
                check_length(field, value, max)?;
            }
        }
        if let Some(name) = &update.real_name {
            if name.trim().is_empty() {
                return Err(InvalidInput::new("realName", "is required").into());
            }
        }
        if let Some(id_number) = &update.identity {
            if !all_digits(id_number) {
                return Err(UserError::InvalidIdNumber);
            }
        }
        if let Some(sex) = update.sex {
            if !matches!(sex, 1 | 2) {
                return Err(InvalidInput::new("sex", "must be 1 (male) or 2 (female)").into());
            }
        }
        if let Some(birthday) = update.birthday {
            if birthday < earliest_birthday() || birthday > today {
                return Err(
                    InvalidInput::new("birthday", "must be between 1900-01-01 and today").into(),
                );
            }
        }
        if let Some(email) = &update.email {
            check_email(email)?;
        }
        let required_text = [
            ("marriage", &update.marriage),
            ("education", &update.education),
            ("address", &update.address),
        ];
        for (field, value) in required_text {
            if value.as_deref().is_some_and(|v| v.trim().is_empty()) {
                return Err(InvalidInput::new(field, "is required").into());
            }
        }
        Ok(reopened)
    }

    /// A new location must name a configured place, `"Region,Province,City"` with an
    /// empty province in a region without provinces (`reference` module). Repeating
    /// the stored value unchanged is always accepted, so a profile saved before this
    /// format (`"province,city"`) can still be saved again.
    fn check_place(
        &self,
        update: &ProfileUpdate,
        reference: &dyn ReferenceData,
    ) -> Result<(), UserError> {
        let Some(text) = &update.province_city else {
            return Ok(());
        };
        if Some(text) == self.profile.fields.province_city.as_ref() {
            return Ok(());
        }
        match Place::parse(text) {
            Some(place) if reference.is_known_place(&place) => Ok(()),
            Some(_) => Err(InvalidInput::new(
                "provinceCity",
                "choose a region, province and city or municipality from the list",
            )
            .into()),
            None => {
                Err(InvalidInput::new("provinceCity", "must be \"Region,Province,City\"").into())
            }
        }
    }

    /// The borrower lifts a security lock through an SMS flow (unlock, password reset);
    /// nothing when there is none. Never a compliance hold (P4).
    async fn lift_security_lock(&mut self, user_id: Uuid, sink: &EventSink<Self>) {
        if self.security_lock.is_some() {
            let event = UserEvent::AccountUnlocked {
                kind: LockKind::Security,
                by: Actor::User(user_id),
                reason: None,
            };
            sink.write(event, self).await;
        }
    }

    /// A verified field changed under a profile resubmission: the identity awaits
    /// review again, recorded as its own event for the audit trail.
    async fn reopen_identity(&mut self, field: Option<&'static str>, sink: &EventSink<Self>) {
        if let Some(field) = field {
            let event = UserEvent::IdentityReopened {
                field: field.to_string(),
            };
            sink.write(event, self).await;
        }
    }

    /// A wrong secret: record the failure, and lock on the fifth in a row (P2, P4).
    async fn record_failure(
        &mut self,
        failures: u32,
        failed: UserEvent,
        reason: &str,
        sink: &EventSink<Self>,
    ) {
        sink.write(failed, self).await;
        if failures >= MAX_FAILED_ATTEMPTS {
            let locked = UserEvent::AccountLocked {
                kind: LockKind::Security,
                reason: reason.to_string(),
                by: Actor::System,
            };
            sink.write(locked, self).await;
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
        match command {
            UserCommand::Register {
                user_id,
                mobile,
                password,
                invite_code,
                channel,
                privacy_notice_version,
                privacy_notice_language,
            } => {
                if self.id.is_some() {
                    return Err(UserError::AlreadyRegistered);
                }
                let mobile = Mobile::parse(&mobile)?;
                check_password(&password)?;
                let invite_code = invite_code.filter(|c| !c.trim().is_empty());
                if !services
                    .reference
                    .accepts_invite_code(invite_code.as_deref())
                {
                    return Err(UserError::InvalidInviteCode);
                }
                let accepted = accepted_privacy_notice(
                    privacy_notice_version.as_deref(),
                    privacy_notice_language.as_deref(),
                    services.reference.as_ref(),
                )?;
                let event = UserEvent::UserRegistered {
                    user_id,
                    mobile: mobile.as_str().to_string(),
                    password_hash: services.hasher.hash(&password).await,
                    invite_code,
                    channel,
                    registered_at: now,
                    privacy_notice_version: Some(accepted.version),
                    privacy_notice_language: Some(accepted.language),
                };
                sink.write(event, self).await;
            }
            UserCommand::Login { password } => {
                self.registered()?;
                // PRODUCT.md 12.2: whoever lacks the password learns nothing of the
                // account, so the password is checked first, on every login (the same
                // time whatever the account's state). A security lock answers as a
                // wrong password whatever is sent: it stops the guessing, and the
                // borrower lifts it with an SMS code (P4). A compliance hold is said,
                // with its reason, only to the password's holder.
                let correct = services.hasher.verify(&password, &self.password_hash).await;
                if self.security_lock.is_some() {
                    return Err(UserError::LoginRefused);
                }
                if correct {
                    self.ensure_unlocked()?;
                    sink.write(UserEvent::LoginSucceeded { at: now }, self)
                        .await;
                } else {
                    let failures = self.failed_logins + 1;
                    let failed = UserEvent::LoginFailed {
                        failed_attempts: failures,
                        at: now,
                    };
                    self.record_failure(failures, failed, "too many wrong passwords", sink)
                        .await;
                }
            }
            UserCommand::SubmitIdentity {
                front,
                back,
                hand_hold,
            } => {
                self.registered()?;
                self.ensure_unlocked()?;
                // Verified photos stay unless the open order asks for new ones (12.4);
                // new ones then await review again (the event sets status 1).
                let reopened = self.may_resubmit(ResubmissionItem::Photos);
                if self.identity == IdentityStatus::Verified && !reopened {
                    return Err(UserError::VerifiedFieldReadOnly { field: "identity" });
                }
                let event = UserEvent::IdentitySubmitted {
                    front,
                    back,
                    hand_hold,
                };
                sink.write(event, self).await;
            }
            UserCommand::VerifyIdentity { auditor_id } => {
                self.registered()?;
                if self.identity != IdentityStatus::Submitted {
                    return Err(UserError::IdentityNotAwaitingReview);
                }
                sink.write(UserEvent::IdentityVerified { auditor_id }, self)
                    .await;
            }
            UserCommand::RejectIdentity { auditor_id, reason } => {
                self.registered()?;
                if reason.trim().is_empty() {
                    return Err(InvalidInput::new("reason", "is required").into());
                }
                if self.identity != IdentityStatus::Submitted {
                    return Err(UserError::IdentityNotAwaitingReview);
                }
                sink.write(UserEvent::IdentityRejected { auditor_id, reason }, self)
                    .await;
            }
            UserCommand::UpdateProfile(changes) => {
                self.registered()?;
                self.ensure_unlocked()?;
                let reopened = self.check_profile_update(&changes, now.date_naive())?;
                self.check_place(&changes, services.reference.as_ref())?;
                sink.write(UserEvent::ProfileUpdated { changes }, self)
                    .await;
                self.reopen_identity(reopened, sink).await;
            }
            UserCommand::AnswerQuestionnaire { answers, profile } => {
                self.registered()?;
                self.ensure_unlocked()?;
                let reopened = self.check_profile_update(&profile, now.date_naive())?;
                self.check_place(&profile, services.reference.as_ref())?;
                let texts = [
                    ("job", &answers.job, MAX_NAME_CHARS),
                    ("monthlyIncome", &answers.monthly_income, MAX_NAME_CHARS),
                    ("expenses", &answers.expenses, MAX_NAME_CHARS),
                    ("loanPurpose", &answers.loan_purpose, MAX_ADDRESS_CHARS),
                ];
                for (field, value, max) in texts {
                    if value.trim().is_empty() {
                        return Err(InvalidInput::new(field, "is required").into());
                    }
                    check_length(field, value, max)?;
                }
                if profile != ProfileUpdate::default() {
                    let event = UserEvent::ProfileUpdated { changes: profile };
                    sink.write(event, self).await;
                    self.reopen_identity(reopened, sink).await;
                }
                sink.write(UserEvent::QuestionnaireAnswered { answers }, self)
                    .await;
            }
            UserCommand::UpdateEmergencyContacts { contacts } => {
                self.registered()?;
                self.ensure_unlocked()?;
                let mut seen = std::collections::HashSet::new();
                for contact in &contacts {
                    if contact.name.trim().is_empty() {
                        return Err(InvalidInput::new("contacts", "each needs a name").into());
                    }
                    check_length("contacts", &contact.name, MAX_NAME_CHARS)?;
                    check_length("contacts", &contact.relation, MAX_NAME_CHARS)?;
                    Mobile::parse(&contact.mobile)
                        .map_err(|_| InvalidInput::new("contacts", "invalid mobile"))?;
                    if !seen.insert(contact.mobile.clone()) {
                        return Err(InvalidInput::new("contacts", "duplicate mobile").into());
                    }
                }
                sink.write(UserEvent::EmergencyContactsUpdated { contacts }, self)
                    .await;
            }
            UserCommand::BindBankCard {
                actor,
                bank_name,
                card_no,
                sms_code_verified,
            } => {
                self.registered()?;
                self.ensure_borrower(actor)?;
                self.ensure_unlocked()?;
                let kind = services
                    .reference
                    .account_kind(&bank_name)
                    .ok_or_else(|| InvalidInput::new("bankName", "choose a bank from the list"))?;
                if !kind.accepts(&card_no) {
                    return Err(UserError::InvalidBankAccount);
                }
                let holder_name = self
                    .profile
                    .fields
                    .real_name
                    .clone()
                    .ok_or(UserError::NotQualified("enter your real name first"))?;
                let replaced = self.bank_account.is_some();
                if replaced {
                    // P3: decided on this aggregate's own state, so it cannot race
                    // with a withdrawal (both commit against the same version).
                    if self.withdrawal.is_some() || self.repaying.is_some() {
                        return Err(UserError::BankAccountChangeNotAllowed);
                    }
                    if !sms_code_verified {
                        return Err(UserError::SmsCodeRequired);
                    }
                }
                let account = BankAccount {
                    bank_name,
                    account_no: card_no,
                    holder_name,
                };
                sink.write(UserEvent::BankCardBound { account, replaced }, self)
                    .await;
            }
            UserCommand::UploadSignature { image } => {
                self.registered()?;
                self.ensure_unlocked()?;
                sink.write(UserEvent::SignatureUploaded { image }, self)
                    .await;
            }
            UserCommand::SetWithdrawPin {
                actor,
                pin,
                sms_code_verified,
            } => {
                self.registered()?;
                self.ensure_borrower(actor)?;
                // A locked account changes nothing but through an SMS flow (PRODUCT.md
                // 12.3): a PIN, even a first one, then needs a code sent to the phone.
                if !sms_code_verified {
                    self.ensure_unlocked()?;
                }
                check_pin(&pin)?;
                let changed = self.pin_hash.is_some();
                if changed && !sms_code_verified {
                    return Err(UserError::SmsCodeRequired);
                }
                let event = UserEvent::WithdrawPinSet {
                    pin_hash: services.hasher.hash(&pin).await,
                    changed,
                };
                sink.write(event, self).await;
            }
            UserCommand::RequestWithdrawal {
                order_id,
                payout_id,
                amount,
                pin,
            } => {
                self.registered()?;
                if self.requested_payouts.contains_key(&payout_id) {
                    return Ok(()); // a repeated request (Idempotency-Key after a crash)
                }
                self.ensure_unlocked()?;
                let order_id = match (order_id, self.open_order) {
                    (None, Some(open)) => open,
                    (Some(asked), Some(open)) if asked == open => open,
                    _ => return Err(UserError::RecordNotFound),
                };
                if self.repaying == Some(order_id) {
                    return Err(UserError::RecordNotFound);
                }
                if self.withdrawal.is_some() {
                    return Err(UserError::WithdrawalInFlight);
                }
                let pin_hash = self
                    .pin_hash
                    .clone()
                    .ok_or_else(|| InvalidInput::new("password", "set your withdraw PIN first"))?;
                let account = self
                    .bank_account
                    .clone()
                    .ok_or(UserError::NotQualified("bind a bank account first"))?;
                // P3: the account must be in the borrower's current real name.
                if Some(&account.holder_name) != self.profile.fields.real_name.as_ref() {
                    return Err(UserError::NotQualified(
                        "the bank account must be in your own name; bind it again",
                    ));
                }
                if services.hasher.verify(&pin, &pin_hash).await {
                    let event = UserEvent::WithdrawalRequested {
                        order_id,
                        payout_id,
                        amount,
                        account,
                        at: now,
                    };
                    sink.write(event, self).await;
                } else {
                    let failures = self.failed_pins + 1;
                    let failed = UserEvent::WithdrawPinFailed {
                        failed_attempts: failures,
                    };
                    self.record_failure(failures, failed, "too many wrong withdraw PINs", sink)
                        .await;
                }
            }
            UserCommand::CancelWithdrawal { payout_id, refusal } => {
                self.registered()?;
                if self.pending_payout() == Some(payout_id) {
                    let event = UserEvent::WithdrawalCancelled { payout_id, refusal };
                    sink.write(event, self).await;
                }
            }
            UserCommand::SettleWithdrawal {
                order_id,
                payout_id,
                paid_out,
            } => {
                self.registered()?;
                // A payout requested before withdrawals were recorded here has no
                // pending entry; its success still marks the open order as repaying.
                let legacy_payout =
                    paid_out && self.open_order == Some(order_id) && self.repaying.is_none();
                if self.pending_payout() == Some(payout_id) || legacy_payout {
                    let event = UserEvent::WithdrawalSettled {
                        order_id,
                        payout_id,
                        paid_out,
                    };
                    sink.write(event, self).await;
                }
            }
            UserCommand::PlaceComplianceHold { auditor_id, reason } => {
                self.registered()?;
                if reason.trim().is_empty() {
                    return Err(InvalidInput::new("reason", "is required").into());
                }
                let event = UserEvent::AccountLocked {
                    kind: LockKind::Compliance,
                    reason,
                    by: Actor::Auditor(auditor_id),
                };
                sink.write(event, self).await;
            }
            UserCommand::ReleaseComplianceHold { auditor_id, reason } => {
                self.registered()?;
                if reason.trim().is_empty() {
                    return Err(InvalidInput::new("reason", "is required").into());
                }
                if self.compliance_hold.is_none() {
                    return Err(UserError::RecordNotFound);
                }
                let event = UserEvent::AccountUnlocked {
                    kind: LockKind::Compliance,
                    by: Actor::Auditor(auditor_id),
                    reason: Some(reason),
                };
                sink.write(event, self).await;
            }
            UserCommand::UnlockWithSmsCode { sms_code_verified } => {
                let user_id = self.registered()?;
                if !sms_code_verified {
                    return Err(UserError::SmsCodeRequired);
                }
                // An SMS code never lifts a compliance hold (P4).
                if let Some(reason) = &self.compliance_hold {
                    return Err(UserError::AccountLocked {
                        kind: LockKind::Compliance,
                        reason: reason.clone(),
                    });
                }
                self.lift_security_lock(user_id, sink).await;
            }
            UserCommand::ResetPassword {
                password,
                sms_code_verified,
            } => {
                let user_id = self.registered()?;
                // The SMS code is the only proof here (12.3), so a lock never stops it.
                if !sms_code_verified {
                    return Err(UserError::SmsCodeRequired);
                }
                check_password(&password)?;
                let event = UserEvent::PasswordReset {
                    password_hash: services.hasher.hash(&password).await,
                    at: now,
                };
                sink.write(event, self).await;
                // A security lock is lifted, a compliance hold never (P4).
                self.lift_security_lock(user_id, sink).await;
            }
            UserCommand::ChangePassword {
                old_password,
                password,
                session,
            } => {
                self.registered()?;
                self.ensure_unlocked()?;
                if !services
                    .hasher
                    .verify(&old_password, &self.password_hash)
                    .await
                {
                    let failures = self.failed_logins + 1;
                    let failed = UserEvent::LoginFailed {
                        failed_attempts: failures,
                        at: now,
                    };
                    self.record_failure(failures, failed, "too many wrong passwords", sink)
                        .await;
                    return Ok(());
                }
                check_password(&password)?;
                let event = UserEvent::PasswordChanged {
                    password_hash: services.hasher.hash(&password).await,
                    at: now,
                    kept_session: Some(session),
                };
                sink.write(event, self).await;
            }
            UserCommand::OpenResubmission { order_id, items } => {
                self.registered()?;
                let open = OpenResubmission {
                    order_id,
                    items: ResubmissionItem::normalized(items),
                };
                if self.resubmission.as_ref() != Some(&open) {
                    let event = UserEvent::ResubmissionOpened {
                        order_id: open.order_id,
                        items: open.items,
                    };
                    sink.write(event, self).await;
                }
            }
            UserCommand::CloseResubmission { order_id } => {
                self.registered()?;
                if self
                    .resubmission
                    .as_ref()
                    .is_some_and(|open| open.order_id == order_id)
                {
                    sink.write(UserEvent::ResubmissionClosed { order_id }, self)
                        .await;
                }
            }
            UserCommand::OpenApplication {
                order_id,
                app_id,
                amount,
                period_days,
                terms_version,
            } => {
                self.registered()?;
                self.ensure_unlocked()?;
                if self.opened_orders.contains(&order_id) {
                    // A retried apply: already open, or opened and closed since (the
                    // caller answers what became of it). Opening it again would leave
                    // the User pointing at a closed order for good.
                    return Ok(());
                }
                if self.open_order.is_some() {
                    return Err(UserError::OrderInProgress);
                }
                if !self.qualification().is_qualified() {
                    return Err(UserError::NotQualified("complete your information first"));
                }
                let birthday = self
                    .profile
                    .fields
                    .birthday
                    .ok_or(UserError::NotQualified("enter your birthday first"))?;
                let age = age_on(birthday, now.date_naive());
                if !(MIN_AGE..=MAX_AGE).contains(&age) {
                    return Err(UserError::NotQualified("applicants must be aged 22 to 50"));
                }
                let signature = self
                    .signature
                    .clone()
                    .ok_or_else(|| InvalidInput::new("signature", "please sign first"))?;
                let application = LoanApplication {
                    app_id,
                    amount,
                    period_days,
                    signature,
                    applicant_name: self.profile.fields.real_name.clone().unwrap_or_default(),
                    terms_version,
                };
                let event = UserEvent::ApplicationOpened {
                    order_id,
                    at: now,
                    application: Some(application),
                };
                sink.write(event, self).await;
            }
            UserCommand::CloseApplication { order_id, refusal } => {
                self.registered()?;
                // Idempotent: closing an order that is not the open one changes nothing.
                if self.open_order == Some(order_id) {
                    let closed = UserEvent::ApplicationClosed {
                        order_id,
                        refusal,
                        at: Some(now),
                    };
                    sink.write(closed, self).await;
                }
            }
            UserCommand::EraseAfterRetention { auditor_id } => {
                self.registered()?;
                if self.open_order.is_some() {
                    return Err(UserError::OrderInProgress);
                }
                let until = self.retention_ends(services.reference.retention_years());
                if now < until {
                    return Err(UserError::RetentionNotOver { until });
                }
                let erased = UserEvent::PersonalDataErased {
                    auditor_id,
                    at: now,
                };
                sink.write(erased, self).await;
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            UserEvent::UserRegistered {
                user_id,
                mobile,
                password_hash,
                invite_code,
                channel,
                registered_at,
                privacy_notice_version,
                privacy_notice_language,
            } => {
                self.id = Some(user_id);
                self.mobile = mobile;
                self.password_hash = password_hash;
                self.invite_code = invite_code;
                self.channel = channel;
                self.registered_at = Some(registered_at);
                self.privacy_consent = privacy_notice_version.map(|version| PrivacyConsent {
                    version,
                    accepted_at: registered_at,
                    language: privacy_notice_language,
                });
            }
            UserEvent::LoginSucceeded { .. } => self.failed_logins = 0,
            UserEvent::LoginFailed {
                failed_attempts, ..
            } => self.failed_logins = failed_attempts,
            UserEvent::IdentitySubmitted {
                front,
                back,
                hand_hold,
            } => {
                self.identity = IdentityStatus::Submitted;
                self.id_images = Some([front, back, hand_hold]);
            }
            UserEvent::IdentityVerified { .. } => {
                self.identity = IdentityStatus::Verified;
                self.identity_ever_verified = true;
                self.identity_rejection = None;
            }
            UserEvent::IdentityRejected { reason, .. } => {
                self.identity = IdentityStatus::Rejected;
                self.identity_rejection = Some(reason);
            }
            UserEvent::ProfileUpdated { changes } => {
                let f = &mut self.profile.fields;
                let ProfileUpdate {
                    real_name,
                    identity,
                    sex,
                    birthday,
                    marriage,
                    email,
                    facebook,
                    education,
                    province_city,
                    address,
                } = changes;
                f.real_name = real_name.or(f.real_name.take());
                f.identity = identity.or(f.identity.take());
                f.sex = sex.or(f.sex);
                f.birthday = birthday.or(f.birthday);
                f.marriage = marriage.or(f.marriage.take());
                f.email = email.or(f.email.take());
                f.facebook = facebook.or(f.facebook.take());
                f.education = education.or(f.education.take());
                f.province_city = province_city.or(f.province_city.take());
                f.address = address.or(f.address.take());
            }
            UserEvent::QuestionnaireAnswered { answers } => self.questionnaire = Some(answers),
            UserEvent::EmergencyContactsUpdated { contacts } => self.contacts = contacts,
            UserEvent::BankCardBound { account, .. } => self.bank_account = Some(account),
            UserEvent::SignatureUploaded { image } => self.signature = Some(image),
            UserEvent::WithdrawPinSet { pin_hash, .. } => {
                self.pin_hash = Some(pin_hash);
                self.failed_pins = 0;
            }
            UserEvent::WithdrawPinFailed { failed_attempts } => self.failed_pins = failed_attempts,
            UserEvent::WithdrawPinVerified { .. } => self.failed_pins = 0,
            UserEvent::AccountLocked { kind, reason, .. } => match kind {
                LockKind::Security => self.security_lock = Some(reason),
                LockKind::Compliance => self.compliance_hold = Some(reason),
            },
            UserEvent::AccountUnlocked { kind, .. } => match kind {
                LockKind::Security => {
                    self.security_lock = None;
                    self.failed_logins = 0;
                    self.failed_pins = 0;
                }
                LockKind::Compliance => self.compliance_hold = None,
            },
            UserEvent::WithdrawalRequested {
                order_id,
                payout_id,
                ..
            } => {
                self.failed_pins = 0;
                self.requested_payouts.insert(payout_id, order_id);
                self.withdrawal = Some(PendingWithdrawal {
                    order_id,
                    payout_id,
                });
            }
            UserEvent::WithdrawalCancelled { payout_id, refusal } => {
                self.withdrawal = None;
                self.last_refusal = Some((payout_id, refusal));
            }
            UserEvent::WithdrawalSettled {
                order_id, paid_out, ..
            } => {
                self.withdrawal = None;
                if paid_out {
                    self.repaying = Some(order_id);
                }
            }
            UserEvent::ApplicationOpened { order_id, .. } => {
                self.open_order = Some(order_id);
                self.opened_orders.insert(order_id);
            }
            UserEvent::PasswordReset { password_hash, .. }
            | UserEvent::PasswordChanged { password_hash, .. } => {
                self.password_hash = password_hash;
                self.failed_logins = 0;
            }
            UserEvent::ResubmissionOpened { order_id, items } => {
                self.resubmission = Some(OpenResubmission { order_id, items });
            }
            UserEvent::ResubmissionClosed { .. } => self.resubmission = None,
            UserEvent::IdentityReopened { .. } => self.identity = IdentityStatus::Submitted,
            UserEvent::PersonalDataErased { at, .. } => {
                self.erased_at = Some(at);
                self.erase_personal_data();
            }
            UserEvent::ApplicationClosed {
                order_id,
                refusal,
                at,
            } => {
                self.open_order = None;
                // A close without a time (an event the upcaster did not see) keeps
                // the data indefinitely rather than erasing it too early.
                self.last_closed_at = Some(at.unwrap_or(DateTime::<Utc>::MAX_UTC));
                self.repaying = None;
                if self
                    .resubmission
                    .as_ref()
                    .is_some_and(|open| open.order_id == order_id)
                {
                    self.resubmission = None;
                }
                if let Some(refusal) = refusal {
                    self.last_refusal = Some((order_id, refusal));
                }
            }
        }
    }
}
