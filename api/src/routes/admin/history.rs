//! An order's history replayed from the log as of any of its events (PRODUCT.md 7),
//! with account numbers masked.

#[allow(clippy::wildcard_imports)]
use super::*;

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct HistoryBody {
    order_id: String,
    #[serde(default)]
    at_sequence: Option<usize>,
}

#[utoipa::path(
    post,
    path = "/admin/api/orders/history",
    tag = "auditor",
    summary = "An order's event history",
    description = "The state as of `atSequence`; account numbers masked to their last four digits.",
    security(("bearer" = [])),
    request_body = HistoryBody,
    responses((status = 200, description = "Envelope, the answer", body = Envelope<Option<OrderHistory>>))
)]
pub(super) async fn history(
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
    let mut events: Vec<HistoryEvent> = history
        .iter()
        .map(|entry| HistoryEvent {
            sequence: entry.sequence,
            time: entry.time.clone(),
            actor: entry.actor.clone(),
            actor_name: entry
                .actor
                .strip_prefix("auditor:")
                .and_then(|id| names.get(id))
                .cloned(),
            event_type: entry.event_type.clone(),
            payload: entry.payload.clone(),
        })
        .collect();
    let mut order_state = serde_json::to_value(order)?;
    mask_account_numbers(&mut order_state);
    for event in &mut events {
        mask_account_numbers(&mut event.payload);
    }
    Ok(ok(OrderHistory {
        order_id,
        events,
        at_sequence: at.min(history.len()),
        status: order.status.code(),
        state: order_state,
    }))
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
