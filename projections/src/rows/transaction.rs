//! Opening and finishing the read side's write transactions on either store: a plain
//! one, and one for data derived from the log (read models and checkpoints), which
//! may trade the last commits' durability for speed because the log can redo them.

use crate::projection::ProjectionError;
use crate::rows::SqlTx;
use crate::store::{Database, SqliteTx};

/// Opens a write transaction on either store.
pub async fn begin(database: &Database) -> Result<SqlTx<'static>, ProjectionError> {
    Ok(match database {
        Database::Sqlite { pool, .. } => SqlTx::Sqlite(SqliteTx::Durable(pool.begin().await?)),
        Database::Postgres(pool) => SqlTx::Postgres(pool.begin().await?),
    })
}

/// Opens a write transaction that writes only data derived from the event log (read
/// models and checkpoints); its first statement must be a write (a checkpoint's
/// compare-and-set), since on SQLite a transaction that reads first and writes later
/// cannot wait for the write lock in WAL mode (it fails at once with SQLITE_BUSY),
/// while a first write waits its turn.
///
/// On PostgreSQL it commits without waiting for its WAL flush
/// (`synchronous_commit = off`). A crash can then lose the last few such commits, rows
/// and checkpoint together (the WAL is replayed in order, never half a transaction),
/// and the worker re-applies those events from the log; nothing the log holds is at
/// risk, since events commit durably elsewhere. It also holds an advisory lock per
/// name of `names` (projections whose tables it writes), taken in name order, until it
/// ends. `BEGIN`, the setting and the locks go in one round trip. On a SQLite file the
/// same holds through `synchronous=NORMAL` for this one commit ([`SqliteTx`]: event
/// appends keep `FULL`), and its single writer needs no lock per name.
pub async fn begin_derived(
    database: &Database,
    names: &[&str],
) -> Result<SqlTx<'static>, ProjectionError> {
    match database {
        Database::Postgres(pool) => {
            let mut names = names.to_vec();
            names.sort_unstable();
            let mut begin = String::from("BEGIN; SET LOCAL synchronous_commit = off");
            for name in names {
                // Our own projection and workflow names: a literal, quotes doubled.
                let key = format!("projection:{name}").replace('\'', "''");
                begin.push_str(&format!(
                    "; SELECT pg_advisory_xact_lock(hashtext('{key}'))"
                ));
            }
            Ok(SqlTx::Postgres(pool.begin_with(begin).await?))
        }
        Database::Sqlite {
            pool, in_memory, ..
        } => Ok(SqlTx::Sqlite(if *in_memory {
            SqliteTx::Durable(pool.begin().await?)
        } else {
            SqliteTx::begin_derived(pool).await?
        })),
    }
}

impl SqlTx<'_> {
    /// Commits.
    pub async fn commit(self) -> Result<(), ProjectionError> {
        match self {
            SqlTx::Sqlite(tx) => tx.commit().await?,
            SqlTx::Postgres(tx) => tx.commit().await?,
        }
        Ok(())
    }

    /// Runs a statement with `$1..$n` text/int parameters; returns the rows affected.
    pub async fn execute(
        &mut self,
        sql: &str,
        params: &[crate::rows::Value],
    ) -> Result<u64, ProjectionError> {
        macro_rules! run {
            ($tx:expr) => {{
                let mut query = sqlx::query(sql);
                for value in params {
                    query = match value {
                        crate::rows::Value::Text(text) => query.bind(text.clone()),
                        crate::rows::Value::Int(number) => query.bind(*number),
                    };
                }
                query.execute(&mut **$tx).await?.rows_affected()
            }};
        }
        Ok(match self {
            SqlTx::Sqlite(tx) => run!(tx),
            SqlTx::Postgres(tx) => run!(tx),
        })
    }
}
