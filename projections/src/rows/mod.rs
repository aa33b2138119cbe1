//! Rows of the read-model tables, and the two places they are written: a SQL
//! transaction (the live workers) and memory (`rebuild` and `verify`). A projection
//! is written once against [`RowStore`] and runs unchanged on both, which is what
//! lets `verify` compare the live tables with a fresh rebuild.
//!
//! The SQL of the read side's own tables lives here: the rows ([`SqlTx`]), the
//! consumers' checkpoints ([`checkpoints`]) and the shadow tables a rebuild fills and
//! swaps in ([`shadow`]).

pub mod checkpoints;
pub mod shadow;
pub mod transaction;

use std::collections::{BTreeMap, HashMap};

use async_trait::async_trait;
use indexmap::IndexMap;
use sqlx::{Postgres, Row as _, Transaction};

use crate::store::SqliteTx;
use crate::ProjectionError;

/// A column value. Read models use only text and 64-bit integers, so the same SQL
/// runs on SQLite and PostgreSQL.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// A `text` column (never null in our schema).
    Text(String),
    /// An integer column.
    Int(i64),
}

impl Value {
    /// The text, when this is a text value.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Value::Text(text) => Some(text),
            Value::Int(_) => None,
        }
    }
}

impl From<String> for Value {
    fn from(text: String) -> Self {
        Value::Text(text)
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Value::Text(text.to_string())
    }
}

impl From<i64> for Value {
    fn from(number: i64) -> Self {
        Value::Int(number)
    }
}

/// The kind of a column, to read it back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `text`.
    Text,
    /// `bigint` on PostgreSQL (the rebuild's binary `COPY` sends 8 bytes), `integer` on SQLite.
    Int,
}

/// A read-model table: its name, key columns and all columns (keys first).
#[derive(Debug, Clone, Copy)]
pub struct TableSpec {
    /// Table name.
    pub name: &'static str,
    /// Number of leading `columns` that form the primary key.
    pub key_len: usize,
    /// Every column with its kind, key columns first, in table order.
    pub columns: &'static [(&'static str, Kind)],
}

/// Tables are identified by name.
impl PartialEq for TableSpec {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for TableSpec {}

impl TableSpec {
    /// The key column names.
    pub fn key_columns(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.columns[..self.key_len].iter().map(|(name, _)| *name)
    }
}

/// One row: values in the order of its table's `columns`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The table.
    pub table: &'static TableSpec,
    /// One value per column.
    pub values: Vec<Value>,
}

impl Row {
    /// The key values.
    pub fn key(&self) -> &[Value] {
        &self.values[..self.table.key_len]
    }

    /// A text column's value ("" when absent or not text).
    pub fn text(&self, column: &str) -> &str {
        self.get(column)
            .and_then(Value::as_text)
            .unwrap_or_default()
    }

    /// The value of `column`, if the table has it.
    pub fn get(&self, column: &str) -> Option<&Value> {
        let index = self.table.columns.iter().position(|(c, _)| *c == column)?;
        self.values.get(index)
    }
}

/// Where a projection reads its previous rows and writes new ones.
#[async_trait]
pub trait RowStore: Send {
    /// The row of `table` with this key, if any.
    async fn get(
        &mut self,
        table: &'static TableSpec,
        key: &[Value],
    ) -> Result<Option<Row>, ProjectionError>;

    /// Reads ahead the rows of `table` whose one-column key is among `keys`, so that
    /// the [`RowStore::get`]s that follow are answered from memory: a live batch reads
    /// the rows of every aggregate it touches in one statement instead of one round
    /// trip per key (issue 14, bench/PROFILE.md). Only a hint: a store already in
    /// memory ignores it without drawing a key (a rebuild pays nothing for it), and
    /// every store ignores it for a table with a composite key. Keys may repeat.
    async fn prefetch(
        &mut self,
        _table: &'static TableSpec,
        _keys: &mut (dyn Iterator<Item = Value> + Send),
    ) -> Result<(), ProjectionError> {
        Ok(())
    }

    /// Inserts the row, or replaces the row with the same key.
    async fn upsert(&mut self, row: Row) -> Result<(), ProjectionError>;
}

/// Rows kept in memory (rebuild and verify): per table, in the order their keys were
/// first written, found by a hash of the key. A rebuild upserts every row of every
/// event it folds; a B-tree of text keys cost about 17 string comparisons per upsert
/// (uuid v7 keys share their first bytes), a tenth of the fold (callgrind, PROFILE.md
/// "Session of 2026-11-29 (second)"). The hash is foldhash's (hashbrown's default):
/// the keys are the store's own ids, and SipHash's resistance to chosen keys cost 2 %
/// of the fold. Equality ignores the order.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct MemoryStore {
    tables: BTreeMap<&'static str, IndexMap<Vec<Value>, Row, foldhash::fast::RandomState>>,
}

impl MemoryStore {
    /// Every row of `table`, in the order their keys were first written.
    pub fn rows(&self, table: &str) -> impl Iterator<Item = &Row> {
        self.tables
            .get(table)
            .into_iter()
            .flat_map(|rows| rows.values())
    }

    /// Every row of `table`, in key order (as [`dump_table`] reads a table).
    pub fn rows_in_key_order(&self, table: &str) -> Vec<&Row> {
        let mut rows: Vec<&Row> = self.rows(table).collect();
        rows.sort_unstable_by(|a, b| a.key().cmp(b.key()));
        rows
    }

    /// Number of rows in `table`.
    pub fn len(&self, table: &str) -> usize {
        self.tables.get(table).map_or(0, IndexMap::len)
    }

    /// True when no table has a row.
    pub fn is_empty(&self) -> bool {
        self.tables.values().all(IndexMap::is_empty)
    }

    /// Moves the rows of `table` out into a store of their own (`rebuild` frees them
    /// on another thread once they are written).
    pub fn split_off(&mut self, table: &str) -> MemoryStore {
        let mut split = MemoryStore::default();
        if let Some((name, rows)) = self.tables.remove_entry(table) {
            split.tables.insert(name, rows);
        }
        split
    }
}

#[async_trait]
impl RowStore for MemoryStore {
    async fn get(
        &mut self,
        table: &'static TableSpec,
        key: &[Value],
    ) -> Result<Option<Row>, ProjectionError> {
        Ok(self
            .tables
            .get(table.name)
            .and_then(|rows| rows.get(key))
            .cloned())
    }

    async fn upsert(&mut self, row: Row) -> Result<(), ProjectionError> {
        let rows = self.tables.entry(row.table.name).or_default();
        // Most upserts replace a row (an order's rows change with each of its events):
        // replace it in place rather than copy the key again.
        match rows.get_mut(row.key()) {
            Some(stored) => *stored = row,
            None => {
                rows.insert(row.key().to_vec(), row);
            }
        }
        Ok(())
    }
}

/// A write transaction on either store.
pub enum SqlTx<'c> {
    /// SQLite.
    Sqlite(SqliteTx<'c>),
    /// PostgreSQL.
    Postgres(Transaction<'c, Postgres>),
}

fn upsert_sql(table: &TableSpec) -> String {
    upsert_many_sql(table, 1)
}

/// `insert into <table> (…) values ($1, …), ($n+1, …), … on conflict (<key>) do update
/// set <every other column> = excluded.<column>`, for `rows` rows (no two with one key:
/// PostgreSQL refuses to update a row twice in one statement).
fn upsert_many_sql(table: &TableSpec, rows: usize) -> String {
    let columns: Vec<&str> = table.columns.iter().map(|(c, _)| *c).collect();
    let tuples: Vec<String> = (0..rows)
        .map(|row| {
            let first = row * columns.len();
            let placeholders: Vec<String> = (1..=columns.len())
                .map(|i| format!("${}", first + i))
                .collect();
            format!("({})", placeholders.join(", "))
        })
        .collect();
    // Placeholders appear in ascending order, which SQLite's `$N` numbering requires.
    format!(
        "insert into {} ({}) values {} {}",
        table.name,
        columns.join(", "),
        tuples.join(", "),
        on_conflict_update(table)
    )
}

/// `on conflict (<key>) do update set <every other column> = excluded.<column>`; for a
/// table that is all key (a set of keys), `do nothing`.
fn on_conflict_update(table: &TableSpec) -> String {
    let keys: Vec<&str> = table.key_columns().collect();
    if table.key_len == table.columns.len() {
        return format!("on conflict ({}) do nothing", keys.join(", "));
    }
    let updates: Vec<String> = table.columns[table.key_len..]
        .iter()
        .map(|(c, _)| format!("{c} = excluded.{c}"))
        .collect();
    format!(
        "on conflict ({}) do update set {}",
        keys.join(", "),
        updates.join(", ")
    )
}

fn select_sql(table: &TableSpec) -> String {
    let columns: Vec<&str> = table.columns.iter().map(|(c, _)| *c).collect();
    let conditions: Vec<String> = table
        .key_columns()
        .enumerate()
        .map(|(i, c)| format!("{c} = ${}", i + 1))
        .collect();
    format!(
        "select {} from {} where {}",
        columns.join(", "),
        table.name,
        conditions.join(" and ")
    )
}

/// `select <columns> from <table> where <key> = any($1)` on PostgreSQL (one array
/// parameter), `… where <key> in (select value from json_each($1))` on SQLite (one
/// JSON array): one statement text whatever the number of keys, so each connection
/// prepares it once. Both use the key's index (SQLite: `SEARCH … USING PRIMARY KEY`).
fn select_many_sql(table: &TableSpec, postgres: bool) -> String {
    let columns: Vec<&str> = table.columns.iter().map(|(c, _)| *c).collect();
    let key = table.columns[0].0;
    let condition = if postgres {
        format!("{key} = any($1)")
    } else {
        format!("{key} in (select value from json_each($1))")
    };
    format!(
        "select {} from {} where {condition}",
        columns.join(", "),
        table.name
    )
}

macro_rules! bind_values {
    ($query:expr, $values:expr) => {{
        let mut query = $query;
        for value in $values {
            query = match value {
                Value::Text(text) => query.bind(text.clone()),
                Value::Int(number) => query.bind(*number),
            };
        }
        query
    }};
}

macro_rules! read_row {
    ($row:expr, $table:expr) => {{
        let mut values = Vec::with_capacity($table.columns.len());
        for (index, (_, kind)) in $table.columns.iter().enumerate() {
            values.push(match kind {
                Kind::Text => Value::Text($row.try_get::<String, _>(index)?),
                Kind::Int => Value::Int($row.try_get::<i64, _>(index)?),
            });
        }
        Row {
            table: $table,
            values,
        }
    }};
}

impl SqlTx<'_> {
    /// The rows of `table` whose key is among `keys`, in no particular order (a key
    /// without a row is left out), in one statement. `table` has a one-column key; a
    /// key of another kind than that column's names no row and is skipped.
    async fn get_many(
        &mut self,
        table: &'static TableSpec,
        keys: &[Value],
    ) -> Result<Vec<Row>, ProjectionError> {
        debug_assert_eq!(table.key_len, 1, "get_many reads one-column keys");
        let key_kind = table.columns[0].1;
        let mut rows = Vec::with_capacity(keys.len());
        if keys.is_empty() {
            return Ok(rows);
        }
        match self {
            SqlTx::Sqlite(tx) => {
                let list: Vec<serde_json::Value> = keys
                    .iter()
                    .filter_map(|key| match (key, key_kind) {
                        (Value::Text(text), Kind::Text) => Some(text.as_str().into()),
                        (Value::Int(number), Kind::Int) => Some((*number).into()),
                        _ => None,
                    })
                    .collect();
                let sql = select_many_sql(table, false);
                let query = sqlx::query(&sql).bind(serde_json::Value::Array(list).to_string());
                for row in query.fetch_all(&mut **tx).await? {
                    rows.push(read_row!(row, table));
                }
            }
            SqlTx::Postgres(tx) => {
                let sql = select_many_sql(table, true);
                let query = match key_kind {
                    Kind::Text => sqlx::query(&sql).bind(
                        keys.iter()
                            .filter_map(Value::as_text)
                            .collect::<Vec<&str>>(),
                    ),
                    Kind::Int => sqlx::query(&sql).bind(
                        keys.iter()
                            .filter_map(|key| match key {
                                Value::Int(number) => Some(*number),
                                Value::Text(_) => None,
                            })
                            .collect::<Vec<i64>>(),
                    ),
                };
                for row in query.fetch_all(&mut **tx).await? {
                    rows.push(read_row!(row, table));
                }
            }
        }
        Ok(rows)
    }
}

#[async_trait]
impl RowStore for SqlTx<'_> {
    async fn get(
        &mut self,
        table: &'static TableSpec,
        key: &[Value],
    ) -> Result<Option<Row>, ProjectionError> {
        let sql = select_sql(table);
        Ok(match self {
            SqlTx::Sqlite(tx) => {
                let query = bind_values!(sqlx::query(&sql), key);
                match query.fetch_optional(&mut **tx).await? {
                    Some(row) => Some(read_row!(row, table)),
                    None => None,
                }
            }
            SqlTx::Postgres(tx) => {
                let query = bind_values!(sqlx::query(&sql), key);
                match query.fetch_optional(&mut **tx).await? {
                    Some(row) => Some(read_row!(row, table)),
                    None => None,
                }
            }
        })
    }

    async fn upsert(&mut self, row: Row) -> Result<(), ProjectionError> {
        let sql = upsert_sql(row.table);
        match self {
            SqlTx::Sqlite(tx) => {
                bind_values!(sqlx::query(&sql), &row.values)
                    .execute(&mut **tx)
                    .await?;
            }
            SqlTx::Postgres(tx) => {
                bind_values!(sqlx::query(&sql), &row.values)
                    .execute(&mut **tx)
                    .await?;
            }
        }
        Ok(())
    }
}

/// A [`RowStore`] over a transaction that holds its upserts back and writes them at
/// [`Buffered::flush`]: a live batch of the read models then costs one write statement
/// (PostgreSQL) or one per table touched (SQLite) instead of one per row (issue 14). A `get` sees the rows upserted before it (the held-back row, if any,
/// else the table's), so projections read what they wrote; a key upserted twice is
/// written once, with its last row. Rows read from the transaction are remembered
/// (absent ones too), so [`RowStore::prefetch`] reads a batch's rows in one statement
/// and each later `get` of them costs no round trip: the transaction is the only
/// writer of these rows until it commits, so what it read stays true.
pub struct Buffered<'s, 't> {
    tx: &'s mut SqlTx<'t>,
    pending: Vec<Row>,
    index: HashMap<(&'static str, Vec<Value>), usize>,
    read: HashMap<(&'static str, Vec<Value>), Option<Row>>,
}

impl<'s, 't> Buffered<'s, 't> {
    /// Buffers the upserts of `tx`.
    pub fn new(tx: &'s mut SqlTx<'t>) -> Self {
        Self {
            tx,
            pending: Vec::new(),
            index: HashMap::new(),
            read: HashMap::new(),
        }
    }

    /// Writes the held-back rows, grouped by table in the order tables were first
    /// written. On PostgreSQL every table's rows go in one statement, a data-modifying
    /// CTE per table over one array per column (`unnest`), so a batch costs one round
    /// trip however many tables it touches, and the statement's text depends only on
    /// which tables it touches, so each connection prepares it once. On SQLite (no
    /// round trips, no `INSERT` in a `WITH`), one multi-row statement per table, at most
    /// [`SQLITE_MAX_ROWS_PER_INSERT`] rows (and the parameter limit) each.
    pub async fn flush(self) -> Result<(), ProjectionError> {
        let mut tables: Vec<(&'static TableSpec, Vec<Row>)> = Vec::new();
        for row in self.pending {
            match tables.iter_mut().find(|(table, _)| *table == row.table) {
                Some((_, rows)) => rows.push(row),
                None => tables.push((row.table, vec![row])),
            }
        }
        match &mut *self.tx {
            SqlTx::Postgres(tx) => {
                if tables.is_empty() {
                    return Ok(());
                }
                let specs: Vec<&TableSpec> = tables.iter().map(|(table, _)| *table).collect();
                let sql = upsert_unnest_sql(&specs);
                let mut query = sqlx::query(&sql);
                for (table, rows) in tables {
                    for (column, (_, kind)) in table.columns.iter().enumerate() {
                        query = match kind {
                            Kind::Text => query.bind(column_of(&rows, column, |value| {
                                value.as_text().map(str::to_string)
                            })),
                            Kind::Int => {
                                query.bind(column_of(&rows, column, |value| match value {
                                    Value::Int(number) => Some(*number),
                                    Value::Text(_) => None,
                                }))
                            }
                        };
                    }
                }
                query.execute(&mut **tx).await?;
            }
            SqlTx::Sqlite(tx) => {
                for (table, rows) in tables {
                    let per_statement = (SQLITE_MAX_PARAMETERS / table.columns.len())
                        .clamp(1, SQLITE_MAX_ROWS_PER_INSERT);
                    for chunk in rows.chunks(per_statement) {
                        let sql = upsert_many_sql(table, chunk.len());
                        let values = chunk.iter().flat_map(|row| row.values.iter());
                        bind_values!(sqlx::query(&sql), values)
                            .execute(&mut **tx)
                            .await?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The values of one column of `rows`, each as `pick` gives it (`None` for a value
/// of the wrong kind, which a row built against its table's spec never holds: it is
/// then left out, and the statement fails on the arrays' unequal lengths rather than
/// write a shifted row).
fn column_of<T>(rows: &[Row], column: usize, pick: impl Fn(&Value) -> Option<T>) -> Vec<T> {
    rows.iter()
        .filter_map(|row| row.values.get(column).and_then(&pick))
        .collect()
}

/// `with w0 as (insert into <table> (<columns>) select * from unnest($1::text[], …)
/// on conflict (<key>) do update set …), w1 as (…) select 1`: one upsert per table, its
/// rows as one array parameter per column, numbered across the tables in order.
/// PostgreSQL runs every data-modifying `WITH` to completion; no row is touched twice
/// ([`Buffered`] holds one row per key).
fn upsert_unnest_sql(tables: &[&TableSpec]) -> String {
    let mut parameter = 0;
    let parts: Vec<String> = tables
        .iter()
        .enumerate()
        .map(|(index, table)| {
            let columns: Vec<&str> = table.columns.iter().map(|(c, _)| *c).collect();
            let arrays: Vec<String> = table
                .columns
                .iter()
                .map(|(_, kind)| {
                    parameter += 1;
                    match kind {
                        Kind::Text => format!("${parameter}::text[]"),
                        Kind::Int => format!("${parameter}::bigint[]"),
                    }
                })
                .collect();
            format!(
                "w{index} as (insert into {} ({}) select * from unnest({}) {})",
                table.name,
                columns.join(", "),
                arrays.join(", "),
                on_conflict_update(table)
            )
        })
        .collect();
    format!("with {} select 1", parts.join(", "))
}

#[async_trait]
impl RowStore for Buffered<'_, '_> {
    async fn get(
        &mut self,
        table: &'static TableSpec,
        key: &[Value],
    ) -> Result<Option<Row>, ProjectionError> {
        let slot = (table.name, key.to_vec());
        if let Some(&at) = self.index.get(&slot) {
            return Ok(Some(self.pending[at].clone()));
        }
        if let Some(row) = self.read.get(&slot) {
            return Ok(row.clone());
        }
        let row = self.tx.get(table, key).await?;
        self.read.insert(slot, row.clone());
        Ok(row)
    }

    async fn prefetch(
        &mut self,
        table: &'static TableSpec,
        keys: &mut (dyn Iterator<Item = Value> + Send),
    ) -> Result<(), ProjectionError> {
        if table.key_len != 1 {
            return Ok(());
        }
        let mut unread: Vec<Value> = Vec::new();
        for key in keys {
            let slot = (table.name, vec![key.clone()]);
            if !self.index.contains_key(&slot) && !self.read.contains_key(&slot) {
                self.read.insert(slot, None);
                unread.push(key);
            }
        }
        for row in self.tx.get_many(table, &unread).await? {
            self.read
                .insert((table.name, row.key().to_vec()), Some(row));
        }
        Ok(())
    }

    async fn upsert(&mut self, row: Row) -> Result<(), ProjectionError> {
        let key = (row.table.name, row.values[..row.table.key_len].to_vec());
        match self.index.get(&key) {
            Some(&slot) => self.pending[slot] = row,
            None => {
                self.index.insert(key, self.pending.len());
                self.pending.push(row);
            }
        }
        Ok(())
    }
}

/// Bytes of `COPY` data sent to PostgreSQL at a time: large enough that the messages'
/// overhead vanishes, small enough that the server works while the next chunk is built.
const COPY_CHUNK: usize = 1 << 20;

/// SQLite's limit on parameters in one statement (`SQLITE_MAX_VARIABLE_NUMBER` of the
/// bundled SQLite 3.32 and later).
const SQLITE_MAX_PARAMETERS: usize = 32_766;

/// Rows per SQLite `INSERT`: beyond a few hundred, a statement saves nothing more.
const SQLITE_MAX_ROWS_PER_INSERT: usize = 500;

/// `insert into <table> (<columns>) values (?, …), …` for `rows` rows.
fn insert_sql(table: &TableSpec, rows: usize) -> String {
    let columns: Vec<&str> = table.columns.iter().map(|(c, _)| *c).collect();
    let tuple = format!("({})", vec!["?"; columns.len()].join(", "));
    format!(
        "insert into {} ({}) values {}",
        table.name,
        columns.join(", "),
        vec![tuple.as_str(); rows].join(", ")
    )
}

/// `copy <table> (<columns>) from stdin (format binary)`.
fn copy_sql(table: &TableSpec, into: &str) -> String {
    let columns: Vec<&str> = table.columns.iter().map(|(c, _)| *c).collect();
    format!(
        "copy {into} ({}) from stdin (format binary)",
        columns.join(", ")
    )
}

/// The start of `COPY` binary data: its signature, then no flags and no header
/// extension (PostgreSQL docs, "COPY", "Binary Format").
const COPY_BINARY_HEADER: &[u8] = b"PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0";

/// The end of `COPY` binary data: a field count of -1.
const COPY_BINARY_TRAILER: &[u8] = &(-1i16).to_be_bytes();

/// Writes `rows` of `table` into the PostgreSQL table named `into` (the table itself,
/// or a shadow copy with its columns) with `COPY` in binary format, in chunks of
/// [`COPY_CHUNK`] bytes. Returns how many rows were written.
///
/// Binary rather than text: the server reads each value by its length instead of
/// scanning every byte for delimiters and escapes, and nothing needs escaping here.
/// Loading `user_profile` and `order_detail` of a 56,000-order rebuild took 0.64 s and
/// 1.21 s instead of 0.86–1.02 s and 1.70 s (bench/PROFILE.md). It needs the
/// columns' types to be `text` for [`Kind::Text`] and `bigint` for [`Kind::Int`], as
/// every read-model table has them (a test checks).
///
/// # Errors
/// [`ProjectionError::Database`] when the server refuses the data, or a value is
/// longer than `COPY` can carry (2 GiB; the server's limit is 1 GB).
pub(crate) async fn copy_rows<'r, I>(
    connection: &mut sqlx::PgConnection,
    table: &TableSpec,
    into: &str,
    rows: I,
) -> Result<usize, ProjectionError>
where
    I: IntoIterator<Item = &'r Row>,
{
    let mut written = 0;
    let mut copy = connection.copy_in_raw(&copy_sql(table, into)).await?;
    let mut buffer = Vec::with_capacity(COPY_CHUNK + COPY_CHUNK / 4);
    buffer.extend_from_slice(COPY_BINARY_HEADER);
    for row in rows {
        if let Err(error) = copy_tuple(&mut buffer, row) {
            copy.abort(error.to_string()).await?;
            return Err(error.into());
        }
        written += 1;
        if buffer.len() >= COPY_CHUNK {
            copy.send(buffer.as_slice()).await?;
            buffer.clear();
        }
    }
    buffer.extend_from_slice(COPY_BINARY_TRAILER);
    copy.send(buffer.as_slice()).await?;
    copy.finish().await?;
    Ok(written)
}

/// Appends `row` as one tuple of `COPY` binary format: its number of fields, then each
/// field's length and bytes (`text` as its UTF-8 bytes, `bigint` as 8 bytes, both big
/// endian). Our values are never null, so the length -1 never appears.
fn copy_tuple(buffer: &mut Vec<u8>, row: &Row) -> Result<(), sqlx::Error> {
    let too_long = |what: &str| sqlx::Error::Encode(format!("{what} too long for COPY").into());
    let fields = i16::try_from(row.values.len()).map_err(|_| too_long("row"))?;
    buffer.extend_from_slice(&fields.to_be_bytes());
    for value in &row.values {
        match value {
            Value::Int(number) => {
                buffer.extend_from_slice(&8i32.to_be_bytes());
                buffer.extend_from_slice(&number.to_be_bytes());
            }
            Value::Text(text) => {
                let length = i32::try_from(text.len()).map_err(|_| too_long("value"))?;
                buffer.extend_from_slice(&length.to_be_bytes());
                buffer.extend_from_slice(text.as_bytes());
            }
        }
    }
    Ok(())
}

impl SqlTx<'_> {
    /// Deletes every row of `table` (a rebuild refills it in the same transaction).
    pub async fn delete_rows(&mut self, table: &'static TableSpec) -> Result<(), ProjectionError> {
        self.execute(&format!("delete from {}", table.name), &[])
            .await?;
        Ok(())
    }

    /// Inserts `rows` into `table` in bulk: PostgreSQL `COPY ... FROM STDIN`, SQLite
    /// multi-row `INSERT`s (each statement prepared once and reused). Plain inserts,
    /// not upserts: the caller makes sure no row has the key of one already there
    /// (`rebuild` emptied the table in this transaction, and rows of a
    /// [`MemoryStore`] are unique by key). Returns the number of rows written.
    pub async fn insert_rows<'r, I>(
        &mut self,
        table: &'static TableSpec,
        rows: I,
    ) -> Result<usize, ProjectionError>
    where
        I: IntoIterator<Item = &'r Row>,
        I::IntoIter: Send,
    {
        let mut written = 0;
        match self {
            SqlTx::Postgres(tx) => written = copy_rows(tx, table, table.name, rows).await?,
            SqlTx::Sqlite(tx) => {
                let per_insert = (SQLITE_MAX_PARAMETERS / table.columns.len().max(1))
                    .clamp(1, SQLITE_MAX_ROWS_PER_INSERT);
                // Every full statement has the same text, so sqlx prepares it once.
                let full = insert_sql(table, per_insert);
                let rows: Vec<&Row> = rows.into_iter().collect();
                for chunk in rows.chunks(per_insert) {
                    let partial;
                    let sql = if chunk.len() == per_insert {
                        &full
                    } else {
                        partial = insert_sql(table, chunk.len());
                        &partial
                    };
                    let mut query = sqlx::query(sql);
                    for value in chunk.iter().flat_map(|row| &row.values) {
                        query = match value {
                            Value::Text(text) => query.bind(text.as_str()),
                            Value::Int(number) => query.bind(*number),
                        };
                    }
                    query.execute(&mut **tx).await?;
                    written += chunk.len();
                }
            }
        }
        Ok(written)
    }
}

/// Every row of `table` in the database, in key order (verify, hashing).
pub async fn dump_table(
    database: &crate::store::Database,
    table: &'static TableSpec,
) -> Result<Vec<Row>, ProjectionError> {
    let columns: Vec<&str> = table.columns.iter().map(|(c, _)| *c).collect();
    let keys: Vec<&str> = table.key_columns().collect();
    let sql = format!(
        "select {} from {} order by {}",
        columns.join(", "),
        table.name,
        keys.join(", ")
    );
    let mut rows = Vec::new();
    match database {
        crate::store::Database::Sqlite { pool, .. } => {
            for row in sqlx::query(&sql).fetch_all(pool).await? {
                rows.push(read_row!(row, table));
            }
        }
        crate::store::Database::Postgres(pool) => {
            for row in sqlx::query(&sql).fetch_all(pool).await? {
                rows.push(read_row!(row, table));
            }
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    static T: TableSpec = TableSpec {
        name: "t",
        key_len: 1,
        columns: &[("id", Kind::Text), ("n", Kind::Int), ("doc", Kind::Text)],
    };

    #[test]
    fn upsert_sql_updates_every_non_key_column() {
        assert_eq!(
            upsert_sql(&T),
            "insert into t (id, n, doc) values ($1, $2, $3) on conflict (id) do update set n = excluded.n, doc = excluded.doc"
        );
        assert_eq!(select_sql(&T), "select id, n, doc from t where id = $1");
    }

    #[test]
    fn a_batch_upserts_every_table_in_one_statement_of_arrays() {
        static U: TableSpec = TableSpec {
            name: "u",
            key_len: 2,
            columns: &[("a", Kind::Text), ("b", Kind::Int), ("c", Kind::Text)],
        };
        assert_eq!(
            upsert_unnest_sql(&[&T, &U]),
            "with w0 as (insert into t (id, n, doc) select * from unnest($1::text[], $2::bigint[], $3::text[]) \
             on conflict (id) do update set n = excluded.n, doc = excluded.doc), \
             w1 as (insert into u (a, b, c) select * from unnest($4::text[], $5::bigint[], $6::text[]) \
             on conflict (a, b) do update set c = excluded.c) select 1"
        );
    }

    #[test]
    fn insert_and_copy_statements_list_every_column() {
        assert_eq!(
            insert_sql(&T, 2),
            "insert into t (id, n, doc) values (?, ?, ?), (?, ?, ?)"
        );
        assert_eq!(
            copy_sql(&T, T.name),
            "copy t (id, n, doc) from stdin (format binary)"
        );
    }

    #[test]
    fn copy_tuples_give_each_field_its_length() {
        let mut buffer = Vec::new();
        copy_tuple(
            &mut buffer,
            &Row {
                table: &T,
                values: vec!["a\tb".into(), (-7).into(), "".into()],
            },
        )
        .unwrap();
        let mut expected = vec![0, 3];
        expected.extend_from_slice(&[0, 0, 0, 3, b'a', b'\t', b'b']);
        expected.extend_from_slice(&[0, 0, 0, 8]);
        expected.extend_from_slice(&(-7i64).to_be_bytes());
        expected.extend_from_slice(&[0, 0, 0, 0]);
        assert_eq!(buffer, expected);
    }

    /// Rows that stress both bulk paths: every character the `COPY` text format reads
    /// specially, a value larger than a `COPY` chunk, extreme integers, and more rows
    /// than one SQLite `INSERT` takes.
    fn awkward_rows() -> Vec<Row> {
        let mut rows: Vec<Row> = (0..1_203)
            .map(|i| Row {
                table: &T,
                values: vec![
                    format!("id-{i:05}").into(),
                    (i64::from(i) - 600).into(),
                    format!("{{\"n\":{i},\"s\":\"tab\\there\\nline\\\\ \u{4e2d}\"}}\t\n\r\\N\\.")
                        .into(),
                ],
            })
            .collect();
        rows.push(Row {
            table: &T,
            values: vec![
                "big".into(),
                i64::MAX.into(),
                "\\x".repeat(COPY_CHUNK).into(),
            ],
        });
        rows.push(Row {
            table: &T,
            values: vec!["empty".into(), i64::MIN.into(), "".into()],
        });
        rows
    }

    async fn insert_and_read_back(tx: &mut SqlTx<'_>) {
        let rows = awkward_rows();
        assert_eq!(tx.insert_rows(&T, &rows).await.unwrap(), rows.len());
        for row in &rows {
            let stored = tx.get(&T, row.key()).await.unwrap();
            assert_eq!(stored.as_ref(), Some(row), "row {:?}", row.key());
        }
        buffered_upserts_land_once_with_the_last_row(tx, &rows).await;
    }

    /// Held-back upserts: a key written twice lands once with its last row, a `get`
    /// sees the held-back row, and more rows than one statement takes all land.
    async fn buffered_upserts_land_once_with_the_last_row(tx: &mut SqlTx<'_>, existing: &[Row]) {
        let with_n = |row: &Row, n: i64| Row {
            table: &T,
            values: vec![row.values[0].clone(), n.into(), row.values[2].clone()],
        };
        let fresh: Vec<Row> = (0..(SQLITE_MAX_ROWS_PER_INSERT as i64 + 100))
            .map(|i| Row {
                table: &T,
                values: vec![format!("new-{i}").into(), i.into(), "{}".into()],
            })
            .collect();
        let mut buffered = Buffered::new(tx);
        for row in existing {
            buffered.upsert(with_n(row, 1)).await.unwrap();
            buffered.upsert(with_n(row, 2)).await.unwrap();
        }
        for row in &fresh {
            buffered.upsert(row.clone()).await.unwrap();
        }
        let seen = buffered.get(&T, existing[0].key()).await.unwrap();
        assert_eq!(seen, Some(with_n(&existing[0], 2)));
        buffered.flush().await.unwrap();
        for row in existing {
            let stored = tx.get(&T, row.key()).await.unwrap();
            assert_eq!(stored, Some(with_n(row, 2)), "row {:?}", row.key());
        }
        for row in &fresh {
            assert_eq!(tx.get(&T, row.key()).await.unwrap().as_ref(), Some(row));
        }
    }

    #[tokio::test]
    async fn bulk_inserts_store_every_value_unchanged_on_sqlite() {
        let pool = sqlx::SqlitePool::connect("sqlite::memory:").await.unwrap();
        let mut tx = SqlTx::Sqlite(SqliteTx::Durable(pool.begin().await.unwrap()));
        tx.execute(
            "create table t (id text primary key, n integer not null, doc text not null)",
            &[],
        )
        .await
        .unwrap();
        insert_and_read_back(&mut tx).await;
    }

    #[tokio::test]
    async fn bulk_inserts_store_every_value_unchanged_on_postgres() {
        let Some(url) = std::env::var("TEST_DATABASE_URL")
            .ok()
            .filter(|url| !url.trim().is_empty())
        else {
            eprintln!("SKIPPED (PostgreSQL): TEST_DATABASE_URL not set");
            return;
        };
        let pool = sqlx::PgPool::connect(&url).await.unwrap();
        let mut tx = SqlTx::Postgres(pool.begin().await.unwrap());
        // A temporary table dropped at the end of the transaction, which is rolled back.
        tx.execute(
            "create temporary table t (id text primary key, n bigint not null, doc text not null) \
             on commit drop",
            &[],
        )
        .await
        .unwrap();
        insert_and_read_back(&mut tx).await;
    }

    #[tokio::test]
    async fn memory_store_replaces_rows_by_key() {
        let mut store = MemoryStore::default();
        let row = |n: i64| Row {
            table: &T,
            values: vec!["a".into(), n.into(), "{}".into()],
        };
        store.upsert(row(1)).await.unwrap();
        store.upsert(row(2)).await.unwrap();
        assert_eq!(store.len("t"), 1);
        let got = store.get(&T, &["a".into()]).await.unwrap().unwrap();
        assert_eq!(got.get("n"), Some(&Value::Int(2)));
    }
}
