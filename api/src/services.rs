//! The real implementations of the aggregates' services: the system clock and
//! argon2id hashing (P2: passwords and PINs are stored only as argon2id hashes).

use aggregates::services::{Clock, SecretHasher};
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use chrono::{DateTime, Utc};

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
        Argon2::default()
            .hash_password(secret.as_bytes(), &salt)
            .map(|hash| hash.to_string())
            // Hashing fails only on parameter errors, which defaults cannot have.
            .expect("argon2 with default parameters")
    }

    fn verify(&self, secret: &str, hash: &str) -> bool {
        PasswordHash::new(hash)
            .map(|parsed| {
                Argon2::default()
                    .verify_password(secret.as_bytes(), &parsed)
                    .is_ok()
            })
            .unwrap_or(false)
    }
}

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
