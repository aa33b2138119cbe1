//! The read side as the routes query it: every SQL query of a handler lives here, one
//! module per audience. Queries read read models (or the auth and claim tables);
//! rules are decided by the aggregates, never from these.

pub mod admin;
pub mod borrower;
pub mod data_export;
pub mod documents;
