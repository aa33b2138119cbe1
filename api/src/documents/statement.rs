//! The borrower's statement of account (PRODUCT.md 12.5, issue 52): the borrower's
//! own movements, not the lender's books. Two tables:
//! - the loan: every posting on the loan account (`loan_receivable:<order>`), that is
//!   what was charged (principal and interest at payout, overdue fees) and what was
//!   credited (payments applied, fees taken back, waivers), with what is owed after
//!   each;
//! - payments and refunds: every receipt, with how a payment was applied (to which
//!   installments, and any part refunded as not owed) and where a refund stands.
//!
//! The lender's internal accounts (cash, money in transit, income) are not listed:
//! officers read them in the console's ledger.

use rust_decimal::Decimal;

use super::layout::{Align, Column, Layout, BODY, SMALL};
use super::text::{self, Texts};
use super::{money_text, money_with, Documents, Header, Lang, RenderError, StatementFacts};
use projections::read_models::receipts::{Receipt, ReceiptKind, RefundStatus};

impl Documents {
    /// The statement of account: the loan's movements with the balance owed after
    /// each, the payments and refunds, and the totals.
    pub fn statement(&self, facts: &StatementFacts, lang: Lang) -> Result<Vec<u8>, RenderError> {
        let t = text::of(lang);
        let h = &facts.header;
        let font = self.open_font()?;
        let mark = h.money_mark(&font);
        let money = |amount: Decimal| money_with(&mark, amount);
        let mut doc = self.begin(
            &font,
            t,
            h,
            &format!("{} {}", t.statement_title, h.order_no),
        );
        doc.pairs(&[
            (t.order_no, h.order_no.clone()),
            (t.borrower, h.borrower_name.clone()),
            (t.lender, h.lender.legal_name.clone()),
            (t.licence_no, h.lender.licence_no.clone()),
        ]);
        doc.gap(6.0);
        doc.paragraph(t.statement_note, SMALL, true);

        let loan = loan_lines(t, h, facts);
        doc.heading(t.statement_loan);
        if loan.rows.is_empty() {
            doc.paragraph(t.no_postings, BODY, true);
        } else {
            loan_table(&mut doc, t, &h.currency, &loan.rows);
        }
        doc.heading(t.statement_payments);
        let payments = payment_rows(t, h, &facts.receipts);
        if payments.is_empty() {
            doc.paragraph(t.no_payments, BODY, true);
        } else {
            payments_table(&mut doc, t, &h.currency, &payments);
        }

        let received: Decimal = facts
            .receipts
            .iter()
            .filter(|r| r.kind == ReceiptKind::Payment)
            .map(|r| r.amount)
            .sum();
        let refunded: Decimal = facts
            .receipts
            .iter()
            .filter(|r| r.kind == ReceiptKind::Refund && r.status != Some(RefundStatus::Returned))
            .map(|r| r.amount)
            .sum();
        doc.gap(8.0);
        doc.pairs(&[
            (t.total_charged, money(loan.charged)),
            (t.total_credited, money(loan.credited)),
            (t.closing_balance, money(loan.balance)),
            (t.total_received, money(received)),
            (t.total_refunded, money(refunded)),
        ]);
        doc.finish(&format!("{} {}", t.statement_title, h.order_no), lang.tag())
            .map_err(RenderError)
    }
}

/// The loan table's rows, and its totals: charged (debits of the loan account),
/// credited (its credits) and the balance owed after the last posting.
struct LoanLines {
    rows: Vec<Vec<String>>,
    charged: Decimal,
    credited: Decimal,
    balance: Decimal,
}

/// Every posting on the loan account as a row: when (lender's time), what happened
/// in the borrower's words, charged or credited, and the balance owed after it.
fn loan_lines(t: &Texts, h: &Header, facts: &StatementFacts) -> LoanLines {
    let mut lines = LoanLines {
        rows: Vec::new(),
        charged: Decimal::ZERO,
        credited: Decimal::ZERO,
        balance: Decimal::ZERO,
    };
    // The lender's write-off bookkeeping is not a change to what the borrower owes.
    let write_off = |code: &Option<String>| {
        code.as_deref()
            .is_some_and(projections::read_models::ledger::is_write_off)
    };
    for p in facts
        .postings
        .iter()
        .filter(|p| p.account == facts.receivable_account && !write_off(&p.code))
    {
        lines.balance += p.amount;
        let (charged, credited) = if p.amount.is_sign_negative() {
            lines.credited -= p.amount;
            (String::new(), money_text(-p.amount))
        } else {
            lines.charged += p.amount;
            (money_text(p.amount), String::new())
        };
        lines.rows.push(vec![
            h.local(p.at),
            t.movement(p.code.as_deref(), &p.description).to_string(),
            charged,
            credited,
            money_text(lines.balance),
        ]);
    }
    lines
}

/// Every receipt as a row: when, its number, what happened (a payment with how it
/// was applied, or a refund with where it stands), and the amount.
fn payment_rows(t: &Texts, h: &Header, receipts: &[Receipt]) -> Vec<Vec<String>> {
    receipts
        .iter()
        .map(|r| {
            let what = match r.kind {
                ReceiptKind::Payment => payment_words(t, r),
                ReceiptKind::Refund => {
                    let status = match r.status {
                        Some(RefundStatus::Paid) => t.refund_paid,
                        Some(RefundStatus::Returned) => t.refund_returned,
                        _ => t.refund_sent,
                    };
                    format!("{}: {status}", t.refund_to_bank)
                }
            };
            vec![
                h.local(r.at),
                r.receipt_no.clone(),
                what,
                money_text(r.amount),
            ]
        })
        .collect()
}

/// "Payment received: 5,000.00 applied to installments 1, 2; 0.00 refunded".
fn payment_words(t: &Texts, r: &Receipt) -> String {
    let installments = r
        .allocations
        .iter()
        .map(|a| a.period.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let mut words = t
        .payment_applied
        .replace("{amount}", &money_text(r.applied))
        .replace("{installments}", &installments);
    if r.applied.is_zero() {
        words = t.payment_not_applied.to_string();
    }
    if !r.refunded.is_zero() {
        words.push_str("; ");
        words.push_str(
            &t.payment_refunded
                .replace("{amount}", &money_text(r.refunded)),
        );
    }
    words
}

fn column(title: &str, share: f32, align: Align) -> Column<'_> {
    Column {
        title,
        share,
        align,
    }
}

/// The loan table: date, what happened, charged, paid or credited, owed after.
fn loan_table(doc: &mut Layout<'_>, t: &Texts, currency: &str, rows: &[Vec<String>]) {
    let titled = |title: &str| format!("{title} ({currency})");
    let (charged, credited, owed) = (
        titled(t.charged),
        titled(t.paid_or_credited),
        titled(t.balance_owed),
    );
    let columns = [
        column(t.date, 0.17, Align::Left),
        column(t.what_happened, 0.35, Align::Left),
        column(&charged, 0.16, Align::Right),
        column(&credited, 0.16, Align::Right),
        column(&owed, 0.16, Align::Right),
    ];
    doc.table(&columns, rows);
}

/// The payments table: date, receipt, what happened, amount.
fn payments_table(doc: &mut Layout<'_>, t: &Texts, currency: &str, rows: &[Vec<String>]) {
    let amount = format!("{} ({currency})", t.amount);
    let columns = [
        column(t.date, 0.17, Align::Left),
        column(t.receipt_no, 0.2, Align::Left),
        column(t.what_happened, 0.45, Align::Left),
        column(&amount, 0.18, Align::Right),
    ];
    doc.table(&columns, rows);
}
