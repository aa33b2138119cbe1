//! Order status and its wire numbers (PRODUCT.md 4.3).

use serde::{Deserialize, Serialize};

/// Where an order stands. `code()` is the number the client's logic reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OrderStatus {
    /// 0: submitted, waiting for review.
    #[default]
    Submitted,
    /// 1: in first review.
    InFirstReview,
    /// 2: resubmission requested (reason shown).
    ResubmissionRequested,
    /// 3: first review passed, awaiting final review.
    AwaitingFinalReview,
    /// 9: approved, withdrawable.
    Approved,
    /// 4: disbursed, repaying.
    Disbursed,
    /// 5: refused at first review.
    RefusedAtFirstReview,
    /// 12: refused at final review.
    RefusedAtFinalReview,
    /// 10: repaid, closed.
    Repaid,
    /// 11: cancelled by the borrower before disbursement.
    Cancelled,
    /// 13: offer not withdrawn in time.
    Expired,
}

impl OrderStatus {
    /// The number on the wire.
    pub fn code(self) -> u8 {
        match self {
            Self::Submitted => 0,
            Self::InFirstReview => 1,
            Self::ResubmissionRequested => 2,
            Self::AwaitingFinalReview => 3,
            Self::Disbursed => 4,
            Self::RefusedAtFirstReview => 5,
            Self::Approved => 9,
            Self::Repaid => 10,
            Self::Cancelled => 11,
            Self::RefusedAtFinalReview => 12,
            Self::Expired => 13,
        }
    }

    /// Terminal statuses: refused (5, 12), repaid (10), cancelled (11), expired (13).
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            Self::RefusedAtFirstReview
                | Self::RefusedAtFinalReview
                | Self::Repaid
                | Self::Cancelled
                | Self::Expired
        )
    }

    /// 0–3: shown to the borrower as "Under review".
    pub fn is_under_review(self) -> bool {
        matches!(
            self,
            Self::Submitted
                | Self::InFirstReview
                | Self::ResubmissionRequested
                | Self::AwaitingFinalReview
        )
    }
}
