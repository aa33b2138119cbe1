//! The HTTP server of DESIGN.md: borrower calls under `/jackey`, health endpoints,
//! and the in-process workers (projections, process manager, payouts).
//!
//! `Application::build` binds first (port 0 works) so tests can run the real server.

pub mod accounts;
pub mod config;
pub mod db;
pub mod documents;
pub mod http;
pub mod payment;
pub mod providers;
pub mod queries;
pub mod routes;
pub mod runtime;
pub mod workflows;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use aggregates::catalogue::ChangeServices;
use aggregates::services::{OrderServices, UserServices};
use axum::http::{Request, StatusCode};
use axum::response::IntoResponse;
use axum::Router;
use projections::store::{CommandBus, Database, StoreError};
use secrecy::ExposeSecret;
use tokio::sync::watch;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::config::{ConfigError, Configured, Env};
use crate::http::middleware::{
    command_count, idempotency, ops, read_your_writes, request_id, staff_trail,
};
use crate::http::{openapi, web_app};
use crate::providers::storage;
use crate::runtime::services::{Argon2Hasher, SystemClock};
use crate::runtime::state;
pub use crate::runtime::state::AppState;

/// Where the server listens when `BIND_ADDR` is unset.
pub const DEFAULT_BIND_ADDR: &str = "127.0.0.1:8080";

/// Largest request body: a 5 MB image as base64 plus the envelope.
const BODY_LIMIT_BYTES: usize = 8 * 1024 * 1024;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The configuration is unusable (including a product that breaks the profile).
    #[error("configuration: {0}")]
    Config(#[from] ConfigError),
    /// `STORAGE_URL` names no usable object store.
    #[error("storage: {0}")]
    Storage(#[from] storage::StorageError),
    /// The PDF documents' font (`PDF_FONT`) is missing or cannot print them.
    #[error("documents: {0}")]
    Font(#[from] documents::fonts::FontError),
    /// The event store could not be opened or migrated.
    #[error("event store: {0}")]
    Store(#[from] StoreError),
    /// The product lines (the versions changed in the console) could not be read.
    #[error("products: {0}")]
    Products(#[from] cqrs_es::AggregateError<aggregates::catalogue::ChangeError>),
    /// `READ_DATABASE_URL` cannot serve as a replica of `DATABASE_URL`.
    #[error("READ_DATABASE_URL: {0}")]
    ReadReplica(&'static str),
    /// The address could not be bound.
    #[error("bind {addr}: {source}")]
    Bind {
        /// The address.
        addr: String,
        /// The cause.
        source: std::io::Error,
    },
}

/// Builds the shared state over an open store.
pub fn state(database: Database, env: Env) -> Result<AppState, StartError> {
    state_at(database, env, Arc::new(SystemClock))
}

/// [`state`] with every clock (commands, the catalogue's versions, workflows,
/// sessions) set to `clock`: tests move it.
pub fn state_at(
    database: Database,
    env: Env,
    clock: Arc<dyn aggregates::services::Clock>,
) -> Result<AppState, StartError> {
    let client_ip_source = env.client_ip_source.clone();
    let config = Arc::new(env.lending_config()?);
    let storage = storage::open(&env.storage_url)?;
    let documents = Arc::new(documents::Documents::load(env.pdf_font.as_deref())?);
    let configured = Arc::new(Configured::new(config.clone(), clock.clone()));
    let user_services = UserServices {
        clock: clock.clone(),
        hasher: Arc::new(Argon2Hasher),
        reference: configured.clone(),
    };
    let compliance = Arc::new(env.compliance_profile.clone());
    let change_services = ChangeServices {
        clock: clock.clone(),
        compliance: compliance.clone(),
        reference: configured.clone(),
    };
    let products = Arc::new(CommandBus::new(&database, change_services.clone()));
    let settings = Arc::new(CommandBus::new(&database, change_services));
    let order_services = OrderServices {
        clock,
        catalogue: configured.clone(),
        compliance,
    };
    let leases = projections::consumer::lease::Leases::for_database(&database);
    let buses = projections::process::CommandBuses::new(
        &database,
        user_services.clone(),
        order_services.clone(),
    );
    Ok(AppState::from(state::Shared {
        users: buses.users,
        orders: buses.orders,
        wallets: buses.wallets,
        products,
        settings,
        catalogue: configured,
        wakeup: Arc::new(tokio::sync::Notify::new()),
        database,
        replica: None,
        env: Arc::new(env),
        config,
        user_services,
        order_services,
        rate_limits: Arc::new(ops::RateLimits::new(client_ip_source)),
        storage,
        checkpoints: projections::consumer::runner::Checkpoints::default(),
        leases,
        documents,
    }))
}

/// The whole router, so tests can call it without a socket.
pub fn app(state: AppState) -> Router {
    let mut api = Router::new();
    if state.env.app_env == config::AppEnv::Demo {
        api = api.merge(routes::borrower::sms_inbox::router());
    }
    let api = api
        .merge(routes::ops::router())
        .merge(routes::borrower::account::router())
        .merge(routes::borrower::credentials::router())
        .merge(routes::borrower::notices::router())
        .merge(routes::borrower::loan::router())
        .merge(routes::borrower::collection::router())
        .merge(routes::borrower::payment_plan::router())
        .merge(routes::files::router())
        .merge(routes::admin::router())
        .merge(routes::documents::router())
        .merge(routes::data_export::router())
        .merge(routes::borrower::pay::router_for(&state))
        .merge(openapi::router())
        .with_state(state.clone());
    let page = web_app::page(&state.env.web_dist, &state.config.lender);
    let router = web_app::with_web_app(api, &state.env.web_dist, page.clone());
    // Every layer stacks once around the whole router, outermost first. `Router::layer`
    // would wrap each route in each layer on its own, boxed services that every request
    // clones (a query's instructions: 160,000 with them, 123,000 without,
    // bench/PROFILE.md). So the api's layers see the web app's requests too, and pass
    // them on: each acts only on its own paths (rate limits, idempotency) or headers
    // (`X-Min-Position`).
    let service = tower::ServiceBuilder::new()
        // Every answer (a 408 or 413 too) carries the request id, and every log line of
        // the request its span (`request_id`).
        .layer(axum::middleware::from_fn(request_id::drop_unusable))
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(TraceLayer::new_for_http().make_span_with(request_id::span))
        .layer(axum::middleware::from_fn(request_id::scope))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        // Bodies back to axum's own types, as `Router::layer` converts them.
        .map_response(IntoResponse::into_response)
        .layer(RequestBodyLimitLayer::new(BODY_LIMIT_BYTES))
        .map_request(|request: Request<_>| request.map(axum::body::Body::new))
        // axum's extractors stop at 2 MB by default; uploads may be up to 5 MB.
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT_BYTES))
        .layer(axum::middleware::from_fn(ops::track))
        .layer(axum::middleware::from_fn(ops::security_headers))
        .layer(axum::middleware::from_fn_with_state(
            page,
            web_app::index_html,
        ))
        .layer(axum::middleware::from_fn(web_app::cache_policy))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            ops::rate_limit,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            read_your_writes::layer,
        ))
        .layer(axum::middleware::from_fn(command_count::layer))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            idempotency::layer,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state,
            staff_trail::layer,
        ))
        .service(router);
    Router::new().fallback_service(service)
}

/// How long a start waits for the read replica to replay the primary's migrations.
const REPLICA_CATCH_UP: Duration = Duration::from_secs(30);

/// How long a request may run before it is answered 408 (and its idempotency claim,
/// if any, may be taken over by a repeat).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// A bound, not yet serving, application with its workers running.
pub struct Application {
    listener: tokio::net::TcpListener,
    router: Router,
    stop_workers: watch::Sender<bool>,
    leases: projections::consumer::lease::Leases,
}

impl Application {
    /// Loads the configuration, opens the store (migrating it), starts the workers
    /// and binds the address.
    pub async fn build(env: Env) -> Result<Self, StartError> {
        // The configuration and the storage first: a mistake there stops the start
        // before the store is opened or migrated; a production start refuses a demo
        // setting first (PRODUCT.md 12.7).
        env.check_production()?;
        env.check_providers(&env.lending_config()?)?;
        storage::open(&env.storage_url)?;
        let database = Database::connect(env.database_url.expose_secret()).await?;
        let replica_url = env
            .read_database_url
            .as_ref()
            .map(|url| url.expose_secret());
        let replica = match replica_url {
            None => None,
            Some(_) if !matches!(database, Database::Postgres(_)) => {
                return Err(StartError::ReadReplica(
                    "a read replica needs DATABASE_URL to be PostgreSQL",
                ))
            }
            Some(url) => {
                let replica = projections::store::replica::connect_replica(url).await?;
                // The migrations just applied reach the replica a moment later; the
                // queries find their tables there once it has replayed them.
                let replayed = projections::store::replica::wait_for_replay(
                    &database,
                    &replica,
                    REPLICA_CATCH_UP,
                )
                .await?;
                if !replayed {
                    tracing::warn!("the read replica is behind the primary's migrations");
                }
                Some(replica)
            }
        };
        let bind_addr = env.bind_addr.clone();
        let state = AppState::from(state::Shared {
            replica,
            ..state(database, env)?.shared()
        });
        // The versions approved in the console, before the first borrower is priced.
        state
            .catalogue
            .refresh(&state.products, &state.settings)
            .await?;
        let listener = tokio::net::TcpListener::bind(&bind_addr)
            .await
            .map_err(|source| StartError::Bind {
                addr: bind_addr,
                source,
            })?;
        let (stop_workers, stopped) = watch::channel(false);
        let wakeup = projections::consumer::runner::wakeup_for(&state.database).await;
        // Commands in this process poke the same signal the workers wait on.
        let state = AppState::from(state::Shared {
            wakeup: wakeup.clone(),
            ..state.shared()
        });
        workflows::spawn(&state, wakeup, stopped);
        Ok(Self {
            leases: state.leases.clone(),
            listener,
            router: app(state),
            stop_workers,
        })
    }

    /// The bound address.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until Ctrl-C or SIGTERM, then finishes the requests in flight.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let service = self
            .router
            .into_make_service_with_connect_info::<SocketAddr>();
        let served = axum::serve(self.listener, service)
            .with_graceful_shutdown(shutdown_signal())
            .await;
        let _ = self.stop_workers.send(true);
        // Hand the log consumers to the processes standing by at once.
        self.leases.release_all().await;
        served
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
