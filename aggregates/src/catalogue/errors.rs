//! Why a line refused a command.

use crate::codes::ErrorCode;
use crate::pricing::ComplianceBreach;

/// A refusal of a [`super::ChangeLine`] command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChangeError {
    /// 50007: the product breaks a cap of the compliance profile.
    #[error("the proposal breaks a compliance cap ({0})")]
    Cap(ComplianceBreach),
    /// 50006: the maker cannot approve their own proposal.
    #[error("a second staff member must approve this: the one who proposed it cannot")]
    OwnProposal,
    /// 50006: the maker stands behind the checker's account (created it, gave it
    /// roles, reset or enabled it).
    #[error(
        "a second staff member must approve this: the one who proposed it set up the \
         approving account"
    )]
    MakersAccount,
    /// 10004: no such proposal, or one already decided the other way.
    #[error("request error: {0}")]
    Proposal(&'static str),
    /// 10004: the moment has passed.
    #[error("request error: effectiveAt: the moment has passed; give now or later")]
    InThePast,
    /// 10004: a reason is needed (1–500 characters).
    #[error("request error: reason: say why (1 to 500 characters)")]
    Reason,
    /// 10004: the value is not one to offer (`Product::check_offer`,
    /// `LenderSettings::check_shape`), naming the field.
    #[error("request error: {0}")]
    Offer(crate::types::InvalidInput),
    /// 10004: the value's key is not this line's.
    #[error("request error: this line is {0}")]
    OtherLine(i64),
}

impl ChangeError {
    /// The PRODUCT.md 9 code.
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::Cap(_) => ErrorCode::CapBreached,
            Self::OwnProposal | Self::MakersAccount => ErrorCode::SecondStaffRequired,
            Self::Proposal(_)
            | Self::InThePast
            | Self::Reason
            | Self::Offer(_)
            | Self::OtherLine(_) => ErrorCode::RequestError,
        }
    }
}
