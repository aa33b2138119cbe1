//! Repayments through a payment page (PRODUCT.md 8, `/loan/recharge`), behind a
//! [`PaymentProvider`] so a real gateway can replace the built-in sandbox
//! ([`crate::providers`]).
//!
//! The flow: the borrower asks to repay an amount; the Order opens a payment session
//! (`OrderCommand::OpenPaymentSession`) only if its open sessions together stay within
//! today's payoff (P1, 12.1), for 30 minutes; the api then records the page
//! (`payment_session` row, [`crate::db::payment_sessions`]) and asks the provider for
//! it ([`open_session`]). The provider later reports the result with a signed webhook
//! (`POST /jackey/payment/webhook`, [`webhook::process_webhook`]); only a verified
//! `paid` webhook moves money, as `WalletCommand::RecordRecharge` on the borrower's
//! wallet. The loan workflow hands it to the Order, which applies what the session
//! allows and is owed today and has the rest refunded to the bound account; a
//! `failed` one closes the session.
//!
//! Guarantees:
//! - nothing can be paid when nothing is owed, pages are only ever opened for what the
//!   order would accept today, and money it does not take is refunded, never kept;
//! - a webhook counts only with a valid HMAC-SHA256 signature made within
//!   [`SIGNATURE_TOLERANCE_SECS`] of now ([`crate::providers::signing`]);
//! - each payment reference is recorded at most once however often, and in whatever
//!   order, webhooks are delivered (the wallet remembers the references it has seen;
//!   the order remembers the ones it has applied); a `failed` outcome moves no money;
//! - a session's status only ever says what a verified webhook said, and `paid` wins
//!   over `failed` (money received is never hidden).
//!
//! [`SIGNATURE_TOLERANCE_SECS`]: crate::providers::signing::SIGNATURE_TOLERANCE_SECS

pub mod webhook;

use aggregates::order::OrderError;
use aggregates::ErrorCode;
use projections::projection::time_text;
use rand::RngCore;
use rust_decimal::Decimal;
use uuid::Uuid;

use crate::db::payment_sessions as db;
use crate::http::envelope::ApiError;
use crate::http::middleware::idempotency;
use crate::providers::PaymentProvider;
use crate::runtime::state::AppState;
use webhook::Outcome;

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

/// The borrower's open order, from the User aggregate (no read-model lag): the order a
/// payment page is opened for. Error 40007 without one (P1: nothing is owed; the
/// client shows `loan_records_empty`). Whether it owes anything, and how much may be
/// paid, the Order decides when the session opens.
pub async fn open_order_of(state: &AppState, user_id: Uuid) -> Result<Uuid, ApiError> {
    let user = state.users.load(&user_id.to_string()).await?;
    user.open_order
        .ok_or_else(|| ApiError::from(OrderError::NothingOwed))
}

/// A new session id: the id is what lets a page be paid, so it must not be guessable:
/// random (UUID v4), or, for a request with an `Idempotency-Key`, derived from the
/// caller's secret key ([`idempotency::id_for`]) so a repeat names the same
/// session.
pub fn new_session_id() -> Uuid {
    if idempotency::current_key().is_some() {
        return idempotency::id_for("session");
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
        created_at: now,
    };
    db::insert(&state.database, &session).await?;
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
    let Some(row) = db::find(&state.database, session_id).await? else {
        return Ok(None);
    };
    let corrupt = |what: &str| ApiError::internal(format!("payment_session {session_id}: {what}"));
    Ok(Some(PaymentSession {
        session_id,
        user_id: row.user_id.parse().map_err(|_| corrupt("user_id"))?,
        order_id: row.order_id.parse().map_err(|_| corrupt("order_id"))?,
        amount: row.amount.parse().map_err(|_| corrupt("amount"))?,
        status: SessionStatus::parse(&row.status).ok_or_else(|| corrupt("status"))?,
        payment_ref: row.payment_ref,
        created_at: row.created_at,
    }))
}

/// Records a verified outcome on the session: `paid` from anything but paid (money
/// Marks the sessions a newer page replaced (the Order's `PaymentSessionReplaced`),
/// so that their pages stop offering Pay; one already paid or failed keeps its outcome.
/// Called once `session_id`'s own row is stored, with the sessions its command
/// `replaced`; its own is marked too when the Order already shows it replaced: a
/// request beside this one replaced it before the row existed, and that request's
/// update found nothing to mark (either that request's update runs after this row
/// was stored, or this load sees its replacement).
pub async fn mark_replaced(
    state: &AppState,
    order_id: Uuid,
    session_id: Uuid,
    mut replaced: Vec<Uuid>,
) -> Result<(), ApiError> {
    let order = state.orders.load(&order_id.to_string()).await?;
    let own = order
        .sessions
        .get(&session_id)
        .map(|session| session.status);
    if own == Some(SessionStatus::Replaced) {
        replaced.push(session_id);
    }
    for session_id in replaced {
        db::replace(&state.database, session_id, state.now()).await?;
    }
    Ok(())
}

/// received wins), `failed` only from open.
pub(crate) async fn mark_session(
    state: &AppState,
    session_id: Uuid,
    outcome: Outcome,
    payment_ref: Option<&str>,
) -> Result<(), ApiError> {
    db::mark(
        &state.database,
        session_id,
        outcome,
        payment_ref,
        state.now(),
    )
    .await?;
    Ok(())
}
