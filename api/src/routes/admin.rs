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

use aggregates::order::{Order, OrderCommand, OrderEvent, RepaymentSource};
use aggregates::types::{Amount, ImageRef, ResubmissionItem};
use aggregates::user::{IdentityStatus, User, UserCommand};
use aggregates::{Actor, ErrorCode};
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json};
use utoipa::{OpenApi, ToSchema};
use uuid::Uuid;

use crate::auditors;
use crate::auth::{self, Auditor, TokenKind};
use crate::envelope::{ok, AnyData, ApiError, ApiJson, Envelope, Null, OptionalJson};
use crate::routes::paging;
use crate::state::AppState;
use projections::history::{order_history, state_as_of};
use projections::projection::{money_text, time_text};
use projections::reads::admin as queries;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/api/login", post(login))
        .route("/admin/api/logout", post(logout))
        .route("/admin/api/orders/queue", post(queue))
        .route("/admin/api/orders/detail", post(order_detail))
        .route("/admin/api/orders/startReview", post(start_review))
        .route("/admin/api/orders/passFirst", post(pass_first))
        .route("/admin/api/orders/passFinal", post(pass_final))
        .route("/admin/api/orders/refuse", post(refuse))
        .route(
            "/admin/api/orders/requestResubmission",
            post(request_resubmission),
        )
        .route("/admin/api/orders/history", post(history))
        .route("/admin/api/users/detail", post(user_detail))
        .route("/admin/api/users/verifyIdentity", post(verify_identity))
        .route("/admin/api/users/rejectIdentity", post(reject_identity))
        .route("/admin/api/users/hold", post(hold))
        .route("/admin/api/users/releaseHold", post(release_hold))
        .route("/admin/api/users/erase", post(erase_personal_data))
        .route("/admin/api/repayments/manual", post(manual_repayment))
        .route("/admin/api/ledger/journal", post(journal))
        .route("/admin/api/ledger/trialBalance", post(trial_balance))
}

/// The OpenAPI description of this module's calls (see [`crate::openapi`]).
#[derive(OpenApi)]
#[openapi(paths(
    login,
    logout,
    queue,
    order_detail,
    start_review,
    pass_first,
    pass_final,
    refuse,
    request_resubmission,
    history,
    user_detail,
    verify_identity,
    reject_identity,
    hold,
    release_hold,
    erase_personal_data,
    manual_repayment,
    journal,
    trial_balance
))]
pub struct Doc;

// ---------------------------------------------------------------------------------
// Auditor accounts (`api create-auditor`) and sessions.

#[derive(Deserialize, ToSchema)]
#[schema(as = AuditorLoginBody)]
struct LoginBody {
    /// The auditor's username.
    #[schema(example = "alice")]
    username: String,
    /// The password.
    password: String,
}

/// An auditor session.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct LoginData {
    /// Bearer token for `/admin/api`.
    token: String,
    /// The auditor's id.
    auditor_id: Uuid,
    /// The (normalized) username.
    username: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/login",
    tag = "auditor",
    summary = "Auditor log in",
    description = "10002 wrong username or password. 5 too many attempts: per client IP \
                   (10 at once, then one per 3 s), and per username (5 failed logins in a \
                   row lock it for 15 minutes, whatever the password).",
    request_body = LoginBody,
    responses((status = 200, description = "Envelope with the session", body = Envelope<Option<LoginData>>))
)]
async fn login(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<LoginBody>,
) -> Result<Response, ApiError> {
    let name = auditors::normalize_username(&body.username);
    // The attempt is counted before any password is checked, in one statement, so
    // parallel guesses cannot check more than the limit allows.
    let attempt = auditors::take_login_attempt(&state, &name).await?;
    let row = auditors::find(&state, &name).await?;
    let hash = row.as_ref().map(|(_, _, hash)| hash.clone());
    let hash = match &hash {
        Some(hash) => hash.as_str(),
        None => auditors::dummy_hash().await,
    };
    let verified = state
        .user_services
        .hasher
        .verify(&body.password, hash)
        .await;
    let (Some((auditor_id, username, _)), true) = (row, verified) else {
        // Unknown names count too, so the lock tells nobody which names exist.
        if attempt >= auditors::MAX_FAILED_AUDITOR_LOGINS {
            tracing::warn!(
                "auditor login locked after {} failed attempts",
                auditors::MAX_FAILED_AUDITOR_LOGINS
            );
            return Err(auditors::too_many_logins());
        }
        return Err(ApiError::new(
            ErrorCode::WrongPhoneOrPassword,
            "wrong username or password",
        ));
    };
    auditors::clear_login_attempts(&state, &name).await?;
    let auditor_id = Uuid::parse_str(&auditor_id).map_err(ApiError::internal)?;
    let token = auth::issue(&state, auditor_id, TokenKind::Auditor).await?;
    Ok(ok(LoginData {
        token,
        auditor_id,
        username,
    }))
}

/// The bearer token of an authenticated auditor (for logout).
struct AuditorToken(String);

impl FromRequestParts<AppState> for AuditorToken {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = auth::bearer(parts)?;
        auth::resolve(state, &token, TokenKind::Auditor).await?;
        Ok(Self(token))
    }
}

#[utoipa::path(
    post,
    path = "/admin/api/logout",
    tag = "auditor",
    summary = "Auditor log out",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn logout(
    State(state): State<AppState>,
    AuditorToken(token): AuditorToken,
) -> Result<Response, ApiError> {
    auth::revoke(&state, &token).await?;
    Ok(ok(json!(null)))
}

// ---------------------------------------------------------------------------------
// Shared helpers.

/// The request id the events of this request's command record (`x-request-id`).
use crate::request_id::current as request_id;

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

/// `{key, url}` of a stored image (served by `GET /files/{key}` to auditors).
fn image_json(image: &ImageRef) -> Json {
    json!({ "key": image.key, "url": format!("/files/{}", image.key), "sha256": image.sha256 })
}

/// The three ID photos, or null when none were submitted.
fn identity_images(user: &User) -> Json {
    user.id_images
        .as_ref()
        .map_or(Json::Null, |[front, back, hand_hold]| {
            json!({
                "front": image_json(front),
                "back": image_json(back),
                "handHold": image_json(hand_hold),
            })
        })
}

// ---------------------------------------------------------------------------------
// Orders.

#[derive(Deserialize, Default, ToSchema)]
#[serde(rename_all = "camelCase")]
struct QueueBody {
    /// Only orders in this status (section 4.3 codes).
    #[serde(default)]
    status: Option<i64>,
    /// Only orders not yet closed (the work queue); default false (every order).
    #[serde(default)]
    open: bool,
    /// Part of the applicant's name or mobile, or of the order number or id.
    #[serde(default)]
    #[schema(max_length = 100)]
    search: Option<String>,
    #[serde(default)]
    page: Option<i64>,
    #[serde(default)]
    page_size: Option<i64>,
}

#[utoipa::path(
    post,
    path = "/admin/api/orders/queue",
    tag = "auditor",
    summary = "The review queue",
    description = "`data`: {total, page, pageSize, orders}, oldest first. The body may be \
                   empty. `open` leaves out closed orders; `search` matches part of the \
                   applicant's name or mobile, the order number (`HL-…`) or id. 10004 bad \
                   paging or a search longer than 100 characters.",
    security(("bearer" = [])),
    request_body = Option<QueueBody>,
    responses((status = 200, description = "Envelope, the answer", body = Envelope<AnyData>))
)]
async fn queue(
    State(state): State<AppState>,
    _auditor: Auditor,
    OptionalJson(body): OptionalJson<QueueBody>,
) -> Result<Response, ApiError> {
    let (limit, offset) = paging(body.page, body.page_size, 100)?;
    let search = body
        .search
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    if search.is_some_and(|s| s.chars().count() > 100) {
        return Err(ApiError::bad_input("search", "at most 100 characters"));
    }
    let filter = queries::QueueFilter {
        status: body.status,
        open_only: body.open,
        search: search.map(str::to_string),
    };
    let (rows, total) = queries::queue(state.read_models(), &filter, limit, offset).await?;
    let orders: Vec<Json> = rows
        .into_iter()
        .map(
            |(
                order_id,
                user_id,
                status,
                applicant_name,
                product_name,
                amount,
                period_days,
                applied_at,
                updated_at,
                order_no,
                mobile,
                identity_status,
            )| {
                json!({
                    "orderId": order_id,
                    "orderNo": order_no,
                    "status": status,
                    "applyAmount": amount,
                    "periodDays": period_days,
                    "productName": product_name,
                    "applyTime": applied_at,
                    "updatedAt": updated_at,
                    "applicant": {
                        "userId": user_id,
                        "realName": applicant_name,
                        "mobile": mobile,
                        "identityStatus": identity_status,
                    },
                })
            },
        )
        .collect();
    Ok(ok(json!({
        "total": total,
        "page": body.page.unwrap_or(1),
        "pageSize": limit,
        "orders": orders,
    })))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AuditorOrderBody)]
struct OrderBody {
    /// The order id.
    order_id: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/orders/detail",
    tag = "auditor",
    summary = "An order with its applicant",
    description = "`data`: {order, review, applicant, identityStatus, images, questionnaire, contacts, disclosure, loanDisclosure, signature, timeline}. `disclosure` is the one the borrower signed at application (P5); `loanDisclosure` the same terms on the amount paid out (P10), null until paid out. 40007 unknown order.",
    security(("bearer" = [])),
    request_body = OrderBody,
    responses((status = 200, description = "Envelope, the answer", body = Envelope<AnyData>))
)]
async fn order_detail(
    State(state): State<AppState>,
    _auditor: Auditor,
    ApiJson(body): ApiJson<OrderBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let (doc, order) = queries::order_row(state.read_models(), &order_id)
        .await?
        .ok_or_else(|| not_found("order"))?;
    let doc: Json = serde_json::from_str(&doc).map_err(ApiError::internal)?;
    let order: Order = serde_json::from_str(&order).map_err(ApiError::internal)?;

    let row = queries::applicant(state.read_models(), &order.user_id.to_string()).await?;
    let (applicant, user, identity_status) = match row {
        Some((doc, user, identity_status)) => {
            let doc: Json = serde_json::from_str(&doc).map_err(ApiError::internal)?;
            let user: User = serde_json::from_str(&user).map_err(ApiError::internal)?;
            (doc, Some(user), Some(identity_status))
        }
        None => (Json::Null, None, None),
    };

    let rows = queries::timeline(state.read_models(), &order_id).await?;
    let mut timeline = Vec::with_capacity(rows.len());
    for (entry, actor) in rows {
        let mut entry: Json = serde_json::from_str(&entry).map_err(ApiError::internal)?;
        entry["actor"] = json!(actor);
        timeline.push(entry);
    }

    // What the borrower signed at application (P5, P9), and, once paid out, the same
    // terms recomputed on the amount paid out (P10): two documents, never one for the other.
    let loan_disclosure = order.loan.as_ref().map(|loan| &loan.disclosure);
    Ok(ok(json!({
        "order": doc,
        "review": {
            "status": order.status.code(),
            "firstAuditor": order.first_auditor,
            "finalAuditor": order.final_auditor,
            "refusal": order.refusal.as_ref().map(|r| json!({
                "stage": r.stage,
                "reason": r.reason,
                "auditorId": r.auditor_id,
            })),
            "resubmissionReason": order.resubmission_reason,
            "resubmissionItems": order.resubmission_items,
            "approvedAmount": money_text(order.approved_amount),
            "offerExpiresAt": order.offer_expires_at.map(time_text),
            "termsVersion": order.terms_version,
        },
        "applicant": applicant,
        "identityStatus": identity_status,
        "images": user.as_ref().map_or(Json::Null, identity_images),
        "questionnaire": user.as_ref().and_then(|u| u.questionnaire.as_ref()),
        "contacts": user.as_ref().map(|u| &u.contacts),
        "disclosure": order.disclosure,
        "loanDisclosure": loan_disclosure,
        "signature": order.signature.as_ref().map(image_json),
        "timeline": timeline,
    })))
}

/// Runs an order command as the auditor; answers `null`.
async fn order_command(
    state: &AppState,
    auditor: &Auditor,
    order_id: &str,
    command: impl Fn() -> OrderCommand,
) -> Result<Response, ApiError> {
    state
        .execute(
            &state.orders,
            order_id,
            command,
            Actor::Auditor(auditor.auditor_id),
            &request_id(),
        )
        .await?;
    Ok(ok(json!(null)))
}

#[utoipa::path(
    post,
    path = "/admin/api/orders/startReview",
    tag = "auditor",
    summary = "Take an order for review",
    description = "40007 unknown order; 10004 not waiting for review.",
    security(("bearer" = [])),
    request_body = OrderBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn start_review(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<OrderBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let auditor_id = auditor.auditor_id;
    order_command(&state, &auditor, &order_id, || OrderCommand::StartReview {
        auditor_id,
    })
    .await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct NoteBody {
    order_id: String,
    #[serde(default)]
    note: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/orders/passFirst",
    tag = "auditor",
    summary = "Pass the first review",
    description = "Only once the identity is verified (4.3): 40000. 40007 unknown order; \
                   10004 not in first review.",
    security(("bearer" = [])),
    request_body = NoteBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn pass_first(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<NoteBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let order = load_order(&state, &order_id).await?;
    // The applicant's identity as the User aggregate has it, never a read model
    // (4.3: the first review passes only once the identity is verified).
    let applicant = load_user(&state, &order.user_id.to_string()).await?;
    let identity_verified = applicant.identity == IdentityStatus::Verified;
    let auditor_id = auditor.auditor_id;
    order_command(&state, &auditor, &order_id, || {
        OrderCommand::PassFirstAudit {
            auditor_id,
            note: body.note.trim().to_string(),
            identity_verified,
        }
    })
    .await
}

#[utoipa::path(
    post,
    path = "/admin/api/orders/passFinal",
    tag = "auditor",
    summary = "Pass the final review (by another auditor)",
    description = "40007 unknown order; 10004 the auditor of the first review (four eyes), \
                   or not awaiting final review.",
    security(("bearer" = [])),
    request_body = NoteBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn pass_final(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<NoteBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let auditor_id = auditor.auditor_id;
    order_command(&state, &auditor, &order_id, || {
        OrderCommand::PassFinalAudit {
            auditor_id,
            note: body.note.trim().to_string(),
        }
    })
    .await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct OrderReasonBody {
    order_id: String,
    #[serde(default)]
    reason: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/orders/refuse",
    tag = "auditor",
    summary = "Refuse an order",
    description = "40007 unknown order; 10004 no reason, or not refusable in its status.",
    security(("bearer" = [])),
    request_body = OrderReasonBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn refuse(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<OrderReasonBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let auditor_id = auditor.auditor_id;
    order_command(&state, &auditor, &order_id, || OrderCommand::Refuse {
        auditor_id,
        reason: body.reason.trim().to_string(),
    })
    .await
}

#[utoipa::path(
    post,
    path = "/admin/api/orders/requestResubmission",
    tag = "auditor",
    summary = "Ask the borrower to resubmit",
    description = "40007 unknown order; 10004 no reason, no item, or not under review. \
                   `items` names what the borrower is to fix (PRODUCT.md 12.4); those \
                   become changeable for the borrower until they resubmit.",
    security(("bearer" = [])),
    request_body = ResubmissionBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn request_resubmission(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<ResubmissionBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let auditor_id = auditor.auditor_id;
    order_command(&state, &auditor, &order_id, || {
        OrderCommand::RequestResubmission {
            auditor_id,
            reason: body.reason.trim().to_string(),
            items: body.items.clone(),
        }
    })
    .await
}

/// What the borrower is asked to fix (PRODUCT.md 12.4).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ResubmissionBody {
    order_id: String,
    #[serde(default)]
    reason: String,
    /// At least one of `photos`, `profile`, `bank`, `questionnaire`.
    #[serde(default)]
    #[schema(value_type = Vec<String>, example = json!(["photos"]))]
    items: Vec<ResubmissionItem>,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct HistoryBody {
    order_id: String,
    #[serde(default)]
    at_sequence: Option<usize>,
}

#[utoipa::path(
    post,
    path = "/admin/api/orders/history",
    tag = "auditor",
    summary = "An order's event history",
    description = "`data`: {orderId, events, atSequence, status, state}: the state as of `atSequence`.",
    security(("bearer" = [])),
    request_body = HistoryBody,
    responses((status = 200, description = "Envelope, the answer", body = Envelope<AnyData>))
)]
async fn history(
    State(state): State<AppState>,
    _auditor: Auditor,
    ApiJson(body): ApiJson<HistoryBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    // The same fold as `replay-tool history` (projections::history).
    let history = order_history(&state.database, &order_id).await?;
    if history.is_empty() {
        return Err(not_found("order"));
    }
    let at = body.at_sequence.unwrap_or(history.len());
    let order = state_as_of(&history, at)
        .ok_or_else(|| ApiError::bad_input("atSequence", "must be 1 or more"))?;
    let names = queries::auditor_names(state.read_models()).await?;
    let events: Vec<Json> = history
        .iter()
        .map(|entry| {
            let actor_name = entry
                .actor
                .strip_prefix("auditor:")
                .and_then(|id| names.get(id));
            json!({
                "sequence": entry.sequence,
                "time": entry.time,
                "actor": entry.actor,
                "actorName": actor_name,
                "type": entry.event_type,
                "payload": entry.payload,
            })
        })
        .collect();
    let mut answer = json!({
        "orderId": order_id,
        "events": events,
        "atSequence": at.min(history.len()),
        "status": order.status.code(),
        "state": order,
    });
    mask_account_numbers(&mut answer);
    Ok(ok(answer))
}

/// Masks every `account_no` in a replay (the payout's account, in payloads and in
/// the state) to its last four digits, as the console shows an account everywhere
/// else (PRODUCT.md 10: `cardNo (masked)`): reading an order's history does not
/// need the whole number; the event itself keeps it for the payout.
fn mask_account_numbers(value: &mut Json) {
    match value {
        Json::Object(fields) => {
            for (key, field) in fields.iter_mut() {
                match field {
                    Json::String(number) if key == "account_no" => {
                        *number = aggregates::types::mask(number, 4);
                    }
                    _ => mask_account_numbers(field),
                }
            }
        }
        Json::Array(items) => items.iter_mut().for_each(mask_account_numbers),
        _ => {}
    }
}

// ---------------------------------------------------------------------------------
// Users.

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct UserBody {
    user_id: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/users/detail",
    tag = "auditor",
    summary = "A borrower",
    description = "`data`: {profile, identity, lock, contacts, orders, auditorActions}. 40007 unknown user.",
    security(("bearer" = [])),
    request_body = UserBody,
    responses((status = 200, description = "Envelope, the answer", body = Envelope<AnyData>))
)]
async fn user_detail(
    State(state): State<AppState>,
    _auditor: Auditor,
    ApiJson(body): ApiJson<UserBody>,
) -> Result<Response, ApiError> {
    let user_id = record_id(&body.user_id, "user")?;
    let user = queries::user_state(state.read_models(), &user_id)
        .await?
        .ok_or_else(|| not_found("user"))?;
    let user: User = serde_json::from_str(&user).map_err(ApiError::internal)?;
    let uuid = Uuid::parse_str(&user_id).map_err(ApiError::internal)?;
    let profile = crate::queries::borrower::user_doc(&state, uuid).await?;
    let orders = crate::queries::borrower::order_list(&state, uuid).await?;
    Ok(ok(json!({
        "profile": profile,
        "identity": {
            "status": user.identity.code(),
            "rejectReason": user.identity_rejection,
            "images": identity_images(&user),
        },
        "lock": user.lock().map(|(kind, reason)| json!({ "kind": kind, "reason": reason })),
        "contacts": user.contacts,
        "orders": orders,
        "auditorActions": auditor_actions(&state, &user_id).await?,
    })))
}

/// What auditors did to this user (identity decisions, compliance holds), oldest
/// first: `[{sequence, time, actor, actorName, type, payload}]`. Only events whose
/// actor is an auditor are listed, so nothing the borrower did (passwords, PINs) is
/// shown (PRODUCT.md 6: every auditor action is recorded with the auditor's id).
async fn auditor_actions(state: &AppState, user_id: &str) -> Result<Vec<Json>, ApiError> {
    let envelopes = projections::store::load_events::<User>(&state.database, user_id)
        .await
        .map_err(ApiError::internal)?;
    let names = queries::auditor_names(state.read_models()).await?;
    Ok(envelopes
        .into_iter()
        .filter_map(|envelope| {
            let actor = envelope.metadata.get("actor")?.clone();
            let auditor_id = actor.strip_prefix("auditor:")?.to_string();
            Some(json!({
                "sequence": envelope.sequence,
                "time": envelope.metadata.get(projections::store::RECORDED_AT),
                "actor": actor,
                "actorName": names.get(&auditor_id),
                "type": cqrs_es::DomainEvent::event_type(&envelope.payload),
                "payload": envelope.payload,
            }))
        })
        .collect())
}

/// Runs a user command as the auditor after checking the user exists (40007);
/// answers `null`.
async fn user_command(
    state: &AppState,
    auditor: &Auditor,
    user_id: &str,
    command: impl Fn() -> UserCommand,
) -> Result<Response, ApiError> {
    let user_id = record_id(user_id, "user")?;
    load_user(state, &user_id).await?;
    state
        .execute(
            &state.users,
            &user_id,
            command,
            Actor::Auditor(auditor.auditor_id),
            &request_id(),
        )
        .await?;
    Ok(ok(json!(null)))
}

#[utoipa::path(
    post,
    path = "/admin/api/users/verifyIdentity",
    tag = "auditor",
    summary = "Verify the ID photos",
    description = "40007 unknown user; 10009 no ID photos awaiting review.",
    security(("bearer" = [])),
    request_body = UserBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn verify_identity(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<UserBody>,
) -> Result<Response, ApiError> {
    let auditor_id = auditor.auditor_id;
    user_command(&state, &auditor, &body.user_id, || {
        UserCommand::VerifyIdentity { auditor_id }
    })
    .await
}

#[utoipa::path(
    post,
    path = "/admin/api/users/erase",
    tag = "personal data",
    summary = "Erase a borrower's personal data after the retention period",
    description = "Crypto-shredding (PRODUCT.md 12.6, RA 10173): the borrower's data key is \
                   destroyed, so every personal field of their events reads `[erased]` \
                   (or null) everywhere; amounts, orders and the ledger stay. The erasure \
                   workflow then deletes their ID photos and signature, text messages, \
                   sessions, codes and idempotency answers, and rebuilds the read models. \
                   The account is closed for good. 40005 an order is open; 10004 the \
                   retention period (`retention_years` after the last loan closed, or \
                   after registration) is not over, `msg` gives the date; 40007 unknown \
                   user. Erasing an erased borrower again changes nothing.",
    security(("bearer" = [])),
    request_body = UserBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn erase_personal_data(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<UserBody>,
) -> Result<Response, ApiError> {
    let auditor_id = auditor.auditor_id;
    user_command(&state, &auditor, &body.user_id, || {
        UserCommand::EraseAfterRetention { auditor_id }
    })
    .await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct UserReasonBody {
    user_id: String,
    #[serde(default)]
    reason: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/users/rejectIdentity",
    tag = "auditor",
    summary = "Reject the ID photos",
    description = "The reason is required (10004). 40007 unknown user; 10009 no ID photos \
                   awaiting review.",
    security(("bearer" = [])),
    request_body = UserReasonBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn reject_identity(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<UserReasonBody>,
) -> Result<Response, ApiError> {
    let reason = body.reason.trim().to_string();
    if reason.is_empty() {
        return Err(ApiError::bad_input("reason", "is required"));
    }
    let auditor_id = auditor.auditor_id;
    user_command(&state, &auditor, &body.user_id, || {
        UserCommand::RejectIdentity {
            auditor_id,
            reason: reason.clone(),
        }
    })
    .await
}

#[utoipa::path(
    post,
    path = "/admin/api/users/hold",
    tag = "auditor",
    summary = "Place a compliance hold",
    description = "40007 unknown user; 10004 no reason.",
    security(("bearer" = [])),
    request_body = UserReasonBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn hold(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<UserReasonBody>,
) -> Result<Response, ApiError> {
    let auditor_id = auditor.auditor_id;
    user_command(&state, &auditor, &body.user_id, || {
        UserCommand::PlaceComplianceHold {
            auditor_id,
            reason: body.reason.trim().to_string(),
        }
    })
    .await
}

#[utoipa::path(
    post,
    path = "/admin/api/users/releaseHold",
    tag = "auditor",
    summary = "Release a compliance hold",
    description = "40007 unknown user or no hold; 10004 no reason.",
    security(("bearer" = [])),
    request_body = UserReasonBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn release_hold(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<UserReasonBody>,
) -> Result<Response, ApiError> {
    let auditor_id = auditor.auditor_id;
    user_command(&state, &auditor, &body.user_id, || {
        UserCommand::ReleaseComplianceHold {
            auditor_id,
            reason: body.reason.trim().to_string(),
        }
    })
    .await
}

// ---------------------------------------------------------------------------------
// Money.

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ManualRepaymentBody {
    order_id: String,
    /// Amount received: a decimal string (a whole JSON number is accepted too), PRODUCT.md 5.
    #[schema(value_type = String, pattern = r"^[0-9]{1,9}(\.[0-9]{1,2})?$", example = "1000.00")]
    amount: Amount,
    /// The payment's reference (1 to 100 characters).
    reference: String,
}

/// The result of a manual repayment.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ManualRepaymentData {
    /// False when this reference was already applied (nothing changed), or when it
    /// waits for a second auditor.
    recorded: bool,
    /// True when this entry, above 20,000, waits for another auditor to enter it too.
    awaiting_second_auditor: bool,
}

/// Longest payment reference accepted.
const MAX_REFERENCE_CHARS: usize = 100;

#[utoipa::path(
    post,
    path = "/admin/api/repayments/manual",
    tag = "auditor",
    summary = "Record a repayment received outside the app",
    description = "The same reference recorded twice applies once. What is not owed is \
                   refunded to the borrower's bound account (12.1). Above 20,000 the first \
                   entry waits for another auditor to enter the same reference and amount \
                   (four eyes). 40007 unknown order or nothing owed; 40001 below the \
                   minimum; 10004 no reference, the same auditor confirming, or another \
                   amount for the reference. Accepts `Idempotency-Key`.",
    security(("bearer" = [])),
    params(("Idempotency-Key" = Option<String>, Header, description = "repeat-safe key")),
    request_body = ManualRepaymentBody,
    responses((status = 200, description = "Envelope, the answer", body = Envelope<Option<ManualRepaymentData>>))
)]
async fn manual_repayment(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<ManualRepaymentBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let reference = body.reference.trim();
    if reference.is_empty() {
        return Err(ApiError::bad_input("reference", "is required"));
    }
    if reference.chars().count() > MAX_REFERENCE_CHARS {
        return Err(ApiError::bad_input(
            "reference",
            &format!("at most {MAX_REFERENCE_CHARS} characters"),
        ));
    }
    // Manual references live in their own namespace, so one can never collide with
    // (and be swallowed as a repeat of) a payment page's reference. The same
    // reference recorded twice applies once.
    let payment_ref = format!("manual:{reference}");
    let auditor_id = auditor.auditor_id;
    let events = state
        .execute(
            &state.orders,
            &order_id,
            || OrderCommand::ReceiveRepayment {
                payment_ref: payment_ref.clone(),
                amount: body.amount.value(),
                source: RepaymentSource::Manual { auditor_id },
                session_id: None,
                received_at: None,
            },
            Actor::Auditor(auditor_id),
            &request_id(),
        )
        .await?;
    // `recorded` is false when this reference was already applied (nothing changed)
    // or when it waits for a second auditor (above the four-eyes limit).
    let has = |matches: fn(&OrderEvent) -> bool| events.iter().any(|e| matches(&e.payload));
    Ok(ok(ManualRepaymentData {
        recorded: has(|e| matches!(e, OrderEvent::RepaymentReceived { .. })),
        awaiting_second_auditor: has(|e| matches!(e, OrderEvent::ManualRepaymentProposed { .. })),
    }))
}

#[derive(Deserialize, Default, ToSchema)]
#[serde(rename_all = "camelCase")]
struct JournalBody {
    #[serde(default)]
    order_id: Option<String>,
    #[serde(default)]
    account: Option<String>,
    #[serde(default)]
    page: Option<i64>,
    #[serde(default)]
    page_size: Option<i64>,
}

/// Adds a ledger account to `target` as the console names it: `account` (the journal's
/// name, kept for filtering and as the exact reference), `kind` (the part before `:`,
/// e.g. `borrower_wallet`), and for a borrower's wallet or a loan receivable the
/// order's number (`orderNo`) and the applicant's name (`holder`), `null` when the
/// read models do not know them (yet).
fn account_json(target: &mut Json, account: &str, holder: &queries::AccountHolder) {
    let kind = account.split_once(':').map_or(account, |(kind, _)| kind);
    target["account"] = json!(account);
    target["kind"] = json!(kind);
    target["orderNo"] = json!(holder.order_no.as_deref().filter(|no| !no.is_empty()));
    target["holder"] = json!(holder
        .holder_name
        .as_deref()
        .filter(|name| !name.is_empty()));
}

#[utoipa::path(
    post,
    path = "/admin/api/ledger/journal",
    tag = "auditor",
    summary = "The ledger journal",
    description = "`data`: {total, page, pageSize, entries: [{entryId, at, orderId, orderNo, code, description, postings: [{postingNo, account, kind, orderNo, holder, amount}]}]}: `kind` is the account without its id (`borrower_wallet`, `loan_receivable`, `lender_cash`, ...), `orderNo` and `holder` the order number and applicant behind a wallet or receivable (else null); `code` names what the entry records (`payout_sent`, `repayment`, ... as projections::ledger::ENTRY_DESCRIPTIONS), `description` says it in English. Includes every event committed before the call. The body may be empty. `orderId` takes an order's id or its number (`HL-2611-000010`; an unknown number lists nothing). 10004 both filters or bad paging; 40007 an orderId that is neither.",
    security(("bearer" = [])),
    request_body = Option<JournalBody>,
    responses((status = 200, description = "Envelope, the answer", body = Envelope<AnyData>))
)]
async fn journal(
    State(state): State<AppState>,
    _auditor: Auditor,
    OptionalJson(body): OptionalJson<JournalBody>,
) -> Result<Response, ApiError> {
    let (limit, offset) = paging(body.page, body.page_size, 200)?;
    // The books answer as of the request: a payment settled by the loan process a moment
    // ago must show, even though no command of this auditor waited for it.
    state.read_models_at_head().await?;
    let order_id = body
        .order_id
        .as_deref()
        .map(str::trim)
        .filter(|id| !id.is_empty());
    let account = body
        .account
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty());
    let filter = match (order_id, account) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_input(
                "orderId",
                "give orderId or account, not both",
            ))
        }
        // An officer reads order numbers (HL-…); an order id still works.
        (Some(number), None)
            if number
                .get(..3)
                .is_some_and(|p| p.eq_ignore_ascii_case("HL-")) =>
        {
            queries::JournalFilter::OrderNo(number.to_ascii_uppercase())
        }
        (Some(id), None) => queries::JournalFilter::Order(record_id(id, "order")?),
        (None, Some(account)) => queries::JournalFilter::Account(account.to_string()),
        (None, None) => queries::JournalFilter::All,
    };
    let (rows, total) = queries::journal(state.read_models(), &filter, limit, offset).await?;
    let mut entries: Vec<Json> = Vec::new();
    for row in rows {
        let mut posting = json!({ "postingNo": row.posting_no, "amount": row.amount });
        account_json(&mut posting, &row.account, &row.holder);
        match entries.last_mut() {
            Some(entry) if entry["entryId"] == row.entry_id.as_str() => {
                if let Some(postings) = entry["postings"].as_array_mut() {
                    postings.push(posting);
                }
            }
            _ => entries.push(json!({
                "entryId": row.entry_id,
                "at": row.at,
                "orderId": row.order_id,
                "orderNo": row.entry_order_no.filter(|no| !no.is_empty()),
                "code": projections::ledger::entry_code(&row.description),
                "description": row.description,
                "postings": [posting],
            })),
        }
    }
    Ok(ok(json!({
        "total": total,
        "page": body.page.unwrap_or(1),
        "pageSize": limit,
        "entries": entries,
    })))
}

#[utoipa::path(
    post,
    path = "/admin/api/ledger/trialBalance",
    tag = "auditor",
    summary = "The trial balance",
    description = "`data`: {accounts: [{account, kind, orderNo, holder, balance, postings}], sum, balanced}. Includes every event committed before the call (the ledger read model is waited for, bounded).",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope, the answer", body = Envelope<AnyData>))
)]
async fn trial_balance(
    State(state): State<AppState>,
    _auditor: Auditor,
) -> Result<Response, ApiError> {
    // As of the request, like the journal: see `journal`.
    state.read_models_at_head().await?;
    let rows = queries::trial_balance(state.read_models()).await?;
    let sum: i128 = rows.iter().map(|row| i128::from(row.balance_minor)).sum();
    let accounts: Vec<Json> = rows
        .into_iter()
        .map(|row| {
            let mut account = json!({
                "balance": money_text(Decimal::new(row.balance_minor, 2)),
                "postings": row.postings,
            });
            account_json(&mut account, &row.account, &row.holder);
            account
        })
        .collect();
    let sum = Decimal::try_from_i128_with_scale(sum, 2).map_err(ApiError::internal)?;
    Ok(ok(json!({
        "accounts": accounts,
        "sum": money_text(sum),
        "balanced": sum.is_zero(),
    })))
}
