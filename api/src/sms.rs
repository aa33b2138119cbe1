//! SMS verification codes (PRODUCT.md section 5): 6 digits, valid 5 minutes, single
//! use, one request per 60 s per phone and purpose, stored only as a hash. The default
//! sender writes each message to the `sms_outbox` table, so the app works offline; its
//! log line names the purpose and the masked phone number, never the code.

use aggregates::ErrorCode;
use chrono::Duration;
use rand::Rng;
use sha2::{Digest, Sha256};

use crate::db::with_pool;
use crate::envelope::ApiError;
use crate::state::AppState;
use projections::projection::time_text;

/// What a code is for; a code for one purpose never unlocks another.
pub const PURPOSES: [&str; 5] = ["register", "login", "unlock", "bank", "pin"];

fn code_hash(mobile: &str, purpose: &str, code: &str) -> String {
    Sha256::digest(format!("{mobile}:{purpose}:{code}").as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Sends a new code. Error 5 when the last one for this phone and purpose is younger
/// than 60 seconds.
pub async fn send(state: &AppState, mobile: &str, purpose: &str) -> Result<(), ApiError> {
    let now = state.now();
    let recent = time_text(now - Duration::seconds(60));
    let sql =
        "select count(*) from sms_code where mobile = $1 and purpose = $2 and created_at > $3";
    let count: i64 = with_pool!(&state.database, pool =>
        sqlx::query_scalar(sql).bind(mobile).bind(purpose).bind(&recent).fetch_one(pool).await)?;
    if count > 0 {
        return Err(ApiError::new(
            ErrorCode::TooManyRequests,
            "too many requests, try again later: one code per 60 seconds",
        ));
    }
    let code = format!("{:06}", rand::thread_rng().gen_range(0..1_000_000));
    let body = format!("Your verification code is {code}. It is valid for 5 minutes. We never ask you to pay to receive a loan.");
    let insert = "insert into sms_code (mobile, purpose, code_hash, expires_at, used_at, created_at) values ($1, $2, $3, $4, null, $5)";
    let outbox = "insert into sms_outbox (mobile, body, created_at) values ($1, $2, $3)";
    with_pool!(&state.database, pool => {
        let mut tx = pool.begin().await?;
        sqlx::query(insert).bind(mobile).bind(purpose).bind(code_hash(mobile, purpose, &code))
            .bind(time_text(now + Duration::minutes(5))).bind(time_text(now)).execute(&mut *tx).await?;
        sqlx::query(outbox).bind(mobile).bind(&body).bind(time_text(now)).execute(&mut *tx).await?;
        tx.commit().await
    })?;
    // The default sender: the outbox is the delivery channel; the log never holds the
    // code (nor the message body).
    tracing::info!(purpose, mobile = %aggregates::types::mask(mobile, 4), "SMS code sent to the outbox");
    Ok(())
}

/// Consumes a valid, unexpired, unused code. Errors: 10013 when no such code is
/// waiting for this phone and purpose at all (never sent, expired or used: ask for a
/// new one), 10011 when one is waiting but `code` is not it.
pub async fn verify(
    state: &AppState,
    mobile: &str,
    purpose: &str,
    code: &str,
) -> Result<(), ApiError> {
    let now = time_text(state.now());
    let sql =
        "update sms_code set used_at = $1 where mobile = $2 and purpose = $3 and code_hash = $4 \
               and used_at is null and expires_at > $5";
    let used = with_pool!(&state.database, pool => sqlx::query(sql)
        .bind(&now).bind(mobile).bind(purpose).bind(code_hash(mobile, purpose, code.trim())).bind(&now)
        .execute(pool).await.map(|r| r.rows_affected()))?;
    if used == 0 {
        let live = "select count(*) from sms_code where mobile = $1 and purpose = $2 \
                    and used_at is null and expires_at > $3";
        let waiting: i64 = with_pool!(&state.database, pool => sqlx::query_scalar(live)
            .bind(mobile).bind(purpose).bind(&now).fetch_one(pool).await)?;
        return Err(ApiError::code(if waiting == 0 {
            ErrorCode::GetVerificationCodeAgain
        } else {
            ErrorCode::VerificationCodeInvalid
        }));
    }
    Ok(())
}
