//! The HTTP routes, grouped by who calls them: `borrower` (the app), `admin` (the
//! auditor console), `files` (images, for their owner and auditors), `documents`
//! (PDFs), `data_export` (personal data, both audiences) and `ops` (health,
//! readiness, metrics). A handler sends at most one command or runs
//! queries (`crate::queries`); it never re-checks what an aggregate decides.

pub mod admin;
pub mod borrower;
pub mod data_export;
pub mod documents;
pub mod files;
pub mod ops;
pub mod xendit;
