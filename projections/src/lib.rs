//! The read side and the event store plumbing shared by the api, the projection
//! workers and the replay tool (DESIGN.md "Stores", "Read models").
//!
//! - [`store`]: the event store on SQLite and PostgreSQL, commands, the global log.
//! - [`projection`], [`users`], [`orders`] (with [`notices`]), [`wallets`], [`ledger`]: the read models,
//!   each written once against [`rows::RowStore`] so the live workers and `rebuild`
//!   share one implementation.
//! - [`clock`]: the wall clock, the only reader of the system time.
//! - [`lag`]: how long events take to reach the read models.
//! - [`lease`]: which process runs each log consumer.
//! - `cursor`: where a live workflow stands, and when its checkpoint row is written.
//! - [`runner`]: checkpointed workers (one transaction per batch: rows + checkpoint).
//! - [`rebuild`]: rebuild from the log, compare with the live tables, hash them.
//! - [`process`]: the process managers that move money between aggregates.

pub mod clock;
pub mod consumer;
mod cursor;
pub mod feed;
pub mod history;
pub mod lag;
pub mod lease;
pub mod ledger;
pub mod notices;
pub mod orders;
pub mod process;
pub mod projection;
pub mod reads;
pub mod rebuild;
pub mod receipts;
pub mod rows;
pub mod runner;
pub mod store;
pub mod users;
pub mod verify;
pub mod views;
pub mod wallets;
pub mod workload;

pub use projection::{Projection, ProjectionError};
