//! The layers around every request, stacked once in `crate::app` (outermost first):
//! the request id and its span ([`request_id`]), metrics, security headers and rate
//! limits ([`ops`]), the wait for the caller's own writes ([`read_your_writes`]), the
//! one-command-per-request count ([`command_count`]), `Idempotency-Key`
//! ([`idempotency`]) and the audit trail of console calls ([`staff_trail`]).

pub mod command_count;
pub mod idempotency;
pub mod ops;
pub mod read_your_writes;
pub mod request_id;
pub mod staff_trail;
