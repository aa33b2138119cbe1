//! Crypto-shredding in the store (ADR 0012) on both back ends: commands write personal
//! fields sealed and load them plain; the log reader opens them too; events stored in
//! the old plaintext form load, and the one-off rewrite seals them in place with the
//! same result; once the key is erased they read `[erased]` everywhere while the
//! aggregate still loads; two writers creating a borrower's first key get one key; a
//! command's append reuses the key its load read, and nothing else does.

use std::sync::Arc;

use aggregates::services::doubles::{test_now, user_services, FixedClock};
use aggregates::user::{User, UserCommand};
use aggregates::Actor;
use projections::store::appends::{Appends, PostgresAppends};
use projections::store::sealing::{seal_stored_events, DataKeys, KeyMemo, SealingRepository};
use projections::store::{CommandBus, Database, EventLog, LogPosition};
use uuid::Uuid;

use crate::helpers::TestDb;
use crate::journey::onboarding;

on_both_stores!(
    personal_fields_are_stored_sealed_and_read_plain,
    events_stored_in_plaintext_load_and_are_sealed_once,
    an_erased_key_reads_erased_and_the_aggregate_still_loads,
    concurrent_first_writers_share_one_key,
    a_command_seals_with_the_key_its_load_read,
);

const PERSONAL: [&str; 5] = [
    "09171234567",
    "Ana Santos",
    "123456789012",
    "001234567890",
    "12 Mabini St",
];

fn users(db: &TestDb) -> CommandBus<User> {
    CommandBus::new(
        &db.database,
        user_services(Arc::new(FixedClock::at(test_now()))),
    )
}

async fn onboarded(db: &TestDb) -> (CommandBus<User>, String) {
    let bus = users(db);
    let user_id = Uuid::now_v7();
    for command in onboarding(user_id) {
        bus.execute(
            &user_id.to_string(),
            command,
            Actor::User(user_id).metadata("t", None),
        )
        .await
        .unwrap();
    }
    (bus, user_id.to_string())
}

/// The raw text of every stored payload.
async fn stored(database: &Database) -> String {
    let sql = "select cast(payload as text) from events order by global_position";
    let rows: Vec<String> = match database {
        Database::Sqlite { pool, .. } => sqlx::query_scalar(sql).fetch_all(pool).await.unwrap(),
        Database::Postgres(pool) => sqlx::query_scalar(sql).fetch_all(pool).await.unwrap(),
    };
    rows.join("\n")
}

async fn personal_fields_are_stored_sealed_and_read_plain(db: &TestDb) {
    let (bus, user_id) = onboarded(db).await;
    let raw = stored(&db.database).await;
    for value in PERSONAL {
        assert!(!raw.contains(value), "{value} stored in plaintext");
    }
    assert!(raw.contains("$sealed"));
    let user = bus.load(&user_id).await.unwrap();
    assert_eq!(user.mobile, "09171234567");
    assert_eq!(user.profile.fields.real_name.as_deref(), Some("Ana Santos"));
    assert_eq!(user.bank_account.unwrap().account_no, "001234567890");
    let log = EventLog::new(&db.database)
        .read_after(LogPosition::START, 100)
        .await
        .unwrap();
    let text: String = log.iter().map(|e| e.payload.text()).collect();
    for value in PERSONAL {
        assert!(text.contains(value), "the log reader opens {value}");
    }
}

/// The events of `user_id` rewritten to their plaintext form, as an earlier version
/// stored them, and the rewrite marked as not yet run.
async fn as_plaintext(db: &TestDb, bus: &CommandBus<User>, user_id: &str) {
    let events = bus.load_events(user_id).await.unwrap();
    for event in events {
        let payload = serde_json::to_string(&event.payload).unwrap();
        let sequence = i64::try_from(event.sequence).unwrap();
        match &db.database {
            Database::Sqlite { pool, .. } => {
                sqlx::query(
                    "update events set payload = $1 where aggregate_id = $2 and sequence = $3",
                )
                .bind(&payload)
                .bind(user_id)
                .bind(sequence)
                .execute(pool)
                .await
                .unwrap();
            }
            Database::Postgres(pool) => {
                sqlx::query("update events set payload = cast($1 as json) where aggregate_id = $2 and sequence = $3")
                    .bind(&payload).bind(user_id).bind(sequence).execute(pool).await.unwrap();
            }
        }
    }
    let again = "delete from event_rewrite";
    match &db.database {
        Database::Sqlite { pool, .. } => sqlx::query(again).execute(pool).await.map(drop).unwrap(),
        Database::Postgres(pool) => sqlx::query(again).execute(pool).await.map(drop).unwrap(),
    }
}

async fn events_stored_in_plaintext_load_and_are_sealed_once(db: &TestDb) {
    let (bus, user_id) = onboarded(db).await;
    let sealed_state = bus.load(&user_id).await.unwrap();
    as_plaintext(db, &bus, &user_id).await;
    assert!(
        stored(&db.database).await.contains("Ana Santos"),
        "the old form"
    );
    // The old form loads as it is.
    assert_eq!(bus.load(&user_id).await.unwrap(), sealed_state);
    // The rewrite seals every event holding personal fields, once.
    let rewritten = seal_stored_events(&db.database).await.unwrap();
    assert_eq!(
        rewritten, 5,
        "registered, identity, profile, bank, signature"
    );
    let raw = stored(&db.database).await;
    for value in PERSONAL {
        assert!(!raw.contains(value), "{value} still in plaintext");
    }
    assert_eq!(bus.load(&user_id).await.unwrap(), sealed_state);
    assert_eq!(seal_stored_events(&db.database).await.unwrap(), 0, "it ran");
    // Connecting (migrating) again changes nothing.
    db.database.migrate().await.unwrap();
    assert_eq!(stored(&db.database).await, raw);
}

async fn an_erased_key_reads_erased_and_the_aggregate_still_loads(db: &TestDb) {
    let (bus, user_id) = onboarded(db).await;
    let keys = DataKeys::new(&db.database);
    assert!(keys
        .erase(&user_id, "auditor:test", test_now())
        .await
        .unwrap());
    assert!(
        !keys
            .erase(&user_id, "auditor:test", test_now())
            .await
            .unwrap(),
        "once"
    );
    let user = bus.load(&user_id).await.unwrap();
    assert_eq!(user.mobile, "[erased]");
    assert_eq!(user.profile.fields.real_name.as_deref(), Some("[erased]"));
    assert_eq!(user.profile.fields.birthday, None);
    assert_eq!(user.bank_account.as_ref().unwrap().account_no, "[erased]");
    assert_eq!(
        user.bank_account.unwrap().bank_name,
        "BDO",
        "not personal, kept"
    );
    assert!(user.pin_hash.is_some(), "the rest of the state is intact");
    let log = EventLog::new(&db.database)
        .read_after(LogPosition::START, 100)
        .await
        .unwrap();
    let text: String = log.iter().map(|e| e.payload.text()).collect();
    for value in PERSONAL {
        assert!(!text.contains(value), "the log reader still shows {value}");
    }
    // A command for an erased subject writes the erased form, never plaintext.
    let user_id: Uuid = user_id.parse().unwrap();
    bus.execute(
        &user_id.to_string(),
        UserCommand::UpdateProfile(aggregates::user::ProfileUpdate {
            address: Some("99 New Street".into()),
            ..Default::default()
        }),
        Actor::User(user_id).metadata("t", None),
    )
    .await
    .unwrap();
    assert!(!stored(&db.database).await.contains("99 New Street"));
}

async fn concurrent_first_writers_share_one_key(db: &TestDb) {
    let keys = DataKeys::new(&db.database);
    let subject = Uuid::now_v7().to_string();
    let (a, b) = tokio::join!(keys.for_sealing(&subject), keys.for_sealing(&subject));
    let (a, b) = (a.unwrap().unwrap(), b.unwrap().unwrap());
    let mut payload = serde_json::json!({"UserRegistered": {"mobile": "09170000000"}});
    projections::store::sealing::seal("User", "UserRegistered", &mut payload, &subject, Some(&a));
    let opened = std::collections::HashMap::from([(subject.clone(), b)]);
    projections::store::sealing::open(&mut payload, &opened).unwrap();
    assert_eq!(payload["UserRegistered"]["mobile"], "09170000000");
}

/// Loads `user_id`'s events through a sealing repository, deletes the borrower's key row
/// (as if it had changed under the command), and appends their profile update again; answers
/// whether the append read the key table (it then found no key and created one).
/// Inside a [`KeyMemo`] scope the append seals with the key the load read and reads
/// nothing; outside one it reads the table.
async fn append_reads_the_key_table(db: &TestDb, user_id: &str, in_memo: bool) -> bool {
    use cqrs_es::persist::PersistedEventRepository;

    async fn run<R: PersistedEventRepository, W: Appends>(
        repository: SealingRepository<R, W>,
        database: &Database,
        user_id: &str,
    ) {
        let events = repository.get_events::<User>(user_id).await.unwrap();
        let mut again = events
            .iter()
            .find(|e| e.event_type == "ProfileUpdated")
            .expect("onboarding updates the profile")
            .clone();
        again.sequence = events.len() + 1;
        let delete = "delete from data_key where subject = $1";
        projections::with_pool!(database, pool => sqlx::query(delete).bind(user_id).execute(pool).await.map(drop))
            .unwrap();
        repository.persist::<User>(&[again], None).await.unwrap();
    }
    let appended = async {
        match &db.database {
            Database::Sqlite { reads, appends, .. } => {
                let inner = appends.clone();
                let reads = sqlite_es::SqliteEventRepository::new(reads.clone());
                run(
                    SealingRepository::new(inner, reads, &db.database),
                    &db.database,
                    user_id,
                )
                .await;
            }
            Database::Postgres(pool) => {
                let inner = PostgresAppends(pool.clone());
                let reads = postgres_es::PostgresEventRepository::new(pool.clone());
                run(
                    SealingRepository::new(inner, reads, &db.database),
                    &db.database,
                    user_id,
                )
                .await;
            }
        }
    };
    if in_memo {
        KeyMemo::scope(appended).await;
    } else {
        appended.await;
    }
    let count = "select count(*) from data_key where subject = $1";
    let rows: i64 = match &db.database {
        Database::Sqlite { pool, .. } => {
            sqlx::query_scalar(count)
                .bind(user_id)
                .fetch_one(pool)
                .await
        }
        Database::Postgres(pool) => {
            sqlx::query_scalar(count)
                .bind(user_id)
                .fetch_one(pool)
                .await
        }
    }
    .unwrap();
    rows == 1
}

async fn a_command_seals_with_the_key_its_load_read(db: &TestDb) {
    let (bus, user_id) = onboarded(db).await;
    assert!(
        !append_reads_the_key_table(db, &user_id, true).await,
        "inside a command the append must seal with the key its load read (no second read)"
    );
    // Sealed with that key, which is gone now: the copy reads erased like the rest.
    let user = bus.load(&user_id).await.unwrap();
    assert_eq!(user.mobile, "[erased]");
    let (_, other) = onboarded(db).await;
    assert!(
        append_reads_the_key_table(db, &other, false).await,
        "outside a command nothing is remembered: the append reads the table"
    );
}
