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

/// A running app over its own store (clones share it).
#[derive(Clone)]
pub struct TestApp {
    pub router: Router,
    pub state: AppState,
    _stop: std::sync::Arc<watch::Sender<bool>>,
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
        // One upload directory for the whole test process: STORAGE_DIR is process-wide,
        // so setting it per test would race between tests running in parallel.
        static STORAGE: std::sync::Once = std::sync::Once::new();
        STORAGE.call_once(|| {
            let shared = std::env::temp_dir()
                .join("api-tests")
                .join(format!("uploads-{}", std::process::id()));
            std::env::set_var("STORAGE_DIR", shared);
        });
        // Server logs appear with a failing test's output.
        let _ = tracing_subscriber::fmt()
            .with_test_writer()
            .with_env_filter("warn")
            .try_init();
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
            _stop: std::sync::Arc::new(stop),
        }
    }

    /// On a fresh SQLite file.
    pub async fn sqlite() -> Self {
        let dir = std::env::temp_dir()
            .join("api-tests")
            .join(Uuid::now_v7().simple().to_string());
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

    /// Two apps (two pools, two sets of workers) over one fresh PostgreSQL schema, as
    /// two api processes would share one database; `None` without `TEST_DATABASE_URL`.
    pub async fn postgres_pair() -> Option<(Self, Self)> {
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
        let first = Database::connect_postgres(options.clone())
            .await
            .expect("postgres");
        let second = Database::connect_postgres(options).await.expect("postgres");
        Some((Self::over(first).await, Self::over(second).await))
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

impl TestApp {
    /// POSTs with an `Idempotency-Key` header; returns the envelope.
    pub async fn post_with_key(&self, path: &str, token: &str, key: &str, body: Value) -> Value {
        let request = Request::post(path)
            .header("content-type", "application/json")
            .header("authorization", format!("Bearer {token}"))
            .header("idempotency-key", key)
            .body(Body::from(body.to_string()))
            .unwrap();
        let response = self.router.clone().oneshot(request).await.unwrap();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        serde_json::from_slice(&bytes).unwrap()
    }

    /// A registered, verified, fully profiled borrower with a bank account, a
    /// signature and withdraw PIN 246810. Returns (token, user id).
    pub async fn qualified_borrower(&self, mobile: &str) -> (String, Uuid) {
        use aggregates::types::ImageRef;
        use aggregates::user::UserCommand;
        use aggregates::Actor;
        let body =
            json!({"mobile": mobile, "password": "secret-pass", "telemarketingCode": "WELCOME"});
        let token = self.ok("/jackey/user/register", None, body).await["token"]
            .as_str()
            .unwrap()
            .to_string();
        let t = Some(token.as_str());
        let user_id: Uuid = self.ok("/jackey/user/info", t, json!({})).await["userId"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        self.ok("/jackey/user/update", t, json!({"realName": "Ana Santos", "identity": "123456789012", "sex": 2, "birthday": "1995-03-14", "marriage": "Single", "email": "ana@example.ph", "education": "College", "provinceCity": "Metro Manila,Quezon City", "address": "12 Mabini St"})).await;
        let image = |name: &str| ImageRef {
            key: format!("id/{user_id}/{name}.jpg"),
            sha256: "ab".repeat(32),
        };
        let uid = user_id.to_string();
        let auditor = Uuid::now_v7();
        self.state
            .users
            .execute(
                &uid,
                UserCommand::SubmitIdentity {
                    front: image("f"),
                    back: image("b"),
                    hand_hold: image("h"),
                },
                Actor::User(user_id).metadata("t", None),
            )
            .await
            .unwrap();
        self.state
            .users
            .execute(
                &uid,
                UserCommand::VerifyIdentity {
                    auditor_id: auditor,
                },
                Actor::Auditor(auditor).metadata("t", None),
            )
            .await
            .unwrap();
        self.ok(
            "/jackey/user/bank/binding",
            t,
            json!({"bankName": "Bangkok Bank", "cardNo": "001234567890"}),
        )
        .await;
        self.ok("/jackey/user/signatureImg/upload", t, json!({"img": PNG}))
            .await;
        self.ok("/jackey/user/withdrawPin", t, json!({"pin": "246810"}))
            .await;
        (token, user_id)
    }

    /// Approves an order through two auditors (command bus; the auditor API has its own tests).
    pub async fn approve(&self, token: &str, order_id: &str) {
        use aggregates::order::OrderCommand;
        use aggregates::Actor;
        let (a1, a2) = (Uuid::now_v7(), Uuid::now_v7());
        for (who, command) in [
            (a1, OrderCommand::StartReview { auditor_id: a1 }),
            (
                a1,
                OrderCommand::PassFirstAudit {
                    auditor_id: a1,
                    note: "ok".into(),
                    identity_verified: true,
                },
            ),
            (
                a2,
                OrderCommand::PassFinalAudit {
                    auditor_id: a2,
                    note: "ok".into(),
                },
            ),
        ] {
            self.state
                .orders
                .execute(order_id, command, Actor::Auditor(who).metadata("t", None))
                .await
                .unwrap();
        }
        self.wait_status(token, order_id, 9).await;
    }
}
