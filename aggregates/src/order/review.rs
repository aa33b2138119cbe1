//! The Order's review (PRODUCT.md 4.3, 12.4): first and final review by two different
//! auditors, the first passing only once the identity is verified (four-eyes), a
//! resubmission asked for and made, and a refusal with its reason (P8).

use super::aggregate::{Order, Refusal, Resubmission};
use super::errors::OrderError;
use super::events::{OrderEvent, RefusalReason, ReviewStage};
use super::status::OrderStatus;
use crate::types::{check_length, InvalidInput, ResubmissionItem, MAX_NOTE_CHARS};
use chrono::{DateTime, Days, Utc};
use cqrs_es::event_sink::EventSink;
use uuid::Uuid;

impl Order {
    /// `StartReview`: an auditor takes up a submitted order (0 → 1).
    pub(super) async fn start_review(
        &mut self,
        auditor_id: Uuid,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if self.status != OrderStatus::Submitted {
            return Err(self.wrong_status("start review of"));
        }
        let event = OrderEvent::ReviewStarted {
            auditor_id,
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// `RequestResubmission`: an auditor asks the borrower to fix `items`, with a
    /// reason (12.4).
    pub(super) async fn request_resubmission(
        &mut self,
        auditor_id: Uuid,
        reason: String,
        items: Vec<ResubmissionItem>,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        Self::required_reason(&reason)?;
        let items = ResubmissionItem::normalized(items);
        if items.is_empty() {
            return Err(InvalidInput::new("items", "name at least one thing to fix").into());
        }
        let allowed = matches!(
            self.status,
            OrderStatus::Submitted | OrderStatus::InFirstReview | OrderStatus::AwaitingFinalReview
        );
        if !allowed {
            return Err(self.wrong_status("request resubmission of"));
        }
        let event = OrderEvent::ResubmissionRequested {
            auditor_id,
            reason,
            items,
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// `Resubmit`: the borrower resubmits what was asked for; the order returns to 0.
    /// At least one of the items asked for must have been changed (`fixed`), else
    /// the officer would review the same file again (12.4; 40009).
    pub(super) async fn resubmit(
        &mut self,
        fixed: &[ResubmissionItem],
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if self.status != OrderStatus::ResubmissionRequested {
            return Err(self.wrong_status("resubmit"));
        }
        if !self
            .resubmission_items
            .iter()
            .any(|item| fixed.contains(item))
        {
            let items: Vec<String> = self
                .resubmission_items
                .iter()
                .map(|item| format!("{item:?}").to_lowercase())
                .collect();
            return Err(OrderError::NothingFixed {
                items: items.join(", "),
            });
        }
        let asked = self.resubmission_items.clone();
        let fixed = asked
            .iter()
            .filter(|item| fixed.contains(item))
            .copied()
            .collect();
        let event = OrderEvent::Resubmitted {
            at: now,
            asked,
            fixed,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// `PassFirstAudit`: the first review passes, only once the identity is verified.
    pub(super) async fn pass_first_audit(
        &mut self,
        auditor_id: Uuid,
        note: String,
        identity_verified: bool,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if self.status != OrderStatus::InFirstReview {
            return Err(self.wrong_status("pass the first review of"));
        }
        if !identity_verified {
            return Err(OrderError::IdentityNotVerified);
        }
        check_length("note", &note, MAX_NOTE_CHARS)?;
        let event = OrderEvent::FirstAuditPassed {
            auditor_id,
            note,
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// `PassFinalAudit`: another auditor approves the amount applied for; the offer
    /// stays withdrawable for the terms' `offer_valid_days`.
    pub(super) async fn pass_final_audit(
        &mut self,
        auditor_id: Uuid,
        note: String,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if self.status != OrderStatus::AwaitingFinalReview {
            return Err(self.wrong_status("pass the final review of"));
        }
        // Four-eyes: the final review is never done by the first reviewer.
        if self.first_auditor == Some(auditor_id) {
            return Err(OrderError::SameAuditor);
        }
        check_length("note", &note, MAX_NOTE_CHARS)?;
        let valid_days = u64::from(self.terms()?.pricing.offer_valid_days);
        let event = OrderEvent::FinalAuditPassed {
            auditor_id,
            note,
            approved_amount: self.applied_amount,
            offer_expires_at: now + Days::new(valid_days),
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// `Refuse`: an auditor refuses the order with a reason (P8), at the review it
    /// stands in.
    pub(super) async fn refuse(
        &mut self,
        auditor_id: Uuid,
        reason: String,
        mut reasons: Vec<RefusalReason>,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        // P8: a reason the borrower reads, coded (in their language) or typed.
        reasons.sort_unstable();
        reasons.dedup();
        if reasons.is_empty() {
            Self::required_reason(&reason)?;
        } else {
            check_length("reason", &reason, MAX_NOTE_CHARS)?;
        }
        let stage = match self.status {
            OrderStatus::Submitted
            | OrderStatus::InFirstReview
            | OrderStatus::ResubmissionRequested => ReviewStage::First,
            OrderStatus::AwaitingFinalReview => ReviewStage::Final,
            _ => return Err(self.wrong_status("refuse")),
        };
        // Four-eyes (PRODUCT.md 4.3): a refusal after the first review passed is the
        // final review's decision, so it is another auditor's, as a pass is; also
        // while a resubmission that auditor asked for is awaited (else asking for
        // one, then refusing, would be one person's decision). A first reviewer of
        // an earlier round is kept out there too: another auditor can refuse.
        let after_first_pass =
            stage == ReviewStage::Final || self.status == OrderStatus::ResubmissionRequested;
        if after_first_pass && self.first_auditor == Some(auditor_id) {
            return Err(OrderError::SameAuditor);
        }
        let event = OrderEvent::LoanRefused {
            stage,
            auditor_id,
            reason,
            reasons,
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// Assigns a review, resubmission or refusal event.
    pub(super) fn apply_review_event(&mut self, event: OrderEvent) {
        match event {
            OrderEvent::ReviewStarted { .. } => self.status = OrderStatus::InFirstReview,
            OrderEvent::ResubmissionRequested { reason, items, .. } => {
                self.status = OrderStatus::ResubmissionRequested;
                self.resubmission_reason = Some(reason);
                self.resubmission_items = items;
            }
            OrderEvent::Resubmitted { at, asked, fixed } => {
                self.last_resubmission = Some(Resubmission { asked, fixed, at });
                self.status = OrderStatus::Submitted;
                self.resubmission_reason = None;
                self.resubmission_items = Vec::new();
            }
            OrderEvent::FirstAuditPassed { auditor_id, .. } => {
                self.status = OrderStatus::AwaitingFinalReview;
                self.first_auditor = Some(auditor_id);
            }
            OrderEvent::FinalAuditPassed {
                auditor_id,
                approved_amount,
                offer_expires_at,
                ..
            } => {
                self.status = OrderStatus::Approved;
                self.final_auditor = Some(auditor_id);
                self.approved_amount = approved_amount;
                self.balance = approved_amount;
                self.offer_expires_at = Some(offer_expires_at);
            }
            OrderEvent::LoanRefused {
                stage,
                auditor_id,
                reason,
                reasons,
                ..
            } => {
                self.status = match stage {
                    ReviewStage::First => OrderStatus::RefusedAtFirstReview,
                    ReviewStage::Final => OrderStatus::RefusedAtFinalReview,
                };
                self.refusal = Some(Refusal {
                    stage,
                    reason,
                    reasons,
                    auditor_id,
                });
            }
            _ => unreachable!("`apply` routes only review events here"),
        }
    }
}
