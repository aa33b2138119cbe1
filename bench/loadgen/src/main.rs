//! `loadgen`: the benchmark's load generator (issue 7), run by `bench/run` against a
//! running api. Every scenario prints its figures as JSON lines on stdout.
//!
//! - `mix`: the realistic command mix (apply, review ×3, withdraw, recharge, pay) at
//!   several client counts; `--record` keeps every success-answered command (fault run).
//! - `contention`: every client repays the same loan at once.
//! - `growth`: command latency as one order's history grows.
//! - `simple`: the simplest command (`/jackey/user/updateEmergency`) at several client counts.
//! - `queries`: `/jackey/user/info`, `/jackey/loan/getUserOrderList`, `/jackey/loan/orderInfo`.
//! - `floor`: commands of 1 to 3 bare round trips against `bench/floor`'s server, the
//!   ceiling of the ratio `simple` is judged by (bench/PROFILE.md, "The stack's floor").
//! - `check`: the fault run's check of a `--record` file against PostgreSQL.

mod borrower;
mod check;
mod client;
mod cpu;
mod metrics;
mod scenarios;
mod stats;

use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use serde_json::{json, Value};
use tokio::sync::Mutex;

use crate::borrower::{Auditors, BankChanges, Borrower, Done, SmsInbox};
use crate::client::Api;

#[derive(Parser)]
#[command(about = "Load generator of the benchmark (bench/run)")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Where the api is and who reviews.
#[derive(clap::Args, Clone)]
struct Target {
    /// The api's base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    base: String,
    /// The first auditor, `username:password` (created with `api create-auditor`).
    #[arg(long)]
    auditor_a: String,
    /// The second auditor (four eyes), `username:password`.
    #[arg(long)]
    auditor_b: String,
    /// Three digits that make this run's phone numbers unique (`09` + prefix + index).
    #[arg(long, default_value_t = rand::random::<u16>() % 1000)]
    prefix: u16,
}

#[derive(Subcommand)]
enum Command {
    /// The command mix at each client count.
    Mix {
        #[command(flatten)]
        target: Target,
        /// Client counts, one phase each, e.g. `1,8,64`.
        #[arg(long, value_delimiter = ',', default_value = "1,8,64")]
        clients: Vec<usize>,
        /// Seconds per phase.
        #[arg(long, default_value_t = 20)]
        seconds: u64,
        /// Borrowers per client (a client moves to the next while one waits for a worker).
        #[arg(long, default_value_t = 3)]
        per_client: usize,
        /// Write every success-answered command to this file (JSON array).
        #[arg(long)]
        record: Option<std::path::PathBuf>,
        /// The api's PostgreSQL store: borrowers read their SMS codes from its
        /// `sms_outbox` and replace their bank account between loans (the fault run).
        #[arg(long)]
        bank_changes: Option<String>,
    },
    /// Every client repays one loan.
    Contention {
        #[command(flatten)]
        target: Target,
        /// Clients.
        #[arg(long, default_value_t = 64)]
        clients: usize,
        /// Seconds.
        #[arg(long, default_value_t = 15)]
        seconds: u64,
    },
    /// Command latency at order histories of these sizes (events).
    Growth {
        #[command(flatten)]
        target: Target,
        /// History sizes.
        #[arg(long, value_delimiter = ',', default_value = "10,100,1000")]
        levels: Vec<i64>,
        /// The PostgreSQL store the api writes (to count an order's events).
        #[arg(long)]
        database_url: String,
    },
    /// The simplest command (updateEmergency) at each client count.
    Simple {
        #[command(flatten)]
        target: Target,
        /// Client counts, one phase each, e.g. `1,8,64`.
        #[arg(long, value_delimiter = ',', default_value = "1,8,64")]
        clients: Vec<usize>,
        /// Seconds per phase.
        #[arg(long, default_value_t = 15)]
        seconds: u64,
        /// Borrowers whose sessions the commands use.
        #[arg(long, default_value_t = 256)]
        borrowers: usize,
    },
    /// `bench/floor.sh`: commands of 1 to 3 bare round trips against the `floor`
    /// server (no api, no registration).
    Floor {
        /// The floor server's base URL.
        #[arg(long, default_value = "http://127.0.0.1:18192")]
        base: String,
        /// Round trips per command, one phase each, e.g. `1,2,3`.
        #[arg(long, value_delimiter = ',', default_value = "1,2,3")]
        round_trips: Vec<u8>,
        /// Client counts, one phase each per round-trip count.
        #[arg(long, value_delimiter = ',', default_value = "8")]
        clients: Vec<usize>,
        /// Seconds per phase.
        #[arg(long, default_value_t = 15)]
        seconds: u64,
        /// Sessions the server created (`floor serve --sessions`).
        #[arg(long, default_value_t = 256)]
        sessions: usize,
    },
    /// The three borrower queries.
    Queries {
        #[command(flatten)]
        target: Target,
        /// Clients.
        #[arg(long, default_value_t = 64)]
        clients: usize,
        /// Seconds.
        #[arg(long, default_value_t = 15)]
        seconds: u64,
        /// Borrowers whose sessions the queries use (each with one order).
        #[arg(long, default_value_t = 64)]
        borrowers: usize,
    },
    /// `GET /healthz` in a closed loop: what the api's HTTP stack answers when a call
    /// does nothing (the queries' ceiling in the same run).
    Healthz {
        /// The api's base URL.
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        base: String,
        /// Clients.
        #[arg(long, default_value_t = 64)]
        clients: usize,
        /// Seconds.
        #[arg(long, default_value_t = 15)]
        seconds: u64,
    },
    /// Checks a fault run's `--record` file against the store.
    Check {
        /// The file `mix --record` wrote.
        #[arg(long)]
        record: std::path::PathBuf,
        /// The PostgreSQL store.
        #[arg(long)]
        database_url: String,
    },
}

/// mimalloc instead of glibc malloc (see the workspace `Cargo.toml`): the load
/// generator shares the machine's cores with the api and PostgreSQL, and glibc's
/// `malloc`/`free` were about a fifth of its CPU under the queries scenario
/// (bench/PROFILE.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// One thread: the clients are I/O-bound tasks, and on the two cores the api and
/// PostgreSQL share with it, a multi-threaded runtime spent its time waking tasks on
/// the other thread (the load generator's CPU per query fell by about a fifth relative
/// to the api's, bench/PROFILE.md). Its busiest scenario uses under half a core.
#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    match run(Cli::parse().command).await {
        Ok(lines) => {
            for line in lines {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("loadgen: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run(command: Command) -> Result<Vec<Value>, String> {
    match command {
        Command::Mix {
            target,
            clients,
            seconds,
            per_client,
            record,
            bank_changes,
        } => {
            let (api, auditors) = connect(&target).await?;
            let most = clients.iter().copied().max().unwrap_or(1);
            let mut borrowers =
                scenarios::register_many(&api, &auditors, target.prefix, most * per_client).await?;
            if let Some(url) = bank_changes {
                let pool = sqlx::PgPool::connect(&url)
                    .await
                    .map_err(|e| format!("--bank-changes: {e}"))?;
                for borrower in &mut borrowers {
                    borrower.bank_changes = Some(BankChanges::new(SmsInbox(pool.clone())));
                }
            }
            let mut groups = Vec::new();
            while !borrowers.is_empty() {
                let rest = borrowers.split_off(per_client.min(borrowers.len()));
                groups.push(std::mem::replace(&mut borrowers, rest));
            }
            let done: Option<Arc<Mutex<Vec<Done>>>> = record.as_ref().map(|_| Arc::default());
            let phases =
                scenarios::mix(&api, &auditors, groups, &clients, seconds, done.clone()).await;
            if let (Some(path), Some(done)) = (record, done) {
                let done = done.lock().await;
                std::fs::write(
                    &path,
                    serde_json::to_vec(&*done).map_err(|e| e.to_string())?,
                )
                .map_err(|e| format!("{}: {e}", path.display()))?;
            }
            Ok(phases)
        }
        Command::Contention {
            target,
            clients,
            seconds,
        } => {
            let (api, auditors) = connect(&target).await?;
            let mut borrower = one_borrower(&api, &auditors, &target).await?;
            scenarios::disbursed(&api, &auditors, &mut borrower, "3000000").await?;
            Ok(vec![
                scenarios::contention(&api, borrower, clients, seconds).await,
            ])
        }
        Command::Growth {
            target,
            levels,
            database_url,
        } => {
            let (api, auditors) = connect(&target).await?;
            let pool = sqlx::PgPool::connect(&database_url)
                .await
                .map_err(|e| e.to_string())?;
            let mut borrower = one_borrower(&api, &auditors, &target).await?;
            scenarios::disbursed(&api, &auditors, &mut borrower, "3000000").await?;
            let events_of = move |order_id: String| {
                let pool = pool.clone();
                Box::pin(async move {
                    sqlx::query_scalar::<_, i64>(
                        "select count(*) from events where aggregate_id = $1",
                    )
                    .bind(order_id)
                    .fetch_one(&pool)
                    .await
                    .unwrap_or(0)
                })
                    as std::pin::Pin<Box<dyn std::future::Future<Output = i64> + Send>>
            };
            Ok(scenarios::growth(&api, &auditors, borrower, &levels, events_of).await)
        }
        Command::Queries {
            target,
            clients,
            seconds,
            borrowers,
        } => {
            let (api, auditors) = connect(&target).await?;
            let mut list =
                scenarios::register_many(&api, &auditors, target.prefix, borrowers).await?;
            // One order each, so every query has something to read.
            for borrower in &mut list {
                let body = json!({"amt": borrower::APPLY_AMOUNT, "periodDays": 6, "appId": 1, "configId": 1});
                let answer = api
                    .call(
                        "/jackey/loan/apply",
                        Some(&borrower.token),
                        &body,
                        &borrower.ip,
                    )
                    .await
                    .map_err(|e| e.to_string())?;
                borrower.order_id = answer.data()["loanOrderId"].as_str().map(str::to_string);
            }
            Ok(vec![
                scenarios::queries(&api, &list, clients, seconds).await,
            ])
        }
        Command::Simple {
            target,
            clients,
            seconds,
            borrowers,
        } => {
            let (api, auditors) = connect(&target).await?;
            let list = scenarios::register_many(&api, &auditors, target.prefix, borrowers).await?;
            let mut phases = Vec::new();
            for count in clients {
                phases.push(scenarios::simple(&api, &list, count, seconds).await);
            }
            Ok(phases)
        }
        Command::Floor {
            base,
            round_trips,
            clients,
            seconds,
            sessions,
        } => {
            let api = Api::new(&base);
            let mut phases = Vec::new();
            for &trips in &round_trips {
                for &count in &clients {
                    phases.push(scenarios::floor(&api, trips, sessions, count, seconds).await);
                }
            }
            Ok(phases)
        }
        Command::Healthz {
            base,
            clients,
            seconds,
        } => Ok(vec![
            scenarios::healthz(&Api::new(&base), clients, seconds).await,
        ]),
        Command::Check {
            record,
            database_url,
        } => {
            let bytes = std::fs::read(&record).map_err(|e| format!("{}: {e}", record.display()))?;
            let done: Vec<Value> = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
            let done: Vec<Done> = done
                .into_iter()
                .map(|v| Done {
                    kind: kind_name(v["kind"].as_str().unwrap_or_default()),
                    user_id: v["user_id"].as_str().unwrap_or_default().to_string(),
                    order_id: v["order_id"].as_str().unwrap_or_default().to_string(),
                    session_id: v["session_id"].as_str().map(str::to_string),
                    account_no: v["account_no"].as_str().map(str::to_string),
                })
                .collect();
            let pool = sqlx::PgPool::connect(&database_url)
                .await
                .map_err(|e| e.to_string())?;
            let mut report = check::check(&pool, &done)
                .await
                .map_err(|e| e.to_string())?;
            report["scenario"] = json!("faultCheck");
            Ok(vec![report])
        }
    }
}

/// The static name of a recorded call kind.
fn kind_name(kind: &str) -> &'static str {
    [
        "apply",
        "startReview",
        "passFirst",
        "passFinal",
        "withdraw",
        "recharge",
        "pay",
        "changeBank",
    ]
    .into_iter()
    .find(|k| *k == kind)
    .unwrap_or("unknown")
}

async fn connect(target: &Target) -> Result<(Api, Auditors), String> {
    let api = Api::new(&target.base);
    let auditors = Auditors::login(&api, &target.auditor_a, &target.auditor_b).await?;
    Ok((api, auditors))
}

async fn one_borrower(api: &Api, auditors: &Auditors, target: &Target) -> Result<Borrower, String> {
    let mut list = scenarios::register_many(api, auditors, target.prefix, 1).await?;
    Ok(list.remove(0))
}
