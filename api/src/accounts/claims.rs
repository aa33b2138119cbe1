//! Values one account at most may hold, claimed in their own tables before the User
//! command that records them (the event log cannot enforce uniqueness across
//! aggregates): the phone number (`user_mobile`, 10001), the ID number and the email
//! (`user_claim`, 10026 and 10025). A claim is one atomic insert; a refused command
//! releases the claims its request made.

use aggregates::ErrorCode;
use uuid::Uuid;

use crate::db::claims::{self as db, Release};
use crate::http::envelope::ApiError;
use crate::runtime::state::AppState;
use projections::projection::time_text;

/// Claims `mobile` for `user_id`. Error 10001 when another account holds it. A claim
/// left by a registration that died between the claim and its `Register` command
/// ([`take_over_abandoned`]) is taken over instead, so a crash there never keeps the
/// phone number from registering.
pub async fn claim_mobile(state: &AppState, mobile: &str, user_id: Uuid) -> Result<(), ApiError> {
    let claimed = db::insert_mobile(&state.database, mobile, user_id, state.now()).await;
    match claimed {
        Ok(_) => Ok(()),
        Err(error)
            if error
                .as_database_error()
                .is_some_and(|e| e.is_unique_violation()) =>
        {
            if take_over_abandoned(state, mobile, user_id).await? {
                Ok(())
            } else {
                Err(ApiError::code(ErrorCode::PhoneAlreadyRegistered))
            }
        }
        Err(error) => Err(ApiError::internal(error)),
    }
}

/// Takes over the claim on `mobile` for `user_id` when its holder never registered
/// (the User aggregate, not a read model, says so) and the claim is older than
/// [`crate::REQUEST_TIMEOUT`]: the request that made it has been cut off by then, so
/// it can no longer register. Answers whether it took the claim; one conditional
/// update, so of two registrations taking over at once only one wins.
async fn take_over_abandoned(
    state: &AppState,
    mobile: &str,
    user_id: Uuid,
) -> Result<bool, ApiError> {
    let Some(holder) = db::mobile_holder(&state.database, mobile).await? else {
        return Ok(false);
    };
    let timeout = chrono::Duration::from_std(crate::REQUEST_TIMEOUT).unwrap_or_default();
    if holder.created_at >= time_text(state.now() - timeout) {
        return Ok(false);
    }
    let registered = state.users.load(&holder.user_id).await?.id.is_some();
    if registered {
        return Ok(false);
    }
    let taken =
        db::take_over_mobile(&state.database, mobile, &holder, user_id, state.now()).await?;
    if taken == 1 {
        tracing::warn!(abandoned_by = %holder.user_id, "phone claim of a registration that never completed taken over");
    }
    Ok(taken == 1)
}

/// Releases `user_id`'s claim on `mobile` (its registration was refused).
pub async fn release_mobile(state: &AppState, mobile: &str, user_id: Uuid) {
    let released = db::release_mobile(&state.database, mobile, user_id).await;
    if let Err(error) = released {
        tracing::error!(%error, "mobile claim not released");
    }
}

/// A value one account at most may hold (`user_claim`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimKind {
    /// The ID number: 10026 when another account holds it.
    Identity,
    /// The email address (compared lower-case): 10025 when another account holds it.
    Email,
}

impl ClaimKind {
    fn as_str(self) -> &'static str {
        match self {
            Self::Identity => "identity",
            Self::Email => "email",
        }
    }

    fn taken(self) -> ErrorCode {
        match self {
            Self::Identity => ErrorCode::IdentityAlreadyRegistered,
            Self::Email => ErrorCode::EmailAlreadyExists,
        }
    }

    fn normalize(self, value: &str) -> String {
        match self {
            Self::Identity => value.trim().to_string(),
            Self::Email => value.trim().to_lowercase(),
        }
    }
}

/// A claim this request holds: its kind, value, and whether this request made it.
pub struct Claim {
    kind: ClaimKind,
    value: String,
    new: bool,
}

/// Claims `value` of `kind` for `user_id`. Error 10026 or 10025 when another account
/// holds it.
pub async fn claim(
    state: &AppState,
    user_id: Uuid,
    kind: ClaimKind,
    value: &str,
) -> Result<Claim, ApiError> {
    let uid = user_id.to_string();
    let value = kind.normalize(value);
    // A claim released between the insert and the read is claimed again.
    for _ in 0..3 {
        let inserted =
            db::insert_claim(&state.database, kind.as_str(), &value, &uid, state.now()).await?;
        if inserted == 1 {
            return Ok(Claim {
                kind,
                value,
                new: true,
            });
        }
        match db::claim_holder(&state.database, kind.as_str(), &value).await? {
            Some(holder) if holder == uid => {
                return Ok(Claim {
                    kind,
                    value,
                    new: false,
                })
            }
            Some(_) => return Err(ApiError::code(kind.taken())),
            None => continue,
        }
    }
    Err(ApiError::new(
        ErrorCode::ServerError,
        "busy, please try again",
    ))
}

/// How long an account's claim turn ([`take_turn`]) is held at most: a request that
/// died holding it frees it after this.
pub const TURN_SECONDS: i64 = 30;

/// The `user_claim` kind of an account's turn (its value is the account's id).
const TURN: &str = "turn";

/// Takes the account's turn to change claimed values, waiting up to about 3 s for
/// another request of the same account to finish (a double tap). One request of an
/// account at a time claims, commits and settles: two run together could otherwise
/// settle in another order than they committed, or one's refusal release a value the
/// other then records, leaving the profile's ID number or email unclaimed for a
/// second account to take (10026 and 10025 defeated). Error 5 when the turn is not
/// freed in time. Release it with [`end_turn`].
pub async fn take_turn(state: &AppState, user_id: Uuid) -> Result<(), ApiError> {
    for _ in 0..30 {
        let now = state.now();
        let stale = now - chrono::Duration::seconds(TURN_SECONDS);
        let taken = db::take_turn(&state.database, TURN, user_id, now, stale).await?;
        if taken == 1 {
            return Ok(());
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    Err(ApiError::new(
        ErrorCode::TooManyRequests,
        "another change of this account is in progress, try again",
    ))
}

/// Frees the account's turn ([`take_turn`]).
pub async fn end_turn(state: &AppState, user_id: Uuid) {
    let freed = db::delete_claim(&state.database, TURN, &user_id.to_string()).await;
    if let Err(error) = freed {
        tracing::error!(%error, "claim turn not freed; it lapses after {TURN_SECONDS} s");
    }
}

/// After the command (within the account's turn, [`take_turn`]): on success the
/// borrower's previous values of these kinds are released; on a refusal the claims
/// this request made are released again.
pub async fn settle(state: &AppState, user_id: Uuid, claims: &[Claim], succeeded: bool) {
    let uid = user_id.to_string();
    for claim in claims {
        let (which, release) = if succeeded {
            (Release::AllBut, true)
        } else {
            (Release::Only, claim.new)
        };
        if !release {
            continue;
        }
        let released = db::release(
            &state.database,
            claim.kind.as_str(),
            &uid,
            &claim.value,
            which,
        )
        .await;
        if let Err(error) = released {
            tracing::error!(%error, kind = claim.kind.as_str(), "claim not released");
        }
    }
}
