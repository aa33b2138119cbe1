//! A fresh app per test, and a typed-enough way to call it.

use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use api::config::Env;
use api::providers::storage::Storage;
use api::AppState;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use projections::store::{Database, EventLog, LogPosition};
use serde_json::{json, Value};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use tokio::sync::watch;
use tower::ServiceExt;
use uuid::Uuid;

use api::accounts::auditors::create_auditor;

/// A running app over its own store (clones share it).
#[derive(Clone)]
pub struct TestApp {
    pub router: Router,
    pub state: AppState,
    /// What this client has written up to (shared by its clones).
    pub position: Position,
    stop: std::sync::Arc<watch::Sender<bool>>,
}

/// The `METRICS_TOKEN` of every test app.
pub const METRICS_TOKEN: &str = "test-metrics-token";

/// The settings of a test app: each app has its own in-memory image store.
pub fn env() -> Env {
    Env {
        database_url: String::new().into(),
        read_database_url: None,
        bind_addr: "127.0.0.1:0".into(),
        compliance_profile: aggregates::pricing::ComplianceProfile::Ph,
        config_file: None,
        token_ttl_hours: 24,
        auditor_token_ttl_hours: 12,
        storage_url: "memory://".into(),
        // As behind a proxy: a call may say which client it comes from (`post_from`);
        // one that does not shares the address `unknown`.
        client_ip_source: axum_client_ip::ClientIpSource::RightmostXForwardedFor,
        web_dist: "web/dist".into(),
        app_env: api::config::AppEnv::Demo,
        providers: api::config::Providers::default(),
        xendit: None,
        semaphore: None,
        webhook_secret: None,
        metrics_token: Some(METRICS_TOKEN.into()),
        pdf_font: None,
        staff_second_factor: false,
    }
}

/// Connection options for a fresh PostgreSQL schema, or `None` (said on stderr)
/// without `TEST_DATABASE_URL`.
async fn fresh_postgres_schema() -> Option<PgConnectOptions> {
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
    Some(
        PgConnectOptions::from_str(&url)
            .unwrap()
            .options([("search_path", schema.as_str())]),
    )
}

/// The highest `X-Log-Position` a test client has been answered, which it sends as
/// `X-Min-Position` on every call, as the SPA does (read-your-writes by position).
pub type Position = Arc<Mutex<Option<LogPosition>>>;

/// The app's router, with a check on every answer: no handler sent more than one
/// command (DESIGN.md "Where each rule lives"; `api::http::middleware::command_count`), so every call
/// of every test checks it. Like the SPA, it sends the highest log position it was
/// answered with and keeps the one each answer carries.
fn checked_router(state: &AppState, position: Position) -> Router {
    let sent_position = position.clone();
    api::app(state.clone())
        .layer(axum::middleware::map_response(
            move |response: axum::response::Response| {
                let position = position.clone();
                async move {
                    let sent = response
                        .headers()
                        .get(api::http::middleware::command_count::HEADER)
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.parse::<u32>().ok())
                        .unwrap_or(0);
                    assert!(sent <= 1, "a handler sent {sent} commands in one request");
                    let written = response
                        .headers()
                        .get(api::http::middleware::read_your_writes::LOG_POSITION)
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.parse::<LogPosition>().ok());
                    if let Some(written) = written {
                        let mut known = position.lock().unwrap();
                        *known = Some(known.map_or(written, |k| k.max(written)));
                    }
                    response
                }
            },
        ))
        .layer(axum::middleware::map_request(
            move |mut request: axum::extract::Request| {
                let known = *sent_position.lock().unwrap();
                async move {
                    let headers = request.headers_mut();
                    if let Some(known) = known {
                        if !headers
                            .contains_key(api::http::middleware::read_your_writes::MIN_POSITION)
                        {
                            headers.insert(
                                api::http::middleware::read_your_writes::MIN_POSITION,
                                known.to_string().parse().unwrap(),
                            );
                        }
                    }
                    request
                }
            },
        ))
}

impl TestApp {
    /// An app over `database`; with `storage`, images go there instead of a fresh
    /// in-memory store (two apps of one deployment share it).
    pub async fn over(database: Database, storage: Option<Storage>) -> Self {
        Self::over_with(database, storage, env()).await
    }

    /// An app over `database` with the settings `env` (providers, modes).
    pub async fn over_with(database: Database, storage: Option<Storage>, env: Env) -> Self {
        logs::init();
        Self::running(api::state(database, env).expect("state"), storage).await
    }

    /// `state` with its workers running; with `storage`, images go there.
    async fn running(state: AppState, storage: Option<Storage>) -> Self {
        let wakeup = projections::consumer::runner::wakeup_for(&state.database).await;
        let state = AppState::from(api::runtime::state::Shared {
            wakeup: wakeup.clone(),
            storage: storage.unwrap_or(state.storage.clone()),
            ..state.shared()
        });
        let (stop, stopped) = watch::channel(false);
        api::workflows::spawn(&state, wakeup, stopped);
        let position = Position::default();
        Self {
            router: checked_router(&state, position.clone()),
            state,
            position,
            stop: std::sync::Arc::new(stop),
        }
    }

    /// On a fresh SQLite file.
    pub async fn sqlite() -> Self {
        Self::sqlite_with(env()).await
    }

    /// On a fresh SQLite file, with the settings `env`.
    pub async fn sqlite_with(env: Env) -> Self {
        let dir = std::env::temp_dir()
            .join("api-tests")
            .join(Uuid::now_v7().simple().to_string());
        let url = format!("sqlite://{}", dir.join("loan.db").display());
        Self::over_with(Database::connect(&url).await.expect("sqlite"), None, env).await
    }

    /// On a fresh PostgreSQL schema, or `None` (said on stderr) without `TEST_DATABASE_URL`.
    pub async fn postgres() -> Option<Self> {
        Self::postgres_with(env()).await
    }

    /// On a fresh PostgreSQL schema with the settings `env`, or `None`.
    pub async fn postgres_with(env: Env) -> Option<Self> {
        let options = fresh_postgres_schema().await?;
        let database = Database::connect_postgres(options).await.expect("postgres");
        Some(Self::over_with(database, None, env).await)
    }

    /// On a fresh PostgreSQL schema whose queries read a streaming replica of the
    /// server (`TEST_READ_DATABASE_URL`, as `scripts/pg-replica` starts one), as
    /// `READ_DATABASE_URL` configures it; with a superuser pool on the replica to pause
    /// and resume its replay. `None` (said on stderr) without either URL.
    pub async fn postgres_with_replica() -> Option<(Self, sqlx::PgPool)> {
        let Ok(replica_url) = std::env::var("TEST_READ_DATABASE_URL") else {
            eprintln!("SKIPPED (PostgreSQL read replica): TEST_READ_DATABASE_URL not set");
            return None;
        };
        let options = fresh_postgres_schema().await?;
        let schema = options
            .get_options()
            .and_then(|o| o.split("search_path=").nth(1))
            .map(|s| s.split_whitespace().next().unwrap_or_default().to_string())
            .expect("the schema's search path");
        let database = Database::connect_postgres(options).await.expect("postgres");
        let replica_options = PgConnectOptions::from_str(&replica_url)
            .expect("TEST_READ_DATABASE_URL")
            .options([("search_path", schema.as_str())]);
        let replica = projections::store::replica::connect_replica_with(replica_options)
            .await
            .expect("the replica");
        // The schema and its migrations reach the replica a moment after the primary.
        let replayed = projections::store::replica::wait_for_replay(
            &database,
            &replica,
            std::time::Duration::from_secs(30),
        )
        .await
        .expect("the replica's replay position");
        assert!(replayed, "the replica never replayed the migrations");
        let control = PgPoolOptions::new()
            .max_connections(1)
            .connect(&replica_url)
            .await
            .expect("the replica");
        logs::init();
        let state = AppState::from(api::runtime::state::Shared {
            replica: Some(replica),
            ..api::state(database, env()).expect("state").shared()
        });
        Some((Self::running(state, None).await, control))
    }

    /// Two apps (two pools, two sets of workers) over one fresh PostgreSQL schema, as
    /// two api processes would share one database; `None` without `TEST_DATABASE_URL`.
    pub async fn postgres_pair() -> Option<(Self, Self)> {
        let options = fresh_postgres_schema().await?;
        let first = Database::connect_postgres(options.clone())
            .await
            .expect("postgres");
        let second = Database::connect_postgres(options).await.expect("postgres");
        let first = Self::over(first, None).await;
        let storage = first.state.storage.clone();
        Some((first, Self::over(second, Some(storage)).await))
    }

    /// After a write made outside a call (straight to a command bus): the client's
    /// next reads wait for everything in the log now.
    pub async fn wrote(&self) {
        let head = EventLog::new(&self.state.database).head().await.unwrap();
        let mut known = self.position.lock().unwrap();
        *known = Some(known.map_or(head, |k| k.max(head)));
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
        self.wait_order(token, order_id, "status", json!(status))
            .await
    }
}

/// A 1×1 PNG as a data URL.
pub const PNG: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

impl TestApp {
    /// Runs one SQL statement on the app's store; returns the rows it touched.
    pub async fn sql(&self, statement: &str) -> u64 {
        match &self.state.database {
            Database::Sqlite { pool, .. } => sqlx::query(statement)
                .execute(pool)
                .await
                .map(|r| r.rows_affected()),
            Database::Postgres(pool) => sqlx::query(statement)
                .execute(pool)
                .await
                .map(|r| r.rows_affected()),
        }
        .expect("the statement runs")
    }

    /// A payment of `amount` on `order_id` as a paid payment page leaves it, without
    /// the page: the Order opens a session, and the webhook's effect (a recharge on
    /// the session) is recorded on the wallet. Both retried like every api command
    /// (the loan workflow may be writing to the same aggregates).
    pub async fn paid_session(
        &self,
        user_id: &str,
        order_id: &str,
        payment_ref: &str,
        amount: i64,
    ) {
        let session_id = Uuid::now_v7();
        let amount = rust_decimal::Decimal::from(amount);
        let open = || aggregates::order::OrderCommand::OpenPaymentSession { session_id, amount };
        let system = aggregates::Actor::System;
        self.state
            .execute(&self.state.orders, order_id, open, system, "test")
            .await
            .expect("the order opens the session");
        let recharge = || aggregates::wallet::WalletCommand::RecordRecharge {
            payment_ref: payment_ref.to_string(),
            order_id: order_id.parse().unwrap(),
            amount,
            session_id: Some(session_id),
            received_at: Some(self.state.now()),
        };
        self.state
            .execute(&self.state.wallets, user_id, recharge, system, "webhook")
            .await
            .expect("the recharge is recorded");
        self.wrote().await;
    }
}

impl TestApp {
    /// POSTs with an `Idempotency-Key` header; returns the envelope.
    pub async fn post_with_key(&self, path: &str, token: &str, key: &str, body: Value) -> Value {
        let headers = [
            ("authorization", format!("Bearer {token}")),
            ("idempotency-key", key.to_string()),
        ];
        self.post_with_headers(path, &headers, body).await
    }

    /// POSTs a JSON body with these headers; returns the envelope (any HTTP status).
    pub async fn post_with_headers(
        &self,
        path: &str,
        headers: &[(&str, String)],
        body: Value,
    ) -> Value {
        let mut request = Request::post(path).header("content-type", "application/json");
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        let request = request.body(Body::from(body.to_string())).unwrap();
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
        let token = self.register(mobile).await;
        let t = Some(token.as_str());
        let user_id: Uuid = self.ok("/jackey/user/info", t, json!({})).await["userId"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        self.ok("/jackey/user/update", t, profile("Ana Santos", mobile))
            .await;
        let image = |name: &str| ImageRef {
            key: format!("id/{user_id}/{name}.jpg"),
            sha256: "ab".repeat(32),
        };
        let uid = user_id.to_string();
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
        self.verify_identity(&uid).await;
        self.ok("/jackey/user/update", t, questionnaire()).await;
        self.bank_signature_and_pin(&token).await;
        (token, user_id)
    }

    /// An auditor verifies the user's identity (command bus; the auditor API has its
    /// own tests).
    pub async fn verify_identity(&self, user_id: &str) {
        use aggregates::user::UserCommand;
        use aggregates::Actor;
        let auditor = Uuid::now_v7();
        self.state
            .users
            .execute(
                user_id,
                UserCommand::VerifyIdentity {
                    auditor_id: auditor,
                },
                Actor::Auditor(auditor).metadata("t", None),
            )
            .await
            .unwrap();
        self.wrote().await;
    }

    /// Binds BDO Unibank 001234567890, uploads the signature [`PNG`] and sets PIN
    /// 246810, over HTTP.
    pub async fn bank_signature_and_pin(&self, token: &str) {
        let t = Some(token);
        let bank = json!({"bankName": "BDO Unibank", "cardNo": "001234567890"});
        self.ok("/jackey/user/bank/binding", t, bank).await;
        self.ok("/jackey/user/signatureImg/upload", t, json!({"img": PNG}))
            .await;
        self.ok("/jackey/user/withdrawPin", t, json!({"pin": "246810"}))
            .await;
    }

    /// Approves an order through two auditors (command bus; the auditor API has its own tests).
    pub async fn approve(&self, token: &str, order_id: &str) {
        self.approve_on(&self.state.orders, token, order_id).await;
    }

    /// Approves an order through two auditors on `orders` (a bus with its own clock,
    /// say), and waits for status 9.
    pub async fn approve_on(
        &self,
        orders: &projections::store::CommandBus<aggregates::order::Order>,
        token: &str,
        order_id: &str,
    ) {
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
            orders
                .execute(order_id, command, Actor::Auditor(who).metadata("t", None))
                .await
                .unwrap();
        }
        self.wrote().await;
        self.wait_status(token, order_id, 9).await;
    }
}

/// The privacy notice version of the demo configuration (`api/config/demo.json`).
pub const PRIVACY_NOTICE_VERSION: &str = "2026-11";

/// The full profile of `/jackey/user/update` for `name`; the ID number and the email
/// are derived from `mobile`, since one account at most may hold each (10026, 10025).
pub fn profile(name: &str, mobile: &str) -> Value {
    json!({
        "realName": name,
        "identity": format!("5{}", &mobile[1..]),
        "sex": 2,
        "birthday": "1995-03-14",
        "marriage": "Single",
        "email": format!("b{mobile}@example.ph"),
        "education": "College",
        "provinceCity": "National Capital Region (NCR),,Quezon City",
        "address": "12 Mabini St",
    })
}

/// The questionnaire's six answers.
pub fn questionnaire() -> Value {
    json!({"job": "teacher", "monthlyIncome": "400000", "expenses": "12000", "loanPurpose": "tuition", "loanBefore": false, "guarantee": true})
}

/// A small PNG photo (8×8, one green pixel).
pub fn png_photo() -> Vec<u8> {
    photo(image::ImageFormat::Png)
}

/// A small photo (8×8, one green pixel) in `format`.
pub fn photo(format: image::ImageFormat) -> Vec<u8> {
    let mut pixels = image::RgbImage::new(8, 8);
    pixels.put_pixel(2, 2, image::Rgb([10, 200, 10]));
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(pixels)
        .write_to(&mut out, format)
        .unwrap();
    out.into_inner()
}

impl TestApp {
    /// Waits until the loan process and every projection have handled the whole log
    /// and nothing new was appended meanwhile (the loan process's reactions are
    /// commands of their own, which `settle` does not wait for). Before `verify`, and
    /// before reading effects of the loan process.
    pub async fn quiesce(&self) {
        let database = &self.state.database;
        let log = projections::store::EventLog::new(database);
        let mut workflows = projections::process::LOAN_PROCESS_PARTITIONS.to_vec();
        workflows.push(api::workflows::payout::PAYOUT_WORKER);
        workflows.push(api::workflows::erasure::ERASURE_WORKER);
        for _ in 0..50 {
            let head = log.head().await.unwrap();
            assert!(
                projections::consumer::runner::wait_for_checkpoints(
                    database,
                    &self.state.checkpoints,
                    &workflows,
                    head,
                    Duration::from_secs(10)
                )
                .await
                .unwrap(),
                "the process manager did not catch up"
            );
            self.state.read_models_at_head().await.unwrap();
            if log.head().await.unwrap() == head {
                return;
            }
        }
        panic!("the log never settled");
    }

    /// Registers `mobile` (password `secret-pass`, invite code WELCOME); returns the token.
    pub async fn register(&self, mobile: &str) -> String {
        let body = json!({"mobile": mobile, "password": "secret-pass", "telemarketingCode": "WELCOME", "installationSource": "web", "platform": "h5"});
        let body = self.with_register_code(body).await;
        let answer = self
            .post_from(&address_of(mobile), "/jackey/user/register", body)
            .await;
        assert_eq!(answer["code"], 0, "{answer}");
        answer["data"]["token"].as_str().unwrap().to_string()
    }

    /// Sends `/jackey/sms/register` to `mobile` (from the phone's own client address)
    /// and reads the code from the outbox.
    pub async fn register_code(&self, mobile: &str) -> String {
        let send = json!({"mobile": mobile});
        let answer = self
            .post_from(&address_of(mobile), "/jackey/sms/register", send)
            .await;
        assert_eq!(answer["code"], 0, "{answer}");
        self.last_sms_code(mobile).await
    }

    /// A registration body with the `smsCode` just sent to its `mobile`, and the
    /// current privacy notice accepted unless the body names a version.
    pub async fn with_register_code(&self, mut body: Value) -> Value {
        let mobile = body["mobile"].as_str().expect("a mobile").to_string();
        body["smsCode"] = json!(self.register_code(&mobile).await);
        if body.get("privacyNoticeVersion").is_none() {
            body["privacyNoticeVersion"] = json!(PRIVACY_NOTICE_VERSION);
        }
        body
    }

    /// `GET url` with an optional bearer token: (status, content type, body).
    pub async fn get(&self, url: &str, token: Option<&str>) -> (StatusCode, String, Vec<u8>) {
        let mut request = Request::get(url);
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let response = self
            .router
            .clone()
            .oneshot(request.body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = response.status();
        let content_type = response
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, content_type, bytes.to_vec())
    }

    /// `/jackey/user/identity/apply` with these multipart parts (name, bytes); the envelope.
    pub async fn upload_identity_parts(&self, token: &str, parts: &[(&str, Vec<u8>)]) -> Value {
        let boundary = "----test-boundary-7d3a";
        let mut body = Vec::new();
        for (name, bytes) in parts {
            body.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{name}.img\"\r\nContent-Type: application/octet-stream\r\n\r\n").as_bytes());
            body.extend_from_slice(bytes);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        let request = Request::post("/jackey/user/identity/apply")
            .header(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            )
            .header("authorization", format!("Bearer {token}"))
            .body(Body::from(body))
            .unwrap();
        let response = self.router.clone().oneshot(request).await.unwrap();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        serde_json::from_slice(&bytes).unwrap()
    }

    /// Uploads three PNG ID photos and asserts success.
    pub async fn upload_identity(&self, token: &str) {
        let parts = ["frontImage", "backImage", "handHoldImage"].map(|name| (name, png_photo()));
        let answer = self.upload_identity_parts(token, &parts).await;
        assert_eq!(answer["code"], 0, "identity upload: {answer}");
    }

    /// The code in the last SMS code the default sender wrote to `mobile` (`sms_outbox`;
    /// due-date reminders, which the scheduler may queue meanwhile, are not codes).
    pub async fn last_sms_code(&self, mobile: &str) -> String {
        let sql = "select body from sms_outbox where mobile = $1 \
                   and (message_id is null or message_id not like 'reminder:%') \
                   order by created_at desc limit 1";
        let body = self
            .scalar(sql, mobile)
            .await
            .expect("an SMS in the outbox");
        // The six digits in a row, in any language's text.
        body.split(|c: char| !c.is_ascii_digit())
            .find(|run| run.len() == 6)
            .map(str::to_string)
            .expect("a code in the SMS")
    }

    /// The texts of the first column of every row `sql` (one `$1`, bound to `bind`)
    /// selects.
    pub async fn texts(&self, sql: &str, bind: &str) -> Vec<String> {
        match &self.state.database {
            Database::Sqlite { pool, .. } => sqlx::query_scalar(sql)
                .bind(bind)
                .fetch_all(pool)
                .await
                .unwrap(),
            Database::Postgres(pool) => sqlx::query_scalar(sql)
                .bind(bind)
                .fetch_all(pool)
                .await
                .unwrap(),
        }
    }

    /// The text of the first column of the first row `sql` (one `$1`, bound to `bind`)
    /// selects, if any.
    pub async fn scalar(&self, sql: &str, bind: &str) -> Option<String> {
        match &self.state.database {
            Database::Sqlite { pool, .. } => sqlx::query_scalar(sql)
                .bind(bind)
                .fetch_optional(pool)
                .await
                .unwrap(),
            Database::Postgres(pool) => sqlx::query_scalar(sql)
                .bind(bind)
                .fetch_optional(pool)
                .await
                .unwrap(),
        }
    }

    /// The types of an order's events on the borrower's timeline, and the timeline.
    pub async fn timeline(&self, token: &str, order_id: &str) -> (Vec<String>, Value) {
        let id = json!({ "loanOrderId": order_id });
        let timeline = self.ok("/jackey/loan/orderTimeline", Some(token), id).await;
        let types = timeline
            .as_array()
            .unwrap()
            .iter()
            .map(|event| event["type"].as_str().unwrap().to_string())
            .collect();
        (types, timeline)
    }

    /// An auditor account (created as `api create-auditor` does) logged in over HTTP:
    /// (auditor id, token).
    pub async fn auditor(&self, username: &str) -> (Uuid, String) {
        let id = create_auditor(&self.state.database, username, "correct horse")
            .await
            .expect("create auditor");
        let login = self.auditor_login(username).await;
        assert_eq!(login["auditorId"], json!(id));
        (id, login["token"].as_str().unwrap().to_string())
    }

    /// `/admin/api/login` of an [`Self::auditor`]'s account (its password), answered
    /// with success: the envelope's `data`.
    pub async fn auditor_login(&self, username: &str) -> Value {
        self.ok(
            "/admin/api/login",
            None,
            json!({"username": username, "password": "correct horse"}),
        )
        .await
    }

    /// The user id behind a borrower's `token` (`/jackey/user/info`).
    pub async fn user_id_of(&self, token: &str) -> Uuid {
        self.ok("/jackey/user/info", Some(token), json!({})).await["userId"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap()
    }
}

/// Two tests running `$scenario(app)`: on SQLite, and on PostgreSQL when
/// `TEST_DATABASE_URL` is set.
macro_rules! on_both_stores {
    // `$scenario(clock, app)` with every clock of the app at `test_now()`, which the
    // scenario moves.
    (at_a_fixed_clock: $scenario:ident, $sqlite:ident, $postgres:ident) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $sqlite() {
            use aggregates::services::doubles::{test_now, FixedClock};
            let clock = std::sync::Arc::new(FixedClock::at(test_now()));
            let app = crate::helpers::TestApp::sqlite_at(clock.clone()).await;
            $scenario(clock, app).await;
        }

        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $postgres() {
            use aggregates::services::doubles::{test_now, FixedClock};
            let clock = std::sync::Arc::new(FixedClock::at(test_now()));
            if let Some(app) = crate::helpers::TestApp::postgres_at(clock.clone()).await {
                $scenario(clock, app).await;
            }
        }
    };
    ($scenario:ident, $sqlite:ident, $postgres:ident) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $sqlite() {
            $scenario(crate::helpers::TestApp::sqlite().await).await;
        }

        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $postgres() {
            if let Some(app) = crate::helpers::TestApp::postgres().await {
                $scenario(app).await;
            }
        }
    };
}

pub(crate) use on_both_stores;

/// The test process's log output: failing tests show warnings and errors, and a test
/// can capture everything logged (every level, every thread) while it runs.
pub mod logs {
    use std::io::Write;
    use std::sync::{Mutex, OnceLock};

    use tracing_subscriber::filter::{EnvFilter, LevelFilter};
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::{reload, Layer, Registry};

    /// The captured lines, and how many captures are running.
    static CAPTURED: Mutex<(Vec<u8>, usize)> = Mutex::new((Vec::new(), 0));
    /// Switches the capturing layer between off (no cost) and every level.
    static SWITCH: OnceLock<reload::Handle<LevelFilter, Registry>> = OnceLock::new();

    struct CaptureWriter;

    impl Write for CaptureWriter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let mut captured = CAPTURED.lock().unwrap();
            if captured.1 > 0 {
                captured.0.extend_from_slice(buf);
            }
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Installs the process's subscriber (once; later calls do nothing).
    pub fn init() {
        SWITCH.get_or_init(|| {
            let (filter, switch) = reload::Layer::new(LevelFilter::OFF);
            let shown = tracing_subscriber::fmt::layer()
                .with_test_writer()
                .with_filter(EnvFilter::new("warn"));
            let captured = tracing_subscriber::fmt::layer()
                .with_writer(|| CaptureWriter)
                .with_ansi(false)
                .with_filter(filter);
            let _ = tracing_subscriber::registry()
                .with(captured)
                .with(shown)
                .try_init();
            switch
        });
    }

    fn switch(on: bool) {
        let mut captured = CAPTURED.lock().unwrap();
        captured.1 = if on { captured.1 + 1 } else { captured.1 - 1 };
        let level = if captured.1 > 0 {
            LevelFilter::TRACE
        } else {
            LevelFilter::OFF
        };
        SWITCH
            .get()
            .expect("initialised")
            .reload(level)
            .expect("the subscriber is alive");
    }

    /// Runs `body` and returns its output with every line logged meanwhile, by any
    /// test of the process.
    pub async fn capture<T>(body: impl std::future::Future<Output = T>) -> (T, String) {
        init();
        switch(true);
        let output = body.await;
        switch(false);
        let logged = String::from_utf8_lossy(&CAPTURED.lock().unwrap().0).to_string();
        (output, logged)
    }
}

impl TestApp {
    /// `GET /files/...` (HTTP 200 either way): the image's bytes, or the envelope
    /// that refused it.
    pub async fn file(&self, url: &str, token: Option<&str>) -> Result<Vec<u8>, Value> {
        let (status, content_type, body) = self.get(url, token).await;
        assert_eq!(status, StatusCode::OK, "{url}");
        if content_type.starts_with("image/") {
            return Ok(body);
        }
        assert!(
            content_type.starts_with("application/json"),
            "{url}: {content_type}"
        );
        Err(serde_json::from_slice(&body).unwrap())
    }

    /// How many events the store holds, once the background workers are quiet.
    pub async fn event_count(&self) -> usize {
        // The background workers (loan process, payout, scheduler) may still be
        // appending what an earlier step caused: count once the log has been quiet
        // for a moment, so a "nothing recorded" check compares like with like.
        let log = projections::store::EventLog::new(&self.state.database);
        let mut last = log.count().await.unwrap();
        loop {
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            let now = log.count().await.unwrap();
            if now == last {
                return now;
            }
            last = now;
        }
    }

    /// A borrower who registered, filled in everything, uploaded ID photos (identity 1,
    /// not yet verified), bound a bank account, signed, answered the questionnaire,
    /// set PIN 246810 and applied for 100,000 over 6 days. Returns (token, user id,
    /// order id). HTTP only.
    pub async fn applicant(&self, mobile: &str, name: &str) -> (String, String, String) {
        let token = self.register(mobile).await;
        let t = Some(token.as_str());
        self.ok("/jackey/user/update", t, profile(name, mobile))
            .await;
        self.upload_identity(&token).await;
        self.ok("/jackey/user/update", t, questionnaire()).await;
        self.bank_signature_and_pin(&token).await;
        let info = self.ok("/jackey/user/info", t, json!({})).await;
        assert_eq!(info["userQualificationView"]["identity"], 1);
        let user_id = info["userId"].as_str().unwrap().to_string();
        let terms = json!({"amt": "100000", "periodDays": 6, "appId": 1, "configId": 1});
        let order_id = self.ok("/jackey/loan/apply", t, terms).await["loanOrderId"]
            .as_str()
            .unwrap()
            .to_string();
        (token, user_id, order_id)
    }
}

impl TestApp {
    /// `GET` a page without a token: (status, body text).
    pub async fn page(&self, url: &str) -> (StatusCode, String) {
        let (status, _, body) = self.get(url, None).await;
        (status, String::from_utf8(body).unwrap())
    }

    /// Submits a form as the browser would (`application/x-www-form-urlencoded`), as
    /// the sandbox payment page's buttons do: (status, `Location` header).
    pub async fn press(&self, url: &str, form: &str) -> (StatusCode, Option<String>) {
        let request = Request::post(url)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from(form.to_string()))
            .unwrap();
        let response = self.router.clone().oneshot(request).await.unwrap();
        let location = response
            .headers()
            .get("location")
            .map(|v| v.to_str().unwrap().to_string());
        (response.status(), location)
    }

    /// Polls `/loan/orderInfo` until `field` of the order is `value`.
    pub async fn wait_order(
        &self,
        token: &str,
        order_id: &str,
        field: &str,
        value: Value,
    ) -> Value {
        for _ in 0..200 {
            let order = self
                .ok(
                    "/jackey/loan/orderInfo",
                    Some(token),
                    json!({ "loanOrderId": order_id }),
                )
                .await;
            if order[field] == value {
                return order;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("order {order_id} never had {field} = {value}");
    }
}

impl TestApp {
    /// The same app (store, workers) behind a router over `state`.
    pub fn with_state(&self, state: AppState) -> Self {
        Self {
            router: checked_router(&state, self.position.clone()),
            state,
            position: self.position.clone(),
            stop: self.stop.clone(),
        }
    }

    /// Stops the app's workers and gives up its leases, as a process that shuts down
    /// (`Application::run_until_stopped`) does.
    pub async fn stop_workers(&self) {
        let _ = self.stop.send(true);
        self.state.leases.release_all().await;
    }

    /// POSTs a JSON body from client address `ip` (`X-Forwarded-For`, read when the
    /// app trusts a proxy); returns the envelope.
    pub async fn post_from(&self, ip: &str, path: &str, body: Value) -> Value {
        let headers = [("x-forwarded-for", ip.to_string())];
        self.post_with_headers(path, &headers, body).await
    }
}

/// The client address a phone's own calls come from in tests: one per phone (as
/// loadgen does), so registering many borrowers does not run into one address's limit.
pub fn address_of(mobile: &str) -> String {
    let n = mobile.bytes().fold(7u32, |acc, b| {
        acc.wrapping_mul(31).wrapping_add(u32::from(b))
    });
    format!("10.{}.{}.{}", (n >> 16) & 255, (n >> 8) & 255, n & 255)
}

/// Runs `count` requests at once and collects their answers in order.
pub async fn futures_join<'a, F, Fut>(count: usize, make: F) -> Vec<serde_json::Value>
where
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = serde_json::Value> + 'a,
{
    let mut set = Vec::new();
    for n in 0..count {
        set.push(make(n));
    }
    let mut out = Vec::new();
    // Poll all together on this task: the router calls run concurrently.
    let joined = join_all(set).await;
    out.extend(joined);
    out
}

async fn join_all<Fut: std::future::Future>(futures: Vec<Fut>) -> Vec<Fut::Output> {
    let mut pinned: Vec<std::pin::Pin<Box<Fut>>> = futures.into_iter().map(Box::pin).collect();
    let mut results: Vec<Option<Fut::Output>> = (0..pinned.len()).map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (slot, future) in results.iter_mut().zip(pinned.iter_mut()) {
            if slot.is_none() {
                match future.as_mut().poll(cx) {
                    std::task::Poll::Ready(value) => *slot = Some(value),
                    std::task::Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    })
    .await;
    results.into_iter().map(|r| r.expect("all ready")).collect()
}

impl TestApp {
    /// An app over `database` (workers included) whose every clock is `clock`; with
    /// `storage`, images go there (two apps of one deployment share it). Sessions (an
    /// auditor's too) last 60 days, so a test can move the clock weeks ahead and stay
    /// signed in.
    pub async fn over_at(
        database: Database,
        storage: Option<Storage>,
        clock: Arc<dyn aggregates::services::Clock>,
    ) -> Self {
        logs::init();
        let env = Env {
            token_ttl_hours: 24 * 60,
            auditor_token_ttl_hours: 24 * 60,
            ..env()
        };
        let state = api::state_at(database, env, clock).expect("state");
        Self::running(state, storage).await
    }

    /// [`TestApp::over_at`] on a fresh SQLite file.
    pub async fn sqlite_at(clock: Arc<dyn aggregates::services::Clock>) -> Self {
        let dir = std::env::temp_dir()
            .join("api-tests")
            .join(Uuid::now_v7().simple().to_string());
        let url = format!("sqlite://{}", dir.join("loan.db").display());
        let database = Database::connect(&url).await.expect("sqlite");
        Self::over_at(database, None, clock).await
    }

    /// Two apps (two pools, two sets of workers) at `clock` over one fresh PostgreSQL
    /// schema, as two api processes; `None` without `TEST_DATABASE_URL`.
    pub async fn postgres_pair_at(
        clock: Arc<dyn aggregates::services::Clock>,
    ) -> Option<(Self, Self)> {
        let options = fresh_postgres_schema().await?;
        let first = Database::connect_postgres(options.clone())
            .await
            .expect("postgres");
        let second = Database::connect_postgres(options).await.expect("postgres");
        let first = Self::over_at(first, None, clock.clone()).await;
        let storage = first.state.storage.clone();
        Some((first, Self::over_at(second, Some(storage), clock).await))
    }
}

impl TestApp {
    /// [`TestApp::over_at`] on a fresh PostgreSQL schema, or `None` (said on stderr)
    /// without `TEST_DATABASE_URL`.
    pub async fn postgres_at(clock: Arc<dyn aggregates::services::Clock>) -> Option<Self> {
        let options = fresh_postgres_schema().await?;
        let database = Database::connect_postgres(options).await.expect("postgres");
        Some(Self::over_at(database, None, clock).await)
    }
}
