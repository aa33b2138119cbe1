//! Recovery and credentials (PRODUCT.md 12.3): forgot password, change password, and
//! the borrower's sessions. The withdraw PIN is `/jackey/user/withdrawPin` (`account`).
//! Every rule (the code's proof, the lock, the password rules, the failure count) is
//! decided in the User aggregate; revoking sessions after a reset or a change is a
//! loan-workflow step driven by `PasswordReset` or `PasswordChanged`, so a crash
//! between the two cannot skip it.

use aggregates::types::check_password;
use aggregates::user::{User, UserCommand, UserEvent, MAX_FAILED_ATTEMPTS};
use aggregates::{Actor, ErrorCode};
use axum::extract::State;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use cqrs_es::EventEnvelope;
use serde::Deserialize;
use utoipa::{OpenApi, ToSchema};

use crate::accounts::sms;
use crate::http::auth::{self, Borrower, SessionView};
use crate::http::envelope::{ok, ApiError, ApiJson, Envelope, Null};
use crate::http::middleware::request_id::current as request_id;
use crate::queries::borrower as queries;
use crate::runtime::state::AppState;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/jackey/user/resetPassword", post(reset_password))
        .route("/jackey/user/changePassword", post(change_password))
        .route("/jackey/user/sessions", post(sessions))
        .route("/jackey/user/sessions/revoke", post(revoke_session))
}

/// The OpenAPI description of this module's calls (see [`crate::http::openapi`]).
#[derive(OpenApi)]
#[openapi(paths(reset_password, change_password, sessions, revoke_session))]
pub struct Doc;

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ResetPasswordBody {
    /// The registered phone number.
    mobile: String,
    /// The code sent by `/jackey/sms/reset`.
    sms_code: String,
    /// The new password (PRODUCT.md 5: at least 8 characters).
    password: String,
}

#[utoipa::path(
    post,
    path = "/jackey/user/resetPassword",
    tag = "borrower account",
    summary = "Forgot password: set a new one with an SMS code",
    description = "PRODUCT.md 12.3. Revokes every session of the account and lifts a \
                   security lock (never a compliance hold). 10004 bad password (checked \
                   first, so it does not spend the code); 10013 no code waiting; 10011 \
                   wrong code; an unknown number answers as a wrong code would; 5 too many \
                   requests from this client.",
    request_body = ResetPasswordBody,
    responses((status = 200, description = "Envelope, `data` null: log in with the new password", body = Envelope<Null>))
)]
async fn reset_password(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<ResetPasswordBody>,
) -> Result<Response, ApiError> {
    check_password(&body.password).map_err(|e| ApiError::bad_input(e.field, &e.reason))?;
    if body.sms_code.trim().is_empty() {
        return Err(ApiError::bad_input("smsCode", "is required"));
    }
    let mobile = body.mobile.trim();
    // The code first, so an unknown number answers exactly as a registered one.
    sms::verify(&state, mobile, "reset", body.sms_code.trim()).await?;
    let Some(user_id) = queries::user_by_mobile(&state, mobile).await? else {
        return Err(ApiError::code(ErrorCode::VerificationCodeInvalid));
    };
    let command = || UserCommand::ResetPassword {
        password: body.password.clone(),
        sms_code_verified: true,
    };
    state
        .execute(
            &state.users,
            &user_id.to_string(),
            command,
            Actor::User(user_id),
            &request_id(),
        )
        .await?;
    Ok(ok(Null))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ChangePasswordBody {
    /// The current password.
    old_password: String,
    /// The new password (PRODUCT.md 5: at least 8 characters).
    password: String,
}

#[utoipa::path(
    post,
    path = "/jackey/user/changePassword",
    tag = "borrower account",
    summary = "Change the password (logged in)",
    description = "PRODUCT.md 12.3. Every other session of the account is signed out (a \
                   workflow step, moments after the answer); this one stays. 10002 wrong \
                   current password, with the attempts left (it counts as a failed login; \
                   the fifth in a row locks, P4); 20003 locked; 10004 the new password \
                   breaks PRODUCT.md 5.",
    security(("bearer" = [])),
    request_body = ChangePasswordBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn change_password(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<ChangePasswordBody>,
) -> Result<Response, ApiError> {
    let user_id = borrower.user_id;
    let session = auth::session_id(&borrower.token);
    let command = || UserCommand::ChangePassword {
        old_password: body.old_password.clone(),
        password: body.password.clone(),
        session: session.clone(),
    };
    let events = state
        .execute(
            &state.users,
            &user_id.to_string(),
            command,
            Actor::User(user_id),
            &request_id(),
        )
        .await?;
    match password_refusal(&events, "wrong password") {
        Some(refusal) => Err(refusal),
        None => Ok(ok(Null)),
    }
}

/// The answer to a wrong current password the User recorded (change password: the
/// caller is signed in, so the count tells nobody new that the account exists): 20003
/// when it locked the account (P4), else 10002 `"{wrong} (N attempts left)"`; `None`
/// when no wrong password was recorded.
fn password_refusal(events: &[EventEnvelope<User>], wrong: &str) -> Option<ApiError> {
    events.iter().rev().find_map(|event| match &event.payload {
        UserEvent::AccountLocked { reason, .. } => Some(ApiError::new(
            ErrorCode::AccountLocked,
            format!("account locked: {reason}"),
        )),
        UserEvent::LoginFailed {
            failed_attempts, ..
        } => {
            let left = MAX_FAILED_ATTEMPTS.saturating_sub(*failed_attempts);
            Some(ApiError::new(
                ErrorCode::WrongPhoneOrPassword,
                format!("{wrong} ({left} attempts left)"),
            ))
        }
        _ => None,
    })
}

#[utoipa::path(
    post,
    path = "/jackey/user/sessions",
    tag = "borrower account",
    summary = "The borrower's live sessions",
    description = "PRODUCT.md 12.3: every unrevoked, unexpired login of this account, newest \
                   first; `current` marks the one making the call.",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the sessions", body = Envelope<Option<Vec<SessionView>>>))
)]
async fn sessions(State(state): State<AppState>, borrower: Borrower) -> Result<Response, ApiError> {
    Ok(ok(auth::sessions_of(
        &state,
        borrower.user_id,
        &borrower.token,
    )
    .await?))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct RevokeSessionBody {
    /// A session's `id` from `/jackey/user/sessions`.
    #[schema(max_length = 16)]
    session_id: String,
}

#[utoipa::path(
    post,
    path = "/jackey/user/sessions/revoke",
    tag = "borrower account",
    summary = "Log out one session",
    description = "PRODUCT.md 12.3. Only the caller's own sessions can be named; 40007 none \
                   of them matches; 10004 not a session id.",
    security(("bearer" = [])),
    request_body = RevokeSessionBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn revoke_session(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<RevokeSessionBody>,
) -> Result<Response, ApiError> {
    auth::revoke_session(&state, borrower.user_id, body.session_id.trim()).await?;
    Ok(ok(Null))
}
