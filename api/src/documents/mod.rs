//! The PDF documents of PRODUCT.md 12.5, rendered by the server
//! (docs/adr/0010-pdf-documents.md): the signed contract, an official receipt per
//! payment and per refund, and the statement of account of an order.
//!
//! What every document carries (P14, 12.5): the lender's legal name, registration
//! and licence numbers, the line "We never ask you to pay to receive a loan.", and
//! the SHA-256 of the disclosure the borrower signed ([`disclosure_sha256`]), in the
//! footer of every page. Amounts are printed as the decimal strings of the wire
//! (`30000.00`) with the currency code; times in UTC, said so.
//!
//! The facts are gathered in [`facts`] (who may read which order, what each document
//! is made from, the download record); the routes (`routes::documents`) only pick who
//! asks and which document. The renderers here take plain values, so they are tested
//! without a database.

pub mod facts;
pub mod fonts;
pub mod layout;
mod statement;
pub mod text;

use std::path::Path;
use std::sync::Arc;

use aggregates::order::Amendment;
use aggregates::pricing::{Disclosure, Lender};
use chrono::{DateTime, NaiveDate, Utc};
use projections::read_models::receipts::{Channel, Receipt, ReceiptKind, RefundStatus};
use rust_decimal::Decimal;
use serde_json::Value as Json;
use sha2::{Digest, Sha256};

use self::fonts::{FontError, LoadedFont, PdfFont};
use self::layout::{Align, Column, Layout, BODY, SMALL};
use self::text::Texts;

/// The language a document is printed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// English (the default).
    En,
    /// Simplified Chinese.
    Zh,
    /// Filipino.
    Fil,
}

impl Lang {
    /// Every language the documents are printed in.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Zh, Lang::Fil];

    /// The language the caller asked for: `lang` when given (`en`, `zh`, `fil`, or a
    /// tag starting with one, such as `zh-CN`), else the first known language of
    /// `Accept-Language`, else English. `None` for a `lang` that names no language
    /// the app has (10004).
    pub fn pick(lang: Option<&str>, accept_language: Option<&str>) -> Option<Lang> {
        if let Some(lang) = lang.map(str::trim).filter(|l| !l.is_empty()) {
            return Self::parse(lang);
        }
        let from_header = accept_language.and_then(|header| {
            header
                .split(',')
                .map(|part| part.split(';').next().unwrap_or("").trim())
                .find_map(Self::parse)
        });
        Some(from_header.unwrap_or(Lang::En))
    }

    fn parse(tag: &str) -> Option<Lang> {
        let primary = tag
            .split(['-', '_'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "fil" | "tl" => Some(Lang::Fil),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }

    /// The BCP 47 tag written into the PDF's metadata.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
            Lang::Fil => "fil",
        }
    }

    /// The wire name (`en`, `zh`), as recorded with a download.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
            Lang::Fil => "fil",
        }
    }
}

/// `value` as canonical JSON: object keys sorted, no insignificant whitespace.
pub fn canonical_json(value: &Json) -> String {
    match value {
        Json::Object(fields) => {
            let mut keys: Vec<&String> = fields.keys().collect();
            keys.sort();
            let inner: Vec<String> = keys
                .into_iter()
                .map(|key| {
                    format!(
                        "{}:{}",
                        Json::String(key.clone()),
                        canonical_json(&fields[key.as_str()])
                    )
                })
                .collect();
            format!("{{{}}}", inner.join(","))
        }
        Json::Array(items) => {
            let inner: Vec<String> = items.iter().map(canonical_json).collect();
            format!("[{}]", inner.join(","))
        }
        other => other.to_string(),
    }
}

/// Lower-case hex SHA-256 of the disclosure as signed (the one in `LoanApplied`),
/// over its canonical JSON ([`canonical_json`] of the wire form `/loan/quote` and
/// `/loan/orderInfo` show): anyone holding the disclosure can recompute it.
pub fn disclosure_sha256(disclosure: &Disclosure) -> String {
    let value = serde_json::to_value(disclosure).expect("a disclosure serializes");
    hex::encode(Sha256::digest(canonical_json(&value).as_bytes()))
}

/// What every document says about the order and who issues it.
#[derive(Debug, Clone)]
pub struct Header {
    /// The lender (the contract's is the one the borrower signed with).
    pub lender: Lender,
    /// `HL-2611-000123`.
    pub order_no: String,
    /// The borrower's name as on the order.
    pub borrower_name: String,
    /// ISO 4217 code of the amounts.
    pub currency: String,
    /// The currency's symbol as the app shows it (`₱`): printed before amounts when
    /// the document font has it, else the code is ([`Header::money_mark`]).
    pub currency_symbol: String,
    /// The lender's time zone (`LendingConfig::time_zone`): every time is printed in it.
    pub time_zone: chrono_tz::Tz,
    /// When the document is issued.
    pub issued_at: DateTime<Utc>,
    /// [`disclosure_sha256`] of the signed disclosure.
    pub disclosure_sha256: String,
}

impl Header {
    /// `at` in the lender's time zone, to the minute: `2026-11-24 18:15`.
    pub fn local(&self, at: DateTime<Utc>) -> String {
        at.with_timezone(&self.time_zone)
            .format("%Y-%m-%d %H:%M")
            .to_string()
    }

    /// The time zone as the issued line names it: `Asia/Manila (UTC+08:00)`, the
    /// offset as of the document's issue.
    fn zone(&self) -> String {
        let offset = self.issued_at.with_timezone(&self.time_zone).format("%:z");
        format!("{} (UTC{offset})", self.time_zone.name())
    }

    /// What goes before an amount: the symbol as on screen (`₱`) when `font` prints
    /// it, else the currency code and a space (`PHP `).
    fn money_mark(&self, font: &LoadedFont) -> String {
        let face = font.face();
        let printable = !self.currency_symbol.is_empty()
            && self
                .currency_symbol
                .chars()
                .all(|c| face.glyph_index(c).is_some());
        if printable {
            self.currency_symbol.clone()
        } else {
            format!("{} ", self.currency)
        }
    }
}

/// An amount as people read it, with the [`Header::money_mark`]: `₱100,000.00`.
fn money_with(mark: &str, amount: Decimal) -> String {
    format!("{mark}{}", aggregates::money::grouped(amount))
}

/// One installment with its due day.
#[derive(Debug, Clone)]
pub struct DueInstallment {
    /// 1-based number.
    pub period: u32,
    /// The day it falls due.
    pub due_date: NaiveDate,
    /// The amount due (fees included).
    pub amount: Decimal,
}

/// The loan as it was paid out (P10): its own disclosure and dated schedule.
#[derive(Debug, Clone)]
pub struct PaidOut {
    /// When the payout was confirmed.
    pub paid_at: DateTime<Utc>,
    /// The disclosure for the amount paid out.
    pub disclosure: Disclosure,
    /// The installments with their due days.
    pub schedule: Vec<DueInstallment>,
}

/// The facts of a contract.
#[derive(Debug, Clone)]
pub struct ContractFacts {
    /// Order, lender, borrower.
    pub header: Header,
    /// The product's name.
    pub product_name: String,
    /// The disclosure the borrower signed.
    pub signed: Disclosure,
    /// When they signed (applied).
    pub signed_at: DateTime<Utc>,
    /// The contract text's version.
    pub terms_version: String,
    /// The signature image (PNG), when it could be read.
    pub signature_png: Option<Vec<u8>>,
    /// The loan as paid out, once it was.
    pub paid_out: Option<PaidOut>,
    /// Changes the borrower signed after the payout (extensions, payment plans),
    /// oldest first.
    pub amendments: Vec<Amendment>,
}

/// The facts of a receipt.
#[derive(Debug, Clone)]
pub struct ReceiptFacts {
    /// Order, lender, borrower.
    pub header: Header,
    /// The receipt.
    pub receipt: Receipt,
    /// Due days of the installments, by number (for the allocation table).
    pub due_dates: Vec<(u32, NaiveDate)>,
}

/// One posting of the order's journal.
#[derive(Debug, Clone)]
pub struct StatementPosting {
    /// When.
    pub at: DateTime<Utc>,
    /// The entry's code (`projections::read_models::ledger::ENTRY_DESCRIPTIONS`), if known.
    pub code: Option<String>,
    /// The entry's stored description.
    pub description: String,
    /// The account.
    pub account: String,
    /// Signed amount: debit when positive.
    pub amount: Decimal,
}

/// The facts of a statement of account.
#[derive(Debug, Clone)]
pub struct StatementFacts {
    /// Order, lender, borrower.
    pub header: Header,
    /// The loan account (`loan_receivable:<order>`), whose balance is what is owed.
    pub receivable_account: String,
    /// Every posting of the order, in journal order.
    pub postings: Vec<StatementPosting>,
    /// The order's receipts (payments received, refunds sent).
    pub receipts: Vec<Receipt>,
}

/// Why a document could not be made.
#[derive(Debug, thiserror::Error)]
#[error("pdf: {0}")]
pub struct RenderError(String);

/// The renderer: the checked font.
#[derive(Debug, Clone)]
pub struct Documents {
    font: PdfFont,
}

/// Every character a document may print besides its texts: digits, amounts, dates,
/// order and receipt numbers, hashes.
const FIXED_CHARACTERS: &str = "0123456789abcdefABCDEFHLORFPUTCSN.,:;-+/%()·*#_ ";

impl Documents {
    /// Loads the document font (`PDF_FONT`, or Noto Sans CJK where distributions put
    /// it) and checks it prints every text in every language. Errors: [`FontError`]
    /// (the server does not start).
    pub fn load(font_path: Option<&Path>) -> Result<Self, FontError> {
        let mut needed = String::from(FIXED_CHARACTERS);
        for lang in Lang::ALL {
            for text in text::of(lang).all() {
                needed.push_str(text);
            }
        }
        Ok(Self {
            font: PdfFont::load(font_path, &needed)?,
        })
    }

    /// The font in use.
    pub fn font(&self) -> &PdfFont {
        &self.font
    }

    /// The font in memory for one document ([`PdfFont::open`]).
    fn open_font(&self) -> Result<Arc<LoadedFont>, RenderError> {
        self.font
            .open()
            .map_err(|error| RenderError(error.to_string()))
    }

    /// A document's first page: the footer (lender, licence, the disclosure's hash,
    /// the notice), `title`, and the line saying when it was issued, in which time zone
    /// and currency.
    fn begin<'a>(
        &self,
        font: &'a LoadedFont,
        t: &Texts,
        header: &Header,
        title: &str,
    ) -> Layout<'a> {
        let lender = &header.lender;
        let footer = vec![
            format!(
                "{} · {} {} · {} {}",
                lender.legal_name,
                t.registration_no,
                lender.registration_no,
                t.licence_no,
                lender.licence_no
            ),
            format!("{}: {}", t.disclosure_hash, header.disclosure_sha256),
            t.notice.to_string(),
        ];
        let mut doc = Layout::new(font, footer, t.page);
        doc.title(title);
        let issued = t
            .generated
            .replace("{time}", &header.local(header.issued_at))
            .replace("{zone}", &header.zone())
            .replace("{currency}", &header.currency);
        doc.paragraph(&issued, SMALL, true);
        doc.gap(4.0);
        doc
    }

    /// The signed contract (P5, P14): parties, the disclosure as signed with its
    /// schedule, the loan as paid out, the signature and the disclosure's hash.
    pub fn contract(&self, facts: &ContractFacts, lang: Lang) -> Result<Vec<u8>, RenderError> {
        let t = text::of(lang);
        let h = &facts.header;
        let font = self.open_font()?;
        let mark = h.money_mark(&font);
        let money = |amount: Decimal| money_with(&mark, amount);
        let mut doc = self.begin(&font, t, h, &format!("{} {}", t.contract_title, h.order_no));

        doc.heading(t.parties);
        doc.pairs(&[
            (t.lender, h.lender.legal_name.clone()),
            (t.registration_no, h.lender.registration_no.clone()),
            (t.licence_no, h.lender.licence_no.clone()),
            (t.borrower, h.borrower_name.clone()),
            (t.order_no, h.order_no.clone()),
            (t.product, facts.product_name.clone()),
            (t.terms_version, facts.terms_version.clone()),
        ]);

        let d = &facts.signed;
        doc.heading(t.disclosure);
        disclosure_pairs(&mut doc, t, d, &money);
        doc.gap(4.0);
        doc.paragraph(t.notice, BODY, false);

        doc.heading(t.schedule);
        let amount_title = format!("{} ({})", t.amount, h.currency);
        let columns = schedule_columns(t, &amount_title);
        let rows: Vec<Vec<String>> = d
            .schedule
            .iter()
            .map(|line| {
                vec![
                    line.period.to_string(),
                    t.day_after_payout.replace("{n}", &line.period.to_string()),
                    money_text(line.amount),
                ]
            })
            .collect();
        doc.table(&columns, &rows);

        if let Some(paid) = &facts.paid_out {
            paid_out_section(&mut doc, t, h, paid, &columns, &money);
        }
        if !facts.amendments.is_empty() {
            amendments_section(&mut doc, t, h, &facts.amendments, &money);
        }
        signature_section(&mut doc, t, facts);

        doc.finish(&format!("{} {}", t.contract_title, h.order_no), lang.tag())
            .map_err(RenderError)
    }

    /// An official receipt: a payment received (with how it was applied and any
    /// part refunded), or a refund sent back.
    pub fn receipt(&self, facts: &ReceiptFacts, lang: Lang) -> Result<Vec<u8>, RenderError> {
        let t = text::of(lang);
        let h = &facts.header;
        let r = &facts.receipt;
        let title = match r.kind {
            ReceiptKind::Payment => t.receipt_title,
            ReceiptKind::Refund => t.refund_title,
        };
        let font = self.open_font()?;
        let mark = h.money_mark(&font);
        let money = |amount: Decimal| money_with(&mark, amount);
        let mut doc = self.begin(&font, t, h, &format!("{title} {}", r.receipt_no));
        let mut rows: Vec<(&str, String)> = vec![
            (t.receipt_no, r.receipt_no.clone()),
            (t.order_no, h.order_no.clone()),
        ];
        match r.kind {
            ReceiptKind::Payment => payment_rows(&mut rows, t, h, r, &money),
            ReceiptKind::Refund => refund_rows(&mut rows, t, h, r, &money),
        }
        doc.pairs(&rows);
        if !r.allocations.is_empty() {
            allocation_table(&mut doc, t, facts);
        }
        doc.heading(t.lender);
        doc.pairs(&[
            (t.lender, h.lender.legal_name.clone()),
            (t.registration_no, h.lender.registration_no.clone()),
            (t.licence_no, h.lender.licence_no.clone()),
        ]);
        doc.finish(&format!("{title} {}", r.receipt_no), lang.tag())
            .map_err(RenderError)
    }
}

/// The contract's loan as paid out (P10): its terms and its dated schedule.
fn paid_out_section(
    doc: &mut Layout<'_>,
    t: &Texts,
    h: &Header,
    paid: &PaidOut,
    columns: &[Column<'_>],
    money: &dyn Fn(Decimal) -> String,
) {
    let p = &paid.disclosure;
    doc.heading(t.paid_out);
    doc.pairs(&[
        (t.paid_out_on, h.local(paid.paid_at)),
        (t.principal, money(p.principal)),
        (t.processing_fee, money(p.processing_fee)),
        (t.net_amount, money(p.net_amount)),
        (t.interest, money(p.interest)),
        (t.total_repayable, money(p.total_repayable)),
    ]);
    doc.gap(6.0);
    let rows: Vec<Vec<String>> = paid
        .schedule
        .iter()
        .map(|line| {
            vec![
                line.period.to_string(),
                line.due_date.format("%Y-%m-%d").to_string(),
                money_text(line.amount),
            ]
        })
        .collect();
    doc.table(columns, &rows);
}

/// The changes signed after the payout, one line each (issue 53): the schedule above
/// already shows their effect.
fn amendments_section(
    doc: &mut Layout<'_>,
    t: &Texts,
    h: &Header,
    amendments: &[Amendment],
    money: &dyn Fn(Decimal) -> String,
) {
    doc.heading(t.amendments);
    for amendment in amendments {
        let line = match amendment {
            Amendment::Extension {
                signed_at,
                days,
                extra_interest,
            } => t
                .amendment_extension
                .replace("{time}", &h.local(*signed_at))
                .replace("{n}", &days.to_string())
                .replace("{amount}", &money(*extra_interest)),
            Amendment::PaymentPlan {
                signed_at,
                installments,
                total,
                fees_waived,
            } => t
                .amendment_plan
                .replace("{time}", &h.local(*signed_at))
                .replace("{n}", &installments.to_string())
                .replace("{amount}", &money(*total))
                .replace("{fees}", &money(*fees_waived)),
        };
        doc.paragraph(&line, BODY, false);
    }
}

/// The contract's signature: the image (or a line saying there is none), who signed,
/// when, and the hash of what was signed.
fn signature_section(doc: &mut Layout<'_>, t: &Texts, facts: &ContractFacts) {
    let h = &facts.header;
    doc.heading(t.signature);
    let drawn = facts
        .signature_png
        .clone()
        .is_some_and(|png| doc.png(png, 240.0, 90.0));
    if !drawn {
        doc.paragraph(t.no_signature, BODY, true);
    }
    doc.pairs(&[
        (t.borrower, h.borrower_name.clone()),
        (t.signed_at, h.local(facts.signed_at)),
        (t.disclosure_hash, h.disclosure_sha256.clone()),
    ]);
    doc.gap(2.0);
    doc.paragraph(t.disclosure_hash_note, SMALL, true);
}

/// A payment receipt's lines: from whom, how much, when, how it came, and what was
/// applied and refunded.
fn payment_rows<'t>(
    rows: &mut Vec<(&'t str, String)>,
    t: &'t Texts,
    h: &Header,
    r: &Receipt,
    money: &dyn Fn(Decimal) -> String,
) {
    rows.push((t.received_from, h.borrower_name.clone()));
    rows.push((t.amount_received, money(r.amount)));
    rows.push((t.paid_at, h.local(r.at)));
    let channel = match r.channel {
        Some(Channel::Manual) => t.channel_manual,
        _ => t.channel_online,
    };
    rows.push((t.channel, channel.to_string()));
    rows.push((t.payment_ref, r.payment_ref.clone()));
    rows.push((t.applied, money(r.applied)));
    if !r.refunded.is_zero() {
        rows.push((t.refunded, money(r.refunded)));
        if let Some(reason) = &r.reason {
            rows.push((t.reason, reason.clone()));
        }
    }
}

/// A refund receipt's lines: to whom and which account, how much, for which payment,
/// and where it stands.
fn refund_rows<'t>(
    rows: &mut Vec<(&'t str, String)>,
    t: &'t Texts,
    h: &Header,
    r: &Receipt,
    money: &dyn Fn(Decimal) -> String,
) {
    rows.push((t.refunded_to, h.borrower_name.clone()));
    rows.push((t.amount_refunded, money(r.amount)));
    rows.push((t.requested_at, h.local(r.at)));
    if let Some(account) = &r.account {
        rows.push((t.to_account, account.clone()));
    }
    if let Some(paid) = &r.for_receipt_no {
        rows.push((t.for_payment, paid.clone()));
    }
    rows.push((t.payment_ref, r.payment_ref.clone()));
    let status = match r.status {
        Some(RefundStatus::Paid) => t.refund_paid,
        Some(RefundStatus::Returned) => t.refund_returned,
        _ => t.refund_sent,
    };
    let status = match r.resolved_at {
        Some(at) => format!("{status} ({})", h.local(at)),
        None => status.to_string(),
    };
    rows.push((t.status, status));
    if let (Some(RefundStatus::Returned), Some(reason)) = (r.status, &r.reason) {
        rows.push((t.reason, reason.clone()));
    }
}

/// The installments a payment went to, with their due dates.
fn allocation_table(doc: &mut Layout<'_>, t: &Texts, facts: &ReceiptFacts) {
    doc.heading(t.allocation);
    let rows: Vec<Vec<String>> = facts
        .receipt
        .allocations
        .iter()
        .map(|a| {
            let due = facts
                .due_dates
                .iter()
                .find(|(period, _)| *period == a.period)
                .map(|(_, day)| day.format("%Y-%m-%d").to_string())
                .unwrap_or_default();
            vec![a.period.to_string(), due, money_text(a.amount)]
        })
        .collect();
    let amount_title = format!("{} ({})", t.amount, facts.header.currency);
    doc.table(&schedule_columns(t, &amount_title), &rows);
}

/// A table cell's amount: `100,000.00` (the column's title names the currency).
fn money_text(amount: Decimal) -> String {
    aggregates::money::grouped(amount)
}

/// Installment, due, amount: `amount` is the amount column's title (with the currency).
fn schedule_columns<'a>(t: &'a Texts, amount: &'a str) -> [Column<'a>; 3] {
    [
        Column {
            title: t.installment,
            share: 0.2,
            align: Align::Left,
        },
        Column {
            title: t.due,
            share: 0.5,
            align: Align::Left,
        },
        Column {
            title: amount,
            share: 0.3,
            align: Align::Right,
        },
    ]
}

fn disclosure_pairs(
    doc: &mut Layout<'_>,
    t: &Texts,
    d: &Disclosure,
    money: &dyn Fn(Decimal) -> String,
) {
    let pct = |value: Decimal| format!("{} %", value.normalize());
    let days = |n: u32| t.days.replace("{n}", &n.to_string());
    doc.pairs(&[
        (t.principal, money(d.principal)),
        (t.processing_fee, money(d.processing_fee)),
        (t.net_amount, money(d.net_amount)),
        (t.interest, money(d.interest)),
        (t.total_repayable, money(d.total_repayable)),
        (t.per_period, money(d.per_period_payment)),
        (t.term, days(d.period_days)),
        (t.daily_rate, pct(d.daily_rate_pct)),
        (t.apr, pct(d.apr_pct)),
        (t.effective_monthly, pct(d.effective_monthly_rate_pct)),
        (t.overdue_rate, pct(d.overdue_daily_rate_pct)),
        (t.cost_cap, pct(d.max_total_cost_pct)),
        (t.cooling_off, days(d.cooling_off_days)),
    ]);
    doc.paragraph(t.rate_note, SMALL, true);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_is_the_one_asked_for_then_the_browsers_then_english() {
        assert_eq!(Lang::pick(Some("zh"), Some("en")), Some(Lang::Zh));
        assert_eq!(Lang::pick(Some("zh-CN"), None), Some(Lang::Zh));
        assert_eq!(Lang::pick(Some("fil"), None), Some(Lang::Fil));
        assert_eq!(Lang::pick(Some("tl-PH"), None), Some(Lang::Fil));
        assert_eq!(
            Lang::pick(Some("xx"), None),
            None,
            "an unknown lang is refused"
        );
        assert_eq!(
            Lang::pick(None, Some("fr;q=1, zh-TW;q=0.8")),
            Some(Lang::Zh)
        );
        assert_eq!(Lang::pick(None, Some("fr")), Some(Lang::En));
        assert_eq!(Lang::pick(Some(" "), None), Some(Lang::En));
    }

    #[test]
    fn times_print_in_the_lenders_zone_and_name_it() {
        use chrono::TimeZone;
        let header = Header {
            lender: Lender {
                legal_name: "L".into(),
                registration_no: "R".into(),
                licence_no: "N".into(),
            },
            order_no: "HL-1".into(),
            borrower_name: "B".into(),
            currency: "PHP".into(),
            currency_symbol: "₱".into(),
            time_zone: chrono_tz::Asia::Manila,
            issued_at: Utc.with_ymd_and_hms(2026, 11, 30, 17, 5, 0).unwrap(),
            disclosure_sha256: String::new(),
        };
        // 17:05 UTC on the 30th is 01:05 on the 1st in Manila.
        assert_eq!(header.local(header.issued_at), "2026-12-01 01:05");
        assert_eq!(header.zone(), "Asia/Manila (UTC+08:00)");
        assert_eq!(money_with("₱", Decimal::new(10012000, 2)), "₱100,120.00");
        assert_eq!(money_with("PHP ", Decimal::new(-5, 1)), "PHP -0.50");
    }

    #[test]
    fn canonical_json_sorts_keys_at_every_level_and_drops_whitespace() {
        let value = serde_json::json!({"b": [ {"z": 1, "a": "x"} ], "a": "1.00"});
        assert_eq!(
            canonical_json(&value),
            r#"{"a":"1.00","b":[{"a":"x","z":1}]}"#
        );
    }
}
