//! Running one sqlx statement on whichever store is configured. The statements of the
//! api's own tables are plain SQL with `$n` parameters that both stores accept.

/// Evaluates `$body` with `$pool` bound to the SQLite or the PostgreSQL pool.
macro_rules! with_pool {
    ($database:expr, $pool:ident => $body:expr) => {
        match $database {
            projections::store::Database::Sqlite($pool) => $body,
            projections::store::Database::Postgres($pool) => $body,
        }
    };
}

pub(crate) use with_pool;
