//! Rebuilding read models from the log, and fingerprinting them.
//!
//! A rebuild folds the whole log into memory with the same projection code the live
//! workers run ([`crate::rows::MemoryStore`]), then replaces the tables and moves the
//! checkpoint in one transaction: readers see the old tables or the new, never a mix.
//! (On PostgreSQL that transaction holds other log readers back while it runs.)

use std::sync::Arc;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::consumer::runner::{begin, set_checkpoint};
use crate::projection::{Projection, ProjectionError};
use crate::rows::{dump_table, MemoryStore, Row, Value};
use crate::store::{Database, EventLog, LogPosition, StoredEvent};

/// Events read per page while folding the log: large pages make the query's round trip
/// negligible, and the pages queued below bound the memory held for events.
const PAGE: i64 = 10_000;

/// Pages read ahead of the folds, and queued for each projection's fold.
const PAGES_AHEAD: usize = 2;

/// A page of the log, shared by the folds of every projection.
type Page = Arc<Vec<StoredEvent>>;

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
///
/// Projections share no rows, so each one folds in a task of its own while another
/// task reads (and decodes) the next page: on a multi-threaded runtime they run side
/// by side. Each projection still sees every event in log order, so the result is the
/// one a single sequential fold gives.
pub async fn fold_log(
    database: &Database,
    projections: &[Arc<dyn Projection>],
    until: Option<LogPosition>,
    progress: &mut (dyn FnMut(usize) + Send),
) -> Result<Folded, ProjectionError> {
    let mut pages = read_pages(database, until);
    let (feeds, folds): (Vec<_>, Vec<_>) = projections.iter().cloned().map(spawn_fold).unzip();
    let mut last = LogPosition::START;
    let mut events = 0;
    let mut outcome = Ok(());
    'pages: while let Some(page) = pages.recv().await {
        let page = match page {
            Ok(page) => page,
            Err(error) => {
                outcome = Err(error);
                break;
            }
        };
        for feed in &feeds {
            // A closed feed means that fold failed: its error is collected below.
            if feed.send(page.clone()).await.is_err() {
                break 'pages;
            }
        }
        if let Some(event) = page.last() {
            last = event.position;
        }
        events += page.len();
        progress(events);
    }
    // Closing the feeds ends the folds; closing `pages` stops the reader.
    drop(feeds);
    drop(pages);
    let mut stores = Vec::with_capacity(folds.len());
    for fold in folds {
        match join(fold).await {
            Ok(store) => stores.push(store),
            Err(error) => {
                if outcome.is_ok() {
                    outcome = Err(error);
                }
            }
        }
    }
    outcome?;
    Ok(Folded {
        stores,
        last,
        events,
    })
}

/// Reads the log (up to and including `until`) page by page in a task of its own, a
/// few pages ahead of the folds.
fn read_pages(
    database: &Database,
    until: Option<LogPosition>,
) -> mpsc::Receiver<Result<Page, ProjectionError>> {
    let log = EventLog::new(database);
    let (sender, receiver) = mpsc::channel(PAGES_AHEAD);
    tokio::spawn(async move {
        let mut after = LogPosition::START;
        loop {
            let mut page = match log.read_after(after, PAGE).await {
                Ok(page) => page,
                Err(error) => {
                    let _ = sender.send(Err(error.into())).await;
                    return;
                }
            };
            let Some(newest) = page.last().map(|event| event.position) else {
                return;
            };
            after = newest;
            let end = until.and_then(|until| page.iter().position(|e| e.position > until));
            if let Some(end) = end {
                page.truncate(end);
            }
            if !page.is_empty() && sender.send(Ok(Arc::new(page))).await.is_err() {
                return;
            }
            if end.is_some() {
                return;
            }
        }
    });
    receiver
}

/// Starts folding pages into a fresh [`MemoryStore`] with `projection`; the fold ends
/// when the feed closes, or at the first error (which closes the feed).
fn spawn_fold(
    projection: Arc<dyn Projection>,
) -> (
    mpsc::Sender<Page>,
    JoinHandle<Result<MemoryStore, ProjectionError>>,
) {
    let (feed, mut pages) = mpsc::channel::<Page>(PAGES_AHEAD);
    let fold = tokio::spawn(async move {
        let mut store = MemoryStore::default();
        while let Some(page) = pages.recv().await {
            projection.apply_all(&mut store, &page).await?;
            // The last fold done with a page frees its events, a few percent of the
            // fold's time; the slowest fold (the orders) is usually that last one and
            // holds up the whole rebuild, so the freeing goes to another thread.
            if let Ok(events) = Arc::try_unwrap(page) {
                tokio::task::spawn_blocking(move || drop(events));
            }
        }
        Ok(store)
    });
    (feed, fold)
}

/// The outcome of a spawned task; a panic in it goes on in the caller.
async fn join<T>(task: JoinHandle<Result<T, ProjectionError>>) -> Result<T, ProjectionError> {
    match task.await {
        Ok(outcome) => outcome,
        Err(error) => match error.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(error) => panic!("rebuild task cancelled: {error}"),
        },
    }
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
    /// Part of `elapsed` spent reading and folding the log (shared by every
    /// projection of the rebuild: they fold together).
    pub fold: Duration,
    /// Part of `elapsed` spent replacing the tables and committing (shared too: one
    /// transaction writes every projection).
    pub write: Duration,
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
///
/// Readers see the old rows or the new ones, never a mix: on SQLite the tables are
/// emptied and refilled in one transaction with the checkpoints (the folded rows,
/// unique by key, go in with bulk inserts rather than one upsert each); on
/// PostgreSQL they are written into shadow tables several at once and swapped in
/// with the checkpoints in one transaction ([`crate::rows::shadow`], issue 14 item 5).
pub async fn rebuild(
    database: &Database,
    projections: &[Arc<dyn Projection>],
    progress: &mut (dyn FnMut(usize) + Send),
) -> Result<Vec<RebuildReport>, ProjectionError> {
    let started = Instant::now();
    let Folded {
        stores,
        last,
        events,
    } = fold_log(database, projections, None, progress).await?;
    let fold = started.elapsed();
    let mut reports = match database {
        Database::Postgres(pool) => write_in_parallel(pool, projections, stores, last).await?,
        Database::Sqlite { .. } => write_in_one(database, projections, stores, last).await?,
    };
    let elapsed = started.elapsed();
    for report in &mut reports {
        report.events = events;
        report.fold = fold;
        report.elapsed = elapsed;
        report.write = elapsed.saturating_sub(fold);
    }
    Ok(reports)
}

/// A report of `rows` rows for `projection`, its times filled in by [`rebuild`].
fn report(projection: &'static str, rows: usize) -> RebuildReport {
    RebuildReport {
        projection,
        events: 0,
        rows,
        elapsed: Duration::ZERO,
        fold: Duration::ZERO,
        write: Duration::ZERO,
    }
}

/// PostgreSQL: every table into a shadow of its own, several at once, then swapped
/// in with the checkpoints in one transaction ([`crate::rows::shadow`]).
async fn write_in_parallel(
    pool: &sqlx::PgPool,
    projections: &[Arc<dyn Projection>],
    stores: Vec<MemoryStore>,
    last: LogPosition,
) -> Result<Vec<RebuildReport>, ProjectionError> {
    let mut tables = Vec::new();
    let mut reports = Vec::new();
    for (projection, mut store) in projections.iter().zip(stores) {
        let rows = projection.tables().iter().map(|t| store.len(t.name)).sum();
        reports.push(report(projection.name(), rows));
        for table in projection.tables() {
            let rows = store.split_off(table.name);
            tables.push(crate::rows::shadow::TableRows { table, rows });
        }
    }
    let names: Vec<&'static str> = projections.iter().map(|p| p.name()).collect();
    crate::rows::shadow::write(pool, tables, &names, last).await?;
    Ok(reports)
}

/// SQLite (one writer): every table emptied and refilled in one transaction with
/// the checkpoints.
async fn write_in_one(
    database: &Database,
    projections: &[Arc<dyn Projection>],
    stores: Vec<MemoryStore>,
    last: LogPosition,
) -> Result<Vec<RebuildReport>, ProjectionError> {
    let mut tx = begin(database).await?;
    let mut reports = Vec::new();
    let mut freeing = Vec::new();
    for (projection, mut store) in projections.iter().zip(stores) {
        let mut rows = 0;
        for table in projection.tables() {
            let deleting = Instant::now();
            tx.delete_rows(table).await?;
            let inserting = Instant::now();
            rows += tx.insert_rows(table, store.rows(table.name)).await?;
            tracing::debug!(
                table = table.name,
                delete = ?(inserting - deleting),
                insert = ?inserting.elapsed(),
                "rebuilt table"
            );
            // Freeing a table's rows takes a while (a million rows: about a second);
            // another thread does it while the database works on the next table.
            let written = store.split_off(table.name);
            freeing.push(tokio::task::spawn_blocking(move || drop(written)));
        }
        set_checkpoint(&mut tx, projection.name(), last).await?;
        reports.push(report(projection.name(), rows));
    }
    tx.commit().await?;
    for task in freeing {
        // Dropping rows cannot fail; a panic there would be a bug worth seeing.
        if let Err(error) = task.await {
            std::panic::resume_unwind(error.into_panic());
        }
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
