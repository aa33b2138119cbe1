//! Compaction of the store's files after an erasure (`crate::workflows::erasure`), so no freed
//! page or old row version keeps an erased value.

use projections::store::Database;

/// SQLite: writes the WAL back and rebuilds the file, so no free page or WAL frame
/// keeps a deleted value; `secure_delete` already zeroes what is deleted in place.
/// PostgreSQL: vacuums the key table, whose old row versions held the key.
pub async fn compact(database: &Database) -> Result<(), sqlx::Error> {
    match database {
        Database::Sqlite { pool, .. } => {
            sqlx::query("pragma wal_checkpoint(truncate)")
                .execute(pool)
                .await?;
            sqlx::query("vacuum").execute(pool).await?;
            sqlx::query("pragma wal_checkpoint(truncate)")
                .execute(pool)
                .await?;
        }
        Database::Postgres(pool) => {
            sqlx::query("vacuum data_key").execute(pool).await?;
        }
    }
    Ok(())
}
