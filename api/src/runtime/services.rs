//! The real implementations of the aggregates' services: the system clock and
//! argon2id hashing (P2: passwords and PINs are stored only as argon2id hashes).

use aggregates::services::SecretHasher;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use std::sync::{LazyLock, Mutex};
use tokio::sync::Semaphore;

pub use projections::clock::SystemClock;

/// argon2id (the crate's default algorithm and parameters), PHC strings.
pub struct Argon2Hasher;

#[async_trait::async_trait]
impl SecretHasher for Argon2Hasher {
    async fn hash(&self, secret: &str) -> String {
        let secret = secret.to_owned();
        let salt = SaltString::generate(&mut OsRng);
        let params = Params::default();
        let hasher = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
        let (salt, output) = off_the_reactor(params.block_count(), move |memory| {
            let mut salt_buffer = [0u8; 64];
            let mut output = [0u8; Params::DEFAULT_OUTPUT_LEN];
            // Hashing fails only on parameter errors, which defaults cannot have.
            let raw_salt = salt
                .as_salt()
                .decode_b64(&mut salt_buffer)
                .expect("a generated salt decodes");
            hasher
                .hash_password_into_with_memory(secret.as_bytes(), raw_salt, &mut output, memory)
                .expect("argon2 with default parameters");
            (salt, output)
        })
        .await;
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
    async fn verify(&self, secret: &str, hash: &str) -> bool {
        let Some(check) = Check::parse(secret, hash) else {
            return false;
        };
        let blocks = check.params.block_count();
        off_the_reactor(blocks, move |memory| check.matches(memory)).await
    }
}

/// What verifying a secret against a PHC hash needs, owned so that it can move to a
/// blocking thread.
struct Check {
    secret: String,
    algorithm: Algorithm,
    version: Version,
    params: Params,
    salt: Vec<u8>,
    expected: Output,
}

impl Check {
    /// `None` when `hash` is not a PHC argon2 hash with a salt and an output.
    fn parse(secret: &str, hash: &str) -> Option<Self> {
        let parsed = PasswordHash::new(hash).ok()?;
        let mut salt_buffer = [0u8; 64];
        let salt = parsed.salt?.decode_b64(&mut salt_buffer).ok()?.to_vec();
        Some(Self {
            secret: secret.to_owned(),
            algorithm: Algorithm::try_from(parsed.algorithm).ok()?,
            version: parsed
                .version
                .map_or(Ok(Version::default()), Version::try_from)
                .ok()?,
            params: Params::try_from(&parsed).ok()?,
            salt,
            expected: parsed.hash?,
        })
    }

    /// Hashes the secret with the stored parameters and salt, and compares.
    fn matches(self, memory: &mut [Block]) -> bool {
        let mut output = vec![0u8; self.expected.len()];
        let hasher = Argon2::new(self.algorithm, self.version, self.params);
        hasher
            .hash_password_into_with_memory(self.secret.as_bytes(), &self.salt, &mut output, memory)
            .is_ok()
            && Output::new(&output).is_ok_and(|computed| computed == self.expected)
    }
}

/// Runs `work` (an argon2id hash: tens of milliseconds of CPU) on a thread of its own
/// at a lower scheduling priority ([`HASH_NICE`]), with `blocks` KiB of argon2 memory,
/// once the gate gives it a turn: at most one hash per CPU runs at a time
/// ([`HashGate`]), since more would not finish sooner. The turn is awaited, not
/// blocked on, so a burst of PIN checks waits as tasks and does not make tokio start a
/// thread per waiting request. (Half the CPUs left the other requests more room, but a
/// burst of PIN checks on one account then outlasted the 30 s request timeout.)
///
/// The lower priority: a hash holds a core for about 20 ms, and with one per CPU a
/// burst of withdrawals took every core from the log reader, the workflows and the
/// other requests, so the read models lagged by hundreds of milliseconds
/// (bench/PROFILE.md). The kernel now runs those first and the hashes in the time left;
/// on an idle machine a hash takes as long as before. The thread is new per hash
/// because an unprivileged thread cannot raise its priority back for other work.
///
/// The memory (19 MiB at the default parameters) is allocated once per turn slot and
/// reused: a fresh allocation per hash, freed on whichever thread ran it, was kept by
/// the allocator per thread, and with a thread per waiting request the api's peak
/// memory grew with the burst (bench/PROFILE.md, memory).
async fn off_the_reactor<T: Send + 'static>(
    blocks: usize,
    work: impl FnOnce(&mut [Block]) -> T + Send + 'static,
) -> T {
    let gate: &'static HashGate = &HASH_GATE;
    let turn = gate.turns.acquire().await.expect("the gate never closes");
    let (done, outcome) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("argon2".into())
        .spawn(move || {
            // The turn ends when this thread does, even if the request has gone.
            let _turn = turn;
            lower_this_threads_priority();
            let mut buffer = gate.take();
            if buffer.len() < blocks {
                buffer.resize(blocks, Block::default());
            }
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                work(&mut buffer[..blocks])
            }));
            gate.give_back(buffer);
            // The receiver is gone only when the request was dropped.
            let _ = done.send(result);
        })
        .expect("the hashing thread starts");
    match outcome.await.expect("the hashing thread always answers") {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// The nice value hashing threads run at (0 is the default, 19 the lowest priority):
/// under contention the kernel gives a nice-10 thread about a tenth of the CPU time
/// of a nice-0 one (CFS weights 110 and 1024).
const HASH_NICE: i32 = 10;

/// Sets the calling thread's nice value to [`HASH_NICE`]. On Linux the nice value is
/// per thread (setpriority(2), NOTES), and `None` names the caller. Failure (a
/// platform without it) leaves the default priority: slower neighbours, same hash.
fn lower_this_threads_priority() {
    if let Err(error) = rustix::process::setpriority_process(None, HASH_NICE) {
        tracing::debug!(%error, "could not lower the hashing thread's priority");
    }
}

/// At most `limit` hashes at once, each with a reusable argon2 memory buffer.
struct HashGate {
    turns: Semaphore,
    buffers: Mutex<Buffers>,
}

/// Buffers not in use, and how many were ever made (at most one per turn).
#[derive(Default)]
struct Buffers {
    free: Vec<Vec<Block>>,
    created: usize,
}

impl HashGate {
    /// A free buffer, or a new empty one (sized by the caller).
    fn take(&self) -> Vec<Block> {
        let mut buffers = self.buffers.lock().unwrap_or_else(|e| e.into_inner());
        buffers.free.pop().unwrap_or_else(|| {
            buffers.created += 1;
            Vec::new()
        })
    }

    fn give_back(&self, buffer: Vec<Block>) {
        let mut buffers = self.buffers.lock().unwrap_or_else(|e| e.into_inner());
        buffers.free.push(buffer);
    }
}

/// How many hashes may run at once: one per CPU.
fn hash_turns() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

static HASH_GATE: LazyLock<HashGate> = LazyLock::new(|| HashGate {
    turns: Semaphore::new(hash_turns()),
    buffers: Mutex::new(Buffers::default()),
});

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_run_at_a_lower_priority_than_the_rest_of_the_api() {
        let caller = rustix::process::getpriority_process(None).unwrap();
        let hashing = off_the_reactor(8, |_| rustix::process::getpriority_process(None))
            .await
            .unwrap();
        assert_eq!(hashing, HASH_NICE.max(caller), "hashing thread");
        assert_eq!(rustix::process::getpriority_process(None).unwrap(), caller);
    }

    #[tokio::test]
    async fn argon2id_hashes_verify_and_never_contain_the_secret() {
        let hash = Argon2Hasher.hash("246810").await;
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(!hash.contains("246810"));
        assert!(Argon2Hasher.verify("246810", &hash).await);
        assert!(!Argon2Hasher.verify("246811", &hash).await);
        assert!(!Argon2Hasher.verify("246810", "not a hash").await);
        assert_ne!(hash, Argon2Hasher.hash("246810").await, "salted");
    }

    #[tokio::test]
    async fn hashes_agree_with_the_crates_own_hash_and_verify() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let theirs = Argon2::default()
            .hash_password(b"s3cret!", &SaltString::generate(&mut OsRng))
            .unwrap()
            .to_string();
        assert!(Argon2Hasher.verify("s3cret!", &theirs).await);
        assert!(!Argon2Hasher.verify("s3cret?", &theirs).await);
        let ours = Argon2Hasher.hash("s3cret!").await;
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
        assert!(Argon2Hasher.verify("s3cret!", &small).await);
        assert!(!Argon2Hasher.verify("s3cret", &small).await);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_burst_of_hashes_shares_at_most_one_buffer_per_turn() {
        let burst: Vec<_> = (0..16)
            .map(|n| tokio::spawn(async move { Argon2Hasher.hash(&format!("pin{n}")).await }))
            .collect();
        for hash in burst {
            assert!(hash.await.unwrap().starts_with("$argon2id$"));
        }
        let created = HASH_GATE.buffers.lock().unwrap().created;
        assert!(
            (1..=hash_turns()).contains(&created),
            "{created} buffers for {} turns",
            hash_turns()
        );
    }
}
