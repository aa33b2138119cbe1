//! The Order aggregate (id = order id): one loan from application to closing.
//!
//! Status numbers are those of PRODUCT.md 4.3. Guarantees:
//! - nothing is created until the borrower has signed (P7), and the disclosure the
//!   borrower saw is stored with the order (P5); products are checked against the
//!   compliance profile at apply;
//! - first and final review are done by two different auditors, and the first passes
//!   only once the identity is verified (four-eyes, 4.3); a refusal carries its reason (P8);
//! - one drawdown up to the approved balance, to the borrower's own account (P2, P3);
//!   a failed payout returns the amount and keeps status 9, never a lock or a fee (P3);
//! - principal = amount paid out; interest and the schedule start on the payout day (P10);
//! - repayments go to the oldest unpaid installment first and can never exceed what
//!   is owed today; nothing is owed before the payout (P1); the payoff charges only
//!   the days elapsed, and within the cooling-off window only the principal (P12);
//! - the only charges are interest, the processing fee and capped overdue fees, all
//!   computed from the terms; no command creates any other charge (P11);
//! - cancelling before the payout is free (P6);
//! - each due-date reminder (installment, kind) is recorded at most once, only for an
//!   installment still owed and only on its day ([`ReminderKind`], PRODUCT.md 12.5).

mod aggregate;
mod application;
mod charge_off;
mod collection;
mod commands;
mod errors;
mod events;
mod extension;
mod loan;
mod overdue;
mod payment_plan;
mod payout;
mod reminder;
mod repayment;
mod review;
mod scheduling;
mod status;
mod waiver;

#[cfg(test)]
mod tests;

pub use aggregate::{Order, PaymentSession, PayoutAttempt, Refusal, Resubmission, SessionStatus};
pub use application::{quote, Quote};
pub use charge_off::{ChargeOff, FourEyesProposal};
pub use collection::{
    contact_refusal, Amendment, Collection, Contact, Promise, PromiseMaker, MAX_PROMISE_DAYS,
};
pub use commands::{
    OrderCommand, RepaymentSource, MANUAL_FOUR_EYES_ABOVE, OFFER_EXPIRY_GRACE_MINUTES,
    PAYMENT_SESSION_MINUTES,
};
pub use errors::OrderError;
pub use events::{Allocation, OrderEvent, RefusalReason, ReviewStage};
pub use extension::ExtensionQuote;
pub use loan::{FeeCharge, Installment, InstallmentStatus, Loan};
pub use payment_plan::{
    PaymentPlan, PlanInstallment, PlanRequest, MAX_FIRST_DUE_DAYS, MAX_PLAN_DAYS,
    MAX_PLAN_INSTALLMENTS,
};
pub use reminder::ReminderKind;
pub use repayment::check_repayment_amount;
pub use status::OrderStatus;
pub use waiver::{WaiverKind, WaiverProposal};
