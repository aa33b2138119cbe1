//! How often, and after what pause, a command that lost an optimistic-concurrency
//! race is run again.

use std::time::Duration;

use rand::Rng;

/// Retry budget for [`CommandBus::execute_with_retry`](super::CommandBus::execute_with_retry).
///
/// Retry number `n` (1-based) waits a random duration between half and all of
/// `base_delay * 2^(n-1)`, capped at `max_delay`: the pause grows with each conflict,
/// and the randomness keeps the losers of one race from colliding again in lockstep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// How many times a conflicting command is run again after its first attempt
    /// (0: never); the command runs at most `1 + max_retries` times.
    pub max_retries: u32,
    /// The longest pause before the first retry.
    pub base_delay: Duration,
    /// The longest pause before any retry.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    /// Five retries, pausing 1–2 ms before the first and at most 32 ms before the last.
    fn default() -> Self {
        Self {
            max_retries: 5,
            base_delay: Duration::from_millis(2),
            max_delay: Duration::from_millis(50),
        }
    }
}

impl RetryPolicy {
    /// The pause before retry number `retry` (1 for the first retry), drawn at random
    /// from the upper half of the ceiling `base_delay * 2^(retry-1)` (capped at `max_delay`).
    pub fn delay_before(&self, retry: u32) -> Duration {
        let doublings = retry.saturating_sub(1).min(16);
        let ceiling = self
            .base_delay
            .saturating_mul(1 << doublings)
            .min(self.max_delay);
        let ceiling_us = u64::try_from(ceiling.as_micros()).unwrap_or(u64::MAX);
        let jittered_us = rand::thread_rng().gen_range(ceiling_us / 2..=ceiling_us);
        Duration::from_micros(jittered_us)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_grow_with_each_retry_and_stay_within_the_cap() {
        let policy = RetryPolicy::default();
        for _ in 0..100 {
            let first = policy.delay_before(1);
            assert!(first >= Duration::from_millis(1) && first <= Duration::from_millis(2));
            let third = policy.delay_before(3);
            assert!(third >= Duration::from_millis(4) && third <= Duration::from_millis(8));
            let late = policy.delay_before(40);
            assert!(late >= Duration::from_millis(25) && late <= policy.max_delay);
        }
    }
}
