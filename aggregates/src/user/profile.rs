//! The User's profile: the profile fields, the questionnaire and the emergency
//! contacts (PRODUCT.md 5), with the name and ID number read-only once verified
//! unless a resubmission asks for the profile (12.4).

use super::aggregate::{IdentityStatus, User};
use super::commands::ProfileUpdate;
use super::errors::UserError;
use super::events::{EmergencyContact, Questionnaire, UserEvent};
use crate::reference::Place;
use crate::services::{ReferenceData, UserServices};
use crate::types::{
    all_digits, check_email, check_length, earliest_birthday, InvalidInput, Mobile,
    ResubmissionItem, MAX_ADDRESS_CHARS, MAX_NAME_CHARS,
};
use chrono::{DateTime, Utc};
use cqrs_es::event_sink::EventSink;
use rust_decimal::Decimal;

impl User {
    /// `UpdateProfile`: the profile fields given; a verified field changed under a
    /// profile resubmission reopens the identity (12.4).
    pub(super) async fn update_profile(
        &mut self,
        changes: ProfileUpdate,
        services: &UserServices,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), UserError> {
        self.registered()?;
        self.ensure_unlocked()?;
        let reopened = self.check_profile_update(&changes, now.date_naive())?;
        self.check_place(&changes, services.reference.as_ref())?;
        sink.write(UserEvent::ProfileUpdated { changes }, self)
            .await;
        self.reopen_identity(reopened, sink).await;
        Ok(())
    }

    /// `AnswerQuestionnaire`: the six answers, and the profile fields sent with them,
    /// recorded together or not at all.
    pub(super) async fn answer_questionnaire(
        &mut self,
        answers: Questionnaire,
        profile: ProfileUpdate,
        services: &UserServices,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), UserError> {
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
        // Amounts, so the affordability rule can read the income (issue 52).
        for (field, value) in [
            ("monthlyIncome", &answers.monthly_income),
            ("expenses", &answers.expenses),
        ] {
            if declared_amount(value).is_none() {
                return Err(InvalidInput::new(field, "enter an amount in digits").into());
            }
        }
        if profile != ProfileUpdate::default() {
            let event = UserEvent::ProfileUpdated { changes: profile };
            sink.write(event, self).await;
            self.reopen_identity(reopened, sink).await;
        }
        sink.write(UserEvent::QuestionnaireAnswered { answers }, self)
            .await;
        Ok(())
    }

    /// `UpdateEmergencyContacts`: each named, with a valid mobile, none repeated.
    pub(super) async fn update_emergency_contacts(
        &mut self,
        contacts: Vec<EmergencyContact>,
        sink: &EventSink<Self>,
    ) -> Result<(), UserError> {
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
        Ok(())
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

    /// Assigns a profile, questionnaire or emergency contacts event.
    pub(super) fn apply_profile_event(&mut self, event: UserEvent) {
        match event {
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
            _ => unreachable!("`apply` routes only profile events here"),
        }
    }
}

/// A money answer of the questionnaire as an amount: digits, thousands separators
/// allowed, at most two decimals, not negative (`"25,000"` → 25000). `None` for
/// anything else, e.g. the free text answers before 2026-12.
pub(super) fn declared_amount(answer: &str) -> Option<Decimal> {
    let plain = answer.trim().replace(',', "");
    let (whole, cents) = plain.split_once('.').unwrap_or((&plain, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || whole.len() > 12 || cents.len() > 2 || !digits(whole) || !digits(cents) {
        return None;
    }
    plain.parse().ok()
}
