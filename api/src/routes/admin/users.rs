//! A borrower as the console sees them, and the identity, hold and erasure commands.

#[allow(clippy::wildcard_imports)]
use super::*;

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct UserBody {
    user_id: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/users/detail",
    tag = "auditor",
    summary = "A borrower",
    description = "40007 unknown user.",
    security(("bearer" = [])),
    request_body = UserBody,
    responses((status = 200, description = "Envelope, the answer", body = Envelope<Option<UserDetail>>))
)]
pub(super) async fn user_detail(
    State(state): State<AppState>,
    _auditor: Auditor,
    ApiJson(body): ApiJson<UserBody>,
) -> Result<Response, ApiError> {
    let user_id = record_id(&body.user_id, "user")?;
    let user = queries::user_state(state.read_models(), &user_id)
        .await?
        .ok_or_else(|| not_found("user"))?;
    let user: User = serde_json::from_str(&user)?;
    let uuid = Uuid::parse_str(&user_id)?;
    let profile = crate::queries::borrower::user_doc(&state, uuid).await?;
    let orders = crate::queries::borrower::order_list(&state, uuid).await?;
    Ok(ok(UserDetail {
        profile,
        identity: IdentityReview {
            status: user.identity.code(),
            reject_reason: user.identity_rejection.clone(),
            images: identity_images(&user),
        },
        lock: user
            .lock()
            .map(|(kind, reason)| AccountLock::of(kind, reason)),
        contacts: user.contacts,
        orders,
        auditor_actions: auditor_actions(&state, &user_id).await?,
    }))
}

/// What auditors did to this user (identity decisions, compliance holds), oldest
/// first. Only events whose
/// actor is an auditor are listed, so nothing the borrower did (passwords, PINs) is
/// shown (PRODUCT.md 6: every auditor action is recorded with the auditor's id).
async fn auditor_actions(state: &AppState, user_id: &str) -> Result<Vec<HistoryEvent>, ApiError> {
    let envelopes = projections::store::load_events::<User>(&state.database, user_id).await?;
    let names = queries::auditor_names(state.read_models()).await?;
    Ok(envelopes
        .into_iter()
        .filter_map(|envelope| {
            let actor = envelope.metadata.get("actor")?.clone();
            let auditor_id = actor.strip_prefix("auditor:")?.to_string();
            Some(HistoryEvent {
                sequence: envelope.sequence,
                time: envelope
                    .metadata
                    .get(projections::store::RECORDED_AT)
                    .cloned(),
                actor,
                actor_name: names.get(&auditor_id).cloned(),
                event_type: cqrs_es::DomainEvent::event_type(&envelope.payload),
                payload: serde_json::to_value(&envelope.payload).ok()?,
            })
        })
        .collect())
}

/// Runs a user command as the auditor after checking the user exists (40007);
/// answers `null`.
async fn user_command(
    state: &AppState,
    auditor: &Auditor,
    user_id: &str,
    command: impl Fn() -> UserCommand,
) -> Result<Response, ApiError> {
    let user_id = record_id(user_id, "user")?;
    load_user(state, &user_id).await?;
    auditor_command(state, &state.users, auditor, &user_id, command).await
}

#[utoipa::path(
    post,
    path = "/admin/api/users/verifyIdentity",
    tag = "auditor",
    summary = "Verify the ID photos",
    description = "40007 unknown user; 10009 no ID photos awaiting review.",
    security(("bearer" = [])),
    request_body = UserBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
pub(super) async fn verify_identity(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<UserBody>,
) -> Result<Response, ApiError> {
    let auditor_id = auditor.auditor_id;
    user_command(&state, &auditor, &body.user_id, || {
        UserCommand::VerifyIdentity { auditor_id }
    })
    .await
}

#[utoipa::path(
    post,
    path = "/admin/api/users/erase",
    tag = "personal data",
    summary = "Erase a borrower's personal data after the retention period",
    description = "Crypto-shredding (PRODUCT.md 12.6, RA 10173): the borrower's data key is \
                   destroyed, so every personal field of their events reads `[erased]` \
                   (or null) everywhere; amounts, orders and the ledger stay. The erasure \
                   workflow then deletes their ID photos and signature, text messages, \
                   sessions, codes and idempotency answers, and rebuilds the read models. \
                   The account is closed for good. 40005 an order is open; 10004 the \
                   retention period (`retention_years` after the last loan closed, or \
                   after registration) is not over, `msg` gives the date; 40007 unknown \
                   user. Erasing an erased borrower again changes nothing.",
    security(("bearer" = [])),
    request_body = UserBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
pub(super) async fn erase_personal_data(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<UserBody>,
) -> Result<Response, ApiError> {
    let auditor_id = auditor.auditor_id;
    user_command(&state, &auditor, &body.user_id, || {
        UserCommand::EraseAfterRetention { auditor_id }
    })
    .await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct UserReasonBody {
    user_id: String,
    #[serde(default)]
    reason: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/users/rejectIdentity",
    tag = "auditor",
    summary = "Reject the ID photos",
    description = "The reason is required (10004). 40007 unknown user; 10009 no ID photos \
                   awaiting review.",
    security(("bearer" = [])),
    request_body = UserReasonBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
pub(super) async fn reject_identity(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<UserReasonBody>,
) -> Result<Response, ApiError> {
    let reason = body.reason.trim().to_string();
    if reason.is_empty() {
        return Err(ApiError::bad_input("reason", "is required"));
    }
    let auditor_id = auditor.auditor_id;
    user_command(&state, &auditor, &body.user_id, || {
        UserCommand::RejectIdentity {
            auditor_id,
            reason: reason.clone(),
        }
    })
    .await
}

#[utoipa::path(
    post,
    path = "/admin/api/users/hold",
    tag = "auditor",
    summary = "Place a compliance hold",
    description = "40007 unknown user; 10004 no reason.",
    security(("bearer" = [])),
    request_body = UserReasonBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
pub(super) async fn hold(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<UserReasonBody>,
) -> Result<Response, ApiError> {
    let auditor_id = auditor.auditor_id;
    user_command(&state, &auditor, &body.user_id, || {
        UserCommand::PlaceComplianceHold {
            auditor_id,
            reason: body.reason.trim().to_string(),
        }
    })
    .await
}

#[utoipa::path(
    post,
    path = "/admin/api/users/releaseHold",
    tag = "auditor",
    summary = "Release a compliance hold",
    description = "40007 unknown user or no hold; 10004 no reason.",
    security(("bearer" = [])),
    request_body = UserReasonBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
pub(super) async fn release_hold(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<UserReasonBody>,
) -> Result<Response, ApiError> {
    let auditor_id = auditor.auditor_id;
    user_command(&state, &auditor, &body.user_id, || {
        UserCommand::ReleaseComplianceHold {
            auditor_id,
            reason: body.reason.trim().to_string(),
        }
    })
    .await
}
