//! The User's identity: the ID photos and their review, the resubmission an order asks
//! for (PRODUCT.md 12.4), and the erasure of the personal data once the retention
//! period is over (12.6).

use super::aggregate::{IdentityStatus, OpenResubmission, User};
use super::commands::UserCommand;
use super::errors::UserError;
use super::events::UserEvent;
use crate::services::UserServices;
use crate::types::{InvalidInput, ResubmissionItem};
use chrono::{DateTime, Utc};
use cqrs_es::event_sink::EventSink;
use uuid::Uuid;

impl User {
    /// `SubmitIdentity`: the three ID photos (status 1).
    pub(super) async fn submit_identity(
        &mut self,
        command: UserCommand,
        sink: &EventSink<Self>,
    ) -> Result<(), UserError> {
        let UserCommand::SubmitIdentity {
            front,
            back,
            hand_hold,
        } = command
        else {
            unreachable!("called with SubmitIdentity only")
        };
        self.registered()?;
        self.ensure_unlocked()?;
        // Photos once verified stay unless the open order asks for new ones (12.4);
        // new ones then await review again (the event sets status 1). Decided from
        // `identity_ever_verified`, not the current status: a verified name changed
        // under a profile-only request sets the status back to submitted too, and
        // must not open the photos with it. The status covers a state stored before
        // `identity_ever_verified` was recorded.
        let verified = self.identity_ever_verified || self.identity == IdentityStatus::Verified;
        if verified && !self.may_resubmit(ResubmissionItem::Photos) {
            return Err(UserError::VerifiedFieldReadOnly { field: "identity" });
        }
        let event = UserEvent::IdentitySubmitted {
            front,
            back,
            hand_hold,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// `VerifyIdentity`: an auditor verifies the photos awaiting review (1 → 2).
    pub(super) async fn verify_identity(
        &mut self,
        auditor_id: Uuid,
        sink: &EventSink<Self>,
    ) -> Result<(), UserError> {
        self.registered()?;
        if self.identity != IdentityStatus::Submitted {
            return Err(UserError::IdentityNotAwaitingReview);
        }
        sink.write(UserEvent::IdentityVerified { auditor_id }, self)
            .await;
        Ok(())
    }

    /// `RejectIdentity`: an auditor rejects the photos awaiting review, with a reason
    /// (1 → 3).
    pub(super) async fn reject_identity(
        &mut self,
        auditor_id: Uuid,
        reason: String,
        sink: &EventSink<Self>,
    ) -> Result<(), UserError> {
        self.registered()?;
        if reason.trim().is_empty() {
            return Err(InvalidInput::new("reason", "is required").into());
        }
        if self.identity != IdentityStatus::Submitted {
            return Err(UserError::IdentityNotAwaitingReview);
        }
        sink.write(UserEvent::IdentityRejected { auditor_id, reason }, self)
            .await;
        Ok(())
    }

    /// `OpenResubmission`: the open order asks the borrower to fix `items` (12.4).
    pub(super) async fn open_resubmission(
        &mut self,
        order_id: Uuid,
        items: Vec<ResubmissionItem>,
        sink: &EventSink<Self>,
    ) -> Result<(), UserError> {
        self.registered()?;
        let open = OpenResubmission {
            order_id,
            items: ResubmissionItem::normalized(items),
            changed: Vec::new(),
        };
        let same = self
            .resubmission
            .as_ref()
            .is_some_and(|now| (now.order_id, &now.items) == (open.order_id, &open.items));
        if !same {
            let event = UserEvent::ResubmissionOpened {
                order_id: open.order_id,
                items: open.items,
            };
            sink.write(event, self).await;
        }
        Ok(())
    }

    /// `CloseResubmission`: the borrower resubmitted `order_id` (12.4).
    pub(super) async fn close_resubmission(
        &mut self,
        order_id: Uuid,
        sink: &EventSink<Self>,
    ) -> Result<(), UserError> {
        self.registered()?;
        if self
            .resubmission
            .as_ref()
            .is_some_and(|open| open.order_id == order_id)
        {
            sink.write(UserEvent::ResubmissionClosed { order_id }, self)
                .await;
        }
        Ok(())
    }

    /// `EraseAfterRetention`: an auditor erases the personal data once the retention
    /// period is over and no order is open (12.6).
    pub(super) async fn erase_after_retention(
        &mut self,
        auditor_id: Uuid,
        services: &UserServices,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), UserError> {
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
        Ok(())
    }

    /// A verified field changed under a profile resubmission: the identity awaits
    /// review again, recorded as its own event for the audit trail.
    pub(super) async fn reopen_identity(
        &mut self,
        field: Option<&'static str>,
        sink: &EventSink<Self>,
    ) {
        if let Some(field) = field {
            let event = UserEvent::IdentityReopened {
                field: field.to_string(),
            };
            sink.write(event, self).await;
        }
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

    /// Assigns an identity, resubmission or erasure event.
    pub(super) fn apply_identity_event(&mut self, event: UserEvent) {
        match event {
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
            UserEvent::ResubmissionOpened { order_id, items } => {
                self.resubmission = Some(OpenResubmission {
                    order_id,
                    items,
                    changed: Vec::new(),
                });
            }
            UserEvent::ResubmissionClosed { .. } => self.resubmission = None,
            UserEvent::IdentityReopened { .. } => self.identity = IdentityStatus::Submitted,
            UserEvent::PersonalDataErased { at, .. } => {
                self.erased_at = Some(at);
                self.erase_personal_data();
            }
            _ => unreachable!("`apply` routes only identity events here"),
        }
    }
}
