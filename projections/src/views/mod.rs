//! The read side's answers as types (issue 51): every document a read model stores
//! and every answer shaped from its rows, `#[derive(Serialize, ToSchema)]`, so the
//! OpenAPI document describes them and the web app uses the generated types.
//!
//! Stored documents are compared and hashed byte for byte (`replay-tool verify`, the
//! rebuild tests). They were written from `json!` objects, whose keys serde_json
//! sorts; a struct writes its fields in declaration order. So the fields of every
//! stored type here are declared in the byte order of their JSON names, and a field
//! that was written as `null` is still written (no `skip_serializing_if`), one that
//! was left out is still left out.
//!
//! Conventions of every field: money is a decimal string with two places
//! (`"5000.00"`); times are RFC 3339 UTC (`2026-11-02T08:00:00.000000Z`); days are
//! `YYYY-MM-DD`.

pub mod catalogue;
pub mod collections;
pub mod console;
pub mod order;
pub mod user;

pub use catalogue::{PeriodConfigView, ProductView, RateConfigView};
pub use order::{
    plan_lines, Installment, LoanProgress, OrderDoc, OrderSummary, PlanLine, PlanOffer,
    TimelineDetail, TimelineEntry, TimelineEvent,
};
pub use user::{AccountLock, IdImageUrls, PrivacyNotice, QualificationView, UserDoc, UserInfo};

/// Writes a value of the domain (a [`aggregates::pricing::Disclosure`]) with its
/// object keys sorted, as `json!` wrote it inside a stored document: the domain's
/// types keep their own field order, which the events' encoding fixes.
pub(crate) fn sorted<T: serde::Serialize, S: serde::Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::Error as _;
    serde::Serialize::serialize(
        &serde_json::to_value(value).map_err(S::Error::custom)?,
        serializer,
    )
}
