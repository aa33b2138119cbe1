//! Repayments through a payment page (PRODUCT.md 8, `/loan/recharge`), behind a
//! [`PaymentProvider`] so a real gateway can replace the built-in sandbox.
//!
//! The flow: the borrower asks to repay an amount; the Order opens a payment session
//! (`OrderCommand::OpenPaymentSession`) only if its open sessions together stay within
//! today's payoff (P1, 12.1), for 30 minutes; the api then records the page
//! (`payment_session` row) and asks the provider for it. The provider later reports
//! the result with a signed webhook (`POST /jackey/payment/webhook`,
//! [`process_webhook`]); only a verified `paid` webhook moves money, as
//! `WalletCommand::RecordRecharge` on the borrower's wallet. The loan workflow hands
//! it to the Order, which applies what the session allows and is owed today and has
//! the rest refunded to the bound account; a `failed` one closes the session.
//!
//! Guarantees:
//! - nothing can be paid when nothing is owed, pages are only ever opened for what the
//!   order would accept today, and money it does not take is refunded, never kept;
//! - a webhook counts only with a valid HMAC-SHA256 signature made within
//!   [`SIGNATURE_TOLERANCE_SECS`] of now;
//! - each payment reference is recorded at most once however often, and in whatever
//!   order, webhooks are delivered (the wallet remembers the references it has seen;
//!   the order remembers the ones it has applied); a `failed` outcome moves no money;
//! - a session's status only ever says what a verified webhook said, and `paid` wins
//!   over `failed` (money received is never hidden).
//!
//! Signature scheme: `X-Signature-Timestamp` is the Unix time in seconds, and
//! `X-Signature` is the lowercase hex HMAC-SHA256, keyed with `WEBHOOK_SECRET`, of
//! `timestamp + "." + raw body`.

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use aggregates::order::{OrderCommand, OrderError};
use aggregates::wallet::WalletCommand;
use aggregates::{Actor, ErrorCode};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use hmac::{Hmac, Mac};
use projections::projection::{money_text, time_text};
use projections::store::SideInsert;
use rand::RngCore;
use rust_decimal::Decimal;
use secrecy::ExposeSecret;
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use uuid::Uuid;

use crate::config::Env;
use crate::db::with_pool;
use crate::envelope::ApiError;
use crate::state::AppState;

/// Header carrying the signing time, Unix seconds.
pub const TIMESTAMP_HEADER: &str = "x-signature-timestamp";
/// Header carrying the lowercase hex HMAC-SHA256 of `timestamp + "." + body`.
pub const SIGNATURE_HEADER: &str = "x-signature";
/// How far (seconds, either way) a webhook's timestamp may be from the server's clock.
pub const SIGNATURE_TOLERANCE_SECS: i64 = 300;
/// The secret used when `WEBHOOK_SECRET` is unset: for development only (a warning is
/// logged at start-up), since anyone reading this source can sign with it.
pub const DEVELOPMENT_WEBHOOK_SECRET: &str = "development-webhook-secret-do-not-use-in-production";

type HmacSha256 = Hmac<Sha256>;

/// The key webhooks are signed with. Its `Debug` never prints the key.
#[derive(Clone)]
pub struct WebhookSecret(Vec<u8>);

impl fmt::Debug for WebhookSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WebhookSecret(..)")
    }
}

/// Why a webhook's signature is not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    /// A signature header is absent or empty.
    #[error("{0}: is required")]
    Missing(&'static str),
    /// The timestamp is not an integer number of seconds.
    #[error("X-Signature-Timestamp: must be Unix seconds")]
    MalformedTimestamp,
    /// The timestamp is more than [`SIGNATURE_TOLERANCE_SECS`] away from now.
    #[error("X-Signature-Timestamp: outside the {tolerance_secs} s window ({age_secs} s old)")]
    Stale {
        /// Now minus the timestamp, seconds (negative: in the future).
        age_secs: i64,
        /// The window, seconds.
        tolerance_secs: i64,
    },
    /// The signature is not hex, or not the HMAC of this timestamp and body.
    #[error("X-Signature: does not match")]
    Mismatch,
}

impl WebhookSecret {
    /// A secret from its bytes.
    pub fn new(secret: impl AsRef<[u8]>) -> Self {
        Self(secret.as_ref().to_vec())
    }

    fn mac(&self, timestamp: &str, body: &[u8]) -> HmacSha256 {
        let mut mac = HmacSha256::new_from_slice(&self.0).expect("HMAC takes a key of any length");
        mac.update(timestamp.as_bytes());
        mac.update(b".");
        mac.update(body);
        mac
    }

    /// The `X-Signature` value for `body` signed at `timestamp` (Unix seconds):
    /// lowercase hex of HMAC-SHA256 over `timestamp + "." + body`.
    pub fn sign(&self, timestamp: i64, body: &[u8]) -> String {
        hex::encode(
            self.mac(&timestamp.to_string(), body)
                .finalize()
                .into_bytes(),
        )
    }

    /// Checks the two signature headers of a webhook against its raw `body`, at `now`
    /// (Unix seconds). The comparison is constant-time.
    pub fn verify(
        &self,
        timestamp: Option<&str>,
        signature: Option<&str>,
        body: &[u8],
        now: i64,
    ) -> Result<(), SignatureError> {
        let timestamp = timestamp
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or(SignatureError::Missing("X-Signature-Timestamp"))?;
        let signature = signature
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .ok_or(SignatureError::Missing("X-Signature"))?;
        let signed_at: i64 = timestamp
            .parse()
            .map_err(|_| SignatureError::MalformedTimestamp)?;
        // The signature first: an unsigned request learns nothing about the window.
        let signature = hex::decode(signature).map_err(|_| SignatureError::Mismatch)?;
        self.mac(timestamp, body)
            .verify_slice(&signature)
            .map_err(|_| SignatureError::Mismatch)?;
        let age_secs = now.saturating_sub(signed_at);
        if age_secs.abs() > SIGNATURE_TOLERANCE_SECS {
            return Err(SignatureError::Stale {
                age_secs,
                tolerance_secs: SIGNATURE_TOLERANCE_SECS,
            });
        }
        Ok(())
    }
}

/// The webhook secret of `env`: `WEBHOOK_SECRET` ([`Env::webhook_secret`]); when it is
/// unset or empty, [`DEVELOPMENT_WEBHOOK_SECRET`], which
/// [`warn_of_development_secret`] tells the log about at start-up.
pub fn webhook_secret(env: &Env) -> WebhookSecret {
    match &env.webhook_secret {
        Some(secret) => WebhookSecret::new(secret.expose_secret()),
        None => WebhookSecret::new(DEVELOPMENT_WEBHOOK_SECRET),
    }
}

/// Warns in the log when `env` has no `WEBHOOK_SECRET`, so webhooks are verified with
/// the public [`DEVELOPMENT_WEBHOOK_SECRET`] (called when the router is built, i.e. at
/// start-up).
pub fn warn_of_development_secret(env: &Env) {
    if env.webhook_secret.is_none() {
        tracing::warn!(
            "WEBHOOK_SECRET is not set: payment webhooks are verified with the public \
                 development secret; set WEBHOOK_SECRET before taking real payments"
        );
    }
}

/// Where a payment page stands: the Order's session status (paid and failed only
/// ever as a verified webhook said), stored as its lowercase text.
pub use aggregates::order::SessionStatus;

/// A payment page opened by a borrower to repay their disbursed order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentSession {
    /// Random (UUID v4): the session id is what lets a page be paid, so it must not
    /// be guessable.
    pub session_id: Uuid,
    /// The borrower (= wallet id).
    pub user_id: Uuid,
    /// The order repaid.
    pub order_id: Uuid,
    /// The amount asked for, two decimals.
    pub amount: Decimal,
    /// Where it stands.
    pub status: SessionStatus,
    /// The provider's payment reference, once paid.
    pub payment_ref: Option<String>,
    /// When it was opened.
    pub created_at: String,
}

impl PaymentSession {
    /// True once the page may no longer be paid at the provider: the Order's session
    /// length after it opened ([`aggregates::order::PAYMENT_SESSION_MINUTES`], 12.1),
    /// as Xendit's invoice is opened for (`invoice_duration`). The sandbox page closes
    /// then too, instead of taking money the Order would only refund.
    pub fn expired_at(&self, now: chrono::DateTime<chrono::Utc>) -> bool {
        let minutes = chrono::Duration::minutes(aggregates::order::PAYMENT_SESSION_MINUTES);
        chrono::DateTime::parse_from_rfc3339(&self.created_at)
            .is_ok_and(|opened| now >= opened + minutes)
    }
}

/// Why a provider could not open a payment page.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PaymentError {
    /// The provider could not be reached or refused the request.
    #[error("payment provider unavailable: {0}")]
    Unavailable(String),
}

/// What [`PaymentProvider::create_session`] returns: the URL of the payment page.
pub type CheckoutFuture<'a> =
    Pin<Box<dyn Future<Output = Result<String, PaymentError>> + Send + 'a>>;

/// A payment gateway. The api has already checked the amount and stored `session`;
/// the provider opens its side of it and answers the page where the borrower pays.
/// It reports the result later through the signed webhook, quoting
/// `session.session_id` as `sessionId`.
pub trait PaymentProvider: Send + Sync {
    /// Opens the gateway's payment for `session` (user, order, amount) and returns the
    /// URL of its payment page. `session.session_id` is the idempotency key: asking
    /// twice must not create two payments.
    fn create_session<'a>(&'a self, session: &'a PaymentSession) -> CheckoutFuture<'a>;
}

/// The offline default: a checkout page served by the api itself at
/// `/pay/sandbox/{session}` (`routes::borrower::pay`), whose buttons deliver a signed webhook.
pub struct SandboxPayment;

impl PaymentProvider for SandboxPayment {
    fn create_session<'a>(&'a self, session: &'a PaymentSession) -> CheckoutFuture<'a> {
        let url = format!("/pay/sandbox/{}", session.session_id);
        Box::pin(async move { Ok(url) })
    }
}

impl SandboxPayment {
    /// The sandbox's payment reference for a session.
    pub fn payment_ref(session_id: Uuid) -> String {
        format!("sandbox-{session_id}")
    }

    /// Settles a sandbox session the way a gateway would: builds the webhook for
    /// `outcome`, signs it with the process's secret and hands it to
    /// [`process_webhook`] — the very function the webhook route runs, signature check
    /// included — instead of an HTTP call to ourselves (no base URL to configure, no
    /// connection back into the server). The event id is fixed per session and
    /// outcome, so pressing a button twice delivers the same event twice, harmlessly.
    pub async fn deliver(
        state: &AppState,
        session: &PaymentSession,
        outcome: Outcome,
    ) -> Result<WebhookReceipt, WebhookError> {
        let event = WebhookEvent {
            event_id: format!("sandbox-{}-{}", session.session_id, outcome.as_str()),
            session_id: session.session_id.to_string(),
            payment_ref: Self::payment_ref(session.session_id),
            amount: aggregates::types::Amount::new(session.amount)
                .ok_or_else(|| ApiError::internal("a session amount out of pattern"))?,
            outcome,
        };
        let body = serde_json::to_vec(&event).map_err(ApiError::internal)?;
        let timestamp = state.now().timestamp();
        let mut headers = HeaderMap::new();
        let signature = webhook_secret(&state.env).sign(timestamp, &body);
        for (name, value) in [
            (TIMESTAMP_HEADER, timestamp.to_string()),
            (SIGNATURE_HEADER, signature),
        ] {
            headers.insert(name, value.parse().map_err(ApiError::internal)?);
        }
        process_webhook(state, &headers, &body).await
    }
}

/// The borrower's open order, from the User aggregate (no read-model lag): the order a
/// payment page is opened for. Error 40007 without one (P1: nothing is owed; the
/// client shows `loan_records_empty`). Whether it owes anything, and how much may be
/// paid, the Order decides when the session opens.
pub async fn open_order_of(state: &AppState, user_id: Uuid) -> Result<Uuid, ApiError> {
    let user = state
        .users
        .load(&user_id.to_string())
        .await
        .map_err(ApiError::internal)?;
    user.open_order
        .ok_or_else(|| ApiError::from(OrderError::NothingOwed))
}

/// A new session id: the id is what lets a page be paid, so it must not be guessable:
/// random (UUID v4), or, for a request with an `Idempotency-Key`, derived from the
/// caller's secret key ([`crate::idempotency::id_for`]) so a repeat names the same
/// session.
pub fn new_session_id() -> Uuid {
    if crate::idempotency::current_key().is_some() {
        return crate::idempotency::id_for("session");
    }
    let mut random = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut random);
    uuid::Builder::from_random_bytes(random).into_uuid()
}

/// Stores the page of a session the Order has opened (`session_id`, for `amount` on
/// `order_id`) and asks `provider` for it. Returns the session and the page URL. If
/// the provider fails the page is marked failed and the borrower gets 40003 (try
/// again); the Order's session simply expires unpaid.
pub async fn open_session(
    state: &AppState,
    provider: &dyn PaymentProvider,
    session_id: Uuid,
    user_id: Uuid,
    order_id: Uuid,
    amount: Decimal,
) -> Result<(PaymentSession, String), ApiError> {
    let now = time_text(state.now());
    let session = PaymentSession {
        session_id,
        user_id,
        order_id,
        amount: amount.round_dp(2),
        status: SessionStatus::Open,
        payment_ref: None,
        created_at: now.clone(),
    };
    let sql = "insert into payment_session \
               (session_id, user_id, order_id, amount, status, payment_ref, created_at, updated_at) \
               values ($1, $2, $3, $4, $5, null, $6, $6) on conflict (session_id) do nothing";
    with_pool!(&state.database, pool => sqlx::query(sql)
        .bind(session.session_id.to_string())
        .bind(user_id.to_string())
        .bind(order_id.to_string())
        .bind(money_text(session.amount))
        .bind(SessionStatus::Open.as_str())
        .bind(&now)
        .execute(pool)
        .await.map(|r| r.rows_affected()))?;
    match provider.create_session(&session).await {
        Ok(url) => Ok((session, url)),
        Err(error) => {
            tracing::error!(%error, session_id = %session.session_id, "payment page not opened");
            mark_session(state, session.session_id, Outcome::Failed, None).await?;
            Err(ApiError::new(
                ErrorCode::ServerError,
                "the payment service is unavailable, please try again",
            ))
        }
    }
}

/// A stored session by id (`None` when unknown).
pub async fn find_session(
    state: &AppState,
    session_id: Uuid,
) -> Result<Option<PaymentSession>, ApiError> {
    let sql = "select user_id, order_id, amount, status, payment_ref, created_at \
               from payment_session where session_id = $1";
    type Row = (String, String, String, String, Option<String>, String);
    let row: Option<Row> = with_pool!(&state.database, pool =>
        sqlx::query_as(sql).bind(session_id.to_string()).fetch_optional(pool).await)?;
    let Some((user_id, order_id, amount, status, payment_ref, created_at)) = row else {
        return Ok(None);
    };
    let corrupt = |what: &str| ApiError::internal(format!("payment_session {session_id}: {what}"));
    Ok(Some(PaymentSession {
        session_id,
        user_id: user_id.parse().map_err(|_| corrupt("user_id"))?,
        order_id: order_id.parse().map_err(|_| corrupt("order_id"))?,
        amount: amount.parse().map_err(|_| corrupt("amount"))?,
        status: SessionStatus::parse(&status).ok_or_else(|| corrupt("status"))?,
        payment_ref,
        created_at,
    }))
}

/// Records a verified outcome on the session: `paid` from anything but paid (money
/// received wins), `failed` only from open.
async fn mark_session(
    state: &AppState,
    session_id: Uuid,
    outcome: Outcome,
    payment_ref: Option<&str>,
) -> Result<(), ApiError> {
    let sql = match outcome {
        Outcome::Paid => {
            "update payment_session set status = 'paid', payment_ref = $1, updated_at = $2 \
             where session_id = $3 and status <> 'paid'"
        }
        Outcome::Failed => {
            "update payment_session set status = 'failed', payment_ref = coalesce(payment_ref, $1), \
             updated_at = $2 where session_id = $3 and status = 'open'"
        }
    };
    with_pool!(&state.database, pool => sqlx::query(sql)
        .bind(payment_ref)
        .bind(time_text(state.now()))
        .bind(session_id.to_string())
        .execute(pool)
        .await.map(|r| r.rows_affected()))?;
    Ok(())
}

/// What a payment came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The money was received.
    Paid,
    /// The payment failed; no money moved.
    Failed,
}

impl Outcome {
    /// The wire text.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Paid => "paid",
            Self::Failed => "failed",
        }
    }
}

/// The body of `POST /jackey/payment/webhook`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookEvent {
    /// The provider's id of this notification (a redelivery repeats it).
    pub event_id: String,
    /// The session the payment belongs to.
    pub session_id: String,
    /// The provider's reference of the payment: the money's identity, recorded at
    /// most once.
    pub payment_ref: String,
    /// Amount received: a plain decimal, at most two places (PRODUCT.md 5).
    pub amount: aggregates::types::Amount,
    /// `paid` or `failed`.
    pub outcome: Outcome,
}

/// The answer to a processed webhook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookReceipt {
    /// The event id.
    pub event_id: String,
    /// True when this event id had been processed before (nothing was done again).
    pub duplicate: bool,
}

/// A refused or failed webhook, answered with an HTTP status the gateway understands
/// and the usual envelope:
/// - 401 + 10004: a signature header missing, wrong, or outside the time window;
/// - 400 + 10004: a signed body that is not a valid event;
/// - 200 + 40007: an unknown session (retrying cannot help);
/// - 500 + 500 (or 503 + 40003): our failure; the gateway should deliver again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The envelope's code and message.
    pub error: ApiError,
}

impl From<ApiError> for WebhookError {
    fn from(error: ApiError) -> Self {
        let status = match error.code {
            ErrorCode::Unknown => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::ServerError => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::OK,
        };
        Self { status, error }
    }
}

impl From<SignatureError> for WebhookError {
    fn from(error: SignatureError) -> Self {
        Self {
            status: StatusCode::UNAUTHORIZED,
            error: ApiError::new(ErrorCode::RequestError, error.to_string()),
        }
    }
}

impl IntoResponse for WebhookError {
    fn into_response(self) -> Response {
        (self.status, self.error).into_response()
    }
}

fn bad_event(field: &str, reason: &str) -> WebhookError {
    WebhookError {
        status: StatusCode::BAD_REQUEST,
        error: ApiError::bad_input(field, reason),
    }
}

/// Processes one webhook delivery: verifies the signature over the raw `body`
/// ([`webhook_secret`], [`SIGNATURE_TOLERANCE_SECS`]), parses the event, and for
/// `paid` records `RecordRecharge { payment_ref, order_id, amount }` on the session
/// owner's wallet (the wallet ignores a payment reference it already has); then
/// marks the session and claims the event id in `processed_webhook`. A repeat of a
/// processed event id answers at once with `duplicate: true`.
pub async fn process_webhook(
    state: &AppState,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<WebhookReceipt, WebhookError> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    webhook_secret(&state.env).verify(
        header(TIMESTAMP_HEADER),
        header(SIGNATURE_HEADER),
        body,
        state.now().timestamp(),
    )?;
    let event: WebhookEvent =
        serde_json::from_slice(body).map_err(|e| bad_event("body", &e.to_string()))?;
    apply_payment_event(state, event).await
}

/// Applies one authenticated payment notification, from our signed webhook or from a
/// provider adapter that verified its own ([`crate::providers`]): checks its fields,
/// then for `paid` records the money on the session owner's wallet and for `failed`
/// frees the session's share of the payoff; marks the session and claims the event
/// id. A repeat of a processed event id answers at once with `duplicate: true`.
pub async fn apply_payment_event(
    state: &AppState,
    event: WebhookEvent,
) -> Result<WebhookReceipt, WebhookError> {
    for (field, value) in [
        ("eventId", &event.event_id),
        ("paymentRef", &event.payment_ref),
    ] {
        if value.trim().is_empty() || value.len() > 200 {
            return Err(bad_event(field, "1 to 200 characters"));
        }
    }
    if event.outcome == Outcome::Paid && event.amount.value() <= Decimal::ZERO {
        return Err(bad_event("amount", "positive, at most two decimals"));
    }
    if already_processed(state, &event.event_id).await? {
        return Ok(WebhookReceipt {
            event_id: event.event_id,
            duplicate: true,
        });
    }
    let not_found = || ApiError::new(ErrorCode::RecordNotFound, "record not found: session");
    let session_id: Uuid = event.session_id.parse().map_err(|_| not_found())?;
    let session = find_session(state, session_id)
        .await?
        .ok_or_else(not_found)?;
    let request = format!("webhook:{}", event.event_id);
    // The event id is claimed by the append of its effect, in the same transaction;
    // an effect that appended nothing (a payment already recorded) is claimed alone.
    let (applied, claimed) = projections::store::with_side_insert(
        claim_of(state, &event, session_id),
        apply_outcome(state, &event, &session, &request),
    )
    .await;
    applied?;
    mark_session(state, session_id, event.outcome, Some(&event.payment_ref)).await?;
    if !claimed {
        claim_event(state, &event, session_id).await?;
    }
    Ok(WebhookReceipt {
        event_id: event.event_id,
        duplicate: false,
    })
}

/// The command of a verified payment notification: `paid` records the money on the
/// session owner's wallet, `failed` frees the session's share of the payoff.
async fn apply_outcome(
    state: &AppState,
    event: &WebhookEvent,
    session: &PaymentSession,
    request: &str,
) -> Result<(), ApiError> {
    let session_id = session.session_id;
    match event.outcome {
        Outcome::Paid => {
            if event.amount.value() != session.amount {
                tracing::warn!(%session_id, asked = %session.amount, received = %event.amount.value(),
                    "payment amount differs from the session's; the order refunds what it does not take");
            }
            // Money received is recorded as received; the Order then applies what its
            // session allows and is owed, and the rest is refunded (P1, 12.1).
            // Received now: the Order judges the payment as of this time however late
            // its workflow takes it (12.1).
            let received_at = Some(state.now());
            let command = || WalletCommand::RecordRecharge {
                payment_ref: event.payment_ref.clone(),
                order_id: session.order_id,
                amount: event.amount.value(),
                session_id: Some(session_id),
                received_at,
            };
            let wallet = session.user_id.to_string();
            state
                .execute(&state.wallets, &wallet, command, Actor::System, request)
                .await?;
        }
        Outcome::Failed => {
            // The Order frees the session's share of the payoff; a later payment on
            // it is refunded. Pages opened before sessions lived on the Order are
            // unknown to it: nothing to free.
            let command = || OrderCommand::FailPaymentSession { session_id };
            let order = session.order_id.to_string();
            match state
                .execute(&state.orders, &order, command, Actor::System, request)
                .await
            {
                Err(error) if error.code == ErrorCode::RecordNotFound => {}
                other => {
                    other?;
                }
            }
        }
    }
    Ok(())
}

async fn already_processed(state: &AppState, event_id: &str) -> Result<bool, ApiError> {
    let sql = "select count(*) from processed_webhook where event_id = $1";
    let count: i64 = with_pool!(&state.database, pool =>
        sqlx::query_scalar(sql).bind(event_id).fetch_one(pool).await)?;
    Ok(count > 0)
}

/// The `processed_webhook` row that claims `event`: a second claim of the same id
/// writes nothing.
fn claim_of(state: &AppState, event: &WebhookEvent, session_id: Uuid) -> SideInsert {
    SideInsert {
        table: "processed_webhook",
        columns: &[
            "event_id",
            "session_id",
            "payment_ref",
            "outcome",
            "received_at",
        ],
        key: "event_id",
        values: vec![
            event.event_id.clone(),
            session_id.to_string(),
            event.payment_ref.clone(),
            event.outcome.as_str().to_string(),
            time_text(state.now()),
        ],
    }
}

/// Claims `event` on its own, for an effect that appended nothing.
async fn claim_event(
    state: &AppState,
    event: &WebhookEvent,
    session_id: Uuid,
) -> Result<(), ApiError> {
    let claim = claim_of(state, event, session_id);
    let sql = claim.sql(1);
    with_pool!(&state.database, pool => {
        let mut query = sqlx::query(&sql);
        for value in &claim.values {
            query = query.bind(value);
        }
        query.execute(pool).await.map(|r| r.rows_affected())
    })?;
    Ok(())
}

/// `amount` with thousands separators and two decimals (`80,000.00`), for pages the
/// api renders itself.
pub fn grouped_money(amount: Decimal) -> String {
    let text = money_text(amount);
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.as_str()),
    };
    let (whole, cents) = digits.split_once('.').unwrap_or((digits, "00"));
    let mut grouped = String::new();
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("{sign}{grouped}.{cents}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    #[test]
    fn a_signature_verifies_only_for_its_own_body_timestamp_and_secret() {
        let secret = WebhookSecret::new("s3cret");
        let signature = secret.sign(1_700_000_000, b"{\"a\":1}");
        assert_eq!(signature.len(), 64);
        let verify = |secret: &WebhookSecret, ts: &str, body: &[u8]| {
            secret.verify(Some(ts), Some(&signature), body, 1_700_000_010)
        };
        assert_eq!(verify(&secret, "1700000000", b"{\"a\":1}"), Ok(()));
        assert_eq!(
            verify(&secret, "1700000000", b"{\"a\":2}"),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify(&secret, "1700000001", b"{\"a\":1}"),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify(&WebhookSecret::new("other"), "1700000000", b"{\"a\":1}"),
            Err(SignatureError::Mismatch)
        );
    }

    #[test]
    fn a_signature_older_or_newer_than_the_window_is_stale() {
        let secret = WebhookSecret::new("s3cret");
        let at = 1_700_000_000;
        let signature = secret.sign(at, b"x");
        let ts = at.to_string();
        let check = |now| secret.verify(Some(&ts), Some(&signature), b"x", now);
        assert_eq!(check(at + 300), Ok(()));
        assert!(matches!(
            check(at + 301),
            Err(SignatureError::Stale { age_secs: 301, .. })
        ));
        assert!(matches!(check(at - 301), Err(SignatureError::Stale { .. })));
        assert_eq!(
            secret.verify(None, Some(&signature), b"x", at),
            Err(SignatureError::Missing("X-Signature-Timestamp"))
        );
        assert_eq!(
            secret.verify(Some("soon"), Some(&signature), b"x", at),
            Err(SignatureError::MalformedTimestamp)
        );
        assert_eq!(
            secret.verify(Some(&ts), Some("zz"), b"x", at),
            Err(SignatureError::Mismatch)
        );
    }

    #[test]
    fn money_on_pages_is_grouped() {
        assert_eq!(grouped_money(dec("80000")), "80,000.00");
        assert_eq!(grouped_money(dec("1234567.5")), "1,234,567.50");
        assert_eq!(grouped_money(dec("999")), "999.00");
        assert_eq!(grouped_money(dec("-1000")), "-1,000.00");
    }
}
