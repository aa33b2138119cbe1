//! The User's loan application: the signature it carries (P7), the applicant
//! conditions and the one open order at a time (4.1, 4.3), and its closing, with the
//! Order's refusal when it refused to open.

use super::aggregate::User;
use super::commands::{UserCommand, MAX_AGE, MIN_AGE};
use super::errors::UserError;
use super::events::{LoanApplication, UserEvent};
use crate::codes::StepRefusal;
use crate::types::{age_on, ImageRef, InvalidInput};
use chrono::{DateTime, Utc};
use cqrs_es::event_sink::EventSink;
use rust_decimal::Decimal;
use uuid::Uuid;

impl User {
    /// `UploadSignature`: the signature an application carries (P7).
    pub(super) async fn upload_signature(
        &mut self,
        image: ImageRef,
        sink: &EventSink<Self>,
    ) -> Result<(), UserError> {
        self.registered()?;
        self.ensure_unlocked()?;
        sink.write(UserEvent::SignatureUploaded { image }, self)
            .await;
        Ok(())
    }

    /// `OpenApplication`: the applicant conditions and the one-open-order rule (4.1,
    /// 4.3); repeating an order id opens nothing again.
    pub(super) async fn open_application(
        &mut self,
        command: UserCommand,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), UserError> {
        let UserCommand::OpenApplication {
            order_id,
            app_id,
            amount,
            period_days,
            terms_version,
            product_version,
        } = command
        else {
            unreachable!("called with OpenApplication only")
        };
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
            monthly_income: self.declared_income(),
            product_version,
        };
        let event = UserEvent::ApplicationOpened {
            order_id,
            at: now,
            application: Some(application),
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// The monthly income the questionnaire declared, when it reads as an amount
    /// (answers before 2026-12 were free text): what the affordability rule reads.
    pub fn declared_income(&self) -> Option<Decimal> {
        super::profile::declared_amount(&self.questionnaire.as_ref()?.monthly_income)
    }

    /// `CloseApplication`: the open order closed, or was refused before it opened.
    pub(super) async fn close_application(
        &mut self,
        order_id: Uuid,
        refusal: Option<StepRefusal>,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), UserError> {
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
        Ok(())
    }

    /// Assigns a signature or application event.
    pub(super) fn apply_application_event(&mut self, event: UserEvent) {
        match event {
            UserEvent::SignatureUploaded { image } => self.signature = Some(image),
            UserEvent::ApplicationOpened { order_id, .. } => {
                self.open_order = Some(order_id);
                self.opened_orders.insert(order_id);
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
            _ => unreachable!("`apply` routes only application events here"),
        }
    }
}
