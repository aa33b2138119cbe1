//! The lender's settings as data in the console (issue 55): invite codes, company
//! texts and the lender's receiving accounts, every version and proposal, and the
//! three commands of maker-checker. Every rule is the `SettingsLine`'s
//! (`aggregates::catalogue`: the shape, the maker is not the checker, a moment not
//! past, only the texts the console changes); this file turns the wire's settings into
//! `LenderSettings` and back, and `changes` runs the commands.

use super::changes::{self, LineView};
#[allow(clippy::wildcard_imports)]
use super::*;
use aggregates::catalogue::{LenderSettings, ReceivingAccount};
use std::collections::BTreeMap;

use crate::config::SETTINGS_LINE_ID;
use crate::routes::borrower::loan::ReceivingAccountView;

/// The routes of this file.
pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/api/settings/list", post(settings_line))
        .route("/admin/api/settings/propose", post(propose_settings))
        .route("/admin/api/settings/approve", post(approve_settings))
        .route("/admin/api/settings/reject", post(reject_settings))
}

/// The lender's settings as the console shows and proposes them.
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct SettingsTerms {
    /// Whether registration needs an invite code.
    invite_code_required: bool,
    /// The agents' invite codes: 1 to 200 (none only when not required), each 1 to 32
    /// letters, digits, `-` or `_`.
    invite_codes: Vec<String>,
    /// Company texts by key, each by language (`en` required; `zh`, `fil` optional).
    /// The keys: `about-us`, `faq`, `customer-service-hours`, `invite-code-help` (per
    /// language), and `customer-service-link`, `-phone`, `-email`, `-facebook`,
    /// `website`, `whatsapp`, `line` (English only: one text for every language).
    texts: BTreeMap<String, BTreeMap<String, String>>,
    /// The lender's accounts where borrowers may pay by transfer, at most 10.
    receiving_accounts: Vec<ReceivingAccountView>,
}

impl SettingsTerms {
    fn of(settings: &LenderSettings) -> Self {
        Self {
            invite_code_required: settings.invite_code_required,
            invite_codes: settings.invite_codes.clone(),
            texts: settings.texts.clone(),
            receiving_accounts: settings
                .receiving_accounts
                .iter()
                .cloned()
                .map(ReceivingAccountView::from)
                .collect(),
        }
    }

    /// The settings these describe; whether they are ones to show borrowers is the
    /// line's to decide (`LenderSettings::check_shape`, 10004 naming the field).
    fn settings(self) -> LenderSettings {
        LenderSettings {
            invite_code_required: self.invite_code_required,
            invite_codes: self
                .invite_codes
                .iter()
                .map(|code| code.trim().to_string())
                .collect(),
            texts: self.texts,
            receiving_accounts: self
                .receiving_accounts
                .into_iter()
                .map(|account| ReceivingAccount {
                    bank_name: account.bank_name.trim().to_string(),
                    account_name: account.account_name.trim().to_string(),
                    account_no: account.account_no.trim().to_string(),
                })
                .collect(),
            version: 0,
        }
    }
}

/// The lender's settings with every version and proposal.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct SettingsLineView {
    /// Its versions and proposals.
    #[serde(flatten)]
    line: LineView<SettingsTerms>,
}

#[utoipa::path(
    post,
    path = "/admin/api/settings/list",
    tag = "products",
    summary = "The lender's settings with their versions and proposals",
    description = "Invite codes, company texts and receiving accounts as the store has them \
                   now: version 0 is the configuration file's, each later one approved in \
                   the console.",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the settings", body = Envelope<Option<SettingsLineView>>))
)]
pub(super) async fn settings_line(
    State(state): State<AppState>,
    _: Auditor,
) -> Result<Response, ApiError> {
    state
        .catalogue
        .refresh(&state.products, &state.settings)
        .await?;
    let names = changes::staff_names(&state).await?;
    let line = state.catalogue.settings_line();
    let original = state.catalogue.original_settings();
    Ok(ok(SettingsLineView {
        line: changes::line_view(original, &line, state.now(), &names, SettingsTerms::of),
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ProposeSettingsBody {
    /// The settings as they would be (the whole of them).
    terms: SettingsTerms,
    /// The proposal's id, moment and reason.
    #[serde(flatten)]
    head: changes::ProposalHead,
}

#[utoipa::path(
    post,
    path = "/admin/api/settings/propose",
    tag = "products",
    summary = "Propose a change to the lender's settings",
    description = "It takes effect only once another staff member approves it. 10004 a \
                   code, text or account out of bounds (named), a moment past, no reason, \
                   an id taken by another proposal.",
    security(("bearer" = [])),
    request_body = ProposeSettingsBody,
    responses((status = 200, description = "Envelope with the proposal's id", body = Envelope<Option<changes::Proposed>>))
)]
pub(super) async fn propose_settings(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<ProposeSettingsBody>,
) -> Result<Response, ApiError> {
    let settings = body.terms.settings();
    let bus = &state.settings;
    changes::propose(&state, bus, &auditor, SETTINGS_LINE_ID, body.head, settings).await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct DecideSettingsBody {
    /// The proposal.
    proposal_id: Uuid,
    /// Why (rejections only; 1 to 500 characters, shown to the maker).
    reason: Option<String>,
}

#[utoipa::path(
    post,
    path = "/admin/api/settings/approve",
    tag = "products",
    summary = "Approve another staff member's proposal of settings",
    description = "It becomes the next version, in force from its moment (or now, when that \
                   has passed). A repeat changes nothing. 50006 its maker; 10004 a proposal \
                   unknown, rejected, or overtaken by a newer version (propose again).",
    security(("bearer" = [])),
    request_body = DecideSettingsBody,
    responses((status = 200, description = "Envelope, data null", body = Envelope<Null>))
)]
pub(super) async fn approve_settings(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<DecideSettingsBody>,
) -> Result<Response, ApiError> {
    let bus = &state.settings;
    changes::decide(
        &state,
        bus,
        &auditor,
        SETTINGS_LINE_ID,
        body.proposal_id,
        None,
    )
    .await
}

#[utoipa::path(
    post,
    path = "/admin/api/settings/reject",
    tag = "products",
    summary = "Reject a proposal of settings",
    description = "With a reason for its maker. A repeat changes nothing. 10004 no reason, \
                   a proposal unknown or approved.",
    security(("bearer" = [])),
    request_body = DecideSettingsBody,
    responses((status = 200, description = "Envelope, data null", body = Envelope<Null>))
)]
pub(super) async fn reject_settings(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<DecideSettingsBody>,
) -> Result<Response, ApiError> {
    let reason = Some(body.reason.unwrap_or_default());
    let bus = &state.settings;
    changes::decide(
        &state,
        bus,
        &auditor,
        SETTINGS_LINE_ID,
        body.proposal_id,
        reason,
    )
    .await
}
