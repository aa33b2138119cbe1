//! Late loans (issue 53, PRODUCT.md 13): days past due, delinquency buckets and the
//! fair-collection guard (P15). Pure functions and values; the Order decides with
//! them in `order/collection.rs`.
//!
//! Sources:
//! - days past due: the age in days of the oldest installment not paid in full, the
//!   standard definition of the field (e.g. BSP Circular 941 s. 2017, "past due");
//! - contact hours `PH`: SEC Memorandum Circular No. 18, s. 2019, section 2(e): no
//!   contact "before 6:00 A.M. or after 10:00 P.M., unless the account is past due for
//!   more than fifteen (15) days, or the borrower has given express permission"; only
//!   the borrower (and a co-maker or guarantor) may be contacted about the debt
//!   (section 2(d), NPC Circular 2022-02);
//! - contact hours `TH`: Bank of Thailand, Notification on debt collection practices
//!   (FPG 7/2558 and the Debt Collection Act B.E. 2558, section 9): 08:00–20:00 on
//!   working days, 08:00–18:00 on public holidays (weekends here), at most once a day.

use chrono::{DateTime, Datelike, NaiveDate, NaiveTime, Timelike, Utc, Weekday};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Days past due on `today` (the deployment's local date): `today − due_date` of the
/// oldest installment due before `today` and not paid in full; 0 when none is.
/// `unpaid_due_dates` are the due dates of the installments not paid in full.
///
/// Example: installments due 1, 2 and 3 November, the first paid, the second not:
/// on 10 November the loan is 8 days past due.
pub fn days_past_due(
    unpaid_due_dates: impl IntoIterator<Item = NaiveDate>,
    today: NaiveDate,
) -> u32 {
    unpaid_due_dates
        .into_iter()
        .filter(|due| *due < today)
        .min()
        .map_or(0, |oldest| {
            u32::try_from((today - oldest).num_days()).unwrap_or(0)
        })
}

/// The delinquency buckets: each bucket's highest days past due, ascending; a loan
/// above the last bound is in the open-ended last bucket. The first bound is 0
/// (current). Default `[0, 30, 60, 90, 180]`: current, 1–30, 31–60, 61–90, 91–180,
/// over 180 (issue 53).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<u32>")]
pub struct Buckets(Vec<u32>);

impl TryFrom<Vec<u32>> for Buckets {
    type Error = BucketsError;

    fn try_from(bounds: Vec<u32>) -> Result<Self, BucketsError> {
        Self::new(bounds)
    }
}

/// Why bucket bounds are not usable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("delinquency_buckets: give ascending day counts starting at 0, e.g. [0, 30, 60, 90, 180]")]
pub struct BucketsError;

impl Default for Buckets {
    fn default() -> Self {
        Self(vec![0, 30, 60, 90, 180])
    }
}

impl Buckets {
    /// Bounds as configured. Errors: not starting at 0 or not strictly ascending.
    pub fn new(bounds: Vec<u32>) -> Result<Self, BucketsError> {
        let ascending = bounds.windows(2).all(|pair| pair[0] < pair[1]);
        if bounds.first() != Some(&0) || !ascending {
            return Err(BucketsError);
        }
        Ok(Self(bounds))
    }

    /// The bucket of a loan `days_past_due` days late, named by its range:
    /// `current`, `1-30`, …, `over 180`.
    pub fn bucket(&self, days_past_due: u32) -> String {
        let mut low = 0;
        for (index, &high) in self.0.iter().enumerate() {
            if days_past_due <= high {
                return if index == 0 {
                    "current".to_string()
                } else {
                    format!("{low}-{high}")
                };
            }
            low = high + 1;
        }
        format!("over {}", self.0.last().copied().unwrap_or(0))
    }

    /// The days past due at which a loan leaves the bucket `name` for the next one;
    /// `None` for the open-ended last bucket or a name not of these buckets.
    pub fn leaves_at(&self, name: &str) -> Option<u32> {
        let index = self.names().iter().position(|n| n == name)?;
        self.0.get(index).map(|high| high + 1)
    }

    /// The days past due of the bucket `name`: lowest and highest (`None`: open-ended);
    /// `None` for a name not of these buckets.
    pub fn range(&self, name: &str) -> Option<(u32, Option<u32>)> {
        let index = self.names().iter().position(|n| n == name)?;
        let low = index
            .checked_sub(1)
            .and_then(|previous| self.0.get(previous))
            .map_or(0, |high| high + 1);
        Some((low, self.0.get(index).copied()))
    }

    /// Every bucket's name, from current to the open-ended last one.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.0.iter().map(|high| self.bucket(*high)).collect();
        names.push(self.bucket(self.0.last().copied().unwrap_or(0) + 1));
        names
    }
}

/// Who a collector spoke to or wrote to (P15).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContactPerson {
    /// The borrower.
    Borrower,
    /// A guarantor or co-maker the borrower named as such (no product has one yet).
    Guarantor,
    /// An emergency contact from the borrower's profile: never about the debt.
    EmergencyContact,
    /// Anyone else (employer, relative, neighbour): never about the debt.
    Other,
}

/// How the contact was made.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContactChannel {
    /// A telephone call.
    Call,
    /// A text message from an approved template.
    Sms,
    /// An e-mail.
    Email,
    /// A field visit.
    Visit,
}

/// What came of a contact.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContactOutcome {
    /// Reached; the borrower will pay or promised to.
    Reached,
    /// No answer.
    NoAnswer,
    /// The borrower asked for hardship help (a payment plan).
    Hardship,
    /// The borrower disputes the debt.
    Disputed,
    /// Wrong number or address.
    WrongNumber,
}

/// The contact hours of a compliance profile (P15).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactRules {
    /// Where "local time" is.
    pub time_zone: Tz,
    /// First and last allowed moment on a working day (inclusive).
    pub working_day: (NaiveTime, NaiveTime),
    /// First and last allowed moment on a holiday (inclusive): weekends and the
    /// `public_holidays`.
    pub holiday: (NaiveTime, NaiveTime),
    /// The deployment's public holidays, local dates (configuration
    /// `public_holidays`; [`ContactRules::with_holidays`]).
    pub public_holidays: BTreeSet<NaiveDate>,
    /// Above this many days past due the hours do not apply (`PH`: 15); `None`: always.
    pub hours_apply_up_to_dpd: Option<u32>,
    /// The borrower may state that other hours suit them (`PH`).
    pub borrower_may_waive_hours: bool,
    /// At most one contact a local day (`TH`).
    pub once_a_day: bool,
}

/// Why a contact may not be made (50001, 50002).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "rule")]
pub enum ContactBreach {
    /// 50001: outside the hours; `window` as the borrower's clock reads it.
    Hours {
        /// The allowed window of that day, `06:00–22:00`, or `once a day`.
        window: String,
    },
    /// 50002: this person may not be contacted about the debt.
    Person,
}

fn hhmm(start: NaiveTime, end: NaiveTime) -> String {
    format!("{}–{}", start.format("%H:%M"), end.format("%H:%M"))
}

impl ContactRules {
    /// `PH`: 06:00–22:00 every day in Asia/Manila, except above 15 days past due or
    /// when the borrower chose other hours (SEC MC 18 s. 2019).
    pub fn ph() -> Self {
        let hours = (time(6, 0), time(22, 0));
        Self {
            time_zone: chrono_tz::Asia::Manila,
            working_day: hours,
            holiday: hours,
            public_holidays: BTreeSet::new(),
            hours_apply_up_to_dpd: Some(15),
            borrower_may_waive_hours: true,
            once_a_day: false,
        }
    }

    /// `TH`: 08:00–20:00 on working days, 08:00–18:00 on weekends, in Asia/Bangkok, at
    /// most one contact a day, whatever the days past due (Bank of Thailand).
    pub fn th() -> Self {
        Self {
            time_zone: chrono_tz::Asia::Bangkok,
            working_day: (time(8, 0), time(20, 0)),
            holiday: (time(8, 0), time(18, 0)),
            public_holidays: BTreeSet::new(),
            hours_apply_up_to_dpd: None,
            borrower_may_waive_hours: false,
            once_a_day: true,
        }
    }

    /// These rules with `days` (local dates) kept as public holidays: their hours
    /// are the holiday's (`TH`: 08:00–18:00).
    pub fn with_holidays(mut self, days: impl IntoIterator<Item = NaiveDate>) -> Self {
        self.public_holidays.extend(days);
        self
    }

    /// The local date of `at`.
    pub fn local_date(&self, at: DateTime<Utc>) -> NaiveDate {
        at.with_timezone(&self.time_zone).date_naive()
    }

    /// The allowed window of the local day `day`.
    fn window(&self, day: NaiveDate) -> (NaiveTime, NaiveTime) {
        match day.weekday() {
            Weekday::Sat | Weekday::Sun => self.holiday,
            _ if self.public_holidays.contains(&day) => self.holiday,
            _ => self.working_day,
        }
    }

    /// Whether a debt collector may contact `person` at `at` about a loan
    /// `days_past_due` days late; `waived`: the borrower chose other hours; `last`:
    /// the local day of the last contact made. Errors: [`ContactBreach`].
    ///
    /// `PH` at 22:30 Manila: refused at 10 days past due, allowed at 16.
    pub fn check(
        &self,
        person: ContactPerson,
        at: DateTime<Utc>,
        days_past_due: u32,
        waived: bool,
        last: Option<NaiveDate>,
    ) -> Result<(), ContactBreach> {
        if !matches!(person, ContactPerson::Borrower | ContactPerson::Guarantor) {
            return Err(ContactBreach::Person);
        }
        let local = at.with_timezone(&self.time_zone);
        if self.once_a_day && last == Some(local.date_naive()) {
            return Err(ContactBreach::Hours {
                window: "once a day".to_string(),
            });
        }
        if self
            .hours_apply_up_to_dpd
            .is_some_and(|dpd| days_past_due > dpd)
            || (self.borrower_may_waive_hours && waived)
        {
            return Ok(());
        }
        let (start, end) = self.window(local.date_naive());
        // To the second: 22:00:00 is still inside, 22:00:01 is not.
        let now = local.time().with_nanosecond(0).unwrap_or(local.time());
        if now < start || now > end {
            return Err(ContactBreach::Hours {
                window: hhmm(start, end),
            });
        }
        Ok(())
    }

    /// The first moment at or after `at` when a system message (a reminder, a
    /// collection SMS) may go to a borrower: `at` itself inside the hours, else the
    /// next window's start. Messages never use the over-15-days exemption: the
    /// system has no reason to text at night.
    pub fn next_allowed(&self, at: DateTime<Utc>) -> DateTime<Utc> {
        let local = at.with_timezone(&self.time_zone);
        let day = local.date_naive();
        let (start, end) = self.window(day);
        let time = local.time();
        let target = if time < start {
            day.and_time(start)
        } else if time <= end {
            return at;
        } else {
            let next = day.succ_opt().unwrap_or(day);
            next.and_time(self.window(next).0)
        };
        target
            .and_local_timezone(self.time_zone)
            .earliest()
            .map_or(at, |moment| moment.with_timezone(&Utc))
    }
}

fn time(hour: u32, minute: u32) -> NaiveTime {
    NaiveTime::from_hms_opt(hour, minute, 0).unwrap_or(NaiveTime::MIN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn manila(y: i32, m: u32, d: u32, h: u32, min: u32, s: u32) -> DateTime<Utc> {
        chrono_tz::Asia::Manila
            .with_ymd_and_hms(y, m, d, h, min, s)
            .unwrap()
            .with_timezone(&Utc)
    }

    fn bangkok(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
        chrono_tz::Asia::Bangkok
            .with_ymd_and_hms(y, m, d, h, min, 0)
            .unwrap()
            .with_timezone(&Utc)
    }

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
    }

    #[test]
    fn days_past_due_is_the_age_of_the_oldest_installment_not_paid_in_full() {
        // (unpaid due dates, today, expected)
        let cases: [(&[u32], u32, u32); 5] = [
            (&[], 10, 0),
            (&[2, 3], 10, 8),
            (&[10, 11], 10, 0), // due today: not yet past due
            (&[9], 10, 1),
            (&[3, 1], 10, 9),
        ];
        for (dates, today, expected) in cases {
            let dates = dates.iter().map(|d| day(*d));
            assert_eq!(days_past_due(dates, day(today)), expected, "{today}");
        }
    }

    #[test]
    fn buckets_name_each_range_and_the_open_end() {
        let buckets = Buckets::default();
        let cases = [
            (0, "current"),
            (1, "1-30"),
            (30, "1-30"),
            (31, "31-60"),
            (65, "61-90"),
            (95, "91-180"),
            (180, "91-180"),
            (181, "over 180"),
            (200, "over 180"),
        ];
        for (dpd, name) in cases {
            assert_eq!(buckets.bucket(dpd), name, "{dpd}");
        }
        assert_eq!(
            buckets.names(),
            ["current", "1-30", "31-60", "61-90", "91-180", "over 180"]
        );
        assert_eq!(Buckets::new(vec![0, 7, 30]).unwrap().bucket(8), "8-30");
        assert_eq!(buckets.leaves_at("current"), Some(1));
        assert_eq!(buckets.leaves_at("61-90"), Some(91));
        assert_eq!(buckets.leaves_at("over 180"), None);
        assert_eq!(buckets.range("current"), Some((0, Some(0))));
        assert_eq!(buckets.range("31-60"), Some((31, Some(60))));
        assert_eq!(buckets.range("over 180"), Some((181, None)));
        assert_eq!(buckets.range("7-8"), None);
        assert_eq!(Buckets::new(vec![1, 30]), Err(BucketsError));
        assert_eq!(Buckets::new(vec![0, 30, 30]), Err(BucketsError));
    }

    #[test]
    fn ph_contact_hours_hold_at_their_edges_and_lift_above_15_days_past_due() {
        let rules = ContactRules::ph();
        let at = |h, m, s| manila(2026, 11, 24, h, m, s);
        let hours = Err(ContactBreach::Hours {
            window: "06:00–22:00".to_string(),
        });
        let borrower = ContactPerson::Borrower;
        assert_eq!(rules.check(borrower, at(5, 59, 59), 3, false, None), hours);
        assert_eq!(rules.check(borrower, at(6, 0, 0), 3, false, None), Ok(()));
        assert_eq!(rules.check(borrower, at(22, 0, 0), 3, false, None), Ok(()));
        assert_eq!(rules.check(borrower, at(22, 0, 1), 3, false, None), hours);
        // 22:30 local: refused at 10 days past due and at 15, allowed at 16.
        assert_eq!(rules.check(borrower, at(22, 30, 0), 10, false, None), hours);
        assert_eq!(rules.check(borrower, at(22, 30, 0), 15, false, None), hours);
        assert_eq!(
            rules.check(borrower, at(22, 30, 0), 16, false, None),
            Ok(())
        );
        // The borrower chose other hours.
        assert_eq!(rules.check(borrower, at(22, 30, 0), 10, true, None), Ok(()));
        // Several contacts a day are allowed under PH.
        let today = Some(rules.local_date(at(9, 0, 0)));
        assert_eq!(rules.check(borrower, at(10, 0, 0), 3, false, today), Ok(()));
    }

    #[test]
    fn only_the_borrower_or_a_guarantor_may_be_contacted_about_the_debt() {
        let rules = ContactRules::ph();
        let noon = manila(2026, 11, 24, 12, 0, 0);
        for person in [ContactPerson::EmergencyContact, ContactPerson::Other] {
            // Whatever the hour or days past due.
            assert_eq!(
                rules.check(person, noon, 200, true, None),
                Err(ContactBreach::Person)
            );
        }
        assert_eq!(
            rules.check(ContactPerson::Guarantor, noon, 3, false, None),
            Ok(())
        );
    }

    #[test]
    fn th_public_holidays_keep_the_holiday_hours() {
        // Monday 2026-12-07 is a working day; as a public holiday (Bank of Thailand
        // rule: 08:00–18:00 on holidays) 19:30 is outside the hours.
        let borrower = ContactPerson::Borrower;
        let at = bangkok(2026, 12, 7, 19, 30);
        assert_eq!(
            ContactRules::th().check(borrower, at, 3, false, None),
            Ok(())
        );
        let holiday =
            ContactRules::th().with_holidays([NaiveDate::from_ymd_opt(2026, 12, 7).unwrap()]);
        assert_eq!(
            holiday.check(borrower, at, 3, false, None),
            Err(ContactBreach::Hours {
                window: "08:00–18:00".to_string(),
            })
        );
        // A message due then waits for the next working day's 08:00.
        assert_eq!(holiday.next_allowed(at), bangkok(2026, 12, 8, 8, 0));
    }

    #[test]
    fn th_contact_hours_differ_on_weekends_and_allow_one_contact_a_day() {
        let rules = ContactRules::th();
        // 2026-11-24 is a Tuesday, 2026-11-28 a Saturday.
        let borrower = ContactPerson::Borrower;
        assert_eq!(
            rules.check(borrower, bangkok(2026, 11, 24, 19, 30), 3, false, None),
            Ok(())
        );
        let weekend = Err(ContactBreach::Hours {
            window: "08:00–18:00".to_string(),
        });
        assert_eq!(
            rules.check(borrower, bangkok(2026, 11, 28, 19, 30), 3, false, None),
            weekend
        );
        let weekday = Err(ContactBreach::Hours {
            window: "08:00–20:00".to_string(),
        });
        assert_eq!(
            rules.check(borrower, bangkok(2026, 11, 24, 7, 59), 3, false, None),
            weekday
        );
        // No exemption by days past due or by the borrower's choice under TH.
        assert_eq!(
            rules.check(borrower, bangkok(2026, 11, 24, 21, 0), 200, true, None),
            weekday
        );
        let once = Err(ContactBreach::Hours {
            window: "once a day".to_string(),
        });
        let tuesday = Some(day(24));
        assert_eq!(
            rules.check(borrower, bangkok(2026, 11, 24, 15, 0), 3, false, tuesday),
            once
        );
        assert_eq!(
            rules.check(borrower, bangkok(2026, 11, 25, 9, 0), 3, false, tuesday),
            Ok(())
        );
    }

    #[test]
    fn a_system_message_outside_the_hours_waits_for_the_next_window() {
        let rules = ContactRules::ph();
        // 23:00 Manila → 06:00 the next day; 03:00 → 06:00 the same day; 12:00 stays.
        assert_eq!(
            rules.next_allowed(manila(2026, 11, 24, 23, 0, 0)),
            manila(2026, 11, 25, 6, 0, 0)
        );
        assert_eq!(
            rules.next_allowed(manila(2026, 11, 24, 3, 0, 0)),
            manila(2026, 11, 24, 6, 0, 0)
        );
        let noon = manila(2026, 11, 24, 12, 0, 0);
        assert_eq!(rules.next_allowed(noon), noon);
        // TH: Friday 21:00 → Saturday 08:00.
        assert_eq!(
            ContactRules::th().next_allowed(bangkok(2026, 11, 27, 21, 0)),
            bangkok(2026, 11, 28, 8, 0)
        );
    }
}
