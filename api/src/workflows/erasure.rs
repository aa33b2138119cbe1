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

use crate::db;
use crate::runtime::state::AppState;

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
    let database = &state.database;
    if let Some(mobile) = db::claims::mobile_of(database, user_id).await? {
        db::sms_codes::erase_mobile(database, &mobile).await?;
        db::sms_outbox::erase_mobile(database, &mobile).await?;
    }
    db::claims::erase_user(database, user_id).await?;
    db::sessions::erase_subject(database, user_id).await?;
    db::idempotency::erase_scope(database, &format!("user:{user_id}")).await?;
    delete_objects(state, user_id).await?;
    let erased = DataKeys::new(&state.database)
        .erase(user_id, by, at)
        .await
        .map_err(failed)?;
    // The read models still hold the values the projections wrote; folded again from
    // the log, they read erased.
    projections::rebuild::rebuild(&state.database, &all(), &mut |_| {}).await?;
    db::compaction::compact(&state.database).await?;
    tracing::info!(%user_id, key_erased = erased, "personal data erased");
    Ok(())
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
