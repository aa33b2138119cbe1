//! The write half of a PostgreSQL rebuild, in parallel (issue 14 item 5).
//!
//! Each table's folded rows go into a shadow copy of it, `<table>__rebuild` (its
//! columns, defaults, checks and storage, its storage parameters and the privileges
//! granted on it), with `COPY` and then its keys and indexes,
//! several tables at once, each on a connection of its own. One transaction then
//! swaps every shadow in for its table, restores the names of the keys and indexes,
//! recreates the views over the tables (`ledger_balances`) and moves the
//! checkpoints: readers see the old tables or the new ones, never a mix, as with the
//! one-transaction write it replaces. A failure before the swap leaves the live
//! tables as they were and drops the shadows; a rebuild that died leaves shadows
//! that the next one replaces.

use std::sync::Arc;

use sqlx::PgPool;
use tokio::sync::Semaphore;

use crate::consumer::runner::set_checkpoint;
use crate::projection::ProjectionError;
use crate::rows::{copy_rows, MemoryStore, SqlTx, TableSpec, Value};
use crate::store::LogPosition;

/// Tables written at once: the machine's cores are shared by this process (formatting
/// `COPY` lines) and the server (parsing, indexing, compressing, WAL).
const WRITERS: usize = 3;

/// The shadow of `table`, and of each of its keys and indexes.
const SHADOW: &str = "__rebuild";

/// One table's folded rows.
pub struct TableRows {
    /// The table.
    pub table: &'static TableSpec,
    /// A store holding its rows (and no other table's).
    pub rows: MemoryStore,
}

/// A key (primary, unique, exclusion or foreign) of a table: its name and definition.
type Constraint = (String, String);

/// An index of a table that backs no constraint: its name and `CREATE INDEX` text.
type Index = (String, String);

/// Writes every table's rows into its shadow, swaps the shadows in and sets the
/// checkpoints of `projections` to `last`, in one transaction. Returns the rows
/// written.
///
/// # Errors
/// [`ProjectionError::Database`] when the server refuses a statement (nothing of
/// the live tables changed unless it was the swap's commit).
pub async fn write(
    pool: &PgPool,
    mut tables: Vec<TableRows>,
    projections: &[&'static str],
    last: LogPosition,
) -> Result<usize, ProjectionError> {
    let names: Vec<&'static str> = tables.iter().map(|t| t.table.name).collect();
    // One rebuild writes shadows at a time (an erasure's and the replay tool's would
    // otherwise drop each other's): the lock lasts as long as this transaction,
    // which ends however this function does.
    let mut one_at_a_time = pool.begin().await?;
    sqlx::query("select pg_advisory_xact_lock(hashtext('rebuild shadow tables'))")
        .execute(&mut *one_at_a_time)
        .await?;
    // The largest first, so that the last to finish is a small one. Large by bytes,
    // not rows: `order_detail`'s 56,000 rows (kB of JSON each, compressed on the way
    // in) took longer than `order_timeline`'s 600,000, and started last when sorted
    // by rows, alone at the end (bench/PROFILE.md, "the write's longest table first").
    largest_first(&mut tables);
    let writers = Arc::new(Semaphore::new(WRITERS));
    let mut fills = Vec::new();
    for TableRows { table, rows } in tables {
        let pool = pool.clone();
        // Taken here, not in the task, so that the tables start in the order sorted.
        let turn = writers
            .clone()
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        fills.push(tokio::spawn(async move {
            let _turn = turn;
            let written = fill(&pool, table, &rows).await;
            // Freeing a million rows takes a while: not on the runtime's threads.
            tokio::task::spawn_blocking(move || drop(rows));
            written
        }));
    }
    let mut rows = 0;
    let mut failed = None;
    for fill in fills {
        match fill.await.expect("a fill task does not panic") {
            Ok(written) => rows += written,
            Err(error) => failed = failed.or(Some(error)),
        }
    }
    let outcome = match failed {
        Some(error) => Err(error),
        None => swap_retrying(pool, &names, projections, last).await,
    };
    if let Err(error) = outcome {
        for name in &names {
            let drop = format!("drop table if exists {name}{SHADOW}");
            if let Err(cleanup) = sqlx::query(&drop).execute(pool).await {
                tracing::warn!(table = name, %cleanup, "shadow table left behind");
            }
        }
        return Err(error);
    }
    one_at_a_time.rollback().await?;
    Ok(rows)
}

/// Orders `tables` by [`weight`], the heaviest first.
fn largest_first(tables: &mut [TableRows]) {
    tables.sort_by_cached_key(|t| std::cmp::Reverse(weight(t)));
}

/// About the work of writing `rows`: their values' bytes, and a tuple's header and
/// index entries per row.
fn weight(rows: &TableRows) -> usize {
    /// A tuple's header and its index entries, about.
    const PER_ROW: usize = 64;
    rows.rows
        .rows(rows.table.name)
        .map(|row| {
            PER_ROW
                + row
                    .values
                    .iter()
                    .map(|value| match value {
                        Value::Text(text) => text.len(),
                        Value::Int(_) => 8,
                    })
                    .sum::<usize>()
        })
        .sum()
}

/// Creates `table`'s shadow, copies `rows` into it, then adds its keys and indexes
/// (faster than keeping them up to date row by row), in one transaction.
async fn fill(
    pool: &PgPool,
    table: &'static TableSpec,
    rows: &MemoryStore,
) -> Result<usize, ProjectionError> {
    let name = table.name;
    let shadow = format!("{name}{SHADOW}");
    let mut tx = pool.begin().await?;
    let constraints = constraints(&mut tx, name).await?;
    let indexes = indexes(&mut tx, name).await?;
    // On PostgreSQL 14 and later built with lz4, the large values go in compressed
    // with lz4 instead of the default pglz, which took about half of the server's time
    // writing `order_detail` (its `doc` and `state` are several kB). Only for this
    // transaction; readers decompress either kind.
    sqlx::query(
        "select set_config('default_toast_compression', 'lz4', true) from pg_settings \
         where name = 'default_toast_compression' and 'lz4' = any(enumvals)",
    )
    .execute(&mut *tx)
    .await?;
    // Each index built by this connection alone, its sort in memory: the tables are
    // already written several at once, and a parallel build's workers (two more
    // processes per index, their sorted runs exchanged through temporary files) only
    // added work on a machine whose cores were busy (bench/PROFILE.md, "Session of
    // 2026-11-29 (second)"). Only for this transaction.
    sqlx::query(
        "select set_config('max_parallel_maintenance_workers', '0', true), \
                set_config('maintenance_work_mem', '128MB', true)",
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query(&format!("drop table if exists {shadow}"))
        .execute(&mut *tx)
        .await?;
    sqlx::query(&format!(
        "create table {shadow} (like {name} including defaults including constraints \
         including storage including compression)"
    ))
    .execute(&mut *tx)
    .await?;
    for statement in carried_over(&mut tx, name, &shadow).await? {
        sqlx::query(&statement).execute(&mut *tx).await?;
    }
    let written = copy_rows(&mut tx, table, &shadow, rows.rows(name)).await?;
    for (constraint, definition) in &constraints {
        sqlx::query(&format!(
            "alter table {shadow} add constraint {constraint}{SHADOW} {definition}"
        ))
        .execute(&mut *tx)
        .await?;
    }
    for (index, definition) in &indexes {
        sqlx::query(&shadow_index(definition, index, name)?)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    tracing::debug!(table = name, rows = written, "shadow table written");
    Ok(written)
}

/// The statements that give `shadow` what `CREATE TABLE ... LIKE` leaves behind of
/// `table` and an operator may have set on it: its storage parameters and its TOAST
/// table's (`fillfactor`, `autovacuum_*`, `toast.autovacuum_*`: the tuning a hot read
/// model such as `order_detail` gets), and the privileges granted on it to other roles
/// (a reporting or read-only role). Without them every rebuild, an erasure's included,
/// silently undid them. Not carried: column privileges, statistics targets, the owner
/// (the rebuilding role owns the new table), comments, and triggers, policies and
/// publications naming the table (no read model has any).
///
/// # Errors
/// [`ProjectionError::Database`]; [`ProjectionError::Load`] for a storage parameter
/// whose name is not a plain identifier (none of PostgreSQL's are).
async fn carried_over(
    connection: &mut sqlx::PgConnection,
    table: &str,
    shadow: &str,
) -> Result<Vec<String>, ProjectionError> {
    let (options, toast_options): (Vec<String>, Vec<String>) = sqlx::query_as(
        "select coalesce(c.reloptions, '{}'), coalesce(t.reloptions, '{}') from pg_class c \
         left join pg_class t on t.oid = c.reltoastrelid where c.oid = $1::regclass",
    )
    .bind(table)
    .fetch_one(&mut *connection)
    .await?;
    let mut settings = Vec::new();
    for (prefix, options) in [("", options), ("toast.", toast_options)] {
        for option in options {
            settings.push(storage_parameter(prefix, &option)?);
        }
    }
    let mut statements = Vec::new();
    if !settings.is_empty() {
        statements.push(format!(
            "alter table {shadow} set ({})",
            settings.join(", ")
        ));
    }
    // `aclexplode` gives one row per privilege; grantee 0 is PUBLIC. The owner's own
    // privileges come with the table.
    let grants: Vec<(String, String, bool)> = sqlx::query_as(
        "select case when a.grantee = 0 then 'public' else quote_ident(r.rolname) end, \
                a.privilege_type, a.is_grantable \
         from pg_class c cross join lateral aclexplode(c.relacl) a \
         left join pg_roles r on r.oid = a.grantee \
         where c.oid = $1::regclass and a.grantee <> c.relowner order by 1, 2",
    )
    .bind(table)
    .fetch_all(&mut *connection)
    .await?;
    for (grantee, privilege, grantable) in grants {
        let option = if grantable { " with grant option" } else { "" };
        statements.push(format!(
            "grant {privilege} on {shadow} to {grantee}{option}"
        ));
    }
    Ok(statements)
}

/// `name = 'value'` for a `pg_class.reloptions` entry (`name=value`), its name under
/// `prefix` (`toast.` for the TOAST table's).
fn storage_parameter(prefix: &str, option: &str) -> Result<String, ProjectionError> {
    let (name, value) = option
        .split_once('=')
        .filter(|(name, _)| {
            !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        })
        .ok_or_else(|| {
            ProjectionError::Load(format!("storage parameter not understood: {option}"))
        })?;
    Ok(format!("{prefix}{name} = '{}'", value.replace('\'', "''")))
}

/// The keys of `table` (`pg_get_constraintdef`), in the order they were made.
async fn constraints(
    connection: &mut sqlx::PgConnection,
    table: &str,
) -> Result<Vec<Constraint>, ProjectionError> {
    Ok(sqlx::query_as(
        "select conname::text, pg_get_constraintdef(oid) from pg_constraint \
         where conrelid = $1::regclass and contype in ('p', 'u', 'x', 'f') order by oid",
    )
    .bind(table)
    .fetch_all(connection)
    .await?)
}

/// The indexes of `table` that back no constraint (`pg_get_indexdef`).
async fn indexes(
    connection: &mut sqlx::PgConnection,
    table: &str,
) -> Result<Vec<Index>, ProjectionError> {
    Ok(sqlx::query_as(
        "select i.relname::text, pg_get_indexdef(i.oid) from pg_index x \
         join pg_class i on i.oid = x.indexrelid where x.indrelid = $1::regclass \
         and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid) \
         order by i.oid",
    )
    .bind(table)
    .fetch_all(connection)
    .await?)
}

/// `CREATE [UNIQUE] INDEX <index> ON <schema>.<table> USING ...` made over the shadow
/// of `table`, named as the index's shadow.
fn shadow_index(definition: &str, index: &str, table: &str) -> Result<String, ProjectionError> {
    let unrecognised =
        || ProjectionError::Load(format!("index definition not understood: {definition}"));
    let (head, method) = definition.split_once(" USING ").ok_or_else(unrecognised)?;
    let unique = if head.starts_with("CREATE UNIQUE INDEX ") {
        "unique "
    } else if head.starts_with("CREATE INDEX ") {
        ""
    } else {
        return Err(unrecognised());
    };
    let on = head.rsplit_once(" ON ").ok_or_else(unrecognised)?.1;
    let qualified = on.strip_prefix("ONLY ").unwrap_or(on);
    if qualified != table && !qualified.ends_with(&format!(".{table}")) {
        return Err(unrecognised());
    }
    Ok(format!(
        "create {unique}index {index}{SHADOW} on {table}{SHADOW} using {method}"
    ))
}

/// Times the swap is tried.
const SWAP_TRIES: u32 = 5;

/// [`swap`], tried again when the server broke a deadlock by aborting it or it waited
/// too long for a lock: live workers (an erasure rebuilds while they run) write
/// several of the tables in one transaction, in the order their events come, while the
/// swap takes each table's exclusive lock in turn. Nothing of a swap that was rolled
/// back remains, and the shadows are still whole.
async fn swap_retrying(
    pool: &PgPool,
    tables: &[&'static str],
    projections: &[&'static str],
    last: LogPosition,
) -> Result<(), ProjectionError> {
    let mut tries = 1;
    loop {
        match swap(pool, tables, projections, last).await {
            Err(ProjectionError::Database(error)) if tries < SWAP_TRIES && lock_lost(&error) => {
                tracing::info!(%error, tries, "rebuild swap rolled back; trying again");
                tries += 1;
            }
            outcome => return outcome,
        }
    }
}

/// Deadlock detected (40P01) or lock wait timed out (55P03).
fn lock_lost(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .and_then(|e| e.code())
        .is_some_and(|code| code == "40P01" || code == "55P03")
}

/// Swaps every shadow in for its table, in one transaction with the checkpoints.
async fn swap(
    pool: &PgPool,
    tables: &[&'static str],
    projections: &[&'static str],
    last: LogPosition,
) -> Result<(), ProjectionError> {
    let mut tx = pool.begin().await?;
    // While the swap waits for a table's exclusive lock, every new reader of it queues
    // behind: after 2 s it gives up, lets them through and tries again
    // (`swap_retrying`).
    sqlx::query("set local lock_timeout = '2s'")
        .execute(&mut *tx)
        .await?;
    // The views over the tables depend on them: dropped and made again over the new.
    let views: Vec<(String, String)> = sqlx::query_as(
        "select distinct v.relname::text, pg_get_viewdef(v.oid) from pg_depend d \
         join pg_rewrite r on r.oid = d.objid join pg_class v on v.oid = r.ev_class \
         where v.relkind = 'v' and d.refobjid = any($1::regclass[]) and v.oid <> d.refobjid",
    )
    .bind(tables)
    .fetch_all(&mut *tx)
    .await?;
    for (view, _) in &views {
        sqlx::query(&format!("drop view {view}"))
            .execute(&mut *tx)
            .await?;
    }
    for table in tables {
        let constraints = constraints(&mut tx, table).await?;
        let indexes = indexes(&mut tx, table).await?;
        let statements = [
            format!("drop table {table}"),
            format!("alter table {table}{SHADOW} rename to {table}"),
        ]
        .into_iter()
        .chain(
            constraints
                .iter()
                .map(|(c, _)| format!("alter table {table} rename constraint {c}{SHADOW} to {c}")),
        )
        .chain(
            indexes
                .iter()
                .map(|(i, _)| format!("alter index {i}{SHADOW} rename to {i}")),
        );
        for statement in statements {
            sqlx::query(&statement).execute(&mut *tx).await?;
        }
    }
    for (view, definition) in &views {
        let definition = definition.trim().trim_end_matches(';');
        sqlx::query(&format!("create view {view} as {definition}"))
            .execute(&mut *tx)
            .await?;
    }
    let mut tx = SqlTx::Postgres(tx);
    for projection in projections {
        set_checkpoint(&mut tx, projection, last).await?;
    }
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rows::{Kind, Row, RowStore};

    static MANY_SMALL: TableSpec = TableSpec {
        name: "many_small",
        key_len: 1,
        columns: &[("id", Kind::Int), ("note", Kind::Text)],
    };
    static FEW_LARGE: TableSpec = TableSpec {
        name: "few_large",
        key_len: 1,
        columns: &[("id", Kind::Int), ("doc", Kind::Text)],
    };

    async fn table(spec: &'static TableSpec, rows: i64, text: usize) -> TableRows {
        let mut store = MemoryStore::default();
        for id in 0..rows {
            let values = vec![Value::Int(id), Value::Text("x".repeat(text))];
            store
                .upsert(Row {
                    table: spec,
                    values,
                })
                .await
                .unwrap();
        }
        TableRows {
            table: spec,
            rows: store,
        }
    }

    #[test]
    fn a_storage_parameter_is_given_back_as_a_quoted_setting() {
        assert_eq!(
            storage_parameter("", "fillfactor=70").unwrap(),
            "fillfactor = '70'"
        );
        assert_eq!(
            storage_parameter("toast.", "autovacuum_enabled=false").unwrap(),
            "toast.autovacuum_enabled = 'false'"
        );
        assert_eq!(storage_parameter("", "odd=it's").unwrap(), "odd = 'it''s'");
        for unusable in ["=70", "fill factor=70", "x;drop table t=1", "noequals"] {
            assert!(storage_parameter("", unusable).is_err(), "{unusable}");
        }
    }

    #[tokio::test]
    async fn the_table_with_the_most_bytes_is_written_first_whatever_its_rows() {
        // 1,000 rows of 4 kB against 10,000 rows of 10 bytes: the order_detail and
        // order_timeline of a rebuild, in small.
        let mut tables = vec![
            table(&MANY_SMALL, 10_000, 10).await,
            table(&FEW_LARGE, 1_000, 4_096).await,
        ];
        largest_first(&mut tables);
        let names: Vec<_> = tables.iter().map(|t| t.table.name).collect();
        assert_eq!(names, ["few_large", "many_small"]);
        assert!(weight(&tables[0]) > 1_000 * 4_096);
    }
}
