//! `sms_code` (verification codes, stored only as hashes, with their wrong entries)
//! and `sms_throttle` (the last send per phone and purpose): the statements of
//! `crate::accounts::sms`, which holds the rules (6 digits, 5 minutes, 60 s between codes, five
//! wrong entries).

use chrono::{DateTime, Duration, Utc};
use projections::projection::time_text;
use projections::store::Database;

use super::with_pool;

/// A code to record, and the text that carries it when it is delivered.
pub struct NewCode<'a> {
    /// The phone number.
    pub mobile: &'a str,
    /// What the code is for.
    pub purpose: &'a str,
    /// SHA-256 of phone, purpose and code.
    pub code_hash: &'a str,
    /// When it is sent.
    pub now: DateTime<Utc>,
    /// When it stops being accepted.
    pub expires_at: DateTime<Utc>,
    /// Wrong entries made on this phone's codes of this purpose since then count
    /// towards the slower interval.
    pub wrong_entries_since: DateTime<Utc>,
    /// The outbox message (its id and body), or `None` when the code is recorded
    /// without being sent.
    pub message: Option<(String, &'a str)>,
}

/// What [`send`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sent {
    /// Wrong entries on the phone's codes of this purpose since
    /// [`NewCode::wrong_entries_since`].
    pub wrong_entries: i64,
    /// Whether the code was recorded (the interval had passed).
    pub recorded: bool,
}

/// Records `code` in one transaction: counts the wrong entries since
/// `wrong_entries_since`; takes the send's turn only when the last send of this
/// phone and purpose is older than `interval(wrong entries)` (one upsert: parallel
/// sends wait on the row and re-check it); and then voids the older codes, stores the
/// new one and queues its message in the outbox.
pub async fn send(
    database: &Database,
    code: &NewCode<'_>,
    interval: impl Fn(i64) -> Duration,
) -> Result<Sent, sqlx::Error> {
    let (mobile, purpose, now) = (code.mobile, code.purpose, code.now);
    let throttle = "insert into sms_throttle (mobile, purpose, last_sent_at) values ($1, $2, $3) \
                    on conflict (mobile, purpose) do update set last_sent_at = excluded.last_sent_at \
                    where sms_throttle.last_sent_at <= $4";
    let guessed = "select cast(coalesce(sum(failed_attempts), 0) as bigint) from sms_code \
                   where mobile = $1 and purpose = $2 and created_at > $3";
    let window_start = time_text(code.wrong_entries_since);
    let void_older =
        "update sms_code set used_at = $1 where mobile = $2 and purpose = $3 and used_at is null";
    let insert = "insert into sms_code (mobile, purpose, code_hash, expires_at, used_at, created_at) values ($1, $2, $3, $4, null, $5)";
    let outbox = super::sms_outbox::QUEUE;
    with_pool!(database, pool => {
        let mut tx = pool.begin().await?;
        let wrong: i64 = sqlx::query_scalar(guessed).bind(mobile).bind(purpose).bind(&window_start)
            .fetch_one(&mut *tx).await?;
        let recent = time_text(now - interval(wrong));
        let allowed = sqlx::query(throttle).bind(mobile).bind(purpose).bind(time_text(now)).bind(&recent)
            .execute(&mut *tx).await?.rows_affected() == 1;
        if allowed {
            sqlx::query(void_older).bind(time_text(now)).bind(mobile).bind(purpose).execute(&mut *tx).await?;
            sqlx::query(insert).bind(mobile).bind(purpose).bind(code.code_hash)
                .bind(time_text(code.expires_at)).bind(time_text(now)).execute(&mut *tx).await?;
            if let Some((message_id, body)) = &code.message {
                sqlx::query(outbox).bind(mobile).bind(*body).bind(time_text(now))
                    .bind(message_id).execute(&mut *tx).await?;
            }
        }
        tx.commit().await.map(|()| Sent { wrong_entries: wrong, recorded: allowed })
    })
}

/// Enters a code of `mobile` and `purpose` (its hash) at `now`, in one statement on
/// every waiting (unused, unexpired) code: a match consumes it; otherwise a wrong
/// entry is counted on it and, at `max_wrong`, voids it. Answers one outcome per
/// waiting code: -1 for the one consumed, else its wrong entries so far. Row locks
/// serialize parallel entries on a code, and each re-reads it.
pub async fn enter(
    database: &Database,
    mobile: &str,
    purpose: &str,
    code_hash: &str,
    max_wrong: i64,
    now: DateTime<Utc>,
) -> Result<Vec<i64>, sqlx::Error> {
    let now = time_text(now);
    let sql = "update sms_code set \
               failed_attempts = failed_attempts + case when code_hash = $1 then 0 else 1 end, \
               used_at = case when code_hash = $1 or failed_attempts + 1 >= $2 then $3 else null end \
               where mobile = $4 and purpose = $5 and used_at is null and expires_at > $3 \
               returning cast(case when code_hash = $1 then -1 else failed_attempts end as bigint)";
    with_pool!(database, pool => sqlx::query_scalar(sql)
        .bind(code_hash).bind(max_wrong).bind(&now).bind(mobile).bind(purpose)
        .fetch_all(pool).await)
}

/// Deletes every code and send time of `mobile` (an erasure).
pub async fn erase_mobile(database: &Database, mobile: &str) -> Result<(), sqlx::Error> {
    for sql in [
        "delete from sms_code where mobile = $1",
        "delete from sms_throttle where mobile = $1",
    ] {
        with_pool!(database, pool => sqlx::query(sql)
            .bind(mobile).execute(pool).await.map(|r| r.rows_affected()))?;
    }
    Ok(())
}
