//! The audit trail (issue 55): every console call (`/admin/api/...`) a staff member
//! makes is recorded after its answer, refused ones too: who (the session's staff
//! member, or the account a log-in opened), when, from where (the client address as the
//! rate limits read it, `TRUST_PROXY`), which call, what it named (`orderId`, `userId`,
//! `staffId` or `username` of the body; never a password) and the answer's code.
//!
//! Who made a call is learnt where the session is checked
//! (`crate::http::auth::Auditor`, the log-in), through [`identify`]; a call nobody
//! could be identified for (no or a dead token, a failed log-in) is not a staff
//! action and is not recorded here (failed log-ins have their own counter).
//!
//! The row is written after the answer: a failure to write it is logged as an error
//! and does not undo the call, whose events carry the staff member in their metadata
//! anyway.

use std::cell::Cell;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use uuid::Uuid;

use crate::db::staff_actions::{self as db, NewAction};
use crate::http::middleware::ops;
use crate::runtime::state::AppState;

tokio::task_local! {
    static STAFF: Cell<Option<Uuid>>;
}

/// Names the staff member the call this task is handling is made by.
pub fn identify(auditor_id: Uuid) {
    let _ = STAFF.try_with(|staff| staff.set(Some(auditor_id)));
}

/// The envelope code of an answer, set on the response by `ApiError`'s
/// `IntoResponse` (a success carries none: 0).
#[derive(Debug, Clone, Copy)]
pub struct AnsweredCode(pub u32);

/// What a call's body named, each at most [`MAX_NAMED`] characters.
#[derive(Debug, Default, PartialEq, Eq)]
struct Named {
    order_id: Option<String>,
    user_id: Option<String>,
    target: Option<String>,
}

const MAX_NAMED: usize = 100;

impl Named {
    fn of(body: &[u8]) -> Self {
        let Ok(serde_json::Value::Object(fields)) = serde_json::from_slice(body) else {
            return Self::default();
        };
        let text = |name: &str| {
            fields
                .get(name)
                .and_then(serde_json::Value::as_str)
                .map(|value| value.trim().chars().take(MAX_NAMED).collect::<String>())
                .filter(|value| !value.is_empty())
        };
        Self {
            order_id: text("orderId"),
            user_id: text("userId"),
            target: text("staffId").or_else(|| text("username")),
        }
    }
}

/// The middleware.
pub async fn layer(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if !request.uri().path().starts_with("/admin/api/") {
        return next.run(request).await;
    }
    let call = request.uri().path().to_string();
    let (mut parts, body) = request.into_parts();
    // The body is already bounded by the request body limit outside this layer.
    let Ok(bytes) = axum::body::to_bytes(body, crate::BODY_LIMIT_BYTES).await else {
        return StatusCode::PAYLOAD_TOO_LARGE.into_response();
    };
    let named = Named::of(&bytes);
    let client_ip = ops::client_address(&mut parts, &state.rate_limits.source).await;
    let request = Request::from_parts(parts, Body::from(bytes));
    STAFF
        .scope(Cell::new(None), async move {
            let response = next.run(request).await;
            let Some(auditor_id) = STAFF.with(Cell::get) else {
                return response;
            };
            let code = response
                .extensions()
                .get::<AnsweredCode>()
                .map_or(0, |answered| answered.0);
            let action = NewAction {
                at: state.now(),
                auditor_id,
                client_ip: &client_ip,
                call: &call,
                order_id: named.order_id.as_deref(),
                user_id: named.user_id.as_deref(),
                target: named.target.as_deref(),
                code,
            };
            if let Err(error) = db::insert(&state.database, &action).await {
                tracing::error!(%error, %call, "a staff action could not be recorded in the audit trail");
            }
            response
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_names_what_it_touches_and_never_a_password() {
        let named = Named::of(br#"{"username":" maria ","password":"secret","orderId":"o-1"}"#);
        assert_eq!(
            named,
            Named {
                order_id: Some("o-1".into()),
                user_id: None,
                target: Some("maria".into()),
            }
        );
        assert_eq!(Named::of(b"not json"), Named::default());
        let long = format!(r#"{{"userId":"{}"}}"#, "x".repeat(500));
        assert_eq!(Named::of(long.as_bytes()).user_id.unwrap().len(), MAX_NAMED);
    }
}
