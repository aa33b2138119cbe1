//! Crypto-shredding (PRODUCT.md 12.6, RA 10173, ADR 0012): the personal fields of events
//! are sealed with the borrower's own data key, kept in `data_key` outside the log, so
//! erasing that one key makes every personal value of the borrower unreadable while the
//! events, the amounts and the ledger stay as they are.
//!
//! - Which fields are personal is [`aggregates::personal`]'s table, and only that.
//! - **Sealing** happens where events are written: [`SealingRepository`] wraps the cqrs-es
//!   repository of [`super::CommandBus`], so no command can append a plaintext personal
//!   value. A field becomes `{"$sealed": "v1:<subject>:<base64 nonce‖ciphertext>",
//!   "$erased": <what it reads as once erased>}`; the ciphertext is AES-256-GCM of the
//!   field's JSON, with the subject (the user id) as associated data, so a sealed value
//!   cannot be moved to another borrower.
//! - **Opening** happens where events are read: [`SealingRepository`] (aggregates loaded
//!   by commands and the history replay) and [`super::EventLog`] (every projection, the
//!   workflows, rebuild and verify). Aggregates, projections and handlers see plain
//!   events.
//! - **Erased** ([`DataKeys::erase`]): a sealed value whose key is gone opens as its
//!   `$erased` value (`"[erased]"`, or `null` for an optional date or number), so every
//!   event still loads. A value whose key is present but does not open (altered bytes)
//!   is an error, never silently erased.

use std::collections::{HashMap, HashSet};

use aes_gcm::aead::{Aead, AeadCore, KeyInit, OsRng, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use aggregates::personal::{
    data_subject, personal_fields, subject_in_first_event, visit_mut, PERSONAL_EVENTS,
};
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use cqrs_es::persist::{
    PersistedEventRepository, PersistenceError, ReplayStream, SerializedEvent, SerializedSnapshot,
};
use cqrs_es::Aggregate;
use serde_json::Value;

use super::appends::{now_text, Appends};
use super::{Database, StoreError};
use crate::{with_pool, with_read_pool};

/// Key of the object that replaces a sealed value.
pub(super) const SEALED: &str = "$sealed";
/// Key of what the sealed value reads as once its key is erased.
const ERASED_AS: &str = "$erased";
/// Format of the sealed text; a later format gets another tag.
const FORMAT: &str = "v1";
/// AES-GCM's nonce length, bytes.
const NONCE_LEN: usize = 12;

/// A borrower's data key, ready to seal and open.
pub type DataKey = Aes256Gcm;

/// What one command learned while loading its aggregate, for its own append: the keys
/// its events opened with and the aggregate's first event. Without it a command read the
/// same key twice (to open on load, to seal on append) and, for an aggregate past its
/// first event, that event again (ADR 0012's cost of sealing, issue 14).
///
/// It lives for one command only ([`KeyMemo::scope`], around [`super::CommandBus`]'s
/// load and commit): an erasure that commits while the command runs leaves it sealing
/// with a key that no longer exists, which reads as erased, the same outcome as a key
/// read just before the erasure. Across commands the bus keeps only what
/// [`KeyMemo::learned`] answers, and re-reads those keys before it trusts a cached
/// state ([`super::aggregate_cache`]).
#[derive(Default)]
pub struct KeyMemo {
    /// Keys found by the load (or by [`DataKeys::catch_up`]) and used by the append,
    /// by subject.
    keys: HashMap<String, DataKey>,
    /// Bodies of first events (sequence 1) the load read, by (aggregate type, id).
    first_bodies: HashMap<(String, String), Value>,
    /// The append wrote some personal value in its erased form (its subject has no key).
    sealed_erased: bool,
}

/// What one command's memo learned: the subjects whose keys opened or sealed its
/// aggregate's values, the aggregate's first event, and whether the append wrote a
/// value erased (so the state it decided on holds a value the log does not).
#[derive(Debug, Default, Clone)]
pub(super) struct Learned {
    /// Subjects whose key was present for this command.
    pub subjects: HashSet<String>,
    /// The body of the aggregate's first event, when the memo holds it.
    pub first_body: Option<Value>,
    /// True when the append wrote a personal value erased.
    pub sealed_erased: bool,
}

tokio::task_local! {
    static MEMO: std::cell::RefCell<KeyMemo>;
}

impl KeyMemo {
    /// Runs `command` (one load and its append) with a memo of its own.
    pub async fn scope<F: std::future::Future>(command: F) -> F::Output {
        MEMO.scope(std::cell::RefCell::new(Self::default()), command)
            .await
    }

    /// Records what a load found (no-op outside [`KeyMemo::scope`]).
    fn remember(keys: &HashMap<String, DataKey>, events: &[SerializedEvent]) {
        let _ = MEMO.try_with(|memo| {
            let mut memo = memo.borrow_mut();
            for (subject, key) in keys {
                memo.keys.insert(subject.clone(), key.clone());
            }
            // Only an Order's append needs its first event (to name its borrower).
            let first_events = events
                .iter()
                .filter(|e| e.sequence == 1 && subject_in_first_event(&e.aggregate_type));
            for event in first_events {
                if let Some(body) = event.payload.get(&event.event_type) {
                    memo.first_bodies.insert(
                        (event.aggregate_type.clone(), event.aggregate_id.clone()),
                        body.clone(),
                    );
                }
            }
        });
    }

    /// Gives the memo the body of an aggregate's first event, learned by an earlier
    /// command (no-op outside [`KeyMemo::scope`] or without a body).
    pub(super) fn seed_first_body(aggregate: (&str, &str), first_body: Option<Value>) {
        let Some(body) = first_body else {
            return;
        };
        let _ = MEMO.try_with(|memo| {
            let (aggregate_type, aggregate_id) = aggregate;
            memo.borrow_mut()
                .first_bodies
                .insert((aggregate_type.to_string(), aggregate_id.to_string()), body);
        });
    }

    /// What this command's memo holds for the aggregate `(type, id)` (empty outside
    /// [`KeyMemo::scope`]).
    pub(super) fn learned(aggregate_type: &str, aggregate_id: &str) -> Learned {
        MEMO.try_with(|memo| {
            let memo = memo.borrow();
            Learned {
                subjects: memo.keys.keys().cloned().collect(),
                first_body: memo
                    .first_bodies
                    .get(&(aggregate_type.to_string(), aggregate_id.to_string()))
                    .cloned(),
                sealed_erased: memo.sealed_erased,
            }
        })
        .unwrap_or_default()
    }

    /// Records the key an append sealed with, or that it had none.
    fn sealed_with(subject: &str, key: Option<&DataKey>) {
        let _ = MEMO.try_with(|memo| {
            let mut memo = memo.borrow_mut();
            match key {
                Some(key) => {
                    memo.keys.insert(subject.to_string(), key.clone());
                }
                None => memo.sealed_erased = true,
            }
        });
    }

    fn key(subject: &str) -> Option<DataKey> {
        MEMO.try_with(|memo| memo.borrow().keys.get(subject).cloned())
            .ok()
            .flatten()
    }

    fn first_body(aggregate_type: &str, aggregate_id: &str) -> Option<Value> {
        MEMO.try_with(|memo| {
            memo.borrow()
                .first_bodies
                .get(&(aggregate_type.to_string(), aggregate_id.to_string()))
                .cloned()
        })
        .ok()
        .flatten()
    }
}

/// Why a sealed value could not be opened although its key exists.
#[derive(Debug, thiserror::Error)]
#[error("a sealed personal value of {subject} does not open: {reason}")]
pub struct OpenError {
    /// Whose value it is.
    pub subject: String,
    /// What was wrong (never the value).
    pub reason: &'static str,
}

/// The `data_key` table: one AES-256-GCM key per data subject (a user id).
#[derive(Debug, Clone)]
pub struct DataKeys {
    database: Database,
}

impl DataKeys {
    /// The keys of `database`.
    pub fn new(database: &Database) -> Self {
        Self {
            database: database.clone(),
        }
    }

    /// The key to seal `subject`'s values with, created (32 random bytes from the
    /// operating system) on first use; `None` once the subject was erased, and the
    /// caller then writes the erased form, never plaintext. Two writers creating the
    /// first key at once both get the one that was stored first.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn for_sealing(&self, subject: &str) -> Result<Option<DataKey>, StoreError> {
        let select = "select data_key from data_key where subject = $1";
        // The key almost always exists already: one read. (A row with a null key is an
        // erased subject.)
        let found: Option<Option<String>> = with_read_pool!(&self.database, pool =>
            sqlx::query_scalar(select).bind(subject).fetch_optional(pool).await)?;
        let stored = match found {
            Some(stored) => stored,
            None => {
                let fresh = BASE64.encode(Aes256Gcm::generate_key(OsRng));
                let insert = "insert into data_key (subject, data_key, created_at) \
                              values ($1, $2, $3) on conflict (subject) do nothing";
                with_pool!(&self.database, pool => sqlx::query(insert)
                    .bind(subject).bind(&fresh).bind(now_text()).execute(pool).await.map(drop))?;
                // Whichever writer's key was stored first.
                with_pool!(&self.database, pool =>
                    sqlx::query_scalar(select).bind(subject).fetch_one(pool).await)?
            }
        };
        Ok(stored.as_deref().and_then(cipher))
    }

    /// The keys of `subjects` that still exist; an erased or unknown subject is absent.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn for_opening(
        &self,
        subjects: &HashSet<String>,
    ) -> Result<HashMap<String, DataKey>, StoreError> {
        let mut keys = HashMap::new();
        let subjects: Vec<&String> = subjects.iter().collect();
        // Well below both databases' limit on bound parameters.
        for chunk in subjects.chunks(500) {
            let marks: Vec<String> = (1..=chunk.len()).map(|n| format!("${n}")).collect();
            let sql = format!(
                "select subject, data_key from data_key where data_key is not null and subject in ({})",
                marks.join(", ")
            );
            let rows: Vec<(String, String)> = with_read_pool!(&self.database, pool => {
                let mut query = sqlx::query_as(&sql);
                for subject in chunk {
                    query = query.bind(subject.as_str());
                }
                query.fetch_all(pool).await
            })?;
            for (subject, key) in rows {
                if let Some(key) = cipher(&key) {
                    keys.insert(subject, key);
                }
            }
        }
        Ok(keys)
    }

    /// Erases `subject`'s key for good (it is overwritten with null, and the row stays as
    /// the record of who erased it and when: `by`, at `at`, the erasure's own time).
    /// Returns true when this call erased it,
    /// false when it was already erased. A subject without a key yet gets an erased row,
    /// so nothing can be sealed for it afterwards.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn erase(
        &self,
        subject: &str,
        by: &str,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<bool, StoreError> {
        let now = at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true);
        let sql = "insert into data_key (subject, data_key, created_at, erased_at, erased_by) \
                   values ($1, null, $2, $2, $3) \
                   on conflict (subject) do update set data_key = null, \
                   erased_at = excluded.erased_at, erased_by = excluded.erased_by \
                   where data_key.erased_at is null";
        let erased = with_pool!(&self.database, pool => sqlx::query(sql)
            .bind(subject).bind(&now).bind(by).execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(erased == 1)
    }

    /// Opens every sealed value of `payloads` in place (see the module docs).
    ///
    /// # Errors
    /// [`StoreError::Database`] when the keys cannot be read, [`StoreError::Unsealable`]
    /// when a value whose key exists does not open.
    pub async fn open_all<'a>(
        &self,
        payloads: impl IntoIterator<Item = &'a mut Value>,
    ) -> Result<(), StoreError> {
        self.open_with_keys(payloads).await.map(drop)
    }

    /// [`DataKeys::open_all`], answering the keys it opened with.
    async fn open_with_keys<'a>(
        &self,
        payloads: impl IntoIterator<Item = &'a mut Value>,
    ) -> Result<HashMap<String, DataKey>, StoreError> {
        let mut payloads: Vec<&mut Value> = payloads
            .into_iter()
            .filter(|payload| has_sealed(payload))
            .collect();
        if payloads.is_empty() {
            return Ok(HashMap::new());
        }
        let mut subjects = HashSet::new();
        for payload in &payloads {
            collect_subjects(payload, &mut subjects);
        }
        let keys = self.for_opening(&subjects).await?;
        for payload in &mut payloads {
            open(payload, &keys).map_err(StoreError::Unsealable)?;
        }
        Ok(keys)
    }

    /// Opens the events a command's load read, remembering for its append what it
    /// learned ([`KeyMemo`]).
    async fn open_loaded(&self, events: &mut [SerializedEvent]) -> Result<(), StoreError> {
        let keys = self
            .open_with_keys(events.iter_mut().map(|e| &mut e.payload))
            .await?;
        KeyMemo::remember(&keys, events);
        Ok(())
    }

    /// Seals the personal fields of events `events` of one aggregate in place, finding
    /// the data subject from the aggregate's first event (`first_body`: the body of the
    /// stored first event, when `events` does not start with it).
    async fn seal_events(&self, events: &mut [SerializedEvent]) -> Result<(), StoreError> {
        let Some(first) = events.first() else {
            return Ok(());
        };
        if events
            .iter()
            .all(|e| personal_fields(&e.aggregate_type, &e.event_type).is_empty())
        {
            return Ok(());
        }
        let (aggregate_type, aggregate_id) =
            (first.aggregate_type.clone(), first.aggregate_id.clone());
        let first_body = if first.sequence == 1 {
            first.payload.get(&first.event_type).cloned()
        } else if !subject_in_first_event(&aggregate_type) {
            None
        } else if let Some(body) = KeyMemo::first_body(&aggregate_type, &aggregate_id) {
            Some(body)
        } else {
            self.first_body(&aggregate_type, &aggregate_id).await?
        };
        let Some(subject) = data_subject(&aggregate_type, &aggregate_id, first_body.as_ref())
        else {
            return Ok(());
        };
        let key = match KeyMemo::key(&subject) {
            Some(key) => Some(key),
            None => self.for_sealing(&subject).await?,
        };
        KeyMemo::sealed_with(&subject, key.as_ref());
        for event in events {
            seal(
                &event.aggregate_type,
                &event.event_type,
                &mut event.payload,
                &subject,
                key.as_ref(),
            );
        }
        Ok(())
    }

    /// What a cached fold needs to catch up (ADR 0016), read in one statement: the
    /// aggregate's events after `sequence`, opened, and the keys of `subjects` (the
    /// keys that opened the fold's values), which go into the command's [`KeyMemo`]
    /// for its append. `None` when one of `subjects` has no key any more (erased): the
    /// fold holds values that now read `[erased]`, and the caller loads in full.
    ///
    /// # Errors
    /// [`StoreError::Database`], [`StoreError::BadPayload`], or
    /// [`StoreError::Unsealable`] for a value whose key exists and does not open it.
    pub async fn catch_up(
        &self,
        subjects: &HashSet<String>,
        aggregate_type: &str,
        aggregate_id: &str,
        sequence: usize,
    ) -> Result<Option<Vec<SerializedEvent>>, StoreError> {
        let subjects: Vec<&String> = subjects.iter().collect();
        // The key rows come after the events, their columns in the events' columns:
        // (subject, key) in (event type, event version), sequence null.
        let mut sql = "select sequence, event_type, event_version, cast(payload as text), \
                       cast(metadata as text) from events \
                       where aggregate_type = $1 and aggregate_id = $2 and sequence > $3"
            .to_string();
        if !subjects.is_empty() {
            let marks: Vec<String> = (4..4 + subjects.len()).map(|n| format!("${n}")).collect();
            sql.push_str(&format!(
                " union all select cast(null as bigint), subject, data_key, null, null \
                 from data_key where data_key is not null and subject in ({})",
                marks.join(", ")
            ));
        }
        let after = i64::try_from(sequence).unwrap_or(i64::MAX);
        type Row = (Option<i64>, String, String, Option<String>, Option<String>);
        let rows: Vec<Row> = with_read_pool!(&self.database, pool => {
            let mut query = sqlx::query_as(&sql).bind(aggregate_type).bind(aggregate_id).bind(after);
            for subject in &subjects {
                query = query.bind(subject.as_str());
            }
            query.fetch_all(pool).await
        })?;
        let mut keys = HashMap::new();
        let mut events = Vec::new();
        for (sequence, first, second, payload, metadata) in rows {
            let Some(sequence) = sequence else {
                if let Some(key) = cipher(&second) {
                    keys.insert(first, key);
                }
                continue;
            };
            let bad = |source| StoreError::BadPayload {
                aggregate_type: aggregate_type.to_string(),
                aggregate_id: aggregate_id.to_string(),
                sequence,
                source,
            };
            let json =
                |text: Option<String>| serde_json::from_str(text.as_deref().unwrap_or("null"));
            events.push(SerializedEvent {
                aggregate_id: aggregate_id.to_string(),
                sequence: usize::try_from(sequence).unwrap_or_default(),
                aggregate_type: aggregate_type.to_string(),
                event_type: first,
                event_version: second,
                payload: json(payload).map_err(bad)?,
                metadata: json(metadata).map_err(bad)?,
            });
        }
        if keys.len() < subjects.len() {
            return Ok(None);
        }
        // A union's rows come in no promised order.
        events.sort_by_key(|event| event.sequence);
        let mut needed = HashSet::new();
        for event in &events {
            collect_subjects(&event.payload, &mut needed);
        }
        if needed.iter().all(|subject| keys.contains_key(subject)) {
            for event in &mut events {
                open(&mut event.payload, &keys).map_err(StoreError::Unsealable)?;
            }
        } else {
            // A subject the fold did not know yet (its first sealed value is new).
            self.open_loaded(&mut events).await?;
        }
        // After opening, as a load remembers its first event: opened.
        KeyMemo::remember(&keys, &events);
        Ok(Some(events))
    }

    /// The body of an aggregate's first stored event (`None` when it has none).
    async fn first_body(
        &self,
        aggregate_type: &str,
        aggregate_id: &str,
    ) -> Result<Option<Value>, StoreError> {
        let sql = "select cast(payload as text) from events \
                   where aggregate_type = $1 and aggregate_id = $2 and sequence = 1";
        let text: Option<String> = with_read_pool!(&self.database, pool => sqlx::query_scalar(sql)
            .bind(aggregate_type).bind(aggregate_id).fetch_optional(pool).await)?;
        Ok(text
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
            .and_then(|payload| match payload {
                Value::Object(map) => map.into_iter().next().map(|(_, body)| body),
                _ => None,
            }))
    }
}

impl From<StoreError> for PersistenceError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Unsealable(_) => Self::DeserializationError(Box::new(error)),
            other => Self::ConnectionError(Box::new(other)),
        }
    }
}

/// Seals the personal fields of one event's payload (`{"<event_type>": body}`) for
/// `subject` in place; with no key (the subject was erased) they are written erased.
/// Values already sealed are left alone, so sealing twice changes nothing. Returns how
/// many values it sealed or erased.
pub fn seal(
    aggregate_type: &str,
    event_type: &str,
    payload: &mut Value,
    subject: &str,
    key: Option<&DataKey>,
) -> usize {
    let fields = personal_fields(aggregate_type, event_type);
    let Some(body) = payload.get_mut(event_type) else {
        return 0;
    };
    let mut count = 0;
    for (path, erased) in fields {
        visit_mut(body, path, &mut |value| {
            if is_sealed(value) {
                return;
            }
            count += 1;
            *value = match key {
                Some(key) => {
                    let plain = serde_json::to_vec(value).expect("a JSON value serializes");
                    let nonce = Aes256Gcm::generate_nonce(OsRng);
                    let aad = subject.as_bytes();
                    let sealed = key
                        .encrypt(&nonce, Payload { msg: &plain, aad })
                        .expect("AES-GCM encrypts any message under 64 GiB");
                    let mut bytes = nonce.to_vec();
                    bytes.extend(sealed);
                    let sealed = format!("{FORMAT}:{subject}:{}", BASE64.encode(bytes));
                    Value::Object(serde_json::Map::from_iter([
                        (SEALED.to_string(), Value::String(sealed)),
                        (ERASED_AS.to_string(), erased.value()),
                    ]))
                }
                None => erased.value(),
            };
        });
    }
    count
}

/// True when `value` is a sealed value.
fn is_sealed(value: &Value) -> bool {
    value.get(SEALED).is_some_and(Value::is_string)
}

/// True when `payload` holds a sealed value anywhere.
fn has_sealed(payload: &Value) -> bool {
    match payload {
        Value::Object(map) => map.contains_key(SEALED) || map.values().any(has_sealed),
        Value::Array(items) => items.iter().any(has_sealed),
        _ => false,
    }
}

fn collect_subjects(payload: &Value, subjects: &mut HashSet<String>) {
    if let Some(sealed) = payload.get(SEALED).and_then(Value::as_str) {
        if let Some((subject, _)) = parse(sealed) {
            subjects.insert(subject.to_string());
        }
        return;
    }
    match payload {
        Value::Object(map) => map.values().for_each(|v| collect_subjects(v, subjects)),
        Value::Array(items) => items.iter().for_each(|v| collect_subjects(v, subjects)),
        _ => {}
    }
}

/// `v1:<subject>:<base64>` → (subject, base64).
fn parse(sealed: &str) -> Option<(&str, &str)> {
    let rest = sealed.strip_prefix(FORMAT)?.strip_prefix(':')?;
    rest.rsplit_once(':')
}

/// Replaces every sealed value in `payload` by its plain value (key present) or its
/// erased value (key absent).
///
/// # Errors
/// [`OpenError`] when the text is malformed or the key present does not open it.
pub fn open(payload: &mut Value, keys: &HashMap<String, DataKey>) -> Result<(), OpenError> {
    if let Some(sealed) = payload.get(SEALED).and_then(Value::as_str) {
        let malformed = |reason| OpenError {
            subject: String::new(),
            reason,
        };
        let (subject, text) = parse(sealed).ok_or_else(|| malformed("not v1:<subject>:<data>"))?;
        let fail = |reason| OpenError {
            subject: subject.to_string(),
            reason,
        };
        let opened = match keys.get(subject) {
            None => payload.get(ERASED_AS).cloned().unwrap_or(Value::Null),
            Some(key) => {
                let bytes = BASE64.decode(text).map_err(|_| fail("not base64"))?;
                if bytes.len() < NONCE_LEN {
                    return Err(fail("too short"));
                }
                let (nonce, sealed) = bytes.split_at(NONCE_LEN);
                let plain = key
                    .decrypt(
                        Nonce::from_slice(nonce),
                        Payload {
                            msg: sealed,
                            aad: subject.as_bytes(),
                        },
                    )
                    .map_err(|_| fail("authentication failed"))?;
                serde_json::from_slice(&plain).map_err(|_| fail("not JSON inside"))?
            }
        };
        *payload = opened;
        return Ok(());
    }
    match payload {
        Value::Object(map) => map.values_mut().try_for_each(|v| open(v, keys)),
        Value::Array(items) => items.iter_mut().try_for_each(|v| open(v, keys)),
        _ => Ok(()),
    }
}

fn cipher(base64: &str) -> Option<DataKey> {
    let bytes = BASE64.decode(base64).ok()?;
    Aes256Gcm::new_from_slice(&bytes).ok()
}

/// Name of the one-off rewrite that seals the events written before `data_key` existed
/// (its row in `event_rewrite` says it ran).
pub const SEAL_STORED_EVENTS: &str = "seal personal fields v1";

/// Seals, in place, the personal fields of every stored event that still holds them in
/// plaintext (events written before crypto-shredding): the only sanctioned rewrite of
/// the log (ADR 0012). Runs once per database, after the migrations; a crash halfway
/// leaves some events sealed and the rest still plain, and the next start finishes
/// (sealed values are skipped), so it is idempotent and resumable. Aggregates and
/// projections read the old plain form and the sealed form alike, so nothing else has
/// to wait for it. Returns how many events it rewrote.
///
/// # Errors
/// [`StoreError::Database`], [`StoreError::BadPayload`] for a stored payload that is not JSON.
pub async fn seal_stored_events(database: &Database) -> Result<usize, StoreError> {
    let done = "select count(*) from event_rewrite where name = $1";
    let done: i64 = with_pool!(database, pool =>
        sqlx::query_scalar(done).bind(SEAL_STORED_EVENTS).fetch_one(pool).await)?;
    if done > 0 {
        return Ok(0);
    }
    let keys = DataKeys::new(database);
    let types: Vec<String> = PERSONAL_EVENTS
        .iter()
        .map(|(_, event_type, _)| format!("'{event_type}'"))
        .collect();
    let select = format!(
        "select aggregate_type, aggregate_id, sequence, event_type, cast(payload as text) \
         from events where event_type in ({}) order by aggregate_type, aggregate_id, sequence",
        types.join(", ")
    );
    type Stored = (String, String, i64, String, String);
    let rows: Vec<Stored> =
        with_pool!(database, pool => sqlx::query_as(&select).fetch_all(pool).await)?;
    let mut rewritten = 0;
    // Per aggregate: its data subject and their key (`None`: it names no subject).
    type Sealer = Option<(String, Option<DataKey>)>;
    let mut subjects: HashMap<(String, String), Sealer> = HashMap::new();
    for (aggregate_type, aggregate_id, sequence, event_type, text) in rows {
        if personal_fields(&aggregate_type, &event_type).is_empty() {
            continue;
        }
        let bad = |source| StoreError::BadPayload {
            aggregate_type: aggregate_type.clone(),
            aggregate_id: aggregate_id.clone(),
            sequence,
            source,
        };
        let mut payload: Value = serde_json::from_str(&text).map_err(bad)?;
        let aggregate = (aggregate_type.clone(), aggregate_id.clone());
        if !subjects.contains_key(&aggregate) {
            let first_body = match sequence {
                1 => payload.get(&event_type).cloned(),
                _ => keys.first_body(&aggregate_type, &aggregate_id).await?,
            };
            let subject = data_subject(&aggregate_type, &aggregate_id, first_body.as_ref());
            let entry = match subject {
                Some(subject) => {
                    let key = keys.for_sealing(&subject).await?;
                    Some((subject, key))
                }
                None => None,
            };
            subjects.insert(aggregate.clone(), entry);
        }
        let Some((subject, key)) = &subjects[&aggregate] else {
            continue;
        };
        if seal(
            &aggregate_type,
            &event_type,
            &mut payload,
            subject,
            key.as_ref(),
        ) == 0
        {
            continue;
        }
        let text = payload.to_string();
        match database {
            Database::Sqlite { pool, .. } => {
                sqlx::query("update events set payload = $1 where aggregate_type = $2 and aggregate_id = $3 and sequence = $4")
                    .bind(&text).bind(&aggregate_type).bind(&aggregate_id).bind(sequence)
                    .execute(pool).await?;
            }
            Database::Postgres(pool) => {
                sqlx::query("update events set payload = cast($1 as json) where aggregate_type = $2 and aggregate_id = $3 and sequence = $4")
                    .bind(&text).bind(&aggregate_type).bind(&aggregate_id).bind(sequence)
                    .execute(pool).await?;
            }
        }
        rewritten += 1;
    }
    let record = "insert into event_rewrite (name, events, done_at) values ($1, $2, $3) \
                  on conflict (name) do nothing";
    let count = i64::try_from(rewritten).unwrap_or(i64::MAX);
    with_pool!(database, pool => sqlx::query(record).bind(SEAL_STORED_EVENTS).bind(count)
        .bind(now_text()).execute(pool).await.map(drop))?;
    if rewritten > 0 {
        tracing::info!(
            events = rewritten,
            "sealed the personal fields of events stored in plaintext"
        );
    }
    Ok(rewritten)
}

/// A cqrs-es event repository that seals personal fields on the way in and opens them
/// on the way out (see the module docs); loads are `reads`' and appends `writes'`.
pub struct SealingRepository<R, W> {
    /// Appends (the database's writer).
    writes: W,
    /// Loads (on SQLite a WAL reader: a load never queues behind other commands'
    /// commits; the append's sequence check still catches a load that raced one).
    reads: R,
    keys: DataKeys,
}

impl<R, W> SealingRepository<R, W> {
    /// Appends with `writes` and loads with `reads` (both on `database`, whose keys it
    /// uses).
    pub fn new(writes: W, reads: R, database: &Database) -> Self {
        Self {
            writes,
            reads,
            keys: DataKeys::new(database),
        }
    }
}

impl<R: PersistedEventRepository, W: Appends> PersistedEventRepository for SealingRepository<R, W> {
    async fn get_events<A: Aggregate>(
        &self,
        aggregate_id: &str,
    ) -> Result<Vec<SerializedEvent>, PersistenceError> {
        let mut events = self.reads.get_events::<A>(aggregate_id).await?;
        self.keys.open_loaded(&mut events).await?;
        Ok(events)
    }

    async fn get_last_events<A: Aggregate>(
        &self,
        aggregate_id: &str,
        last_sequence: usize,
    ) -> Result<Vec<SerializedEvent>, PersistenceError> {
        // Not `self.reads`': sqlite-es and postgres-es write the sequence into the SQL
        // text, so every sequence is a statement of its own to prepare and cache.
        let events = self
            .keys
            .catch_up(&HashSet::new(), A::TYPE, aggregate_id, last_sequence)
            .await?;
        Ok(events.unwrap_or_default())
    }

    async fn get_snapshot<A: Aggregate>(
        &self,
        aggregate_id: &str,
    ) -> Result<Option<SerializedSnapshot>, PersistenceError> {
        // We never write snapshots (DESIGN.md "Stores"), so none holds personal data.
        self.reads.get_snapshot::<A>(aggregate_id).await
    }

    async fn persist<A: Aggregate>(
        &self,
        events: &[SerializedEvent],
        snapshot_update: Option<(String, Value, usize)>,
    ) -> Result<(), PersistenceError> {
        if snapshot_update.is_some() {
            // We never write snapshots (DESIGN.md "Stores").
            return Err(PersistenceError::UnknownError(
                "snapshots are not written".into(),
            ));
        }
        let mut sealed = events.to_vec();
        self.keys.seal_events(&mut sealed).await?;
        super::appends::note(self.writes.append::<A>(sealed).await?);
        Ok(())
    }

    async fn stream_events<A: Aggregate>(
        &self,
        _aggregate_id: &str,
    ) -> Result<ReplayStream, PersistenceError> {
        Err(unsupported())
    }

    async fn stream_all_events<A: Aggregate>(&self) -> Result<ReplayStream, PersistenceError> {
        Err(unsupported())
    }
}

/// cqrs-es's replay streams would hand out sealed payloads; the log is read through
/// [`super::EventLog`], which opens them.
fn unsupported() -> PersistenceError {
    PersistenceError::UnknownError("replay streams are not offered; read the EventLog".into())
}

#[cfg(test)]
mod tests;
