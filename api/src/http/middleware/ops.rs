//! Operations: rate limits, security headers and `/metrics`.
//!
//! - Rate limits (code 5): per client IP on registration, borrower and auditor login,
//!   SMS, unlock, bank binding and withdraw PIN (the calls that check SMS codes), and
//!   the personal data exports (the calls `crate::http::route_table` marks), with the `governor` crate (GCRA). Per phone, the SMS
//!   resend limit (60 s) and the lock after five wrong passwords or PINs apply on top; per auditor
//!   username, five failed logins lock it for 15 minutes (`auditors`).
//! - Security headers on every response; no CORS headers, so browsers allow only the
//!   app's own origin.
//! - `/metrics` (Prometheus text, only with `METRICS_TOKEN` as a bearer token): requests and latency by route class, and each
//!   worker's lag behind the event log, in events and in time (`projection_apply_lag_seconds`).

use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Instant;

use aggregates::ErrorCode;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum_client_ip::{ClientIp, ClientIpSource};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use secrecy::ExposeSecret;

use crate::http::envelope::ApiError;
use crate::runtime::state::AppState;

/// 10 requests in a burst, then one every 3 seconds, per IP and path.
fn quota() -> Quota {
    Quota::with_period(std::time::Duration::from_secs(3))
        .expect("a non-zero period")
        .allow_burst(NonZeroU32::new(10).expect("non-zero"))
}

/// Checks between two sweeps of the limiter's idle keys ([`RateLimits::check`]).
const CHECKS_PER_SWEEP: u64 = 1024;

/// The per-IP limiter of one api process.
pub struct RateLimits {
    limiter: DefaultKeyedRateLimiter<String>,
    /// Where the client address is read (`TRUST_PROXY`, [`client_ip_source`]).
    pub(crate) source: ClientIpSource,
    /// Checks so far, to sweep every [`CHECKS_PER_SWEEP`].
    checks: AtomicU64,
}

impl RateLimits {
    /// A fresh limiter reading the client address from `source`.
    pub fn new(source: ClientIpSource) -> Self {
        Self {
            limiter: RateLimiter::keyed(quota()),
            source,
            checks: AtomicU64::new(0),
        }
    }

    /// Takes one request of `key` from its quota; `false` when it has none left. Every
    /// [`CHECKS_PER_SWEEP`] checks it forgets the keys whose quota is full again (idle
    /// for 30 s, which a fresh key would be too), so the limiter holds only the
    /// addresses of the last half minute or so instead of every address ever seen:
    /// otherwise a stream of requests from ever new addresses grows it without end.
    fn check(&self, key: String) -> bool {
        if self.checks.fetch_add(1, Ordering::Relaxed) % CHECKS_PER_SWEEP == CHECKS_PER_SWEEP - 1 {
            self.limiter.retain_recent();
        }
        self.limiter.check_key(&key).is_ok()
    }
}

/// The limiter's key for a client address: an IPv4 address itself (also when it
/// arrives IPv4-mapped on a dual-stack socket), an IPv6 address its /64 network. A
/// subscriber is commonly given a whole /64 (RFC 6177), so keyed by address one
/// client could take a fresh quota for every request.
fn address_key(ip: std::net::IpAddr) -> String {
    use std::net::IpAddr;
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let network = std::net::Ipv6Addr::from(u128::from(v6) & !u128::from(u64::MAX));
                format!("{network}/64")
            }
        },
    }
}

/// The client address source a `TRUST_PROXY` value names: unset, `false` or `0` the TCP
/// peer; `true` or `1` the right-most `X-Forwarded-For` entry, the one the trusted proxy
/// appended (entries to its left are written by the client and never trusted); or any
/// source `axum-client-ip` names (`XRealIp`, `CfConnectingIp`, `RightmostXForwardedFor`,
/// ...). `None` for anything else, which stops the start-up.
pub fn client_ip_source(trust_proxy: Option<&str>) -> Option<ClientIpSource> {
    match trust_proxy {
        None | Some("false" | "0") => Some(ClientIpSource::ConnectInfo),
        Some("true" | "1") => Some(ClientIpSource::RightmostXForwardedFor),
        Some(name) => name.parse().ok(),
    }
}

/// The limiter's key ([`address_key`]) for the client address of `request` as
/// `axum-client-ip` reads it from `source`. A request without one (no proxy header
/// where one is required, or no TCP peer in a test) shares the key `unknown`, so it is
/// still limited.
async fn client_ip(request: Request, source: &ClientIpSource) -> (String, Request) {
    let (mut parts, body) = request.into_parts();
    parts.extensions.insert(source.clone());
    let ip = ClientIp::from_request_parts(&mut parts, &())
        .await
        .map_or_else(|_| "unknown".to_string(), |ClientIp(ip)| address_key(ip));
    (ip, Request::from_parts(parts, body))
}

/// The client address of a request as `axum-client-ip` reads it from `source`, in full
/// (the audit trail's "from where"); `unknown` without one.
pub async fn client_address(
    parts: &mut axum::http::request::Parts,
    source: &ClientIpSource,
) -> String {
    parts.extensions.insert(source.clone());
    ClientIp::from_request_parts(parts, &())
        .await
        .map_or_else(|_| "unknown".to_string(), |ClientIp(ip)| ip.to_string())
}

/// Refuses a limited call beyond its quota with code 5.
pub async fn rate_limit(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let Some(prefix) = crate::http::route_table::rate_limited(path) else {
        return next.run(request).await;
    };
    let limits = &state.rate_limits;
    let (ip, request) = client_ip(request, &limits.source).await;
    if !limits.check(format!("{ip}|{prefix}")) {
        return ApiError::code(ErrorCode::TooManyRequests).into_response();
    }
    next.run(request).await
}

/// Paths whose answers may carry personal data (a profile holds the full ID number,
/// `/files` the ID photos): never stored by a browser or a shared cache
/// (`Cache-Control: no-store`, issue 13 item 5).
const PRIVATE: [&str; 5] = ["/jackey/", "/admin/api/", "/files", "/pay/", "/sandbox/"];

/// Adds the security headers, and `Cache-Control: no-store` on [`PRIVATE`] paths.
pub async fn security_headers(request: Request, next: Next) -> Response {
    let private = PRIVATE.iter().any(|p| request.uri().path().starts_with(p));
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    if private {
        headers.insert(
            axum::http::header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        );
    }
    let set = [
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "no-referrer"),
        ("permissions-policy", "camera=(self), geolocation=(), microphone=()"),
        (
            "content-security-policy",
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
        ),
    ];
    for (name, value) in set {
        headers.insert(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
    response
}

/// Request counters by class (`jackey`, `admin`, `other`).
#[derive(Default)]
pub struct Metrics {
    requests: [AtomicU64; 3],
    errors: [AtomicU64; 3],
    latency_us: [AtomicU64; 3],
    /// Latency histogram buckets (ms): ≤5, ≤25, ≤100, ≤500, +Inf — all classes.
    buckets: [AtomicU64; 5],
}

const CLASSES: [&str; 3] = ["jackey", "admin", "other"];
const BUCKETS_MS: [u64; 4] = [5, 25, 100, 500];

/// The process-wide counters.
pub static METRICS: LazyLock<Arc<Metrics>> = LazyLock::new(Arc::default);

/// Counts requests and their latency.
pub async fn track(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let class = if path.starts_with("/jackey") {
        0
    } else if path.starts_with("/admin") {
        1
    } else {
        2
    };
    let started = Instant::now();
    let response = next.run(request).await;
    let elapsed = started.elapsed();
    let metrics = &*METRICS;
    metrics.requests[class].fetch_add(1, Ordering::Relaxed);
    if response.status().is_server_error() {
        metrics.errors[class].fetch_add(1, Ordering::Relaxed);
    }
    metrics.latency_us[class].fetch_add(elapsed.as_micros() as u64, Ordering::Relaxed);
    let ms = elapsed.as_millis() as u64;
    let bucket = BUCKETS_MS.iter().position(|b| ms <= *b).unwrap_or(4);
    metrics.buckets[bucket].fetch_add(1, Ordering::Relaxed);
    response
}

/// The time each read-model worker of this process took from an event's commit to
/// the commit of the rows it made ([`projections::consumer::lag`]): a histogram per worker, and
/// the largest lag since start-up.
fn push_apply_lag(out: &mut String) {
    use projections::consumer::lag::{snapshots, BUCKETS_US};
    out.push_str("# TYPE projection_apply_lag_seconds histogram\n");
    for (name, snapshot) in snapshots() {
        let mut cumulative = 0;
        let bounds = BUCKETS_US
            .iter()
            .map(|us| format!("{}", *us as f64 / 1e6))
            .chain(["+Inf".to_string()]);
        for (count, bound) in snapshot.buckets.iter().zip(bounds) {
            cumulative += count;
            out.push_str(&format!(
                "projection_apply_lag_seconds_bucket{{worker=\"{name}\",le=\"{bound}\"}} {cumulative}\n"
            ));
        }
        out.push_str(&format!(
            "projection_apply_lag_seconds_count{{worker=\"{name}\"}} {cumulative}\n\
             projection_apply_lag_seconds_sum{{worker=\"{name}\"}} {:.6}\n\
             projection_apply_lag_max_seconds{{worker=\"{name}\"}} {:.6}\n",
            snapshot.sum_us as f64 / 1e6,
            snapshot.max_us as f64 / 1e6
        ));
    }
}

/// Whether `headers` carry `Authorization: Bearer <METRICS_TOKEN>`. Without a
/// configured token nobody may read the metrics. The two sides are compared as SHA-256
/// digests, so the time taken tells nothing about the token.
fn metrics_allowed(state: &AppState, headers: &axum::http::HeaderMap) -> bool {
    let Some(expected) = &state.env.metrics_token else {
        return false;
    };
    let sent = crate::http::auth::bearer_of(headers).unwrap_or_default();
    crate::providers::same_secret(&sent, expected.expose_secret())
}

/// `GET /metrics` with `Authorization: Bearer <METRICS_TOKEN>`: Prometheus text.
/// 401 with a wrong or missing token; 404 when no `METRICS_TOKEN` is configured.
pub async fn metrics(State(state): State<AppState>, headers: axum::http::HeaderMap) -> Response {
    if state.env.metrics_token.is_none() {
        return (
            axum::http::StatusCode::NOT_FOUND,
            "metrics are off: set METRICS_TOKEN and send it as a bearer token",
        )
            .into_response();
    }
    if !metrics_allowed(&state, &headers) {
        return (
            axum::http::StatusCode::UNAUTHORIZED,
            [(axum::http::header::WWW_AUTHENTICATE, "Bearer")],
            "send METRICS_TOKEN as a bearer token",
        )
            .into_response();
    }
    let mut out = String::new();
    let m = &*METRICS;
    out.push_str("# TYPE http_requests_total counter\n");
    for (i, class) in CLASSES.iter().enumerate() {
        out.push_str(&format!(
            "http_requests_total{{class=\"{class}\"}} {}\n",
            m.requests[i].load(Ordering::Relaxed)
        ));
        out.push_str(&format!(
            "http_server_errors_total{{class=\"{class}\"}} {}\n",
            m.errors[i].load(Ordering::Relaxed)
        ));
        out.push_str(&format!(
            "http_request_duration_seconds_sum{{class=\"{class}\"}} {:.6}\n",
            m.latency_us[i].load(Ordering::Relaxed) as f64 / 1e6
        ));
    }
    out.push_str("# TYPE http_request_duration_seconds histogram\n");
    let mut cumulative = 0;
    for (i, bound) in BUCKETS_MS
        .iter()
        .map(|b| format!("{:.3}", *b as f64 / 1000.0))
        .chain(["+Inf".to_string()])
        .enumerate()
    {
        cumulative += m.buckets[i].load(Ordering::Relaxed);
        out.push_str(&format!(
            "http_request_duration_seconds_bucket{{le=\"{bound}\"}} {cumulative}\n"
        ));
    }
    // Projection lag: events between each worker's checkpoint and the head of the log.
    out.push_str("# TYPE projection_lag_events gauge\n");
    if let Ok(head) = projections::store::EventLog::new(&state.database)
        .head()
        .await
    {
        // The loan process's checkpoints are its partitions'; `process:loan` itself
        // only says where they started, and a lag read from it never fell.
        for name in crate::workflows::consumer_names() {
            if let Ok(position) =
                projections::consumer::runner::read_checkpoint(&state.database, &name).await
            {
                let lag = (head.global_position - position.global_position).max(0);
                out.push_str(&format!(
                    "projection_lag_events{{worker=\"{name}\"}} {lag}\n"
                ));
            }
        }
    }
    push_apply_lag(&mut out);
    // The log consumers this process leads (the others stand by: projections::consumer::lease).
    out.push_str("# TYPE log_consumer_leading gauge\n");
    for name in state.leases.leading() {
        out.push_str(&format!("log_consumer_leading{{consumer=\"{name}\"}} 1\n"));
    }
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4",
        )],
        out,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_client_is_limited_by_its_64_network_and_an_ipv4_one_by_its_address() {
        let key = |ip: &str| address_key(ip.parse().unwrap());
        assert_eq!(key("203.0.113.7"), "203.0.113.7");
        // Mapped IPv4 on a dual-stack socket is still one address, not all of IPv4.
        assert_eq!(key("::ffff:203.0.113.7"), "203.0.113.7");
        assert_eq!(key("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
        assert_eq!(key("2001:db8:1:2:ffff:ffff:ffff:ffff"), "2001:db8:1:2::/64");
        assert_ne!(key("2001:db8:1:3::1"), key("2001:db8:1:2::1"));
    }

    #[test]
    fn a_burst_of_ten_then_refused_and_a_sweep_keeps_a_key_that_is_not_idle() {
        let limits = RateLimits::new(ClientIpSource::ConnectInfo);
        for _ in 0..10 {
            assert!(limits.check("203.0.113.7|/jackey/user/login".into()));
        }
        assert!(!limits.check("203.0.113.7|/jackey/user/login".into()));
        // Enough other keys to pass a sweep: the spent quota is still remembered.
        for n in 0..CHECKS_PER_SWEEP {
            limits.check(format!("{n}|/jackey/user/login"));
        }
        assert!(!limits.check("203.0.113.7|/jackey/user/login".into()));
    }
}
