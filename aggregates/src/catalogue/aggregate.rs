//! A line of versions (a product's, the lender's settings): its proposals and its
//! versions, and the rules of changing them, the same for every [`Setting`].

use std::sync::Arc;

use chrono::{DateTime, Utc};
use cqrs_es::event_sink::EventSink;
use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::{ChangeCommand, ChangeError, ChangeEvent, Setting};
use crate::pricing::CompliancePolicy;
use crate::services::{Clock, ReferenceData};

/// What deciding a change needs: the time, and the caps.
#[derive(Clone)]
pub struct ChangeServices {
    /// Now, for "a moment in the past" and the approval's moment.
    pub clock: Arc<dyn Clock>,
    /// The deployment's compliance profile.
    pub compliance: Arc<dyn CompliancePolicy>,
    /// The reference lists (a receiving account's bank is one of `banks`).
    pub reference: Arc<dyn ReferenceData>,
}

/// A proposal and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "S: Setting")]
pub struct Proposal<S> {
    /// Its id.
    pub proposal_id: Uuid,
    /// The value as proposed.
    pub value: S,
    /// The moment proposed.
    pub effective_at: DateTime<Utc>,
    /// The versions approved when it was proposed.
    pub base_version: u32,
    /// Who proposed it.
    pub maker: Uuid,
    /// `Some(version)` once approved.
    pub approved_as: Option<u32>,
    /// Set once rejected.
    pub rejected: bool,
    /// Why it was proposed.
    pub reason: String,
    /// Who approved or rejected it, once decided.
    pub checker: Option<Uuid>,
    /// Why it was rejected, once rejected.
    pub rejection: Option<String>,
}

/// One approved version and when it took (or takes) effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "S: Setting")]
pub struct Version<S> {
    /// 1, 2, …
    pub version: u32,
    /// The value, stamped with its version ([`Setting::as_version`]).
    pub value: S,
    /// In force from this moment until the next version's.
    pub effective_at: DateTime<Utc>,
}

/// A line (a product's, id `product:<app id>`; the lender's settings, id `settings`):
/// every proposal and every version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "S: Setting")]
pub struct ChangeLine<S> {
    /// The line's key ([`Setting::line_key`]), once a first change was proposed.
    pub key: Option<i64>,
    /// Every proposal, in order.
    pub proposals: Vec<Proposal<S>>,
    /// Every approved version, in order of approval.
    pub versions: Vec<Version<S>>,
}

impl<S> Default for ChangeLine<S> {
    fn default() -> Self {
        Self {
            key: None,
            proposals: Vec::new(),
            versions: Vec::new(),
        }
    }
}

const MAX_REASON_CHARS: usize = 500;

fn reason_ok(reason: &str) -> bool {
    let length = reason.trim().chars().count();
    (1..=MAX_REASON_CHARS).contains(&length)
}

impl<S: Setting> ChangeLine<S> {
    /// The version in force at `at`: of those whose moment is at or before it, the
    /// last approved. A later approval supersedes every earlier one from its moment: a
    /// version scheduled for next week and overtaken by an urgent one in force today
    /// never takes effect (it would undo the urgent one).
    pub fn version_at(&self, at: DateTime<Utc>) -> Option<&Version<S>> {
        self.versions
            .iter()
            .filter(|version| version.effective_at <= at)
            .max_by_key(|version| version.version)
    }

    /// How many events the line has folded (each proposal, approval and rejection is
    /// one): of two reads of one line, the one with more is the newer.
    pub fn events_folded(&self) -> usize {
        let rejected = self.proposals.iter().filter(|p| p.rejected).count();
        self.proposals.len() + self.versions.len() + rejected
    }

    /// The last version approved, in force or scheduled: what a new proposal starts
    /// from (a proposal made before a newer approval is refused).
    pub fn latest(&self) -> Option<&Version<S>> {
        self.versions.last()
    }

    /// The value in force at `at`, if any version is.
    pub fn value_at(&self, at: DateTime<Utc>) -> Option<&S> {
        self.version_at(at).map(|version| &version.value)
    }

    fn proposal(&self, proposal_id: Uuid) -> Option<&Proposal<S>> {
        self.proposals
            .iter()
            .find(|proposal| proposal.proposal_id == proposal_id)
    }

    fn propose(
        &self,
        command: ChangeCommand<S>,
        services: &ChangeServices,
    ) -> Result<Vec<ChangeEvent<S>>, ChangeError> {
        let ChangeCommand::ProposeChange {
            proposal_id,
            value,
            effective_at,
            maker,
            reason,
        } = command
        else {
            unreachable!("propose is given ProposeChange")
        };
        // The version is the approval's to give, not the maker's.
        let value = Box::new(value.as_version(0));
        let now = services.clock.now();
        let command_moment = effective_at;
        let effective_at = effective_at.unwrap_or(now);
        if let Some(known) = self.proposal(proposal_id) {
            // The same proposal sent twice is recorded once; another under its id is not.
            // (Sent again without a moment, it is the same proposal whatever the time.)
            let same_moment = known.effective_at == effective_at || command_moment.is_none();
            if known.value == *value && same_moment {
                return Ok(vec![]);
            }
            return Err(ChangeError::Proposal("this proposal id is taken"));
        }
        if let Some(key) = self.key.filter(|key| *key != value.line_key()) {
            return Err(ChangeError::OtherLine(key));
        }
        if !reason_ok(&reason) {
            return Err(ChangeError::Reason);
        }
        if effective_at < now {
            return Err(ChangeError::InThePast);
        }
        value.check(services)?;
        Ok(vec![ChangeEvent::ChangeProposed {
            proposal_id,
            value,
            effective_at,
            base_version: self.versions.len() as u32,
            maker,
            reason: reason.trim().to_string(),
        }])
    }

    fn approve(
        &self,
        proposal_id: Uuid,
        checker: Uuid,
        checker_vouchers: &[Uuid],
        services: &ChangeServices,
    ) -> Result<Vec<ChangeEvent<S>>, ChangeError> {
        let proposal = self
            .proposal(proposal_id)
            .ok_or(ChangeError::Proposal("no such proposal"))?;
        if proposal.approved_as.is_some() {
            return Ok(vec![]);
        }
        if proposal.rejected {
            return Err(ChangeError::Proposal("the proposal was rejected"));
        }
        if proposal.maker == checker {
            return Err(ChangeError::OwnProposal);
        }
        if checker_vouchers.contains(&proposal.maker) {
            return Err(ChangeError::MakersAccount);
        }
        if proposal.base_version != self.versions.len() as u32 {
            // Approving it would silently undo the newer version.
            return Err(ChangeError::Proposal(
                "a newer version was approved since this proposal; propose again",
            ));
        }
        // The caps again: the profile is the deployment's, and the check is cheap.
        proposal.value.check(services)?;
        // Never before it is approved: a moment already passed becomes the approval's.
        let effective_at = proposal.effective_at.max(services.clock.now());
        Ok(vec![ChangeEvent::ChangeApproved {
            proposal_id,
            version: self.versions.len() as u32 + 1,
            checker,
            effective_at,
        }])
    }

    fn reject(
        &self,
        proposal_id: Uuid,
        checker: Uuid,
        reason: String,
    ) -> Result<Vec<ChangeEvent<S>>, ChangeError> {
        let proposal = self
            .proposal(proposal_id)
            .ok_or(ChangeError::Proposal("no such proposal"))?;
        if proposal.rejected {
            return Ok(vec![]);
        }
        if proposal.approved_as.is_some() {
            return Err(ChangeError::Proposal("the proposal was approved"));
        }
        if !reason_ok(&reason) {
            return Err(ChangeError::Reason);
        }
        Ok(vec![ChangeEvent::ChangeRejected {
            proposal_id,
            checker,
            reason: reason.trim().to_string(),
        }])
    }
}

impl<S: Setting> Aggregate for ChangeLine<S> {
    const TYPE: &'static str = S::LINE;
    type Command = ChangeCommand<S>;
    type Event = ChangeEvent<S>;
    type Error = ChangeError;
    type Services = ChangeServices;

    async fn handle(
        &mut self,
        command: Self::Command,
        services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        let events = match command {
            command @ ChangeCommand::ProposeChange { .. } => self.propose(command, services)?,
            ChangeCommand::ApproveChange {
                proposal_id,
                checker,
                checker_vouchers,
            } => self.approve(proposal_id, checker, &checker_vouchers, services)?,
            ChangeCommand::RejectChange {
                proposal_id,
                checker,
                reason,
            } => self.reject(proposal_id, checker, reason)?,
        };
        for event in events {
            sink.write(event, self).await;
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            ChangeEvent::ChangeProposed {
                proposal_id,
                value,
                effective_at,
                base_version,
                maker,
                reason,
            } => {
                self.key = Some(value.line_key());
                self.proposals.push(Proposal {
                    proposal_id,
                    value: *value,
                    effective_at,
                    base_version,
                    maker,
                    approved_as: None,
                    rejected: false,
                    reason,
                    checker: None,
                    rejection: None,
                });
            }
            ChangeEvent::ChangeApproved {
                proposal_id,
                version,
                effective_at,
                checker,
            } => {
                if let Some(proposal) = self
                    .proposals
                    .iter_mut()
                    .find(|p| p.proposal_id == proposal_id)
                {
                    proposal.approved_as = Some(version);
                    proposal.checker = Some(checker);
                    // The version travels with the value (a product's into each loan
                    // signed under it).
                    self.versions.push(Version {
                        version,
                        value: proposal.value.as_version(version),
                        effective_at,
                    });
                }
            }
            ChangeEvent::ChangeRejected {
                proposal_id,
                checker,
                reason,
            } => {
                if let Some(proposal) = self
                    .proposals
                    .iter_mut()
                    .find(|p| p.proposal_id == proposal_id)
                {
                    proposal.rejected = true;
                    proposal.checker = Some(checker);
                    proposal.rejection = Some(reason);
                }
            }
        }
    }
}
