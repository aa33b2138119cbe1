//! The event store's integration suite: every scenario runs on SQLite (a fresh file per
//! test) and, when `TEST_DATABASE_URL` names a PostgreSQL database, on PostgreSQL too
//! (a fresh schema per test).

// Tests may read the wall time (a signature window, a month in a reference); the
// code under test may not (clippy.toml).
#![allow(clippy::disallowed_methods)]

#[macro_use]
mod helpers;
mod aggregate_cache;
mod borrower_reads;
mod commands;
mod concurrency;
mod connection;
mod counter;
mod domain;
mod event_log;
mod group_commit;
mod journey;
mod leases;
mod read_side;
mod rebuild;
mod row_reads;
mod sealing;
mod sessions;
mod workflow;
