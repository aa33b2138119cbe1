//! The read side as the routes answer it: the borrower's, the documents' and the
//! data export's answers shaped from the typed read-model queries of
//! [`projections::reads`] (where their SQL lives), and the api's own records of
//! downloads and exports. Rules are decided by the aggregates, never from these.

pub mod borrower;
pub mod data_export;
pub mod documents;
pub mod inbox;
