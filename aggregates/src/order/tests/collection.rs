//! Given-when-then tests of a late loan's collection (issue 53): days past due and
//! buckets, the fair-collection guard (P15), promises to pay.

use super::*;
use crate::collections::{ContactBreach, ContactChannel, ContactOutcome, ContactPerson};
use crate::order::WaiverKind;
use chrono::{NaiveDate, TimeZone};

/// Installment 1 of [`disbursed`] is due on 2026-11-23 (day 1).
fn day(n: u64) -> NaiveDate {
    at(n).date_naive()
}

/// Manila local time `hh:mm` on the UTC day `n` days after the test day (Manila is
/// UTC+8, so the same date for hours from 08:00).
fn manila(n: u64, hour: u32, minute: u32) -> DateTime<Utc> {
    let local = day(n).and_hms_opt(hour, minute, 0).unwrap();
    chrono_tz::Asia::Manila
        .from_local_datetime(&local)
        .unwrap()
        .with_timezone(&Utc)
}

fn overdue_marks(days: u64) -> Vec<OrderEvent> {
    let mut given = disbursed();
    given.extend(run(
        test_at(at(days)),
        disbursed(),
        OrderCommand::AccrueOverdue,
    ));
    given
}

fn contact(person: ContactPerson) -> OrderCommand {
    OrderCommand::LogContact(Contact {
        officer_id: auditor_1(),
        channel: ContactChannel::Call,
        person,
        outcome: ContactOutcome::Reached,
        note: "will pay on Friday".to_string(),
        next_action_on: None,
        template: None,
    })
}

fn promise(amount: Decimal, date: NaiveDate) -> OrderCommand {
    OrderCommand::PromiseToPay {
        amount,
        date,
        by: PromiseMaker::Borrower,
    }
}

#[test]
fn the_first_late_day_moves_the_loan_from_current_to_1_30() {
    let events = run(test_at(at(2)), disbursed(), OrderCommand::AccrueOverdue);
    assert_eq!(
        events.last(),
        Some(&OrderEvent::DelinquencyChanged {
            bucket: "1-30".to_string(),
            days_past_due: 1,
            leaves_at: Some(31),
            on: day(2),
            day_start: day_start(day(2)),
        })
    );
    // The next day nothing moves: still 1-30.
    let mut given = disbursed();
    given.extend(events);
    let again = run(test_at(at(3)), given, OrderCommand::AccrueOverdue);
    assert!(!again
        .iter()
        .any(|e| matches!(e, OrderEvent::DelinquencyChanged { .. })));
}

#[test]
fn the_bucket_moves_the_day_days_past_due_cross_a_bound_and_the_scheduler_is_asked_then() {
    let given = overdue_marks(2);
    // Installment 1 was due on day 1: 31 days past due on day 32.
    assert_eq!(fold(given.clone()).next_collection_day(), Some(day(32)));
    let events = run(test_at(at(32)), given, OrderCommand::AccrueOverdue);
    assert!(events.contains(&OrderEvent::DelinquencyChanged {
        bucket: "31-60".to_string(),
        days_past_due: 31,
        leaves_at: Some(61),
        on: day(32),
        day_start: day_start(day(32)),
    }));
}

#[test]
fn a_payment_that_clears_what_is_overdue_returns_the_loan_to_current() {
    let given = overdue_marks(2);
    // Installment 1: 13,493.3, overdue since day 2.
    let events = run(test_at(at(2)), given, repay("r1", dec!(13493.3)));
    assert_eq!(
        events.last(),
        Some(&OrderEvent::DelinquencyChanged {
            bucket: "current".to_string(),
            days_past_due: 0,
            leaves_at: Some(1),
            on: day(2),
            day_start: day_start(day(2)),
        })
    );
}

#[test]
fn the_loans_days_are_the_profiles_local_days_issue_53() {
    // Paid out at 23:30 UTC on 22 November: 07:30 on 23 November in Manila, the
    // loan's payout day; installment 1 falls due on 24 November (Manila).
    let paid_at = Utc.with_ymd_and_hms(2026, 11, 22, 23, 30, 0).unwrap();
    let mut given = approved(dec!(80000), 6);
    given.push(payout_requested(dec!(80000)));
    let events = run(
        test_at(paid_at),
        given.clone(),
        OrderCommand::RecordPayoutSucceeded {
            payout_id: payout_id(),
        },
    );
    given.extend(events);
    let order = fold(given);
    let loan = order.loan.clone().unwrap();
    assert_eq!(
        loan.paid_on(),
        NaiveDate::from_ymd_opt(2026, 11, 23).unwrap()
    );
    assert_eq!(
        loan.schedule[0].due_date,
        NaiveDate::from_ymd_opt(2026, 11, 24).unwrap()
    );
    // 16:30 UTC on 25 November is 00:30 on 26 November in Manila: 2 days past due
    // there (1 by the UTC date).
    let moment = Utc.with_ymd_and_hms(2026, 11, 25, 16, 30, 0).unwrap();
    assert_eq!(order.days_past_due(order.day_of(moment)), 2);
    // The scheduler is asked at the start of the Manila day after the due day.
    assert_eq!(
        order.next_scheduled_at(),
        Some(Utc.with_ymd_and_hms(2026, 11, 22, 16, 0, 0).unwrap()),
        "the 1-day reminder of installment 1 opens on the payout day, 00:00 Manila"
    );
}

#[test]
fn days_past_due_are_the_age_of_the_oldest_installment_not_paid_in_full() {
    let order = fold(disbursed());
    assert_eq!(order.days_past_due(day(1)), 0); // due today
    assert_eq!(order.days_past_due(day(2)), 1);
    assert_eq!(order.days_past_due(day(11)), 10);
    // Nothing is past due before the payout or on a closed loan.
    assert_eq!(fold(approved(dec!(80000), 6)).days_past_due(day(11)), 0);
}

#[test]
fn a_contact_at_22_30_manila_is_refused_at_10_days_past_due_and_recorded_p15() {
    let now = manila(11, 22, 30); // 10 days past due
    let events = run(
        test_at(now),
        overdue_marks(2),
        contact(ContactPerson::Borrower),
    );
    let breach = ContactBreach::Hours {
        window: "06:00–22:00".to_string(),
    };
    assert_eq!(
        events,
        vec![OrderEvent::ContactRefused {
            officer_id: auditor_1(),
            channel: ContactChannel::Call,
            person: ContactPerson::Borrower,
            breach: breach.clone(),
            days_past_due: 10,
            at: now,
        }]
    );
    assert_eq!(contact_refusal(&breach).code().code(), 50001);
}

#[test]
fn a_contact_at_22_30_manila_is_allowed_above_15_days_past_due_p15() {
    let now = manila(17, 22, 30); // 16 days past due
    let events = run(
        test_at(now),
        overdue_marks(2),
        contact(ContactPerson::Borrower),
    );
    assert!(matches!(
        events.as_slice(),
        [OrderEvent::ContactLogged {
            days_past_due: 16,
            ..
        }]
    ));
}

#[test]
fn a_contact_at_22_30_is_allowed_when_the_borrower_chose_other_hours_p15() {
    let mut given = overdue_marks(2);
    given.extend(run(
        test_at(at(3)),
        given.clone(),
        OrderCommand::ChooseContactHours { any_hours: true },
    ));
    let events = run(
        test_at(manila(11, 22, 30)),
        given,
        contact(ContactPerson::Borrower),
    );
    assert!(matches!(
        events.as_slice(),
        [OrderEvent::ContactLogged { .. }]
    ));
}

#[test]
fn an_emergency_contact_is_never_contacted_about_the_debt_p15() {
    // A guarantor only when the borrower named one under a product that has them: no
    // product has one, so the borrower alone.
    assert_eq!(
        fold(overdue_marks(2)).contactable_persons(),
        vec![ContactPerson::Borrower]
    );
    let persons = [
        ContactPerson::EmergencyContact,
        ContactPerson::Other,
        ContactPerson::Guarantor,
    ];
    for person in persons {
        let events = run(
            test_at(manila(40, 12, 0)),
            overdue_marks(2),
            contact(person),
        );
        assert!(
            matches!(
                events.as_slice(),
                [OrderEvent::ContactRefused {
                    breach: ContactBreach::Person,
                    ..
                }]
            ),
            "{person:?}"
        );
    }
    assert_eq!(contact_refusal(&ContactBreach::Person).code().code(), 50002);
}

#[test]
fn under_th_a_second_contact_the_same_day_is_refused_p15() {
    let services = |now| OrderServices {
        compliance: Arc::new(ComplianceProfile::Th),
        ..order_services(Arc::new(FixedClock::at(now)))
    };
    // Wednesday 2026-12-02, 10:00 and 15:00 in Bangkok (UTC+7).
    let bangkok = |hour| {
        chrono_tz::Asia::Bangkok
            .with_ymd_and_hms(2026, 12, 2, hour, 0, 0)
            .unwrap()
            .with_timezone(&Utc)
    };
    let mut given = overdue_marks(2);
    let first = OrderTest::with(services(bangkok(10)))
        .given(given.clone())
        .when(contact(ContactPerson::Borrower))
        .inspect_result()
        .unwrap();
    assert!(matches!(
        first.as_slice(),
        [OrderEvent::ContactLogged { .. }]
    ));
    given.extend(first);
    let second = OrderTest::with(services(bangkok(15)))
        .given(given)
        .when(contact(ContactPerson::Borrower))
        .inspect_result()
        .unwrap();
    assert!(matches!(
        second.as_slice(),
        [OrderEvent::ContactRefused {
            breach: ContactBreach::Hours { .. },
            ..
        }]
    ));
}

#[test]
fn an_sms_to_a_borrower_is_one_of_the_lenders_templates_never_free_text_p15() {
    let sms = |template: Option<&str>| {
        OrderCommand::LogContact(Contact {
            channel: ContactChannel::Sms,
            template: template.map(str::to_string),
            ..match contact(ContactPerson::Borrower) {
                OrderCommand::LogContact(c) => c,
                _ => unreachable!(),
            }
        })
    };
    let noon = manila(5, 12, 0);
    for refused in [None, Some("pay now or else")] {
        let result = test_at(noon)
            .given(overdue_marks(2))
            .when(sms(refused))
            .inspect_result();
        assert!(
            matches!(&result, Err(OrderError::InvalidInput(e)) if e.to_string().contains("template")),
            "{refused:?}: {result:?}"
        );
    }
    let sent = run(
        test_at(noon),
        overdue_marks(2),
        sms(Some("payment_reminder")),
    );
    assert!(matches!(
        sent.as_slice(),
        [OrderEvent::ContactLogged { template: Some(t), .. }] if t == "payment_reminder"
    ));
    // A call carries no template.
    let call = OrderCommand::LogContact(Contact {
        template: Some("payment_reminder".to_string()),
        ..match contact(ContactPerson::Borrower) {
            OrderCommand::LogContact(c) => c,
            _ => unreachable!(),
        }
    });
    let result = test_at(noon)
        .given(overdue_marks(2))
        .when(call)
        .inspect_result();
    assert!(matches!(result, Err(OrderError::InvalidInput(_))));
}

#[test]
fn a_contact_is_logged_only_on_a_disbursed_loan_with_a_short_note() {
    test()
        .given(approved(dec!(80000), 6))
        .when(contact(ContactPerson::Borrower))
        .then_expect_error(OrderError::WrongStatus {
            status: 9,
            action: "log a collection contact on",
        });
    let long = OrderCommand::LogContact(Contact {
        note: "x".repeat(501),
        ..match contact(ContactPerson::Borrower) {
            OrderCommand::LogContact(c) => c,
            _ => unreachable!(),
        }
    });
    let result = test_at(manila(5, 12, 0))
        .given(overdue_marks(2))
        .when(long)
        .inspect_result();
    assert!(matches!(result, Err(OrderError::InvalidInput(_))));
}

#[test]
fn a_promise_to_pay_is_for_what_is_owed_by_a_day_within_30_days_50004() {
    let given = overdue_marks(2);
    let events = run(test_at(at(2)), given.clone(), promise(dec!(5000), day(5)));
    assert_eq!(
        events,
        vec![OrderEvent::PromiseMade {
            amount: dec!(5000),
            date: day(5),
            by: PromiseMaker::Borrower,
            at: at(2),
        }]
    );
    for (amount, date) in [
        (dec!(0), day(5)),
        (dec!(90000), day(5)),
        (dec!(100.001), day(5)),
        (dec!(5000), day(1)),
        (dec!(5000), day(33)),
    ] {
        let result = test_at(at(2))
            .given(given.clone())
            .when(promise(amount, date))
            .inspect_result();
        assert!(
            matches!(result, Err(OrderError::InvalidPromise { .. })),
            "{amount} {date}"
        );
    }
    // One open promise at a time.
    let mut with_promise = given;
    with_promise.extend(events);
    let second = test_at(at(2))
        .given(with_promise)
        .when(promise(dec!(100), day(6)))
        .inspect_result();
    assert_eq!(second.unwrap_err().code().code(), 50004);
}

#[test]
fn a_promise_is_kept_by_the_payments_by_its_day_and_changes_nothing_owed_p16() {
    let mut given = overdue_marks(2);
    let owed = fold(given.clone()).outstanding();
    given.extend(run(
        test_at(at(2)),
        given.clone(),
        promise(dec!(5000), day(5)),
    ));
    assert_eq!(
        fold(given.clone()).outstanding(),
        owed,
        "promising costs nothing"
    );
    let partial = run(test_at(at(3)), given.clone(), repay("r1", dec!(3000)));
    assert!(!partial
        .iter()
        .any(|e| matches!(e, OrderEvent::PromiseSettled { .. })));
    given.extend(partial);
    let rest = run(test_at(at(4)), given.clone(), repay("r2", dec!(2000)));
    assert!(rest.contains(&OrderEvent::PromiseSettled {
        kept: true,
        paid: dec!(5000),
        at: at(4),
    }));
    given.extend(rest);
    assert_eq!(fold(given).collection.promise, None);
}

#[test]
fn a_promise_whose_day_passed_unpaid_is_broken_by_the_scheduler() {
    let mut given = overdue_marks(2);
    given.extend(run(
        test_at(at(2)),
        given.clone(),
        promise(dec!(5000), day(5)),
    ));
    given.extend(run(test_at(at(3)), given.clone(), repay("r1", dec!(1000))));
    let order = fold(given.clone());
    assert!(order.next_scheduled_day().is_some_and(|d| d <= day(6)));
    // On its day it is still open; the day after, broken.
    let on_the_day = run(test_at(at(5)), given.clone(), OrderCommand::AccrueOverdue);
    assert!(!on_the_day
        .iter()
        .any(|e| matches!(e, OrderEvent::PromiseSettled { .. })));
    let after = run(test_at(at(6)), given, OrderCommand::AccrueOverdue);
    assert!(after.contains(&OrderEvent::PromiseSettled {
        kept: false,
        paid: dec!(1000),
        at: at(6),
    }));
}

#[test]
fn assigning_a_collector_twice_records_it_once() {
    let assign = || OrderCommand::AssignCollector {
        collector: Some(auditor_2()),
        by: auditor_1(),
    };
    let mut given = overdue_marks(2);
    let events = run(test_at(at(3)), given.clone(), assign());
    assert_eq!(events.len(), 1);
    given.extend(events);
    test_at(at(3))
        .given(given)
        .when(assign())
        .then_expect_events(vec![]);
}

// ---- charge-off and recovery (P16) ----------------------------------------------------

fn charge_off(officer: Uuid) -> OrderCommand {
    OrderCommand::ChargeOff {
        officer_id: officer,
        reason: "no payment in six months".to_string(),
    }
}

fn reverse(officer: Uuid) -> OrderCommand {
    OrderCommand::ReverseChargeOff {
        officer_id: officer,
        reason: "charged off by mistake".to_string(),
    }
}

/// The loan of [`disbursed`], 180 days past due (installment 1 was due on day 1).
fn late_180() -> (Vec<OrderEvent>, DateTime<Utc>) {
    let now = at(181);
    let mut given = disbursed();
    given.extend(run(test_at(now), disbursed(), OrderCommand::AccrueOverdue));
    (given, now)
}

#[test]
fn a_charge_off_needs_the_days_past_due_a_reason_and_a_second_officer() {
    let (given, now) = late_180();
    // One day too early.
    let early = test_at(at(180))
        .given(disbursed())
        .when(charge_off(auditor_1()))
        .inspect_result();
    assert_eq!(
        early,
        Err(OrderError::ChargeOffTooEarly {
            days_past_due: 179,
            threshold: 180
        })
    );
    let no_reason = OrderCommand::ChargeOff {
        officer_id: auditor_1(),
        reason: " ".to_string(),
    };
    assert!(matches!(
        test_at(now)
            .given(given.clone())
            .when(no_reason)
            .inspect_result(),
        Err(OrderError::InvalidInput(_))
    ));
    let mut history = given;
    let proposed = run(test_at(now), history.clone(), charge_off(auditor_1()));
    assert!(matches!(
        proposed.as_slice(),
        [OrderEvent::ChargeOffProposed { .. }]
    ));
    history.extend(proposed);
    // The same officer cannot confirm (50006).
    let same = test_at(now)
        .given(history.clone())
        .when(charge_off(auditor_1()))
        .inspect_result();
    assert_eq!(same.clone().unwrap_err().code().code(), 50006);
    let owed = fold(history.clone()).outstanding();
    let confirmed = run(test_at(now), history.clone(), charge_off(auditor_2()));
    assert_eq!(
        confirmed,
        vec![OrderEvent::LoanChargedOff {
            proposed_by: auditor_1(),
            confirmed_by: auditor_2(),
            reason: "no payment in six months".to_string(),
            written_off: owed,
            days_past_due: 180,
            at: now,
        }]
    );
    history.extend(confirmed);
    // Still owed in full: charge-off forgives nothing (P16).
    let order = fold(history);
    assert_eq!(order.outstanding(), owed);
    assert_eq!(order.status, OrderStatus::Disbursed);
}

#[test]
fn a_payment_on_a_charged_off_loan_is_a_recovery_and_no_fee_accrues() {
    let (mut history, now) = late_180();
    history.extend(run(test_at(now), history.clone(), charge_off(auditor_1())));
    history.extend(run(test_at(now), history.clone(), charge_off(auditor_2())));
    let events = run(test_at(now), history.clone(), repay("r1", dec!(5000)));
    assert!(
        events.contains(&OrderEvent::RecoveryReceived {
            payment_ref: "manual:r1".to_string(),
            amount: dec!(5000),
            at: now,
        }) || events.contains(&OrderEvent::RecoveryReceived {
            payment_ref: "r1".to_string(),
            amount: dec!(5000),
            at: now,
        })
    );
    history.extend(events);
    let order = fold(history.clone());
    assert_eq!(
        order.collection.charge_off.as_ref().unwrap().recovered,
        dec!(5000)
    );
    // Non-accrual: a later scheduler pass charges nothing.
    let later = run(test_at(at(200)), history, OrderCommand::AccrueOverdue);
    assert!(!later
        .iter()
        .any(|e| matches!(e, OrderEvent::OverdueFeeCharged { .. })));
}

#[test]
fn a_reversal_restores_what_is_still_owed_with_four_eyes() {
    let (mut history, now) = late_180();
    history.extend(run(test_at(now), history.clone(), charge_off(auditor_1())));
    history.extend(run(test_at(now), history.clone(), charge_off(auditor_2())));
    let written_off = fold(history.clone()).outstanding();
    history.extend(run(test_at(now), history.clone(), repay("r1", dec!(5000))));
    history.extend(run(test_at(now), history.clone(), reverse(auditor_2())));
    assert_eq!(
        test_at(now)
            .given(history.clone())
            .when(reverse(auditor_2()))
            .inspect_result()
            .unwrap_err()
            .code()
            .code(),
        50006
    );
    let reversed = run(test_at(now), history.clone(), reverse(auditor_1()));
    assert_eq!(
        reversed,
        vec![OrderEvent::ChargeOffReversed {
            proposed_by: auditor_2(),
            confirmed_by: auditor_1(),
            reason: "charged off by mistake".to_string(),
            written_off,
            recovered: dec!(5000),
            restored: written_off - dec!(5000),
            at: now,
        }]
    );
    history.extend(reversed);
    let order = fold(history);
    assert_eq!(order.collection.charge_off, None);
    assert_eq!(order.outstanding(), written_off - dec!(5000));
}

#[test]
fn the_payoff_of_a_charged_off_loan_closes_it_and_takes_the_waiver_out_of_the_write_off() {
    let (mut history, now) = late_180();
    history.extend(run(test_at(now), history.clone(), charge_off(auditor_1())));
    history.extend(run(test_at(now), history.clone(), charge_off(auditor_2())));
    // Manual entries above 20,000 need a second auditor: paid in parts of 15,000.
    let mut n = 0;
    let events = loop {
        let payoff = fold(history.clone()).payoff_at(now);
        let part = payoff.min(dec!(15000));
        let events = run(test_at(now), history.clone(), repay(&format!("p{n}"), part));
        n += 1;
        if part == payoff {
            break events;
        }
        history.extend(events);
    };
    assert!(events
        .iter()
        .any(|e| matches!(e, OrderEvent::LoanRepaid { .. })));
    assert!(events
        .iter()
        .any(|e| matches!(e, OrderEvent::ChargeOffClosed { .. })));
}

// ---- waivers (P11: a reduction only) --------------------------------------------------

fn waive(officer: Uuid, kind: WaiverKind, amount: Decimal) -> OrderCommand {
    OrderCommand::WaiveCharges {
        officer_id: officer,
        kind,
        amount,
        reason: "hardship: lost job".to_string(),
    }
}

#[test]
fn a_waiver_only_reduces_what_is_owed_and_never_more_than_is_unpaid() {
    // 0.1 %/day overdue fee: installment 1 (due day 1) charged days 2 and 3.
    let (product, mut given) = with_overdue_fee(100, dec!(100));
    given.extend(run(
        test_with(product.clone(), at(3)),
        given.clone(),
        OrderCommand::AccrueOverdue,
    ));
    let before = fold(given.clone());
    let fees = before.waivable(WaiverKind::Fees);
    assert!(fees > Decimal::ZERO);
    // More than the unpaid fees, zero, or a fraction of a cent: refused.
    for amount in [fees + dec!(0.01), dec!(0), dec!(0.001)] {
        let result = test_with(product.clone(), at(3))
            .given(given.clone())
            .when(waive(auditor_1(), WaiverKind::Fees, amount))
            .inspect_result();
        assert!(
            matches!(result, Err(OrderError::InvalidInput(_))),
            "{amount}"
        );
    }
    let events = run(
        test_with(product.clone(), at(3)),
        given.clone(),
        waive(auditor_1(), WaiverKind::Fees, fees),
    );
    assert!(matches!(
        events.as_slice(),
        [OrderEvent::ChargesWaived {
            kind: WaiverKind::Fees,
            confirmed_by: None,
            ..
        }]
    ));
    given.extend(events);
    let after = fold(given.clone());
    assert_eq!(after.outstanding(), before.outstanding() - fees);
    assert_eq!(after.waivable(WaiverKind::Fees), Decimal::ZERO);
    // Interest: at most the contract's interest (960 on 80,000 over 6 days).
    assert_eq!(after.waivable(WaiverKind::Interest), dec!(960));
    let result = test_with(product, at(3))
        .given(given)
        .when(waive(auditor_1(), WaiverKind::Interest, dec!(960.01)))
        .inspect_result();
    assert!(matches!(result, Err(OrderError::InvalidInput(_))));
}

#[test]
fn a_waiver_above_the_four_eyes_amount_needs_a_second_officer_for_the_same_amount() {
    let given = overdue_marks(2);
    let mut history = given;
    let proposed = run(
        test_at(at(3)),
        history.clone(),
        waive(auditor_1(), WaiverKind::Interest, dec!(960)),
    );
    assert!(matches!(
        proposed.as_slice(),
        [OrderEvent::WaiverProposed { .. }]
    ));
    history.extend(proposed);
    let same = test_at(at(3))
        .given(history.clone())
        .when(waive(auditor_1(), WaiverKind::Interest, dec!(960)))
        .inspect_result();
    assert_eq!(same.unwrap_err().code().code(), 50006);
    let owed = fold(history.clone()).outstanding();
    let confirmed = run(
        test_at(at(3)),
        history.clone(),
        waive(auditor_2(), WaiverKind::Interest, dec!(960)),
    );
    assert!(matches!(
        confirmed.as_slice(),
        [OrderEvent::ChargesWaived { proposed_by, confirmed_by: Some(second), amount, .. }]
            if *proposed_by == auditor_1() && *second == auditor_2() && *amount == dec!(960)
    ));
    history.extend(confirmed);
    let order = fold(history);
    assert_eq!(order.outstanding(), owed - dec!(960));
    assert_eq!(
        order.waivable(WaiverKind::Interest),
        Decimal::ZERO,
        "never more than the contract's"
    );
}

#[test]
fn nothing_is_waived_on_a_charged_off_loan() {
    let (mut history, now) = late_180();
    history.extend(run(test_at(now), history.clone(), charge_off(auditor_1())));
    history.extend(run(test_at(now), history.clone(), charge_off(auditor_2())));
    let result = test_at(now)
        .given(history)
        .when(waive(auditor_1(), WaiverKind::Interest, dec!(10)))
        .inspect_result();
    assert!(matches!(result, Err(OrderError::WrongStatus { .. })));
}

// ---- extension of the repayment period (P16: nothing up front) -----------------------

/// [`disbursed`] under terms offering 7 or 14 more days once, with a total-cost cap of
/// `cap_pct` % of principal.
fn extensible(cap_pct: Decimal) -> Vec<OrderEvent> {
    let mut given = disbursed();
    if let OrderEvent::LoanApplied { terms, .. } = &mut given[0] {
        terms.pricing.extension_days = vec![7, 14];
        terms.pricing.max_extensions = 1;
        terms.pricing.max_total_cost_pct = cap_pct;
    }
    given
}

fn extend(days: u32, accepted_total: Decimal) -> OrderCommand {
    OrderCommand::ExtendTerm {
        days,
        accepted_total,
        signature: Some(signature()),
    }
}

#[test]
fn an_extension_costs_the_interest_of_the_extra_days_and_nothing_up_front_p16() {
    let given = extensible(dec!(100));
    let order = fold(given.clone());
    let quote = order
        .extension_quote(7, &ComplianceProfile::Ph)
        .expect("offered");
    // Nothing paid yet: 80,000 of principal owed, 7 days at 0.2 %/day = 1,120.0.
    assert_eq!(quote.extra_interest, dec!(1120.0));
    assert_eq!(quote.new_total, dec!(80960.0) + dec!(1120.0));
    assert_eq!(
        quote.schedule.first().unwrap().1,
        day(8),
        "installment 1 moves from day 1 to day 8"
    );
    let events = run(test_at(at(11)), given.clone(), extend(7, quote.new_total));
    assert!(matches!(
        events.first(),
        Some(OrderEvent::TermExtended { days: 7, extra_interest, .. }) if *extra_interest == dec!(1120.0)
    ));
    assert!(!events.iter().any(|e| matches!(
        e,
        OrderEvent::RepaymentReceived { .. } | OrderEvent::PaymentSessionOpened { .. }
    )));
    let mut all = given;
    all.extend(events);
    let after = fold(all);
    assert_eq!(after.outstanding(), quote.new_total);
    // Day 11: installment 1 now due on day 8, 3 days past due (was 10).
    assert_eq!(after.days_past_due(day(11)), 3);
}

#[test]
fn an_extension_the_product_does_not_offer_or_that_breaks_a_cap_is_refused_50003() {
    let refused = |given: Vec<OrderEvent>, days: u32| {
        let result = fold(given).extension_quote(days, &ComplianceProfile::Ph);
        assert!(
            matches!(&result, Err(OrderError::ExtensionNotAvailable { .. })),
            "{result:?}"
        );
        result.unwrap_err()
    };
    // Not offered by the product, or not one of its day counts.
    refused(disbursed(), 7);
    refused(extensible(dec!(100)), 10);
    // Costs above the cap: 960 of interest plus 1,120 is above 2 % of 80,000 (1,600).
    let breach = refused(extensible(dec!(2)), 7);
    assert!(
        breach.to_string().contains("2 % of the principal"),
        "{breach}"
    );
    assert_eq!(breach.code().code(), 50003);
}

#[test]
fn an_extension_is_signed_as_quoted_and_taken_once() {
    let given = extensible(dec!(100));
    let total = fold(given.clone())
        .extension_quote(14, &ComplianceProfile::Ph)
        .unwrap()
        .new_total;
    let unsigned = OrderCommand::ExtendTerm {
        days: 14,
        accepted_total: total,
        signature: None,
    };
    assert!(matches!(
        test_at(at(11))
            .given(given.clone())
            .when(unsigned)
            .inspect_result(),
        Err(OrderError::InvalidInput(_))
    ));
    assert!(matches!(
        test_at(at(11))
            .given(given.clone())
            .when(extend(14, total - dec!(1)))
            .inspect_result(),
        Err(OrderError::InvalidInput(_))
    ));
    let mut all = given;
    all.extend(run(test_at(at(11)), all.clone(), extend(14, total)));
    let again = fold(all).extension_quote(7, &ComplianceProfile::Ph);
    assert!(matches!(
        again,
        Err(OrderError::ExtensionNotAvailable { .. })
    ));
}

#[test]
fn after_an_extension_the_moved_installments_are_reminded_again_for_their_new_day() {
    let mut given = extensible(dec!(100));
    given.push(OrderEvent::ReminderDue {
        period: 1,
        kind: ReminderKind::DueIn1Day,
        due_date: day(1),
        amount: dec!(13493.3),
        at: at(0),
    });
    let order = fold(given.clone());
    assert!(order.reminders.contains(&(1, ReminderKind::DueIn1Day)));
    let total = order
        .extension_quote(14, &ComplianceProfile::Ph)
        .unwrap()
        .new_total;
    given.extend(run(test_at(at(0)), given.clone(), extend(14, total)));
    let order = fold(given);
    // Installment 1 now falls due on day 15: reminded 3 days and 1 day before again.
    assert!(order.reminders.is_empty());
    assert!(order
        .open_reminders(day(12))
        .contains(&(1, ReminderKind::DueIn3Days)));
    assert!(order
        .open_reminders(day(14))
        .contains(&(1, ReminderKind::DueIn1Day)));
}
