//! `auditor` (staff accounts: argon2id password hashes, roles, the TOTP secret,
//! disabled time and reason), `staff_setup_link` (one-time links to set a password),
//! `staff_change` (every change to an account, in its transaction) and
//! `auditor_login_failure` (the per-username run of login attempts): the statements of
//! `crate::accounts::auditors`, which holds the rules (username pattern, password
//! length, the lock after five failures, who may change what).

use chrono::{DateTime, Utc};
use projections::projection::time_text;
use projections::store::Database;
use uuid::Uuid;

use super::with_pool;

/// Records a change to the account `auditor_id` by `by` (`auditor:<id>` or
/// `operator`): bound as `$1` account, `$2` time, `$3` change, `$4` detail, `$5` by, `$6` id.
const RECORD_CHANGE: &str = "insert into staff_change \
     (auditor_id, at, change, detail, by_actor, change_id) values ($1, $2, $3, $4, $5, $6)";

/// One change to a staff account, as [`RECORD_CHANGE`] stores it.
#[derive(Debug, Clone, Copy)]
pub struct Change<'a> {
    /// The account changed.
    pub auditor_id: &'a str,
    /// When.
    pub at: DateTime<Utc>,
    /// `created`, `roles`, `disabled`, `enabled`, `password_reset`, `password_set`.
    pub change: &'a str,
    /// The roles set, the reason of a disable, or empty.
    pub detail: &'a str,
    /// `auditor:<id>` or `operator`.
    pub by: &'a str,
}

macro_rules! record_change {
    ($tx:expr, $change:expr) => {
        sqlx::query(RECORD_CHANGE)
            .bind($change.auditor_id)
            .bind(time_text($change.at))
            .bind($change.change)
            .bind($change.detail)
            .bind($change.by)
            .bind(Uuid::now_v7().to_string())
            .execute(&mut *$tx)
            .await?
    };
}

/// A new staff account as [`insert`] stores it.
#[derive(Debug, Clone, Copy)]
pub struct NewAccount<'a> {
    /// A new UUID v7.
    pub auditor_id: Uuid,
    /// Normalized.
    pub username: &'a str,
    /// argon2id, or [`NO_PASSWORD`] until a setup link is used.
    pub password_hash: &'a str,
    /// As `crate::accounts::roles::roles_text` writes them.
    pub roles: &'a str,
    /// Base32, when the second factor is enrolled at once (the command line).
    pub totp_secret: Option<&'a str>,
}

/// The password hash of an account whose holder has not set one yet: no password
/// verifies against it (it is no PHC string).
pub const NO_PASSWORD: &str = "!";

/// Stores a new staff account and records its creation by `by`, in one transaction: a
/// unique violation when the username is taken.
pub async fn insert(
    database: &Database,
    account: NewAccount<'_>,
    created_at: DateTime<Utc>,
    by: &str,
) -> Result<u64, sqlx::Error> {
    let sql = "insert into auditor (auditor_id, username, password_hash, created_at, roles, totp_secret) \
               values ($1, $2, $3, $4, $5, $6)";
    let id = account.auditor_id.to_string();
    with_pool!(database, pool => async {
        let mut tx = pool.begin().await?;
        let inserted = sqlx::query(sql)
            .bind(&id)
            .bind(account.username)
            .bind(account.password_hash)
            .bind(time_text(created_at))
            .bind(account.roles)
            .bind(account.totp_secret)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        let change = Change { auditor_id: &id, at: created_at, change: "created", detail: account.roles, by };
        record_change!(tx, change);
        tx.commit().await?;
        Ok::<u64, sqlx::Error>(inserted)
    }.await)
}

/// Sets the roles of `auditor_id` and records it, in one transaction; answers the rows
/// changed (0: no such account, or it already had them).
pub async fn set_roles(database: &Database, change: Change<'_>) -> Result<u64, sqlx::Error> {
    let sql = "update auditor set roles = $2 where auditor_id = $1 and roles <> $2";
    with_pool!(database, pool => async {
        let mut tx = pool.begin().await?;
        let changed = sqlx::query(sql)
            .bind(change.auditor_id)
            .bind(change.detail)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if changed > 0 {
            record_change!(tx, change);
        }
        tx.commit().await?;
        Ok::<u64, sqlx::Error>(changed)
    }.await)
}

/// A one-time link as [`issue_setup_link`] stores it.
#[derive(Debug, Clone, Copy)]
pub struct NewSetupLink<'a> {
    /// SHA-256 of the token, hex.
    pub token_hash: &'a str,
    /// Base32, the second factor the holder enrolls, if required.
    pub totp_secret: Option<&'a str>,
    /// Until when it may be used.
    pub expires_at: DateTime<Utc>,
}

/// Stores a setup link for the account of `change` and, for a reset (`change.change ==
/// "password_reset"`), makes the old password unusable, revokes the account's sessions,
/// ends its earlier links and records the reset, in one transaction. Answers false when
/// there is no such account.
pub async fn issue_setup_link(
    database: &Database,
    link: NewSetupLink<'_>,
    change: Change<'_>,
) -> Result<bool, sqlx::Error> {
    let exists = "select count(*) from auditor where auditor_id = $1";
    let unusable = "update auditor set password_hash = $2 where auditor_id = $1";
    let end_links =
        "update staff_setup_link set used_at = $2 where auditor_id = $1 and used_at is null";
    let insert = "insert into staff_setup_link \
                  (token_hash, auditor_id, totp_secret, created_at, created_by, expires_at) \
                  values ($1, $2, $3, $4, $5, $6)";
    let now = time_text(change.at);
    with_pool!(database, pool => async {
        let mut tx = pool.begin().await?;
        let found: i64 = sqlx::query_scalar(exists).bind(change.auditor_id).fetch_one(&mut *tx).await?;
        if found == 0 {
            return Ok(false);
        }
        if change.change == "password_reset" {
            sqlx::query(unusable).bind(change.auditor_id).bind(NO_PASSWORD).execute(&mut *tx).await?;
            sqlx::query(super::sessions::REVOKE_AUDITOR).bind(change.auditor_id).bind(&now).execute(&mut *tx).await?;
            record_change!(tx, change);
        }
        sqlx::query(end_links).bind(change.auditor_id).bind(&now).execute(&mut *tx).await?;
        sqlx::query(insert)
            .bind(link.token_hash)
            .bind(change.auditor_id)
            .bind(link.totp_secret)
            .bind(&now)
            .bind(change.by)
            .bind(time_text(link.expires_at))
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok::<bool, sqlx::Error>(true)
    }.await)
}

/// A live setup link: whose account and the second factor it enrolls.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SetupLink {
    /// The account.
    pub auditor_id: String,
    /// Its username.
    pub username: String,
    /// Base32, if the link enrolls a second factor.
    pub totp_secret: Option<String>,
}

/// The unused, unexpired link whose token hashes to `token_hash`, of an enabled account.
pub async fn setup_link(
    database: &Database,
    token_hash: &str,
    now: DateTime<Utc>,
) -> Result<Option<SetupLink>, sqlx::Error> {
    let sql = "select l.auditor_id, a.username, l.totp_secret from staff_setup_link l \
               join auditor a on a.auditor_id = l.auditor_id \
               where l.token_hash = $1 and l.used_at is null and l.expires_at > $2 \
               and a.disabled_at is null";
    with_pool!(database, pool => sqlx::query_as(sql)
        .bind(token_hash).bind(time_text(now)).fetch_optional(pool).await)
}

/// Uses the link `token_hash`: takes it (once, unexpired, in one statement), sets the
/// password hash and the second factor it enrolls with the step of the code that
/// enrolled it taken (`totp_step`), revokes the account's sessions and records it, in
/// one transaction. Answers false when the link was not live.
pub async fn use_setup_link(
    database: &Database,
    token_hash: &str,
    password_hash: &str,
    totp_step: Option<i64>,
    now: DateTime<Utc>,
) -> Result<bool, sqlx::Error> {
    let take = "update staff_setup_link set used_at = $2 \
                where token_hash = $1 and used_at is null and expires_at > $2 \
                returning auditor_id, totp_secret";
    let set = "update auditor set password_hash = $2, \
               totp_secret = coalesce($3, totp_secret), \
               totp_last_step = case when $3 is null then totp_last_step else $4 end \
               where auditor_id = $1 and disabled_at is null";
    let at = time_text(now);
    with_pool!(database, pool => async {
        let mut tx = pool.begin().await?;
        let taken: Option<(String, Option<String>)> = sqlx::query_as(take)
            .bind(token_hash).bind(&at).fetch_optional(&mut *tx).await?;
        let Some((auditor_id, totp_secret)) = taken else {
            return Ok(false);
        };
        let set = sqlx::query(set)
            .bind(&auditor_id).bind(password_hash).bind(totp_secret).bind(totp_step)
            .execute(&mut *tx).await?.rows_affected();
        if set == 0 {
            // Disabled since the link was read: nothing is set, the link stays unused.
            return Ok(false);
        }
        sqlx::query(super::sessions::REVOKE_AUDITOR).bind(&auditor_id).bind(&at).execute(&mut *tx).await?;
        let by = format!("auditor:{auditor_id}");
        let change = Change { auditor_id: &auditor_id, at: now, change: "password_set", detail: "", by: &by };
        record_change!(tx, change);
        tx.commit().await?;
        Ok::<bool, sqlx::Error>(true)
    }.await)
}

/// Takes the TOTP step `step` of `auditor_id` in one statement: true when it is later
/// than the last one taken, so a code is accepted once.
pub async fn take_totp_step(
    database: &Database,
    auditor_id: &str,
    step: i64,
) -> Result<bool, sqlx::Error> {
    let sql = "update auditor set totp_last_step = $2 \
               where auditor_id = $1 and (totp_last_step is null or totp_last_step < $2)";
    with_pool!(database, pool => sqlx::query(sql)
        .bind(auditor_id).bind(step).execute(pool).await.map(|r| r.rows_affected() == 1))
}

/// A staff account as the console lists it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Account {
    /// The id.
    pub auditor_id: String,
    /// Normalized.
    pub username: String,
    /// As stored (comma-separated).
    pub roles: String,
    /// When created (RFC 3339).
    pub created_at: String,
    /// When disabled, if it is.
    pub disabled_at: Option<String>,
    /// Why.
    pub disabled_reason: Option<String>,
    /// Whether a second factor is enrolled.
    pub second_factor: bool,
    /// Whether a password is set (false until the setup link is used).
    pub password_set: bool,
}

/// The columns of an [`Account`], from `auditor`.
const ACCOUNT: &str = "select auditor_id, username, roles, created_at, disabled_at, \
     disabled_reason, (totp_secret is not null) as second_factor, \
     (password_hash <> '!') as password_set from auditor";

/// Every staff account, by username.
pub async fn accounts(database: &Database) -> Result<Vec<Account>, sqlx::Error> {
    let sql = format!("{ACCOUNT} order by username");
    with_pool!(database, pool => sqlx::query_as(&sql).fetch_all(pool).await)
}

/// The account `auditor_id`, if any.
pub async fn account(
    database: &Database,
    auditor_id: &str,
) -> Result<Option<Account>, sqlx::Error> {
    let sql = format!("{ACCOUNT} where auditor_id = $1");
    with_pool!(database, pool => sqlx::query_as(&sql).bind(auditor_id).fetch_optional(pool).await)
}

/// Every (account, who changed it) pair of `staff_change`, each once: who created,
/// gave roles to, reset, disabled or enabled which account (`auditor:<id>` or
/// `operator`).
pub async fn changers(database: &Database) -> Result<Vec<(String, String)>, sqlx::Error> {
    let sql = "select distinct auditor_id, by_actor from staff_change";
    with_pool!(database, pool => sqlx::query_as(sql).fetch_all(pool).await)
}

/// The id of the auditor named `username`, disabled or not.
pub async fn id_of(database: &Database, username: &str) -> Result<Option<String>, sqlx::Error> {
    let found = "select auditor_id from auditor where username = $1";
    with_pool!(database, pool =>
        sqlx::query_scalar(found).bind(username).fetch_optional(pool).await)
}

/// Disables the auditor `auditor_id` with `reason` (`Some`), or enables it again
/// (`None`), at `now`, and revokes its sessions, in one transaction: after a disable
/// (again too: a retry revokes what a login racing the first one issued), and after
/// an enable that lifted one. Answers how many rows the change touched (0: it already
/// was so).
pub async fn set_disabled(
    database: &Database,
    auditor_id: &str,
    reason: Option<&str>,
    now: DateTime<Utc>,
    by: &str,
) -> Result<u64, sqlx::Error> {
    let change = Change {
        auditor_id,
        at: now,
        change: if reason.is_some() {
            "disabled"
        } else {
            "enabled"
        },
        detail: reason.unwrap_or_default(),
        by,
    };
    let now = time_text(now);
    let disable = "update auditor set disabled_at = $2, disabled_reason = $3 \
                   where auditor_id = $1 and disabled_at is null";
    let enable = "update auditor set disabled_at = null, disabled_reason = null \
                  where auditor_id = $1 and disabled_at is not null";
    let revoke = super::sessions::REVOKE_AUDITOR;
    with_pool!(database, pool => async {
        let mut tx = pool.begin().await?;
        let update = match reason {
            Some(reason) => sqlx::query(disable).bind(auditor_id).bind(&now).bind(reason),
            None => sqlx::query(enable).bind(auditor_id),
        };
        let changed = update.execute(&mut *tx).await?.rows_affected();
        if changed > 0 {
            record_change!(tx, change);
        }
        if reason.is_some() {
            // A disabled account's setup links end with it: enabling it again brings
            // none back.
            let end_links = "update staff_setup_link set used_at = $2 \
                             where auditor_id = $1 and used_at is null";
            sqlx::query(end_links).bind(auditor_id).bind(&now).execute(&mut *tx).await?;
        }
        // Enabling an enabled account signs nobody out.
        if reason.is_some() || changed > 0 {
            sqlx::query(revoke).bind(auditor_id).bind(&now).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok::<u64, sqlx::Error>(changed)
    }.await)
}

/// An auditor who may log in.
#[derive(Debug, sqlx::FromRow)]
pub struct Login {
    /// The auditor id.
    pub auditor_id: String,
    /// The (normalized) username.
    pub username: String,
    /// The argon2id hash of the password.
    pub password_hash: String,
    /// As stored (comma-separated).
    pub roles: String,
    /// Base32, when a second factor is enrolled.
    pub totp_secret: Option<String>,
}

/// The enabled auditor named `username`, if any.
pub async fn find_enabled(
    database: &Database,
    username: &str,
) -> Result<Option<Login>, sqlx::Error> {
    let sql = "select auditor_id, username, password_hash, roles, totp_secret from auditor \
               where username = $1 and disabled_at is null";
    with_pool!(database, pool =>
        sqlx::query_as(sql).bind(username).fetch_optional(pool).await)
}

/// Ends the run of login attempts of `username`.
pub async fn clear_login_attempts(database: &Database, username: &str) -> Result<u64, sqlx::Error> {
    let clear = "delete from auditor_login_failure where username = $1";
    with_pool!(database, pool => sqlx::query(clear)
        .bind(username).execute(pool).await.map(|r| r.rows_affected()))
}

/// Counts one login attempt of `username` at `now` in one upsert and answers its
/// number in the current run: a run starts at 1 after a success (which deleted the
/// row), after a lock has passed, or when the last attempt is older than `window`;
/// the attempt that reaches `max` locks the username for `window`, and attempts
/// during a lock keep counting.
pub async fn take_login_attempt(
    database: &Database,
    username: &str,
    now: DateTime<Utc>,
    window: chrono::Duration,
    max: i64,
) -> Result<i64, sqlx::Error> {
    // `last_failed_at` holds the time of the last attempt of the run.
    let take = "insert into auditor_login_failure (username, failures, last_failed_at, locked_until) \
                values ($1, 1, $2, case when 1 >= $5 then $4 end) \
                on conflict (username) do update set \
                failures = case \
                  when auditor_login_failure.locked_until > $2 then auditor_login_failure.failures + 1 \
                  when auditor_login_failure.locked_until is not null \
                    or auditor_login_failure.last_failed_at < $3 then 1 \
                  else auditor_login_failure.failures + 1 end, \
                locked_until = case \
                  when auditor_login_failure.locked_until > $2 then auditor_login_failure.locked_until \
                  when auditor_login_failure.locked_until is null \
                    and auditor_login_failure.last_failed_at >= $3 \
                    and auditor_login_failure.failures + 1 >= $5 then $4 \
                  else null end, \
                last_failed_at = $2 \
                returning failures";
    with_pool!(database, pool => sqlx::query_scalar(take)
        .bind(username).bind(time_text(now)).bind(time_text(now - window))
        .bind(time_text(now + window)).bind(max)
        .fetch_one(pool).await)
}
