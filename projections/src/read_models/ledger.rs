//! `ledger`: the double-entry journal derived from the money events (DESIGN.md).
//!
//! Guarantees:
//! - every journal entry's postings sum to exactly zero, so the trial balance (the
//!   sum of every account) is zero at every checkpoint;
//! - an entry is identified by the event that caused it (`<type>/<id>/<sequence>`),
//!   so a re-delivered event cannot post twice, and nothing is ever edited or deleted:
//!   a waiver or a failed payout is a new, correcting entry;
//! - `borrower_wallet:<user>` holds exactly the borrower's unapplied cash (credit
//!   balance), which `replay-tool verify` checks against the wallet read model.
//!
//! Debits are positive, credits negative. Accounts: `lender_cash`,
//! `loan_receivable:<order>`, `borrower_wallet:<user>`, `payout_clearing`,
//! `payment_clearing`, `interest_income`, `fee_income`, `charge_off_expense`,
//! `recovery_income`.
//!
//! A charge-off (issue 53) moves what is outstanding from `loan_receivable` to
//! `charge_off_expense`; a later repayment is booked as usual and then moved from the
//! receivable to `recovery_income`, so the receivable of a charged-off loan stays at
//! zero while the borrower still owes the schedule. These write-off entries are the
//! lender's books, not changes to what the borrower owes ([`is_write_off`]).

use aggregates::order::{Order, OrderEvent, RepaymentSource, WaiverKind};
use aggregates::wallet::{Wallet, WalletEvent};
use async_trait::async_trait;
use cqrs_es::Aggregate;
use rust_decimal::Decimal;

use crate::projection::{decode, money_text, recorded_at, time_text, Projection, ProjectionError};
use crate::read_models::orders::order_event_time;
use crate::rows::{Kind, Row, RowStore, TableSpec};
use crate::store::{LogPosition, StoredEvent};

/// `ledger_journal`.
pub static LEDGER_JOURNAL: TableSpec = TableSpec {
    name: "ledger_journal",
    key_len: 2,
    columns: &[
        ("entry_id", Kind::Text),
        ("posting_no", Kind::Int),
        ("at", Kind::Text),
        ("order_id", Kind::Text),
        ("account", Kind::Text),
        ("amount", Kind::Text),
        ("amount_minor", Kind::Int),
        ("description", Kind::Text),
    ],
};

/// Cash held by the lender.
pub const LENDER_CASH: &str = "lender_cash";
/// Money sent to a bank and not yet confirmed.
pub const PAYOUT_CLEARING: &str = "payout_clearing";
/// Borrower payments received and not yet applied to a loan.
pub const PAYMENT_CLEARING: &str = "payment_clearing";
/// Interest earned.
pub const INTEREST_INCOME: &str = "interest_income";
/// Processing and overdue fees earned.
pub const FEE_INCOME: &str = "fee_income";
/// Loans written off the books (issue 53).
pub const CHARGE_OFF_EXPENSE: &str = "charge_off_expense";
/// Payments on loans written off.
pub const RECOVERY_INCOME: &str = "recovery_income";

/// What each journal entry says happened (stored as its `description`), with the
/// stable code the console words it by in the auditor's language. Every description
/// [`order_entry`] and [`wallet_entry`] write is one of these constants.
pub const ENTRY_DESCRIPTIONS: [(&str, &str); 19] = [
    ("payout_sent", PAYOUT_SENT),
    ("payout_confirmed", PAYOUT_CONFIRMED),
    ("payout_returned", PAYOUT_RETURNED),
    ("repayment", REPAYMENT),
    ("overdue_fee", OVERDUE_FEE),
    ("overdue_fee_reversed", OVERDUE_FEE_REVERSED),
    ("closed_waived", CLOSED_WAIVED),
    ("payment_received", PAYMENT_RECEIVED),
    ("payment_applied", PAYMENT_APPLIED),
    ("refund_sent", REFUND_SENT),
    ("refund_confirmed", REFUND_CONFIRMED),
    ("refund_returned", REFUND_RETURNED),
    ("charged_off", CHARGED_OFF),
    ("recovery", RECOVERY),
    ("charge_off_closed", CHARGE_OFF_CLOSED),
    ("charge_off_reversed", CHARGE_OFF_REVERSED),
    ("fees_waived", FEES_WAIVED),
    ("interest_waived", INTEREST_WAIVED),
    ("extension_interest", EXTENSION_INTEREST),
];

/// The codes of the write-off entries: bookkeeping on the lender's side that does not
/// change what the borrower owes (left out of the borrower's statement of account).
pub fn is_write_off(code: &str) -> bool {
    matches!(
        code,
        "charged_off" | "recovery" | "charge_off_closed" | "charge_off_reversed"
    )
}

/// The code of a stored entry description (see [`ENTRY_DESCRIPTIONS`]); `None` for a
/// description this build does not know.
pub fn entry_code(description: &str) -> Option<&'static str> {
    ENTRY_DESCRIPTIONS
        .iter()
        .find(|(_, text)| *text == description)
        .map(|(code, _)| *code)
}

const PAYOUT_SENT: &str = "payout sent to the borrower's bank";
const PAYOUT_CONFIRMED: &str = "payout confirmed: principal and interest receivable, fee earned";
const PAYOUT_RETURNED: &str = "payout returned by the bank";
const REPAYMENT: &str = "repayment";
const OVERDUE_FEE: &str = "overdue fee";
const OVERDUE_FEE_REVERSED: &str =
    "overdue fee taken back: the payment had arrived before those days";
const CLOSED_WAIVED: &str = "closed: interest and fees not charged are waived";
const PAYMENT_RECEIVED: &str = "payment received from the borrower";
const PAYMENT_APPLIED: &str = "payment applied to the loan";
const REFUND_SENT: &str = "refund: money not owed sent back to the borrower's bank";
const REFUND_CONFIRMED: &str = "refund confirmed by the bank";
const REFUND_RETURNED: &str = "refund returned by the bank: the borrower's cash again";
const CHARGED_OFF: &str = "charged off: the outstanding written off the books (still owed)";
const RECOVERY: &str = "recovery: a payment on a charged-off loan";
const CHARGE_OFF_CLOSED: &str =
    "charged-off loan closed: what the payoff waived leaves the write-off";
const EXTENSION_INTEREST: &str = "extension: interest for the extra days";
const FEES_WAIVED: &str = "overdue fees waived by an officer";
const INTEREST_WAIVED: &str = "interest waived by an officer";
const CHARGE_OFF_REVERSED: &str = "charge-off reversed: what is still owed back on the books";

/// `loan_receivable:<order>`.
pub fn loan_receivable(order_id: &str) -> String {
    format!("loan_receivable:{order_id}")
}

/// `borrower_wallet:<user>`.
pub fn borrower_wallet(user_id: &str) -> String {
    format!("borrower_wallet:{user_id}")
}

/// One side of an entry: debit when positive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posting {
    /// Account name.
    pub account: String,
    /// Signed amount.
    pub amount: Decimal,
}

/// A balanced journal entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalEntry {
    /// The order it concerns.
    pub order_id: String,
    /// What happened, in words.
    pub description: &'static str,
    /// The postings; they sum to zero.
    pub postings: Vec<Posting>,
}

impl JournalEntry {
    /// Double entry: the postings must sum to exactly zero. Errors:
    /// [`ProjectionError::Unbalanced`] naming `entry_id` and the sum, in every build
    /// (an unbalanced entry posted would break the trial balance for good).
    pub fn check_balanced(
        &self,
        entry_id: &str,
        position: LogPosition,
    ) -> Result<(), ProjectionError> {
        let sum = self.postings.iter().map(|p| p.amount).sum::<Decimal>();
        if sum.is_zero() {
            return Ok(());
        }
        Err(ProjectionError::Unbalanced {
            entry: entry_id.to_string(),
            sum,
            position,
        })
    }
}

fn entry(order_id: &str, description: &'static str, lines: Vec<(String, Decimal)>) -> JournalEntry {
    let postings = lines
        .into_iter()
        .filter(|(_, amount)| !amount.is_zero())
        .map(|(account, amount)| Posting { account, amount })
        .collect();
    JournalEntry {
        order_id: order_id.to_string(),
        description,
        postings,
    }
}

/// The journal entry an Order event produces, if it moves money.
pub fn order_entry(order_id: &str, event: &OrderEvent) -> Option<JournalEntry> {
    let receivable = loan_receivable(order_id);
    let e = match event {
        OrderEvent::PayoutRequested { net_amount, .. } => entry(
            order_id,
            PAYOUT_SENT,
            vec![
                (PAYOUT_CLEARING.into(), *net_amount),
                (LENDER_CASH.into(), -*net_amount),
            ],
        ),
        OrderEvent::PayoutSucceeded { disclosure, .. } => entry(
            order_id,
            PAYOUT_CONFIRMED,
            vec![
                (receivable, disclosure.principal + disclosure.interest),
                (PAYOUT_CLEARING.into(), -disclosure.net_amount),
                (FEE_INCOME.into(), -disclosure.processing_fee),
                (INTEREST_INCOME.into(), -disclosure.interest),
            ],
        ),
        OrderEvent::PayoutFailed { net_amount, .. } => entry(
            order_id,
            PAYOUT_RETURNED,
            vec![
                (LENDER_CASH.into(), *net_amount),
                (PAYOUT_CLEARING.into(), -*net_amount),
            ],
        ),
        OrderEvent::RepaymentReceived { amount, source, .. } => {
            let from = match source {
                RepaymentSource::Recharge => PAYMENT_CLEARING,
                RepaymentSource::Manual { .. } => LENDER_CASH,
            };
            entry(
                order_id,
                REPAYMENT,
                vec![(from.into(), *amount), (receivable, -*amount)],
            )
        }
        OrderEvent::OverdueFeeCharged { amount, .. } => entry(
            order_id,
            OVERDUE_FEE,
            vec![(receivable, *amount), (FEE_INCOME.into(), -*amount)],
        ),
        // The reverse of the charges it takes back (nothing when only a mark is).
        OrderEvent::OverdueReversed { amount, .. } => entry(
            order_id,
            OVERDUE_FEE_REVERSED,
            vec![(FEE_INCOME.into(), *amount), (receivable, -*amount)],
        ),
        OrderEvent::ChargesWaived { kind, amount, .. } => {
            let (description, income) = match kind {
                WaiverKind::Fees => (FEES_WAIVED, FEE_INCOME),
                WaiverKind::Interest => (INTEREST_WAIVED, INTEREST_INCOME),
            };
            entry(
                order_id,
                description,
                vec![(income.into(), *amount), (receivable, -*amount)],
            )
        }
        // A plan changes when the rest is owed, not how much: only the fees it
        // waives move.
        OrderEvent::PaymentPlanSigned { fees_waived, .. } => entry(
            order_id,
            FEES_WAIVED,
            vec![
                (FEE_INCOME.into(), *fees_waived),
                (receivable, -*fees_waived),
            ],
        ),
        OrderEvent::TermExtended { extra_interest, .. } => entry(
            order_id,
            EXTENSION_INTEREST,
            vec![
                (receivable, *extra_interest),
                (INTEREST_INCOME.into(), -*extra_interest),
            ],
        ),
        OrderEvent::LoanChargedOff { written_off, .. } => entry(
            order_id,
            CHARGED_OFF,
            vec![
                (CHARGE_OFF_EXPENSE.into(), *written_off),
                (receivable, -*written_off),
            ],
        ),
        OrderEvent::RecoveryReceived { amount, .. } => entry(
            order_id,
            RECOVERY,
            vec![(receivable, *amount), (RECOVERY_INCOME.into(), -*amount)],
        ),
        OrderEvent::ChargeOffClosed { waived, .. } => entry(
            order_id,
            CHARGE_OFF_CLOSED,
            vec![(receivable, *waived), (CHARGE_OFF_EXPENSE.into(), -*waived)],
        ),
        OrderEvent::ChargeOffReversed {
            written_off,
            recovered,
            restored,
            ..
        } => entry(
            order_id,
            CHARGE_OFF_REVERSED,
            vec![
                (receivable, *restored),
                (RECOVERY_INCOME.into(), *recovered),
                (CHARGE_OFF_EXPENSE.into(), -*written_off),
            ],
        ),
        OrderEvent::LoanRepaid {
            interest_waived,
            fees_waived,
            ..
        } => entry(
            order_id,
            CLOSED_WAIVED,
            vec![
                (INTEREST_INCOME.into(), *interest_waived),
                (FEE_INCOME.into(), *fees_waived),
                (receivable, -(*interest_waived + *fees_waived)),
            ],
        ),
        _ => return None,
    };
    (!e.postings.is_empty()).then_some(e)
}

/// The journal entry a Wallet event produces, if it moves money. Approved but undrawn
/// proceeds are a commitment, not money, and post nothing.
pub fn wallet_entry(user_id: &str, event: &WalletEvent) -> Option<JournalEntry> {
    let wallet = borrower_wallet(user_id);
    let e = match event {
        WalletEvent::Recharged {
            order_id, amount, ..
        } => entry(
            &order_id.to_string(),
            PAYMENT_RECEIVED,
            vec![(LENDER_CASH.into(), *amount), (wallet, -*amount)],
        ),
        WalletEvent::RepaymentApplied {
            order_id, amount, ..
        } => entry(
            &order_id.to_string(),
            PAYMENT_APPLIED,
            vec![(wallet, *amount), (PAYMENT_CLEARING.into(), -*amount)],
        ),
        WalletEvent::RefundRequested {
            order_id, amount, ..
        } => entry(
            &order_id.to_string(),
            REFUND_SENT,
            vec![(wallet, *amount), (PAYOUT_CLEARING.into(), -*amount)],
        ),
        WalletEvent::RefundPaid {
            order_id, amount, ..
        } => entry(
            &order_id.to_string(),
            REFUND_CONFIRMED,
            vec![
                (PAYOUT_CLEARING.into(), *amount),
                (LENDER_CASH.into(), -*amount),
            ],
        ),
        WalletEvent::RefundFailed {
            order_id, amount, ..
        } => entry(
            &order_id.to_string(),
            REFUND_RETURNED,
            vec![(PAYOUT_CLEARING.into(), *amount), (wallet, -*amount)],
        ),
        _ => return None,
    };
    (!e.postings.is_empty()).then_some(e)
}

/// Maintains `ledger_journal` from Order and Wallet events.
pub struct LedgerProjection;

static TABLES: [&TableSpec; 1] = [&LEDGER_JOURNAL];

#[async_trait]
impl Projection for LedgerProjection {
    fn name(&self) -> &'static str {
        "ledger"
    }

    fn tables(&self) -> &'static [&'static TableSpec] {
        &TABLES
    }

    fn follows(&self) -> &'static [&'static str] {
        &[Order::TYPE, Wallet::TYPE]
    }

    async fn apply_all(
        &self,
        store: &mut dyn RowStore,
        events: &[StoredEvent],
    ) -> Result<(), ProjectionError> {
        for event in events {
            post(store, event).await?;
        }
        Ok(())
    }
}

/// Writes the journal entry of one event, if it moves money. Errors:
/// [`ProjectionError::Precision`] for an amount finer than a cent.
async fn post(store: &mut dyn RowStore, event: &StoredEvent) -> Result<(), ProjectionError> {
    let id = event.aggregate_id.as_str();
    let (journal_entry, at) = if event.aggregate_type == Order::TYPE {
        let payload = decode::<OrderEvent>(event)?;
        (order_entry(id, &payload), order_event_time(&payload))
    } else if event.aggregate_type == Wallet::TYPE {
        let payload = decode::<WalletEvent>(event)?;
        (wallet_entry(id, &payload), recorded_at(event))
    } else {
        return Ok(());
    };
    let Some(journal_entry) = journal_entry else {
        return Ok(());
    };
    let entry_id = format!("{}/{}/{}", event.aggregate_type, id, event.sequence);
    journal_entry.check_balanced(&entry_id, event.position)?;
    for (number, posting) in (1..).zip(&journal_entry.postings) {
        let minor = posting.amount * Decimal::ONE_HUNDRED;
        if !minor.fract().is_zero() {
            return Err(ProjectionError::Precision {
                amount: posting.amount,
                position: event.position,
            });
        }
        let amount_minor = i64::try_from(minor).map_err(|_| ProjectionError::Precision {
            amount: posting.amount,
            position: event.position,
        })?;
        store
            .upsert(Row {
                table: &LEDGER_JOURNAL,
                values: vec![
                    entry_id.as_str().into(),
                    i64::from(number).into(),
                    time_text(at).into(),
                    journal_entry.order_id.as_str().into(),
                    posting.account.as_str().into(),
                    money_text(posting.amount).into(),
                    amount_minor.into(),
                    journal_entry.description.into(),
                ],
            })
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unbalanced_entry_is_refused_in_every_build() {
        let posting = |account: &str, amount: Decimal| Posting {
            account: account.to_string(),
            amount,
        };
        let mut journal_entry = JournalEntry {
            order_id: "o1".to_string(),
            description: "repayment",
            postings: vec![
                posting("payment_clearing", Decimal::new(10_000, 2)),
                posting("loan_receivable:o1", Decimal::new(-10_000, 2)),
            ],
        };
        let position = LogPosition::default();
        assert!(journal_entry.check_balanced("Order/o1/3", position).is_ok());
        journal_entry.postings[1].amount = Decimal::new(-9_999, 2);
        match journal_entry.check_balanced("Order/o1/3", position) {
            Err(ProjectionError::Unbalanced { entry, sum, .. }) => {
                assert_eq!(entry, "Order/o1/3");
                assert_eq!(sum, Decimal::new(1, 2));
            }
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn every_entry_description_has_one_code_and_back() {
        let mut codes: Vec<&str> = ENTRY_DESCRIPTIONS.iter().map(|(code, _)| *code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), ENTRY_DESCRIPTIONS.len(), "codes are unique");
        for (code, description) in ENTRY_DESCRIPTIONS {
            assert_eq!(entry_code(description), Some(code));
        }
        assert_eq!(entry_code("something else"), None);
    }

    #[test]
    fn overdue_taken_back_posts_the_reverse_of_its_charge_and_a_mark_alone_posts_nothing() {
        use chrono::{NaiveDate, TimeZone, Utc};
        use std::collections::BTreeMap;
        let day = NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
        let charged = order_entry(
            "o1",
            &OrderEvent::OverdueFeeCharged {
                period: 1,
                from: day,
                through: day,
                amount: Decimal::new(1349, 2),
                day_start: None,
            },
        )
        .unwrap();
        let reversed = |amount| OrderEvent::OverdueReversed {
            period: 1,
            from: Some(day),
            through: Some(day),
            amount,
            payment_ref: "pay-1".into(),
            at: Utc.with_ymd_and_hms(2026, 11, 22, 23, 59, 59).unwrap(),
            day_start: None,
        };
        let back = order_entry("o1", &reversed(Decimal::new(1349, 2))).unwrap();
        assert_eq!(back.description, OVERDUE_FEE_REVERSED);
        let net: BTreeMap<String, Decimal> = charged.postings.iter().chain(&back.postings).fold(
            BTreeMap::new(),
            |mut net, posting| {
                *net.entry(posting.account.clone()).or_default() += posting.amount;
                net
            },
        );
        assert!(net.values().all(Decimal::is_zero), "{net:?}");
        assert_eq!(
            back.postings.iter().map(|p| p.amount).sum::<Decimal>(),
            Decimal::ZERO
        );
        assert_eq!(order_entry("o1", &reversed(Decimal::ZERO)), None);
    }
}
