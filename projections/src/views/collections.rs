//! The collections workbench's answers (issue 53): the queue of late loans and one
//! loan's collection record. `CollectionEntry` is also what `collection_log.doc`
//! stores (fields in the order that keeps the stored JSON stable).
//!
//! Money is a decimal string with two places; times RFC 3339 UTC; days YYYY-MM-DD.

use aggregates::collections::{ContactBreach, ContactChannel, ContactOutcome, ContactPerson};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One event of a loan's collection record: a contact, a refused contact, an
/// assignment, a promise to pay and its outcome, the borrower's choice of hours, a
/// bucket move. Each kind carries only its own fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CollectionEntry {
    /// When, RFC 3339 UTC.
    pub at: String,
    /// `ContactLogged`, `ContactRefused`, `CollectorAssigned`, `PromiseMade`,
    /// `PromiseSettled`, `ContactHoursChosen`, `DelinquencyChanged`,
    /// `ChargeOffProposed`, `LoanChargedOff`, `RecoveryReceived`,
    /// `ChargeOffReversalProposed`, `ChargeOffReversed`.
    pub event_type: String,
    /// `auditor:<id>`, `user:<id>` or `system`.
    pub actor: String,
    /// ContactLogged, ContactRefused: how.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub channel: Option<ContactChannel>,
    /// ContactLogged, ContactRefused: with whom.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub person: Option<ContactPerson>,
    /// ContactLogged: what came of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub outcome: Option<ContactOutcome>,
    /// ContactLogged: the officer's note; ChargeOffProposed, LoanChargedOff,
    /// ChargeOffReversalProposed: the reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub note: Option<String>,
    /// ContactRefused: the rule it broke (P15).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub breach: Option<ContactBreach>,
    /// ContactLogged, ContactRefused, DelinquencyChanged: days past due then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub days_past_due: Option<u32>,
    /// DelinquencyChanged: the new bucket.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub bucket: Option<String>,
    /// PromiseMade: promised; PromiseSettled: paid towards it; LoanChargedOff: written
    /// off; RecoveryReceived: recovered; ChargeOffReversed: restored. Money.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub amount: Option<String>,
    /// PromiseMade: the promised day; ContactLogged: the next action's day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub date: Option<String>,
    /// PromiseSettled: kept or broken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub kept: Option<bool>,
    /// CollectorAssigned: the collector's id, empty when unassigned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub collector: Option<String>,
    /// ContactHoursChosen: any hour suits the borrower.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub any_hours: Option<bool>,
}

/// `/admin/api/collections/queue`: late loans, most days past due first.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CollectionQueue {
    /// The configured buckets, current first (the filter's choices).
    pub buckets: Vec<String>,
    /// The loans under the filter.
    pub loans: Vec<CollectionQueueItem>,
}

/// One late loan of the collections queue.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CollectionQueueItem {
    /// The order id.
    pub order_id: String,
    /// The number people see.
    pub order_no: String,
    /// The borrower's name as applied.
    pub borrower_name: String,
    /// Days past due today.
    pub days_past_due: u32,
    /// Its bucket today.
    pub bucket: String,
    /// Unpaid of the installments marked overdue. Money.
    pub overdue_amount: String,
    /// Everything still owed under the schedule. Money.
    pub outstanding: String,
    /// The assigned collector's id, empty when none.
    pub collector: String,
    /// The last contact, RFC 3339 UTC; empty when none.
    pub last_contact_at: String,
    /// What came of it, empty when none.
    pub last_outcome: String,
    /// The open promise's amount, empty when none.
    pub promise_amount: String,
    /// The open promise's day, empty when none.
    pub promise_date: String,
    /// The next action's day, empty when none.
    pub next_action_on: String,
}

/// `/admin/api/collections/record`: one loan's collection record, oldest first.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CollectionRecord {
    /// The order id.
    pub order_id: String,
    /// Days past due today.
    pub days_past_due: u32,
    /// Its bucket today.
    pub bucket: String,
    /// The borrower chose to be contacted at any hour.
    pub any_hours: bool,
    /// Off the books (charged off and not reversed).
    pub charged_off: bool,
    /// The days past due from which the loan may be charged off (configuration).
    pub charge_off_after_days: u32,
    /// Waivers above this need a second officer (configuration): money.
    pub waiver_four_eyes_above: String,
    /// The lender's collection texts an officer may send (P15): id and English text.
    pub templates: Vec<TemplateView>,
    /// Who may be contacted about the debt (P15): the borrower, and a guarantor only
    /// when one was named; the contact form offers only these.
    pub persons: Vec<aggregates::collections::ContactPerson>,
    /// Overdue fees unpaid (the most a payment plan may waive): money.
    pub fees_unpaid: String,
    /// The borrower asked for a payment plan and none was signed since.
    pub plan_requested: bool,
    /// The payment plan proposed and not yet signed; null when none.
    #[schema(required = true)]
    pub plan: Option<PlanView>,
    /// Everything recorded.
    pub entries: Vec<CollectionEntry>,
}

/// A payment plan proposed and not yet signed ([`CollectionRecord::plan`]).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanView {
    /// The officer who proposed it.
    pub proposed_by: String,
    /// The officer who approved it; null until a second officer does.
    #[schema(required = true)]
    pub approved_by: Option<String>,
    /// Overdue fees it waives: money.
    pub fees_waived: String,
    /// Its installments.
    pub installments: Vec<crate::views::PlanLine>,
    /// What the borrower owes under it: money.
    pub total: String,
    /// Why, in the proposer's words.
    pub reason: String,
}

/// `/admin/api/collections/book`: the loans on the books as of a moment, by bucket,
/// beside the ledger's receivable of that moment (issue 53, P20).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BookAsOf {
    /// The moment, RFC 3339 UTC.
    pub as_of: String,
    /// Every bucket, current first, with its loans and what they owed.
    pub buckets: Vec<BucketLine>,
    /// What the loans on the books owed in all: money.
    pub outstanding: String,
    /// The ledger's `loan_receivable` balance at that moment: money; equal to
    /// `outstanding` when the books agree.
    pub receivable: String,
    /// Loans charged off by then (owed, off the books).
    pub charged_off_loans: u32,
    /// What they owed: money.
    pub charged_off_outstanding: String,
}

/// One delinquency bucket of [`BookAsOf`].
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BucketLine {
    /// `current`, `1-30`, …
    pub bucket: String,
    /// Loans in it.
    pub loans: u32,
    /// What they owed: money.
    pub outstanding: String,
}

/// One of the lender's collection texts (configuration).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemplateView {
    /// The id an SMS contact names.
    pub id: String,
    /// The English text, with `{lender}` and `{amount}` filled in when sent.
    pub text: String,
}
