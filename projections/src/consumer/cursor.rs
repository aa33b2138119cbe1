//! Where a live workflow stands in the log: the position it has handled, the one its
//! checkpoint row holds, and when that row was last written.
//!
//! A workflow that reads a batch holding nothing it reacts to has nothing to commit, so
//! it moves only in memory and writes its row at most once per [`PERSIST_EVERY`] (and
//! when it has caught up). Re-reading such a stretch after a crash or a hand-over
//! reacts to nothing, so the row may lag without anything being lost or done twice.
//! Nothing waits on a workflow's checkpoint row (callers wait on the aggregates), which
//! is why it may lag; the read models' rows, which queries wait on, never do
//! ([`crate::consumer::runner`]).

use std::time::Duration;

use tokio::time::Instant;

use crate::store::LogPosition;

/// How long a workflow may go without writing its checkpoint row while the batches
/// it reads hold nothing it reacts to.
pub const PERSIST_EVERY: Duration = Duration::from_secs(1);

/// A workflow's place in the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    /// Everything up to here is handled (reacted to, or of no concern).
    pub handled: LogPosition,
    /// What the checkpoint row holds (the compare-and-set's expected value).
    pub persisted: LogPosition,
    /// When the row was last written (or read).
    pub persisted_at: Instant,
}

impl Cursor {
    /// A cursor at the position its checkpoint row holds.
    pub fn at(position: LogPosition) -> Self {
        Self {
            handled: position,
            persisted: position,
            persisted_at: Instant::now(),
        }
    }

    /// True when the row should be written now: with a batch that changed something
    /// (`acted`), or when it lags behind [`Cursor::handled`] and was last written
    /// [`PERSIST_EVERY`] ago or more.
    pub fn due(&self, acted: bool) -> bool {
        acted || (self.lags() && self.persisted_at.elapsed() >= PERSIST_EVERY)
    }

    /// True when the row holds less than has been handled.
    pub fn lags(&self) -> bool {
        self.persisted != self.handled
    }

    /// Records that the row now holds [`Cursor::handled`].
    pub fn persisted(&mut self) {
        self.persisted = self.handled;
        self.persisted_at = Instant::now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(global_position: i64) -> LogPosition {
        LogPosition {
            transaction_id: 1,
            global_position,
        }
    }

    #[test]
    fn a_row_is_written_with_a_change_or_once_it_lagged_a_second() {
        let long_ago = Instant::now() - PERSIST_EVERY * 2;
        // Nothing handled past the row: never due on time alone.
        let mut cursor = Cursor {
            persisted_at: long_ago,
            ..Cursor::at(at(1))
        };
        assert!(!cursor.due(false));
        // A change is always due.
        cursor.handled = at(2);
        assert!(cursor.due(true));
        cursor.persisted();
        assert_eq!(cursor.persisted, at(2));
        // A stretch of nothing: due only once PERSIST_EVERY has passed.
        cursor.handled = at(3);
        assert!(!cursor.due(false));
        cursor.persisted_at = long_ago;
        assert!(cursor.due(false));
    }
}
