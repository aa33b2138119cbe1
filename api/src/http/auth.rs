//! Sessions: opaque 256-bit random tokens, stored only as SHA-256 hashes, expiring,
//! revoked at logout (DESIGN.md "API conventions"). Borrowers and auditors have
//! separate token kinds, so a borrower token never opens `/admin/api`.

use aggregates::ErrorCode;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use chrono::Duration;
use rand::RngCore;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::accounts::roles;
use crate::db::sessions::{self as db, NewSession};
use crate::http::envelope::ApiError;
use crate::http::middleware::staff_trail;
use crate::http::route_table::{self, Access};
use crate::runtime::state::AppState;
use projections::projection::time_text;
use projections::reads::{self, Session};

/// Who a token belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// A borrower (`Authorization` on `/jackey/...`).
    Borrower,
    /// An auditor (`/admin/api/...`).
    Auditor,
}

impl TokenKind {
    /// The `kind` column's value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Borrower => "borrower",
            Self::Auditor => "auditor",
        }
    }
}

/// The stored form of a session token: its SHA-256, lower-case hex (64 characters).
pub(crate) fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Issues a token for `subject`, for `TOKEN_TTL_HOURS` (a borrower) or
/// `AUDITOR_TOKEN_TTL_HOURS` (an auditor); only its hash is stored.
pub async fn issue(state: &AppState, subject: Uuid, kind: TokenKind) -> Result<String, ApiError> {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let token = hex::encode(bytes);
    let now = state.now();
    let hours = match kind {
        TokenKind::Borrower => state.env.token_ttl_hours,
        TokenKind::Auditor => state.env.auditor_token_ttl_hours,
    };
    let session = NewSession {
        token_hash: &token_hash(&token),
        subject,
        kind: kind.as_str(),
        expires_at: now + Duration::hours(hours),
        created_at: now,
    };
    db::insert(&state.database, &session).await?;
    Ok(token)
}

/// The subject of a live token of `kind`. Errors: 20001 unknown or revoked (or of the
/// other kind), 7 expired.
pub async fn resolve(state: &AppState, token: &str, kind: TokenKind) -> Result<Uuid, ApiError> {
    let row = reads::session(&state.database, &token_hash(token), kind.as_str()).await?;
    check(state, row)
}

/// Whether a session row found for a token is live: the one place that rule lives,
/// for [`resolve`] and for the reads that fetch the session with their rows
/// ([`projections::reads`]). Errors: 20001 no row or revoked, 7 expired.
pub fn check(state: &AppState, session: Option<Session>) -> Result<Uuid, ApiError> {
    let Some(session) = session else {
        return Err(ApiError::code(ErrorCode::TokenInvalid));
    };
    if session.revoked_at.is_some() {
        return Err(ApiError::code(ErrorCode::TokenInvalid));
    }
    if session.expires_at <= time_text(state.now()) {
        return Err(ApiError::code(ErrorCode::SessionExpired));
    }
    Uuid::parse_str(&session.subject).map_err(ApiError::internal)
}

/// A borrower's bearer token, not yet checked: for the reads that check the session
/// in the same statement as they read ([`projections::reads`], then [`check`]).
#[derive(Debug, Clone)]
pub struct BorrowerToken {
    /// SHA-256 of the token, as stored.
    pub hash: String,
}

impl FromRequestParts<AppState> for BorrowerToken {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, ApiError> {
        Ok(Self {
            hash: token_hash(&bearer(parts)?),
        })
    }
}

/// Revokes a token (logout). Revoking twice is harmless.
pub async fn revoke(state: &AppState, token: &str) -> Result<(), ApiError> {
    db::revoke(&state.database, &token_hash(token), state.now()).await?;
    revoked_on_replica(state).await
}

/// After a revocation on the primary: waits (bounded) until the read replica, if any,
/// has replayed it, so that no read there accepts the token once the revocation is
/// answered (the reads check the session where they read; ADR 0013).
async fn revoked_on_replica(state: &AppState) -> Result<(), ApiError> {
    let Some(replica) = &state.replica else {
        return Ok(());
    };
    let replayed = projections::store::replica::wait_for_replay(
        &state.database,
        replica,
        crate::http::middleware::read_your_writes::READ_TIMEOUT,
    )
    .await?;
    if !replayed {
        tracing::warn!("the read replica had not replayed a session revocation in time");
    }
    Ok(())
}

/// The bearer token of a request. Error 401 when there is none.
pub fn bearer(parts: &Parts) -> Result<String, ApiError> {
    bearer_of(&parts.headers)
}

/// The bearer token in `headers`. Error 401 when there is none.
pub fn bearer_of(headers: &axum::http::HeaderMap) -> Result<String, ApiError> {
    let header = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let token = header
        .strip_prefix("Bearer ")
        .or_else(|| header.strip_prefix("bearer "))
        .unwrap_or(header)
        .trim();
    if token.is_empty() {
        return Err(ApiError::code(ErrorCode::NotLoggedIn));
    }
    Ok(token.to_string())
}

/// An authenticated borrower: their user id and the token used.
#[derive(Debug, Clone)]
pub struct Borrower {
    /// User id.
    pub user_id: Uuid,
    /// The bearer token (for logout).
    pub token: String,
}

impl FromRequestParts<AppState> for Borrower {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = bearer(parts)?;
        let user_id = resolve(state, &token, TokenKind::Borrower).await?;
        Ok(Self { user_id, token })
    }
}

/// A staff member allowed the console call they make: the session is live and one of
/// its roles holds what the call needs ([`route_table::CONSOLE_CALLS`], issue 55),
/// checked on every call, since a hidden button is no control. Errors: 401, 20001, 7
/// as [`resolve`]; 50005 a role short, naming the permission, or a call with no line in
/// the table.
#[derive(Debug, Clone)]
pub struct Auditor {
    /// Auditor id.
    pub auditor_id: Uuid,
    /// The account's roles as stored (comma-separated), read with the session.
    pub roles: String,
}

impl FromRequestParts<AppState> for Auditor {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = bearer(parts)?;
        let staff = resolve_staff(state, &token).await?;
        staff.may(route_table::console_access(parts.uri.path()))?;
        Ok(Self {
            auditor_id: staff.auditor_id,
            roles: staff.roles,
        })
    }
}

/// A live staff session and the roles of its account.
#[derive(Debug, Clone)]
pub struct StaffSession {
    /// The account.
    pub auditor_id: Uuid,
    /// Its roles as stored (comma-separated), read with the session.
    pub roles: String,
}

impl StaffSession {
    /// Whether this staff member may make a call that needs `access` (`None`: a call
    /// with no line in the table, refused). Error 50005 naming the permission.
    pub fn may(&self, access: Option<Access>) -> Result<(), ApiError> {
        match access {
            Some(Access::Public | Access::Session) => Ok(()),
            Some(Access::Needs(permission)) if roles::allows(&self.roles, permission) => Ok(()),
            Some(Access::Needs(permission)) => Err(ApiError::new(
                ErrorCode::NotPermitted,
                format!("not permitted for your role ({permission})"),
            )),
            None => Err(ApiError::new(
                ErrorCode::NotPermitted,
                "not permitted for your role (this call grants no role)",
            )),
        }
    }
}

/// The staff session of `token` with its roles, and names its staff member to the
/// audit trail. Errors: 20001 unknown, revoked or of a disabled account; 7 expired.
pub async fn resolve_staff(state: &AppState, token: &str) -> Result<StaffSession, ApiError> {
    let row = reads::session(
        &state.database,
        &token_hash(token),
        TokenKind::Auditor.as_str(),
    )
    .await?;
    let roles = row
        .as_ref()
        .and_then(|session| session.roles.clone())
        .unwrap_or_default();
    let auditor_id = check(state, row)?;
    staff_trail::identify(auditor_id);
    Ok(StaffSession { auditor_id, roles })
}

/// Characters of the token hash that name a session to its owner (`/user/sessions`):
/// enough to be unique among one borrower's sessions, never enough to be the token.
const SESSION_ID_CHARS: usize = 16;

/// The id of the session of `token`, as [`sessions_of`] names it.
pub fn session_id(token: &str) -> String {
    token_hash(token)[..SESSION_ID_CHARS].to_string()
}

/// One live borrower session, as `/jackey/user/sessions` lists it (PRODUCT.md 12.3).
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    /// The first 16 hex digits of the token's SHA-256: names it for `revoke`.
    pub id: String,
    /// When it was issued (login), RFC 3339 UTC.
    pub created_at: String,
    /// When it expires, RFC 3339 UTC.
    pub expires_at: String,
    /// True for the session making this call.
    pub current: bool,
}

/// The live (unrevoked, unexpired) borrower sessions of `user_id`, newest first.
pub async fn sessions_of(
    state: &AppState,
    user_id: Uuid,
    current_token: &str,
) -> Result<Vec<SessionView>, ApiError> {
    let rows = db::live_borrower_sessions(&state.database, user_id, state.now()).await?;
    let current = token_hash(current_token);
    Ok(rows
        .into_iter()
        .map(|row| SessionView {
            id: row.token_hash[..SESSION_ID_CHARS].to_string(),
            current: row.token_hash == current,
            created_at: row.created_at,
            expires_at: row.expires_at,
        })
        .collect())
}

/// Revokes the session of `user_id` named `session_id` (from [`sessions_of`]) in one
/// statement; only the owner's own sessions match. Errors: 40007 when none matched.
pub async fn revoke_session(
    state: &AppState,
    user_id: Uuid,
    session_id: &str,
) -> Result<(), ApiError> {
    let valid = session_id.len() == SESSION_ID_CHARS
        && session_id
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
    if !valid {
        return Err(ApiError::bad_input("sessionId", "unknown session"));
    }
    let revoked =
        db::revoke_borrower_session(&state.database, user_id, session_id, state.now()).await?;
    if revoked == 0 {
        return Err(ApiError::code(ErrorCode::RecordNotFound));
    }
    revoked_on_replica(state).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_stored_as_its_sha256_in_lower_case_hex() {
        // FIPS 180-2, appendix B.1: SHA-256("abc").
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
