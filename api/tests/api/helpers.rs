//! A fresh app per test, and a typed-enough way to call it.

use std::str::FromStr;
use std::time::Duration;

use api::settings::Env;
use api::AppState;
use axum::body::Body;
use axum::http::Request;
use axum::Router;
use http_body_util::BodyExt;
use projections::store::Database;
use serde_json::{json, Value};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use tokio::sync::watch;
use tower::ServiceExt;
use uuid::Uuid;

/// A running app over its own store.
pub struct TestApp {
    pub router: Router,
    pub state: AppState,
    _stop: watch::Sender<bool>,
}

fn env() -> Env {
    Env {
        database_url: String::new(),
        bind_addr: "127.0.0.1:0".into(),
        compliance_profile: aggregates::pricing::ComplianceProfile::Ph,
        config_file: None,
        token_ttl_hours: 24,
    }
}

impl TestApp {
    async fn over(database: Database) -> Self {
        let state = api::state(database, env()).expect("state");
        let wakeup = projections::runner::wakeup_for(&state.database).await;
        let state = AppState {
            wakeup: wakeup.clone(),
            ..state
        };
        let (stop, stopped) = watch::channel(false);
        api::workers::spawn(&state, wakeup, stopped);
        Self {
            router: api::app(state.clone()),
            state,
            _stop: stop,
        }
    }

    /// On a fresh SQLite file.
    pub async fn sqlite() -> Self {
        let dir = std::env::temp_dir()
            .join("api-tests")
            .join(Uuid::now_v7().simple().to_string());
        std::env::set_var("STORAGE_DIR", dir.join("uploads"));
        let url = format!("sqlite://{}", dir.join("loan.db").display());
        Self::over(Database::connect(&url).await.expect("sqlite")).await
    }

    /// On a fresh PostgreSQL schema, or `None` (said on stderr) without `TEST_DATABASE_URL`.
    pub async fn postgres() -> Option<Self> {
        let Ok(url) = std::env::var("TEST_DATABASE_URL") else {
            eprintln!("SKIPPED (PostgreSQL): TEST_DATABASE_URL not set");
            return None;
        };
        let admin = PgPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .expect("connect");
        let schema = format!("api_{}", Uuid::now_v7().simple());
        sqlx::query(&format!("create schema {schema}"))
            .execute(&admin)
            .await
            .expect("schema");
        let options = PgConnectOptions::from_str(&url)
            .unwrap()
            .options([("search_path", schema.as_str())]);
        Some(Self::over(Database::connect_postgres(options).await.expect("postgres")).await)
    }

    /// POSTs a JSON body (or raw text) and returns the envelope.
    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Value {
        self.post_raw(path, token, body.to_string()).await
    }

    /// POSTs raw text as the body.
    pub async fn post_raw(&self, path: &str, token: Option<&str>, body: String) -> Value {
        let mut request = Request::post(path).header("content-type", "application/json");
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let response = self
            .router
            .clone()
            .oneshot(request.body(Body::from(body)).unwrap())
            .await
            .unwrap();
        assert!(
            response.status().is_success(),
            "{path}: HTTP {}",
            response.status()
        );
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        serde_json::from_slice(&bytes).unwrap_or_else(|_| panic!("{path}: not JSON: {bytes:?}"))
    }

    /// Calls and asserts success, returning `data`.
    pub async fn ok(&self, path: &str, token: Option<&str>, body: Value) -> Value {
        let answer = self.post(path, token, body).await;
        assert_eq!(answer["code"], 0, "{path}: {answer}");
        answer["data"].clone()
    }

    /// Calls and asserts the error code.
    pub async fn fails(&self, path: &str, token: Option<&str>, body: Value, code: u32) -> Value {
        let answer = self.post(path, token, body).await;
        assert_eq!(answer["code"], code, "{path}: {answer}");
        answer
    }

    /// Polls `/loan/orderInfo` until the order reaches `status`.
    pub async fn wait_status(&self, token: &str, order_id: &str, status: u64) -> Value {
        for _ in 0..200 {
            let order = self
                .ok(
                    "/jackey/loan/orderInfo",
                    Some(token),
                    json!({ "loanOrderId": order_id }),
                )
                .await;
            if order["status"] == status {
                return order;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("order {order_id} never reached status {status}");
    }
}

/// A 1×1 PNG as a data URL.
pub const PNG: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
