//! A PostgreSQL read replica for the queries (`READ_DATABASE_URL`, issue 14 item 6,
//! ADR 0013): a streaming standby of the primary, whose read models, checkpoints and
//! sessions arrive by replication a moment after they commit on the primary.
//!
//! Only the read-model queries of [`crate::reads`] and the wait for their
//! checkpoints may run on it. Commands, aggregate loads, data keys and the event log
//! stay on the primary: a data key not yet replicated would open a borrower's fields
//! as erased, and a load that lags decides on a stale state.

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::PgConnectOptions;

use super::{Database, StoreError};

/// How often [`wait_for_replay`] reads the replica's replay position.
const REPLAY_CHECK: Duration = Duration::from_millis(2);

/// Opens a pool to a read replica, without migrating: a standby is read-only, and
/// the primary's migrations arrive by replication.
///
/// # Errors
/// [`StoreError::UnsupportedScheme`] for a URL that is not `postgres://` or
/// `postgresql://` (a replica of the embedded SQLite store does not exist),
/// [`StoreError::InvalidUrl`], [`StoreError::Database`] when it cannot connect.
pub async fn connect_replica(url: &str) -> Result<Database, StoreError> {
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        let scheme = url.split_once(':').map_or("", |(scheme, _)| scheme);
        return Err(StoreError::UnsupportedScheme {
            scheme: scheme.to_owned(),
        });
    }
    let options = PgConnectOptions::from_str(url).map_err(StoreError::InvalidUrl)?;
    connect_replica_with(options).await
}

/// [`connect_replica`] from options (tests give the replica the primary's schema).
///
/// # Errors
/// [`StoreError::Database`] when it cannot connect.
pub async fn connect_replica_with(options: PgConnectOptions) -> Result<Database, StoreError> {
    Ok(Database::Postgres(Database::postgres_pool(options).await?))
}

/// Waits, at most `timeout`, until `replica` has replayed everything `primary` had
/// written when this was called (its WAL insert position): after a session is
/// revoked, so that no read on the replica accepts it once the revocation is
/// answered. Returns false on timeout. A `replica` that is no standby (the primary
/// itself, say) has nothing to replay: true at once.
///
/// # Errors
/// [`StoreError::Database`] when either server refuses the statement.
pub async fn wait_for_replay(
    primary: &Database,
    replica: &Database,
    timeout: Duration,
) -> Result<bool, StoreError> {
    let (Database::Postgres(primary), Database::Postgres(replica)) = (primary, replica) else {
        return Ok(true);
    };
    let written: String = sqlx::query_scalar("select pg_current_wal_insert_lsn()::text")
        .fetch_one(primary)
        .await?;
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        // Null on a server that is not in recovery: nothing to wait for.
        let replayed: Option<bool> =
            sqlx::query_scalar("select pg_last_wal_replay_lsn() >= $1::pg_lsn")
                .bind(&written)
                .fetch_one(replica)
                .await?;
        if replayed != Some(false) {
            return Ok(true);
        }
        if tokio::time::Instant::now() >= deadline {
            return Ok(false);
        }
        tokio::time::sleep(REPLAY_CHECK).await;
    }
}
