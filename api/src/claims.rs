//! Values one account at most may hold, claimed in their own tables before the User
//! command that records them (the event log cannot enforce uniqueness across
//! aggregates): the phone number (`user_mobile`, 10001), the ID number and the email
//! (`user_claim`, 10026 and 10025). A claim is one atomic insert; a refused command
//! releases the claims its request made.

use aggregates::ErrorCode;
use uuid::Uuid;

use crate::db::with_pool;
use crate::envelope::ApiError;
use crate::state::AppState;
use projections::projection::time_text;

/// Claims `mobile` for `user_id`. Error 10001 when another account holds it.
pub async fn claim_mobile(state: &AppState, mobile: &str, user_id: Uuid) -> Result<(), ApiError> {
    let claim = "insert into user_mobile (mobile, user_id, created_at) values ($1, $2, $3)";
    let claimed = with_pool!(&state.database, pool => sqlx::query(claim)
        .bind(mobile).bind(user_id.to_string()).bind(time_text(state.now()))
        .execute(pool).await.map(|r| r.rows_affected()));
    match claimed {
        Ok(_) => Ok(()),
        Err(error)
            if error
                .as_database_error()
                .is_some_and(|e| e.is_unique_violation()) =>
        {
            Err(ApiError::code(ErrorCode::PhoneAlreadyRegistered))
        }
        Err(error) => Err(ApiError::internal(error)),
    }
}

/// Releases `user_id`'s claim on `mobile` (its registration was refused).
pub async fn release_mobile(state: &AppState, mobile: &str, user_id: Uuid) {
    let release = "delete from user_mobile where mobile = $1 and user_id = $2";
    let released = with_pool!(&state.database, pool => sqlx::query(release)
        .bind(mobile).bind(user_id.to_string()).execute(pool).await.map(|r| r.rows_affected()));
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
    let insert = "insert into user_claim (kind, value, user_id, created_at) \
                  values ($1, $2, $3, $4) on conflict (kind, value) do nothing";
    let holder_sql = "select user_id from user_claim where kind = $1 and value = $2";
    let uid = user_id.to_string();
    let value = kind.normalize(value);
    // A claim released between the insert and the read is claimed again.
    for _ in 0..3 {
        let inserted = with_pool!(&state.database, pool => sqlx::query(insert)
            .bind(kind.as_str()).bind(&value).bind(&uid).bind(time_text(state.now()))
            .execute(pool).await.map(|r| r.rows_affected()))?;
        if inserted == 1 {
            return Ok(Claim {
                kind,
                value,
                new: true,
            });
        }
        let holder: Option<String> = with_pool!(&state.database, pool =>
            sqlx::query_scalar(holder_sql).bind(kind.as_str()).bind(&value).fetch_optional(pool).await)?;
        match holder {
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

/// How long an unsettled claim (its request died between the claim and [`settle`])
/// is kept before the account's next settlement releases it: longer than any request.
pub const UNSETTLED_CLAIM_SECONDS: i64 = 300;

/// After the command. `recorded_at` is the User aggregate's sequence of the event
/// that recorded the claimed values, `None` when the command was refused (or recorded
/// nothing): then the claims this request made are released again.
///
/// On success each claim takes that sequence, and of the account's claims of a kind
/// only the highest sequence's stays: the value the profile holds. Two updates of one
/// account sent together both succeed and their settlements may run in either
/// order; keyed by sequence, whichever runs last releases the replaced value, and a
/// claim still in flight (no sequence yet) is never released by the other (the old
/// "release every other value" let one settlement drop the claim of a value another
/// had just recorded, leaving it free for a second account: 10026 defeated).
pub async fn settle(state: &AppState, user_id: Uuid, claims: &[Claim], recorded_at: Option<i64>) {
    let uid = user_id.to_string();
    let stale = time_text(state.now() - chrono::Duration::seconds(UNSETTLED_CLAIM_SECONDS));
    let mark = "update user_claim set seq = $4 where kind = $1 and user_id = $2 and value = $3 \
                and (seq is null or seq < $4)";
    let release_replaced = "delete from user_claim where kind = $1 and user_id = $2 \
                            and (seq < (select max(seq) from user_claim where kind = $1 and user_id = $2) \
                            or (seq is null and created_at < $3))";
    let release_own = "delete from user_claim where kind = $1 and user_id = $2 and value = $3 \
                       and seq is null";
    for claim in claims {
        let kind = claim.kind.as_str();
        let settled = match recorded_at {
            Some(seq) => {
                with_pool!(&state.database, pool => async {
                    sqlx::query(mark).bind(kind).bind(&uid).bind(&claim.value).bind(seq)
                        .execute(pool).await?;
                    sqlx::query(release_replaced).bind(kind).bind(&uid).bind(&stale)
                        .execute(pool).await.map(|r| r.rows_affected())
                }.await)
            }
            None if claim.new => with_pool!(&state.database, pool => sqlx::query(release_own)
                .bind(kind).bind(&uid).bind(&claim.value).execute(pool).await
                .map(|r| r.rows_affected())),
            None => continue,
        };
        if let Err(error) = settled {
            tracing::error!(%error, kind, "claim not settled");
        }
    }
}
