//! Running one sqlx statement on whichever store is configured. The statements of the
//! api's own tables are plain SQL with `$n` parameters that both stores accept.

/// Evaluates `$body` with `$pool` bound to the SQLite or the PostgreSQL pool
/// (`projections::with_pool`).
pub(crate) use projections::with_pool;

/// Like [`with_pool`], for a statement that only reads: a WAL reader on SQLite
/// (`projections::with_read_pool`).
pub(crate) use projections::with_read_pool;
