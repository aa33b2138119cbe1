//! The measured runs. Each prints one JSON object per phase on stdout (the bench's
//! report reads them); progress goes to stderr.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::Mutex;

use crate::borrower::{Auditors, Borrower, Done, Step, PIN};
use crate::client::{data_of, Api};
use crate::cpu::CpuWindow;
use crate::metrics::LagWindow;
use crate::stats::Stats;

/// Registers `count` borrowers, 16 at a time, with phone numbers `09` + `prefix` (3
/// digits) + a 6-digit index.
pub async fn register_many(
    api: &Api,
    auditors: &Auditors,
    prefix: u16,
    count: usize,
) -> Result<Vec<Borrower>, String> {
    let started = Instant::now();
    let mut borrowers = Vec::with_capacity(count);
    let indices: Vec<usize> = (0..count).collect();
    for chunk in indices.chunks(16) {
        let mut tasks = Vec::new();
        for &i in chunk {
            let (api, auditors) = (api.clone(), auditors.clone());
            let mobile = format!("09{prefix:03}{i:06}");
            tasks.push(tokio::spawn(async move {
                Borrower::register(&api, &auditors, mobile).await
            }));
        }
        for task in tasks {
            borrowers.push(task.await.map_err(|e| e.to_string())??);
        }
    }
    eprintln!(
        "registered {count} borrowers in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(borrowers)
}

/// The command mix: each client drives its own borrowers round-robin through the
/// loan cycle for `seconds`, at each client count in turn (the borrowers carry on
/// from one phase to the next). `record`, when given, collects every command that got
/// a success answer (the fault run).
pub async fn mix(
    api: &Api,
    auditors: &Auditors,
    mut groups: Vec<Vec<Borrower>>,
    clients: &[usize],
    seconds: u64,
    record: Option<Arc<Mutex<Vec<Done>>>>,
) -> Vec<Value> {
    let mut phases = Vec::new();
    for &count in clients {
        let lag = LagWindow::open(api).await;
        let cpu = CpuWindow::open();
        let started = Instant::now();
        let deadline = started + Duration::from_secs(seconds);
        let mut tasks = Vec::new();
        let mut rest = groups.split_off(count.min(groups.len()));
        for mut group in std::mem::take(&mut groups) {
            let (api, auditors, record) = (api.clone(), auditors.clone(), record.clone());
            tasks.push(tokio::spawn(async move {
                let mut stats = Stats::default();
                let mut sent = 0u64;
                while Instant::now() < deadline {
                    let mut progressed = false;
                    for borrower in group.iter_mut() {
                        if Instant::now() >= deadline {
                            break;
                        }
                        let commands = borrower.step != Step::Refresh;
                        sent += u64::from(commands);
                        match borrower.advance(&api, &auditors, &mut stats).await {
                            Ok(Some(done)) => {
                                progressed = true;
                                if let Some(record) = &record {
                                    record.lock().await.push(done);
                                }
                            }
                            Ok(None) => {}
                            // The api is down (the fault run kills it): wait a little.
                            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
                        }
                    }
                    if !progressed {
                        // Every borrower waits for a worker: do not spin.
                        tokio::time::sleep(Duration::from_millis(5)).await;
                    }
                }
                (group, stats, sent)
            }));
        }
        let mut total = Stats::default();
        let mut sent = 0;
        for task in tasks {
            let (group, stats, group_sent) = task.await.expect("client task");
            total.merge(&stats);
            sent += group_sent;
            groups.push(group);
        }
        let elapsed = started.elapsed();
        let cpu = cpu.close();
        groups.append(&mut rest);
        let mut summary = total.summary(elapsed);
        summary["scenario"] = json!("mix");
        summary["clients"] = json!(count);
        summary["sent"] = json!(sent);
        summary["answered"] = json!(sent - total.transport);
        summary["cpuSeconds"] = cpu;
        summary["projectionLag"] = lag.close(api).await;
        eprintln!("mix at {count} clients: {summary}");
        phases.push(summary);
    }
    phases
}

/// A borrower with a disbursed `amount` loan (for contention and growth): applies,
/// both auditors approve, withdraws all of it and waits for the payout.
pub async fn disbursed(
    api: &Api,
    auditors: &Auditors,
    borrower: &mut Borrower,
    amount: &str,
) -> Result<(), String> {
    let t = Some(borrower.token.clone());
    let ip = borrower.ip.clone();
    let call = |path: &'static str, token: Option<String>, body: Value| {
        let (api, ip) = (api.clone(), ip.clone());
        async move { data_of(path, api.call(path, token.as_deref(), &body, &ip).await) }
    };
    // Apply and withdraw start a workflow step: with an Idempotency-Key, a repeat
    // after "still being processed" (40003; the workflows may still be catching up
    // with an earlier phase's backlog) answers the same order or payout.
    let keyed = |path: &'static str, body: Value, key: String| {
        let (api, ip, token) = (api.clone(), ip.clone(), t.clone());
        async move {
            let deadline = Instant::now() + Duration::from_secs(120);
            loop {
                let answer = api
                    .call_with_key(path, token.as_deref(), &body, &ip, Some(&key))
                    .await;
                match answer {
                    Ok(a) if a.code == 40003 && Instant::now() < deadline => {
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                    other => return data_of(path, other),
                }
            }
        }
    };
    let terms = json!({"amt": amount, "periodDays": 24, "appId": 1, "configId": 1});
    let apply_key = format!("setup-apply-{}", borrower.user_id);
    let order_id = keyed("/jackey/loan/apply", terms, apply_key).await?["loanOrderId"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let a = Some(auditors.first.clone());
    let b = Some(auditors.second.clone());
    let order = json!({ "orderId": order_id });
    let note = json!({ "orderId": order_id, "note": "ok" });
    call("/admin/api/orders/startReview", a.clone(), order).await?;
    call("/admin/api/orders/passFirst", a, note.clone()).await?;
    call("/admin/api/orders/passFinal", b, note).await?;
    let progress = || call("/jackey/loan/getLoanProgress", t.clone(), json!({}));
    wait_until(|| async {
        progress()
            .await
            .map(|p| p["status"] == 9 && p["balance"] != "0.00")
    })
    .await?;
    let withdraw = json!({"password": PIN, "withdrawAmount": amount, "bankcard": "x", "loanOrderId": order_id});
    keyed(
        "/jackey/user/withdraw",
        withdraw,
        format!("setup-withdraw-{order_id}"),
    )
    .await?;
    wait_until(|| async { progress().await.map(|p| p["status"] == 4) }).await?;
    borrower.order_id = Some(order_id);
    borrower.step = Step::Recharge;
    Ok(())
}

/// Polls `check` every 10 ms until it is true, for up to 30 s.
async fn wait_until<F, Fut>(check: F) -> Result<(), String>
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<bool, String>>,
{
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if check().await? {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    Err("a worker did not act within 30 s".into())
}

/// One repayment of `amount` through the payment page: recharge, then pay.
/// Records both calls in `stats`.
async fn repay(api: &Api, borrower: &Borrower, amount: &str, stats: &mut Stats) -> bool {
    let body = json!({ "amt": amount });
    let opened = api
        .call(
            "/jackey/loan/recharge",
            Some(&borrower.token),
            &body,
            &borrower.ip,
        )
        .await;
    let Some(answer) = stats.record("recharge", opened) else {
        return false;
    };
    let url = answer.data().as_str().unwrap_or_default().to_string();
    stats.record("pay", api.pay(&url).await).is_some()
}

/// Every client repays the same loan at once (each payment 100, the product's
/// minimum) for `seconds`: the wallet and the order are one aggregate each, so the
/// api retries its optimistic-concurrency conflicts; the figure that matters is how
/// many reached a client.
pub async fn contention(api: &Api, borrower: Borrower, clients: usize, seconds: u64) -> Value {
    let borrower = Arc::new(borrower);
    let started = Instant::now();
    let deadline = started + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let (api, borrower) = (api.clone(), borrower.clone());
        tasks.push(tokio::spawn(async move {
            let mut stats = Stats::default();
            while Instant::now() < deadline {
                repay(&api, &borrower, "100", &mut stats).await;
            }
            stats
        }));
    }
    let mut total = Stats::default();
    for task in tasks {
        total.merge(&task.await.expect("client task"));
    }
    let mut summary = total.summary(started.elapsed());
    summary["scenario"] = json!("contention");
    summary["clients"] = json!(clients);
    summary["orderId"] = json!(borrower.order_id);
    eprintln!("contention at {clients} clients: {summary}");
    summary
}

/// Command latency as one order's history grows. The command is the auditor's
/// manual repayment (`/admin/api/repayments/manual`, 100 each): it loads the order
/// (the cached fold brought up to date, ADR 0016; the whole history on a miss) and
/// appends one event; each call reads its own writes, so it first waits for the read
/// models to pass the previous call's position. At each level (events of the order in
/// the store) 20 of them one after another (so the history grows by 20 while
/// measured), once the read side has settled; between levels 8 clients record
/// repayments until the order reaches the next level.
pub async fn growth(
    api: &Api,
    auditors: &Auditors,
    borrower: Borrower,
    levels: &[i64],
    events_of: impl Fn(String) -> std::pin::Pin<Box<dyn std::future::Future<Output = i64> + Send>>,
) -> Vec<Value> {
    let order_id = borrower.order_id.clone().unwrap_or_default();
    let path = "/admin/api/repayments/manual";
    let mut phases = Vec::new();
    let mut serial = 0u64;
    for &level in levels {
        loop {
            let missing = level - events_of(order_id.clone()).await;
            if missing <= 0 {
                break;
            }
            let mut tasks = Vec::new();
            for lane in 0..8.min(missing) {
                let count = usize::try_from(missing).unwrap_or(0).div_ceil(8);
                let (api, token, ip) = (api.clone(), auditors.first.clone(), borrower.ip.clone());
                let (order_id, base) = (order_id.clone(), serial);
                tasks.push(tokio::spawn(async move {
                    for i in 0..count {
                        let reference = format!("grow-{base}-{lane}-{i}");
                        let body =
                            json!({"orderId": order_id, "amount": "100", "reference": reference});
                        let _ = api.call(path, Some(&token), &body, &ip).await;
                    }
                }));
            }
            serial += 1;
            for task in tasks {
                task.await.expect("grow task");
            }
        }
        // The filling above, and before the first level the contention phase, leave
        // the read side a backlog that each measured call (reading its own writes)
        // would wait behind.
        crate::metrics::settle(api, Duration::from_secs(120)).await;
        let history = events_of(order_id.clone()).await;
        let started = Instant::now();
        let mut stats = Stats::default();
        for i in 0..20 {
            let reference = format!("measure-{level}-{i}");
            let body = json!({"orderId": order_id, "amount": "100", "reference": reference});
            let outcome = api
                .call(path, Some(&auditors.first), &body, &borrower.ip)
                .await;
            stats.record("manualRepayment", outcome);
        }
        let mut summary = stats.summary(started.elapsed());
        summary["scenario"] = json!("growth");
        summary["orderEvents"] = json!(history);
        eprintln!("growth at {history} events: {summary}");
        phases.push(summary);
    }
    phases
}

/// The three borrower queries of issue 7, round-robin, `clients` at once, for
/// `seconds`, spread over `borrowers`' sessions.
pub async fn queries(api: &Api, borrowers: &[Borrower], clients: usize, seconds: u64) -> Value {
    closed_loop(
        api,
        &sessions_of(borrowers),
        clients,
        seconds,
        "queries",
        |i, order_id| match i % 3 {
            0 => ("/jackey/user/info", Some(json!({}))),
            1 => ("/jackey/loan/getUserOrderList", Some(json!({}))),
            _ => (
                "/jackey/loan/orderInfo",
                Some(json!({ "loanOrderId": order_id })),
            ),
        },
    )
    .await
}

/// The simplest command (issue 14): `/jackey/user/updateEmergency` (load a User,
/// append one event), `clients` at once for `seconds`, rotating over `borrowers`'
/// sessions, so no two calls in a row touch the same aggregate.
pub async fn simple(api: &Api, borrowers: &[Borrower], clients: usize, seconds: u64) -> Value {
    closed_loop(api, &sessions_of(borrowers), clients, seconds, "simple", |i, _| {
        let contact = json!({"name": format!("Ana {}", i % 1000), "relation": "Mother", "mobile": format!("0917{:07}", i % 9_999_999)});
        ("/jackey/user/updateEmergency", Some(json!({ "contacts": [contact] })))
    })
    .await
}

/// `bench/floor.sh`'s commands against the `floor` server (`bench/floor`): each
/// `POST /floor/{round_trips}` is that many statements and nothing else, sent by the
/// same closed loop as [`simple`] over `sessions` tokens (`floor-0` …, which the
/// server creates).
pub async fn floor(
    api: &Api,
    round_trips: u8,
    sessions: usize,
    clients: usize,
    seconds: u64,
) -> Value {
    let tokens: Vec<Session> = (0..sessions.max(1))
        .map(|i| {
            (
                format!("floor-{i}"),
                format!("10.8.{}.{}", i / 250, i % 250 + 1),
                String::new(),
            )
        })
        .collect();
    let round_trips = round_trips.clamp(1, 3);
    let path = ["/floor/1", "/floor/2", "/floor/3"][usize::from(round_trips) - 1];
    let request = move |i: usize, _: &str| {
        (
            path,
            Some(json!({ "contacts": [format!("Ana {}", i % 1000)] })),
        )
    };
    let mut summary = closed_loop(api, &tokens, clients, seconds, "floor", request).await;
    summary["roundTrips"] = json!(round_trips);
    summary
}

/// `GET /healthz`, `clients` at once for `seconds`, no session: the rate the api's
/// HTTP stack (axum, the middleware, the connection handling) sustains for a call
/// that does nothing, the ceiling the queries are judged against (issue 51).
pub async fn healthz(api: &Api, clients: usize, seconds: u64) -> Value {
    let nobody: Session = (String::new(), "10.9.0.1".to_string(), String::new());
    closed_loop(api, &[nobody], clients, seconds, "healthz", |_, _| {
        ("/healthz", None)
    })
    .await
}

/// A session the closed loop calls with: token, client address, order id (or empty).
type Session = (String, String, String);

/// The sessions of `borrowers`, for [`closed_loop`].
fn sessions_of(borrowers: &[Borrower]) -> Vec<Session> {
    borrowers
        .iter()
        .map(|b| {
            (
                b.token.clone(),
                b.ip.clone(),
                b.order_id.clone().unwrap_or_default(),
            )
        })
        .collect()
}

/// `clients` tasks, each sending its next call as soon as the last one answered,
/// for `seconds`: call number `i` is `request(i, order id)` on session `i` (mod
/// their number). Answers the summary, named `scenario`, with the projection lag of
/// the events the calls appended (`projectionLag`: none for queries) and the CPU
/// seconds the api, PostgreSQL and the load generator spent meanwhile (`cpuSeconds`).
async fn closed_loop(
    api: &Api,
    sessions: &[Session],
    clients: usize,
    seconds: u64,
    scenario: &str,
    request: impl Fn(usize, &str) -> (&'static str, Option<Value>) + Copy + Send + 'static,
) -> Value {
    let sessions: Arc<Vec<Session>> = Arc::new(sessions.to_vec());
    let lag = LagWindow::open(api).await;
    let cpu = CpuWindow::open();
    let started = Instant::now();
    let deadline = started + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for client in 0..clients {
        let (api, sessions) = (api.clone(), sessions.clone());
        tasks.push(tokio::spawn(async move {
            let mut stats = Stats::default();
            let mut i = client;
            while Instant::now() < deadline {
                let (token, ip, order_id) = &sessions[i % sessions.len()];
                let (path, body) = request(i, order_id);
                // No body: a plain GET without a session (`/healthz`).
                let outcome = match body {
                    Some(body) => api.call(path, Some(token), &body, ip).await,
                    None => api.probe(path).await,
                };
                stats.record(path, outcome);
                i += clients;
            }
            stats
        }));
    }
    let mut total = Stats::default();
    for task in tasks {
        total.merge(&task.await.expect("client task"));
    }
    let mut summary = total.summary(started.elapsed());
    summary["cpuSeconds"] = cpu.close();
    summary["scenario"] = json!(scenario);
    summary["clients"] = json!(clients);
    summary["projectionLag"] = lag.close(api).await;
    eprintln!("{scenario} at {clients} clients: {summary}");
    summary
}
