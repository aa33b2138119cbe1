//! The erasure workflow (PRODUCT.md 12.6, RA 10173, ADR 0012): after a borrower's
//! `PersonalDataErased` is committed, destroy everything personal held about them
//! outside the event log, then their data key, then rebuild the read models.
//!
//! Where each part lives (DESIGN.md "Where each rule lives"):
//! - **the rule** (no open order, the retention period over) is the User's:
//!   `UserCommand::EraseAfterRetention` records `PersonalDataErased` or refuses;
//! - **the steps** are this [`Workflow`], reacting to that event after it is committed.
//!   Each step is idempotent (a delete of what is already gone deletes nothing), and
//!   they run in an order that survives a crash at any point: everything found through
//!   a personal value (the phone number's texts and codes) goes before the key, which
//!   makes those values unreadable; the key goes before the rebuild, which must read
//!   the log as erased. A repeat after a crash runs every step again.
//!
//! Steps: the account's phone, ID and email claims, sessions, codes, throttles and
//! texts, idempotency answers (they can hold a whole `/user/info`), the stored ID
//! photos and signatures (`<kind>/<user id>/…` in the object store), the data key
//! (`projections::store::sealing`), a rebuild of every read model, and on SQLite a
//! `VACUUM` so no freed page keeps an old value. Orders, payments, receipts' amounts,
//! the ledger and the export and download records (ids and times) stay.

use aggregates::user::UserEvent;
use futures_util::TryStreamExt;
use object_store::path::Path as ObjectPath;
use projections::consumer::Workflow;
use projections::projection::all;
use projections::store::sealing::DataKeys;
use projections::store::{Database, StoredEvent};
use projections::ProjectionError;

use crate::db::with_pool;
use crate::state::AppState;

/// Checkpoint name of the erasure workflow.
pub const ERASURE_WORKER: &str = "worker:erasure";

/// The erasure workflow; see the module docs.
pub struct ErasureWorker {
    state: AppState,
}

impl ErasureWorker {
    /// A workflow erasing in `state`'s database and object store.
    pub fn new(state: AppState) -> Self {
        Self { state }
    }

    /// Runs every erasure after its checkpoint; how many events it read.
    pub async fn catch_up(&self) -> Result<usize, ProjectionError> {
        projections::consumer::workflow_catch_up(self).await
    }
}

fn failed(error: impl std::fmt::Display) -> ProjectionError {
    ProjectionError::Load(error.to_string())
}

/// Erases `user_id`'s personal data outside the log; `by` names who asked
/// (`auditor:<id>`), recorded with the key's erasure.
async fn erase(
    state: &AppState,
    user_id: &str,
    by: &str,
    at: chrono::DateTime<chrono::Utc>,
) -> Result<(), ProjectionError> {
    // The phone number from the account's claim on it (the User's state already
    // reads erased): its texts and codes go first, the claim itself after them.
    let sql = "select mobile from user_mobile where user_id = $1";
    let mobile: Option<String> = with_pool!(&state.database, pool => sqlx::query_scalar(sql)
        .bind(user_id).fetch_optional(pool).await)?;
    if let Some(mobile) = mobile {
        for sql in [
            "delete from sms_code where mobile = $1",
            "delete from sms_throttle where mobile = $1",
            "delete from sms_outbox where mobile = $1",
        ] {
            run(&state.database, sql, &mobile).await?;
        }
    }
    let by_user = [
        "delete from user_mobile where user_id = $1",
        "delete from user_claim where user_id = $1",
        "delete from auth_token where subject = $1",
    ];
    for sql in by_user {
        run(&state.database, sql, user_id).await?;
    }
    run(
        &state.database,
        "delete from idempotency where scope = $1",
        &format!("user:{user_id}"),
    )
    .await?;
    delete_objects(state, user_id).await?;
    let erased = DataKeys::new(&state.database)
        .erase(user_id, by, at)
        .await
        .map_err(failed)?;
    // The read models still hold the values the projections wrote; folded again from
    // the log, they read erased.
    projections::rebuild::rebuild(&state.database, &all(), &mut |_| {}).await?;
    compact(&state.database).await?;
    tracing::info!(%user_id, key_erased = erased, "personal data erased");
    Ok(())
}

async fn run(database: &Database, sql: &str, value: &str) -> Result<u64, ProjectionError> {
    Ok(with_pool!(database, pool => sqlx::query(sql)
        .bind(value).execute(pool).await.map(|r| r.rows_affected()))?)
}

/// Deletes every stored object of the user: keys are `<kind>/<user id>/<name>`.
async fn delete_objects(state: &AppState, user_id: &str) -> Result<(), ProjectionError> {
    let storage = &state.storage;
    let kinds = storage.list_with_delimiter(None).await.map_err(failed)?;
    for kind in kinds.common_prefixes {
        let prefix = ObjectPath::from(format!("{kind}/{user_id}"));
        let objects: Vec<_> = storage
            .list(Some(&prefix))
            .try_collect()
            .await
            .map_err(failed)?;
        for object in objects {
            match storage.delete(&object.location).await {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
                Err(error) => return Err(failed(error)),
            }
        }
    }
    Ok(())
}

/// SQLite: writes the WAL back and rebuilds the file, so no free page or WAL frame
/// keeps a deleted value; `secure_delete` already zeroes what is deleted in place.
/// PostgreSQL: vacuums the key table, whose old row versions held the key.
async fn compact(database: &Database) -> Result<(), ProjectionError> {
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

#[async_trait::async_trait]
impl Workflow for ErasureWorker {
    fn name(&self) -> &'static str {
        ERASURE_WORKER
    }

    fn database(&self) -> &Database {
        &self.state.database
    }

    fn reacts_to(&self, event: &StoredEvent) -> bool {
        event.aggregate_type == "User" && event.event_type == "PersonalDataErased"
    }

    #[tracing::instrument(name = "erasure", skip_all, fields(user_id = %event.aggregate_id))]
    async fn react(&self, event: &StoredEvent) -> Result<(), ProjectionError> {
        let payload: UserEvent =
            event
                .payload
                .decode()
                .map_err(|source| ProjectionError::Decode {
                    what: "PersonalDataErased",
                    position: event.position,
                    source,
                })?;
        let UserEvent::PersonalDataErased { auditor_id, at } = payload else {
            return Ok(());
        };
        let by = format!("auditor:{auditor_id}");
        erase(&self.state, &event.aggregate_id, &by, at).await
    }
}
