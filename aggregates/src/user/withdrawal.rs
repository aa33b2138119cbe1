//! The User's withdrawals: the PIN authorises a payout to the bound account, and the
//! withdrawal stays in flight until the loan workflow settles or cancels it (P2, P3).

use super::aggregate::{PendingWithdrawal, User};
use super::commands::UserCommand;
use super::errors::UserError;
use super::events::{LockCause, UserEvent};
use crate::codes::StepRefusal;
use crate::services::UserServices;
use crate::types::InvalidInput;
use chrono::{DateTime, Utc};
use cqrs_es::event_sink::EventSink;
use uuid::Uuid;

impl User {
    /// `RequestWithdrawal`: checks the PIN and captures the bound account for a payout
    /// from the open order; a wrong PIN is recorded, and the fifth in a row locks (P2, P3).
    pub(super) async fn request_withdrawal(
        &mut self,
        command: UserCommand,
        services: &UserServices,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), UserError> {
        let UserCommand::RequestWithdrawal {
            order_id,
            payout_id,
            amount,
            pin,
        } = command
        else {
            unreachable!("called with RequestWithdrawal only")
        };
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
            self.record_failure(failures, failed, LockCause::WrongPins.reason(), sink)
                .await;
        }
        Ok(())
    }

    /// `CancelWithdrawal`: the Order refused the payout in flight.
    pub(super) async fn cancel_withdrawal(
        &mut self,
        payout_id: Uuid,
        refusal: StepRefusal,
        sink: &EventSink<Self>,
    ) -> Result<(), UserError> {
        self.registered()?;
        if self.pending_payout() == Some(payout_id) {
            let event = UserEvent::WithdrawalCancelled { payout_id, refusal };
            sink.write(event, self).await;
        }
        Ok(())
    }

    /// `SettleWithdrawal`: the payout in flight has its result.
    pub(super) async fn settle_withdrawal(
        &mut self,
        command: UserCommand,
        sink: &EventSink<Self>,
    ) -> Result<(), UserError> {
        let UserCommand::SettleWithdrawal {
            order_id,
            payout_id,
            paid_out,
        } = command
        else {
            unreachable!("called with SettleWithdrawal only")
        };
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
        Ok(())
    }

    /// Assigns a withdrawal event.
    pub(super) fn apply_withdrawal_event(&mut self, event: UserEvent) {
        match event {
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
            _ => unreachable!("`apply` routes only withdrawal events here"),
        }
    }
}
