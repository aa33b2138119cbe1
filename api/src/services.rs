//! The real implementations of the aggregates' services: the system clock and
//! argon2id hashing (P2: passwords and PINs are stored only as argon2id hashes).

use aggregates::services::{Clock, SecretHasher};
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use chrono::{DateTime, Utc};
use std::sync::{Condvar, LazyLock, Mutex};

/// UTC now.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// argon2id (the crate's default algorithm and parameters), PHC strings.
pub struct Argon2Hasher;

impl SecretHasher for Argon2Hasher {
    fn hash(&self, secret: &str) -> String {
        let salt = SaltString::generate(&mut OsRng);
        off_the_reactor(|| {
            Argon2::default()
                .hash_password(secret.as_bytes(), &salt)
                .map(|hash| hash.to_string())
                // Hashing fails only on parameter errors, which defaults cannot have.
                .expect("argon2 with default parameters")
        })
    }

    fn verify(&self, secret: &str, hash: &str) -> bool {
        PasswordHash::new(hash)
            .map(|parsed| {
                off_the_reactor(|| {
                    Argon2::default()
                        .verify_password(secret.as_bytes(), &parsed)
                        .is_ok()
                })
            })
            .unwrap_or(false)
    }
}

/// Runs `work` (an argon2id hash: tens of milliseconds of CPU and 19 MiB of memory)
/// so that it does not hold up the other requests of its async worker thread: on a
/// multi-threaded tokio runtime, `block_in_place` hands the thread's other tasks to
/// another thread first. At most one hash per CPU runs at a time ([`HashGate`]): more
/// would not finish sooner, and each holds its 19 MiB. (Half the CPUs left the other
/// requests more room, but a burst of PIN checks on one account — each conflict retry
/// checks again — then outlasted the 30 s request timeout.) The aggregates call the hasher
/// synchronously inside `handle`, so this is the place. Elsewhere (a current-thread
/// runtime, or no runtime) it simply runs, still through the gate.
fn off_the_reactor<T>(work: impl FnOnce() -> T) -> T {
    let gated = || {
        let _turn = HASH_GATE.enter();
        work()
    };
    let multi_threaded = tokio::runtime::Handle::try_current()
        .is_ok_and(|handle| handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
    if multi_threaded {
        tokio::task::block_in_place(gated)
    } else {
        gated()
    }
}

/// A counting gate: at most `limit` holders at once; the others wait (blocking, which
/// is fine off the reactor).
struct HashGate {
    holders: Mutex<usize>,
    freed: Condvar,
    limit: usize,
}

/// One holder's turn; leaving the scope frees it.
struct Turn<'a>(&'a HashGate);

impl HashGate {
    fn enter(&self) -> Turn<'_> {
        let mut holders = self.holders.lock().unwrap_or_else(|e| e.into_inner());
        while *holders >= self.limit {
            holders = self.freed.wait(holders).unwrap_or_else(|e| e.into_inner());
        }
        *holders += 1;
        Turn(self)
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        *self.0.holders.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
        self.0.freed.notify_one();
    }
}

/// One argon2id hash per CPU at a time.
static HASH_GATE: LazyLock<HashGate> = LazyLock::new(|| HashGate {
    holders: Mutex::new(0),
    freed: Condvar::new(),
    limit: std::thread::available_parallelism().map_or(1, |n| n.get()),
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argon2id_hashes_verify_and_never_contain_the_secret() {
        let hash = Argon2Hasher.hash("246810");
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(!hash.contains("246810"));
        assert!(Argon2Hasher.verify("246810", &hash));
        assert!(!Argon2Hasher.verify("246811", &hash));
        assert!(!Argon2Hasher.verify("246810", "not a hash"));
        assert_ne!(hash, Argon2Hasher.hash("246810"), "salted");
    }
}
