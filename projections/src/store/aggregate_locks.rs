//! One command at a time per aggregate within a process.
//!
//! Optimistic concurrency keeps an aggregate's history correct whoever writes it (two
//! api processes on one PostgreSQL still race, and the loser retries). Inside one
//! process, though, letting two commands of one aggregate decide at once only makes
//! one of them fail and start over, and some decisions are expensive: a withdrawal's
//! PIN check is an argon2id hash, redone on every retry. Fifty parallel withdrawals
//! on one account made over a thousand hashes; queued here, they make fifty.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use tokio::sync::OwnedMutexGuard;

/// A lock per aggregate id, created on first use and dropped when nobody holds or
/// waits for it.
#[derive(Default)]
pub(crate) struct AggregateLocks {
    locks: Mutex<Locks>,
}

#[derive(Default)]
struct Locks {
    by_id: HashMap<String, Weak<tokio::sync::Mutex<()>>>,
    /// Sweep dead entries when the map outgrows this (twice the live entries found
    /// at the last sweep, at least 1,024), so the cost stays amortised.
    sweep_at: usize,
}

impl AggregateLocks {
    /// Waits for `aggregate_id`'s turn; the turn ends when the guard is dropped.
    pub(crate) async fn turn(&self, aggregate_id: &str) -> OwnedMutexGuard<()> {
        let lock = {
            let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
            if locks.by_id.len() >= locks.sweep_at.max(1024) {
                locks.by_id.retain(|_, lock| lock.strong_count() > 0);
                locks.sweep_at = locks.by_id.len() * 2;
            }
            match locks.by_id.get(aggregate_id).and_then(Weak::upgrade) {
                Some(lock) => lock,
                None => {
                    let lock = Arc::new(tokio::sync::Mutex::new(()));
                    locks
                        .by_id
                        .insert(aggregate_id.to_string(), Arc::downgrade(&lock));
                    lock
                }
            }
        };
        lock.lock_owned().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn one_turn_per_aggregate_while_others_go_ahead() {
        let locks = Arc::new(AggregateLocks::default());
        let first = locks.turn("order-1").await;
        // Another aggregate is not held up.
        let other = tokio::time::timeout(Duration::from_millis(100), locks.turn("order-2")).await;
        assert!(other.is_ok());
        // The same aggregate waits until the first turn ends.
        let waiting = {
            let locks = locks.clone();
            tokio::spawn(async move { drop(locks.turn("order-1").await) })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished());
        drop(first);
        tokio::time::timeout(Duration::from_secs(1), waiting)
            .await
            .expect("the second turn came")
            .unwrap();
    }

    #[tokio::test]
    async fn finished_locks_are_swept() {
        let locks = AggregateLocks::default();
        for i in 0..3000 {
            drop(locks.turn(&format!("order-{i}")).await);
        }
        assert!(locks.locks.lock().unwrap().by_id.len() <= 1024);
    }
}
