//! The HTTP routes, one module per area of PRODUCT.md section 8.

pub mod admin;
pub mod files;
pub mod loan;
pub mod pay;
pub mod user;
