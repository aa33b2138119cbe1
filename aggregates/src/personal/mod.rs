//! Which values in events are personal data (PRODUCT.md 12.6, RA 10173): the one table
//! the event store seals with the borrower's data key and an erasure makes unreadable
//! (ADR 0012).
//!
//! A field is named by its path in the event's JSON body (the value under the variant
//! name, as serde writes it): `account.account_no`; `*` stands for every element of an
//! array (`contacts.*.mobile`). A path that is absent in an event (an `Option` that is
//! `None`, an older event without the field) is skipped.
//!
//! What is deliberately **not** listed, because it identifies no one: ids (UUIDs),
//! amounts, dates of events, statuses, the bank's name, hashes (of passwords, PINs,
//! images), product and contract versions, the privacy notice version, invite codes
//! and channels, provider payment references, and the free-text reasons auditors type
//! (they are asked to write no personal data there; PRODUCT.md 12.6).

/// What a personal value reads as once its key is erased: something that still
/// deserializes into the field's Rust type, so every event loads and every aggregate
/// still decides (amounts and statuses carry no personal data).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Erased {
    /// A text field reads [`ERASED`].
    Text,
    /// An optional field (a date, a number) reads `null`.
    Null,
}

impl Erased {
    /// The JSON the field reads as once erased.
    pub fn value(self) -> serde_json::Value {
        match self {
            Self::Text => serde_json::Value::from(ERASED),
            Self::Null => serde_json::Value::Null,
        }
    }
}

/// The text an erased personal text field reads as, everywhere.
pub const ERASED: &str = "[erased]";

/// One personal field: its path in the event body and what it reads as once erased.
pub type PersonalField = (&'static str, Erased);

const fn text(path: &'static str) -> PersonalField {
    (path, Erased::Text)
}

const fn optional(path: &'static str) -> PersonalField {
    (path, Erased::Null)
}

/// The fields of a `BankAccount` under `prefix` (the holder's name and the number; the
/// bank's name is not personal).
macro_rules! account {
    ($prefix:literal) => {
        [
            text(concat!($prefix, ".account_no")),
            text(concat!($prefix, ".holder_name")),
        ]
    };
}

const USER_REGISTERED: &[PersonalField] = &[text("mobile")];
const IDENTITY_SUBMITTED: &[PersonalField] =
    &[text("front.key"), text("back.key"), text("hand_hold.key")];
// Optional text fields read `[erased]` (a field that was never set stays absent);
// the sex (a number) and the birthday (a date) read `null`.
const PROFILE_UPDATED: &[PersonalField] = &[
    text("changes.realName"),
    text("changes.identity"),
    optional("changes.sex"),
    optional("changes.birthday"),
    text("changes.marriage"),
    text("changes.email"),
    text("changes.facebook"),
    text("changes.education"),
    text("changes.provinceCity"),
    text("changes.address"),
];
const QUESTIONNAIRE_ANSWERED: &[PersonalField] = &[
    text("answers.job"),
    text("answers.monthlyIncome"),
    text("answers.expenses"),
    text("answers.loanPurpose"),
];
const EMERGENCY_CONTACTS_UPDATED: &[PersonalField] = &[
    text("contacts.*.name"),
    text("contacts.*.relation"),
    text("contacts.*.mobile"),
];
const ACCOUNT: &[PersonalField] = &account!("account");
const SIGNATURE_UPLOADED: &[PersonalField] = &[text("image.key")];
const APPLICATION_OPENED: &[PersonalField] = &[
    text("application.signature.key"),
    text("application.applicantName"),
    optional("application.monthlyIncome"),
];
const LOAN_APPLIED: &[PersonalField] = &[text("signature.key"), text("applicant_name")];
const TERM_EXTENDED: &[PersonalField] = &[text("signature.key")];

/// Every event type that holds personal fields: (aggregate type, event type, fields).
/// Source: the event definitions in `user/events.rs`, `order/events.rs` and
/// `wallet/events.rs`; the tests in `personal/tests.rs` keep this table and them in step.
pub const PERSONAL_EVENTS: &[(&str, &str, &[PersonalField])] = &[
    ("User", "UserRegistered", USER_REGISTERED),
    ("User", "IdentitySubmitted", IDENTITY_SUBMITTED),
    ("User", "ProfileUpdated", PROFILE_UPDATED),
    ("User", "QuestionnaireAnswered", QUESTIONNAIRE_ANSWERED),
    (
        "User",
        "EmergencyContactsUpdated",
        EMERGENCY_CONTACTS_UPDATED,
    ),
    ("User", "BankCardBound", ACCOUNT),
    ("User", "WithdrawPinVerified", ACCOUNT),
    ("User", "WithdrawalRequested", ACCOUNT),
    ("User", "SignatureUploaded", SIGNATURE_UPLOADED),
    ("User", "ApplicationOpened", APPLICATION_OPENED),
    ("Order", "LoanApplied", LOAN_APPLIED),
    ("Order", "TermExtended", TERM_EXTENDED),
    ("Order", "PayoutRequested", ACCOUNT),
    ("Wallet", "RefundRequested", ACCOUNT),
];

/// The personal fields of one event type of one aggregate type (empty when it has
/// none), from [`PERSONAL_EVENTS`].
pub fn personal_fields(aggregate_type: &str, event_type: &str) -> &'static [PersonalField] {
    PERSONAL_EVENTS
        .iter()
        .find(|(aggregate, event, _)| *aggregate == aggregate_type && *event == event_type)
        .map_or(&[], |(_, _, fields)| fields)
}

/// Whose personal data an event of `aggregate_type` holds: the User's and the Wallet's
/// id is the borrower's id; an Order names its borrower in its first event
/// (`LoanApplied.user_id`), which `first_body` is the body of. `None` when the
/// aggregate type holds no personal data or the first event names no one.
pub fn data_subject(
    aggregate_type: &str,
    aggregate_id: &str,
    first_body: Option<&serde_json::Value>,
) -> Option<String> {
    match aggregate_type {
        "User" | "Wallet" => Some(aggregate_id.to_string()),
        _ if subject_in_first_event(aggregate_type) => first_body
            .and_then(|body| body.get("user_id"))
            .and_then(|id| id.as_str())
            .map(str::to_string),
        _ => None,
    }
}

/// True when [`data_subject`] needs the aggregate's first event to name the subject
/// (an Order's borrower is in `LoanApplied`); false when the id alone does, or the
/// aggregate holds no personal data.
pub fn subject_in_first_event(aggregate_type: &str) -> bool {
    aggregate_type == "Order"
}

/// Calls `visit` with every value at `path` in `body` (a dotted path; `*` is every
/// element of an array). Absent parts and `null`s are skipped, so an optional field
/// that is not set is left alone.
pub fn visit_mut(
    body: &mut serde_json::Value,
    path: &str,
    visit: &mut dyn FnMut(&mut serde_json::Value),
) {
    let (head, rest) = match path.split_once('.') {
        Some((head, rest)) => (head, Some(rest)),
        None => (path, None),
    };
    let mut step = |value: &mut serde_json::Value| match rest {
        Some(rest) => visit_mut(value, rest, visit),
        None if !value.is_null() => visit(value),
        None => {}
    };
    if head == "*" {
        if let Some(items) = body.as_array_mut() {
            items.iter_mut().for_each(&mut step);
        }
    } else if let Some(value) = body.get_mut(head) {
        step(value);
    }
}

#[cfg(test)]
mod tests;
