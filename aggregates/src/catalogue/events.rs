//! What happened to a product line.

use chrono::{DateTime, Utc};
use cqrs_es::DomainEvent;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::pricing::Product;

/// An event of a [`super::ProductLine`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProductEvent {
    /// A change was proposed and fits the compliance profile.
    ProductChangeProposed {
        /// The proposal.
        proposal_id: Uuid,
        /// The product as it would be.
        product: Box<Product>,
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
    ProductChangeApproved {
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
    ProductChangeRejected {
        /// The proposal.
        proposal_id: Uuid,
        /// Who rejected it.
        checker: Uuid,
        /// Why.
        reason: String,
    },
}

impl DomainEvent for ProductEvent {
    fn event_type(&self) -> String {
        let name = match self {
            Self::ProductChangeProposed { .. } => "ProductChangeProposed",
            Self::ProductChangeApproved { .. } => "ProductChangeApproved",
            Self::ProductChangeRejected { .. } => "ProductChangeRejected",
        };
        name.to_string()
    }

    fn event_version(&self) -> String {
        "1.0".to_string()
    }
}
