//! Auditor sessions: `login` (accounts come from `api create-auditor`) and `logout`.

#[allow(clippy::wildcard_imports)]
use super::*;

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AuditorLoginBody)]
pub(super) struct LoginBody {
    /// The auditor's username.
    #[schema(example = "alice")]
    username: String,
    /// The password.
    password: String,
    /// The 6-digit code of the authenticator app, once a second factor is enrolled.
    totp_code: Option<String>,
}

/// An auditor session.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct LoginData {
    /// Bearer token for `/admin/api`.
    token: String,
    /// The auditor's id.
    auditor_id: Uuid,
    /// The (normalized) username.
    username: String,
    /// The account's roles.
    roles: Vec<crate::accounts::roles::Role>,
    /// The permissions those roles hold.
    permissions: Vec<String>,
}

#[utoipa::path(
    post,
    path = "/admin/api/login",
    tag = "auditor",
    summary = "Auditor log in",
    description = "10002 wrong username, password or second-factor code (a code is taken \
                   once), the code missing for an account with a second factor, or none \
                   enrolled where the deployment requires one: one answer, so none tells a \
                   right password from a wrong one. 5 too many attempts: per \
                   client IP (10 at once, then one per 3 s), and per username (5 failed \
                   logins in a row lock it for 15 minutes, whatever the password).",
    request_body = LoginBody,
    responses((status = 200, description = "Envelope with the session", body = Envelope<Option<LoginData>>))
)]
pub(super) async fn login(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<LoginBody>,
) -> Result<Response, ApiError> {
    let name = auditors::normalize_username(&body.username);
    // The attempt is counted before any password is checked, in one statement, so
    // parallel guesses cannot check more than the limit allows.
    let attempt = auditors::take_login_attempt(&state, &name).await?;
    let row = auditors::find(&state, &name).await?;
    let hash = row.as_ref().map(|login| login.password_hash.clone());
    // An account waiting for its holder to set a password is checked against the
    // dummy hash too, so it is refused in an unknown name's time.
    let hash = match &hash {
        Some(hash) if hash != crate::db::auditors::NO_PASSWORD => hash.as_str(),
        _ => auditors::dummy_hash().await,
    };
    let verified = state
        .user_services
        .hasher
        .verify(&body.password, hash)
        .await
        && row
            .as_ref()
            .is_some_and(|login| login.password_hash != crate::db::auditors::NO_PASSWORD);
    let (Some(login), true) = (row, verified) else {
        // Unknown names count too, so the lock tells nobody which names exist.
        if attempt >= auditors::MAX_FAILED_AUDITOR_LOGINS {
            tracing::warn!(
                "auditor login locked after {} failed attempts",
                auditors::MAX_FAILED_AUDITOR_LOGINS
            );
            return Err(auditors::too_many_logins());
        }
        return Err(auditors::wrong_login());
    };
    auditors::second_factor(&state, &login, body.totp_code.as_deref(), attempt).await?;
    auditors::clear_login_attempts(&state, &name).await?;
    let auditor_id = Uuid::parse_str(&login.auditor_id)?;
    let token = auth::issue(&state, auditor_id, TokenKind::Auditor).await?;
    crate::http::middleware::staff_trail::identify(auditor_id);
    let (roles, permissions) = super::staff::roles_and_permissions(&login.roles);
    Ok(ok(LoginData {
        token,
        auditor_id,
        username: login.username,
        roles,
        permissions,
    }))
}

/// The bearer token of an authenticated auditor (for logout).
pub(super) struct AuditorToken(String);

impl FromRequestParts<AppState> for AuditorToken {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = auth::bearer(parts)?;
        // Through the staff check, so the log-out is in the audit trail too.
        auth::resolve_staff(state, &token).await?;
        Ok(Self(token))
    }
}

#[utoipa::path(
    post,
    path = "/admin/api/logout",
    tag = "auditor",
    summary = "Auditor log out",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
pub(super) async fn logout(
    State(state): State<AppState>,
    AuditorToken(token): AuditorToken,
) -> Result<Response, ApiError> {
    auth::revoke(&state, &token).await?;
    Ok(ok(Null))
}
