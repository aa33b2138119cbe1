//! The read models: each folds the log into its tables, written once against
//! [`crate::rows::RowStore`] so the live workers ([`crate::consumer::runner`]) and a
//! rebuild share one implementation. Their queries are in [`crate::reads`].

pub mod ledger;
pub mod notices;
pub mod orders;
pub mod receipts;
pub mod users;
pub mod wallets;
