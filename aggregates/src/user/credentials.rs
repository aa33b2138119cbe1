//! The User's credentials and locks: registration, login, the password (reset and
//! change), the withdraw PIN, and the security lock and compliance hold (P2, P4,
//! PRODUCT.md 12.2, 12.3, 12.6).

use super::aggregate::{accepted_privacy_notice, PrivacyConsent, User, MAX_FAILED_ATTEMPTS};
use super::commands::UserCommand;
use super::errors::UserError;
use super::events::{LockCause, LockKind, UserEvent};
use crate::actor::Actor;
use crate::services::UserServices;
use crate::types::{check_password, check_pin, InvalidInput, Mobile};
use chrono::{DateTime, Utc};
use cqrs_es::event_sink::EventSink;
use uuid::Uuid;

impl User {
    /// `Register`: a new account, with the privacy notice the borrower accepted (12.6).
    pub(super) async fn register(
        &mut self,
        command: UserCommand,
        services: &UserServices,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), UserError> {
        let UserCommand::Register {
            user_id,
            mobile,
            password,
            invite_code,
            channel,
            privacy_notice_version,
            privacy_notice_language,
        } = command
        else {
            unreachable!("called with Register only")
        };
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
        Ok(())
    }

    /// `Login`: a wrong password is recorded, and the fifth in a row locks (P4, 12.2).
    pub(super) async fn login(
        &mut self,
        password: String,
        services: &UserServices,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), UserError> {
        self.registered()?;
        // PRODUCT.md 12.2: whoever lacks the password learns nothing of the
        // account, so the password is checked first, on every login (the same
        // time whatever the account's state). While a security lock stands, a
        // wrong password answers as for an unknown phone and counts nothing: the
        // lock has stopped the guessing. The right password is told of the lock
        // (20003, with its reason) so that its owner can lift it with an SMS code
        // (P4, issue 52); a compliance hold likewise, with who set it and why.
        let correct = services.hasher.verify(&password, &self.password_hash).await;
        if !correct && self.security_lock.is_some() {
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
            self.record_failure(failures, failed, LockCause::WrongPasswords.reason(), sink)
                .await;
        }
        Ok(())
    }

    /// `ResetPassword`: a new password with an SMS code (12.3).
    pub(super) async fn reset_password(
        &mut self,
        password: String,
        sms_code_verified: bool,
        services: &UserServices,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), UserError> {
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
        Ok(())
    }

    /// `ChangePassword`: a new password from a signed-in session, given the current one
    /// (12.3); a wrong current one counts as a failed login (P4).
    pub(super) async fn change_password(
        &mut self,
        command: UserCommand,
        services: &UserServices,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), UserError> {
        let UserCommand::ChangePassword {
            old_password,
            password,
            session,
        } = command
        else {
            unreachable!("called with ChangePassword only")
        };
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
            self.record_failure(failures, failed, LockCause::WrongPasswords.reason(), sink)
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
        Ok(())
    }

    /// `SetWithdrawPin`: only the borrower; changing a PIN needs an SMS code (P2).
    pub(super) async fn set_withdraw_pin(
        &mut self,
        command: UserCommand,
        services: &UserServices,
        sink: &EventSink<Self>,
    ) -> Result<(), UserError> {
        let UserCommand::SetWithdrawPin {
            actor,
            pin,
            sms_code_verified,
        } = command
        else {
            unreachable!("called with SetWithdrawPin only")
        };
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
        Ok(())
    }

    /// `UnlockWithSmsCode`: the borrower lifts a security lock (P4).
    pub(super) async fn unlock_with_sms_code(
        &mut self,
        sms_code_verified: bool,
        sink: &EventSink<Self>,
    ) -> Result<(), UserError> {
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
        Ok(())
    }

    /// `PlaceComplianceHold`: an auditor holds the account, with a reason (P4).
    pub(super) async fn place_compliance_hold(
        &mut self,
        auditor_id: Uuid,
        reason: String,
        sink: &EventSink<Self>,
    ) -> Result<(), UserError> {
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
        Ok(())
    }

    /// `ReleaseComplianceHold`: an auditor lifts the hold, with a reason (P4).
    pub(super) async fn release_compliance_hold(
        &mut self,
        auditor_id: Uuid,
        reason: String,
        sink: &EventSink<Self>,
    ) -> Result<(), UserError> {
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
        Ok(())
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

    /// A wrong secret: record the failure, and lock on the fifth in a row (P2, P4).
    pub(super) async fn record_failure(
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

    /// Assigns a registration, password, PIN or lock event.
    pub(super) fn apply_credential_event(&mut self, event: UserEvent) {
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
            UserEvent::PasswordReset { password_hash, .. }
            | UserEvent::PasswordChanged { password_hash, .. } => {
                self.password_hash = password_hash;
                self.failed_logins = 0;
            }
            _ => unreachable!("`apply` routes only credential events here"),
        }
    }
}
