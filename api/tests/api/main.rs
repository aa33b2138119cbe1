//! The HTTP API end to end, on SQLite and (with `TEST_DATABASE_URL`) PostgreSQL: the
//! real router, the real workers, argon2, the sandbox payout.

// Tests may read the wall time (a signature window, a month in a reference); the
// code under test may not (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod admin;
mod affordability;
mod allocator;
mod claims;
mod collections;
mod data_export;
mod documents;
mod erasure;
mod error_codes;
mod full_journey;
mod helpers;
mod inputs;
mod journey;
mod layout;
mod money_safety;
mod openapi;
mod payment;
mod payment_plans;
mod permissions;
mod products;
mod providers;
mod read_replica;
mod recovery;
mod reference_data;
mod reminders;
mod request_ids;
mod scale_out;
mod security;
mod sms_codes;
mod storage;
mod web_app;
