//! What borrowers call (PRODUCT.md 8), and the payment provider's webhook and sandbox
//! page that serve the borrower's payments: `account` (`/jackey/sms/*`,
//! `/jackey/user/*`), `credentials` (forgot and change password, sessions), `notices`
//! (the inbox of due-date reminders), `collection` (a late loan: promise to pay,
//! contact hours; issue 53), `loan` (`/jackey/loan/*`, `/jackey/user/withdraw`), `pay`
//! (`/jackey/loan/recharge`, the webhook, the sandbox page), `sms_inbox` (the demo's
//! text messages, `APP_ENV=demo` only).

pub mod account;
pub mod collection;
pub mod credentials;
pub mod loan;
pub mod notices;
pub mod pay;
mod pay_texts;
pub mod payment_plan;
pub mod sms_inbox;
