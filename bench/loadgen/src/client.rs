//! The api over HTTP: envelope calls (`{code, msg, data}`), multipart uploads and the
//! sandbox payment page, each timed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

/// The answer of one envelope call.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The envelope's code (0: success; PRODUCT.md section 9 otherwise).
    pub code: i64,
    /// The envelope's message.
    pub msg: String,
    /// The envelope's `data` as answered (JSON text; `null` when absent): parsed only
    /// by the callers that read it ([`Answer::data`]). Parsing and copying every
    /// answer's document was part of the 110–118 µs of CPU the load generator spent
    /// per query, on the cores the api and PostgreSQL share with it (bench/PROFILE.md).
    pub raw_data: Box<RawValue>,
    /// Time from sending the request to the whole body read.
    pub latency: Duration,
}

impl Answer {
    /// True for code 0.
    pub fn ok(&self) -> bool {
        self.code == 0
    }

    /// The envelope's data as a JSON tree.
    pub fn data(&self) -> Value {
        serde_json::from_str(self.raw_data.get()).unwrap_or(Value::Null)
    }
}

/// The envelope as read off the wire: `data` kept as text. An object without a
/// `code` reads as code -1 (a refusal, not a lost connection).
#[derive(Deserialize)]
struct Envelope {
    #[serde(default = "no_code")]
    code: i64,
    #[serde(default)]
    msg: String,
    data: Option<Box<RawValue>>,
}

fn no_code() -> i64 {
    -1
}

/// The session token in a register or login answer's `data`.
#[derive(Deserialize)]
struct Issued {
    token: Option<String>,
}

/// The text `null`, for an answer without data.
fn null() -> Box<RawValue> {
    RawValue::from_string("null".to_string()).expect("null is JSON")
}

/// The data of a successful call; otherwise why not, named after `what` (for
/// set-up steps that must succeed).
pub fn data_of(
    what: &str,
    outcome: Result<Answer, Transport>,
) -> Result<serde_json::Value, String> {
    let answer = outcome.map_err(|e| format!("{what}: {e}"))?;
    if answer.ok() {
        Ok(answer.data())
    } else {
        Err(format!("{what}: {} {}", answer.code, answer.msg))
    }
}

/// Why a call got no envelope: the connection failed (the api was down, say) or the
/// body was not an envelope.
#[derive(Debug, Clone)]
pub struct Transport(pub String);

impl std::fmt::Display for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A client of one api base URL. Cheap to clone (one connection pool).
///
/// Like the SPA, it reads its own writes by log position: per bearer token (one
/// phone), it keeps the highest `X-Log-Position` answered and sends it as
/// `X-Min-Position` on that token's calls.
#[derive(Clone)]
pub struct Api {
    http: reqwest::Client,
    base: String,
    positions: Arc<Mutex<HashMap<String, (i64, i64)>>>,
}

/// `"<transaction>:<position>"` as a comparable pair.
fn parse_position(text: &str) -> Option<(i64, i64)> {
    let (transaction, position) = text.split_once(':')?;
    Some((transaction.parse().ok()?, position.parse().ok()?))
}

impl Api {
    /// A client of `base` (e.g. `http://127.0.0.1:8080`), 30 s per request.
    pub fn new(base: &str) -> Self {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .pool_max_idle_per_host(256)
            // The payment page answers 303 once a payment is recorded: that answer is
            // the outcome, not a page to follow.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("an HTTP client");
        Self {
            http,
            base: base.trim_end_matches('/').to_string(),
            positions: Arc::default(),
        }
    }

    /// Adds `X-Min-Position` for `token`'s writes so far.
    fn with_position(
        &self,
        request: reqwest::RequestBuilder,
        token: Option<&str>,
    ) -> reqwest::RequestBuilder {
        let known = token.and_then(|token| self.positions.lock().unwrap().get(token).copied());
        match known {
            Some((transaction, position)) => {
                request.header("x-min-position", format!("{transaction}:{position}"))
            }
            None => request,
        }
    }

    /// The absolute URL of `path` (absolute URLs pass through).
    pub fn url(&self, path: &str) -> String {
        if path.starts_with("http") {
            path.to_string()
        } else {
            format!("{}{path}", self.base)
        }
    }

    /// `POST path` with a JSON body and an optional bearer token. `client_ip` goes in
    /// `X-Forwarded-For` (the api runs with `TRUST_PROXY=true` in the bench, so the
    /// per-IP login limits apply per simulated phone, as they would in the field).
    pub async fn call(
        &self,
        path: &str,
        token: Option<&str>,
        body: &Value,
        client_ip: &str,
    ) -> Result<Answer, Transport> {
        self.call_with_key(path, token, body, client_ip, None).await
    }

    /// [`Api::call`] with an `Idempotency-Key`, as the app sends on money calls: the
    /// same key on a retry after a lost answer (a killed api) gets the first effect.
    pub async fn call_with_key(
        &self,
        path: &str,
        token: Option<&str>,
        body: &Value,
        client_ip: &str,
        key: Option<&str>,
    ) -> Result<Answer, Transport> {
        let mut request = self
            .http
            .post(self.url(path))
            .header("content-type", "application/json")
            .header("x-forwarded-for", client_ip)
            .body(body.to_string());
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        if let Some(key) = key {
            request = request.header("idempotency-key", key);
        }
        let request = self.with_position(request, token);
        self.envelope(request, token).await
    }

    /// `POST /jackey/user/identity/apply` with three ID photos.
    pub async fn upload_identity(&self, token: &str, photo: &[u8]) -> Result<Answer, Transport> {
        let boundary = "----loadgen-boundary-5f1c";
        let mut body = Vec::new();
        for name in ["frontImage", "backImage", "handHoldImage"] {
            body.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{name}.png\"\r\nContent-Type: image/png\r\n\r\n").as_bytes());
            body.extend_from_slice(photo);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        let request = self
            .http
            .post(self.url("/jackey/user/identity/apply"))
            .header(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            )
            .header("authorization", format!("Bearer {token}"))
            .body(body);
        let request = self.with_position(request, Some(token));
        self.envelope(request, Some(token)).await
    }

    /// Presses Pay on the sandbox payment page at `url`, as a browser would
    /// (`outcome=paid`). The page answers 303 back to itself once the payment is
    /// recorded; anything else is reported as an error code of its HTTP status.
    pub async fn pay(&self, url: &str) -> Result<Answer, Transport> {
        let started = Instant::now();
        let response = self
            .http
            .post(self.url(url))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("outcome=paid")
            .send()
            .await
            .map_err(|e| Transport(e.to_string()))?;
        let status = response.status().as_u16();
        let text = response
            .text()
            .await
            .map_err(|e| Transport(e.to_string()))?;
        Ok(Answer {
            code: if status == 303 { 0 } else { i64::from(status) },
            msg: if status == 303 { String::new() } else { text },
            raw_data: null(),
            latency: started.elapsed(),
        })
    }

    /// Sends a `register` code to `mobile` (from `client_ip`) and reads it back from
    /// the demo SMS inbox (`GET /sandbox/sms/{mobile}`, APP_ENV=demo): registration
    /// needs it (PRODUCT.md 12.2). `None` when either step fails.
    pub async fn register_code(&self, mobile: &str, client_ip: &str) -> Option<String> {
        let send = serde_json::json!({ "mobile": mobile });
        let sent = self
            .call("/jackey/sms/register", None, &send, client_ip)
            .await
            .ok()?;
        if sent.code != 0 {
            return None;
        }
        let page = self.text(&format!("/sandbox/sms/{mobile}")).await.ok()?;
        // The newest message comes first; its code is its first run of exactly 6 digits.
        let (_, newest) = page.split_once("data-testid=\"sms\">")?;
        newest
            .split(|c: char| !c.is_ascii_digit())
            .find(|run| run.len() == 6)
            .map(str::to_string)
    }

    /// `GET path`: the body as text, with `METRICS_TOKEN` (when set in this
    /// process's environment) as the bearer token, which `/metrics` needs.
    pub async fn text(&self, path: &str) -> Result<String, Transport> {
        let mut request = self.http.get(self.url(path));
        if let Ok(token) = std::env::var("METRICS_TOKEN") {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.map_err(|e| Transport(e.to_string()))?;
        response.text().await.map_err(|e| Transport(e.to_string()))
    }

    /// `GET path` without a session, for a plain-text answer such as `/healthz`: a
    /// 2xx reads as code 0, any other status as its number.
    pub async fn probe(&self, path: &str) -> Result<Answer, Transport> {
        let started = Instant::now();
        let response = self
            .http
            .get(self.url(path))
            .send()
            .await
            .map_err(|e| Transport(e.to_string()))?;
        let status = response.status();
        response
            .bytes()
            .await
            .map_err(|e| Transport(e.to_string()))?;
        Ok(Answer {
            code: if status.is_success() {
                0
            } else {
                i64::from(status.as_u16())
            },
            msg: status.to_string(),
            raw_data: null(),
            latency: started.elapsed(),
        })
    }

    async fn envelope(
        &self,
        request: reqwest::RequestBuilder,
        token: Option<&str>,
    ) -> Result<Answer, Transport> {
        let started = Instant::now();
        let response = request.send().await.map_err(|e| Transport(e.to_string()))?;
        let written = response
            .headers()
            .get("x-log-position")
            .and_then(|value| value.to_str().ok())
            .and_then(parse_position);

        let bytes = response
            .bytes()
            .await
            .map_err(|e| Transport(e.to_string()))?;
        let latency = started.elapsed();
        let (answer, issued) = read_envelope(&bytes, token, latency)?;
        if let (Some(token), Some(written)) = (issued, written) {
            let mut positions = self.positions.lock().unwrap();
            let known = positions.entry(token).or_insert(written);
            *known = (*known).max(written);
        }
        Ok(answer)
    }
}

/// An envelope's body as an [`Answer`], with the session its write counts for: the
/// token a register or login answer issues (`data.token`), else the caller's `token`.
/// A body that is not an envelope is a [`Transport`] error quoting it.
fn read_envelope(
    body: &[u8],
    token: Option<&str>,
    latency: Duration,
) -> Result<(Answer, Option<String>), Transport> {
    let envelope: Envelope = serde_json::from_slice(body).map_err(|e| {
        Transport(format!(
            "not an envelope ({e}): {}",
            String::from_utf8_lossy(body)
        ))
    })?;
    let raw_data = envelope.data.unwrap_or_else(null);
    // Only an answer whose text names a token is parsed for it.
    let issued = raw_data
        .get()
        .contains("\"token\"")
        .then(|| serde_json::from_str::<Issued>(raw_data.get()).ok())
        .flatten()
        .and_then(|issued| issued.token)
        .or_else(|| token.map(str::to_string));
    let answer = Answer {
        code: envelope.code,
        msg: envelope.msg,
        raw_data,
        latency,
    };
    Ok((answer, issued))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn read(body: &str, token: Option<&str>) -> Result<(Answer, Option<String>), Transport> {
        read_envelope(body.as_bytes(), token, Duration::ZERO)
    }

    #[test]
    fn a_login_answer_counts_for_the_token_it_issues() {
        let (answer, issued) = read(
            r#"{"code":0,"msg":"ok","data":{"token":"new","userId":"u1"}}"#,
            None,
        )
        .unwrap();
        assert!(answer.ok());
        assert_eq!(issued.as_deref(), Some("new"));
        assert_eq!(answer.data(), json!({"token": "new", "userId": "u1"}));
    }

    #[test]
    fn a_query_answer_counts_for_the_callers_token_and_keeps_its_data_as_sent() {
        let body = r#"{"code":0,"msg":"ok","data":{"mobile":"09171234567","tokens":["x"]}}"#;
        let (answer, issued) = read(body, Some("mine")).unwrap();
        assert_eq!(issued.as_deref(), Some("mine"));
        assert_eq!(
            answer.raw_data.get(),
            r#"{"mobile":"09171234567","tokens":["x"]}"#
        );
        assert_eq!(answer.data()["mobile"], "09171234567");
    }

    #[test]
    fn a_refusal_without_data_reads_as_null() {
        let (answer, issued) = read(r#"{"code":10008,"msg":"no profile"}"#, None).unwrap();
        assert_eq!((answer.code, answer.msg.as_str()), (10008, "no profile"));
        assert_eq!(answer.data(), Value::Null);
        assert_eq!(issued, None);
    }

    #[test]
    fn an_object_without_a_code_is_a_refusal() {
        let (answer, _) = read(r#"{"error":"gateway"}"#, None).unwrap();
        assert_eq!((answer.code, answer.ok()), (-1, false));
    }

    #[test]
    fn a_body_that_is_not_an_envelope_is_a_transport_error_quoting_it() {
        let error = read("<html>502</html>", Some("mine")).unwrap_err();
        assert!(error.0.contains("<html>502</html>"), "{error}");
    }
}
