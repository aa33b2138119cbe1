//! The read side and the event store plumbing shared by the api, the projection
//! workers and the replay tool (DESIGN.md "Stores", "Read models").
//!
//! - [`store`]: the event store on SQLite and PostgreSQL, commands, the global log.
//! - [`projection`] and [`read_models`] (users, orders with their notices and
//!   receipts, wallets, the ledger): the read models, each written once against
//!   [`rows::RowStore`] so the live workers and `rebuild` share one implementation;
//!   [`rows`] holds the read side's SQL (rows, checkpoints, shadow tables).
//! - [`reads`] and [`views`]: the typed queries of the read models and the documents
//!   they answer.
//! - [`consumer`]: the one loop every log consumer runs on, the checkpointed workers,
//!   the log feed, the leases of which process runs each consumer, and their lag.
//! - [`clock`]: the wall clock, the only reader of the system time.
//! - [`rebuild`], [`verify`], [`history`]: rebuild from the log, compare with the live
//!   tables, an aggregate's history.
//! - [`process`]: the process managers that move money between aggregates.
//! - [`workload`]: the generator of realistic logs for benchmarks and replay tests.

pub mod book;
pub mod clock;
pub mod consumer;
pub mod history;
pub mod process;
pub mod projection;
pub mod read_models;
pub mod reads;
pub mod rebuild;
pub mod rows;
pub mod store;
pub mod verify;
pub mod views;
pub mod workload;

pub use projection::{Projection, ProjectionError};
