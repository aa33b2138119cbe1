//! Running one sqlx statement on whichever store is configured. The statements of the
//! api's own tables are plain SQL with `$n` parameters that both stores accept; the
//! queries of the read models are in `projections::reads`.

/// Evaluates `$body` with `$pool` bound to the SQLite or the PostgreSQL pool
/// (`projections::with_pool`).
pub(crate) use projections::with_pool;
