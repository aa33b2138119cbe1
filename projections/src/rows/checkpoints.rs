//! The checkpoints of the log's consumers (`projection_checkpoint`): where each read
//! model, workflow and partition has got to in the log. Created at the start of the
//! log, read, set by a rebuild, and moved by compare-and-set in the transaction that
//! applies the batch (`crate::consumer::runner`'s guarantees).

use crate::projection::{time_text, ProjectionError};
use crate::rows::transaction::begin;
use crate::rows::SqlTx;
use crate::store::{Database, LogPosition};

/// Creates the checkpoint row of `name` at the start of the log if it has none.
pub async fn ensure_checkpoint(database: &Database, name: &str) -> Result<(), ProjectionError> {
    let mut tx = begin(database).await?;
    tx.execute(
        "insert into projection_checkpoint (name, transaction_id, global_position, updated_at) \
         values ($1, 0, 0, $2) on conflict (name) do nothing",
        &[
            name.into(),
            time_text(crate::clock::infrastructure().now()).into(),
        ],
    )
    .await?;
    tx.commit().await
}

/// Where `name` has got to (the start of the log when it has no row yet).
pub async fn read_checkpoint(
    database: &Database,
    name: &str,
) -> Result<LogPosition, ProjectionError> {
    let sql = "select transaction_id, global_position from projection_checkpoint where name = $1";
    let row: Option<(i64, i64)> = match database {
        Database::Sqlite { reads: pool, .. } => {
            sqlx::query_as(sql).bind(name).fetch_optional(pool).await?
        }
        Database::Postgres(pool) => sqlx::query_as(sql).bind(name).fetch_optional(pool).await?,
    };
    Ok(
        row.map_or(LogPosition::START, |(transaction_id, global_position)| {
            LogPosition {
                transaction_id,
                global_position,
            }
        }),
    )
}

/// Sets `name` to `to` inside `tx`, wherever it was (a rebuild: the tables written in
/// the same transaction hold the log up to `to`).
pub async fn set_checkpoint(
    tx: &mut SqlTx<'_>,
    name: &str,
    to: LogPosition,
) -> Result<(), ProjectionError> {
    tx.execute(
        "insert into projection_checkpoint (name, transaction_id, global_position, updated_at) \
         values ($1, $2, $3, $4) on conflict (name) do update set \
         transaction_id = excluded.transaction_id, global_position = excluded.global_position, \
         updated_at = excluded.updated_at",
        &[
            name.into(),
            to.transaction_id.into(),
            to.global_position.into(),
            time_text(crate::clock::infrastructure().now()).into(),
        ],
    )
    .await?;
    Ok(())
}

/// Moves `name` from `from` to `to` inside `tx`. Fails with
/// [`ProjectionError::CheckpointMoved`] when another worker moved it first.
pub async fn advance_checkpoint(
    tx: &mut SqlTx<'_>,
    name: &str,
    from: LogPosition,
    to: LogPosition,
) -> Result<(), ProjectionError> {
    advance_checkpoints(tx, &[(name, from)], to).await
}

/// Moves every checkpoint of `moves` (a name and where it stands) to `to` inside `tx`,
/// in one statement. Fails with [`ProjectionError::CheckpointMoved`], naming them all,
/// when another worker moved any of them first (the caller rolls back: none moves).
pub async fn advance_checkpoints(
    tx: &mut SqlTx<'_>,
    moves: &[(&str, LogPosition)],
    to: LogPosition,
) -> Result<(), ProjectionError> {
    if moves.is_empty() {
        return Ok(());
    }
    // `(name, transaction_id, global_position) in (values …)`: both stores compare
    // row values against a VALUES list (SQLite wants it as a subquery).
    let rows: Vec<String> = (0..moves.len())
        .map(|i| format!("(${}, ${}, ${})", 4 + 3 * i, 5 + 3 * i, 6 + 3 * i))
        .collect();
    let sql = format!(
        "update projection_checkpoint \
         set transaction_id = $1, global_position = $2, updated_at = $3 \
         where (name, transaction_id, global_position) in (values {})",
        rows.join(", ")
    );
    let mut params: Vec<crate::rows::Value> = vec![
        to.transaction_id.into(),
        to.global_position.into(),
        time_text(crate::clock::infrastructure().now()).into(),
    ];
    for (name, from) in moves {
        params.extend([
            (*name).into(),
            from.transaction_id.into(),
            from.global_position.into(),
        ]);
    }
    let moved = tx.execute(&sql, &params).await?;
    if moved == moves.len() as u64 {
        Ok(())
    } else {
        let names: Vec<&str> = moves.iter().map(|(name, _)| *name).collect();
        Err(ProjectionError::CheckpointMoved(names.join(", ")))
    }
}

/// Creates the checkpoint row of `name` where `from` stands, when `name` has no row
/// and `from` has one (a partition taking over from its single consumer).
pub async fn copy_checkpoint(
    database: &Database,
    name: &str,
    from: &str,
) -> Result<(), ProjectionError> {
    let mut tx = begin(database).await?;
    tx.execute(
        "insert into projection_checkpoint \
         (name, transaction_id, global_position, updated_at) \
         select $1, transaction_id, global_position, updated_at \
         from projection_checkpoint where name = $2 on conflict (name) do nothing",
        &[name.into(), from.into()],
    )
    .await?;
    tx.commit().await
}
