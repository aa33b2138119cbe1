//! The User's bank account: bound by the borrower only, always in the borrower's own
//! real name, and replaced only with an SMS code and never while a withdrawal is in
//! flight or the loan is being repaid (P3).

use super::aggregate::User;
use super::commands::UserCommand;
use super::errors::UserError;
use super::events::UserEvent;
use crate::services::UserServices;
use crate::types::{BankAccount, InvalidInput};
use cqrs_es::event_sink::EventSink;

impl User {
    /// `BindBankCard`: the borrower binds or replaces the account (P3).
    pub(super) async fn bind_bank_card(
        &mut self,
        command: UserCommand,
        services: &UserServices,
        sink: &EventSink<Self>,
    ) -> Result<(), UserError> {
        let UserCommand::BindBankCard {
            actor,
            bank_name,
            card_no,
            sms_code_verified,
        } = command
        else {
            unreachable!("called with BindBankCard only")
        };
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
        Ok(())
    }
}
