//! CPU time of the processes under load, sampled at a phase's start and end from
//! `/proc` (Linux), so the report can give CPU per command of the api, PostgreSQL and
//! this load generator for the very window the phase's rate was measured over.

use std::collections::BTreeMap;

use serde_json::{json, Value};

/// The process names (`/proc/<pid>/comm`) whose CPU is counted, each reported under
/// its name. PostgreSQL's backends and background processes are all `postgres`;
/// `floor` is `bench/floor`'s server (RESULTS.md section 1b).
const WATCHED: [&str; 4] = ["api", "floor", "postgres", "loadgen"];

/// CPU seconds (user + system, the process's reaped children included) per watched
/// name at the start of a window.
pub struct CpuWindow {
    start: BTreeMap<&'static str, f64>,
}

impl CpuWindow {
    /// Samples now.
    pub fn open() -> Self {
        Self { start: sample() }
    }

    /// `{api, floor, postgres, loadgen}`: CPU seconds each spent since [`CpuWindow::open`]. A
    /// process that exited inside the window loses its share (PostgreSQL backends live
    /// as long as the api's pool connections, which outlast every phase).
    pub fn close(self) -> Value {
        let end = sample();
        let spent: serde_json::Map<String, Value> = end
            .iter()
            .map(|(name, seconds)| {
                let before = self.start.get(name).copied().unwrap_or(0.0);
                ((*name).to_string(), json!((seconds - before).max(0.0)))
            })
            .collect();
        Value::Object(spent)
    }
}

/// Sums utime + stime + cutime + cstime (clock ticks, 100 a second on Linux) of every
/// process whose `comm` is watched.
fn sample() -> BTreeMap<&'static str, f64> {
    let mut totals: BTreeMap<&'static str, f64> = WATCHED.iter().map(|name| (*name, 0.0)).collect();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return totals;
    };
    for entry in entries.flatten() {
        // Only the numbered entries: `self` and `thread-self` would count this
        // process again.
        if !entry
            .file_name()
            .to_string_lossy()
            .bytes()
            .all(|b| b.is_ascii_digit())
        {
            continue;
        }
        let path = entry.path();
        let Ok(stat) = std::fs::read_to_string(path.join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid …`: comm may hold spaces, so split at the last ')'.
        let Some((head, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let comm = head.split_once('(').map_or("", |(_, comm)| comm);
        let Some(key) = WATCHED.iter().find(|name| **name == comm) else {
            continue;
        };
        // After the comm: state is field 3; utime..cstime are fields 14..17.
        let ticks: f64 = rest
            .split_whitespace()
            .skip(11)
            .take(4)
            .filter_map(|field| field.parse::<f64>().ok())
            .sum();
        *totals.entry(key).or_default() += ticks / 100.0;
    }
    totals
}
