//! The auditor console's answers (PRODUCT.md 6 and 7): the review queue, an order
//! with its applicant, an order's replayed history, a borrower, the journal and the
//! trial balance. Built by `api/src/routes/admin/` from the read models' rows and,
//! where a rule needs the write side's own state, from the aggregates.
//!
//! Answers only (nothing here is stored), so fields are in reading order. Money is a
//! decimal string with two places; times are RFC 3339 UTC; actors are `user:<id>`,
//! `auditor:<id>` or `system`.

use aggregates::order::{RefusalReason, ReviewStage};
use aggregates::pricing::Disclosure;
use aggregates::types::{ImageRef, ResubmissionItem};
use aggregates::user::{EmergencyContact, Questionnaire};
use serde::Serialize;
use serde_json::Value as Json;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{AccountLock, OrderDoc, OrderSummary, TimelineEntry, UserDoc, UserInfo};

/// `/admin/api/orders/queue`: a page of the review queue, oldest first.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueuePage {
    /// Orders under the filter, on every page.
    pub total: i64,
    /// This page, from 1.
    pub page: i64,
    /// At most this many orders a page.
    pub page_size: i64,
    /// This page's orders.
    pub orders: Vec<QueueItem>,
}

/// One order of the review queue with its applicant.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueItem {
    /// The order id.
    pub order_id: String,
    /// What people see (PRODUCT.md 12.5), e.g. `HL-2611-000123`.
    pub order_no: String,
    /// The status code (PRODUCT.md 4.3).
    pub status: i64,
    /// The amount applied for: money.
    pub apply_amount: String,
    /// The loan's period in days.
    pub period_days: i64,
    /// The product's name.
    pub product_name: String,
    /// When the borrower applied: RFC 3339 UTC.
    pub apply_time: String,
    /// When the order last changed (its age in the current status): RFC 3339 UTC.
    pub updated_at: String,
    /// Who applied.
    pub applicant: QueueApplicant,
}

/// The applicant of a queued order.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueApplicant {
    /// The borrower's user id.
    pub user_id: String,
    /// The name given at application.
    pub real_name: String,
    /// The registered phone number; null when the users read model has no row yet.
    #[schema(required = true)]
    pub mobile: Option<String>,
    /// 0 none, 1 submitted, 2 verified, 3 rejected (PRODUCT.md 4.1); null as `mobile`.
    #[schema(required = true)]
    pub identity_status: Option<i64>,
}

/// A stored image as the console links it: served to auditors by `GET {url}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImageLink {
    /// The object-store key.
    pub key: String,
    /// `/files/{key}`.
    pub url: String,
    /// Lower-case hex SHA-256 of the stored bytes.
    pub sha256: String,
}

impl ImageLink {
    /// The link to `image`.
    pub fn to(image: &ImageRef) -> Self {
        Self {
            key: image.key.clone(),
            url: format!("/files/{}", image.key),
            sha256: image.sha256.clone(),
        }
    }
}

/// The three ID photos.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IdImageLinks {
    /// Front of the ID card.
    pub front: ImageLink,
    /// Back of the ID card.
    pub back: ImageLink,
    /// The borrower holding the card.
    pub hand_hold: ImageLink,
}

impl IdImageLinks {
    /// The links to `[front, back, hand_hold]`.
    pub fn to([front, back, hand_hold]: &[ImageRef; 3]) -> Self {
        Self {
            front: ImageLink::to(front),
            back: ImageLink::to(back),
            hand_hold: ImageLink::to(hand_hold),
        }
    }
}

/// `/admin/api/orders/detail`: an order, its review, its applicant and its timeline.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderReview {
    /// The order document (PRODUCT.md 10).
    pub order: OrderDoc,
    /// The review's facts, from the Order aggregate's state.
    pub review: Review,
    /// The applicant's document; null when the users read model has none yet.
    #[schema(required = true)]
    pub applicant: Option<UserDoc>,
    /// 0 none, 1 submitted, 2 verified, 3 rejected (PRODUCT.md 4.1); null as `applicant`.
    #[schema(required = true)]
    pub identity_status: Option<i64>,
    /// The ID photos; null when none were submitted.
    #[schema(required = true)]
    pub images: Option<IdImageLinks>,
    /// The questionnaire's answers; null before they are given.
    #[schema(required = true)]
    pub questionnaire: Option<Questionnaire>,
    /// The emergency contacts; null as `applicant`.
    #[schema(required = true)]
    pub contacts: Option<Vec<EmergencyContact>>,
    /// What the borrower signed at application (P5).
    #[schema(required = true)]
    pub disclosure: Option<Disclosure>,
    /// The same terms on the amount paid out (P10); null until paid out.
    #[schema(required = true)]
    pub loan_disclosure: Option<Disclosure>,
    /// The signature given at application.
    #[schema(required = true)]
    pub signature: Option<ImageLink>,
    /// Every event of the order, oldest first, with who caused it.
    pub timeline: Vec<ConsoleTimelineEntry>,
}

/// The review facts of an order.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Review {
    /// The status code (PRODUCT.md 4.3).
    pub status: u8,
    /// The auditor who passed the first review.
    #[schema(required = true)]
    pub first_auditor: Option<Uuid>,
    /// The auditor who passed the final review (never the first: four eyes).
    #[schema(required = true)]
    pub final_auditor: Option<Uuid>,
    /// Why and where the order was refused; null unless it was.
    #[schema(required = true)]
    pub refusal: Option<RefusalView>,
    /// Why a resubmission was asked for; null when none is pending.
    #[schema(required = true)]
    pub resubmission_reason: Option<String>,
    /// What the pending request asks to fix (PRODUCT.md 12.4); empty when none.
    pub resubmission_items: Vec<ResubmissionItem>,
    /// The last resubmission: what was asked and what of it the borrower changed
    /// (issue 52); null before any.
    #[schema(required = true)]
    pub last_resubmission: Option<ResubmissionView>,
    /// The amount approved: money.
    pub approved_amount: String,
    /// When an approved offer lapses unless accepted: RFC 3339 UTC.
    #[schema(required = true)]
    pub offer_expires_at: Option<String>,
    /// The terms' version the borrower accepted.
    pub terms_version: String,
}

/// A resubmission as the next review sees it (PRODUCT.md 12.4, issue 52).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResubmissionView {
    /// What the officer asked to fix.
    pub asked: Vec<ResubmissionItem>,
    /// What of it the borrower changed (the items asked for and not listed here were
    /// not changed).
    pub fixed: Vec<ResubmissionItem>,
    /// When the borrower resubmitted: RFC 3339 UTC.
    pub at: String,
}

/// A refusal (P8).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefusalView {
    /// Which review refused.
    pub stage: ReviewStage,
    /// The officer's note, shown to the borrower as typed.
    pub reason: String,
    /// The coded reasons, shown in the borrower's language.
    pub reasons: Vec<RefusalReason>,
    /// Who refused.
    pub auditor_id: Uuid,
}

/// One event of the order detail's timeline, with the raw actor.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConsoleTimelineEntry {
    /// The entry as the borrower's timeline stores it.
    #[serde(flatten)]
    pub entry: TimelineEntry,
    /// `user:<id>`, `auditor:<id>` or `system`.
    pub actor: String,
}

/// `/admin/api/orders/history`: every event of an order and the aggregate's own fold
/// as of `atSequence` (the same fold as `replay-tool history`). Account numbers are
/// masked to their last four digits throughout.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderHistory {
    /// The order id.
    pub order_id: String,
    /// Every event, oldest first.
    pub events: Vec<HistoryEvent>,
    /// The event the state is folded to (from 1; the last one at most).
    pub at_sequence: usize,
    /// The status code (PRODUCT.md 4.3) as of `atSequence`.
    pub status: u8,
    /// The Order aggregate's state as of `atSequence`.
    #[schema(value_type = Object)]
    pub state: Json,
}

/// One stored event of an aggregate, as the console lists it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEvent {
    /// Its number within the aggregate, from 1.
    pub sequence: usize,
    /// When it was committed: RFC 3339 UTC; null when not recorded.
    #[schema(required = true)]
    pub time: Option<String>,
    /// `user:<id>`, `auditor:<id>` or `system`.
    pub actor: String,
    /// The auditor's username when the actor is an auditor.
    #[schema(required = true)]
    pub actor_name: Option<String>,
    /// The event's name, e.g. `PayoutSucceeded`, `IdentityVerified`.
    #[serde(rename = "type")]
    pub event_type: String,
    /// The stored event: `{ <Type>: {...fields} }`.
    #[schema(value_type = Object)]
    pub payload: Json,
}

/// `/admin/api/users/detail`: a borrower as the console sees them.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserDetail {
    /// The borrower's document (as `/user/info` answers it).
    pub profile: UserInfo,
    /// The identity check.
    pub identity: IdentityReview,
    /// The lock on the account; null when none.
    #[schema(required = true)]
    pub lock: Option<AccountLock>,
    /// The emergency contacts.
    pub contacts: Vec<EmergencyContact>,
    /// Every order of the borrower, newest first.
    pub orders: Vec<OrderSummary>,
    /// What auditors did to the account (identity decisions, holds), oldest first.
    pub auditor_actions: Vec<HistoryEvent>,
}

/// A borrower's identity check.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IdentityReview {
    /// 0 none, 1 submitted, 2 verified, 3 rejected (PRODUCT.md 4.1).
    pub status: u8,
    /// Why the photos were rejected; null unless they were.
    #[schema(required = true)]
    pub reject_reason: Option<String>,
    /// The ID photos; null when none were submitted.
    #[schema(required = true)]
    pub images: Option<IdImageLinks>,
}

/// Who a ledger account belongs to, as the console names it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LedgerAccount {
    /// The journal's name (`borrower_wallet:<user id>`), kept for filtering.
    pub account: String,
    /// The name without its id: `lender_cash`, `loan_receivable`, `borrower_wallet`, ...
    pub kind: String,
    /// The order number behind a wallet or receivable; null for the lender's accounts.
    #[schema(required = true)]
    pub order_no: Option<String>,
    /// The applicant behind a wallet or receivable; null for the lender's accounts.
    #[schema(required = true)]
    pub holder: Option<String>,
}

impl LedgerAccount {
    /// `account` with its holder; empty names count as unknown.
    pub fn new(account: &str, order_no: Option<&str>, holder: Option<&str>) -> Self {
        let known = |text: Option<&str>| text.filter(|t| !t.is_empty()).map(str::to_string);
        Self {
            account: account.to_string(),
            kind: account
                .split_once(':')
                .map_or(account, |(kind, _)| kind)
                .to_string(),
            order_no: known(order_no),
            holder: known(holder),
        }
    }
}

/// `/admin/api/ledger/journal`: a page of journal entries, oldest first.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JournalPage {
    /// Entries under the filter, on every page.
    pub total: i64,
    /// This page, from 1.
    pub page: i64,
    /// At most this many entries a page.
    pub page_size: i64,
    /// This page's entries, each with every posting.
    pub entries: Vec<JournalEntryView>,
}

/// One journal entry.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JournalEntryView {
    /// `<aggregate type>/<id>/<sequence>` of the event that caused it.
    pub entry_id: String,
    /// When: RFC 3339 UTC.
    pub at: String,
    /// The order it concerns.
    pub order_id: String,
    /// That order's number, when the queue has it.
    #[schema(required = true)]
    pub order_no: Option<String>,
    /// What the entry records (`payout_sent`, `repayment`, ...); null when unknown.
    #[schema(required = true)]
    pub code: Option<String>,
    /// The same in English, as stored.
    pub description: String,
    /// Its postings (they sum to zero).
    pub postings: Vec<PostingView>,
}

/// One posting of a journal entry.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostingView {
    /// From 1 within the entry.
    pub posting_no: i64,
    /// The account.
    #[serde(flatten)]
    pub account: LedgerAccount,
    /// Money: debits positive, credits negative.
    pub amount: String,
}

/// `/admin/api/ledger/trialBalance`: the balances sum to zero when the books balance.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrialBalance {
    /// Every account, by name.
    pub accounts: Vec<AccountBalance>,
    /// The sum of every balance: money, `0.00` when balanced.
    pub sum: String,
    /// The sum is zero.
    pub balanced: bool,
}

/// One account of the trial balance.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountBalance {
    /// The account.
    #[serde(flatten)]
    pub account: LedgerAccount,
    /// Money: debit balances positive, credit balances negative.
    pub balance: String,
    /// How many postings it has.
    pub postings: i64,
}
