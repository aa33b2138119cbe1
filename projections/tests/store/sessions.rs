//! The loan process's [`SessionRevoker`] for these tests: plain SQL on the api's
//! `auth_token` table (the api's own is `api::db::sessions::Revoker`, the same
//! statement).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use projections::process::SessionRevoker;
use projections::projection::time_text;
use projections::store::Database;
use projections::ProjectionError;
use uuid::Uuid;

/// Revokes sessions in one store.
pub struct SqlSessions {
    database: Database,
}

impl SqlSessions {
    /// A revoker for the loan process on `database`.
    pub fn on(database: &Database) -> Arc<dyn SessionRevoker> {
        Arc::new(Self {
            database: database.clone(),
        })
    }
}

#[async_trait::async_trait]
impl SessionRevoker for SqlSessions {
    async fn revoke_issued_before(
        &self,
        subject: Uuid,
        at: DateTime<Utc>,
        except_session: Option<&str>,
    ) -> Result<(), ProjectionError> {
        let sql = "update auth_token set revoked_at = $1 where subject = $2 \
                   and kind = 'borrower' and revoked_at is null and created_at <= $1 \
                   and substr(token_hash, 1, 16) <> $3";
        projections::with_pool!(&self.database, pool => sqlx::query(sql)
            .bind(time_text(at))
            .bind(subject.to_string())
            .bind(except_session.unwrap_or_default())
            .execute(pool)
            .await
            .map(|r| r.rows_affected()))?;
        Ok(())
    }
}
