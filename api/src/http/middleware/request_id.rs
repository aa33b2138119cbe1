//! Request ids and the request's tracing span (issue 17 item 2).
//!
//! Every request has an id in `x-request-id`: the caller's when it sends a usable one
//! (a proxy's or a client's retry), else a fresh UUID, made and returned by
//! `tower_http`'s request-id layers. `tower_http`'s `TraceLayer` opens one span per
//! request carrying it, so every log line of the request names it, and the events its
//! command writes record it in their metadata (`request_id`, beside `idempotency_key`,
//! [`aggregates::Actor::metadata`]); the workflows' spans carry the request id of the
//! event they react to.
//!
//! [`crate::app`] stacks, outermost first: [`drop_unusable`], `SetRequestIdLayer`,
//! `PropagateRequestIdLayer`, `TraceLayer` (span: [`span`]), [`scope`].

use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use uuid::Uuid;

/// The header that carries the request id, both ways.
pub const HEADER: &str = "x-request-id";

/// Longest request id kept from a caller; a longer or odd one is replaced.
pub const MAX_LEN: usize = 128;

tokio::task_local! {
    /// The id of the request this task is handling.
    static CURRENT: String;
}

/// The id of the request being handled, for the metadata of the events its command
/// writes. Outside a request (a scheduler pass, a test calling a function directly)
/// a fresh UUID v7, so every event still has one.
pub fn current() -> String {
    CURRENT
        .try_with(Clone::clone)
        .unwrap_or_else(|_| Uuid::now_v7().to_string())
}

/// Whether a caller's request id may be kept: 1 to [`MAX_LEN`] characters of
/// letters, digits and `. _ : -` (nothing that could forge a log line or fill one).
pub fn usable(id: &str) -> bool {
    (1..=MAX_LEN).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'))
}

/// Removes a caller's `x-request-id` that is not [`usable`], so a fresh one is made.
pub async fn drop_unusable(mut request: Request, next: Next) -> Response {
    let unusable = request
        .headers()
        .get(HEADER)
        .is_some_and(|value| !value.to_str().is_ok_and(usable));
    if unusable {
        request.headers_mut().remove(HEADER);
    }
    next.run(request).await
}

/// The request's id, as the request-id layer left it in the headers.
fn id_of<B>(request: &axum::http::Request<B>) -> &str {
    request
        .headers()
        .get(HEADER)
        .and_then(|value: &HeaderValue| value.to_str().ok())
        .unwrap_or_default()
}

/// The path as it may be logged: the demo pages whose path holds a credential (a
/// payment session) or personal data (a phone number) are named by their route.
fn loggable_path(path: &str) -> &str {
    if path.starts_with("/pay/sandbox/") {
        "/pay/sandbox/{session}"
    } else if path.starts_with("/sandbox/sms/") {
        "/sandbox/sms/{mobile}"
    } else {
        path
    }
}

/// The span of one request: its id, method and (loggable) path.
pub fn span<B>(request: &axum::http::Request<B>) -> tracing::Span {
    tracing::info_span!(
        "request",
        request_id = %id_of(request),
        method = %request.method(),
        path = %loggable_path(request.uri().path()),
    )
}

/// Makes the request id [`current`] for the handler and everything it awaits.
pub async fn scope(request: Request, next: Next) -> Response {
    let id = id_of(&request).to_string();
    CURRENT.scope(id, next.run(request)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_short_plain_ids_are_kept() {
        assert!(usable("9f1c2d3e-req_1.retry:2"));
        assert!(!usable(""));
        assert!(!usable(&"a".repeat(MAX_LEN + 1)));
        assert!(!usable("id with spaces"));
        assert!(!usable("id\"quoted"));
    }

    #[test]
    fn credentials_in_paths_are_not_logged() {
        assert_eq!(
            loggable_path("/pay/sandbox/3f1b-secret"),
            "/pay/sandbox/{session}"
        );
        assert_eq!(
            loggable_path("/sandbox/sms/09171234567"),
            "/sandbox/sms/{mobile}"
        );
        assert_eq!(loggable_path("/jackey/user/info"), "/jackey/user/info");
    }
}
