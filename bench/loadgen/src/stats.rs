//! Latency and outcome counts of one run, kept per client and merged at the end.

use std::collections::BTreeMap;
use std::time::Duration;

use hdrhistogram::Histogram;
use serde_json::{json, Value};

use crate::client::{Answer, Transport};

/// What one client (or a merged run) saw.
pub struct Stats {
    /// Latency of successful calls, microseconds (1 µs … 60 s, 3 significant digits).
    latency: Histogram<u64>,
    /// Successful calls by kind (`apply`, `withdraw`, `query:/jackey/user/info`, …).
    pub ok: BTreeMap<String, u64>,
    /// Latency of successful calls per kind, microseconds (where the time goes).
    by_kind: BTreeMap<String, Histogram<u64>>,
    /// Refused calls by `kind code`: the code and a sample message.
    pub refused: BTreeMap<String, (u64, String)>,
    /// Calls that got no envelope (connection refused while the api was down, say).
    pub transport: u64,
    /// Conflict errors that reached the client: code 500 with the store's "busy"
    /// message (conflicts are meant to be retried inside the api).
    pub conflicts: u64,
    /// Calls answered "not yet" because a worker had not finished (counted apart from
    /// refusals).
    pub not_ready: u64,
}

impl Default for Stats {
    fn default() -> Self {
        Self {
            latency: new_histogram(),
            ok: BTreeMap::new(),
            by_kind: BTreeMap::new(),
            refused: BTreeMap::new(),
            transport: 0,
            conflicts: 0,
            not_ready: 0,
        }
    }
}

impl Stats {
    /// Records the outcome of one call of `kind`; returns the answer when it succeeded.
    pub fn record(&mut self, kind: &str, outcome: Result<Answer, Transport>) -> Option<Answer> {
        match outcome {
            Ok(answer) if answer.ok() => {
                let us = micros(answer.latency).max(1);
                self.latency.saturating_record(us);
                self.by_kind
                    .entry(kind.to_string())
                    .or_insert_with(new_histogram)
                    .saturating_record(us);
                *self.ok.entry(kind.to_string()).or_default() += 1;
                Some(answer)
            }
            Ok(answer) => {
                if answer.code == 500 && answer.msg.contains("busy") {
                    self.conflicts += 1;
                }
                let entry = self
                    .refused
                    .entry(format!("{kind} {}", answer.code))
                    .or_insert((0, answer.msg.chars().take(120).collect()));
                entry.0 += 1;
                None
            }
            Err(_) => {
                self.transport += 1;
                None
            }
        }
    }

    /// Adds another client's figures.
    pub fn merge(&mut self, other: &Stats) {
        self.latency.add(&other.latency).expect("same bounds");
        for (kind, n) in &other.ok {
            *self.ok.entry(kind.clone()).or_default() += n;
        }
        for (kind, histogram) in &other.by_kind {
            let mine = self
                .by_kind
                .entry(kind.clone())
                .or_insert_with(new_histogram);
            mine.add(histogram).expect("same bounds");
        }
        for (key, (n, msg)) in &other.refused {
            self.refused
                .entry(key.clone())
                .or_insert((0, msg.clone()))
                .0 += n;
        }
        self.transport += other.transport;
        self.conflicts += other.conflicts;
        self.not_ready += other.not_ready;
    }

    /// Successful calls.
    pub fn successes(&self) -> u64 {
        self.ok.values().sum()
    }

    /// The summary of a run that lasted `elapsed`: `{successes, perSecond, p50Ms,
    /// p99Ms, maxMs, byKind, p50MsByKind, refused, transport, conflicts}`.
    pub fn summary(&self, elapsed: Duration) -> Value {
        let ms = |q: f64| self.latency.value_at_quantile(q) as f64 / 1000.0;
        json!({
            "seconds": elapsed.as_secs_f64(),
            "successes": self.successes(),
            "perSecond": self.successes() as f64 / elapsed.as_secs_f64().max(1e-9),
            "p50Ms": ms(0.50),
            "p99Ms": ms(0.99),
            "maxMs": self.latency.max() as f64 / 1000.0,
            "byKind": self.ok,
            "p50MsByKind": self.by_kind.iter().map(|(kind, h)| {
                (kind.clone(), json!(h.value_at_quantile(0.5) as f64 / 1000.0))
            }).collect::<serde_json::Map<_, _>>(),
            "refused": self.refused.iter().map(|(k, (n, m))| json!({"call": k, "count": n, "msg": m})).collect::<Vec<_>>(),
            "transport": self.transport,
            "conflicts": self.conflicts,
            "notReady": self.not_ready,
        })
    }
}

/// A latency histogram: 1 µs … 60 s, 3 significant digits.
fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000, 3).expect("histogram bounds")
}

/// Whole microseconds of `duration`.
pub fn micros(duration: Duration) -> u64 {
    u64::try_from(duration.as_micros()).unwrap_or(u64::MAX)
}
