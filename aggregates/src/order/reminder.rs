//! Due-date reminders (PRODUCT.md 12.5, issue 16): an SMS and an in-app notice
//! 3 days and 1 day before each installment's due date, and on the day it becomes
//! overdue.
//!
//! Guarantees, decided by the Order from its own state (never by the scheduler that
//! asks, nor from a read model):
//! - each (installment, kind) is reminded at most once in the order's life, however
//!   many scheduler passes, processes or restarts ask for it: the order remembers the
//!   reminders it recorded, and the event store's optimistic concurrency makes two
//!   processes asking at once record one `ReminderDue` (the loser retries and finds
//!   it done);
//! - only an installment still owed on a disbursed loan is reminded: one paid between
//!   the scheduler's look and the command is not;
//! - each kind has one day, on the loan's local calendar ([`ReminderKind::day_for`]), and a short window
//!   from that day ([`ReminderKind::window`]): a day the scheduler missed (an outage,
//!   a deploy across midnight) is made up on the next pass while the window is open,
//!   so a borrower is not left unreminded of money owed. The windows never overlap,
//!   so a late text is never one the next kind has replaced ("due on 25 Nov" is not
//!   sent on 25 Nov's overdue day), and a reminder whose day fell before the payout
//!   is not sent at all ([`ReminderKind::is_open`]). The wording states the amount
//!   and the date, never a relative day or a threat (P11, section 0).

use super::aggregate::Order;
use super::errors::OrderError;
use super::events::OrderEvent;
use chrono::{DateTime, Days, NaiveDate, Utc};
use cqrs_es::event_sink::EventSink;
use serde::{Deserialize, Serialize};

/// Which reminder of an installment.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ReminderKind {
    /// Three days before the due date (`due_in_3_days`).
    #[serde(rename = "due_in_3_days")]
    DueIn3Days,
    /// One day before the due date (`due_in_1_day`).
    #[serde(rename = "due_in_1_day")]
    DueIn1Day,
    /// The day after the due date, when the installment becomes overdue (`overdue`,
    /// PRODUCT.md 4.4: overdue after its due day).
    #[serde(rename = "overdue")]
    Overdue,
}

impl ReminderKind {
    /// Every kind, in the order they fall due.
    pub const ALL: [ReminderKind; 3] = [Self::DueIn3Days, Self::DueIn1Day, Self::Overdue];

    /// The wire and storage name: `due_in_3_days`, `due_in_1_day`, `overdue`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::DueIn3Days => "due_in_3_days",
            Self::DueIn1Day => "due_in_1_day",
            Self::Overdue => "overdue",
        }
    }

    /// The kind a stored name names.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == text)
    }

    /// The one day (the loan's local day) this reminder of an installment due on `due_date` is sent:
    /// `due_date − 3`, `due_date − 1`, or `due_date + 1` (the first overdue day).
    pub fn day_for(self, due_date: NaiveDate) -> Option<NaiveDate> {
        match self {
            Self::DueIn3Days => due_date.checked_sub_days(Days::new(3)),
            Self::DueIn1Day => due_date.checked_sub_days(Days::new(1)),
            Self::Overdue => due_date.checked_add_days(Days::new(1)),
        }
    }

    /// The first and last day (the loan's local days, inclusive) this reminder may be recorded: its day,
    /// and after it the days until the next kind's day, so a missed day is made up
    /// but never as a stale text. `due − 3 ..= due − 2`, `due − 1 ..= due`, and for the
    /// overdue reminder its day and the [`OVERDUE_CATCH_UP_DAYS`] after it.
    pub fn window(self, due_date: NaiveDate) -> Option<(NaiveDate, NaiveDate)> {
        let first = self.day_for(due_date)?;
        let last = match self {
            Self::DueIn3Days => due_date.checked_sub_days(Days::new(2))?,
            Self::DueIn1Day => due_date,
            Self::Overdue => first.checked_add_days(Days::new(OVERDUE_CATCH_UP_DAYS))?,
        };
        Some((first, last))
    }

    /// True when this reminder of an installment due on `due_date`, of a loan paid out
    /// on `paid_on`, may be recorded on `today`: `today` is inside its
    /// [`window`](Self::window), and its day did not fall before the payout (a loan paid
    /// out two days before an installment is due gets its 1-day reminder, not a late
    /// "3 days before" one).
    pub fn is_open(self, due_date: NaiveDate, paid_on: NaiveDate, today: NaiveDate) -> bool {
        self.window(due_date)
            .is_some_and(|(first, last)| first >= paid_on && first <= today && today <= last)
    }
}

/// How many days after its day a missed overdue reminder is still sent (the other
/// kinds' windows end where the next kind's day begins). After that the borrower's
/// home screen and statement show the overdue installment; a notice weeks late would
/// add nothing.
pub const OVERDUE_CATCH_UP_DAYS: u64 = 6;

impl Order {
    /// `SendReminder`: the `kind` reminder of installment `period` at `now`, when one
    /// is due: the loan is disbursed, the installment exists and is still owed, today
    /// (the loan's local day) is inside the kind's window ([`ReminderKind::is_open`]: its day, or a
    /// missed day made up soon after), and it was not recorded before. Anything else
    /// records nothing.
    pub(super) async fn send_reminder(
        &mut self,
        period: u32,
        kind: ReminderKind,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        let Some(installment) = self.reminder_open(period, kind, self.day_of(now)) else {
            return Ok(());
        };
        let (due_date, owed) = (installment.due_date, installment.unpaid());
        let event = OrderEvent::ReminderDue {
            period,
            kind,
            due_date,
            amount: owed,
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    #[test]
    fn each_kind_has_one_day_around_the_due_date() {
        let due = day("2026-11-25");
        assert_eq!(
            ReminderKind::DueIn3Days.day_for(due),
            Some(day("2026-11-22"))
        );
        assert_eq!(
            ReminderKind::DueIn1Day.day_for(due),
            Some(day("2026-11-24"))
        );
        assert_eq!(ReminderKind::Overdue.day_for(due), Some(day("2026-11-26")));
    }

    #[test]
    fn the_windows_follow_one_another_without_overlap() {
        let due = day("2026-11-25");
        let window = |kind: ReminderKind| kind.window(due).unwrap();
        assert_eq!(
            window(ReminderKind::DueIn3Days),
            (day("2026-11-22"), day("2026-11-23"))
        );
        assert_eq!(
            window(ReminderKind::DueIn1Day),
            (day("2026-11-24"), day("2026-11-25"))
        );
        assert_eq!(
            window(ReminderKind::Overdue),
            (day("2026-11-26"), day("2026-12-02"))
        );
        // Each day from the first reminder's to the last's belongs to exactly one kind.
        let paid = day("2026-11-01");
        for offset in 0..11 {
            let today = day("2026-11-22") + Days::new(offset);
            let open = ReminderKind::ALL
                .into_iter()
                .filter(|kind| kind.is_open(due, paid, today))
                .count();
            assert_eq!(open, 1, "{today}");
        }
        for today in [day("2026-11-21"), day("2026-12-03")] {
            assert!(ReminderKind::ALL
                .into_iter()
                .all(|kind| !kind.is_open(due, paid, today)));
        }
    }

    #[test]
    fn a_reminder_whose_day_fell_before_the_payout_is_never_open() {
        // Paid out on the 23rd: the 3-day reminder's day (22nd) came before the loan.
        let (due, paid) = (day("2026-11-25"), day("2026-11-23"));
        assert!(!ReminderKind::DueIn3Days.is_open(due, paid, day("2026-11-23")));
        assert!(ReminderKind::DueIn1Day.is_open(due, paid, day("2026-11-24")));
        // Paid out on the 22nd: the 3-day reminder's day is the payout day.
        assert!(ReminderKind::DueIn3Days.is_open(due, day("2026-11-22"), day("2026-11-22")));
    }

    #[test]
    fn names_round_trip_on_the_wire_and_in_storage() {
        for kind in ReminderKind::ALL {
            assert_eq!(ReminderKind::parse(kind.as_str()), Some(kind));
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
        }
        assert_eq!(ReminderKind::parse("due_tomorrow"), None);
    }
}
