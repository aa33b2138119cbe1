//! The review queue and its commands (PRODUCT.md 6): the queue, an order's detail,
//! starting a review, the first and final pass, a refusal and a resubmission request.

#[allow(clippy::wildcard_imports)]
use super::*;

#[derive(Deserialize, Default, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct QueueBody {
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
    description = "Oldest first. The body may be empty. `open` leaves out closed orders; `search` matches part of the \
                   applicant's name or mobile, the order number (`HL-…`) or id. 10004 bad \
                   paging or a search longer than 100 characters.",
    security(("bearer" = [])),
    request_body = Option<QueueBody>,
    responses((status = 200, description = "Envelope, the answer", body = Envelope<Option<QueuePage>>))
)]
pub(super) async fn queue(
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
    Ok(ok(QueuePage {
        total,
        page: body.page.unwrap_or(1),
        page_size: limit,
        orders: rows.into_iter().map(QueueItem::from).collect(),
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AuditorOrderBody)]
pub(super) struct OrderBody {
    /// The order id.
    order_id: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/orders/detail",
    tag = "auditor",
    summary = "An order with its applicant",
    description = "`disclosure` is the one the borrower signed at application (P5); `loanDisclosure` the same terms on the amount paid out (P10), null until paid out. 40007 unknown order.",
    security(("bearer" = [])),
    request_body = OrderBody,
    responses((status = 200, description = "Envelope, the answer", body = Envelope<Option<OrderReview>>))
)]
pub(super) async fn order_detail(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<OrderBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    // The applicant's personal data only for a role that may read it (issue 55): a
    // finance officer sees the order and its money, not the borrower's ID or contacts.
    let personal = crate::accounts::roles::allows(
        &auditor.roles,
        crate::accounts::roles::Permission::BorrowersRead,
    );
    let (doc, order) = queries::order_row(state.read_models(), &order_id)
        .await?
        .ok_or_else(|| not_found("order"))?;
    let doc: OrderDoc = serde_json::from_str(&doc)?;
    let order: Order = serde_json::from_str(&order)?;

    let row = if personal {
        queries::applicant(state.read_models(), &order.user_id.to_string()).await?
    } else {
        None
    };
    let (applicant, user, identity_status) = match row {
        Some((doc, user, identity_status)) => {
            let doc: UserDoc = serde_json::from_str(&doc)?;
            let user: User = serde_json::from_str(&user)?;
            (Some(doc), Some(user), Some(identity_status))
        }
        None => (None, None, None),
    };

    let rows = queries::timeline(state.read_models(), &order_id).await?;
    let mut timeline = Vec::with_capacity(rows.len());
    for (entry, actor) in rows {
        let entry = serde_json::from_str(&entry)?;
        timeline.push(ConsoleTimelineEntry { entry, actor });
    }

    // What the borrower signed at application (P5, P9), and, once paid out, the same
    // terms recomputed on the amount paid out (P10): two documents, never one for the other.
    let loan_disclosure = order.loan.as_ref().map(|loan| loan.disclosure.clone());
    Ok(ok(OrderReview {
        order: doc,
        review: Review {
            status: order.status.code(),
            first_auditor: order.first_auditor,
            final_auditor: order.final_auditor,
            refusal: order.refusal.as_ref().map(|r| RefusalView {
                stage: r.stage,
                reason: r.reason.clone(),
                reasons: r.reasons.clone(),
                auditor_id: r.auditor_id,
            }),
            resubmission_reason: order.resubmission_reason.clone(),
            resubmission_items: order.resubmission_items.clone(),
            last_resubmission: order.last_resubmission.as_ref().map(|r| ResubmissionView {
                asked: r.asked.clone(),
                fixed: r.fixed.clone(),
                at: time_text(r.at),
            }),
            approved_amount: money_text(order.approved_amount),
            offer_expires_at: order.offer_expires_at.map(time_text),
            terms_version: order.terms_version.clone(),
        },
        applicant,
        identity_status,
        images: user.as_ref().and_then(identity_images),
        questionnaire: user.as_ref().and_then(|u| u.questionnaire.clone()),
        contacts: user.map(|u| u.contacts),
        disclosure: order.disclosure,
        loan_disclosure,
        signature: order
            .signature
            .as_ref()
            .filter(|_| personal)
            .map(ImageLink::to),
        timeline,
    }))
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
pub(super) async fn start_review(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<OrderBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let auditor_id = auditor.auditor_id;
    auditor_command(&state, &state.orders, &auditor, &order_id, || {
        OrderCommand::StartReview { auditor_id }
    })
    .await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct NoteBody {
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
pub(super) async fn pass_first(
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
    auditor_command(&state, &state.orders, &auditor, &order_id, || {
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
pub(super) async fn pass_final(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<NoteBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let auditor_id = auditor.auditor_id;
    auditor_command(&state, &state.orders, &auditor, &order_id, || {
        OrderCommand::PassFinalAudit {
            auditor_id,
            note: body.note.trim().to_string(),
        }
    })
    .await
}

/// A refusal: coded reasons the borrower reads in their language, and an optional
/// note read as typed (P8, issue 52).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct RefuseBody {
    order_id: String,
    /// The officer's note; required when `reasons` is empty.
    #[serde(default)]
    reason: String,
    /// Coded reasons (`income_not_verified`, `identity_not_verified`,
    /// `information_inconsistent`, `repayment_capacity`, `outside_policy`).
    #[serde(default)]
    reasons: Vec<aggregates::order::RefusalReason>,
}

#[utoipa::path(
    post,
    path = "/admin/api/orders/refuse",
    tag = "auditor",
    summary = "Refuse an order",
    description = "40007 unknown order; 10004 neither a coded reason nor a note, an \
                   unknown code, a note over 500 characters, or not refusable in its \
                   status.",
    security(("bearer" = [])),
    request_body = RefuseBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
pub(super) async fn refuse(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<RefuseBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let auditor_id = auditor.auditor_id;
    auditor_command(&state, &state.orders, &auditor, &order_id, || {
        OrderCommand::Refuse {
            auditor_id,
            reason: body.reason.trim().to_string(),
            reasons: body.reasons.clone(),
        }
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
pub(super) async fn request_resubmission(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<ResubmissionBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let auditor_id = auditor.auditor_id;
    auditor_command(&state, &state.orders, &auditor, &order_id, || {
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
pub(super) struct ResubmissionBody {
    order_id: String,
    #[serde(default)]
    reason: String,
    /// At least one of `photos`, `profile`, `bank`, `questionnaire`.
    #[serde(default)]
    items: Vec<ResubmissionItem>,
}
