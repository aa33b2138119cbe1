//! Events written straight into the log, bypassing the aggregates: only the workload
//! generator (`crate::workload`) does this, to seed a store for benchmarks and replay
//! tests with a million events in minutes. The events are the ones the aggregates
//! would have written (it runs them); only the writing is bulk.

use serde_json::Value as Json;

use super::Database;

/// One event to write.
pub struct SeedEvent {
    /// `Order`, `User`, `Wallet`.
    pub aggregate_type: &'static str,
    /// The aggregate's id.
    pub aggregate_id: String,
    /// Its number within the aggregate, from 1.
    pub sequence: i64,
    /// The event's name.
    pub event_type: String,
    /// The serialized event.
    pub payload: Json,
    /// Its metadata.
    pub metadata: Json,
}

/// Rows a multi-row insert carries (7 parameters each, under SQLite's limit).
const ROWS_PER_STATEMENT: usize = 400;

/// Appends `events` in multi-row inserts, in one transaction (all or none).
pub async fn insert(database: &Database, events: &[SeedEvent]) -> Result<(), sqlx::Error> {
    // The payload columns are `text` on SQLite and `json` on PostgreSQL: each backend
    // binds them its own way, the rest is the same.
    macro_rules! insert_with {
        ($pool:expr, $json:expr) => {{
            let mut tx = $pool.begin().await?;
            for rows in events.chunks(ROWS_PER_STATEMENT) {
                let sql = format!(
                    "insert into events (aggregate_type, aggregate_id, sequence, event_type, \
                     event_version, payload, metadata) values {}",
                    placeholders(rows.len())
                );
                let mut query = sqlx::query(&sql);
                for e in rows {
                    query = query
                        .bind(e.aggregate_type)
                        .bind(&e.aggregate_id)
                        .bind(e.sequence)
                        .bind(&e.event_type)
                        .bind("1.0")
                        .bind($json(&e.payload))
                        .bind($json(&e.metadata));
                }
                query.execute(&mut *tx).await?;
            }
            tx.commit().await?;
        }};
    }
    match database {
        Database::Sqlite { pool, .. } => insert_with!(pool, |value: &Json| value.to_string()),
        Database::Postgres(pool) => insert_with!(pool, sqlx::types::Json::<&Json>),
    }
    Ok(())
}

/// `($1, …, $7), ($8, …)`: the placeholders of `rows` rows.
fn placeholders(rows: usize) -> String {
    (0..rows)
        .map(|row| {
            let base = row * 7;
            let cells: Vec<String> = (1..=7).map(|c| format!("${}", base + c)).collect();
            format!("({})", cells.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}
