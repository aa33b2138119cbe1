//! The auditor console's calls: `POST /admin/api/*` (PRODUCT.md sections 6 and 7).
//!
//! Every call but `login` needs an auditor token (`Authorization: Bearer`); a borrower
//! token answers 20001, none 401. Every command runs through [`AppState::execute`] with
//! `Actor::Auditor(id)`, so each event records which auditor caused it, and the read
//! models include it before the call answers.
//!
//! What is deliberately absent: no call here can set or reset a withdraw PIN, change a
//! borrower's bank account or create a charge of any kind (P2, P3, P11). The domain
//! refuses the first two from anyone but the borrower; this module simply has no
//! route for any of them.
//!
//! One file a job: `session` (login, logout), `review` (the queue and its commands),
//! `history` (an order's replayed history), `users` (identity, holds, erasure),
//! `repayments` (manual repayments), `collections` (late loans: queue, record,
//! contacts, assignment, promises; issue 53), `payment_plans` (proposal and
//! approval of a hardship plan), `ledger` (journal, trial balance), `staff` (staff
//! accounts, roles, setup links; issue 55), `audit` (the audit trail), `products`
//! (products as data, maker-checker; issue 55), `settings` (invite codes, company
//! texts, receiving accounts as data), `changes` (what those two share); the helpers
//! they share are here.
//!
//! What each call needs of the staff member's roles is one table,
//! `crate::http::route_table::CONSOLE_CALLS`, checked by the `Auditor` extractor.

use aggregates::order::{Order, OrderCommand, OrderEvent, RepaymentSource};
use aggregates::types::{Amount, ResubmissionItem};
use aggregates::user::{IdentityStatus, User, UserCommand};
use aggregates::{Actor, ErrorCode};
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use cqrs_es::{Aggregate, AggregateError};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use utoipa::{OpenApi, ToSchema};
use uuid::Uuid;

use crate::accounts::auditors;
use crate::http::auth::{self, Auditor, TokenKind};
use crate::http::envelope::{ok, ApiError, ApiJson, Envelope, Null, OptionalJson};
use crate::routes::paging;
use crate::runtime::state::AppState;
use projections::history::{order_history, state_as_of};
use projections::projection::{money_text, time_text};
use projections::reads::admin as queries;
use projections::store::CommandBus;
use projections::views::console::{
    AccountBalance, ConsoleTimelineEntry, HistoryEvent, IdImageLinks, IdentityReview, ImageLink,
    JournalEntryView, JournalPage, LedgerAccount, OrderHistory, OrderReview, PostingView,
    QueueItem, QueuePage, RefusalView, ResubmissionView, Review, TrialBalance, UserDetail,
};
use projections::views::{AccountLock, OrderDoc, UserDoc};

mod audit;
mod changes;
mod collections;
mod history;
mod ledger;
mod payment_plans;
mod products;
mod repayments;
mod review;
mod session;
mod settings;
mod staff;
mod users;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/api/login", post(session::login))
        .route("/admin/api/logout", post(session::logout))
        .route("/admin/api/orders/queue", post(review::queue))
        .route("/admin/api/orders/detail", post(review::order_detail))
        .route("/admin/api/orders/startReview", post(review::start_review))
        .route("/admin/api/orders/passFirst", post(review::pass_first))
        .route("/admin/api/orders/passFinal", post(review::pass_final))
        .route("/admin/api/orders/refuse", post(review::refuse))
        .route(
            "/admin/api/orders/requestResubmission",
            post(review::request_resubmission),
        )
        .route("/admin/api/orders/history", post(history::history))
        .route("/admin/api/users/detail", post(users::user_detail))
        .route(
            "/admin/api/users/verifyIdentity",
            post(users::verify_identity),
        )
        .route(
            "/admin/api/users/rejectIdentity",
            post(users::reject_identity),
        )
        .route("/admin/api/users/hold", post(users::hold))
        .route("/admin/api/users/releaseHold", post(users::release_hold))
        .route("/admin/api/users/erase", post(users::erase_personal_data))
        .route(
            "/admin/api/repayments/manual",
            post(repayments::manual_repayment),
        )
        .route(
            "/admin/api/collections/queue",
            post(collections::collection_queue),
        )
        .route(
            "/admin/api/collections/record",
            post(collections::collection_record),
        )
        .route(
            "/admin/api/collections/contact",
            post(collections::log_contact),
        )
        .route(
            "/admin/api/collections/assign",
            post(collections::assign_collector),
        )
        .route(
            "/admin/api/collections/promise",
            post(collections::take_promise),
        )
        .route("/admin/api/collections/book", post(collections::book))
        .route("/admin/api/collections/waive", post(collections::waive))
        .route(
            "/admin/api/collections/chargeOff",
            post(collections::charge_off),
        )
        .route(
            "/admin/api/collections/reverseChargeOff",
            post(collections::reverse_charge_off),
        )
        .route(
            "/admin/api/collections/proposePlan",
            post(payment_plans::propose_plan),
        )
        .route(
            "/admin/api/collections/approvePlan",
            post(payment_plans::approve_plan),
        )
        .route("/admin/api/ledger/journal", post(ledger::journal))
        .route(
            "/admin/api/ledger/trialBalance",
            post(ledger::trial_balance),
        )
        .merge(staff::router())
        .merge(audit::router())
        .merge(products::router())
        .merge(settings::router())
}

/// The OpenAPI description of this module's calls (see [`crate::http::openapi`]).
#[derive(OpenApi)]
#[openapi(paths(
    session::login,
    session::logout,
    review::queue,
    review::order_detail,
    review::start_review,
    review::pass_first,
    review::pass_final,
    review::refuse,
    review::request_resubmission,
    history::history,
    users::user_detail,
    users::verify_identity,
    users::reject_identity,
    users::hold,
    users::release_hold,
    users::erase_personal_data,
    repayments::manual_repayment,
    collections::collection_queue,
    collections::collection_record,
    collections::log_contact,
    collections::assign_collector,
    collections::take_promise,
    collections::charge_off,
    collections::reverse_charge_off,
    collections::book,
    collections::waive,
    payment_plans::propose_plan,
    payment_plans::approve_plan,
    ledger::journal,
    ledger::trial_balance,
    staff::me,
    staff::list,
    staff::create,
    staff::assign_roles,
    staff::disable,
    staff::enable,
    staff::reset_password,
    staff::setup_info,
    staff::complete_setup,
    audit::trail,
    audit::export,
    products::product_lines,
    products::propose_change,
    products::approve_change,
    products::reject_change,
    settings::settings_line,
    settings::propose_settings,
    settings::approve_settings,
    settings::reject_settings
))]
pub struct Doc;

// ---------------------------------------------------------------------------------
// Shared helpers.

/// The request id the events of this request's command record (`x-request-id`).
use crate::http::middleware::request_id::current as request_id;

fn not_found(what: &str) -> ApiError {
    ApiError::new(
        ErrorCode::RecordNotFound,
        format!("record not found: {what}"),
    )
}

/// A record id from the body in its stored form; anything that is not a UUID names
/// no record (40007).
fn record_id(id: &str, what: &str) -> Result<String, ApiError> {
    Uuid::parse_str(id.trim())
        .map(|id| id.to_string())
        .map_err(|_| not_found(what))
}

/// Runs `command` on the aggregate `id` of `bus`, recorded as this auditor's; answers
/// `data: null`, or the command's refusal.
async fn auditor_command<A>(
    state: &AppState,
    bus: &CommandBus<A>,
    auditor: &Auditor,
    id: &str,
    command: impl Fn() -> A::Command,
) -> Result<Response, ApiError>
where
    A: Aggregate + Clone,
    A::Error: Into<ApiError>,
    AggregateError<A::Error>: Into<ApiError>,
{
    let actor = Actor::Auditor(auditor.auditor_id);
    state
        .execute(bus, id, command, actor, &request_id())
        .await?;
    Ok(ok(Null))
}

/// The order as the write side knows it. Error 40007 when it does not exist.
async fn load_order(state: &AppState, order_id: &str) -> Result<Order, ApiError> {
    let order = state.orders.load(order_id).await?;
    order.id.ok_or_else(|| not_found("order"))?;
    Ok(order)
}

/// The user as the write side knows it. Error 40007 when it does not exist.
async fn load_user(state: &AppState, user_id: &str) -> Result<User, ApiError> {
    let user = state.users.load(user_id).await?;
    user.id.ok_or_else(|| not_found("user"))?;
    Ok(user)
}

/// The three ID photos, or `None` when none were submitted.
fn identity_images(user: &User) -> Option<IdImageLinks> {
    user.id_images.as_ref().map(IdImageLinks::to)
}
