//! What the console's maker-checker calls share (issue 55): a line's versions and
//! proposals as answered, the body of an approval or rejection, and running a change
//! command, after which this process reads its lines again so the borrower app answers
//! the version in force at once. The rules are the `ChangeLine`'s
//! (`aggregates::catalogue`); `products` and `settings` each turn their value into
//! its wire form and back.

#[allow(clippy::wildcard_imports)]
use super::*;
use aggregates::catalogue::{ChangeCommand, ChangeLine, Setting};
use chrono::{DateTime, Utc};
use std::collections::HashMap;

/// A staff member named on a proposal.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct StaffName {
    /// The account's id.
    staff_id: String,
    /// Its username (empty when the account is unknown).
    username: String,
}

/// One version.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct VersionView<T> {
    /// 0 for the configuration file's, then 1, 2, … as approved.
    version: u32,
    /// In force from this moment (RFC 3339 UTC); null for version 0, in force until
    /// the first approved version's moment.
    effective_at: Option<String>,
    /// What it says.
    terms: T,
}

/// A proposal and what became of it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ProposalView<T> {
    /// Its id (`proposalId` of approve and reject).
    proposal_id: String,
    /// `pending`, `approved` or `rejected`.
    status: String,
    /// What it proposes.
    terms: T,
    /// The moment proposed (or, once approved, the moment it took effect).
    effective_at: String,
    /// The versions approved when it was proposed (approvable only while no newer
    /// version came in between).
    base_version: u32,
    /// Who proposed it.
    maker: StaffName,
    /// Why.
    reason: String,
    /// The version it became, once approved.
    version: Option<u32>,
    /// Who approved or rejected it.
    checker: Option<StaffName>,
    /// Why it was rejected.
    rejection: Option<String>,
}

/// A line's versions and proposals.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct LineView<T> {
    /// The version in force now.
    in_force: u32,
    /// Every version, oldest first, version 0 the configuration file's.
    versions: Vec<VersionView<T>>,
    /// Every proposal, newest first.
    proposals: Vec<ProposalView<T>>,
}

/// Every staff account's username by id, to name makers and checkers.
pub(super) async fn staff_names(state: &AppState) -> Result<HashMap<String, String>, ApiError> {
    Ok(crate::db::auditors::accounts(&state.database)
        .await?
        .into_iter()
        .map(|account| (account.auditor_id, account.username))
        .collect())
}

/// `line` as answered at `now`, its version 0 `original`, each value in its wire form
/// by `wire`.
pub(super) fn line_view<S: Setting, T>(
    original: &S,
    line: &ChangeLine<S>,
    now: DateTime<Utc>,
    names: &HashMap<String, String>,
    wire: impl Fn(&S) -> T,
) -> LineView<T> {
    let name = |id: Uuid| StaffName {
        staff_id: id.to_string(),
        username: names.get(&id.to_string()).cloned().unwrap_or_default(),
    };
    let mut versions = vec![VersionView {
        version: 0,
        effective_at: None,
        terms: wire(original),
    }];
    versions.extend(line.versions.iter().map(|version| VersionView {
        version: version.version,
        effective_at: Some(time_text(version.effective_at)),
        terms: wire(&version.value),
    }));
    let proposals = line
        .proposals
        .iter()
        .rev()
        .map(|proposal| {
            let approved = proposal
                .approved_as
                .and_then(|number| line.versions.iter().find(|v| v.version == number));
            ProposalView {
                proposal_id: proposal.proposal_id.to_string(),
                status: match (proposal.approved_as, proposal.rejected) {
                    (Some(_), _) => "approved",
                    (None, true) => "rejected",
                    (None, false) => "pending",
                }
                .to_string(),
                terms: wire(&proposal.value),
                effective_at: time_text(
                    approved.map_or(proposal.effective_at, |version| version.effective_at),
                ),
                base_version: proposal.base_version,
                maker: name(proposal.maker),
                reason: proposal.reason.clone(),
                version: proposal.approved_as,
                checker: proposal.checker.map(name),
                rejection: proposal.rejection.clone(),
            }
        })
        .collect();
    LineView {
        in_force: line.version_at(now).map_or(0, |version| version.version),
        versions,
        proposals,
    }
}

/// A new proposal's id and moment from the body: the client's id, so a repeat is
/// recorded once (the server gives one when absent); no moment: as soon as approved.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ProposalHead {
    /// A new UUID naming the proposal; the server gives one when absent.
    pub(super) proposal_id: Option<Uuid>,
    /// When it would take effect (RFC 3339), now or later; absent: as soon as approved.
    pub(super) effective_at: Option<DateTime<Utc>>,
    /// Why, 1 to 500 characters (shown to the checker).
    pub(super) reason: String,
}

/// What a proposal answers.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct Proposed {
    /// The proposal's id.
    proposal_id: String,
}

/// Proposes `value` on the line `id` of `bus` as this staff member's: answers the
/// proposal's id.
pub(super) async fn propose<S: Setting>(
    state: &AppState,
    bus: &CommandBus<ChangeLine<S>>,
    auditor: &Auditor,
    id: &str,
    head: ProposalHead,
    value: S,
) -> Result<Response, ApiError> {
    let proposal_id = head.proposal_id.unwrap_or_else(Uuid::now_v7);
    let value = Box::new(value);
    let maker = auditor.auditor_id;
    change(state, bus, auditor, id, || ChangeCommand::ProposeChange {
        proposal_id,
        value: value.clone(),
        effective_at: head.effective_at,
        maker,
        reason: head.reason.clone(),
    })
    .await?;
    Ok(ok(Proposed {
        proposal_id: proposal_id.to_string(),
    }))
}

/// Approves (`reason` absent) or rejects the proposal `proposal_id` of the line `id`.
pub(super) async fn decide<S: Setting>(
    state: &AppState,
    bus: &CommandBus<ChangeLine<S>>,
    auditor: &Auditor,
    id: &str,
    proposal_id: Uuid,
    rejection: Option<String>,
) -> Result<Response, ApiError> {
    let checker = auditor.auditor_id;
    let checker_vouchers = match rejection {
        None => crate::accounts::staff::vouchers(state, checker).await?,
        Some(_) => Vec::new(),
    };
    change(state, bus, auditor, id, || match &rejection {
        None => ChangeCommand::ApproveChange {
            proposal_id,
            checker,
            checker_vouchers: checker_vouchers.clone(),
        },
        Some(reason) => ChangeCommand::RejectChange {
            proposal_id,
            checker,
            reason: reason.clone(),
        },
    })
    .await?;
    Ok(ok(Null))
}

/// Runs a change command as this staff member's and reads the lines again for this
/// process's catalogue.
async fn change<S: Setting>(
    state: &AppState,
    bus: &CommandBus<ChangeLine<S>>,
    auditor: &Auditor,
    id: &str,
    command: impl Fn() -> ChangeCommand<S>,
) -> Result<(), ApiError> {
    let actor = Actor::Auditor(auditor.auditor_id);
    state
        .execute(bus, id, command, actor, &request_id())
        .await?;
    state
        .catalogue
        .refresh(&state.products, &state.settings)
        .await?;
    Ok(())
}
