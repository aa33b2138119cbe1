//! One command per request (DESIGN.md "Where each rule lives"): a handler sends at
//! most one command; a step across aggregates is a workflow driven by the event log.
//!
//! Every request runs with a counter that [`crate::runtime::state::AppState::execute`] bumps.
//! A request that sent more than one command is logged as an error, and debug builds
//! (every test) answer with `x-commands-sent`, which the api tests' client checks on
//! every call it makes, so a handler that chains commands fails the suite.

use std::cell::Cell;

use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;

tokio::task_local! {
    static SENT: Cell<u32>;
}

/// The response header (debug builds) with the number of commands a request sent.
pub const HEADER: &str = "x-commands-sent";

/// Counts a command sent by the request this task is handling.
pub fn record() {
    let _ = SENT.try_with(|sent| sent.set(sent.get() + 1));
}

/// The middleware.
pub async fn layer(request: Request, next: Next) -> Response {
    let path = request.uri().path().to_string();
    SENT.scope(Cell::new(0), async move {
        let mut response = next.run(request).await;
        let sent = SENT.with(Cell::get);
        if sent > 1 {
            tracing::error!(%path, sent, "a handler sent more than one command");
        }
        if cfg!(debug_assertions) {
            response
                .headers_mut()
                .insert(HEADER, HeaderValue::from(sent));
        }
        response
    })
    .await
}
