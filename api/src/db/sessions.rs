//! `auth_token`: one row per session token, keyed by the token's SHA-256 (the token
//! itself is never stored), with its subject, kind (`borrower` or `auditor`), expiry
//! and revocation time. The rules (issue, check, revoke) are `crate::http::auth`'s; the
//! session check of the reads joins this table in `projections::reads`.

use chrono::{DateTime, Utc};
use projections::projection::time_text;
use projections::store::Database;
use projections::ProjectionError;
use uuid::Uuid;

use super::with_pool;

/// A new session row.
pub struct NewSession<'a> {
    /// SHA-256 of the token, lower-case hex.
    pub token_hash: &'a str,
    /// The user or auditor id.
    pub subject: Uuid,
    /// `borrower` or `auditor`.
    pub kind: &'a str,
    /// When it stops opening calls.
    pub expires_at: DateTime<Utc>,
    /// When it was issued.
    pub created_at: DateTime<Utc>,
}

/// Stores a new session.
pub async fn insert(database: &Database, session: &NewSession<'_>) -> Result<u64, sqlx::Error> {
    let sql =
        "insert into auth_token (token_hash, subject, kind, expires_at, revoked_at, created_at) \
               values ($1, $2, $3, $4, null, $5)";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(session.token_hash)
        .bind(session.subject.to_string())
        .bind(session.kind)
        .bind(time_text(session.expires_at))
        .bind(time_text(session.created_at))
        .execute(pool)
        .await.map(|r| r.rows_affected()))
}

/// Revokes the session of `token_hash` at `now`, unless it already is.
pub async fn revoke(
    database: &Database,
    token_hash: &str,
    now: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let sql = "update auth_token set revoked_at = $1 where token_hash = $2 and revoked_at is null";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(time_text(now))
        .bind(token_hash)
        .execute(pool)
        .await.map(|r| r.rows_affected()))
}

/// A live session of a borrower, as listed to them.
#[derive(Debug, sqlx::FromRow)]
pub struct LiveSession {
    /// SHA-256 of the token.
    pub token_hash: String,
    /// When it was issued.
    pub created_at: String,
    /// When it expires.
    pub expires_at: String,
}

/// The unrevoked borrower sessions of `subject` that expire after `now`, newest first.
pub async fn live_borrower_sessions(
    database: &Database,
    subject: Uuid,
    now: DateTime<Utc>,
) -> Result<Vec<LiveSession>, sqlx::Error> {
    let sql = "select token_hash, created_at, expires_at from auth_token \
               where subject = $1 and kind = 'borrower' and revoked_at is null \
               and expires_at > $2 order by created_at desc";
    with_pool!(database, pool =>
        sqlx::query_as(sql).bind(subject.to_string()).bind(time_text(now))
            .fetch_all(pool).await)
}

/// Revokes the unrevoked borrower session of `subject` whose token hash starts with
/// `session_id` (16 hex digits), at `now`: how many it revoked.
pub async fn revoke_borrower_session(
    database: &Database,
    subject: Uuid,
    session_id: &str,
    now: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let sql = "update auth_token set revoked_at = $1 where subject = $2 and kind = 'borrower' \
               and revoked_at is null and substr(token_hash, 1, 16) = $3";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(time_text(now))
        .bind(subject.to_string())
        .bind(session_id)
        .execute(pool)
        .await.map(|r| r.rows_affected()))
}

/// Revokes every unrevoked session of the auditor `$1` at `$2`: a statement of the
/// transaction that disables or enables the account ([`super::auditors::set_disabled`]).
pub(super) const REVOKE_AUDITOR: &str = "update auth_token set revoked_at = $2 \
                  where subject = $1 and kind = 'auditor' and revoked_at is null";

/// Deletes every session of `subject` (an erasure).
pub async fn erase_subject(database: &Database, subject: &str) -> Result<u64, sqlx::Error> {
    let sql = "delete from auth_token where subject = $1";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(subject).execute(pool).await.map(|r| r.rows_affected()))
}

/// The loan process's revocations of a borrower's sessions (a password reset or
/// change, PRODUCT.md 12.3), on the api's `auth_token` table
/// ([`projections::process::SessionRevoker`]).
#[derive(Clone)]
pub struct Revoker {
    database: Database,
}

impl Revoker {
    /// Revokes in `database`.
    pub fn new(database: &Database) -> Self {
        Self {
            database: database.clone(),
        }
    }
}

#[async_trait::async_trait]
impl projections::process::SessionRevoker for Revoker {
    async fn revoke_issued_before(
        &self,
        subject: Uuid,
        at: DateTime<Utc>,
        except_session: Option<&str>,
    ) -> Result<(), ProjectionError> {
        let at = time_text(at);
        // No session id is empty, so "" keeps none.
        let sql = "update auth_token set revoked_at = $1 where subject = $2 \
                   and kind = 'borrower' and revoked_at is null and created_at <= $1 \
                   and substr(token_hash, 1, 16) <> $3";
        let kept = except_session.unwrap_or_default();
        with_pool!(&self.database, pool => sqlx::query(sql)
            .bind(&at).bind(subject.to_string()).bind(kept)
            .execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(())
    }
}
