//! The collections workbench (issue 53): the queue of late loans, a loan's collection
//! record, and the collector's commands: log a contact (the fair-collection guard,
//! P15, decides in the Order), assign a collector, take a promise to pay.

#[allow(clippy::wildcard_imports)]
use super::*;
use aggregates::collections::{ContactChannel, ContactOutcome, ContactPerson};
use aggregates::order::{contact_refusal, Contact, PaymentPlan, PromiseMaker, WaiverKind};
use aggregates::pricing::CompliancePolicy;
use chrono::{DateTime, Days, NaiveDate, Utc};
use projections::reads::collections::{self as reads, CollectionFilter};
use projections::views::collections::{
    BookAsOf, CollectionEntry, CollectionQueue, CollectionQueueItem, CollectionRecord, PlanView,
    TemplateView,
};
use projections::views::plan_lines;

/// The most loans one queue answer lists.
const QUEUE_LIMIT: i64 = 200;

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase")]
pub(super) struct QueueBody {
    /// Only this bucket (`1-30`, …; the answer's `buckets` lists them).
    #[serde(default)]
    bucket: Option<String>,
    /// Only loans assigned to this collector id; `""` for the unassigned.
    #[serde(default)]
    collector: Option<String>,
    /// Only loans whose next action falls on or before this day (YYYY-MM-DD).
    #[serde(default)]
    next_action_by: Option<NaiveDate>,
}

#[utoipa::path(
    post,
    path = "/admin/api/collections/queue",
    tag = "auditor",
    summary = "The collections queue",
    description = "Disbursed loans with an installment past due, most days past due first \
                   (at most 200), with the amount overdue, the outstanding, the last contact \
                   and its outcome, any open promise to pay and the next action. Filters: \
                   bucket, collector, next action by a day. 10004 for a bucket that is not \
                   configured.",
    security(("bearer" = [])),
    request_body = Option<QueueBody>,
    responses((status = 200, description = "Envelope, the queue", body = Envelope<Option<CollectionQueue>>))
)]
pub(super) async fn collection_queue(
    State(state): State<AppState>,
    _auditor: Auditor,
    OptionalJson(body): OptionalJson<QueueBody>,
) -> Result<Response, ApiError> {
    let buckets = &state.config.delinquency_buckets;
    // Today on the profile's calendar, which the loans' days follow (issue 53).
    let zone = CompliancePolicy::contact_rules(&state.env.compliance_profile).time_zone;
    let today = state.now().with_timezone(&zone).date_naive();
    let due_between = match body.bucket.as_deref().filter(|b| !b.is_empty()) {
        None => None,
        Some(name) => {
            let (low, high) = buckets
                .range(name)
                .ok_or_else(|| ApiError::bad_input("bucket", "is not one of the buckets"))?;
            let earliest = high
                .and_then(|high| today.checked_sub_days(Days::new(u64::from(high))))
                .unwrap_or(NaiveDate::MIN);
            let latest = today
                .checked_sub_days(Days::new(u64::from(low)))
                .unwrap_or(NaiveDate::MIN);
            Some((earliest, latest))
        }
    };
    let filter = CollectionFilter {
        due_between,
        collector: body.collector,
        next_action_by: body.next_action_by,
    };
    let rows = reads::queue(state.read_models(), today, &filter, QUEUE_LIMIT).await?;
    let loans = rows
        .into_iter()
        .map(|row| {
            let due = NaiveDate::parse_from_str(&row.oldest_unpaid_due, "%Y-%m-%d").ok();
            let days_past_due = aggregates::collections::days_past_due(due, today);
            CollectionQueueItem {
                order_id: row.order_id,
                order_no: row.order_no,
                borrower_name: row.applicant_name,
                days_past_due,
                bucket: buckets.bucket(days_past_due),
                overdue_amount: row.overdue_amount,
                outstanding: row.outstanding,
                collector: row.collector,
                last_contact_at: row.last_contact_at,
                last_outcome: row.last_outcome,
                promise_amount: row.promise_amount,
                promise_date: row.promise_date,
                next_action_on: row.next_action_on,
            }
        })
        .collect();
    Ok(ok(CollectionQueue {
        buckets: buckets.names(),
        loans,
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct OrderBody {
    order_id: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/collections/record",
    tag = "auditor",
    summary = "A loan's collection record",
    description = "Days past due and bucket today, whether the borrower chose other contact \
                   hours, the payment plan asked for or proposed, and every contact, \
                   refused contact, assignment, promise to pay, plan and bucket move, \
                   oldest first. 40007 unknown order.",
    security(("bearer" = [])),
    request_body = OrderBody,
    responses((status = 200, description = "Envelope, the record", body = Envelope<Option<CollectionRecord>>))
)]
pub(super) async fn collection_record(
    State(state): State<AppState>,
    _auditor: Auditor,
    ApiJson(body): ApiJson<OrderBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    // Days past due today come from the write side's schedule; the entries from the
    // read model.
    let order = load_order(&state, &order_id).await?;
    let days_past_due = order.days_past_due(order.day_of(state.now()));
    let entries = reads::record(state.read_models(), &order_id)
        .await?
        .iter()
        .map(|doc| serde_json::from_str::<CollectionEntry>(doc))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ok(CollectionRecord {
        order_id,
        days_past_due,
        bucket: state.config.delinquency_buckets.bucket(days_past_due),
        any_hours: order.collection.any_hours,
        charged_off: order.collection.charge_off.is_some(),
        charge_off_after_days: state.config.charge_off_after_days,
        waiver_four_eyes_above: money_text(state.config.waiver_four_eyes_above),
        templates: state
            .config
            .collection_templates
            .iter()
            .map(|(id, texts)| TemplateView {
                id: id.clone(),
                text: texts.get("en").cloned().unwrap_or_default(),
            })
            .collect(),
        persons: order.contactable_persons(),
        fees_unpaid: money_text(order.waivable(WaiverKind::Fees)),
        plan_requested: order.collection.plan_requested,
        plan: order.collection.plan.as_ref().map(plan_view),
        entries,
    }))
}

/// The plan proposed, as the record shows it.
fn plan_view(plan: &PaymentPlan) -> PlanView {
    PlanView {
        proposed_by: plan.proposed_by.to_string(),
        approved_by: plan.approved_by.map(|id| id.to_string()),
        fees_waived: money_text(plan.fees_waived),
        installments: plan_lines(&plan.installments),
        total: money_text(plan.total()),
        reason: plan.reason.clone(),
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ContactBody {
    order_id: String,
    channel: ContactChannel,
    /// Who was contacted: only `borrower` (or a named `guarantor`) about the debt.
    person: ContactPerson,
    outcome: ContactOutcome,
    /// The officer's note, at most 500 characters.
    #[serde(default)]
    note: String,
    /// The next action's day, YYYY-MM-DD, not in the past.
    #[serde(default)]
    next_action_on: Option<NaiveDate>,
    /// `sms` only, and required there: the id of one of the lender's collection texts
    /// (the record answers them); the borrower is texted it within the contact hours.
    #[serde(default)]
    template: Option<String>,
}

#[utoipa::path(
    post,
    path = "/admin/api/collections/contact",
    tag = "auditor",
    summary = "Log a collection contact",
    description = "Decided by the fair-collection guard (P15): 50001 outside the contact \
                   hours (PH 06:00–22:00 Manila unless more than 15 days past due or the \
                   borrower chose other hours; TH 08:00–20:00, 18:00 at weekends, once a \
                   day), 50002 for anyone but the borrower or a named guarantor. A refused \
                   attempt is kept in the record. 10004 a loan not disbursed, a note over \
                   500 characters or a past next-action day; 40007 unknown order.",
    security(("bearer" = [])),
    request_body = ContactBody,
    responses((status = 200, description = "Envelope, data null", body = Envelope<Null>))
)]
pub(super) async fn log_contact(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<ContactBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let contact = Contact {
        officer_id: auditor.auditor_id,
        channel: body.channel,
        person: body.person,
        outcome: body.outcome,
        note: body.note,
        next_action_on: body.next_action_on,
        template: body.template,
    };
    let events = state
        .execute(
            &state.orders,
            &order_id,
            || OrderCommand::LogContact(contact.clone()),
            Actor::Auditor(auditor.auditor_id),
            &request_id(),
        )
        .await?;
    // The refusal is recorded (audit trail) and answered with its code.
    let refused = events.iter().find_map(|e| match &e.payload {
        OrderEvent::ContactRefused { breach, .. } => Some(contact_refusal(breach)),
        _ => None,
    });
    match refused {
        Some(error) => Err(error.into()),
        None => Ok(ok(Null)),
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct AssignBody {
    order_id: String,
    /// The collector's (auditor's) id; empty to unassign.
    #[serde(default)]
    collector: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/collections/assign",
    tag = "auditor",
    summary = "Assign a late loan to a collector",
    description = "A repeat changes nothing. 40007 unknown order or collector; 10004 a loan \
                   not disbursed.",
    security(("bearer" = [])),
    request_body = AssignBody,
    responses((status = 200, description = "Envelope, data null", body = Envelope<Null>))
)]
pub(super) async fn assign_collector(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<AssignBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let collector = match body.collector.trim() {
        "" => None,
        id => Some(Uuid::parse_str(id).map_err(|_| not_found("collector"))?),
    };
    if let Some(id) = collector {
        let known = queries::auditor_names(state.read_models()).await?;
        if !known.contains_key(&id.to_string()) {
            return Err(not_found("collector"));
        }
    }
    let by = auditor.auditor_id;
    auditor_command(&state, &state.orders, &auditor, &order_id, || {
        OrderCommand::AssignCollector { collector, by }
    })
    .await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct PromiseBody {
    order_id: String,
    /// Amount promised: a decimal string, at most what is owed.
    #[schema(value_type = String, pattern = r"^[0-9]{1,9}(\.[0-9]{1,2})?$", example = "1000.00")]
    amount: Amount,
    /// The day by which it is paid, YYYY-MM-DD, today to 30 days ahead.
    date: NaiveDate,
}

#[utoipa::path(
    post,
    path = "/admin/api/collections/promise",
    tag = "auditor",
    summary = "Take a promise to pay",
    description = "The borrower's promise, taken by the officer during a contact. 50004 when \
                   the amount is not above 0 and at most what is owed, the day is not from \
                   today to 30 days ahead, or a promise is already open; 10004 a loan not \
                   disbursed; 40007 unknown order.",
    security(("bearer" = [])),
    request_body = PromiseBody,
    responses((status = 200, description = "Envelope, data null", body = Envelope<Null>))
)]
pub(super) async fn take_promise(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<PromiseBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let (amount, date) = (body.amount.value(), body.date);
    let by = PromiseMaker::Officer {
        officer_id: auditor.auditor_id,
    };
    auditor_command(&state, &state.orders, &auditor, &order_id, || {
        OrderCommand::PromiseToPay { amount, date, by }
    })
    .await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ChargeOffBody {
    order_id: String,
    /// Why (required, at most 500 characters).
    reason: String,
}

/// Where a four-eyes charge-off (or its reversal) stands after this call.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct FourEyesData {
    /// True when it took effect with this call (the second officer's).
    done: bool,
    /// True when this call proposed it and another officer must confirm.
    awaiting_second_officer: bool,
}

/// Runs a four-eyes command; `done` when `effect` is among its events.
async fn four_eyes(
    state: &AppState,
    auditor: &Auditor,
    order_id: &str,
    command: impl Fn() -> OrderCommand,
    effect: fn(&OrderEvent) -> bool,
    proposal: fn(&OrderEvent) -> bool,
) -> Result<Response, ApiError> {
    let events = state
        .execute(
            &state.orders,
            order_id,
            command,
            Actor::Auditor(auditor.auditor_id),
            &request_id(),
        )
        .await?;
    let has = |matches: fn(&OrderEvent) -> bool| events.iter().any(|e| matches(&e.payload));
    Ok(ok(FourEyesData {
        done: has(effect),
        awaiting_second_officer: has(proposal),
    }))
}

#[utoipa::path(
    post,
    path = "/admin/api/collections/chargeOff",
    tag = "auditor",
    summary = "Propose or confirm a charge-off",
    description = "The first officer proposes (the loan at or past the configured days past \
                   due, default 180), another confirms: the outstanding leaves the books; the \
                   borrower still owes it and later payments are recoveries. 50006 the same \
                   officer confirming; 10004 too early, no reason, or not a disbursed loan; \
                   40007 unknown order.",
    security(("bearer" = [])),
    request_body = ChargeOffBody,
    responses((status = 200, description = "Envelope, where it stands", body = Envelope<Option<FourEyesData>>))
)]
pub(super) async fn charge_off(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<ChargeOffBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let officer_id = auditor.auditor_id;
    four_eyes(
        &state,
        &auditor,
        &order_id,
        || OrderCommand::ChargeOff {
            officer_id,
            reason: body.reason.clone(),
        },
        |e| matches!(e, OrderEvent::LoanChargedOff { .. }),
        |e| matches!(e, OrderEvent::ChargeOffProposed { .. }),
    )
    .await
}

#[utoipa::path(
    post,
    path = "/admin/api/collections/reverseChargeOff",
    tag = "auditor",
    summary = "Propose or confirm the reversal of a charge-off",
    description = "The same four eyes as the charge-off: what is still owed (written off less \
                   recovered) goes back on the books. 50006 the same officer confirming; 10004 \
                   no reason or a loan not charged off; 40007 unknown order.",
    security(("bearer" = [])),
    request_body = ChargeOffBody,
    responses((status = 200, description = "Envelope, where it stands", body = Envelope<Option<FourEyesData>>))
)]
pub(super) async fn reverse_charge_off(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<ChargeOffBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let officer_id = auditor.auditor_id;
    four_eyes(
        &state,
        &auditor,
        &order_id,
        || OrderCommand::ReverseChargeOff {
            officer_id,
            reason: body.reason.clone(),
        },
        |e| matches!(e, OrderEvent::ChargeOffReversed { .. }),
        |e| matches!(e, OrderEvent::ChargeOffReversalProposed { .. }),
    )
    .await
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase")]
pub(super) struct BookBody {
    /// The moment (RFC 3339), or a day (YYYY-MM-DD: its end, 23:59:59 on the profile's
    /// local calendar, which the loans' days follow); omitted: now.
    #[serde(default)]
    as_of: Option<String>,
}

/// The moment `text` names: an RFC 3339 time, or the end of a day in `zone`.
fn moment(text: &str, zone: chrono_tz::Tz) -> Option<DateTime<Utc>> {
    if let Ok(at) = DateTime::parse_from_rfc3339(text) {
        return Some(at.with_timezone(&Utc));
    }
    let day = NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
    let end = day
        .and_hms_opt(23, 59, 59)?
        .and_local_timezone(zone)
        .latest()?;
    Some(end.with_timezone(&Utc))
}

#[utoipa::path(
    post,
    path = "/admin/api/collections/book",
    tag = "auditor",
    summary = "The book by delinquency bucket, as of a moment",
    description = "Every loan on the books folded from its events up to `asOf`: its bucket \
                   then and what it owed, beside the ledger's loan receivable of the same \
                   moment (they agree); loans charged off by then apart. 10004 an `asOf` that \
                   is neither a time nor a day, or in the future.",
    security(("bearer" = [])),
    request_body = Option<BookBody>,
    responses((status = 200, description = "Envelope, the book", body = Envelope<Option<BookAsOf>>))
)]
pub(super) async fn book(
    State(state): State<AppState>,
    _auditor: Auditor,
    OptionalJson(body): OptionalJson<BookBody>,
) -> Result<Response, ApiError> {
    let now = state.now();
    let zone = CompliancePolicy::contact_rules(&state.env.compliance_profile).time_zone;
    let as_of = match body.as_of.filter(|t| !t.trim().is_empty()) {
        None => now,
        Some(text) => moment(text.trim(), zone)
            .filter(|at| *at <= now)
            .ok_or_else(|| {
                ApiError::bad_input("asOf", "a past time (RFC 3339) or day (YYYY-MM-DD)")
            })?,
    };
    let report = projections::book::delinquency_as_of(
        state.read_models(),
        &state.config.delinquency_buckets,
        as_of,
    )
    .await?;
    Ok(ok(report))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct WaiverBody {
    order_id: String,
    /// `fees` (overdue fees) or `interest`.
    kind: WaiverKind,
    /// How much: a decimal string, at most what is unpaid of that kind.
    #[schema(value_type = String, pattern = r"^[0-9]{1,9}(\.[0-9]{1,2})?$", example = "100.00")]
    amount: Amount,
    /// Why (required, at most 500 characters).
    reason: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/collections/waive",
    tag = "auditor",
    summary = "Waive overdue fees or interest",
    description = "A reduction only (P11). Above the configured amount (default 1,000) the \
                   first officer proposes and another confirms the same waiver. 10004 an \
                   amount not above 0 or above what is unpaid of that kind, no reason, a loan \
                   not disbursed or charged off; 50006 the proposing officer confirming; \
                   40007 unknown order.",
    security(("bearer" = [])),
    request_body = WaiverBody,
    responses((status = 200, description = "Envelope, where it stands", body = Envelope<Option<FourEyesData>>))
)]
pub(super) async fn waive(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<WaiverBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let officer_id = auditor.auditor_id;
    let (kind, amount) = (body.kind, body.amount.value());
    four_eyes(
        &state,
        &auditor,
        &order_id,
        || OrderCommand::WaiveCharges {
            officer_id,
            kind,
            amount,
            reason: body.reason.clone(),
        },
        |e| matches!(e, OrderEvent::ChargesWaived { .. }),
        |e| matches!(e, OrderEvent::WaiverProposed { .. }),
    )
    .await
}
