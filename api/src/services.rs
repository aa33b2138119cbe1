//! The real implementations of the aggregates' services: the system clock and
//! argon2id hashing (P2: passwords and PINs are stored only as argon2id hashes).

use aggregates::services::{Clock, SecretHasher};
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
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
        let params = Params::default();
        let hasher = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
        let mut salt_buffer = [0u8; 64];
        let mut output = [0u8; Params::DEFAULT_OUTPUT_LEN];
        // Hashing fails only on parameter errors, which defaults cannot have.
        let raw_salt = salt
            .as_salt()
            .decode_b64(&mut salt_buffer)
            .expect("a generated salt decodes");
        off_the_reactor(params.block_count(), |blocks| {
            hasher.hash_password_into_with_memory(secret.as_bytes(), raw_salt, &mut output, blocks)
        })
        .expect("argon2 with default parameters");
        PasswordHash {
            algorithm: Algorithm::Argon2id.ident(),
            version: Some(Version::V0x13.into()),
            params: ParamsString::try_from(&params).expect("default parameters print"),
            salt: Some(salt.as_salt()),
            hash: Some(Output::new(&output).expect("32-byte output")),
        }
        .to_string()
    }

    /// The same check as argon2's `verify_password` (algorithm, version, parameters
    /// and salt from the PHC string; constant-time comparison of the outputs), with the
    /// gate's reused memory. `false` for anything that is not a PHC argon2 hash.
    fn verify(&self, secret: &str, hash: &str) -> bool {
        let Ok(parsed) = PasswordHash::new(hash) else {
            return false;
        };
        let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
            return false;
        };
        let (Ok(algorithm), Ok(version), Ok(params)) = (
            Algorithm::try_from(parsed.algorithm),
            parsed
                .version
                .map_or(Ok(Version::default()), Version::try_from),
            Params::try_from(&parsed),
        ) else {
            return false;
        };
        let mut salt_buffer = [0u8; 64];
        let Ok(raw_salt) = salt.decode_b64(&mut salt_buffer) else {
            return false;
        };
        let mut output = vec![0u8; expected.len()];
        let blocks = params.block_count();
        let hasher = Argon2::new(algorithm, version, params);
        off_the_reactor(blocks, |memory| {
            hasher.hash_password_into_with_memory(secret.as_bytes(), raw_salt, &mut output, memory)
        })
        .is_ok()
            && Output::new(&output).is_ok_and(|computed| computed == expected)
    }
}

/// Runs `work` (an argon2id hash: tens of milliseconds of CPU) with `blocks` KiB of
/// argon2 memory from the gate, so that it does not hold up the other requests of its
/// async worker thread: on a multi-threaded tokio runtime, `block_in_place` hands the
/// thread's other tasks to another thread first. At most one hash per CPU runs at a
/// time ([`HashGate`]): more would not finish sooner. (Half the CPUs left the other
/// requests more room, but a burst of PIN checks on one account — each conflict retry
/// checks again — then outlasted the 30 s request timeout.) The aggregates call the
/// hasher synchronously inside `handle`, so this is the place. Elsewhere (a
/// current-thread runtime, or no runtime) it simply runs, still through the gate.
///
/// The memory (19 MiB at the default parameters) is allocated once per gate slot and
/// reused. A fresh allocation per hash, freed on whichever of tokio's blocking threads
/// ran it, was kept by the allocator per thread: the api's peak memory grew with the
/// number of blocking threads a burst of PIN checks had created (bench/PROFILE.md).
fn off_the_reactor<T>(blocks: usize, work: impl FnOnce(&mut [Block]) -> T) -> T {
    let gated = || {
        let mut turn = HASH_GATE.enter();
        let memory = turn.memory(blocks);
        work(memory)
    };
    let multi_threaded = tokio::runtime::Handle::try_current()
        .is_ok_and(|handle| handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
    if multi_threaded {
        tokio::task::block_in_place(gated)
    } else {
        gated()
    }
}

/// A counting gate with one reusable argon2 memory buffer per holder: at most `limit`
/// holders at once; the others wait (blocking, which is fine off the reactor).
struct HashGate {
    /// Buffers not in use; a slot's buffer is created on its first use.
    free: Mutex<Slots>,
    freed: Condvar,
    limit: usize,
}

/// The gate's bookkeeping.
#[derive(Default)]
struct Slots {
    holders: usize,
    buffers: Vec<Vec<Block>>,
}

/// One holder's turn and its buffer; leaving the scope gives both back.
struct Turn<'a> {
    gate: &'a HashGate,
    buffer: Vec<Block>,
}

impl HashGate {
    fn enter(&self) -> Turn<'_> {
        let mut slots = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while slots.holders >= self.limit {
            slots = self.freed.wait(slots).unwrap_or_else(|e| e.into_inner());
        }
        slots.holders += 1;
        let buffer = slots.buffers.pop().unwrap_or_default();
        Turn { gate: self, buffer }
    }
}

impl Turn<'_> {
    /// At least `blocks` blocks; grows the buffer only for a hash made with larger
    /// parameters than any before it.
    fn memory(&mut self, blocks: usize) -> &mut [Block] {
        if self.buffer.len() < blocks {
            self.buffer.resize(blocks, Block::default());
        }
        &mut self.buffer[..blocks]
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut slots = self.gate.free.lock().unwrap_or_else(|e| e.into_inner());
        slots.holders -= 1;
        slots.buffers.push(std::mem::take(&mut self.buffer));
        drop(slots);
        self.gate.freed.notify_one();
    }
}

/// One argon2id hash per CPU at a time.
static HASH_GATE: LazyLock<HashGate> = LazyLock::new(|| HashGate {
    free: Mutex::new(Slots::default()),
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

    #[test]
    fn hashes_agree_with_the_crates_own_hash_and_verify() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let theirs = Argon2::default()
            .hash_password(b"s3cret!", &SaltString::generate(&mut OsRng))
            .unwrap()
            .to_string();
        assert!(Argon2Hasher.verify("s3cret!", &theirs));
        assert!(!Argon2Hasher.verify("s3cret?", &theirs));
        let ours = Argon2Hasher.hash("s3cret!");
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(Argon2::default()
            .verify_password(b"s3cret!", &parsed)
            .is_ok());
        // Smaller parameters (an older hash) verify too, from the same buffers.
        let small = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(1024, 1, 1, None).unwrap(),
        )
        .hash_password(b"s3cret!", &SaltString::generate(&mut OsRng))
        .unwrap()
        .to_string();
        assert!(Argon2Hasher.verify("s3cret!", &small));
        assert!(!Argon2Hasher.verify("s3cret", &small));
    }

    #[test]
    fn the_gate_keeps_at_most_one_buffer_per_slot() {
        let threads: Vec<_> = (0..8)
            .map(|n| std::thread::spawn(move || Argon2Hasher.hash(&format!("pin{n}"))))
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        // Other tests may hold a turn (and its buffer) right now.
        let slots = HASH_GATE.free.lock().unwrap();
        let created = slots.buffers.len() + slots.holders;
        assert!(
            (1..=HASH_GATE.limit).contains(&created),
            "{created} buffers for {} slots",
            HASH_GATE.limit
        );
    }
}
