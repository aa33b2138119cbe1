//! The personal data export (PRODUCT.md 12.6): everything held about one borrower, as
//! one JSON document, and the record of every export (`data_export`, migration 0014).
//!
//! What it is made from: the User's state in `user_profile` (every personal field the
//! borrower gave, unmasked), the User's event log (what happened to the account, and
//! when), and the read models and api tables keyed by the borrower: orders with their
//! schedule, timeline, collection record, payment sessions, receipts (payments and refunds), money
//! movements and document downloads; the wallet; in-app notices; sessions; the text
//! messages sent to the registered phone; earlier exports.
//!
//! Guarantees:
//! - the rows are read in one read transaction (PostgreSQL: repeatable read), so the
//!   sections agree with each other as of one moment; read models lag the log by a
//!   worker step, as every query does;
//! - secrets are never exported: the password and withdraw PIN exist only as hashes
//!   and are left out (`notIncluded` says so), session tokens appear by their times
//!   only, and the digits of SMS verification codes are masked;
//! - who acted on an order or an account is given by role (`user`, `auditor`,
//!   `system`), as on the borrower's own timeline, never by an auditor's identity.
//!
//! Size: bounded by one borrower's history (a few orders, their installments and the
//! reminders about them, one row per login); no paging. The calls are rate limited per
//! client address (`ops`).

use aggregates::user::{EmergencyContact, LockKind, User};
use aggregates::ErrorCode;
use projections::projection::time_text;
use projections::reads::{self, export::Rows};
use projections::store::RECORDED_AT;
use serde::Serialize;
use serde_json::Value as Json;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::http::envelope::ApiError;
use crate::runtime::state::AppState;

/// Version of the document's shape; a change that removes or renames a field bumps it.
pub const FORMAT_VERSION: u32 = 1;

/// Everything held about one borrower (`/jackey/user/dataExport`,
/// `/admin/api/users/dataExport`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DataExport {
    /// Shape version of this document ([`FORMAT_VERSION`]).
    pub format_version: u32,
    /// When the export was made, RFC 3339 UTC.
    pub exported_at: String,
    /// Who holds the data: the lender (P14).
    pub controller: Controller,
    /// The account and every personal field of it.
    pub user: ExportedUser,
    /// Every order, oldest first.
    pub orders: Vec<ExportedOrder>,
    /// The borrower's wallet balances, two decimals; null before the first approval.
    pub wallet: Option<ExportedWallet>,
    /// In-app notices (due-date reminders), oldest first.
    pub notices: Vec<ExportedNotice>,
    /// Every session (login) ever issued, oldest first.
    pub sessions: Vec<ExportedSession>,
    /// Every text message written for the registered phone, oldest first.
    pub sms_messages: Vec<ExportedSms>,
    /// What happened to the account (User events), oldest first.
    pub account_history: Vec<AccountEvent>,
    /// Earlier exports of this data, oldest first (this one is recorded as it is sent).
    pub exports: Vec<ExportRecord>,
    /// What is held but deliberately not given, and why.
    pub not_included: Vec<String>,
}

/// The lender that holds the data.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Controller {
    /// Registered legal name.
    pub legal_name: String,
    /// Company registration number.
    pub registration_no: String,
    /// Lending licence number(s).
    pub licence_no: String,
}

/// The account's personal fields, as held (nothing masked).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedUser {
    /// User id.
    pub user_id: String,
    /// Registered phone number.
    pub mobile: String,
    /// When the account was created, RFC 3339 UTC.
    pub registered_at: String,
    /// The agent code given at registration (attribution only, P13).
    pub invite_code: Option<String>,
    /// The installation channel given at registration.
    pub channel: Option<String>,
    /// The privacy notice accepted at registration; null for accounts registered
    /// before consent was recorded.
    pub privacy_notice: Option<ExportedConsent>,
    /// Real name.
    pub real_name: Option<String>,
    /// ID number.
    pub identity: Option<String>,
    /// 1 male, 2 female.
    pub sex: Option<u8>,
    /// `YYYY-MM-DD`.
    pub birthday: Option<String>,
    /// Marital status.
    pub marriage: Option<String>,
    /// Email address.
    pub email: Option<String>,
    /// Facebook profile.
    pub facebook: Option<String>,
    /// Education.
    pub education: Option<String>,
    /// `"Region,Province,City"`.
    pub province_city: Option<String>,
    /// Street address.
    pub address: Option<String>,
    /// Identity status: 0 none, 1 submitted, 2 verified, 3 rejected (4.1).
    pub identity_status: u8,
    /// Why the ID photos were last rejected.
    pub identity_reject_reason: Option<String>,
    /// The three ID photos.
    pub id_images: Option<IdImages>,
    /// The signature on file.
    pub signature: Option<ExportedImage>,
    /// The bound bank account, number unmasked.
    pub bank_account: Option<ExportedBankAccount>,
    /// Emergency contacts.
    #[schema(value_type = Vec<Object>)]
    pub emergency_contacts: Vec<EmergencyContact>,
    /// The questionnaire's six answers.
    pub questionnaire: Option<ExportedQuestionnaire>,
    /// Whether a withdraw PIN is set (the PIN itself is held only as a hash).
    pub has_withdraw_pin: bool,
    /// The lock in force, if any.
    pub lock: Option<ExportedLock>,
}

/// The privacy notice accepted.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedConsent {
    /// The notice's version.
    pub version: String,
    /// When it was accepted, RFC 3339 UTC.
    pub accepted_at: String,
    /// The language of the text the borrower was shown (`en`, `zh`, `fil`); null for
    /// registrations recorded before it was.
    pub language: Option<String>,
}

/// A stored image: its key, where its owner can fetch it, and its SHA-256.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedImage {
    /// Object-store key.
    pub key: String,
    /// `/files/{key}` (its owner's or an auditor's token).
    pub url: String,
    /// Lower-case hex SHA-256 of the stored bytes.
    pub sha256: String,
}

/// The ID photos.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IdImages {
    /// Front of the ID.
    pub front: ExportedImage,
    /// Back of the ID.
    pub back: ExportedImage,
    /// Holding the ID, with face.
    pub hand_hold: ExportedImage,
}

/// A bank account or e-wallet.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedBankAccount {
    /// Bank or e-wallet name.
    pub bank_name: String,
    /// Account number, unmasked.
    pub account_no: String,
    /// Holder: the borrower's real name when it was bound (P3).
    pub holder_name: String,
}

/// The questionnaire's answers.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedQuestionnaire {
    /// Job.
    pub job: String,
    /// Monthly income, as answered.
    pub monthly_income: String,
    /// Monthly expenses, as answered.
    pub expenses: String,
    /// Loan purpose.
    pub loan_purpose: String,
    /// Borrowed before.
    pub loan_before: bool,
    /// Has a guarantor.
    pub guarantee: bool,
}

/// A lock (P4).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedLock {
    /// `security` or `compliance`.
    #[schema(value_type = String, example = "compliance")]
    pub kind: LockKind,
    /// The reason shown on the lock screen.
    pub reason: String,
}

/// One order with everything about it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedOrder {
    /// Order id.
    pub order_id: String,
    /// The number shown to people (`HL-2611-000123`).
    pub order_no: Option<String>,
    /// The order as `/jackey/loan/orderInfo` answers it: status, amounts, the signed
    /// disclosure and the repayment schedule (`periodViews`).
    #[schema(value_type = Object)]
    pub detail: Json,
    /// Every change of state, oldest first: `{sequence, at, type, detail, by}`.
    #[schema(value_type = Vec<Object>)]
    pub timeline: Vec<Json>,
    /// Its collection record, oldest first (issue 53): contacts made or refused,
    /// promises, assignments, bucket moves, charge-off, waivers; `actor` by role.
    #[schema(value_type = Vec<Object>)]
    pub collection: Vec<Json>,
    /// Payment pages opened for it.
    pub payment_sessions: Vec<ExportedPaymentSession>,
    /// Official receipts: every payment received and every refund sent back.
    #[schema(value_type = Vec<Object>)]
    pub receipts: Vec<Json>,
    /// Money movements (disbursement, repayments, refunds), oldest first.
    pub transactions: Vec<ExportedTransaction>,
    /// Every download of its PDF documents.
    pub document_downloads: Vec<ExportedDownload>,
}

/// A payment page.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedPaymentSession {
    /// Session id.
    pub session_id: String,
    /// Amount, two decimals.
    pub amount: String,
    /// `open`, `paid` or `failed`.
    pub status: String,
    /// The provider's payment reference, once paid.
    pub payment_ref: Option<String>,
    /// Opened, RFC 3339 UTC.
    pub created_at: String,
    /// Last changed, RFC 3339 UTC.
    pub updated_at: String,
}

/// A money movement.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedTransaction {
    /// Id.
    pub transaction_id: String,
    /// What moved (`disbursement`, `repayment`, `refund`, ...).
    pub kind: String,
    /// Amount, two decimals.
    pub amount: String,
    /// When, RFC 3339 UTC.
    pub at: String,
}

/// A PDF download.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedDownload {
    /// When, RFC 3339 UTC.
    pub at: String,
    /// `user` or `auditor`.
    pub by: String,
    /// `contract`, `receipt` or `statement`.
    pub document: String,
    /// The receipt's number (receipts only).
    pub receipt_no: Option<String>,
}

/// Wallet balances.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedWallet {
    /// Approved loan proceeds not yet paid out.
    pub proceeds: String,
    /// Cash held for the borrower.
    pub cash: String,
    /// Total.
    pub balance: String,
}

/// An in-app notice.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedNotice {
    /// Notice id.
    pub notice_id: String,
    /// The order it is about.
    pub order_id: String,
    /// Installment number.
    pub period: i64,
    /// `due_in_3_days`, `due_in_1_day` or `overdue`.
    pub kind: String,
    /// Amount asked, two decimals.
    pub amount: String,
    /// Due day, `YYYY-MM-DD`.
    pub due_date: String,
    /// Recorded, RFC 3339 UTC.
    pub created_at: String,
    /// Read, RFC 3339 UTC, or null.
    pub read_at: Option<String>,
}

/// A session (login); the token itself is never held, only its hash.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedSession {
    /// Issued, RFC 3339 UTC.
    pub created_at: String,
    /// Expires, RFC 3339 UTC.
    pub expires_at: String,
    /// Revoked (logout, password reset or change, revoked from another session), or null.
    pub revoked_at: Option<String>,
}

/// A text message to the registered phone.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportedSms {
    /// Written, RFC 3339 UTC.
    pub created_at: String,
    /// Handed to the SMS provider, RFC 3339 UTC, or null.
    pub sent_at: Option<String>,
    /// The text, with any verification code's digits masked.
    pub body: String,
}

/// One User event.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountEvent {
    /// Its number in the account's history (from 1).
    pub sequence: usize,
    /// When it was recorded, RFC 3339 UTC.
    pub at: Option<String>,
    /// What happened (`UserRegistered`, `LoginSucceeded`, `BankCardBound`, ...).
    #[serde(rename = "type")]
    pub event_type: String,
    /// `user`, `auditor` or `system`.
    pub by: String,
}

/// One export of this data.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportRecord {
    /// When, RFC 3339 UTC.
    pub at: String,
    /// `user` or `auditor`.
    pub by: String,
}

/// One recorded export, as auditors list them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportLogEntry {
    /// When, RFC 3339 UTC.
    pub at: String,
    /// `user:<id>` or `auditor:<id>`.
    pub actor: String,
    /// The auditor's username (auditor exports).
    pub actor_name: Option<String>,
    /// The request's id (`x-request-id`).
    pub request_id: String,
}

/// What the export leaves out, said in the document itself.
const NOT_INCLUDED: [&str; 3] = [
    "password and withdraw PIN: held only as one-way hashes, which are never given out",
    "session tokens and SMS verification codes: secrets; sessions are listed by their times, codes masked",
    "auditors' internal review notes and identities: staff records; who acted is given by role",
];

/// Everything held about `user_id`, recorded as exported by `actor` (`user:<id>` or
/// `auditor:<id>`) before it is answered, so none leaves unrecorded. Errors: 40007
/// when no such borrower exists (nothing is recorded then).
pub async fn export_recorded(
    state: &AppState,
    user_id: Uuid,
    actor: &str,
) -> Result<DataExport, ApiError> {
    let export = export(state, user_id).await?.ok_or_else(unknown_user)?;
    record(state, actor, user_id).await?;
    Ok(export)
}

/// Everything held about `user_id`, or `None` when no such borrower exists.
async fn export(state: &AppState, user_id: Uuid) -> Result<Option<DataExport>, ApiError> {
    // On the primary, never a replica: the export is recorded there, and it must
    // hold everything, including what was written a moment ago.
    let Some(rows) = reads::export::rows(&state.database, &user_id.to_string()).await? else {
        return Ok(None);
    };
    let user: User = serde_json::from_str(&rows.state)?;
    let account_history = account_history(state, user_id).await?;
    let lender = &state.config.lender;
    Ok(Some(DataExport {
        format_version: FORMAT_VERSION,
        exported_at: time_text(state.now()),
        controller: Controller {
            legal_name: lender.legal_name.clone(),
            registration_no: lender.registration_no.clone(),
            licence_no: lender.licence_no.clone(),
        },
        user: exported_user(&user, &rows),
        orders: exported_orders(&rows)?,
        wallet: rows
            .wallet
            .clone()
            .map(|(proceeds, cash, balance)| ExportedWallet {
                proceeds,
                cash,
                balance,
            }),
        notices: exported_notices(&rows),
        sessions: rows
            .sessions
            .iter()
            .cloned()
            .map(|(created_at, expires_at, revoked_at)| ExportedSession {
                created_at,
                expires_at,
                revoked_at,
            })
            .collect(),
        sms_messages: exported_sms(&rows),
        account_history,
        exports: rows
            .exports
            .iter()
            .map(|(at, actor)| ExportRecord {
                at: at.clone(),
                by: role(actor),
            })
            .collect(),
        not_included: NOT_INCLUDED.iter().map(|s| s.to_string()).collect(),
    }))
}

/// The account's history from the event log itself (typed, upcast): each event's
/// number, time, type and the role that caused it.
async fn account_history(state: &AppState, user_id: Uuid) -> Result<Vec<AccountEvent>, ApiError> {
    let events =
        projections::store::load_events::<User>(&state.database, &user_id.to_string()).await?;
    Ok(events
        .into_iter()
        .map(|envelope| AccountEvent {
            sequence: envelope.sequence,
            at: envelope.metadata.get(RECORDED_AT).cloned(),
            event_type: cqrs_es::DomainEvent::event_type(&envelope.payload),
            by: role(
                envelope
                    .metadata
                    .get("actor")
                    .map_or("system", String::as_str),
            ),
        })
        .collect())
}

/// The in-app notices with their read marks.
fn exported_notices(rows: &Rows) -> Vec<ExportedNotice> {
    rows.notices
        .iter()
        .cloned()
        .map(
            |(notice_id, order_id, period, kind, amount, due_date, created_at, read_at)| {
                ExportedNotice {
                    notice_id,
                    order_id,
                    period,
                    kind,
                    amount,
                    due_date,
                    created_at,
                    read_at,
                }
            },
        )
        .collect()
}

/// The texts sent to the phone, with verification codes masked.
fn exported_sms(rows: &Rows) -> Vec<ExportedSms> {
    rows.sms
        .iter()
        .map(|(created_at, sent_at, body)| ExportedSms {
            created_at: created_at.clone(),
            sent_at: sent_at.clone(),
            body: without_codes(body),
        })
        .collect()
}

/// `user`, `auditor` or `system` of an actor (`auditor:<id>`, ...).
fn role(actor: &str) -> String {
    actor.split(':').next().unwrap_or("system").to_string()
}

/// The text with the digits of a verification code masked: every run of six or
/// more digits (`sms::code_text` writes the code as six digits in each language;
/// amounts are grouped and dates short, so nothing else is that long).
fn without_codes(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if run.len() >= 6 {
            out.push_str(&"•".repeat(run.len()));
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in body.chars() {
        if c.is_ascii_digit() {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

fn image(image: &aggregates::types::ImageRef) -> ExportedImage {
    ExportedImage {
        key: image.key.clone(),
        url: format!("/files/{}", image.key),
        sha256: image.sha256.clone(),
    }
}

fn exported_user(user: &User, rows: &Rows) -> ExportedUser {
    let f = &user.profile.fields;
    ExportedUser {
        user_id: user.id.map(|id| id.to_string()).unwrap_or_default(),
        mobile: rows.mobile.clone(),
        registered_at: rows.registered_at.clone(),
        invite_code: user.invite_code.clone(),
        channel: user.channel.clone(),
        privacy_notice: user.privacy_consent.as_ref().map(|c| ExportedConsent {
            version: c.version.clone(),
            accepted_at: time_text(c.accepted_at),
            language: c.language.clone(),
        }),
        real_name: f.real_name.clone(),
        identity: f.identity.clone(),
        sex: f.sex,
        birthday: f.birthday.map(|d| d.format("%Y-%m-%d").to_string()),
        marriage: f.marriage.clone(),
        email: f.email.clone(),
        facebook: f.facebook.clone(),
        education: f.education.clone(),
        province_city: f.province_city.clone(),
        address: f.address.clone(),
        identity_status: user.identity.code(),
        identity_reject_reason: user.identity_rejection.clone(),
        id_images: user.id_images.as_ref().map(|[front, back, hand]| IdImages {
            front: image(front),
            back: image(back),
            hand_hold: image(hand),
        }),
        signature: user.signature.as_ref().map(image),
        bank_account: user.bank_account.as_ref().map(|a| ExportedBankAccount {
            bank_name: a.bank_name.clone(),
            account_no: a.account_no.clone(),
            holder_name: a.holder_name.clone(),
        }),
        emergency_contacts: user.contacts.clone(),
        questionnaire: user.questionnaire.as_ref().map(|q| ExportedQuestionnaire {
            job: q.job.clone(),
            monthly_income: q.monthly_income.clone(),
            expenses: q.expenses.clone(),
            loan_purpose: q.loan_purpose.clone(),
            loan_before: q.loan_before,
            guarantee: q.guarantee,
        }),
        has_withdraw_pin: user.pin_hash.is_some(),
        lock: user.lock().map(|(kind, reason)| ExportedLock {
            kind,
            reason: reason.to_string(),
        }),
    }
}

/// The collection record of `order_id`, who acted by role (an officer's identity is
/// not the borrower's data).
fn exported_collection(rows: &Rows, order_id: &str) -> Result<Vec<Json>, ApiError> {
    rows.collection
        .iter()
        .filter(|(id, _)| id == order_id)
        .map(|(_, doc)| {
            let mut doc = serde_json::from_str::<Json>(doc).map_err(ApiError::internal)?;
            let actor = doc["actor"].as_str().map(role).unwrap_or_default();
            doc["actor"] = Json::String(actor);
            if let Some(collector) = doc.get_mut("collector").filter(|c| c != &"") {
                *collector = Json::String("auditor".to_string());
            }
            Ok(doc)
        })
        .collect()
}

fn exported_orders(rows: &Rows) -> Result<Vec<ExportedOrder>, ApiError> {
    let parse = |doc: &str| serde_json::from_str::<Json>(doc).map_err(ApiError::internal);
    rows.orders
        .iter()
        .map(|(order_id, doc, order_no)| {
            let mine = |id: &String| id == order_id;
            Ok(ExportedOrder {
                order_id: order_id.clone(),
                order_no: order_no.clone().filter(|no| !no.is_empty()),
                detail: parse(doc)?,
                timeline: rows
                    .timeline
                    .iter()
                    .filter(|row| mine(&row.0))
                    .map(|(_, _, _, _, actor, doc)| {
                        let mut doc = parse(doc)?;
                        doc["by"] = Json::String(role(actor));
                        Ok(doc)
                    })
                    .collect::<Result<_, ApiError>>()?,
                collection: exported_collection(rows, order_id)?,
                payment_sessions: rows
                    .payment_sessions
                    .iter()
                    .filter(|row| mine(&row.1))
                    .map(
                        |(session_id, _, amount, status, payment_ref, created_at, updated_at)| {
                            ExportedPaymentSession {
                                session_id: session_id.clone(),
                                amount: amount.clone(),
                                status: status.clone(),
                                payment_ref: payment_ref.clone(),
                                created_at: created_at.clone(),
                                updated_at: updated_at.clone(),
                            }
                        },
                    )
                    .collect(),
                receipts: rows
                    .receipts
                    .iter()
                    .filter(|row| mine(&row.0))
                    .map(|(_, doc)| parse(doc))
                    .collect::<Result<_, ApiError>>()?,
                transactions: rows
                    .transactions
                    .iter()
                    .filter(|row| mine(&row.1))
                    .map(
                        |(transaction_id, _, kind, amount, at)| ExportedTransaction {
                            transaction_id: transaction_id.clone(),
                            kind: kind.clone(),
                            amount: amount.clone(),
                            at: at.clone(),
                        },
                    )
                    .collect(),
                document_downloads: rows
                    .downloads
                    .iter()
                    .filter(|row| mine(&row.0))
                    .map(|(_, at, actor, document, receipt_no)| ExportedDownload {
                        at: at.clone(),
                        by: role(actor),
                        document: document.clone(),
                        receipt_no: Some(receipt_no.clone()).filter(|no| !no.is_empty()),
                    })
                    .collect(),
            })
        })
        .collect()
}

/// Records an export of `user_id`'s data by `actor` (`user:<id>` or `auditor:<id>`),
/// before it is sent, with the time and the request id. Never updated or deleted.
async fn record(state: &AppState, actor: &str, user_id: Uuid) -> Result<(), ApiError> {
    let request_id = crate::http::middleware::request_id::current();
    crate::db::data_exports::insert(&state.database, actor, user_id, state.now(), &request_id)
        .await?;
    tracing::info!(actor, user_id = %user_id, "personal data exported");
    Ok(())
}

/// The recorded exports of `user_id`'s data, oldest first, with auditors' names.
pub async fn exports_of(state: &AppState, user_id: Uuid) -> Result<Vec<ExportLogEntry>, ApiError> {
    let rows = reads::export::exports(&state.database, &user_id.to_string()).await?;
    let names = reads::admin::auditor_names(&state.database).await?;
    Ok(rows
        .into_iter()
        .map(|(at, actor, request_id)| ExportLogEntry {
            actor_name: actor
                .strip_prefix("auditor:")
                .and_then(|id| names.get(id))
                .cloned(),
            at,
            actor,
            request_id,
        })
        .collect())
}

/// 40007 for a user id that names no borrower (or is no UUID).
pub fn unknown_user() -> ApiError {
    ApiError::new(ErrorCode::RecordNotFound, "record not found: user")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verification_codes_are_masked_and_other_texts_kept() {
        assert_eq!(
            without_codes("Your verification code is 042917. It is valid for 5 minutes."),
            "Your verification code is ••••••. It is valid for 5 minutes."
        );
        let reminder = "Honest Lending: installment 2 of PHP 5,060.00 is due on 2026-11-26.";
        assert_eq!(without_codes(reminder), reminder);
        // In every language the code is written in (issue 52).
        for lang in [
            crate::documents::Lang::En,
            crate::documents::Lang::Zh,
            crate::documents::Lang::Fil,
        ] {
            let text = crate::accounts::sms::code_text(lang, "042917");
            let masked = without_codes(&text);
            assert!(
                !masked.contains("042917") && masked.contains("••••••"),
                "{masked}"
            );
            assert!(masked.contains('5'), "the 5 minutes are kept: {masked}");
        }
    }
}
