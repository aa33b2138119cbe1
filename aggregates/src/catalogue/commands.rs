//! What staff ask of a line.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::Setting;

/// A command to a [`super::ChangeLine`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "S: Setting")]
pub enum ChangeCommand<S> {
    /// The maker proposes `value` (of the line's key) to take effect at
    /// `effective_at`, for `reason` (1–500 characters). Refused: a cap it breaks (50007),
    /// a value that is not one to offer, a moment in the past, no reason, another
    /// line's key (10004).
    ProposeChange {
        /// A new id naming the proposal (UUID v7).
        proposal_id: Uuid,
        /// The value as it would be.
        value: Box<S>,
        /// When it would take effect (UTC); `None`: now, as the line's clock reads it
        /// (in force as soon as approved).
        effective_at: Option<DateTime<Utc>>,
        /// Who proposes it.
        maker: Uuid,
        /// Why.
        reason: String,
    },
    /// The checker approves the proposal. Refused: its maker, or a checker whose
    /// account the maker stands behind (50006); an unknown or rejected proposal (10004).
    ApproveChange {
        /// The proposal.
        proposal_id: Uuid,
        /// Who approves it.
        checker: Uuid,
        /// The staff members who stand behind the checker's account (who created it,
        /// gave it roles, reset or enabled it, and so on up): any of them may have held
        /// its setup link, so none is a second pair of eyes with it.
        #[serde(default)]
        checker_vouchers: Vec<Uuid>,
    },
    /// The checker rejects the proposal, for `reason`. Refused: an unknown or approved
    /// proposal, no reason (10004).
    RejectChange {
        /// The proposal.
        proposal_id: Uuid,
        /// Who rejects it.
        checker: Uuid,
        /// Why (1–500 characters), shown to the maker.
        reason: String,
    },
}
