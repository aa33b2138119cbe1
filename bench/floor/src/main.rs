//! `floor`: what a command over HTTP costs on the fixed stack (axum 0.8, sqlx 0.8 with
//! the workspace's vendored patches, PostgreSQL, the connection URL's TLS as the api
//! and pgbench get it) when it does nothing but its round trips to the database: no
//! event sourcing, no aggregate, no read model.
//! `bench/floor.sh` drives it with `loadgen floor` (the driver of `bench/run`'s simple
//! phase) beside `pgbench`'s one-row `INSERT` and the api's simplest command, so the
//! issue-14 ratio "commands ÷ pgbench TPS" has a ceiling measured in the same minute
//! (bench/PROFILE.md, "The stack's floor").
//!
//! Routes (each answers the api's envelope, `{"code":0,"msg":"ok","data":…}`):
//! - `POST /floor/1`: pgbench's statement, one durable one-row `insert … returning id`;
//! - `POST /floor/2`: a session lookup by token (a primary-key `select`), then
//!   the insert: the shape of a command with its session checked in a statement of
//!   its own;
//! - `POST /floor/3`: the session lookup, a read of the caller's rows past a sequence
//!   (an index range scan, usually empty), then the insert: the api's request path
//!   (session check, `catch_up`, append), without the read side's work.
//!
//! Usage: `floor serve --database-url postgres://… --bind 127.0.0.1:18192`. It creates
//! its own tables (`floor_session`, `floor_event`) in that database, dropping any old
//! ones.
//!
//! `floor hash [--count N]` times the withdraw PIN's check instead: argon2id with the
//! parameters the api stores PINs with (`Params::default()`, `api::runtime::services`), on one
//! core, and prints the milliseconds per hash. The command mix's target is bounded by
//! it (bench/PROFILE.md, "The stack's floor").

use std::net::SocketAddr;
use std::time::Instant;

use argon2::{Algorithm, Argon2, Block, Params, Version};

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use clap::Parser;
use serde_json::{json, Value};
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(about = "The stack's floor (bench/floor.sh)")]
enum Cli {
    /// Serve HTTP commands of 1 to 3 round trips.
    Serve {
        /// A scratch PostgreSQL database (its `floor_*` tables are recreated).
        #[arg(long)]
        database_url: String,
        /// Where to listen.
        #[arg(long, default_value = "127.0.0.1:18192")]
        bind: SocketAddr,
        /// Sessions to create (`floor-0` … `floor-{n-1}`, the tokens `loadgen floor` sends).
        #[arg(long, default_value_t = 256)]
        sessions: usize,
    },
    /// Time argon2id at the api's parameters on one core: milliseconds per hash.
    Hash {
        /// Hashes to time.
        #[arg(long, default_value_t = 30)]
        count: u32,
    },
}

#[tokio::main]
async fn main() -> Result<(), String> {
    match Cli::parse() {
        Cli::Serve {
            database_url,
            bind,
            sessions,
        } => serve(&database_url, bind, sessions).await,
        Cli::Hash { count } => {
            println!("{:.2}", hash_ms(count.max(1)));
            Ok(())
        }
    }
}

/// Mean wall-clock milliseconds of one argon2id hash at `Params::default()` (19 MiB,
/// two passes, one lane: what `api::runtime::services::Argon2Hasher` stores and checks PINs
/// with), over `count` hashes in a row on this thread, its memory allocated once as the
/// api's hash gate does.
fn hash_ms(count: u32) -> f64 {
    let params = Params::default();
    let hasher = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let mut memory = vec![Block::default(); params.block_count()];
    let mut output = [0u8; Params::DEFAULT_OUTPUT_LEN];
    let started = Instant::now();
    for _ in 0..count {
        hasher
            .hash_password_into_with_memory(
                b"123456",
                b"floor-salt-16byt",
                &mut output,
                &mut memory,
            )
            .expect("argon2 with default parameters");
    }
    started.elapsed().as_secs_f64() * 1000.0 / f64::from(count)
}

async fn serve(database_url: &str, bind: SocketAddr, sessions: usize) -> Result<(), String> {
    // The api's pool settings (`api::db`): 10 connections, no ping on take.
    let pool = PgPoolOptions::new()
        .max_connections(10)
        .test_before_acquire(false)
        .connect(database_url)
        .await
        .map_err(|e| e.to_string())?;
    for statement in [
        "drop table if exists floor_session, floor_event",
        "create table floor_session (token text primary key, user_id text not null, revoked boolean not null default false)",
        "create table floor_event (id bigserial primary key, user_id text not null, sequence bigint not null, payload text not null, at timestamptz not null default now())",
        "create index on floor_event (user_id, sequence)",
    ] {
        sqlx::query(statement)
            .execute(&pool)
            .await
            .map_err(|e| e.to_string())?;
    }
    sqlx::query(
        "insert into floor_session (token, user_id) \
         select 'floor-' || n, 'user-' || n from generate_series(0, $1 - 1) n",
    )
    .bind(i64::try_from(sessions).unwrap_or(i64::MAX))
    .execute(&pool)
    .await
    .map_err(|e| e.to_string())?;
    let app = Router::new()
        .route("/floor/{round_trips}", post(command))
        .with_state(pool);
    let listener = tokio::net::TcpListener::bind(bind)
        .await
        .map_err(|e| e.to_string())?;
    eprintln!("floor listening on http://{bind}");
    axum::serve(listener, app).await.map_err(|e| e.to_string())
}

/// One command of `round_trips` statements (1 to 3, see the module docs).
async fn command(
    State(pool): State<PgPool>,
    Path(round_trips): Path<u8>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Result<Json<Value>, (StatusCode, String)> {
    let failed = |e: sqlx::Error| (StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
    let token = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default()
        .to_string();
    let mut user_id = format!("anonymous-{token}");
    if round_trips >= 2 {
        let found: Option<(String,)> =
            sqlx::query_as("select user_id from floor_session where token = $1 and not revoked")
                .bind(&token)
                .fetch_optional(&pool)
                .await
                .map_err(failed)?;
        match found {
            Some((id,)) => user_id = id,
            None => {
                return Ok(Json(
                    json!({"code": 401, "msg": "no session", "data": null}),
                ))
            }
        }
    }
    if round_trips >= 3 {
        let _tail: Vec<(i64,)> = sqlx::query_as(
            "select id from floor_event where user_id = $1 and sequence > 1000000000 order by sequence",
        )
        .bind(&user_id)
        .fetch_all(&pool)
        .await
        .map_err(failed)?;
    }
    let (id,): (i64,) = sqlx::query_as(
        "insert into floor_event (user_id, sequence, payload) values ($1, 1, $2) returning id",
    )
    .bind(&user_id)
    .bind(body.to_string())
    .fetch_one(&pool)
    .await
    .map_err(failed)?;
    Ok(Json(json!({"code": 0, "msg": "ok", "data": {"id": id}})))
}
