//! What an `admin` does to staff accounts in the console, and how a holder opens theirs
//! (issue 55): create with roles, assign roles, disable, enable, reset the password;
//! each answers a refusal a person can act on, and each change is recorded with who
//! made it (`staff_change`, in the transaction of the change).
//!
//! A new account, and a reset one, is opened with a one-time link the console shows
//! once: only the token's SHA-256 is stored, it works once, for [`SETUP_LINK_HOURS`],
//! and when the deployment requires a second factor and the account has none, the link
//! enrolls it too (a reset keeps one already enrolled, so the admin who is shown the
//! link cannot log in as its holder). A reset makes the old password unusable and
//! signs the account out at once; a disable ends the account's links.
//!
//! Guards against locking the lender out and against one person gathering duties:
//! nobody disables their own account, resets their own password or changes their own
//! roles (another admin can).

use chrono::Duration;
use rand::RngCore;
use uuid::Uuid;

use aggregates::ErrorCode;

use crate::accounts::auditors::{
    insert_staff, normalize_username, CreateAuditorError, NewStaff, MIN_AUDITOR_PASSWORD_CHARS,
};
use crate::accounts::roles::{roles_text, Role};
use crate::accounts::second_factor::{self, Enrollment};
use crate::db::auditors as db;
use crate::http::auth::token_hash;
use crate::http::envelope::ApiError;
use crate::runtime::state::AppState;

/// How long a setup link works.
pub const SETUP_LINK_HOURS: i64 = 24;

/// A one-time link just issued: the token (shown once, never stored) and its expiry.
#[derive(Debug, Clone)]
pub struct IssuedLink {
    /// 64 hex digits; the console builds `/admin/setup#<token>` from it.
    pub token: String,
    /// When it stops working.
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

fn actor(by: Uuid) -> String {
    format!("auditor:{by}")
}

fn not_found() -> ApiError {
    ApiError::new(ErrorCode::RecordNotFound, "record not found: staff account")
}

/// The roles named in a request: at least one, each known. Error 10004 naming `roles`.
pub fn requested_roles(names: &[String]) -> Result<Vec<Role>, ApiError> {
    let mut roles = Vec::new();
    for name in names {
        let role = Role::parse(name)
            .ok_or_else(|| ApiError::bad_input("roles", &format!("unknown role {name:?}")))?;
        roles.push(role);
    }
    if roles.is_empty() {
        return Err(ApiError::bad_input("roles", "give at least one role"));
    }
    Ok(roles)
}

/// Issues a setup link for `auditor_id` (a reset when `reset`), enrolling a second
/// factor when the deployment requires one. Error 40007 when there is no such account.
async fn issue_link(
    state: &AppState,
    auditor_id: &str,
    reset: bool,
    by: Uuid,
) -> Result<IssuedLink, ApiError> {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let token = hex::encode(bytes);
    let now = state.now();
    let expires_at = now + Duration::hours(SETUP_LINK_HOURS);
    let account = db::account(&state.database, auditor_id)
        .await?
        .ok_or_else(not_found)?;
    // A reset keeps a second factor already enrolled: whoever opens the link (the admin
    // who asked for it, say) still needs the holder's phone to log in.
    let secret =
        (state.env.staff_second_factor && !account.second_factor).then(second_factor::new_secret);
    let hash = token_hash(&token);
    let link = db::NewSetupLink {
        token_hash: &hash,
        totp_secret: secret.as_deref(),
        expires_at,
    };
    let by = actor(by);
    let change = db::Change {
        auditor_id,
        at: now,
        change: if reset { "password_reset" } else { "link" },
        detail: "",
        by: &by,
    };
    if !db::issue_setup_link(&state.database, link, change).await? {
        return Err(not_found());
    }
    Ok(IssuedLink { token, expires_at })
}

/// Creates the account `username` with `roles` (no password until its holder uses the
/// link answered). Errors: 10004 for a bad username or a taken one, or no role.
pub async fn create(
    state: &AppState,
    by: Uuid,
    username: &str,
    roles: &[Role],
) -> Result<(Uuid, IssuedLink), ApiError> {
    let staff = NewStaff {
        username,
        roles,
        password_hash: db::NO_PASSWORD,
        totp_secret: None,
    };
    let created = insert_staff(&state.database, staff, state.now(), &actor(by)).await;
    let auditor_id = match created {
        Ok(id) => id,
        Err(CreateAuditorError::InvalidUsername(why)) => {
            return Err(ApiError::bad_input("username", why))
        }
        Err(CreateAuditorError::DuplicateUsername(name)) => {
            return Err(ApiError::bad_input(
                "username",
                &format!("{name:?} is taken by another staff account"),
            ))
        }
        Err(CreateAuditorError::PasswordTooShort) => unreachable!("no password is set here"),
        Err(CreateAuditorError::Database(error)) => return Err(error.into()),
    };
    let link = issue_link(state, &auditor_id.to_string(), false, by).await?;
    Ok((auditor_id, link))
}

/// Gives `staff_id` exactly `roles`. Errors: 40007 no such account; 10004 taking away
/// one's own `admin` role.
pub async fn assign_roles(
    state: &AppState,
    by: Uuid,
    staff_id: Uuid,
    roles: &[Role],
) -> Result<(), ApiError> {
    if staff_id == by {
        // Nobody grants themself a job (or takes away their own admin role): another
        // admin changes one's roles, and the audit trail names both.
        return Err(ApiError::bad_input(
            "roles",
            "you cannot change your own roles; another admin can",
        ));
    }
    let id = staff_id.to_string();
    db::account(&state.database, &id)
        .await?
        .ok_or_else(not_found)?;
    let text = roles_text(roles);
    let by = actor(by);
    let change = db::Change {
        auditor_id: &id,
        at: state.now(),
        change: "roles",
        detail: &text,
        by: &by,
    };
    db::set_roles(&state.database, change).await?;
    Ok(())
}

/// Disables `staff_id` with `reason` (`Some`), signing it out at once, or enables it
/// (`None`). Errors: 40007 no such account; 10004 a blank or long reason, or one's own
/// account.
pub async fn set_disabled(
    state: &AppState,
    by: Uuid,
    staff_id: Uuid,
    reason: Option<&str>,
) -> Result<(), ApiError> {
    let reason = reason.map(str::trim);
    if reason.is_some_and(|r| r.is_empty() || r.chars().count() > 500) {
        return Err(ApiError::bad_input(
            "reason",
            "give why the account is disabled (1 to 500 characters)",
        ));
    }
    if staff_id == by && reason.is_some() {
        return Err(ApiError::bad_input(
            "staffId",
            "you cannot disable your own account; another admin can",
        ));
    }
    let id = staff_id.to_string();
    db::account(&state.database, &id)
        .await?
        .ok_or_else(not_found)?;
    db::set_disabled(&state.database, &id, reason, state.now(), &actor(by)).await?;
    Ok(())
}

/// Makes the password of `staff_id` unusable, signs it out and answers a new setup
/// link. Errors: 40007 when there is no such account; 10004 one's own (it would sign
/// the admin out mid-task; another admin can).
pub async fn reset_password(
    state: &AppState,
    by: Uuid,
    staff_id: Uuid,
) -> Result<IssuedLink, ApiError> {
    if staff_id == by {
        return Err(ApiError::bad_input(
            "staffId",
            "you cannot reset your own password here; another admin can",
        ));
    }
    issue_link(state, &staff_id.to_string(), true, by).await
}

fn dead_link() -> ApiError {
    ApiError::bad_input(
        "token",
        "this link has expired or was already used; ask an admin for a new one",
    )
}

/// What the setup page shows for the link `token`: the username and, when the link
/// enrolls one, the second factor to scan. Error 10004 for a dead link.
pub async fn setup_info(
    state: &AppState,
    token: &str,
) -> Result<(String, Option<Enrollment>), ApiError> {
    let link = db::setup_link(&state.database, &token_hash(token.trim()), state.now())
        .await?
        .ok_or_else(dead_link)?;
    let issuer = &state.config.lender.legal_name;
    let enrollment = link
        .totp_secret
        .as_deref()
        .and_then(|secret| second_factor::enrollment(secret, issuer, &link.username));
    Ok((link.username, enrollment))
}

/// Uses the link `token`: sets `password` and, when the link enrolls a second factor,
/// checks `totp_code` against it first. Errors 10004: a dead link, a short password,
/// a missing or wrong code (the link stays usable).
pub async fn complete_setup(
    state: &AppState,
    token: &str,
    password: &str,
    totp_code: Option<&str>,
) -> Result<String, ApiError> {
    let hash = token_hash(token.trim());
    let link = db::setup_link(&state.database, &hash, state.now())
        .await?
        .ok_or_else(dead_link)?;
    if password.chars().count() < MIN_AUDITOR_PASSWORD_CHARS {
        return Err(ApiError::bad_input(
            "password",
            &format!("must be at least {MIN_AUDITOR_PASSWORD_CHARS} characters"),
        ));
    }
    // The step of the enrolling code is taken with the link, so the same code does
    // not open a session afterwards.
    let mut step = None;
    if let Some(secret) = &link.totp_secret {
        let code = totp_code.unwrap_or_default();
        step = second_factor::matching_step(secret, code, state.now());
        if step.is_none() {
            return Err(ApiError::bad_input(
                "totpCode",
                "enter the 6-digit code your authenticator app shows for this account",
            ));
        }
    }
    let password_hash = state.user_services.hasher.hash(password).await;
    if !db::use_setup_link(&state.database, &hash, &password_hash, step, state.now()).await? {
        return Err(dead_link());
    }
    Ok(normalize_username(&link.username))
}

/// The staff members who stand behind `staff_id`'s account: whoever created it, gave it
/// roles, reset its password or enabled it, then whoever did so to theirs, and so on
/// (itself left out). Such a person could have held the account's setup link, so they
/// are not a second pair of eyes with it: a change they proposed is not approved by it
/// (issue 55; the line refuses it, 50006).
///
/// Errors: the store's.
pub async fn vouchers(state: &AppState, staff_id: Uuid) -> Result<Vec<Uuid>, ApiError> {
    let changers = crate::db::auditors::changers(&state.database).await?;
    let mut found: Vec<Uuid> = Vec::new();
    let mut next = vec![staff_id];
    while let Some(account) = next.pop() {
        let account = account.to_string();
        let by = changers
            .iter()
            .filter(|(changed, _)| *changed == account)
            .filter_map(|(_, by)| by.strip_prefix("auditor:")?.parse::<Uuid>().ok());
        for voucher in by {
            if voucher != staff_id && !found.contains(&voucher) {
                found.push(voucher);
                next.push(voucher);
            }
        }
    }
    Ok(found)
}
