//! Projection lag over a window of load, from the api's `/metrics`
//! (`projection_apply_lag_seconds`, summed over every read-model worker).

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::client::Api;

/// Cumulative counts by bucket bound (seconds; `+Inf` as infinity), summed over workers.
type Buckets = BTreeMap<String, u64>;

/// The lag histogram at the start of a window.
pub struct LagWindow {
    start: Buckets,
}

impl LagWindow {
    /// Scrapes `/metrics` now.
    pub async fn open(api: &Api) -> Self {
        Self {
            start: scrape(api).await.0,
        }
    }

    /// The lag of the events applied since [`LagWindow::open`]: `{events, p50Ms, p99Ms,
    /// maxBucketMs, maxSinceStartMs}`. Quantiles are bucket upper bounds (the
    /// histogram's resolution, `projections::consumer::lag`: … 20, 25, 30, 35, 40, 45, 50, 60, 75,
    /// 100, 150 ms …).
    pub async fn close(self, api: &Api) -> Value {
        let (end, max_since_start) = scrape(api).await;
        let mut bounds: Vec<(f64, u64)> = end
            .iter()
            .map(|(bound, count)| {
                let before = self.start.get(bound).copied().unwrap_or(0);
                let bound = bound.parse().unwrap_or(f64::INFINITY);
                (bound, count.saturating_sub(before))
            })
            .collect();
        bounds.sort_by(|a, b| a.0.total_cmp(&b.0));
        let total = bounds.last().map_or(0, |(_, count)| *count);
        let quantile = |q: f64| {
            let wanted = (q * total as f64).ceil() as u64;
            bounds
                .iter()
                .find(|(_, count)| *count >= wanted.max(1))
                .map(|(bound, _)| bound * 1000.0)
        };
        let max_bucket = bounds
            .iter()
            .find(|(_, count)| *count == total)
            .map(|(bound, _)| bound * 1000.0);
        json!({
            "events": total,
            "p50Ms": quantile(0.50),
            "p99Ms": quantile(0.99),
            "maxBucketMs": max_bucket,
            "maxSinceStartMs": max_since_start * 1000.0,
        })
    }
}

/// Waits (at most `limit`) until every worker has applied the whole log: each
/// `projection_lag_events` line of `/metrics` reads 0. A phase that measures one thing
/// (a command's latency as its history grows) must not pay for an earlier phase's
/// backlog: its calls read their own writes, and so wait behind it.
pub async fn settle(api: &Api, limit: std::time::Duration) {
    let deadline = std::time::Instant::now() + limit;
    while std::time::Instant::now() < deadline {
        let text = api.text("/metrics").await.unwrap_or_default();
        let busy = text.lines().any(|line| {
            line.strip_prefix("projection_lag_events{")
                .and_then(|rest| rest.split_once("} "))
                .is_some_and(|(_, value)| value.trim() != "0")
        });
        if !busy && !text.is_empty() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    eprintln!("the read side did not settle within {limit:?}");
}

/// The cumulative buckets summed over workers, and the largest lag since start-up
/// (seconds). An unreachable api gives empty buckets.
async fn scrape(api: &Api) -> (Buckets, f64) {
    let text = api.text("/metrics").await.unwrap_or_default();
    let mut buckets = Buckets::new();
    let mut max: f64 = 0.0;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("projection_apply_lag_seconds_bucket{") {
            let Some((labels, count)) = rest.split_once("} ") else {
                continue;
            };
            let Some(bound) = labels
                .split("le=\"")
                .nth(1)
                .map(|b| b.trim_end_matches('"'))
            else {
                continue;
            };
            *buckets.entry(bound.to_string()).or_default() +=
                count.trim().parse::<u64>().unwrap_or(0);
        } else if let Some(rest) = line.strip_prefix("projection_apply_lag_max_seconds{") {
            if let Some((_, value)) = rest.split_once("} ") {
                max = max.max(value.trim().parse().unwrap_or(0.0));
            }
        }
    }
    (buckets, max)
}
