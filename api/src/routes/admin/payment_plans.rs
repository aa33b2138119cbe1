//! Payment plans for hardship, the officers' side (issue 53, P16): one officer
//! proposes a plan (everything owed spread over new installments, overdue fees waived
//! in part or whole), a second approves it; the borrower then signs it in the app
//! (`/jackey/loan/signPaymentPlan`). Every rule is the Order's
//! (`aggregates::order::PlanRequest`).

#[allow(clippy::wildcard_imports)]
use super::*;
use aggregates::order::PlanRequest;
use chrono::NaiveDate;

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ProposePlanBody {
    order_id: String,
    /// How many installments, 1 to 12.
    installments: u32,
    /// Days between them, 1 to 31.
    every_days: u32,
    /// The first one's day, YYYY-MM-DD, today to 30 days ahead (the last within 365).
    first_due: NaiveDate,
    /// Overdue fees waived: a decimal string from 0 to the fees unpaid.
    #[schema(value_type = String, pattern = r"^[0-9]{1,9}(\.[0-9]{1,2})?$", example = "120.00")]
    fees_waived: Amount,
    /// Why (required, at most 500 characters).
    reason: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/collections/proposePlan",
    tag = "auditor",
    summary = "Propose a payment plan",
    description = "Everything the loan owes spread over new installments, with no interest \
                   or fee added and overdue fees waived in part or whole (P16). Replaces a \
                   plan not yet signed; another officer must approve it before the borrower \
                   can sign. 10004 a count, interval, first day or waiver out of bounds, no \
                   reason, or a loan not disbursed or charged off; 40007 unknown order.",
    security(("bearer" = [])),
    request_body = ProposePlanBody,
    responses((status = 200, description = "Envelope, data null", body = Envelope<Null>))
)]
pub(super) async fn propose_plan(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<ProposePlanBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let officer_id = auditor.auditor_id;
    let request = PlanRequest {
        installments: body.installments,
        every_days: body.every_days,
        first_due: body.first_due,
        fees_waived: body.fees_waived.value(),
        reason: body.reason,
    };
    auditor_command(&state, &state.orders, &auditor, &order_id, || {
        OrderCommand::ProposePaymentPlan {
            officer_id,
            request: request.clone(),
        }
    })
    .await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ApprovePlanBody {
    order_id: String,
}

#[utoipa::path(
    post,
    path = "/admin/api/collections/approvePlan",
    tag = "auditor",
    summary = "Approve the payment plan proposed",
    description = "The second pair of eyes: the borrower is then offered the plan to sign. \
                   A repeat once approved changes nothing. 50006 the proposing officer; \
                   10004 no plan proposed, or a loan not disbursed or charged off; 40007 \
                   unknown order.",
    security(("bearer" = [])),
    request_body = ApprovePlanBody,
    responses((status = 200, description = "Envelope, data null", body = Envelope<Null>))
)]
pub(super) async fn approve_plan(
    State(state): State<AppState>,
    auditor: Auditor,
    ApiJson(body): ApiJson<ApprovePlanBody>,
) -> Result<Response, ApiError> {
    let order_id = record_id(&body.order_id, "order")?;
    let officer_id = auditor.auditor_id;
    auditor_command(&state, &state.orders, &auditor, &order_id, || {
        OrderCommand::ApprovePaymentPlan { officer_id }
    })
    .await
}
