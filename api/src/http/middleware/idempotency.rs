//! `Idempotency-Key` (PRODUCT.md section 8, DESIGN.md "API conventions"): a request
//! that carries the header is run at most once per (caller, key).
//!
//! - The key is claimed (insert) before the request runs, so concurrent repeats cannot
//!   both run: the losers wait for the first answer and return it.
//! - A repeat with the same body returns the first answer; the same key with another
//!   body answers 10004.
//! - The caller is the authenticated subject (borrower or auditor), so one borrower's
//!   key never collides with another's, and a re-login keeps the protection.
//! - Crashes: the key goes into the metadata of every event the request produces, and
//!   the ids the request creates are derived from it ([`id_for`]); a claim left
//!   without an answer for longer than the request timeout is taken over and the
//!   request runs again, finding in the aggregates what it already did (the real
//!   outcome) instead of doing it twice. An answer of "still being processed" (40003)
//!   or a server failure leaves the claim the same way, free to take over at once.
//! - Only successes are stored, for 24 hours; a refusal releases the key.
//! - Only the calls that move money take a key (`crate::http::route_table`, PRODUCT.md 8):
//!   elsewhere the header is ignored, so no other answer (personal data) is stored.
//! - The stored fingerprint of a request never covers a credential
//!   ([`request_fingerprint`]): a SHA-256 over a body with a 6-digit PIN in it would
//!   give the PIN back to anyone who reads the table, by trying all 10⁶ (P2).

use std::time::Duration;

use aggregates::ErrorCode;
use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::db::idempotency as db;
use crate::http::auth::{self, TokenKind};
use crate::http::envelope::ApiError;
use crate::runtime::state::AppState;
use projections::projection::time_text;

/// Largest body an idempotent request may have (the JSON money calls are tiny).
const MAX_BODY: usize = 64 * 1024;

/// Longest `Idempotency-Key` accepted, in bytes after trimming (documented in the
/// OpenAPI document's header parameter). A longer key is refused with 10004 naming
/// the limit: ignored, a client's repeat would run twice (two payment pages).
pub const MAX_KEY_BYTES: usize = 200;

/// Body fields left out of a request's fingerprint: credentials (the withdraw PIN is
/// `password`). Two requests that differ only in them are the same request: the
/// repeat waits for, or replays, the first one's answer (a wrong PIN's refusal is
/// not stored, so a repeat with the right one runs afresh).
const CREDENTIAL_FIELDS: [&str; 4] = ["password", "oldPassword", "pin", "smsCode"];

/// The fingerprint stored with a key (hex SHA-256 of method, path and body) to tell
/// a repeat from another request under the same key. A JSON object body is hashed
/// without [`CREDENTIAL_FIELDS`] (as `serde_json` writes it); any other body as sent.
pub fn request_fingerprint(method: &str, path: &str, body: &[u8]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(method.as_bytes());
    hasher.update(path.as_bytes());
    match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(serde_json::Value::Object(mut fields)) => {
            for field in CREDENTIAL_FIELDS {
                fields.remove(field);
            }
            hasher.update(serde_json::Value::Object(fields).to_string().as_bytes());
        }
        _ => hasher.update(body),
    }
    hex::encode(hasher.finalize())
}

async fn caller(state: &AppState, authorization: Option<String>) -> Option<String> {
    let header = authorization?;
    let token = header.strip_prefix("Bearer ")?.trim();
    if let Ok(user) = auth::resolve(state, token, TokenKind::Borrower).await {
        return Some(format!("user:{user}"));
    }
    auth::resolve(state, token, TokenKind::Auditor)
        .await
        .ok()
        .map(|auditor| format!("auditor:{auditor}"))
}

tokio::task_local! {
    /// The (caller, key) of the idempotent request this task is handling.
    static CURRENT: Claim;
}

/// An `Idempotency-Key` claimed by one caller, and when it was first claimed.
#[derive(Debug, Clone)]
struct Claim {
    scope: String,
    key: String,
    /// Unix milliseconds of the first claim (kept on a takeover).
    created_ms: u64,
}

/// The `Idempotency-Key` of the request this task is handling, if any (it goes into
/// the metadata of every event the request produces).
pub fn current_key() -> Option<String> {
    CURRENT.try_with(|claim| claim.key.clone()).ok()
}

/// The id a handler gives to what it creates (`purpose`: an order, a payout, a
/// payment session). With an `Idempotency-Key` it is derived from the caller, the key
/// and the first claim's time, so a repeat of the request after a crash names the
/// same order, payout or session, and the aggregate, which ignores an id it already
/// has, answers with the real outcome instead of doing it twice. Without a key: a
/// fresh UUID v7. Derived ids are UUID v7 too (the claim's time, 74 bits of SHA-256).
pub fn id_for(purpose: &str) -> uuid::Uuid {
    CURRENT
        .try_with(|claim| {
            let digest = Sha256::new()
                .chain_update(purpose.as_bytes())
                .chain_update([0])
                .chain_update(claim.scope.as_bytes())
                .chain_update([0])
                .chain_update(claim.key.as_bytes())
                .finalize();
            let mut random = [0u8; 10];
            random.copy_from_slice(&digest[..10]);
            uuid::Builder::from_unix_timestamp_millis(claim.created_ms, &random).into_uuid()
        })
        .unwrap_or_else(|_| uuid::Uuid::now_v7())
}

/// How long a stored answer is replayed (PRODUCT.md 8; issue 12).
pub const ANSWER_TTL_HOURS: i64 = 24;

/// The middleware. Requests without the header (or without a valid token, which the
/// handler then refuses) pass straight through.
pub async fn layer(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if !crate::http::route_table::idempotent(request.uri().path()) {
        return next.run(request).await;
    }
    let key = match request.headers().get("idempotency-key").map(|v| v.to_str()) {
        None => return next.run(request).await,
        Some(Ok(key)) if !key.trim().is_empty() && key.trim().len() <= MAX_KEY_BYTES => {
            key.trim().to_string()
        }
        // Present but unusable: refused rather than ignored, since a client that
        // sent it counts on it to make a repeat harmless.
        Some(_) => {
            let reason = format!("1 to {MAX_KEY_BYTES} visible ASCII characters");
            return ApiError::bad_input("Idempotency-Key", &reason).into_response();
        }
    };
    let authorization = request
        .headers()
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let Some(scope) = caller(&state, authorization).await else {
        return next.run(request).await;
    };
    let (parts, body) = request.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_BODY).await else {
        return ApiError::bad_input("body", "too large for an idempotent request").into_response();
    };
    let request_hash = request_fingerprint(parts.method.as_str(), parts.uri.path(), &bytes);
    let (created, claimed_at) = match claim_or_wait(&state, &scope, &key, &request_hash).await {
        Ok(Turn::Run(held)) => (held.created_ms, held.claimed_at),
        Ok(Turn::Answer(response)) => return response,
        Err(error) => return error.into_response(),
    };
    let current = Claim {
        scope: scope.clone(),
        key: key.clone(),
        created_ms: created,
    };
    let request = Request::from_parts(parts, Body::from(bytes));
    let response = CURRENT.scope(current, next.run(request)).await;
    let (parts, body) = response.into_parts();
    let body = to_bytes(body, usize::MAX).await.unwrap_or_default();
    let code = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|envelope| envelope["code"].as_u64());
    settle(&state, &scope, &key, &claimed_at, code, &body).await;
    let mut response = Response::from_parts(parts, Body::from(body));
    response
        .headers_mut()
        .insert("idempotent-replay", HeaderValue::from_static("false"));
    response
}

/// Settles this request's claim by its answer's envelope `code`: a success is stored
/// to replay, an unknown outcome leaves the claim free to take over, a refusal
/// releases the key. Only the claim this request wrote (`claimed_at`) is touched.
async fn settle(
    state: &AppState,
    scope: &str,
    key: &str,
    claimed_at: &str,
    code: Option<u64>,
    body: &[u8],
) {
    let outcome_unknown = code.is_none_or(|code| {
        [ErrorCode::ServerError, ErrorCode::Unknown]
            .iter()
            .any(|unknown| u64::from(unknown.code()) == code)
    });
    let saved = match code {
        // A success is the answer to replay.
        Some(0) => {
            let stored = String::from_utf8_lossy(body).to_string();
            db::store_answer(&state.database, scope, key, claimed_at, &stored).await
        }
        // Still being processed (40003: the workflow had not answered in time), or
        // failed part-way (500), or no envelope at all: what the request wrote
        // stays, under the ids it derived. The claim is left as a crash leaves it, but free at once: the
        // repeat takes it over with the first claim's time, names the same ids and
        // answers what happened. Released instead, the repeat of an apply named a new
        // order and was refused (40005) beside the one being opened.
        _ if outcome_unknown => db::free(&state.database, scope, key, claimed_at).await,
        // A refusal wrote nothing: the key is released, so the repeat is decided
        // again with new ids (it may succeed once the cause is fixed).
        _ => db::release(&state.database, scope, key, claimed_at).await,
    };
    match saved {
        Err(error) => tracing::error!(%error, "idempotency answer not saved"),
        // Taken over meanwhile (this request outlived the request timeout): the claim
        // and its answer are the newer run's.
        Ok(0) => tracing::warn!("idempotency claim taken over before this request answered"),
        Ok(_) => {}
    }
}

/// What a request with a key does: run (with the first claim's time, Unix ms), or
/// answer at once (the stored answer, 10004 for another body, 40003 still running).
enum Turn {
    Run(Held),
    Answer(Response),
}

/// A claim this request holds: the first claim's time (Unix ms, for [`id_for`]) and
/// the `claimed_at` it wrote, which its answer's statements match, so a request that
/// outlived a takeover cannot overwrite or release the newer run's claim.
struct Held {
    created_ms: u64,
    claimed_at: String,
}

/// Claims the key, or waits for the request that holds it: its stored answer is
/// replayed; a claim abandoned for longer than the request timeout (the process
/// died) is taken over and the request runs again, naming the same ids
/// ([`id_for`]), so what already happened is answered, not repeated.
async fn claim_or_wait(
    state: &AppState,
    scope: &str,
    key: &str,
    request_hash: &str,
) -> Result<Turn, ApiError> {
    if let Some(held) = claim(state, scope, key, request_hash).await? {
        return Ok(Turn::Run(held));
    }
    for _ in 0..300 {
        match db::find(&state.database, scope, key).await? {
            None => {
                // Released by a refusal meanwhile: claim it afresh.
                if let Some(held) = claim(state, scope, key, request_hash).await? {
                    return Ok(Turn::Run(held));
                }
            }
            Some(row) if row.request_hash != request_hash => {
                return Ok(Turn::Answer(
                    ApiError::new(
                        ErrorCode::RequestError,
                        "Idempotency-Key: reused with a different request",
                    )
                    .into_response(),
                ));
            }
            Some(db::KeyRow {
                response: Some(stored),
                ..
            }) => {
                let mut response = (
                    [(axum::http::header::CONTENT_TYPE, "application/json")],
                    stored,
                )
                    .into_response();
                response
                    .headers_mut()
                    .insert("idempotent-replay", HeaderValue::from_static("true"));
                return Ok(Turn::Answer(response));
            }
            Some(db::KeyRow {
                response: None,
                created_at,
                claimed_at,
                ..
            }) => {
                let claimed_at = claimed_at.unwrap_or_else(|| created_at.clone());
                if let Some(claimed_at) = take_over(state, scope, key, &claimed_at).await? {
                    tracing::warn!("idempotency claim abandoned by a stopped request; taken over");
                    return Ok(Turn::Run(Held {
                        created_ms: millis_of(&created_at),
                        claimed_at,
                    }));
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
    Ok(Turn::Answer(
        ApiError::new(
            ErrorCode::ServerError,
            "the first request with this Idempotency-Key is still running",
        )
        .into_response(),
    ))
}

/// Unix milliseconds of a stored time (0 if unreadable, which only makes derived ids
/// older).
fn millis_of(text: &str) -> u64 {
    chrono::DateTime::parse_from_rfc3339(text)
        .map(|t| u64::try_from(t.timestamp_millis()).unwrap_or_default())
        .unwrap_or_default()
}

/// Takes over a claim whose request has not answered within the request timeout:
/// `Some(the claimed_at written)` when this call now holds it (compare-and-set on
/// `claimed_at`).
async fn take_over(
    state: &AppState,
    scope: &str,
    key: &str,
    claimed_at: &str,
) -> Result<Option<String>, ApiError> {
    let now = state.now();
    let abandoned = now
        - chrono::Duration::from_std(crate::REQUEST_TIMEOUT).unwrap_or_default()
        - chrono::Duration::seconds(1);
    if claimed_at >= time_text(abandoned).as_str() {
        return Ok(None);
    }
    let at = time_text(now);
    let taken = db::take_over(&state.database, scope, key, claimed_at, &at).await?;
    Ok((taken == 1).then_some(at))
}

/// Claims the key (after removing an answer older than [`ANSWER_TTL_HOURS`]):
/// `Some` when this call claimed it, `None` when it is held.
async fn claim(
    state: &AppState,
    scope: &str,
    key: &str,
    request_hash: &str,
) -> Result<Option<Held>, ApiError> {
    let now = state.now();
    // One statement: a new claim, or one replacing an answer that has expired.
    let at = time_text(now);
    let expired_before = now - chrono::Duration::hours(ANSWER_TTL_HOURS);
    let inserted = db::claim(
        &state.database,
        scope,
        key,
        request_hash,
        &at,
        expired_before,
    )
    .await?;
    Ok((inserted == 1).then(|| Held {
        created_ms: millis_of(&at),
        claimed_at: at,
    }))
}

/// Removes answers older than [`ANSWER_TTL_HOURS`] (the scheduler's pass).
pub async fn purge_expired(state: &AppState) -> Result<u64, ApiError> {
    let before = state.now() - chrono::Duration::hours(ANSWER_TTL_HOURS);
    Ok(db::purge_before(&state.database, before).await?)
}

#[cfg(test)]
mod tests {
    use super::request_fingerprint;

    const WITHDRAW: &str = "/jackey/user/withdraw";

    #[test]
    fn the_fingerprint_does_not_cover_the_pin() {
        // Given two withdrawals that differ only in the PIN
        let one = br#"{"password":"246810","withdrawAmount":"80000","loanOrderId":"o"}"#;
        let other = br#"{"withdrawAmount":"80000","password":"135790","loanOrderId":"o"}"#;
        // Then they have one fingerprint: nothing stored depends on the PIN
        assert_eq!(
            request_fingerprint("POST", WITHDRAW, one),
            request_fingerprint("POST", WITHDRAW, other)
        );
        // And another amount, path or method is another request
        let more = br#"{"password":"246810","withdrawAmount":"90000","loanOrderId":"o"}"#;
        assert_ne!(
            request_fingerprint("POST", WITHDRAW, one),
            request_fingerprint("POST", WITHDRAW, more)
        );
        assert_ne!(
            request_fingerprint("POST", WITHDRAW, one),
            request_fingerprint("POST", "/jackey/loan/recharge", one)
        );
        assert_ne!(
            request_fingerprint("POST", WITHDRAW, one),
            request_fingerprint("PUT", WITHDRAW, one)
        );
    }

    #[test]
    fn a_body_that_is_not_a_json_object_is_hashed_as_sent() {
        assert_ne!(
            request_fingerprint("POST", WITHDRAW, b"[1]"),
            request_fingerprint("POST", WITHDRAW, b"[2]")
        );
        assert_ne!(
            request_fingerprint("POST", WITHDRAW, b"not json"),
            request_fingerprint("POST", WITHDRAW, b"not json!")
        );
    }
}
