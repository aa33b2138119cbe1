//! `processed_webhook`: the payment notifications already applied, by event id, so a
//! redelivery is answered without doing anything again. A notification's claim is
//! appended with its effect, in the same transaction
//! (`projections::store::with_side_insert`, [`claim_of`]), or alone when its effect
//! appended nothing ([`claim`]).

use chrono::{DateTime, Utc};
use projections::projection::time_text;
use projections::store::{Database, SideInsert};
use uuid::Uuid;

use super::with_pool;
use crate::payment::webhook::WebhookEvent;

/// Whether the event `event_id` has been claimed.
pub async fn already_processed(database: &Database, event_id: &str) -> Result<bool, sqlx::Error> {
    let sql = "select count(*) from processed_webhook where event_id = $1";
    let count: i64 = with_pool!(database, pool =>
        sqlx::query_scalar(sql).bind(event_id).fetch_one(pool).await)?;
    Ok(count > 0)
}

/// The `processed_webhook` row that claims `event` (of `session_id`, received at
/// `received_at`): a second claim of the same id writes nothing.
pub fn claim_of(event: &WebhookEvent, session_id: Uuid, received_at: DateTime<Utc>) -> SideInsert {
    SideInsert {
        table: "processed_webhook",
        columns: &[
            "event_id",
            "session_id",
            "payment_ref",
            "outcome",
            "received_at",
        ],
        key: "event_id",
        values: vec![
            event.event_id.clone(),
            session_id.to_string(),
            event.payment_ref.clone(),
            event.outcome.as_str().to_string(),
            time_text(received_at),
        ],
    }
}

/// Writes `claim` ([`claim_of`]) on its own, for an effect that appended nothing.
pub async fn claim(database: &Database, claim: &SideInsert) -> Result<u64, sqlx::Error> {
    let sql = claim.sql(1);
    with_pool!(database, pool => {
        let mut query = sqlx::query(&sql);
        for value in &claim.values {
            query = query.bind(value);
        }
        query.execute(pool).await.map(|r| r.rows_affected())
    })
}
