//! Rebuilding read models from the log, and fingerprinting them.
//!
//! A rebuild folds the whole log into memory with the same projection code the live
//! workers run ([`crate::rows::MemoryStore`]), then replaces the tables and moves the
//! checkpoint in one transaction: readers see the old tables or the new, never a mix.
//! (On PostgreSQL that transaction holds other log readers back while it runs.)

use std::sync::Arc;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::projection::{time_text, Projection, ProjectionError};
use crate::rows::{dump_table, MemoryStore, Row, RowStore, Value};
use crate::runner::begin;
use crate::store::{Database, EventLog, LogPosition};

/// Events read per page while folding the log.
const PAGE: i64 = 5_000;

/// The log folded into memory, one store per projection.
pub struct Folded {
    /// One store per projection, in the order given.
    pub stores: Vec<MemoryStore>,
    /// The last event folded (`START` when the log is empty).
    pub last: LogPosition,
    /// Events read.
    pub events: usize,
}

/// Folds the log, up to and including `until` when given, into memory.
/// `progress` is called after each page with the number of events read so far.
pub async fn fold_log(
    database: &Database,
    projections: &[Arc<dyn Projection>],
    until: Option<LogPosition>,
    progress: &mut (dyn FnMut(usize) + Send),
) -> Result<Folded, ProjectionError> {
    let log = EventLog::new(database);
    let mut stores = vec![MemoryStore::default(); projections.len()];
    let mut last = LogPosition::START;
    let mut events = 0;
    loop {
        let page = log.read_after(last, PAGE).await?;
        if page.is_empty() {
            break;
        }
        for event in &page {
            if until.is_some_and(|until| event.position > until) {
                return Ok(Folded {
                    stores,
                    last,
                    events,
                });
            }
            for (projection, store) in projections.iter().zip(stores.iter_mut()) {
                projection.apply(store, event).await?;
            }
            last = event.position;
            events += 1;
        }
        progress(events);
    }
    Ok(Folded {
        stores,
        last,
        events,
    })
}

/// What a rebuild did.
#[derive(Debug, Clone)]
pub struct RebuildReport {
    /// The projection.
    pub projection: &'static str,
    /// Events replayed.
    pub events: usize,
    /// Rows written.
    pub rows: usize,
    /// Wall time of the whole rebuild.
    pub elapsed: Duration,
}

impl RebuildReport {
    /// Events replayed per second.
    pub fn events_per_second(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        u64::try_from(self.events as u128 * 1_000_000 / micros).unwrap_or(u64::MAX)
    }
}

/// Drops and rebuilds the tables of `projections` from the log, and sets their
/// checkpoints to the last event replayed.
pub async fn rebuild(
    database: &Database,
    projections: &[Arc<dyn Projection>],
    progress: &mut (dyn FnMut(usize) + Send),
) -> Result<Vec<RebuildReport>, ProjectionError> {
    let started = Instant::now();
    let folded = fold_log(database, projections, None, progress).await?;
    let mut tx = begin(database).await?;
    let mut reports = Vec::new();
    for (projection, store) in projections.iter().zip(&folded.stores) {
        let mut rows = 0;
        for table in projection.tables() {
            tx.execute(&format!("delete from {}", table.name), &[])
                .await?;
            for row in store.rows(table.name) {
                tx.upsert(row.clone()).await?;
                rows += 1;
            }
        }
        tx.execute(
            "insert into projection_checkpoint (name, transaction_id, global_position, updated_at) \
             values ($1, $2, $3, $4) on conflict (name) do update set \
             transaction_id = excluded.transaction_id, global_position = excluded.global_position, \
             updated_at = excluded.updated_at",
            &[
                projection.name().into(),
                folded.last.transaction_id.into(),
                folded.last.global_position.into(),
                time_text(chrono::Utc::now()).into(),
            ],
        )
        .await?;
        reports.push(RebuildReport {
            projection: projection.name(),
            events: folded.events,
            rows,
            elapsed: Duration::ZERO,
        });
    }
    tx.commit().await?;
    let elapsed = started.elapsed();
    for report in &mut reports {
        report.elapsed = elapsed;
    }
    Ok(reports)
}

/// Canonical text of one row (tab-separated, tagged values) for hashing and reports.
pub fn row_text(row: &Row) -> String {
    row.values
        .iter()
        .map(|value| match value {
            Value::Text(text) => format!("t:{}", text.replace('\\', "\\\\").replace('\t', "\\t")),
            Value::Int(number) => format!("i:{number}"),
        })
        .collect::<Vec<_>>()
        .join("\t")
}

/// SHA-256 (hex) over every row of the projection's tables, in key order. Equal
/// hashes mean equal read models.
pub async fn tables_hash(
    database: &Database,
    projection: &dyn Projection,
) -> Result<String, ProjectionError> {
    let mut hasher = Sha256::new();
    for table in projection.tables() {
        hasher.update(table.name.as_bytes());
        hasher.update(b"\n");
        for row in dump_table(database, table).await? {
            hasher.update(row_text(&row).as_bytes());
            hasher.update(b"\n");
        }
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect())
}
