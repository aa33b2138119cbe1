//! What happened to a line.

use chrono::{DateTime, Utc};
use cqrs_es::DomainEvent;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::Setting;

/// An event of a [`super::ChangeLine`] (which line: the aggregate type,
/// [`Setting::LINE`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "S: Setting")]
pub enum ChangeEvent<S> {
    /// A change was proposed and fits the compliance profile.
    ChangeProposed {
        /// The proposal.
        proposal_id: Uuid,
        /// The value as it would be.
        value: Box<S>,
        /// When it would take effect.
        effective_at: DateTime<Utc>,
        /// The number of versions approved when it was proposed: it is approved only
        /// while no newer version came in between.
        base_version: u32,
        /// Who proposed it.
        maker: Uuid,
        /// Why.
        reason: String,
    },
    /// A second staff member approved it: version `version` is in force from
    /// `effective_at` (the proposal's moment, or the approval's when later).
    ChangeApproved {
        /// The proposal.
        proposal_id: Uuid,
        /// The version it became (1, 2, …).
        version: u32,
        /// Who approved it.
        checker: Uuid,
        /// When it takes effect.
        effective_at: DateTime<Utc>,
    },
    /// The proposal was rejected.
    ChangeRejected {
        /// The proposal.
        proposal_id: Uuid,
        /// Who rejected it.
        checker: Uuid,
        /// Why.
        reason: String,
    },
}

impl<S: Setting> DomainEvent for ChangeEvent<S> {
    fn event_type(&self) -> String {
        let name = match self {
            Self::ChangeProposed { .. } => "ChangeProposed",
            Self::ChangeApproved { .. } => "ChangeApproved",
            Self::ChangeRejected { .. } => "ChangeRejected",
        };
        name.to_string()
    }

    fn event_version(&self) -> String {
        "1.0".to_string()
    }
}
