//! The audit trail (issue 55): every console call (`/admin/api/...`) a staff member
//! makes, and every stored image (`/files/...`: ID photos, signatures) a staff member
//! opens, is recorded after its answer, refused ones too (reading one's own roles,
//! `/admin/api/me`, touches nothing and is not): who (the session's staff
//! member, or the account a log-in opened), when, from where (the client address as the
//! rate limits read it, `TRUST_PROXY`), which call, what it named (`orderId`, `userId`,
//! `staffId`, `username` or `productId` of a JSON body, never a password; an image's owner from its
//! key) and the answer's code.
//!
//! Only a body of at most [`MAX_READ_BYTES`] is read for what it names, and only with a
//! token or on the log-in, so nobody makes the server buffer what it will refuse; a
//! larger body passes through untouched and its call is recorded naming nothing.
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
use axum::http::header::AUTHORIZATION;
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

/// The largest body read for what it names (every console call's JSON is far smaller).
pub const MAX_READ_BYTES: usize = 64 * 1024;

/// Whether `path` is traced, and whether its body may name what it touches.
fn traced(path: &str) -> Option<bool> {
    // Reading one's own roles (the console asks on every screen) touches nothing.
    if path == "/admin/api/me" {
        None
    } else if path.starts_with("/admin/api/") {
        Some(true)
    } else if path.starts_with("/files/") {
        Some(false)
    } else {
        None
    }
}

/// The owner of a stored image, from its key (`<kind>/<user id>/<file>`).
fn image_owner(path: &str) -> Option<String> {
    path.strip_prefix("/files/")?
        .split('/')
        .nth(1)
        .filter(|owner| !owner.is_empty())
        .map(|owner| owner.chars().take(MAX_NAMED).collect())
}

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
            target: text("staffId")
                .or_else(|| text("username"))
                .or_else(|| {
                    // A product change names its product (issue 55).
                    let product = fields.get("productId").and_then(serde_json::Value::as_i64);
                    product.map(|id| format!("product {id}"))
                })
                .or_else(|| text("proposalId").map(|id| format!("proposal {id}"))),
        }
    }
}

/// The middleware.
pub async fn layer(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let Some(with_body) = traced(request.uri().path()) else {
        return next.run(request).await;
    };
    let call = request.uri().path().to_string();
    let (mut parts, body) = request.into_parts();
    // The body's own bound (hyper's from `Content-Length`): a body of unknown or
    // larger length is not read.
    let small = axum::body::HttpBody::size_hint(&body)
        .upper()
        .is_some_and(|length| length <= MAX_READ_BYTES as u64);
    let readable = with_body
        && small
        && (parts.headers.contains_key(AUTHORIZATION) || call == "/admin/api/login");
    let (named, body) = if readable {
        let Ok(bytes) = axum::body::to_bytes(body, MAX_READ_BYTES).await else {
            return StatusCode::BAD_REQUEST.into_response();
        };
        (Named::of(&bytes), Body::from(bytes))
    } else {
        let named = Named {
            user_id: image_owner(&call),
            ..Named::default()
        };
        (named, body)
    };
    let client_ip = ops::client_address(&mut parts, &state.rate_limits.source).await;
    let request = Request::from_parts(parts, body);
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
        let change = Named::of(br#"{"productId":1,"proposalId":"p-1"}"#);
        assert_eq!(change.target.as_deref(), Some("product 1"));
        let long = format!(r#"{{"userId":"{}"}}"#, "x".repeat(500));
        assert_eq!(Named::of(long.as_bytes()).user_id.unwrap().len(), MAX_NAMED);
    }

    #[test]
    fn an_image_names_its_owner_and_other_paths_are_not_traced() {
        assert_eq!(
            image_owner("/files/id/u-1/front.jpg").as_deref(),
            Some("u-1")
        );
        assert_eq!(image_owner("/files/x"), None);
        assert_eq!(traced("/admin/api/users/hold"), Some(true));
        assert_eq!(traced("/files/id/u-1/front.jpg"), Some(false));
        assert_eq!(traced("/jackey/user/info"), None);
        assert_eq!(traced("/admin/api/me"), None);
    }
}
