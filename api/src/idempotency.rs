//! `Idempotency-Key` (PRODUCT.md section 8, DESIGN.md "API conventions"): a request
//! that carries the header is run at most once per (caller, key).
//!
//! - The key is claimed (insert) before the request runs, so concurrent repeats cannot
//!   both run: the losers wait for the first answer and return it.
//! - A repeat with the same body returns the first answer; the same key with another
//!   body answers 10004.
//! - The caller is the authenticated subject (borrower or auditor), so one borrower's
//!   key never collides with another's, and a re-login keeps the protection.

use std::time::Duration;

use aggregates::ErrorCode;
use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use sha2::{Digest, Sha256};

use crate::auth::{self, TokenKind};
use crate::db::with_pool;
use crate::envelope::ApiError;
use crate::state::AppState;
use projections::projection::time_text;

/// Largest body an idempotent request may have (the JSON money calls are tiny).
const MAX_BODY: usize = 64 * 1024;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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

/// The middleware. Requests without the header (or without a valid token, which the
/// handler then refuses) pass straight through.
pub async fn layer(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let Some(key) = request
        .headers()
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty() && v.len() <= 200)
    else {
        return next.run(request).await;
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
    let mut hasher = Sha256::new();
    hasher.update(parts.method.as_str().as_bytes());
    hasher.update(parts.uri.path().as_bytes());
    hasher.update(&bytes);
    let request_hash = hex(&hasher.finalize());
    match claim(&state, &scope, &key, &request_hash).await {
        Ok(true) => {}
        Ok(false) => return replay(&state, &scope, &key, &request_hash).await,
        Err(error) => return error.into_response(),
    }
    let response = next
        .run(Request::from_parts(parts, Body::from(bytes)))
        .await;
    let (parts, body) = response.into_parts();
    let body = to_bytes(body, usize::MAX).await.unwrap_or_default();
    let stored = String::from_utf8_lossy(&body).to_string();
    let sql = "update idempotency set response = $1 where scope = $2 and key = $3";
    let saved = with_pool!(&state.database, pool => sqlx::query(sql)
        .bind(&stored).bind(&scope).bind(&key).execute(pool).await.map(|r| r.rows_affected()));
    if let Err(error) = saved {
        tracing::error!(%error, "idempotency answer not saved");
    }
    let mut response = Response::from_parts(parts, Body::from(body));
    response
        .headers_mut()
        .insert("idempotent-replay", HeaderValue::from_static("false"));
    response
}

/// True when this call claimed the key; false when it was claimed before.
async fn claim(
    state: &AppState,
    scope: &str,
    key: &str,
    request_hash: &str,
) -> Result<bool, ApiError> {
    let sql = "insert into idempotency (scope, key, request_hash, response, created_at) \
               values ($1, $2, $3, null, $4) on conflict (scope, key) do nothing";
    let inserted = with_pool!(&state.database, pool => sqlx::query(sql)
        .bind(scope).bind(key).bind(request_hash).bind(time_text(Utc::now()))
        .execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(inserted == 1)
}

/// The first answer for a repeated key (waiting while the first request still runs).
async fn replay(state: &AppState, scope: &str, key: &str, request_hash: &str) -> Response {
    let sql = "select request_hash, response from idempotency where scope = $1 and key = $2";
    for _ in 0..300 {
        let row: Result<Option<(String, Option<String>)>, sqlx::Error> = with_pool!(&state.database, pool =>
            sqlx::query_as(sql).bind(scope).bind(key).fetch_optional(pool).await);
        match row {
            Ok(Some((hash, _))) if hash != request_hash => {
                return ApiError::new(
                    ErrorCode::RequestError,
                    "Idempotency-Key: reused with a different request",
                )
                .into_response();
            }
            Ok(Some((_, Some(stored)))) => {
                let mut response = (
                    [(axum::http::header::CONTENT_TYPE, "application/json")],
                    stored,
                )
                    .into_response();
                response
                    .headers_mut()
                    .insert("idempotent-replay", HeaderValue::from_static("true"));
                return response;
            }
            Ok(_) => tokio::time::sleep(Duration::from_millis(20)).await,
            Err(error) => return ApiError::internal(error).into_response(),
        }
    }
    ApiError::new(
        ErrorCode::ServerError,
        "the first request with this Idempotency-Key is still running",
    )
    .into_response()
}
