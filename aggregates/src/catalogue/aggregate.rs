//! The product line: its proposals and its versions, and the rules of changing them.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use cqrs_es::event_sink::EventSink;
use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::{ProductCommand, ProductError, ProductEvent};
use crate::pricing::{CompliancePolicy, Product};
use crate::services::Clock;

/// What deciding a product change needs: the time, and the caps.
#[derive(Clone)]
pub struct ProductServices {
    /// Now, for "a moment in the past" and the approval's moment.
    pub clock: Arc<dyn Clock>,
    /// The deployment's compliance profile.
    pub compliance: Arc<dyn CompliancePolicy>,
}

/// A proposal and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    /// Its id.
    pub proposal_id: Uuid,
    /// The product as proposed.
    pub product: Product,
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

/// One approved version of the product and when it took (or takes) effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    /// 1, 2, …
    pub version: u32,
    /// The product's terms.
    pub product: Product,
    /// In force from this moment until the next version's.
    pub effective_at: DateTime<Utc>,
}

/// A product line (id `product:<app id>`): every proposal and every version.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProductLine {
    /// The product id, once a first change was proposed.
    pub product_id: Option<i64>,
    /// Every proposal, in order.
    pub proposals: Vec<Proposal>,
    /// Every approved version, in order of approval.
    pub versions: Vec<Version>,
}

const MAX_REASON_CHARS: usize = 500;

fn reason_ok(reason: &str) -> bool {
    let length = reason.trim().chars().count();
    (1..=MAX_REASON_CHARS).contains(&length)
}

impl ProductLine {
    /// The version in force at `at`: the last approved whose moment is at or before it
    /// (a later approval with an earlier moment supersedes an earlier one).
    pub fn version_at(&self, at: DateTime<Utc>) -> Option<&Version> {
        self.versions
            .iter()
            .filter(|version| version.effective_at <= at)
            .max_by_key(|version| (version.effective_at, version.version))
    }

    /// The product in force at `at`, if any version is.
    pub fn product_at(&self, at: DateTime<Utc>) -> Option<&Product> {
        self.version_at(at).map(|version| &version.product)
    }

    fn proposal(&self, proposal_id: Uuid) -> Option<&Proposal> {
        self.proposals
            .iter()
            .find(|proposal| proposal.proposal_id == proposal_id)
    }

    fn propose(
        &self,
        command: ProductCommand,
        services: &ProductServices,
    ) -> Result<Vec<ProductEvent>, ProductError> {
        let ProductCommand::ProposeChange {
            proposal_id,
            product,
            effective_at,
            maker,
            reason,
        } = command
        else {
            unreachable!("propose is given ProposeChange")
        };
        // The version is the approval's to give, not the maker's.
        let product = Box::new(Product {
            version: 0,
            ..*product
        });
        let now = services.clock.now();
        let command_moment = effective_at;
        let effective_at = effective_at.unwrap_or(now);
        if let Some(known) = self.proposal(proposal_id) {
            // The same proposal sent twice is recorded once; another under its id is not.
            // (Sent again without a moment, it is the same proposal whatever the time.)
            let same_moment = known.effective_at == effective_at || command_moment.is_none();
            if known.product == *product && same_moment {
                return Ok(vec![]);
            }
            return Err(ProductError::Proposal("this proposal id is taken"));
        }
        if let Some(id) = self.product_id.filter(|id| *id != product.id) {
            return Err(ProductError::OtherProduct(id));
        }
        if !reason_ok(&reason) {
            return Err(ProductError::Reason);
        }
        if effective_at < now {
            return Err(ProductError::InThePast);
        }
        product.check_offer().map_err(ProductError::Offer)?;
        services
            .compliance
            .check_product(&product)
            .map_err(ProductError::Cap)?;
        Ok(vec![ProductEvent::ProductChangeProposed {
            proposal_id,
            product,
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
        services: &ProductServices,
    ) -> Result<Vec<ProductEvent>, ProductError> {
        let proposal = self
            .proposal(proposal_id)
            .ok_or(ProductError::Proposal("no such proposal"))?;
        if proposal.approved_as.is_some() {
            return Ok(vec![]);
        }
        if proposal.rejected {
            return Err(ProductError::Proposal("the proposal was rejected"));
        }
        if proposal.maker == checker {
            return Err(ProductError::OwnProposal);
        }
        if proposal.base_version != self.versions.len() as u32 {
            // Approving it would silently undo the newer version.
            return Err(ProductError::Proposal(
                "a newer version was approved since this proposal; propose again",
            ));
        }
        // The caps again: the profile is the deployment's, and the check is cheap.
        services
            .compliance
            .check_product(&proposal.product)
            .map_err(ProductError::Cap)?;
        // Never before it is approved: a moment already passed becomes the approval's.
        let effective_at = proposal.effective_at.max(services.clock.now());
        Ok(vec![ProductEvent::ProductChangeApproved {
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
    ) -> Result<Vec<ProductEvent>, ProductError> {
        let proposal = self
            .proposal(proposal_id)
            .ok_or(ProductError::Proposal("no such proposal"))?;
        if proposal.rejected {
            return Ok(vec![]);
        }
        if proposal.approved_as.is_some() {
            return Err(ProductError::Proposal("the proposal was approved"));
        }
        if !reason_ok(&reason) {
            return Err(ProductError::Reason);
        }
        Ok(vec![ProductEvent::ProductChangeRejected {
            proposal_id,
            checker,
            reason: reason.trim().to_string(),
        }])
    }
}

impl Aggregate for ProductLine {
    const TYPE: &'static str = "ProductLine";
    type Command = ProductCommand;
    type Event = ProductEvent;
    type Error = ProductError;
    type Services = ProductServices;

    async fn handle(
        &mut self,
        command: Self::Command,
        services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        let events = match command {
            command @ ProductCommand::ProposeChange { .. } => self.propose(command, services)?,
            ProductCommand::ApproveChange {
                proposal_id,
                checker,
            } => self.approve(proposal_id, checker, services)?,
            ProductCommand::RejectChange {
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
            ProductEvent::ProductChangeProposed {
                proposal_id,
                product,
                effective_at,
                base_version,
                maker,
                reason,
            } => {
                self.product_id = Some(product.id);
                self.proposals.push(Proposal {
                    proposal_id,
                    product: *product,
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
            ProductEvent::ProductChangeApproved {
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
                    // The version travels with the terms, into each loan signed under it.
                    let product = Product {
                        version,
                        ..proposal.product.clone()
                    };
                    self.versions.push(Version {
                        version,
                        product,
                        effective_at,
                    });
                }
            }
            ProductEvent::ProductChangeRejected {
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
