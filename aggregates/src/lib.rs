//! The lending domain: the `User`, `Order` and `Wallet` aggregates on cqrs-es 0.5,
//! the pure `pricing` functions, and the `services` traits the aggregates need.
//!
//! Nothing here does I/O. Every rule of PRODUCT.md section 0 (borrower protection)
//! lives in an aggregate's `handle` and has a given-when-then test named after it.
//! `handle` has no side effects, so the api may retry a command that lost an
//! optimistic-concurrency race (DESIGN.md "Stores").

pub mod actor;
pub mod catalogue;
pub mod codes;
pub mod collections;
pub mod history;
pub mod money;
pub mod order;
pub mod personal;
pub mod pricing;
pub mod reference;
pub mod services;
pub mod types;
pub mod user;
pub mod wallet;

pub use actor::Actor;
pub use codes::ErrorCode;
