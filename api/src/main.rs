//! `api`: starts the HTTP server (see the library docs).

use api::settings::Env;
use api::Application;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .init();
    let env = match Env::from_env() {
        Ok(env) => env,
        Err(error) => {
            tracing::error!(%error, "cannot start");
            return std::process::ExitCode::FAILURE;
        }
    };
    let application = match Application::build(env).await {
        Ok(application) => application,
        Err(error) => {
            tracing::error!(%error, "cannot start");
            return std::process::ExitCode::FAILURE;
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
        return std::process::ExitCode::FAILURE;
    }
    std::process::ExitCode::SUCCESS
}
