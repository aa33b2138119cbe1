//! What the scheduler may ask of an order, and from when (PRODUCT.md 4.3, 4.4 and
//! 12.5): expire an offer not withdrawn in time (`ExpireOffer`), mark an installment
//! overdue and charge a day's capped fee (`AccrueOverdue`), or record a due-date
//! reminder (`SendReminder`).
//!
//! The rules themselves stay where they are decided — in the Order's `handle`. This module answers two questions from the
//! same state, so that a scheduler pass need not ask every loan every minute:
//! - [`Order::open_reminders`]: the reminders `SendReminder` would record today (the
//!   same predicate the command checks, [`Order::reminder_open`]);
//! - [`Order::next_scheduled_at`]: the first moment at which one of those commands
//!   could record anything. The orders projection keeps it beside each order
//!   (`order_detail`), and a pass visits only the orders whose moment has come.

use chrono::{DateTime, Days, NaiveDate, Utc};

use super::loan::{Installment, Loan};
use super::{Order, OrderStatus, ReminderKind};
use crate::pricing::fee_headroom;

impl Order {
    /// When the scheduler may expire this offer (`ExpireOffer`):
    /// [`super::OFFER_EXPIRY_GRACE_MINUTES`] after its end; `None` without an end.
    pub fn offer_expirable_at(&self) -> Option<DateTime<Utc>> {
        let grace = chrono::Duration::minutes(super::commands::OFFER_EXPIRY_GRACE_MINUTES);
        self.offer_expires_at.map(|end| end + grace)
    }

    /// The installment whose `kind` reminder may be recorded on `today` (the loan's local day), if
    /// any: the loan is disbursed, installment `period` exists and is still owed,
    /// today is inside the kind's window and its day did not fall before the payout
    /// ([`ReminderKind::is_open`]), and this reminder was not recorded before.
    pub fn reminder_open(
        &self,
        period: u32,
        kind: ReminderKind,
        today: NaiveDate,
    ) -> Option<&Installment> {
        if self.reminders.contains(&(period, kind)) {
            return None;
        }
        self.reminder_holds(period, kind, today)
    }

    /// The installment a `kind` reminder of installment `period` would still be true
    /// of on `today` (the loan's local day), recorded or not: the loan is disbursed, the installment
    /// still owed, and today inside the kind's window and not before the payout
    /// ([`ReminderKind::is_open`]). The SMS of a recorded reminder is sent only while
    /// this holds (`api::reminders`): a text queued late, after the borrower paid or
    /// the window closed, would tell them something no longer true (section 0).
    pub fn reminder_holds(
        &self,
        period: u32,
        kind: ReminderKind,
        today: NaiveDate,
    ) -> Option<&Installment> {
        if self.status != OrderStatus::Disbursed {
            return None;
        }
        let loan = self.loan.as_ref()?;
        let installment = loan.schedule.iter().find(|i| i.period == period)?;
        let paid_on = loan.paid_on();
        let open =
            !installment.unpaid().is_zero() && kind.is_open(installment.due_date, paid_on, today);
        open.then_some(installment)
    }

    /// Every (installment, kind) reminder [`Order::reminder_open`] on `today`, by
    /// installment then kind.
    pub fn open_reminders(&self, today: NaiveDate) -> Vec<(u32, ReminderKind)> {
        let Some(loan) = self.loan.as_ref() else {
            return Vec::new();
        };
        loan.schedule
            .iter()
            .flat_map(|i| ReminderKind::ALL.map(|kind| (i.period, kind)))
            .filter(|(period, kind)| self.reminder_open(*period, *kind, today).is_some())
            .collect()
    }

    /// The first moment (UTC) at which `ExpireOffer`, `AccrueOverdue` or
    /// `SendReminder` could record an event on this order as it stands; `None` when
    /// none ever will unless another event changes the order (it is neither an offer
    /// nor a disbursed loan, everything is repaid, or only reminders whose windows
    /// have closed are left).
    ///
    /// - An approved offer: when it may be expired, [`super::OFFER_EXPIRY_GRACE_MINUTES`]
    ///   after its end (at once if it has no end).
    /// - A disbursed loan: the start (00:00 in the loan's zone) of
    ///   [`Order::next_scheduled_day`].
    ///
    /// Guarantee (tested against the commands): if one of them would record an event
    /// at `t`, this is `Some` moment ≤ `t`. It may lie in the past (an overdue
    /// installment charged through yesterday is due again today) and can be early (a
    /// payout in flight); it is never late.
    pub fn next_scheduled_at(&self) -> Option<DateTime<Utc>> {
        match self.status {
            OrderStatus::Approved => {
                Some(self.offer_expirable_at().unwrap_or(DateTime::UNIX_EPOCH))
            }
            OrderStatus::Disbursed => {
                let day = self.next_scheduled_day()?;
                let terms = &self.loan.as_ref()?.terms;
                Some(terms.day_start(day))
            }
            _ => None,
        }
    }

    /// The first day (the loan's local day) on which `AccrueOverdue` or `SendReminder` could record an
    /// event on this disbursed loan as it stands; `None` when neither ever will unless
    /// another event changes it. Never after a day on which either command would
    /// record something (tested day by day, an outage included); it may be earlier.
    ///
    /// A reminder window that closed before the latest day a recorded reminder could
    /// have been recorded on is left out: days only move forward, so it can never open
    /// again, and a reminder the scheduler missed does not keep the loan due forever.
    pub fn next_scheduled_day(&self) -> Option<NaiveDate> {
        if self.status != OrderStatus::Disbursed {
            return None;
        }
        let loan = self.loan.as_ref()?;
        let paid_on = loan.paid_on();
        let due_date = |period: u32| {
            let installment = loan.schedule.iter().find(|i| i.period == period)?;
            Some(installment.due_date)
        };
        // Every recorded reminder was recorded on or after its day, so today is at
        // least the latest of those days.
        let horizon = self
            .reminders
            .iter()
            .filter_map(|(period, kind)| kind.day_for(due_date(*period)?))
            .max();
        let owed = || loan.schedule.iter().filter(|i| !i.unpaid().is_zero());
        let reminders = owed()
            .flat_map(|i| ReminderKind::ALL.map(|kind| (i, kind)))
            .filter(|(i, kind)| !self.reminders.contains(&(i.period, *kind)))
            .filter_map(|(i, kind)| kind.window(i.due_date))
            .filter(|(first, last)| *first >= paid_on && horizon.is_none_or(|day| *last >= day))
            .map(|(first, _)| first);
        let accruals = owed().filter_map(|i| accrual_day(loan, i));
        // A bucket move or a promise's date passing (issue 53), also `AccrueOverdue`'s.
        let collection = self.next_collection_day();
        reminders.chain(accruals).chain(collection).min()
    }
}

/// The first day `AccrueOverdue` could record something for installment `i` (still
/// owed): the day after its due date, when it is marked overdue; after that the day
/// after the last day a fee was charged through, while the loan has an overdue rate,
/// a day's fee on what is left does not round to nothing, and the cost cap leaves
/// room (4.4). The same conditions as `accrue_overdue`.
fn accrual_day(loan: &Loan, i: &Installment) -> Option<NaiveDate> {
    if !i.overdue {
        return i.due_date.checked_add_days(Days::new(1));
    }
    let headroom = fee_headroom(
        loan.principal(),
        loan.disclosure.interest,
        loan.fees_charged(),
        loan.terms.pricing.max_total_cost_pct,
    );
    let rate = loan.terms.pricing.overdue_daily_rate;
    if rate == 0 || headroom.is_zero() || i.daily_overdue_fee(rate).is_zero() {
        return None;
    }
    i.fees_through
        .unwrap_or(i.due_date)
        .checked_add_days(Days::new(1))
}
