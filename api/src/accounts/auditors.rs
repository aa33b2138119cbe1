//! Staff (auditor) accounts: the first created on the command line (`api
//! create-auditor`), the rest by an `admin` in the console (issue 55); passwords only as
//! argon2id hashes, set by the holder through a one-time link; roles
//! ([`crate::accounts::roles`]); the second factor
//! ([`crate::accounts::second_factor`]); the per-username login attempt counter (five
//! failed logins lock a username for 15 minutes, PRODUCT.md 7). Every change to an
//! account is recorded in `staff_change` in the transaction of the change.

use tokio::sync::OnceCell;
use uuid::Uuid;

use aggregates::services::{Clock, SecretHasher};
use aggregates::ErrorCode;

use crate::accounts::roles::{roles_text, Role};
use crate::accounts::second_factor;
use crate::db::auditors as db;
use crate::http::envelope::ApiError;
use crate::runtime::services::Argon2Hasher;
use crate::runtime::state::AppState;
use projections::store::Database;

/// Shortest auditor password accepted by [`create_auditor`].
pub const MIN_AUDITOR_PASSWORD_CHARS: usize = 8;

/// Why an auditor account could not be created.
#[derive(Debug, thiserror::Error)]
pub enum CreateAuditorError {
    /// The username breaks the rules (3–64 of `a-z 0-9 . _ - @`).
    #[error("username: {0}")]
    InvalidUsername(&'static str),
    /// The password is shorter than [`MIN_AUDITOR_PASSWORD_CHARS`].
    #[error("password: must be at least {MIN_AUDITOR_PASSWORD_CHARS} characters")]
    PasswordTooShort,
    /// Another auditor already has this username.
    #[error("an auditor named {0:?} already exists")]
    DuplicateUsername(String),
    /// The store refused the insert for another reason.
    #[error("event store: {0}")]
    Database(#[from] sqlx::Error),
}

/// The username as stored and looked up: trimmed and lower-cased, so `Alice` and
/// `alice` are one account.
pub fn normalize_username(username: &str) -> String {
    username.trim().to_lowercase()
}

/// The username rules (3–64 of `a-z 0-9 . _ - @`, after [`normalize_username`]).
fn check_username(username: &str) -> Result<(), CreateAuditorError> {
    let length = username.chars().count();
    if !(3..=64).contains(&length) {
        return Err(CreateAuditorError::InvalidUsername(
            "must be 3 to 64 characters",
        ));
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@');
    if !username.chars().all(allowed) {
        return Err(CreateAuditorError::InvalidUsername(
            "only letters, digits and . _ - @ are allowed",
        ));
    }
    Ok(())
}

/// A new staff account: who it is, its roles and how it is first opened.
#[derive(Debug, Clone, Copy)]
pub struct NewStaff<'a> {
    /// As typed; normalized here.
    pub username: &'a str,
    /// At least one.
    pub roles: &'a [Role],
    /// The argon2id hash of the password, or [`db::NO_PASSWORD`] until a setup link is used.
    pub password_hash: &'a str,
    /// A second factor enrolled at once (the command line prints it).
    pub totp_secret: Option<&'a str>,
}

/// Stores a new staff account and records its creation by `by`, at `now`.
pub(crate) async fn insert_staff(
    database: &Database,
    staff: NewStaff<'_>,
    now: chrono::DateTime<chrono::Utc>,
    by: &str,
) -> Result<Uuid, CreateAuditorError> {
    let username = normalize_username(staff.username);
    check_username(&username)?;
    let auditor_id = Uuid::now_v7();
    let roles = roles_text(staff.roles);
    let account = db::NewAccount {
        auditor_id,
        username: &username,
        password_hash: staff.password_hash,
        roles: &roles,
        totp_secret: staff.totp_secret,
    };
    let inserted = db::insert(database, account, now, by).await;
    match inserted {
        Ok(_) => Ok(auditor_id),
        Err(error)
            if error
                .as_database_error()
                .is_some_and(|e| e.is_unique_violation()) =>
        {
            Err(CreateAuditorError::DuplicateUsername(username))
        }
        Err(error) => Err(error.into()),
    }
}

/// Creates a staff account on the command line (`api create-auditor`; the first
/// account of a deployment, and the tests' officers) with `roles`: the password is
/// stored only as an argon2id hash, the id is a new UUID v7, the change is recorded as
/// the operator's. With `totp_secret`, the second factor is enrolled at once.
///
/// # Errors
/// [`CreateAuditorError::InvalidUsername`], [`CreateAuditorError::PasswordTooShort`],
/// [`CreateAuditorError::DuplicateUsername`] when the (normalized) name is taken, and
/// [`CreateAuditorError::Database`] for any other store failure.
pub async fn create_staff_account(
    database: &Database,
    username: &str,
    password: &str,
    roles: &[Role],
    totp_secret: Option<&str>,
) -> Result<Uuid, CreateAuditorError> {
    if password.chars().count() < MIN_AUDITOR_PASSWORD_CHARS {
        return Err(CreateAuditorError::PasswordTooShort);
    }
    let password_hash = Argon2Hasher.hash(password).await;
    // The command line has no Clock service: the account's creation is wall time.
    let now = projections::clock::SystemClock.now();
    let staff = NewStaff {
        username,
        roles,
        password_hash: &password_hash,
        totp_secret,
    };
    insert_staff(database, staff, now, OPERATOR).await
}

/// [`create_staff_account`] with every role and no second factor: the officers of the
/// tests, who do every job.
pub async fn create_auditor(
    database: &Database,
    username: &str,
    password: &str,
) -> Result<Uuid, CreateAuditorError> {
    create_staff_account(
        database,
        username,
        password,
        &crate::accounts::roles::ALL_ROLES,
        None,
    )
    .await
}

/// Who made a change on the command line, as `staff_change.by_actor` records it.
pub const OPERATOR: &str = "operator";

/// Why an auditor account could not be disabled or enabled.
#[derive(Debug, thiserror::Error)]
pub enum SetDisabledError {
    /// No auditor has this (normalized) username.
    #[error("no auditor is named {0:?}")]
    UnknownUsername(String),
    /// A disable needs a reason, kept beside its time (at most 500 characters).
    #[error("reason: give why the account is disabled (1 to 500 characters)")]
    Reason,
    /// The store failed.
    #[error("event store: {0}")]
    Database(#[from] sqlx::Error),
}

/// Disables the auditor account `username` with `reason` (`Some`), or enables it again
/// (`None`), at `now`, and answers whether that changed anything (`false`: it already
/// was so; the first disable's time and reason are kept). Used by `api
/// disable-auditor` and `api enable-auditor`.
///
/// A disabled account cannot log in ([`find`]), and each of its tokens reads as revoked
/// from the moment of the disable: the session check joins this row
/// ([`projections::reads::session`]), so a login racing the disable leaves no live
/// token behind. Its tokens are also revoked here, by a disable and by an enable, in
/// the transaction of the change, so that none issued before comes back to life when
/// the account is enabled again.
///
/// # Errors
/// [`SetDisabledError::UnknownUsername`], [`SetDisabledError::Reason`] (blank or over
/// 500 characters), [`SetDisabledError::Database`].
pub async fn set_disabled(
    database: &Database,
    username: &str,
    reason: Option<&str>,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<bool, SetDisabledError> {
    let username = normalize_username(username);
    let reason = reason.map(str::trim);
    if reason.is_some_and(|r| r.is_empty() || r.chars().count() > 500) {
        return Err(SetDisabledError::Reason);
    }
    let Some(auditor_id) = db::id_of(database, &username).await? else {
        return Err(SetDisabledError::UnknownUsername(username));
    };
    // The change and the revocation in one transaction: an enable never lets a token
    // live that a disable (or a login racing it) left unrevoked.
    let changed = db::set_disabled(database, &auditor_id, reason, now, OPERATOR).await?;
    Ok(changed > 0)
}

/// A hash to verify against when the username is unknown, so an unknown name takes
/// as long to refuse as a wrong password.
pub async fn dummy_hash() -> &'static str {
    static HASH: OnceCell<String> = OnceCell::const_new();
    HASH.get_or_init(|| Argon2Hasher.hash("not an auditor password"))
        .await
}

/// The auditor named `username` (normalized) who may log in: id, username, password
/// hash. A disabled account ([`set_disabled`]) is not found, so its login is refused
/// as an unknown name's is, after the same hash check.
pub async fn find(state: &AppState, username: &str) -> Result<Option<db::Login>, ApiError> {
    Ok(db::find_enabled(&state.database, username).await?)
}

/// A successful login ends the run of attempts of `username`.
pub async fn clear_login_attempts(state: &AppState, username: &str) -> Result<(), ApiError> {
    db::clear_login_attempts(&state.database, username).await?;
    Ok(())
}

/// Failed logins in a row (within [`LOGIN_FAILURE_WINDOW_MINUTES`]) that lock an
/// auditor username.
pub const MAX_FAILED_AUDITOR_LOGINS: i64 = 5;
/// How long a locked username stays locked, and how long failures are remembered.
pub const LOGIN_FAILURE_WINDOW_MINUTES: i64 = 15;

/// Error 5: the username is locked for the window after too many failed logins.
pub fn too_many_logins() -> ApiError {
    ApiError::new(
        ErrorCode::TooManyRequests,
        format!(
            "too many requests, try again later: too many failed logins for this username; \
             try again in {LOGIN_FAILURE_WINDOW_MINUTES} minutes"
        ),
    )
}

/// Takes one login attempt of `username` and answers its number in the current
/// run of attempts, in one statement (an upsert), before any password is checked:
/// a run starts at 1 after a success (which deletes the row), after a lock has
/// passed, or when the last attempt is older than the window; the attempt that
/// reaches [`MAX_FAILED_AUDITOR_LOGINS`] sets the lock. Error 5 for an attempt
/// beyond it (the username is locked): no password is checked. So however many
/// guesses arrive at once, at most five passwords are checked per window.
pub async fn take_login_attempt(state: &AppState, username: &str) -> Result<i64, ApiError> {
    let window = chrono::Duration::minutes(LOGIN_FAILURE_WINDOW_MINUTES);
    let attempt = db::take_login_attempt(
        &state.database,
        username,
        state.now(),
        window,
        MAX_FAILED_AUDITOR_LOGINS,
    )
    .await?;
    if attempt > MAX_FAILED_AUDITOR_LOGINS {
        return Err(too_many_logins());
    }
    Ok(attempt)
}

/// Error 10002 for a wrong username, password or second-factor code: one answer, so
/// none tells which was wrong.
pub fn wrong_login() -> ApiError {
    ApiError::new(
        ErrorCode::WrongPhoneOrPassword,
        "wrong username, password or code",
    )
}

/// The second factor of a log-in whose password was right (`attempt`: its number in the
/// run, [`take_login_attempt`]): with one enrolled, `code` must be its code for now,
/// not taken before (the step is taken in one statement); without one, the log-in is
/// refused where the deployment requires one (`STAFF_SECOND_FACTOR`). Every refusal is
/// the wrong password's (10002, or 5 when it ends the run of attempts), so that no
/// answer tells a right password without its code from a wrong one.
pub async fn second_factor(
    state: &AppState,
    login: &db::Login,
    code: Option<&str>,
    attempt: i64,
) -> Result<(), ApiError> {
    let accepted = match (&login.totp_secret, code) {
        (None, _) => !state.env.staff_second_factor,
        (Some(_), None) => false,
        (Some(secret), Some(code)) => match second_factor::matching_step(secret, code, state.now())
        {
            Some(step) => db::take_totp_step(&state.database, &login.auditor_id, step).await?,
            None => false,
        },
    };
    if accepted {
        return Ok(());
    }
    if attempt >= MAX_FAILED_AUDITOR_LOGINS {
        return Err(too_many_logins());
    }
    Err(wrong_login())
}
