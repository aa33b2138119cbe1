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
//! - each kind has one day, in UTC: [`ReminderKind::day_for`]. A day the scheduler
//!   missed entirely is not made up later, so a text never says "due in 3 days" of an
//!   installment due tomorrow. The wording states the amount and the date, never a
//!   threat (P11, section 0).

use chrono::{Days, NaiveDate};
use serde::{Deserialize, Serialize};

/// Which reminder of an installment.
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

    /// The one day (UTC) this reminder of an installment due on `due_date` is sent:
    /// `due_date − 3`, `due_date − 1`, or `due_date + 1` (the first overdue day).
    pub fn day_for(self, due_date: NaiveDate) -> Option<NaiveDate> {
        match self {
            Self::DueIn3Days => due_date.checked_sub_days(Days::new(3)),
            Self::DueIn1Day => due_date.checked_sub_days(Days::new(1)),
            Self::Overdue => due_date.checked_add_days(Days::new(1)),
        }
    }

    /// True when `today` is this reminder's day for an installment due on `due_date`.
    pub fn falls_on(self, due_date: NaiveDate, today: NaiveDate) -> bool {
        self.day_for(due_date) == Some(today)
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
        assert!(ReminderKind::Overdue.falls_on(due, day("2026-11-26")));
        assert!(!ReminderKind::Overdue.falls_on(due, day("2026-11-25")));
        assert!(!ReminderKind::Overdue.falls_on(due, day("2026-11-27")));
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
