//! Read-your-writes by log position (DESIGN.md "Read models", issue 14).
//!
//! A command never waits for the read models. It answers with `X-Log-Position`: the
//! place in the global log of the last event it (or the workflow step it waited for)
//! committed, `"<transaction>:<position>"`. A call carrying `X-Min-Position` waits,
//! at most [`READ_TIMEOUT`], until this process's read models have passed that
//! position, then runs; the SPA sends the highest position it has received on every
//! call, so a borrower always reads their own writes and never waits for anyone
//! else's. A malformed `X-Min-Position` answers 10004; a position that is never
//! reached (forged, or from another database) costs its sender the timeout, nothing
//! else: the wait holds no connection. With a read replica (`READ_DATABASE_URL`, ADR
//! 0013) the wait is for the replica's own copy of the checkpoints, so a query that
//! waited reads its writes there too.

use std::cell::Cell;
use std::sync::LazyLock;
use std::time::Duration;

use aggregates::ErrorCode;
use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use projections::consumer::runner::{wait_for_checkpoints, wait_for_replicated_checkpoints};
use projections::projection::all;
use projections::store::{EventLog, LogPosition};

use crate::http::envelope::ApiError;
use crate::runtime::state::AppState;

/// The response header with the position of the call's last write.
pub const LOG_POSITION: &str = "x-log-position";

/// The request header with the position the call must read at or after.
pub const MIN_POSITION: &str = "x-min-position";

/// The longest a call waits for the read models before answering from them anyway.
pub const READ_TIMEOUT: Duration = Duration::from_secs(3);

tokio::task_local! {
    static WRITTEN: Cell<Option<LogPosition>>;
}

/// Notes that the call this task handles wrote up to `position`.
pub fn record(position: LogPosition) {
    let _ = WRITTEN.try_with(|written| {
        written.set(Some(
            written.get().map_or(position, |known| known.max(position)),
        ));
    });
}

/// Notes the position of the newest event of one aggregate (a workflow step the
/// call waited for wrote it).
pub async fn record_latest(
    state: &AppState,
    aggregate_type: &str,
    aggregate_id: &str,
) -> Result<(), ApiError> {
    let position = EventLog::new(&state.database)
        .position_of(aggregate_type, aggregate_id)
        .await?;
    if let Some(position) = position {
        record(position);
    }
    Ok(())
}

/// The read models' names, made once rather than on every call that waits.
static READ_MODELS: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| all().iter().map(|p| p.name()).collect());

/// Waits (bounded) until every read model has passed `position` where the queries
/// read them: this process's workers' checkpoints on the primary, or the replicated
/// checkpoints on the read replica (`READ_DATABASE_URL`), which the queries read.
pub async fn wait_for(state: &AppState, position: LogPosition) -> Result<(), ApiError> {
    let reached = match &state.replica {
        Some(replica) => {
            wait_for_replicated_checkpoints(replica, &READ_MODELS, position, READ_TIMEOUT).await?
        }
        None => {
            wait_for_checkpoints(
                &state.database,
                &state.checkpoints,
                &READ_MODELS,
                position,
                READ_TIMEOUT,
            )
            .await?
        }
    };
    if !reached {
        tracing::warn!(%position, "read models did not reach the position in time; answering anyway");
    }
    Ok(())
}

/// The middleware: waits for `X-Min-Position`, answers `X-Log-Position`.
pub async fn layer(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let wanted = request
        .headers()
        .get(MIN_POSITION)
        .map(|value| value.to_str().unwrap_or("?").parse::<LogPosition>());
    match wanted {
        Some(Err(error)) => {
            return ApiError::new(ErrorCode::RequestError, format!("X-Min-Position: {error}"))
                .into_response()
        }
        Some(Ok(position)) => {
            if let Err(error) = wait_for(&state, position).await {
                return error.into_response();
            }
        }
        None => {}
    }
    WRITTEN
        .scope(Cell::new(None), async move {
            let mut response = next.run(request).await;
            if let Some(position) = WRITTEN.with(Cell::get) {
                if let Ok(value) = HeaderValue::from_str(&position.to_string()) {
                    response.headers_mut().insert(LOG_POSITION, value);
                }
            }
            response
        })
        .await
}
