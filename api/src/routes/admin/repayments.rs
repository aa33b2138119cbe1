//! Repayments an auditor records by hand (four eyes above the limit, PRODUCT.md 6).

#[allow(clippy::wildcard_imports)]
use super::*;

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct ManualRepaymentBody {
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
    params(("Idempotency-Key" = Option<String>, Header, description = "repeat-safe key, 1 to 200 characters (any other answers 10004)")),
    request_body = ManualRepaymentBody,
    responses((status = 200, description = "Envelope, the answer", body = Envelope<Option<ManualRepaymentData>>))
)]
pub(super) async fn manual_repayment(
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
