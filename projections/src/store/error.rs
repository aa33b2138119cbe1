//! Errors of the store plumbing (connecting, migrating, reading the log).
//!
//! Command execution keeps cqrs-es's own `AggregateError`, so callers can tell a
//! domain refusal from a conflict from an infrastructure failure.

use std::path::PathBuf;

/// What can go wrong while connecting to, migrating or reading the event store.
///
/// Messages never contain the database URL, which may hold a password.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The URL's scheme is none of `sqlite:`, `postgres://` or `postgresql://`.
    #[error("unsupported database URL scheme {scheme:?}: expected sqlite:, postgres:// or postgresql://")]
    UnsupportedScheme {
        /// The part of the URL before the first `:` (never the rest, which may hold a password).
        scheme: String,
    },
    /// The URL has a supported scheme but could not be parsed into connection options.
    #[error("invalid database URL: {0}")]
    InvalidUrl(#[source] sqlx::Error),
    /// The directory that should hold the SQLite file could not be created.
    #[error("cannot create the database directory {path}: {source}")]
    CreateDirectory {
        /// The directory we tried to create.
        path: PathBuf,
        /// Why the file system refused.
        #[source]
        source: std::io::Error,
    },
    /// The database refused a connection or a query, or returned a row we could not decode.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// Applying the embedded migrations failed.
    #[error("migration failed: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    /// A sealed personal value whose data key exists did not open (altered bytes).
    #[error(transparent)]
    Unsealable(#[from] super::sealing::OpenError),
    /// Rewriting the log failed to read an event back as JSON.
    #[error("event {aggregate_type}/{aggregate_id}/{sequence} is not JSON: {source}")]
    BadPayload {
        /// The event's aggregate type.
        aggregate_type: String,
        /// The event's aggregate id.
        aggregate_id: String,
        /// The event's sequence.
        sequence: i64,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
}
