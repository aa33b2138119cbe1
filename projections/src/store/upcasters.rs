//! Upcasters: events of earlier versions brought to the current form as the command
//! side loads them (DESIGN.md "Events"). Each says what it fills in and from where.

use cqrs_es::persist::{EventUpcaster, SerializedEvent};
use serde_json::Value;

use super::RECORDED_AT;

/// Every upcaster the event store applies, in order.
pub fn all() -> Vec<Box<dyn EventUpcaster>> {
    vec![Box::new(ClosedAt)]
}

/// `User.ApplicationClosed` without `at` (written before the retention period needed
/// it, PRODUCT.md 12.6) gets the time the event was committed, its `recorded_at`.
struct ClosedAt;

impl EventUpcaster for ClosedAt {
    fn can_upcast(&self, event_type: &str, _event_version: &str) -> bool {
        event_type == "ApplicationClosed"
    }

    fn upcast(&self, mut event: SerializedEvent) -> SerializedEvent {
        let recorded = event.metadata.get(RECORDED_AT).cloned();
        if let (Some(body), Some(recorded)) = (
            event
                .payload
                .get_mut("ApplicationClosed")
                .and_then(Value::as_object_mut),
            recorded,
        ) {
            if body.get("at").is_none_or(Value::is_null) {
                body.insert("at".to_string(), recorded);
            }
        }
        event
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn closed(body: Value) -> SerializedEvent {
        SerializedEvent {
            aggregate_id: "u1".into(),
            sequence: 9,
            aggregate_type: "User".into(),
            event_type: "ApplicationClosed".into(),
            event_version: "1.0".into(),
            payload: json!({ "ApplicationClosed": body }),
            metadata: json!({ "recorded_at": "2021-03-04T05:06:07.000000Z" }),
        }
    }

    #[test]
    fn an_old_close_gets_its_commit_time_and_a_new_one_keeps_its_own() {
        let old = ClosedAt.upcast(closed(
            json!({"order_id": "0190a000-0000-7000-8000-000000000001", "refusal": null}),
        ));
        assert_eq!(
            old.payload["ApplicationClosed"]["at"],
            "2021-03-04T05:06:07.000000Z"
        );
        let event: aggregates::user::UserEvent = serde_json::from_value(old.payload).unwrap();
        let aggregates::user::UserEvent::ApplicationClosed { at, .. } = event else {
            panic!("still an ApplicationClosed");
        };
        assert_eq!(at.unwrap().to_rfc3339(), "2021-03-04T05:06:07+00:00");

        let new = ClosedAt.upcast(closed(
            json!({"order_id": "o1", "at": "2026-01-01T00:00:00Z"}),
        ));
        assert_eq!(
            new.payload["ApplicationClosed"]["at"],
            "2026-01-01T00:00:00Z"
        );
    }
}
