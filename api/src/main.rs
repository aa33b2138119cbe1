//! `api`: starts the HTTP server (see the library docs), or, with a subcommand, runs
//! an operator task on the same store:
//!
//! - `api` (no subcommand): serve.
//! - `api create-auditor --username NAME [--roles admin,...] --password-stdin`: create
//!   a staff account (the first of a deployment, an `admin` by default; the rest are
//!   made in the console, issue 55); the password is read from standard input
//!   (PRODUCT.md 6). Where a second factor is required (`STAFF_SECOND_FACTOR`), one is
//!   enrolled and its `otpauth://` URI printed once.
//! - `api disable-auditor --username NAME --reason TEXT`: the account can no longer log
//!   in and every token it holds stops working at once (an officer who leaves);
//!   `api enable-auditor --username NAME` lets it log in again.
//! - `api openapi`: print the OpenAPI document (the web app's types are generated from
//!   it: `scripts/contract`).

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

use api::accounts::auditors::{create_staff_account, set_disabled};
use api::accounts::roles::Role;
use api::config::{database_url, Env};
use api::Application;
use clap::{Parser, Subcommand};
use projections::store::Database;

#[derive(Parser)]
#[command(name = "api", version, about = "The cash-loan platform's HTTP server")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Create an auditor (loan officer) account in the store named by DATABASE_URL.
    CreateAuditor {
        /// Login name (3–64 of a-z 0-9 . _ - @; stored lower-case).
        #[arg(long)]
        username: String,
        /// Roles, comma-separated: reviewer, collector, finance, compliance, admin.
        #[arg(long, default_value = "admin")]
        roles: String,
        /// Read the password (at least 8 characters) from the first line of stdin.
        #[arg(long, required = true)]
        password_stdin: bool,
    },
    /// Disable an auditor account: no more logins, and its tokens stop working at once.
    DisableAuditor {
        /// Login name (any case).
        #[arg(long)]
        username: String,
        /// Why (kept beside the time; 1–500 characters).
        #[arg(long)]
        reason: String,
    },
    /// Let a disabled auditor account log in again (its old tokens stay revoked).
    EnableAuditor {
        /// Login name (any case).
        #[arg(long)]
        username: String,
    },
    /// Print the OpenAPI document (pretty JSON) on standard output.
    Openapi,
}

/// mimalloc instead of glibc malloc: see the workspace `Cargo.toml`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    let _telemetry = api::runtime::telemetry::init();
    match Cli::parse().command {
        None => serve().await,
        Some(Command::CreateAuditor {
            username, roles, ..
        }) => create_auditor_command(&username, &roles).await,
        Some(Command::DisableAuditor { username, reason }) => {
            set_disabled_command("disable-auditor", &username, Some(&reason)).await
        }
        Some(Command::EnableAuditor { username }) => {
            set_disabled_command("enable-auditor", &username, None).await
        }
        Some(Command::Openapi) => match api::http::openapi::document().to_pretty_json() {
            Ok(json) => {
                println!("{json}");
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("api openapi: {error}");
                ExitCode::FAILURE
            }
        },
    }
}

/// `api create-auditor`: exit 0 and print the new id, or exit 1 saying why not.
async fn create_auditor_command(username: &str, roles: &str) -> ExitCode {
    let Some(roles) = roles
        .split(',')
        .map(Role::parse)
        .collect::<Option<Vec<Role>>>()
        .filter(|roles| !roles.is_empty())
    else {
        eprintln!(
            "api create-auditor: --roles: give one or more of reviewer, collector, finance, compliance, admin"
        );
        return ExitCode::FAILURE;
    };
    let env = match Env::from_env() {
        Ok(env) => env,
        Err(error) => {
            eprintln!("api create-auditor: {error}");
            return ExitCode::FAILURE;
        }
    };
    let totp_secret = env
        .staff_second_factor
        .then(api::accounts::second_factor::new_secret);
    let password = match read_password() {
        Ok(password) => password,
        Err(error) => {
            eprintln!("api create-auditor: cannot read the password from stdin: {error}");
            return ExitCode::FAILURE;
        }
    };
    let database = match Database::connect(&database_url()).await {
        Ok(database) => database,
        Err(error) => {
            eprintln!("api create-auditor: cannot open the event store: {error}");
            return ExitCode::FAILURE;
        }
    };
    let created = create_staff_account(
        &database,
        username,
        &password,
        &roles,
        totp_secret.as_deref(),
    )
    .await;
    database.close().await;
    match created {
        Ok(auditor_id) => {
            let username = username.trim().to_lowercase();
            println!("created auditor {username} ({auditor_id})");
            if let Some(secret) = &totp_secret {
                // The only time the secret is shown: the holder adds it to an app now.
                let issuer = env
                    .lending_config()
                    .map(|c| c.lender.legal_name)
                    .unwrap_or_default();
                if let Some(enrollment) =
                    api::accounts::second_factor::enrollment(secret, &issuer, &username)
                {
                    println!(
                        "second factor (add to an authenticator app now): {}",
                        enrollment.uri
                    );
                }
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("api create-auditor: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `api disable-auditor` (`reason` given) and `api enable-auditor`: exit 0 saying what
/// changed, or exit 1 saying why not.
async fn set_disabled_command(name: &str, username: &str, reason: Option<&str>) -> ExitCode {
    let database = match Database::connect(&database_url()).await {
        Ok(database) => database,
        Err(error) => {
            eprintln!("api {name}: cannot open the event store: {error}");
            return ExitCode::FAILURE;
        }
    };
    // The command line has no Clock service: an operator's action is wall time.
    let done = set_disabled(
        &database,
        username,
        reason,
        aggregates::services::Clock::now(&projections::clock::SystemClock),
    )
    .await;
    database.close().await;
    let username = api::accounts::auditors::normalize_username(username);
    match (done, reason) {
        (Ok(true), Some(_)) => println!("disabled auditor {username}; its tokens are revoked"),
        (Ok(false), Some(_)) => println!("auditor {username} was already disabled"),
        (Ok(true), None) => println!("enabled auditor {username}"),
        (Ok(false), None) => println!("auditor {username} was not disabled"),
        (Err(error), _) => {
            eprintln!("api {name}: {error}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// The first line of stdin without its line ending (a prompt on a terminal).
fn read_password() -> std::io::Result<String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprint!("Password (at least 8 characters): ");
        std::io::stderr().flush()?;
    }
    let mut line = String::new();
    stdin.lock().read_line(&mut line)?;
    Ok(line.trim_end_matches(['\n', '\r']).to_string())
}

/// Loads the configuration, starts the workers and serves until stopped.
async fn serve() -> ExitCode {
    let env = match Env::from_env() {
        Ok(env) => env,
        Err(error) => {
            tracing::error!(%error, "cannot start");
            return ExitCode::FAILURE;
        }
    };
    let application = match Application::build(env).await {
        Ok(application) => application,
        Err(error) => {
            tracing::error!(%error, "cannot start");
            return ExitCode::FAILURE;
        }
    };
    match application.local_addr() {
        Ok(addr) => {
            tracing::info!(%addr, "listening");
            // The run command promises to print the URL.
            eprintln!("\n  Cash loan platform running at http://{addr}/\n");
        }
        Err(error) => tracing::warn!(%error, "no local address"),
    }
    if let Err(error) = application.run_until_stopped().await {
        tracing::error!(%error, "server stopped with an error");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
