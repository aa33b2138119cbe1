//! Given-when-then tests of a payment plan for hardship (issue 53, P16): asked for by
//! the borrower, proposed by one officer, approved by a second, signed by the
//! borrower; the schedule replaced by an event, nothing owed added.

use super::*;
use crate::order::{PlanRequest, MAX_PLAN_INSTALLMENTS};
use chrono::NaiveDate;

fn day(n: u64) -> NaiveDate {
    at(n).date_naive()
}

/// [`with_overdue_fee`] 0.1 %/day, overdue since day 1, fees charged through day 5.
fn late_with_fees() -> (Product, Vec<OrderEvent>) {
    let (product, mut given) = with_overdue_fee(100, dec!(100));
    given.extend(run(
        test_with(product.clone(), at(5)),
        given.clone(),
        OrderCommand::AccrueOverdue,
    ));
    (product, given)
}

fn plan(installments: u32, first_due: NaiveDate, fees_waived: Decimal) -> PlanRequest {
    PlanRequest {
        installments,
        every_days: 7,
        first_due,
        fees_waived,
        reason: "lost her job; paid in four weeks".to_string(),
    }
}

fn propose(officer: Uuid, request: PlanRequest) -> OrderCommand {
    OrderCommand::ProposePaymentPlan {
        officer_id: officer,
        request,
    }
}

fn approve(officer: Uuid) -> OrderCommand {
    OrderCommand::ApprovePaymentPlan {
        officer_id: officer,
    }
}

fn sign(accepted_total: Decimal) -> OrderCommand {
    OrderCommand::SignPaymentPlan {
        accepted_total,
        signature: Some(signature()),
    }
}

/// `given` and the events `command` records on day `n` under `product`.
fn then(
    product: &Product,
    n: u64,
    given: &mut Vec<OrderEvent>,
    command: OrderCommand,
) -> Vec<OrderEvent> {
    let events = run(test_with(product.clone(), at(n)), given.clone(), command);
    given.extend(events.clone());
    events
}

fn refused(product: &Product, n: u64, given: &[OrderEvent], command: OrderCommand) -> OrderError {
    test_with(product.clone(), at(n))
        .given(given.to_vec())
        .when(command)
        .inspect_result()
        .expect_err("refused")
}

#[test]
fn the_borrower_asks_for_a_plan_with_a_reason_once() {
    let (product, mut given) = late_with_fees();
    let ask = |reason: &str| OrderCommand::RequestPaymentPlan {
        reason: reason.to_string(),
    };
    assert!(matches!(
        refused(&product, 5, &given, ask("  ")),
        OrderError::InvalidInput(_)
    ));
    let events = then(&product, 5, &mut given, ask("hospital bills"));
    assert!(matches!(
        events.as_slice(),
        [OrderEvent::PaymentPlanRequested { reason, .. }] if reason == "hospital bills"
    ));
    assert!(fold(given.clone()).collection.plan_requested);
    // Asked again: nothing more recorded, nothing owed changed.
    assert!(then(&product, 5, &mut given, ask("hospital bills")).is_empty());
}

#[test]
fn a_plan_needs_a_second_officer_and_the_borrowers_signature_and_adds_nothing_p16() {
    let (product, mut given) = late_with_fees();
    let before = fold(given.clone());
    let fees = before.waivable(crate::order::WaiverKind::Fees);
    assert!(fees > Decimal::ZERO, "fees charged through day 5");
    // Half the fees waived, the rest of what is owed over 4 weekly installments.
    let waived = (fees / dec!(2)).round_dp(2);
    then(
        &product,
        5,
        &mut given,
        propose(auditor_1(), plan(4, day(7), waived)),
    );
    let order = fold(given.clone());
    let proposed = order.collection.plan.clone().expect("proposed");
    assert_eq!(
        proposed.total(),
        before.outstanding() - waived,
        "nothing added"
    );
    assert_eq!(proposed.installments.len(), 4);
    assert_eq!(proposed.installments[3].due_date, day(28));

    // Not yet approved: the borrower cannot sign it.
    assert!(matches!(
        refused(&product, 5, &given, sign(proposed.total())),
        OrderError::WrongStatus { .. }
    ));
    // The proposer cannot approve their own plan (four eyes, 50006).
    assert!(matches!(
        refused(&product, 5, &given, approve(auditor_1())),
        OrderError::SecondStaffRequired
    ));
    then(&product, 5, &mut given, approve(auditor_2()));
    // Without a signature, or another total than shown: refused.
    let unsigned = OrderCommand::SignPaymentPlan {
        accepted_total: proposed.total(),
        signature: None,
    };
    assert!(matches!(
        refused(&product, 6, &given, unsigned),
        OrderError::InvalidInput(_)
    ));
    assert!(matches!(
        refused(&product, 6, &given, sign(proposed.total() - dec!(1))),
        OrderError::InvalidInput(_)
    ));

    // Signed on day 6 (one more day of fees charged meanwhile: waived with the plan).
    then(&product, 6, &mut given, OrderCommand::AccrueOverdue);
    let fees_since = fold(given.clone()).loan.unwrap().fees_charged()
        - before.loan.clone().unwrap().fees_charged();
    assert!(fees_since > Decimal::ZERO);
    let events = then(&product, 6, &mut given, sign(proposed.total()));
    assert!(matches!(
        events.first(),
        Some(OrderEvent::PaymentPlanSigned { fees_waived, .. }) if *fees_waived == waived + fees_since
    ));
    assert!(
        !events.iter().any(|e| matches!(
            e,
            OrderEvent::RepaymentReceived { .. } | OrderEvent::PaymentSessionOpened { .. }
        )),
        "nothing is paid to get a plan"
    );
    // The plan cures the loan: back to current the day it is signed.
    assert!(events.iter().any(|e| matches!(
        e,
        OrderEvent::DelinquencyChanged { bucket, .. } if bucket == "current"
    )));
    let after = fold(given);
    assert_eq!(after.outstanding(), proposed.total());
    assert_eq!(after.days_past_due(day(6)), 0);
    let loan = after.loan.unwrap();
    // The six old installments are closed at what was paid on them (nothing), the
    // four of the plan follow as 7..=10.
    assert_eq!(loan.schedule.len(), 10);
    assert!(loan.schedule[..6]
        .iter()
        .all(|i| i.replaced && i.unpaid().is_zero()));
    let periods: Vec<u32> = loan.schedule[6..].iter().map(|i| i.period).collect();
    assert_eq!(periods, vec![7, 8, 9, 10]);
    assert_eq!(loan.schedule[6].due_date, day(7));
    // Fees carried over (not waived) are still fees: paid first, and in the payoff.
    assert_eq!(
        loan.fees_charged(),
        fees - waived + loan.schedule[..6].iter().map(|i| i.fee).sum::<Decimal>()
    );
}

#[test]
fn a_plan_is_within_its_bounds_and_never_waives_more_fees_than_are_unpaid() {
    let (product, given) = late_with_fees();
    let fees = fold(given.clone()).waivable(crate::order::WaiverKind::Fees);
    let too_many = plan(MAX_PLAN_INSTALLMENTS + 1, day(7), dec!(0));
    let none = plan(0, day(7), dec!(0));
    let past = plan(2, day(4), dec!(0));
    let late_start = plan(2, day(5 + 31), dec!(0));
    let more_fees = plan(2, day(7), fees + dec!(0.01));
    let negative = plan(2, day(7), dec!(-1));
    let too_long = PlanRequest {
        every_days: 31,
        ..plan(MAX_PLAN_INSTALLMENTS, day(30), dec!(0))
    };
    for request in [
        too_many, none, past, late_start, more_fees, negative, too_long,
    ] {
        let shown = format!("{request:?}");
        assert!(
            matches!(
                refused(&product, 5, &given, propose(auditor_1(), request)),
                OrderError::InvalidInput(_)
            ),
            "{shown}"
        );
    }
    let no_reason = PlanRequest {
        reason: " ".to_string(),
        ..plan(2, day(7), dec!(0))
    };
    assert!(matches!(
        refused(&product, 5, &given, propose(auditor_1(), no_reason)),
        OrderError::InvalidInput(_)
    ));
}

#[test]
fn a_payment_after_the_proposal_makes_the_plan_out_of_date() {
    let (product, mut given) = late_with_fees();
    then(
        &product,
        5,
        &mut given,
        propose(auditor_1(), plan(2, day(7), dec!(0))),
    );
    then(&product, 5, &mut given, approve(auditor_2()));
    let total = fold(given.clone()).collection.plan.unwrap().total();
    then(&product, 5, &mut given, repay("BT-1", dec!(1000)));
    assert!(matches!(
        refused(&product, 5, &given, sign(total)),
        OrderError::InvalidInput(_)
    ));
    // A new proposal replaces it and needs its own approval.
    then(
        &product,
        5,
        &mut given,
        propose(auditor_1(), plan(2, day(7), dec!(0))),
    );
    let replaced = fold(given.clone()).collection.plan.unwrap();
    assert_eq!(replaced.approved_by, None);
    assert_eq!(replaced.total(), total - dec!(1000));
}

#[test]
fn a_plan_whose_first_day_passed_unsigned_is_refused() {
    let (product, mut given) = late_with_fees();
    then(
        &product,
        5,
        &mut given,
        propose(auditor_1(), plan(2, day(5), dec!(0))),
    );
    then(&product, 5, &mut given, approve(auditor_2()));
    let total = fold(given.clone()).collection.plan.unwrap().total();
    assert!(matches!(
        refused(&product, 6, &given, sign(total)),
        OrderError::InvalidInput(_)
    ));
}

#[test]
fn payments_after_a_plan_go_to_its_installments_and_close_the_loan() {
    let (product, mut given) = late_with_fees();
    then(
        &product,
        5,
        &mut given,
        propose(auditor_1(), plan(8, day(7), dec!(0))),
    );
    then(&product, 5, &mut given, approve(auditor_2()));
    let total = fold(given.clone()).collection.plan.unwrap().total();
    then(&product, 5, &mut given, sign(total));
    // The first plan installment's part is paid first (oldest unpaid first), then the
    // rest; manual entries of at most 20,000 (above needs four eyes).
    let first = fold(given.clone()).loan.unwrap().schedule[6].due();
    then(&product, 7, &mut given, repay("BT-2", first));
    assert!(fold(given.clone()).loan.unwrap().schedule[6]
        .unpaid()
        .is_zero());
    let mut left = total - first;
    let mut n = 3;
    while left > Decimal::ZERO {
        let part = left.min(dec!(20000));
        then(&product, 7, &mut given, repay(&format!("BT-{n}"), part));
        left -= part;
        n += 1;
    }
    let order = fold(given);
    assert_eq!(order.status, OrderStatus::Repaid);
}

#[test]
fn no_plan_on_a_loan_not_disbursed_or_charged_off() {
    let given = approved(dec!(80000), 6);
    assert!(matches!(
        test()
            .given(given)
            .when(propose(auditor_1(), plan(2, day(7), dec!(0))))
            .inspect_result(),
        Err(OrderError::WrongStatus { .. })
    ));
}

#[test]
fn a_plan_waits_for_a_payment_page_that_is_payable_or_just_expired() {
    let (product, mut given) = late_with_fees();
    then(
        &product,
        5,
        &mut given,
        propose(auditor_1(), plan(2, day(7), dec!(0))),
    );
    then(&product, 5, &mut given, approve(auditor_2()));
    let total = fold(given.clone()).collection.plan.unwrap().total();
    // The borrower opened a payment page (30 minutes) on day 5.
    then(&product, 5, &mut given, open_session(1, dec!(1000)));
    assert!(matches!(
        refused(&product, 5, &given, sign(total)),
        OrderError::InvalidInput(_)
    ));
    // An hour after it expired, its payment can no longer be on its way: signed.
    let later = at(5) + chrono::Duration::minutes(91);
    let events = run(
        test_with(product.clone(), later),
        given.clone(),
        sign(total),
    );
    assert!(matches!(
        events.first(),
        Some(OrderEvent::PaymentPlanSigned { .. })
    ));
}

#[test]
fn a_payoff_after_a_plan_waives_interest_not_the_fees_it_carried() {
    // No cooling-off window, so the payoff charges every fee (P12).
    let (mut product, mut given) = late_with_fees();
    product.pricing.cooling_off_days = 0;
    if let OrderEvent::LoanApplied { terms, .. } = &mut given[0] {
        terms.pricing.cooling_off_days = 0;
    }
    // Day 3 of a 6-day loan: four weekly installments carrying the fees evenly.
    let mut given: Vec<OrderEvent> = given
        .into_iter()
        .filter(|e| {
            !matches!(
                e,
                OrderEvent::OverdueFeeCharged { .. }
                    | OrderEvent::DelinquencyChanged { .. }
                    | OrderEvent::InstallmentOverdue { .. }
            )
        })
        .collect();
    then(&product, 3, &mut given, OrderCommand::AccrueOverdue);
    then(
        &product,
        3,
        &mut given,
        propose(auditor_1(), plan(4, day(4), dec!(0))),
    );
    then(&product, 3, &mut given, approve(auditor_2()));
    let total = fold(given.clone()).collection.plan.unwrap().total();
    then(&product, 3, &mut given, sign(total));
    // Paid off the same day, at most 20,000 an entry (above needs four eyes).
    let mut n = 0;
    let repaid = loop {
        let owed = fold(given.clone()).payoff_at(at(3));
        n += 1;
        let events = then(
            &product,
            3,
            &mut given,
            repay(&format!("BT-{n}"), owed.min(dec!(20000))),
        );
        if let Some(OrderEvent::LoanRepaid {
            fees_waived,
            interest_waived,
            ..
        }) = events.last()
        {
            break (*fees_waived, *interest_waived);
        }
        assert!(n < 10, "the payoff closes the loan");
    };
    assert_eq!(repaid.0, Decimal::ZERO, "every fee was charged");
    assert!(repaid.1 > Decimal::ZERO, "the unearned interest is waived");
}
