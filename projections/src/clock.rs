//! The wall clock: the one place that reads the system time. Everything else takes
//! its time from a [`Clock`] (the domain and the workflows from the one the api was
//! started with, tests from a fixed one); clippy's `disallowed-methods` (`clippy.toml`)
//! refuses `Utc::now` and `SystemTime::now` anywhere but here.
//!
//! The store's own bookkeeping (an event's `recorded_at` stamp, a checkpoint's
//! `updated_at`, the lag of the read models, an export's time) is stamped by
//! [`infrastructure`], so a simulator that owns time replaces one clock, not many.

use std::sync::{Arc, OnceLock};

use aggregates::services::Clock;
use chrono::{DateTime, Utc};

/// UTC now, from the operating system.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        #[allow(clippy::disallowed_methods)] // the one reading of the wall time
        Utc::now()
    }
}

static INFRASTRUCTURE: OnceLock<Arc<dyn Clock>> = OnceLock::new();

/// The clock of the store's bookkeeping: the one [`install`]ed, else [`SystemClock`].
pub fn infrastructure() -> &'static dyn Clock {
    INFRASTRUCTURE
        .get_or_init(|| Arc::new(SystemClock))
        .as_ref()
}

/// Sets the clock of the store's bookkeeping for the process, once, before anything
/// reads it (a simulator's first step). Answers false when one was already set.
pub fn install(clock: Arc<dyn Clock>) -> bool {
    INFRASTRUCTURE.set(clock).is_ok()
}
