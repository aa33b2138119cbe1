//! Staff accounts in the console (issue 55): who am I, the list, create, assign roles,
//! disable, enable and reset a password (`admin`); and the two calls of the one-time
//! setup link, which need no session. The rules are in `crate::accounts::staff`.

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::accounts::roles::{parse_roles, Role};
use crate::accounts::staff::{self as accounts, IssuedLink};

/// The routes of this file.
pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/api/me", post(me))
        .route("/admin/api/staff/list", post(list))
        .route("/admin/api/staff/create", post(create))
        .route("/admin/api/staff/assignRoles", post(assign_roles))
        .route("/admin/api/staff/disable", post(disable))
        .route("/admin/api/staff/enable", post(enable))
        .route("/admin/api/staff/resetPassword", post(reset_password))
        .route("/admin/api/staff/setupInfo", post(setup_info))
        .route("/admin/api/staff/completeSetup", post(complete_setup))
}

/// Who is signed in, and what their roles let them do.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct Me {
    /// The staff member's id.
    auditor_id: Uuid,
    /// Their roles.
    roles: Vec<Role>,
    /// The permissions those roles hold (`x-permission` of each call).
    permissions: Vec<String>,
}

/// The roles and permissions of a stored role set, for the console.
pub(super) fn roles_and_permissions(stored: &str) -> (Vec<Role>, Vec<String>) {
    let roles = parse_roles(stored);
    let mut permissions: Vec<String> = roles
        .iter()
        .flat_map(|role| role.permissions().iter().map(|p| p.name().to_string()))
        .collect();
    permissions.sort();
    permissions.dedup();
    (roles, permissions)
}

#[utoipa::path(
    post,
    path = "/admin/api/me",
    tag = "staff",
    summary = "Who is signed in",
    description = "The session's staff member with their current roles and permissions \
                   (an admin may have changed them since the log-in).",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the staff member", body = Envelope<Option<Me>>))
)]
pub(super) async fn me(staff: Auditor) -> Result<Response, ApiError> {
    let (roles, permissions) = roles_and_permissions(&staff.roles);
    Ok(ok(Me {
        auditor_id: staff.auditor_id,
        roles,
        permissions,
    }))
}

/// A staff account as the console lists it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct StaffAccount {
    /// The id (`staffId` in the calls).
    staff_id: String,
    /// The username.
    username: String,
    /// Its roles.
    roles: Vec<Role>,
    /// When created, RFC 3339 UTC.
    created_at: String,
    /// When disabled, if it is.
    disabled_at: Option<String>,
    /// Why.
    disabled_reason: Option<String>,
    /// Whether a second factor is enrolled.
    second_factor: bool,
    /// Whether its holder has set a password (false until the setup link is used).
    password_set: bool,
}

#[utoipa::path(
    post,
    path = "/admin/api/staff/list",
    tag = "staff",
    summary = "Every staff account",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the accounts by username", body = Envelope<Option<Vec<StaffAccount>>>))
)]
pub(super) async fn list(State(state): State<AppState>, _: Auditor) -> Result<Response, ApiError> {
    let accounts = crate::db::auditors::accounts(&state.database).await?;
    Ok(ok(accounts
        .into_iter()
        .map(|account| StaffAccount {
            staff_id: account.auditor_id,
            username: account.username,
            roles: parse_roles(&account.roles),
            created_at: account.created_at,
            disabled_at: account.disabled_at,
            disabled_reason: account.disabled_reason,
            second_factor: account.second_factor,
            password_set: account.password_set,
        })
        .collect::<Vec<_>>()))
}

/// A one-time setup link, shown once.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct SetupLink {
    /// The account it opens.
    staff_id: String,
    /// The link's path on this site: `/admin/setup#<token>`. Shown once; never stored.
    path: String,
    /// When it stops working, RFC 3339 UTC.
    expires_at: String,
}

fn setup_link(staff_id: String, link: IssuedLink) -> SetupLink {
    SetupLink {
        staff_id,
        path: format!("/admin/setup#{}", link.token),
        expires_at: time_text(link.expires_at),
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct CreateStaffBody {
    /// 3 to 64 of `a-z 0-9 . _ - @` (stored lower-case).
    #[schema(example = "maria.reyes")]
    username: String,
    /// At least one of `reviewer`, `collector`, `finance`, `compliance`, `admin`.
    roles: Vec<String>,
}

#[utoipa::path(
    post,
    path = "/admin/api/staff/create",
    tag = "staff",
    summary = "Create a staff account",
    description = "The account has no password until its holder opens the one-time link \
                   answered (shown once, valid 24 hours; it enrolls the second factor when \
                   the deployment requires one). 10004 a bad or taken username, or no or an \
                   unknown role.",
    security(("bearer" = [])),
    request_body = CreateStaffBody,
    responses((status = 200, description = "Envelope with the setup link", body = Envelope<Option<SetupLink>>))
)]
pub(super) async fn create(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<CreateStaffBody>,
) -> Result<Response, ApiError> {
    let roles = accounts::requested_roles(&body.roles)?;
    let (staff_id, link) =
        accounts::create(&state, auditor.auditor_id, &body.username, &roles).await?;
    Ok(ok(setup_link(staff_id.to_string(), link)))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct AssignRolesBody {
    staff_id: String,
    /// The account's roles from now on (replacing the old), at least one.
    roles: Vec<String>,
}

#[utoipa::path(
    post,
    path = "/admin/api/staff/assignRoles",
    tag = "staff",
    summary = "Set a staff account's roles",
    description = "Takes effect on the account's next call. 10004 no or an unknown role, or \
                   taking away one's own admin role; 40007 unknown account.",
    security(("bearer" = [])),
    request_body = AssignRolesBody,
    responses((status = 200, description = "Envelope, data null", body = Envelope<Null>))
)]
pub(super) async fn assign_roles(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<AssignRolesBody>,
) -> Result<Response, ApiError> {
    let staff_id = staff_id(&body.staff_id)?;
    let roles = accounts::requested_roles(&body.roles)?;
    accounts::assign_roles(&state, auditor.auditor_id, staff_id, &roles).await?;
    Ok(ok(Null))
}

fn staff_id(id: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(id.trim()).map_err(|_| not_found("staff account"))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct DisableStaffBody {
    staff_id: String,
    /// Why (1 to 500 characters), kept with the time.
    reason: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/staff/disable",
    tag = "staff",
    summary = "Disable a staff account",
    description = "It can no longer log in and each of its sessions ends at once. A repeat \
                   changes nothing. 10004 no reason, or one's own account; 40007 unknown \
                   account.",
    security(("bearer" = [])),
    request_body = DisableStaffBody,
    responses((status = 200, description = "Envelope, data null", body = Envelope<Null>))
)]
pub(super) async fn disable(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<DisableStaffBody>,
) -> Result<Response, ApiError> {
    let staff_id = staff_id(&body.staff_id)?;
    accounts::set_disabled(&state, auditor.auditor_id, staff_id, Some(&body.reason)).await?;
    Ok(ok(Null))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct StaffIdBody {
    staff_id: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/staff/enable",
    tag = "staff",
    summary = "Enable a disabled staff account",
    description = "Its holder logs in again (no old session comes back). 40007 unknown account.",
    security(("bearer" = [])),
    request_body = StaffIdBody,
    responses((status = 200, description = "Envelope, data null", body = Envelope<Null>))
)]
pub(super) async fn enable(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<StaffIdBody>,
) -> Result<Response, ApiError> {
    let staff_id = staff_id(&body.staff_id)?;
    accounts::set_disabled(&state, auditor.auditor_id, staff_id, None).await?;
    Ok(ok(Null))
}

#[utoipa::path(
    post,
    path = "/admin/api/staff/resetPassword",
    tag = "staff",
    summary = "Reset a staff account's password",
    description = "The old password stops working and every session of the account ends at \
                   once; its holder sets a new one with the one-time link answered (shown \
                   once, valid 24 hours). 10004 one's own account; 40007 unknown account.",
    security(("bearer" = [])),
    request_body = StaffIdBody,
    responses((status = 200, description = "Envelope with the setup link", body = Envelope<Option<SetupLink>>))
)]
pub(super) async fn reset_password(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<StaffIdBody>,
) -> Result<Response, ApiError> {
    let staff_id = staff_id(&body.staff_id)?;
    let link = accounts::reset_password(&state, auditor.auditor_id, staff_id).await?;
    Ok(ok(setup_link(staff_id.to_string(), link)))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct SetupTokenBody {
    /// The token of the link (after `#`).
    token: String,
}

/// What the setup page shows.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct SetupInfo {
    /// The account the link opens.
    username: String,
    /// The second factor to enroll, when the deployment requires one.
    second_factor: Option<SecondFactorEnrollment>,
}

/// A TOTP secret to add to an authenticator app.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct SecondFactorEnrollment {
    /// Base32, to type by hand.
    secret: String,
    /// `otpauth://totp/...`.
    uri: String,
    /// The QR code of `uri`, an SVG document.
    qr_svg: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/staff/setupInfo",
    tag = "staff",
    summary = "What a setup link opens",
    description = "No session. 10004 a link expired, used or unknown.",
    request_body = SetupTokenBody,
    responses((status = 200, description = "Envelope with the account", body = Envelope<Option<SetupInfo>>))
)]
pub(super) async fn setup_info(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<SetupTokenBody>,
) -> Result<Response, ApiError> {
    let (username, enrollment) = accounts::setup_info(&state, &body.token).await?;
    Ok(ok(SetupInfo {
        username,
        second_factor: enrollment.map(|e| SecondFactorEnrollment {
            secret: e.secret,
            uri: e.uri,
            qr_svg: e.qr_svg,
        }),
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct CompleteSetupBody {
    /// The token of the link.
    token: String,
    /// The new password, at least 8 characters.
    password: String,
    /// The 6-digit code the authenticator app shows, when the link enrolls one.
    totp_code: Option<String>,
}

/// The account opened.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct SetupDone {
    /// Log in with this name.
    username: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/staff/completeSetup",
    tag = "staff",
    summary = "Set the password of a setup link",
    description = "No session. Uses the link once; signs out every session of the account. \
                   10004 a dead link, a short password, or a missing or wrong code (the link \
                   stays usable then).",
    request_body = CompleteSetupBody,
    responses((status = 200, description = "Envelope with the username", body = Envelope<Option<SetupDone>>))
)]
pub(super) async fn complete_setup(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<CompleteSetupBody>,
) -> Result<Response, ApiError> {
    let username = accounts::complete_setup(
        &state,
        &body.token,
        &body.password,
        body.totp_code.as_deref(),
    )
    .await?;
    Ok(ok(SetupDone { username }))
}
