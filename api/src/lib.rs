//! The HTTP server of DESIGN.md. At this stage it opens the event store (SQLite by
//! default, PostgreSQL when `DATABASE_URL` says so), applies the migrations, and
//! serves the health endpoints and a start page; the borrower and auditor calls of
//! PRODUCT.md sections 7 and 8 are built on this skeleton.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use axum::Router;
use projections::store::{default_database_url, Database, StoreError};
use std::net::SocketAddr;

/// Where the server listens when `BIND_ADDR` is unset.
pub const DEFAULT_BIND_ADDR: &str = "127.0.0.1:8080";

/// Settings read from the environment (documented in README.md).
#[derive(Debug, Clone)]
pub struct Config {
    /// `DATABASE_URL`: `sqlite://…` (default `sqlite://data/loan.db`) or `postgres://…`.
    pub database_url: String,
    /// `BIND_ADDR`: `host:port`; port 0 picks a free port.
    pub bind_addr: String,
}

impl Config {
    /// Reads `DATABASE_URL` and `BIND_ADDR`, with working defaults.
    pub fn from_env() -> Self {
        Self {
            database_url: default_database_url(),
            bind_addr: std::env::var("BIND_ADDR")
                .ok()
                .filter(|v| !v.trim().is_empty())
                .unwrap_or_else(|| DEFAULT_BIND_ADDR.to_string()),
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The event store could not be opened or migrated.
    #[error("event store: {0}")]
    Store(#[from] StoreError),
    /// The address could not be bound.
    #[error("bind {addr}: {source}")]
    Bind {
        /// The address.
        addr: String,
        /// The cause.
        source: std::io::Error,
    },
}

/// Shared state of the handlers.
#[derive(Clone)]
pub struct AppState {
    /// The event store.
    pub database: Database,
}

/// The whole router, so tests can call it without a socket.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/", get(start_page))
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .with_state(state)
}

async fn readyz(State(state): State<AppState>) -> impl IntoResponse {
    if state.database.ping().await {
        (StatusCode::OK, "ready")
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "event store unavailable")
    }
}

async fn start_page() -> Html<&'static str> {
    Html(include_str!("start_page.html"))
}

/// A bound, not yet serving, application. Binding first lets tests use port 0.
pub struct Application {
    listener: tokio::net::TcpListener,
    router: Router,
}

impl Application {
    /// Opens the store, applies the migrations and binds the address.
    pub async fn build(config: &Config) -> Result<Self, StartError> {
        let database = Database::connect(&config.database_url).await?;
        let listener = tokio::net::TcpListener::bind(&config.bind_addr)
            .await
            .map_err(|source| StartError::Bind {
                addr: config.bind_addr.clone(),
                source,
            })?;
        Ok(Self {
            listener,
            router: app(AppState { database }),
        })
    }

    /// The bound address.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until Ctrl-C or SIGTERM, then finishes the requests in flight.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        axum::serve(self.listener, self.router)
            .with_graceful_shutdown(shutdown_signal())
            .await
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut signal) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            signal.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;

    #[tokio::test]
    async fn health_and_readiness_answer_on_a_fresh_store() {
        let dir = std::env::temp_dir().join(format!("api-test-{}", std::process::id()));
        let url = format!("sqlite://{}", dir.join("loan.db").display());
        let database = Database::connect(&url).await.expect("store");
        let router = app(AppState { database });
        for path in ["/healthz", "/readyz", "/"] {
            let response = router
                .clone()
                .oneshot(Request::get(path).body(Body::empty()).unwrap())
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::OK, "{path}");
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}
