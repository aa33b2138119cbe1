//! The log as this process's one reader last read it, shared with the workflows
//! (issue 14: one log reader per process).
//!
//! The projection worker ([`crate::consumer::runner::Runner`]) reads each batch of the log once
//! and publishes it here; the workflows ([`crate::consumer::WorkflowConsumer`]) take
//! their next batch from the last few thousand events kept here instead of each
//! querying the log, and wake when a batch is published. The feed only ever holds a
//! contiguous run of the log (events after `start`, in log order, none skipped), so a
//! reader served from it sees exactly what [`EventLog::read_after`] would return; a
//! position outside the run (a workflow that lags, a gap after another process moved
//! the projections' checkpoint) answers `None` and the caller reads the log itself.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

use crate::store::{LogPosition, StoredEvent};

/// How many events the feed keeps: a workflow more than this far behind reads the
/// log itself until it catches up.
pub const FEED_CAPACITY: usize = 4096;

/// The shared run of recently read events, and the signal of each new batch.
#[derive(Clone, Default)]
pub struct LogFeed {
    inner: Arc<Mutex<Run>>,
    published: Arc<Notify>,
}

/// Events after `start`, contiguous in the log.
#[derive(Default)]
struct Run {
    start: LogPosition,
    events: VecDeque<StoredEvent>,
}

impl Run {
    fn end(&self) -> LogPosition {
        self.events
            .back()
            .map_or(self.start, |event| event.position)
    }
}

impl LogFeed {
    /// An empty feed.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records that the log holds `events` right after `from` (a reader's batch, in
    /// log order) and wakes whoever waits on [`LogFeed::published`]. A batch that does
    /// not continue the run replaces it.
    pub fn publish(&self, from: LogPosition, events: &[StoredEvent]) {
        if events.is_empty() {
            return;
        }
        {
            let mut run = self.inner.lock().expect("feed lock");
            if run.end() != from {
                run.start = from;
                run.events.clear();
            }
            run.events.extend(events.iter().cloned());
            while run.events.len() > FEED_CAPACITY {
                if let Some(dropped) = run.events.pop_front() {
                    run.start = dropped.position;
                }
            }
        }
        self.published.notify_waiters();
    }

    /// Up to `limit` events after `after`, when the feed can answer exactly what the
    /// log would: `None` when `after` lies outside the run, or at its end (nothing
    /// newer is known here; the caller asks the log, which another process may have
    /// written since).
    pub fn read_after(&self, after: LogPosition, limit: usize) -> Option<Vec<StoredEvent>> {
        let run = self.inner.lock().expect("feed lock");
        if after < run.start || after >= run.end() {
            return None;
        }
        let first = run.events.partition_point(|event| event.position <= after);
        Some(run.events.range(first..).take(limit).cloned().collect())
    }

    /// The signal of each published batch.
    pub fn published(&self) -> Arc<Notify> {
        self.published.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(global_position: i64) -> StoredEvent {
        StoredEvent {
            position: LogPosition {
                transaction_id: 0,
                global_position,
            },
            aggregate_type: "User".into(),
            aggregate_id: "u".into(),
            sequence: global_position,
            event_type: "E".into(),
            event_version: "1".into(),
            payload: crate::store::Payload::from_value(&json!({})),
            metadata: crate::store::Metadata::from_value(&json!({})),
        }
    }

    fn at(global_position: i64) -> LogPosition {
        event(global_position).position
    }

    fn positions(events: Option<Vec<StoredEvent>>) -> Option<Vec<i64>> {
        events.map(|events| events.iter().map(|e| e.position.global_position).collect())
    }

    #[test]
    fn answers_only_inside_its_contiguous_run() {
        let feed = LogFeed::new();
        assert_eq!(positions(feed.read_after(LogPosition::START, 10)), None);
        feed.publish(at(2), &[event(3), event(4)]);
        feed.publish(at(4), &[event(5)]);
        assert_eq!(positions(feed.read_after(at(2), 10)), Some(vec![3, 4, 5]));
        assert_eq!(positions(feed.read_after(at(3), 1)), Some(vec![4]));
        // Before the run (events 1..2 were never published here) and at its end.
        assert_eq!(positions(feed.read_after(at(1), 10)), None);
        assert_eq!(positions(feed.read_after(at(5), 10)), None);
    }

    #[test]
    fn a_batch_after_a_gap_replaces_the_run() {
        let feed = LogFeed::new();
        feed.publish(at(0), &[event(1), event(2)]);
        // Another process applied 3..6; this reader jumped to 6.
        feed.publish(at(6), &[event(7)]);
        assert_eq!(positions(feed.read_after(at(2), 10)), None);
        assert_eq!(positions(feed.read_after(at(6), 10)), Some(vec![7]));
    }

    #[test]
    fn keeps_at_most_its_capacity() {
        let feed = LogFeed::new();
        let events: Vec<_> = (1..=(FEED_CAPACITY as i64 + 10)).map(event).collect();
        feed.publish(LogPosition::START, &events);
        assert_eq!(positions(feed.read_after(at(5), 1)), None);
        assert_eq!(positions(feed.read_after(at(10), 1)), Some(vec![11]));
    }
}
