//! Every SQL statement of the api, one module per table it owns (or a tight group of
//! tables): the rules those tables serve stay beside their callers (`crate::http::auth`,
//! `crate::accounts::claims`, `crate::accounts::sms`, ...), which call these functions with plain values
//! and get typed rows back. A statement that is part of a transaction lives with the
//! rest of the transaction, in one function.
//!
//! The statements are plain SQL with `$n` parameters that both stores accept, run on
//! whichever store is configured ([`with_pool`]); the queries of the read models are
//! in `projections::reads`. Times are stored as RFC 3339 text (`time_text`).
//!
//! | Module | Tables |
//! |---|---|
//! | [`sessions`] | `auth_token` |
//! | [`claims`] | `user_mobile`, `user_claim` |
//! | [`auditors`] | `auditor`, `staff_setup_link`, `staff_change`, `auditor_login_failure` |
//! | [`staff_actions`] | `staff_action` |
//! | [`sms_codes`] | `sms_code`, `sms_throttle` |
//! | [`sms_outbox`] | `sms_outbox` |
//! | [`idempotency`] | `idempotency` |
//! | [`payment_sessions`] | `payment_session` |
//! | [`webhooks`] | `processed_webhook` |
//! | [`downloads`] | `document_download` |
//! | [`data_exports`] | `data_export` |
//! | [`compaction`] | the store's files (after an erasure) |

pub mod auditors;
pub mod claims;
pub mod compaction;
pub mod data_exports;
pub mod downloads;
pub mod idempotency;
pub mod payment_sessions;
pub mod sessions;
pub mod sms_codes;
pub mod sms_outbox;
pub mod staff_actions;
pub mod webhooks;

/// Evaluates `$body` with `$pool` bound to the SQLite or the PostgreSQL pool
/// (`projections::with_pool`).
pub(crate) use projections::with_pool;
