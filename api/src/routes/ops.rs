//! Operations: `GET /healthz` (the process answers), `GET /readyz` (the event store
//! answers) and `GET /metrics` (Prometheus text, [`crate::http::middleware::ops::metrics`]).

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use crate::runtime::state::AppState;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(crate::http::middleware::ops::metrics))
}

async fn readyz(State(state): State<AppState>) -> impl IntoResponse {
    if state.database.ping().await {
        (StatusCode::OK, "ready")
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "event store unavailable")
    }
}
