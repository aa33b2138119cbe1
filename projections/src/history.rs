//! An order's history as auditors and regulators see it (P9): every event with its
//! time, actor and payload, and the order's state after it. The fold is the
//! aggregate's own (`aggregates::history`), so there is one answer to "what did this
//! order look like as of event N" — here, in the console and in `replay-tool`.

use aggregates::history::states_after_each;
use aggregates::order::Order;
use serde::Serialize;
use serde_json::Value as Json;

use crate::projection::ProjectionError;
use crate::store::{load_events, Database, RECORDED_AT};

/// One event of an order's history and the state it left.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    /// 1-based sequence within the order.
    pub sequence: usize,
    /// When it was committed (RFC 3339 UTC), if recorded.
    pub time: Option<String>,
    /// `user:<id>`, `auditor:<id>` or `system`.
    pub actor: String,
    /// Event type.
    #[serde(rename = "type")]
    pub event_type: String,
    /// The event as stored.
    pub payload: Json,
    /// The full order state after this event.
    pub state: Order,
}

/// The order's events and the state after each; empty when the order does not exist.
pub async fn order_history(
    database: &Database,
    order_id: &str,
) -> Result<Vec<HistoryEntry>, ProjectionError> {
    let envelopes = load_events::<Order>(database, order_id)
        .await
        .map_err(|error| ProjectionError::Load(error.to_string()))?;
    let states = states_after_each::<Order>(envelopes.iter().map(|e| e.payload.clone()));
    Ok(envelopes
        .into_iter()
        .zip(states)
        .map(|(envelope, state)| {
            let event_type = cqrs_es::DomainEvent::event_type(&envelope.payload);
            HistoryEntry {
                sequence: envelope.sequence,
                time: envelope.metadata.get(RECORDED_AT).cloned(),
                actor: envelope
                    .metadata
                    .get("actor")
                    .cloned()
                    .unwrap_or_else(|| "system".to_string()),
                event_type,
                payload: serde_json::to_value(&envelope.payload).expect("events serialize"),
                state,
            }
        })
        .collect())
}

/// The state as of event `sequence` (the last event when beyond the end).
pub fn state_as_of(history: &[HistoryEntry], sequence: usize) -> Option<&Order> {
    if sequence == 0 {
        return None;
    }
    history
        .get(sequence.min(history.len()).checked_sub(1)?)
        .map(|entry| &entry.state)
}

/// The regulator's export of an order (`replay-tool export`): its id, its events
/// with their metadata, and its final state.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryExport<'a> {
    /// The order id.
    pub order_id: &'a str,
    /// When the export was made: RFC 3339 UTC.
    pub exported_at: String,
    /// Every event, oldest first.
    pub events: Vec<ExportedEvent<'a>>,
    /// The state after the last event; null for an order without events.
    pub final_state: Option<&'a Order>,
}

/// One event of a [`HistoryExport`]: a [`HistoryEntry`] without the state after it.
#[derive(Debug, Clone, Serialize)]
pub struct ExportedEvent<'a> {
    /// 1-based sequence within the order.
    pub sequence: usize,
    /// When it was committed (RFC 3339 UTC), if recorded.
    pub time: Option<&'a str>,
    /// `user:<id>`, `auditor:<id>` or `system`.
    pub actor: &'a str,
    /// Event type.
    #[serde(rename = "type")]
    pub event_type: &'a str,
    /// The event as stored.
    pub payload: &'a Json,
}

/// The regulator's export of `history`, made now (the infrastructure clock).
pub fn export<'a>(order_id: &'a str, history: &'a [HistoryEntry]) -> HistoryExport<'a> {
    HistoryExport {
        order_id,
        exported_at: crate::projection::time_text(crate::clock::infrastructure().now()),
        events: history
            .iter()
            .map(|entry| ExportedEvent {
                sequence: entry.sequence,
                time: entry.time.as_deref(),
                actor: &entry.actor,
                event_type: &entry.event_type,
                payload: &entry.payload,
            })
            .collect(),
        final_state: history.last().map(|entry| &entry.state),
    }
}
