//! The states of recently used aggregates, so a command folds only the events appended
//! since its aggregate was last used in this process (issue 14, bench/PROFILE.md: a
//! borrower's command loaded, opened and folded the borrower's whole history, about 60
//! events by the end of a benchmark, and that was most of a command's cost).
//!
//! The events stay the only source of truth; an entry is a fold of them that is
//! checked against the log before every use:
//!
//! - **Other writers.** The command reads the events past the entry's sequence and
//!   folds them in; an append that races it still fails on the sequence check, and the
//!   entry goes back as it was before the command (still the fold of the events up to
//!   its sequence), so the retry reads only the winner's events.
//! - **Erasure** (ADR 0012). An entry holds opened personal values, so before it is
//!   used the keys that opened them are read again, in the statement that reads the
//!   events past it (the append needs them to seal anyway). If one is gone, whoever erased it and in whichever process,
//!   the entry is dropped and the aggregate is folded from all its events, which now
//!   read `[erased]`. A key is never recreated once erased (its row stays with a null
//!   key), so "still present" means "the same key".
//! - **Anything else that went wrong**: a refused command leaves the entry as it was;
//!   so does a failed append; an append that had to write a personal value erased (so
//!   the state holds a value the log does not) drops it. A command's own events are
//!   folded as a load reads them back, not as `handle` wrote them.
//!
//! Entries live in memory only: a restart, a migration or an upcaster change starts
//! from an empty cache.

use std::collections::HashSet;
use std::num::NonZeroUsize;
use std::sync::Mutex;

use lru::LruCache;
use serde_json::Value;

/// How many aggregates of one type a command bus keeps, least recently used dropped
/// first. A borrower's User state is about a kilobyte, so a full cache of each type
/// stays within a few MB (the api's memory target is 150 MB, issue 14).
pub const CAPACITY: usize = 4_096;

/// One aggregate's state as of `sequence`.
pub(super) struct Cached<A> {
    /// The fold of events 1..=`sequence`.
    pub state: A,
    /// The sequence of the last event folded into `state`.
    pub sequence: usize,
    /// The data subjects whose keys opened (or sealed) values folded into `state`.
    pub subjects: HashSet<String>,
    /// The body of the aggregate's first event, when its append needs it (an Order's
    /// borrower).
    pub first_body: Option<Value>,
}

/// Cached states by aggregate id.
pub(super) struct AggregateCache<A> {
    entries: Mutex<LruCache<String, Cached<A>>>,
}

impl<A> Default for AggregateCache<A> {
    fn default() -> Self {
        let capacity = NonZeroUsize::new(CAPACITY).expect("a positive capacity");
        Self {
            entries: Mutex::new(LruCache::new(capacity)),
        }
    }
}

impl<A> AggregateCache<A> {
    /// Removes and answers `aggregate_id`'s entry: the command that takes it puts back
    /// what it ends with, so a command that fails halfway leaves nothing behind.
    pub fn take(&self, aggregate_id: &str) -> Option<Cached<A>> {
        self.lock().pop(aggregate_id)
    }

    /// Stores `aggregate_id`'s state.
    pub fn put(&self, aggregate_id: &str, entry: Cached<A>) {
        self.lock().put(aggregate_id.to_string(), entry);
    }

    /// The entry of `aggregate_id`, if any, seen through `look`.
    pub fn peek<T>(&self, aggregate_id: &str, look: impl FnOnce(&Cached<A>) -> T) -> Option<T> {
        self.lock().peek(aggregate_id).map(look)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LruCache<String, Cached<A>>> {
        // Nothing panics while holding the lock; a poisoned cache is still consistent.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}
