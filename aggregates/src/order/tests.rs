//! Given-when-then tests of the Order aggregate: every transition and refusal of
//! PRODUCT.md 4.3 and every money rule of section 0, each named after its rule.

use super::*;
use crate::history::{state_as_of, states_after_each};
use crate::pricing::{disclose, ComplianceProfile, Disclosure, LoanTerms, Product};
use crate::services::doubles::{
    demo_lender, demo_product, order_services, order_services_with, test_now, FixedClock,
};
use crate::services::OrderServices;
use crate::types::{BankAccount, ImageRef, InvalidInput, ResubmissionItem};
use chrono::{DateTime, Days, NaiveDate, TimeZone, Utc};
use cqrs_es::test::TestFramework;
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use std::sync::Arc;
use uuid::Uuid;

mod collection;
mod payment_plan;

type OrderTest = TestFramework<Order>;

fn order_id() -> Uuid {
    Uuid::from_u128(0x0D1)
}
fn user_id() -> Uuid {
    Uuid::from_u128(0x0E1)
}
fn auditor_1() -> Uuid {
    Uuid::from_u128(0xA1)
}
fn auditor_2() -> Uuid {
    Uuid::from_u128(0xA2)
}
fn payout_id() -> Uuid {
    Uuid::from_u128(0xB1)
}

fn at(days: u64) -> DateTime<Utc> {
    test_now() + Days::new(days)
}

fn test() -> OrderTest {
    test_at(test_now())
}

fn test_at(now: DateTime<Utc>) -> OrderTest {
    OrderTest::with(order_services(Arc::new(FixedClock::at(now))))
}

fn test_with(product: Product, now: DateTime<Utc>) -> OrderTest {
    OrderTest::with(order_services_with(
        Arc::new(FixedClock::at(now)),
        vec![product],
    ))
}

fn signature() -> ImageRef {
    ImageRef {
        key: "signature/u1.png".to_string(),
        sha256: "cd".repeat(32),
    }
}

fn account() -> BankAccount {
    BankAccount {
        bank_name: "BDO".to_string(),
        account_no: "001234567890".to_string(),
        holder_name: "Ana Santos".to_string(),
    }
}

fn apply(amount: Decimal, period_days: u32) -> OrderCommand {
    OrderCommand::ApplyForLoan {
        order_id: order_id(),
        user_id: user_id(),
        app_id: 1,
        amount,
        period_days,
        signature: Some(signature()),
        applicant_name: "Ana Santos".to_string(),
        terms_version: "2026-11".to_string(),
        monthly_income: None,
        product_version: None,
    }
}

fn disclosure(amount: Decimal, period_days: u32) -> Disclosure {
    let terms = demo_product().terms_for(period_days).unwrap();
    disclose(amount, &terms, &demo_lender())
}

/// The demo product's terms as an application under `PH` records them: the loan's
/// days are Manila days.
fn manila_terms(period_days: u32) -> LoanTerms {
    LoanTerms {
        time_zone: Some(chrono_tz::Asia::Manila),
        ..demo_product().terms_for(period_days).unwrap()
    }
}

/// The start of `day` on the test loans' calendar (Manila), as day-keyed events
/// record it (`day_start`).
fn day_start(day: NaiveDate) -> Option<DateTime<Utc>> {
    Some(manila_terms(6).day_start(day))
}

fn applied(amount: Decimal, period_days: u32) -> OrderEvent {
    OrderEvent::LoanApplied {
        order_id: order_id(),
        user_id: user_id(),
        app_id: 1,
        product_name: "Cash Loan".to_string(),
        amount,
        terms: manila_terms(period_days),
        disclosure: disclosure(amount, period_days),
        terms_version: "2026-11".to_string(),
        signature: signature(),
        applicant_name: "Ana Santos".to_string(),
        applied_at: test_now(),
    }
}

fn review_started() -> OrderEvent {
    OrderEvent::ReviewStarted {
        auditor_id: auditor_1(),
        at: test_now(),
    }
}

fn first_passed() -> OrderEvent {
    OrderEvent::FirstAuditPassed {
        auditor_id: auditor_1(),
        note: "documents in order".to_string(),
        at: test_now(),
    }
}

fn final_passed(amount: Decimal) -> OrderEvent {
    OrderEvent::FinalAuditPassed {
        auditor_id: auditor_2(),
        note: "approved".to_string(),
        approved_amount: amount,
        offer_expires_at: at(7),
        at: test_now(),
    }
}

fn payout_requested(amount: Decimal) -> OrderEvent {
    OrderEvent::PayoutRequested {
        payout_id: payout_id(),
        amount,
        net_amount: amount,
        account: account(),
        at: test_now(),
    }
}

fn payout_succeeded(approved: Decimal, amount: Decimal, period_days: u32) -> OrderEvent {
    let disclosure = disclosure(amount, period_days);
    let schedule = Loan::schedule_for(&disclosure, test_now().date_naive());
    OrderEvent::PayoutSucceeded {
        payout_id: payout_id(),
        released_amount: approved - amount,
        disclosure,
        schedule,
        paid_at: test_now(),
    }
}

fn submitted() -> Vec<OrderEvent> {
    vec![applied(dec!(80000), 6)]
}

fn in_first_review() -> Vec<OrderEvent> {
    vec![applied(dec!(80000), 6), review_started()]
}

fn awaiting_final() -> Vec<OrderEvent> {
    vec![applied(dec!(80000), 6), review_started(), first_passed()]
}

fn approved(amount: Decimal, period_days: u32) -> Vec<OrderEvent> {
    vec![
        applied(amount, period_days),
        review_started(),
        first_passed(),
        final_passed(amount),
    ]
}

/// 80,000 for 6 days at 0.2 %/day, paid out on the test day: 960 interest, 80,960
/// total, five installments of 13,493.3 and a last of 13,493.5.
fn disbursed() -> Vec<OrderEvent> {
    let mut events = approved(dec!(80000), 6);
    events.push(payout_requested(dec!(80000)));
    events.push(payout_succeeded(dec!(80000), dec!(80000), 6));
    events
}

/// An auditor's entry of a repayment: the repayment rule applies as it is (the
/// recharge path through payment sessions has its own tests, `..._p1`).
fn repay(payment_ref: &str, amount: Decimal) -> OrderCommand {
    OrderCommand::ReceiveRepayment {
        payment_ref: payment_ref.to_string(),
        amount,
        source: manual(),
        session_id: None,
        received_at: None,
    }
}

fn manual() -> RepaymentSource {
    RepaymentSource::Manual {
        auditor_id: auditor_1(),
    }
}

fn fold(events: Vec<OrderEvent>) -> Order {
    state_as_of::<Order>(events, usize::MAX)
}

fn run(test: OrderTest, given: Vec<OrderEvent>, command: OrderCommand) -> Vec<OrderEvent> {
    test.given(given).when(command).inspect_result().unwrap()
}

// ---- apply (P5, P7) --------------------------------------------------------------------

#[test]
fn a_signed_application_creates_a_submitted_order_with_its_disclosure_p5_p7() {
    test()
        .given_no_previous_events()
        .when(apply(dec!(80000), 6))
        .then_expect_events(vec![applied(dec!(80000), 6)]);
    let order = fold(submitted());
    assert_eq!(order.status.code(), 0);
    let d = order.disclosure.unwrap();
    assert_eq!(
        (d.interest, d.total_repayable),
        (dec!(960.0), dec!(80960.0))
    );
}

/// The demo product as catalogue version `version` with its 6-day rate at `daily_rate`.
fn version_of_product(version: u32, daily_rate: u32) -> Product {
    let mut product = Product {
        version,
        ..demo_product()
    };
    product.rate_configs[0].daily_rate = daily_rate;
    product
}

#[test]
fn a_signed_loan_keeps_its_versions_terms_after_a_rate_change_issue_55() {
    // Given a borrower who signed under version 1 (0.2 %/day over 6 days),
    let events = run(
        test_with(version_of_product(1, 200), test_now()),
        vec![],
        apply(dec!(80000), 6),
    );
    let OrderEvent::LoanApplied { terms, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!((terms.product_version, terms.daily_rate), (1, 200));
    let mut given = events;
    given.extend([review_started(), first_passed(), final_passed(dec!(80000))]);
    given.push(payout_requested(dec!(80000)));
    // when version 2 lowers the rate to 0.15 %/day before the payout,
    let paid = run(
        test_with(version_of_product(2, 150), at(1)),
        given,
        OrderCommand::RecordPayoutSucceeded {
            payout_id: payout_id(),
        },
    );
    // then the loan is paid out on version 1's terms: 960 interest, not 720.
    let OrderEvent::PayoutSucceeded { disclosure, .. } = &paid[0] else {
        panic!("{paid:?}")
    };
    assert_eq!(disclosure.interest, dec!(960.0));
    // And a new application under version 2 is priced at version 2's rate.
    let applied_v2 = run(
        test_with(version_of_product(2, 150), at(1)),
        vec![],
        apply(dec!(80000), 6),
    );
    let OrderEvent::LoanApplied {
        terms, disclosure, ..
    } = &applied_v2[0]
    else {
        panic!("{applied_v2:?}")
    };
    assert_eq!(
        (terms.product_version, disclosure.interest),
        (2, dec!(720.0))
    );
    assert_eq!(disclosure.product_version, 2);
}

#[test]
fn an_application_shown_another_versions_disclosure_is_refused_issue_55() {
    // Given version 2 in force, when a borrower who was shown version 1's disclosure
    // applies, then they are asked to look at the new one; shown version 2, applied.
    let shown = |version: u32| {
        let mut command = apply(dec!(80000), 6);
        if let OrderCommand::ApplyForLoan {
            product_version, ..
        } = &mut command
        {
            *product_version = Some(version);
        }
        command
    };
    let refused = test_with(version_of_product(2, 150), test_now())
        .given_no_previous_events()
        .when(shown(1))
        .inspect_result();
    assert!(
        matches!(&refused, Err(OrderError::InvalidInput(invalid)) if invalid.field == "productVersion"),
        "{refused:?}"
    );
    let applied = run(
        test_with(version_of_product(2, 150), test_now()),
        vec![],
        shown(2),
    );
    assert!(matches!(applied[0], OrderEvent::LoanApplied { .. }));
}

#[test]
fn nothing_is_created_without_a_signature_p7() {
    let mut command = apply(dec!(80000), 6);
    if let OrderCommand::ApplyForLoan { signature, .. } = &mut command {
        *signature = None;
    }
    test()
        .given_no_previous_events()
        .when(command)
        .then_expect_error(InvalidInput::new("signature", "please sign first").into());
}

#[test]
fn the_disclosure_names_the_lender_and_the_no_fee_notice_p14() {
    let events = run(test(), vec![], apply(dec!(80000), 6));
    let OrderEvent::LoanApplied { disclosure, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(disclosure.lender.legal_name, "Honest Lending Corporation");
    assert_eq!(disclosure.lender.licence_no, "SEC CA No. 3120");
    assert_eq!(
        disclosure.notice,
        "We never ask you to pay to receive a loan."
    );
}

#[test]
fn amount_and_period_must_be_offered_by_the_product() {
    let amount_error = OrderError::Terms(crate::pricing::TermsError::Amount {
        min: dec!(80000),
        max: dec!(3000000),
        step: dec!(10000),
    });
    for amount in [dec!(70000), dec!(85000), dec!(3010000)] {
        test()
            .given_no_previous_events()
            .when(apply(amount, 6))
            .then_expect_error(amount_error.clone());
    }
    test()
        .given_no_previous_events()
        .when(apply(dec!(80000), 7))
        .then_expect_error(OrderError::Terms(crate::pricing::TermsError::Period));
}

#[test]
fn disabled_and_unknown_products_cannot_be_applied_for() {
    let mut command = apply(dec!(80000), 6);
    if let OrderCommand::ApplyForLoan { app_id, .. } = &mut command {
        *app_id = 2;
    }
    test()
        .given_no_previous_events()
        .when(command.clone())
        .then_expect_error(OrderError::ProductDisabled);
    if let OrderCommand::ApplyForLoan { app_id, .. } = &mut command {
        *app_id = 99;
    }
    test()
        .given_no_previous_events()
        .when(command)
        .then_expect_error(OrderError::ProductNotFound);
}

/// `apply` with the borrower's declared monthly income.
fn apply_declaring(amount: Decimal, period_days: u32, income: Option<Decimal>) -> OrderCommand {
    let mut command = apply(amount, period_days);
    if let OrderCommand::ApplyForLoan { monthly_income, .. } = &mut command {
        *monthly_income = income;
    }
    command
}

#[test]
fn an_amount_above_what_the_declared_income_allows_is_refused_naming_the_maximum() {
    // Given a product whose repayments in any 30 days are at most 40 % of the income,
    let product = Product {
        max_income_share_pct: Some(dec!(40)),
        ..demo_product()
    };
    // when a borrower declaring 400,000 a month asks 160,000 over 24 days (163,840 due
    // within the month, above 160,000), then 40010 names 150,000;
    test_with(product.clone(), test_now())
        .given_no_previous_events()
        .when(apply_declaring(dec!(160000), 24, Some(dec!(400000))))
        .then_expect_error(OrderError::Unaffordable {
            max: Some(dec!(150000)),
        });
    // and 150,000 is applied for.
    let events = run(
        test_with(product.clone(), test_now()),
        vec![],
        apply_declaring(dec!(150000), 24, Some(dec!(400000))),
    );
    assert!(matches!(events[0], OrderEvent::LoanApplied { amount, .. } if amount == dec!(150000)));
    // The issue's borrower: 25,000 a month affords none of this product's amounts;
    // a borrower who declared no income as an amount is asked to declare it.
    for (income, error) in [
        (Some(dec!(25000)), OrderError::Unaffordable { max: None }),
        (None, OrderError::IncomeNotDeclared),
    ] {
        let refused = test_with(product.clone(), test_now())
            .given_no_previous_events()
            .when(apply_declaring(dec!(80000), 24, income))
            .inspect_result()
            .expect_err("unaffordable");
        assert_eq!(refused, error);
        assert_eq!(refused.code().code(), 40010);
    }
    // A product without a share applies no test: no income is needed.
    let events = run(
        test_with(demo_product(), test_now()),
        vec![],
        apply_declaring(dec!(3000000), 24, None),
    );
    assert!(matches!(events[0], OrderEvent::LoanApplied { .. }));
    let message = OrderError::Unaffordable {
        max: Some(dec!(150000)),
    }
    .to_string();
    assert!(message.contains("at most 150,000.00"), "{message}");
}

#[test]
fn a_product_breaking_the_compliance_profile_is_refused_at_apply_p5() {
    // The seed's 0.4 %/day, somehow configured: refused at apply all the same.
    let mut product = demo_product();
    product.rate_configs[0].daily_rate = 400;
    let result = test_with(product, test_now())
        .given_no_previous_events()
        .when(apply(dec!(80000), 6))
        .inspect_result();
    assert!(
        matches!(result, Err(OrderError::Compliance(_))),
        "{result:?}"
    );
    assert_eq!(result.unwrap_err().code().code(), 40003);
}

#[test]
fn an_order_id_is_applied_for_once() {
    // The loan workflow repeating its step after a crash: nothing new.
    test()
        .given(submitted())
        .when(apply(dec!(80000), 6))
        .then_expect_events(vec![]);
    let mut other_id = apply(dec!(80000), 6);
    if let OrderCommand::ApplyForLoan { order_id, .. } = &mut other_id {
        *order_id = Uuid::from_u128(0x0DD);
    }
    test()
        .given(submitted())
        .when(other_id)
        .then_expect_error(OrderError::AlreadyApplied);
}

#[test]
fn commands_on_an_unknown_order_are_refused() {
    test()
        .given_no_previous_events()
        .when(OrderCommand::Cancel)
        .then_expect_error(OrderError::NotFound);
}

// ---- review (4.3) ---------------------------------------------------------------------

#[test]
fn start_review_moves_a_submitted_order_to_first_review_0_to_1() {
    test()
        .given(submitted())
        .when(OrderCommand::StartReview {
            auditor_id: auditor_1(),
        })
        .then_expect_events(vec![review_started()]);
    assert_eq!(fold(in_first_review()).status.code(), 1);
    test()
        .given(in_first_review())
        .when(OrderCommand::StartReview {
            auditor_id: auditor_1(),
        })
        .then_expect_error(OrderError::WrongStatus {
            status: 1,
            action: "start review of",
        });
}

#[test]
fn first_review_passes_only_when_the_identity_is_verified_1_to_3() {
    let pass = |verified| OrderCommand::PassFirstAudit {
        auditor_id: auditor_1(),
        note: "documents in order".to_string(),
        identity_verified: verified,
    };
    test()
        .given(in_first_review())
        .when(pass(false))
        .then_expect_error(OrderError::IdentityNotVerified);
    test()
        .given(in_first_review())
        .when(pass(true))
        .then_expect_events(vec![first_passed()]);
    assert_eq!(fold(awaiting_final()).status.code(), 3);
    test()
        .given(submitted())
        .when(pass(true))
        .then_expect_error(OrderError::WrongStatus {
            status: 0,
            action: "pass the first review of",
        });
}

#[test]
fn the_final_review_by_the_first_auditor_is_refused_four_eyes() {
    test()
        .given(awaiting_final())
        .when(OrderCommand::PassFinalAudit {
            auditor_id: auditor_1(),
            note: "approved".to_string(),
        })
        .then_expect_error(OrderError::SameAuditor);
}

#[test]
fn a_final_refusal_by_the_first_auditor_is_refused_four_eyes() {
    // The first reviewer cannot take the final decision either way; sending the
    // order back for a resubmission (a new review round) stays open to them.
    test()
        .given(awaiting_final())
        .when(OrderCommand::Refuse {
            auditor_id: auditor_1(),
            reason: "changed my mind".to_string(),
            reasons: vec![],
        })
        .then_expect_error(OrderError::SameAuditor);
    assert_eq!(fold(awaiting_final()).first_auditor, Some(auditor_1()));
}

#[test]
fn the_first_auditor_cannot_refuse_through_a_resubmission_they_asked_for_four_eyes() {
    // Passed first review by auditor 1, sent back for new photos by auditor 1: the
    // refusal, with nothing changed by the borrower, is another auditor's.
    let mut sent_back = awaiting_final();
    sent_back.push(OrderEvent::ResubmissionRequested {
        auditor_id: auditor_1(),
        reason: "ID photo is blurred".to_string(),
        items: vec![ResubmissionItem::Photos],
        at: test_now(),
    });
    let refuse = |auditor_id| OrderCommand::Refuse {
        auditor_id,
        reason: "income could not be verified".to_string(),
        reasons: vec![],
    };
    test()
        .given(sent_back.clone())
        .when(refuse(auditor_1()))
        .then_expect_error(OrderError::SameAuditor);
    test()
        .given(sent_back)
        .when(refuse(auditor_2()))
        .then_expect_events(vec![OrderEvent::LoanRefused {
            stage: ReviewStage::First,
            auditor_id: auditor_2(),
            reason: "income could not be verified".to_string(),
            reasons: vec![],
            at: test_now(),
        }]);
}

#[test]
fn the_final_review_by_another_auditor_approves_with_balance_and_expiry_3_to_9() {
    test()
        .given(awaiting_final())
        .when(OrderCommand::PassFinalAudit {
            auditor_id: auditor_2(),
            note: "approved".to_string(),
        })
        .then_expect_events(vec![final_passed(dec!(80000))]);
    let order = fold(approved(dec!(80000), 6));
    assert_eq!(order.status.code(), 9);
    assert_eq!(order.balance, dec!(80000));
    assert_eq!(order.offer_expires_at, Some(at(7)));
}

#[test]
fn a_refusal_at_first_review_carries_its_reason_p8() {
    for given in [submitted(), in_first_review()] {
        test()
            .given(given)
            .when(OrderCommand::Refuse {
                auditor_id: auditor_1(),
                reason: "income could not be confirmed".to_string(),
                reasons: vec![],
            })
            .then_expect_events(vec![OrderEvent::LoanRefused {
                stage: ReviewStage::First,
                auditor_id: auditor_1(),
                reason: "income could not be confirmed".to_string(),
                reasons: vec![],
                at: test_now(),
            }]);
    }
    let mut refused = in_first_review();
    refused.push(OrderEvent::LoanRefused {
        stage: ReviewStage::First,
        auditor_id: auditor_1(),
        reason: "income could not be confirmed".to_string(),
        reasons: vec![],
        at: test_now(),
    });
    let order = fold(refused);
    assert_eq!(order.status.code(), 5);
    assert_eq!(
        order.refusal.unwrap().reason,
        "income could not be confirmed"
    );
}

#[test]
fn a_refusal_at_final_review_carries_its_reason_p8() {
    test()
        .given(awaiting_final())
        .when(OrderCommand::Refuse {
            auditor_id: auditor_2(),
            reason: "debt ratio too high".to_string(),
            reasons: vec![],
        })
        .then_expect_events(vec![OrderEvent::LoanRefused {
            stage: ReviewStage::Final,
            auditor_id: auditor_2(),
            reason: "debt ratio too high".to_string(),
            reasons: vec![],
            at: test_now(),
        }]);
    let mut refused = awaiting_final();
    refused.push(OrderEvent::LoanRefused {
        stage: ReviewStage::Final,
        auditor_id: auditor_2(),
        reason: "debt ratio too high".to_string(),
        reasons: vec![],
        at: test_now(),
    });
    assert_eq!(fold(refused).status.code(), 12);
}

#[test]
fn coded_refusal_reasons_are_recorded_once_each_and_a_note_is_then_optional() {
    // Given an order in first review, when an officer refuses it with coded reasons
    // (one given twice) and no note, then the reasons are recorded once each, sorted,
    // for the borrower to read in their language (issue 52).
    test()
        .given(in_first_review())
        .when(OrderCommand::Refuse {
            auditor_id: auditor_1(),
            reason: " ".to_string(),
            reasons: vec![
                RefusalReason::RepaymentCapacity,
                RefusalReason::IncomeNotVerified,
                RefusalReason::RepaymentCapacity,
            ],
        })
        .then_expect_events(vec![OrderEvent::LoanRefused {
            stage: ReviewStage::First,
            auditor_id: auditor_1(),
            reason: " ".to_string(),
            reasons: vec![
                RefusalReason::IncomeNotVerified,
                RefusalReason::RepaymentCapacity,
            ],
            at: test_now(),
        }]);
    // A note longer than the limit is still refused.
    test()
        .given(in_first_review())
        .when(OrderCommand::Refuse {
            auditor_id: auditor_1(),
            reason: "x".repeat(2_000),
            reasons: vec![RefusalReason::OutsidePolicy],
        })
        .inspect_result()
        .expect_err("too long");
}

#[test]
fn a_refusal_without_a_reason_is_refused_p8() {
    test()
        .given(in_first_review())
        .when(OrderCommand::Refuse {
            auditor_id: auditor_1(),
            reason: "  ".to_string(),
            reasons: vec![],
        })
        .then_expect_error(InvalidInput::new("reason", "is required").into());
}

#[test]
fn an_approved_or_disbursed_order_cannot_be_refused() {
    for (given, status) in [(approved(dec!(80000), 6), 9), (disbursed(), 4)] {
        test()
            .given(given)
            .when(OrderCommand::Refuse {
                auditor_id: auditor_2(),
                reason: "changed my mind".to_string(),
                reasons: vec![],
            })
            .then_expect_error(OrderError::WrongStatus {
                status,
                action: "refuse",
            });
    }
}

#[test]
fn resubmission_needs_a_reason_and_the_borrower_returns_the_order_to_0() {
    let request = |reason: &str| OrderCommand::RequestResubmission {
        auditor_id: auditor_1(),
        reason: reason.to_string(),
        items: vec![ResubmissionItem::Photos],
    };
    test()
        .given(in_first_review())
        .when(request(""))
        .then_expect_error(InvalidInput::new("reason", "is required").into());
    let requested = OrderEvent::ResubmissionRequested {
        auditor_id: auditor_1(),
        reason: "ID photo is blurred".to_string(),
        items: vec![ResubmissionItem::Photos],
        at: test_now(),
    };
    test()
        .given(in_first_review())
        .when(request("ID photo is blurred"))
        .then_expect_events(vec![requested.clone()]);
    let mut given = in_first_review();
    given.push(requested);
    let order = fold(given.clone());
    assert_eq!(order.status.code(), 2);
    assert_eq!(
        order.resubmission_reason.as_deref(),
        Some("ID photo is blurred")
    );
    assert_eq!(order.resubmission_items, vec![ResubmissionItem::Photos]);
    // Nothing asked for was changed (the bank was, but only photos were asked):
    // refused with 40009, the items named (issue 52).
    for fixed in [vec![], vec![ResubmissionItem::Bank]] {
        test()
            .given(given.clone())
            .when(OrderCommand::Resubmit { fixed })
            .then_expect_error(OrderError::NothingFixed {
                items: "photos".into(),
            });
    }
    // The photos changed (and the bank, not asked for): resubmitted, the event
    // saying what was asked and what of it changed, for the officer (issue 52).
    let resubmitted = OrderEvent::Resubmitted {
        at: test_now(),
        asked: vec![ResubmissionItem::Photos],
        fixed: vec![ResubmissionItem::Photos],
    };
    test()
        .given(given.clone())
        .when(OrderCommand::Resubmit {
            fixed: vec![ResubmissionItem::Bank, ResubmissionItem::Photos],
        })
        .then_expect_events(vec![resubmitted.clone()]);
    given.push(resubmitted);
    let order = fold(given);
    assert_eq!(order.status.code(), 0);
    assert!(order.resubmission_items.is_empty());
    assert_eq!(order.resubmission_reason, None);
    assert_eq!(
        order.last_resubmission.map(|r| (r.asked, r.fixed)),
        Some((
            vec![ResubmissionItem::Photos],
            vec![ResubmissionItem::Photos]
        ))
    );
    test()
        .given(submitted())
        .when(OrderCommand::Resubmit {
            fixed: ResubmissionItem::ALL.to_vec(),
        })
        .then_expect_error(OrderError::WrongStatus {
            status: 0,
            action: "resubmit",
        });
}

#[test]
fn a_resubmission_request_names_what_to_fix_12_4() {
    // Given an order in review, when an officer asks for nothing in particular, then
    // the request is refused: the borrower must be told what to fix.
    test()
        .given(in_first_review())
        .when(OrderCommand::RequestResubmission {
            auditor_id: auditor_1(),
            reason: "please check".into(),
            items: vec![],
        })
        .then_expect_error(InvalidInput::new("items", "name at least one thing to fix").into());
    // Repeated and unordered items are recorded once each, in one order.
    test()
        .given(in_first_review())
        .when(OrderCommand::RequestResubmission {
            auditor_id: auditor_1(),
            reason: "blurred photo, wrong bank".into(),
            items: vec![
                ResubmissionItem::Bank,
                ResubmissionItem::Photos,
                ResubmissionItem::Bank,
            ],
        })
        .then_expect_events(vec![OrderEvent::ResubmissionRequested {
            auditor_id: auditor_1(),
            reason: "blurred photo, wrong bank".into(),
            items: vec![ResubmissionItem::Photos, ResubmissionItem::Bank],
            at: test_now(),
        }]);
}

#[test]
fn a_resubmission_request_recorded_before_items_existed_asks_for_everything() {
    // The upcast: the stored form of a request from before items were named.
    let stored = serde_json::json!({"ResubmissionRequested": {
        "auditor_id": auditor_1(),
        "reason": "old request",
        "at": test_now(),
    }});
    let event: OrderEvent = serde_json::from_value(stored).expect("old form loads");
    let OrderEvent::ResubmissionRequested { items, .. } = event else {
        panic!("not a resubmission request: {event:?}");
    };
    assert_eq!(items, ResubmissionItem::ALL.to_vec());
}

// ---- cancel (P6) and expiry --------------------------------------------------------------

#[test]
fn cancelling_before_disbursement_costs_nothing_p6() {
    for (given, released) in [
        (submitted(), Decimal::ZERO),
        (awaiting_final(), Decimal::ZERO),
        (approved(dec!(80000), 6), dec!(80000)),
    ] {
        let events = run(test(), given.clone(), OrderCommand::Cancel);
        assert_eq!(
            events,
            vec![OrderEvent::LoanCancelled {
                released_amount: released,
                at: test_now()
            }]
        );
        let mut all = given;
        all.extend(events);
        let order = fold(all);
        assert_eq!(order.status.code(), 11);
        assert_eq!(
            order.outstanding(),
            Decimal::ZERO,
            "a cancelled order owes nothing"
        );
        assert_eq!(order.balance, Decimal::ZERO);
    }
}

#[test]
fn a_disbursed_loan_is_closed_by_repaying_not_by_cancelling() {
    test()
        .given(disbursed())
        .when(OrderCommand::Cancel)
        .then_expect_error(OrderError::WrongStatus {
            status: 4,
            action: "cancel",
        });
}

#[test]
fn an_offer_expires_after_its_validity_9_to_13() {
    // It ends at day 7; the scheduler expires it ten minutes later, when no
    // withdrawal asked for in time can still be on its way (`OFFER_EXPIRY_GRACE_MINUTES`).
    let grace = chrono::Duration::minutes(OFFER_EXPIRY_GRACE_MINUTES);
    for early in [at(6), at(7), at(7) + grace - chrono::Duration::seconds(1)] {
        test_at(early)
            .given(approved(dec!(80000), 6))
            .when(OrderCommand::ExpireOffer)
            .then_expect_error(OrderError::OfferStillValid);
    }
    test_at(at(7) + grace)
        .given(approved(dec!(80000), 6))
        .when(OrderCommand::ExpireOffer)
        .then_expect_events(vec![OrderEvent::OfferExpired {
            released_amount: dec!(80000),
            at: at(7) + grace,
        }]);
    let mut expired = approved(dec!(80000), 6);
    expired.push(OrderEvent::OfferExpired {
        released_amount: dec!(80000),
        at: at(7),
    });
    assert_eq!(fold(expired).status.code(), 13);
}

#[test]
fn withdrawing_an_expired_offer_is_refused() {
    test_at(at(7))
        .given(approved(dec!(80000), 6))
        .when(OrderCommand::RequestPayout {
            payout_id: payout_id(),
            amount: dec!(80000),
            account: account(),
            requested_at: None,
        })
        .then_expect_error(OrderError::OfferExpired);
}

#[test]
fn a_withdrawal_asked_for_before_the_offer_ended_is_paid_out_however_late_the_workflow_runs_p2() {
    // The offer ends at day 7. Asked for a second before; the workflow, down, takes it
    // five minutes after the end.
    let end = at(7);
    let request = |requested_at| OrderCommand::RequestPayout {
        payout_id: payout_id(),
        amount: dec!(80000),
        account: account(),
        requested_at: Some(requested_at),
    };
    let late = end + chrono::Duration::minutes(5);
    let events = run(
        test_at(late),
        approved(dec!(80000), 6),
        request(end - chrono::Duration::seconds(1)),
    );
    assert!(
        matches!(&events[..], [OrderEvent::PayoutRequested { amount, at, .. }] if *amount == dec!(80000) && *at == late),
        "{events:?}"
    );
    // Asked for at the end or after it: refused, however early the workflow.
    test_at(late)
        .given(approved(dec!(80000), 6))
        .when(request(end))
        .then_expect_error(OrderError::OfferExpired);
    // A time past the order's clock is not believed: judged as of now.
    let before = end - chrono::Duration::minutes(1);
    let events = run(
        test_at(before),
        approved(dec!(80000), 6),
        request(end + chrono::Duration::days(1)),
    );
    assert!(
        matches!(&events[..], [OrderEvent::PayoutRequested { .. }]),
        "{events:?}"
    );
}

// ---- withdraw and payout (P2, P3, P10) ----------------------------------------------------

fn withdraw(amount: Decimal) -> OrderCommand {
    OrderCommand::RequestPayout {
        payout_id: payout_id(),
        amount,
        account: account(),
        requested_at: None,
    }
}

#[test]
fn a_withdrawal_reserves_the_amount_for_the_payout() {
    test()
        .given(approved(dec!(80000), 6))
        .when(withdraw(dec!(80000)))
        .then_expect_events(vec![payout_requested(dec!(80000))]);
}

#[test]
fn a_withdrawal_above_the_approved_balance_is_refused() {
    test()
        .given(approved(dec!(80000), 6))
        .when(withdraw(dec!(80000.01)))
        .then_expect_error(OrderError::InsufficientBalance);
}

#[test]
fn a_withdrawal_needs_status_9() {
    for (given, status) in [(awaiting_final(), 3), (disbursed(), 4)] {
        test()
            .given(given)
            .when(OrderCommand::RequestPayout {
                payout_id: Uuid::from_u128(0xB7), // a new payout, not the resolved one
                amount: dec!(1000),
                account: account(),
                requested_at: None,
            })
            .then_expect_error(OrderError::WrongStatus {
                status,
                action: "withdraw from",
            });
    }
}

#[test]
fn a_payout_goes_only_to_an_account_in_the_borrowers_name_p3() {
    let mut other = account();
    other.holder_name = "Loan Assistant".to_string();
    test()
        .given(approved(dec!(80000), 6))
        .when(OrderCommand::RequestPayout {
            payout_id: payout_id(),
            amount: dec!(80000),
            account: other,
            requested_at: None,
        })
        .then_expect_error(OrderError::AccountNotInBorrowersName);
}

#[test]
fn only_one_payout_can_be_in_flight_single_drawdown() {
    let mut given = approved(dec!(100000), 6);
    given.push(payout_requested(dec!(50000)));
    test()
        .given(given)
        .when(OrderCommand::RequestPayout {
            payout_id: Uuid::from_u128(0xB2),
            amount: dec!(50000),
            account: account(),
            requested_at: None,
        })
        .then_expect_error(OrderError::PayoutInFlight);
}

#[test]
fn a_repeated_payout_request_changes_nothing_p3() {
    // The loan workflow repeating its step after a crash, in flight and after success.
    let mut given = approved(dec!(100000), 6);
    given.push(payout_requested(dec!(50000)));
    let again = OrderCommand::RequestPayout {
        payout_id: payout_id(),
        amount: dec!(50000),
        account: account(),
        requested_at: None,
    };
    test()
        .given(given.clone())
        .when(again.clone())
        .then_expect_events(vec![]);
    given.push(payout_succeeded(dec!(100000), dec!(50000), 6));
    test().given(given).when(again).then_expect_events(vec![]);
}

#[test]
fn a_failed_payout_returns_the_amount_and_keeps_status_9_p3() {
    let mut given = approved(dec!(80000), 6);
    given.push(payout_requested(dec!(80000)));
    let failed = OrderEvent::PayoutFailed {
        payout_id: payout_id(),
        amount: dec!(80000),
        net_amount: dec!(80000),
        reason: "connection to bank account failed".to_string(),
        at: test_now(),
    };
    test()
        .given(given.clone())
        .when(OrderCommand::RecordPayoutFailed {
            payout_id: payout_id(),
            reason: "connection to bank account failed".to_string(),
        })
        .then_expect_events(vec![failed.clone()]);
    given.push(failed);
    let order = fold(given.clone());
    assert_eq!(order.status.code(), 9, "never frozen");
    assert_eq!(order.balance, dec!(80000), "the money is back");
    assert_eq!(order.outstanding(), Decimal::ZERO, "no fee");
    assert_eq!(
        order.last_withdraw_error.as_deref(),
        Some("connection to bank account failed")
    );
    // The borrower fixes the account and retries, free.
    let retry = run(
        test(),
        given,
        OrderCommand::RequestPayout {
            payout_id: Uuid::from_u128(0xB2),
            amount: dec!(80000),
            account: account(),
            requested_at: None,
        },
    );
    assert!(
        matches!(retry[..], [OrderEvent::PayoutRequested { amount, net_amount, .. }] if amount == dec!(80000) && net_amount == dec!(80000))
    );
}

#[test]
fn interest_accrues_only_on_the_amount_paid_out_p10() {
    // Approved 100,000; the borrower draws 80,000: principal 80,000, the 20,000
    // remainder is released, the schedule starts on the payout day.
    let payout_day = at(2);
    let mut given = approved(dec!(100000), 6);
    given.push(payout_requested(dec!(80000)));
    let events = run(
        test_at(payout_day),
        given.clone(),
        OrderCommand::RecordPayoutSucceeded {
            payout_id: payout_id(),
        },
    );
    let OrderEvent::PayoutSucceeded {
        released_amount,
        disclosure,
        schedule,
        ..
    } = &events[0]
    else {
        panic!("{events:?}")
    };
    assert_eq!(*released_amount, dec!(20000));
    assert_eq!(disclosure.principal, dec!(80000));
    assert_eq!(disclosure.interest, dec!(960.0));
    assert_eq!(
        schedule[0].due_date,
        (payout_day + Days::new(1)).date_naive()
    );
    assert_eq!(
        schedule[5].due_date,
        (payout_day + Days::new(6)).date_naive()
    );
    assert_eq!(
        schedule.iter().map(|i| i.amount).sum::<Decimal>(),
        dec!(80960.0)
    );
    given.extend(events);
    let order = fold(given);
    assert_eq!(order.status.code(), 4);
    assert_eq!(order.balance, Decimal::ZERO);
    assert_eq!(order.outstanding(), dec!(80960.0));
}

#[test]
fn a_payout_result_is_applied_at_most_once() {
    let result = OrderCommand::RecordPayoutSucceeded {
        payout_id: payout_id(),
    };
    test()
        .given(disbursed())
        .when(result)
        .then_expect_events(vec![]);
    test()
        .given(approved(dec!(80000), 6))
        .when(OrderCommand::RecordPayoutFailed {
            payout_id: payout_id(),
            reason: "late".to_string(),
        })
        .then_expect_error(OrderError::UnknownPayout);
}

// ---- repayment (P1, P12) -----------------------------------------------------------------

#[test]
fn recharge_without_an_outstanding_loan_is_refused_p1() {
    // Before approval, after approval but before the payout, and after closing.
    let repaid = repaid_within_cooling_off();
    assert_eq!(fold(repaid.clone()).status.code(), 10);
    for given in [submitted(), approved(dec!(80000), 6), repaid] {
        test()
            .given(given)
            .when(repay("pay-2", dec!(1000)))
            .then_expect_error(OrderError::NothingOwed);
    }
}

#[test]
fn a_repayment_can_never_exceed_what_is_owed_p1() {
    // Day 8 of the 6-day loan of 80,000: 80,960 owed. After four payments of 20,000,
    // 960 is left: 1,000 is within the range but more than is owed, so refused.
    let mut history = disbursed();
    for n in 0..4 {
        let events = run(
            test_at(at(8)),
            history.clone(),
            repay(&format!("p{n}"), dec!(20000)),
        );
        history.extend(events);
    }
    // A payment page for more than is owed never opens.
    test_at(at(8))
        .given(history.clone())
        .when(open_session(9, dec!(1000)))
        .then_expect_error(OrderError::RepaymentAmount {
            min: dec!(100),
            max: dec!(960.0),
        });
    test_at(at(8))
        .given(history.clone())
        .when(open_session(9, dec!(960.01)))
        .then_expect_error(OrderError::RepaymentAmount {
            min: dec!(100),
            max: dec!(960.0),
        });
    // Exactly what is owed is accepted and closes the loan.
    let events = run(test_at(at(8)), history, repay("p4", dec!(960.0)));
    assert!(matches!(events.last(), Some(OrderEvent::LoanRepaid { .. })));
}

#[test]
fn the_final_payment_may_be_below_the_minimum_but_only_exactly_p1() {
    // 80,960 owed: 80,900 in range-sized steps leaves 60, below repay_min (100).
    let mut history = disbursed();
    for (n, amount) in [
        dec!(20000),
        dec!(20000),
        dec!(20000),
        dec!(20000),
        dec!(900),
    ]
    .into_iter()
    .enumerate()
    {
        let events = run(
            test_at(at(8)),
            history.clone(),
            repay(&format!("p{n}"), amount),
        );
        history.extend(events);
    }
    test_at(at(8))
        .given(history.clone())
        .when(open_session(9, dec!(50)))
        .then_expect_error(OrderError::RepaymentAmount {
            min: dec!(60.0),
            max: dec!(60.0),
        });
    let events = run(test_at(at(8)), history, repay("p5", dec!(60.0)));
    assert!(matches!(events.last(), Some(OrderEvent::LoanRepaid { .. })));
}

#[test]
fn a_repayment_outside_the_range_is_refused_unless_it_is_the_final_amount() {
    for amount in [dec!(99.99), dec!(20000.01), dec!(-5)] {
        test()
            .given(disbursed())
            .when(open_session(1, amount))
            .then_expect_error(OrderError::RepaymentAmount {
                min: dec!(100),
                max: dec!(20000),
            });
    }
    // An auditor's entry of money received is not capped by the page's range, but
    // its minimum holds.
    test()
        .given(disbursed())
        .when(repay("pay-1", dec!(99.99)))
        .then_expect_error(OrderError::RepaymentAmount {
            min: dec!(100),
            max: dec!(80000),
        });
}

#[test]
fn repayments_are_allocated_to_the_oldest_installment_first() {
    // The 6-day loan: installments of 13,493.3 … 13,493.5; day 8 is past cooling-off.
    test_at(at(8))
        .given(disbursed())
        .when(repay("pay-1", dec!(20000)))
        .then_expect_events(vec![OrderEvent::RepaymentReceived {
            payment_ref: "pay-1".to_string(),
            amount: dec!(20000),
            allocations: vec![
                Allocation {
                    period: 1,
                    amount: dec!(13493.3),
                },
                Allocation {
                    period: 2,
                    amount: dec!(6506.7),
                },
            ],
            source: manual(),
            at: at(8),
        }]);
    let mut given = disbursed();
    given.extend(run(
        test_at(at(8)),
        disbursed(),
        repay("pay-1", dec!(20000)),
    ));
    let order = fold(given);
    let statuses: Vec<u8> = order
        .loan
        .as_ref()
        .unwrap()
        .schedule
        .iter()
        .map(|i| i.status().code())
        .collect();
    assert_eq!(statuses, vec![1, 0, 0, 0, 0, 0]);
    assert_eq!(order.outstanding(), dec!(60960.0));
}

#[test]
fn a_payment_reference_is_applied_at_most_once() {
    let mut given = disbursed();
    given.extend(run(test_at(at(8)), disbursed(), repay("pay-1", dec!(5000))));
    test_at(at(8))
        .given(given)
        .when(repay("pay-1", dec!(5000)))
        .then_expect_events(vec![]);
}

#[test]
fn paying_everything_owed_closes_the_loan_4_to_10() {
    // Day 8: past cooling-off and past the 6-day term, so the full 80,960 is owed,
    // paid in 20,000 steps and a final 960.
    let mut history = disbursed();
    for (n, amount) in [
        dec!(20000),
        dec!(20000),
        dec!(20000),
        dec!(20000),
        dec!(960),
    ]
    .into_iter()
    .enumerate()
    {
        let events = run(
            test_at(at(8)),
            history.clone(),
            repay(&format!("pay-{n}"), amount),
        );
        history.extend(events);
    }
    let order = fold(history.clone());
    assert_eq!(order.status.code(), 10);
    assert_eq!(order.outstanding(), Decimal::ZERO);
    assert!(order
        .loan
        .unwrap()
        .schedule
        .iter()
        .all(|i| i.status() == InstallmentStatus::Repaid));
    assert!(matches!(
        history.last(),
        Some(OrderEvent::LoanRepaid { interest_waived, .. }) if interest_waived.is_zero()
    ));
}

#[test]
fn prepaying_charges_interest_only_for_the_days_elapsed_p12() {
    // 3,000,000 for 24 days at 0.1 %/day = 3,000/day. On day 10 the payoff is
    // principal + 10 days; a borrower pays it in repay_max steps (range rule).
    let mut product = demo_product();
    product.pricing.repay_max = dec!(5000000);
    let terms = product.terms_for(24).unwrap();
    let d = disclose(dec!(3000000), &terms, &demo_lender());
    let mut given = approved(dec!(3000000), 24);
    if let OrderEvent::LoanApplied { terms: t, .. } = &mut given[0] {
        *t = terms.clone();
    }
    given.push(payout_requested(dec!(3000000)));
    given.push(OrderEvent::PayoutSucceeded {
        payout_id: payout_id(),
        released_amount: Decimal::ZERO,
        schedule: Loan::schedule_for(&d, test_now().date_naive()),
        disclosure: d,
        paid_at: test_now(),
    });
    // Entered by one auditor, confirmed by another (above the four-eyes limit).
    let proposed = run(
        test_with(product.clone(), at(10)),
        given.clone(),
        repay("payoff", dec!(3030000.0)),
    );
    given.extend(proposed);
    let events = run(
        test_with(product, at(10)),
        given.clone(),
        manual_by("payoff", dec!(3030000.0), auditor_2()),
    );
    assert_eq!(
        events.last(),
        Some(&OrderEvent::LoanRepaid {
            interest_waived: dec!(72000.0) - dec!(30000.0),
            fees_waived: Decimal::ZERO,
            cooling_off: false,
            at: at(10),
        })
    );
    given.extend(events);
    assert_eq!(fold(given).status.code(), 10);
}

/// Day 3 of the 80,000 loan, repaid in four 20,000 steps (repay_max).
fn repaid_within_cooling_off() -> Vec<OrderEvent> {
    let mut history = disbursed();
    for n in 0..4 {
        let events = run(
            test_at(at(3)),
            history.clone(),
            repay(&format!("p{n}"), dec!(20000)),
        );
        history.extend(events);
    }
    history
}

#[test]
fn returning_the_principal_within_cooling_off_closes_the_loan_free_p12() {
    // Day 3 of the 80,000 loan: 80,000 closes it, no interest, no fee.
    let history = repaid_within_cooling_off();
    assert_eq!(
        history.last(),
        Some(&OrderEvent::LoanRepaid {
            interest_waived: dec!(960.0),
            fees_waived: Decimal::ZERO,
            cooling_off: true,
            at: at(3),
        })
    );
    let order = fold(history);
    assert_eq!(order.status.code(), 10);
    assert_eq!(order.loan.unwrap().repaid, dec!(80000));
}

// ---- overdue (4.4) -------------------------------------------------------------------------

fn with_overdue_fee(rate: u32, max_total_cost_pct: Decimal) -> (Product, Vec<OrderEvent>) {
    let mut product = demo_product();
    product.pricing.overdue_daily_rate = rate;
    product.pricing.max_total_cost_pct = max_total_cost_pct;
    let terms = LoanTerms {
        time_zone: Some(chrono_tz::Asia::Manila),
        ..product.terms_for(6).unwrap()
    };
    let d = disclose(dec!(80000), &terms, &demo_lender());
    let mut given = approved(dec!(80000), 6);
    if let OrderEvent::LoanApplied { terms: t, .. } = &mut given[0] {
        *t = terms;
    }
    given.push(payout_requested(dec!(80000)));
    given.push(OrderEvent::PayoutSucceeded {
        payout_id: payout_id(),
        released_amount: Decimal::ZERO,
        schedule: Loan::schedule_for(&d, test_now().date_naive()),
        disclosure: d,
        paid_at: test_now(),
    });
    (product, given)
}

#[test]
fn an_installment_past_its_due_day_is_overdue_and_charged_per_day() {
    // Installment 1 is due on day 1; on day 3 it is two days overdue. 0.1 %/day of
    // 13,493.3 = 13.49 a day.
    let (product, given) = with_overdue_fee(100, dec!(100));
    let events = run(
        test_with(product, at(3)),
        given,
        OrderCommand::AccrueOverdue,
    );
    let day = |n| at(n).date_naive();
    assert_eq!(
        events,
        vec![
            OrderEvent::InstallmentOverdue {
                period: 1,
                due_date: day(1),
                day_start: day_start(day(1).succ_opt().unwrap()),
            },
            OrderEvent::OverdueFeeCharged {
                period: 1,
                from: day(2),
                through: day(3),
                amount: dec!(26.98),
                day_start: day_start(day(3)),
            },
            OrderEvent::InstallmentOverdue {
                period: 2,
                due_date: day(2),
                day_start: day_start(day(2).succ_opt().unwrap()),
            },
            OrderEvent::OverdueFeeCharged {
                period: 2,
                from: day(3),
                through: day(3),
                amount: dec!(13.49),
                day_start: day_start(day(3)),
            },
            OrderEvent::DelinquencyChanged {
                bucket: "1-30".to_string(),
                days_past_due: 2,
                leaves_at: Some(31),
                on: day(3),
                day_start: day_start(day(3)),
            },
        ]
    );
}

#[test]
fn overdue_accrual_is_idempotent_within_a_day() {
    let (product, mut given) = with_overdue_fee(100, dec!(100));
    let first = run(
        test_with(product.clone(), at(3)),
        given.clone(),
        OrderCommand::AccrueOverdue,
    );
    given.extend(first);
    test_with(product, at(3))
        .given(given)
        .when(OrderCommand::AccrueOverdue)
        .then_expect_events(vec![]);
}

#[test]
fn overdue_fees_never_push_total_cost_above_the_cap() {
    // Cap at 1.3 % of 80,000 = 1,040: interest 960 leaves 80 for fees, however late.
    let (product, given) = with_overdue_fee(100, dec!(1.3));
    let events = run(
        test_with(product, at(60)),
        given.clone(),
        OrderCommand::AccrueOverdue,
    );
    let fees: Decimal = events
        .iter()
        .filter_map(|e| match e {
            OrderEvent::OverdueFeeCharged { amount, .. } => Some(*amount),
            _ => None,
        })
        .sum();
    assert_eq!(fees, dec!(80.00));
    let mut all = given;
    all.extend(events);
    let order = fold(all);
    assert_eq!(order.outstanding(), dec!(80960.0) + dec!(80));
    let statuses: Vec<u8> = order
        .loan
        .unwrap()
        .schedule
        .iter()
        .map(|i| i.status().code())
        .collect();
    assert_eq!(statuses, vec![2; 6]);
}

#[test]
fn with_no_overdue_rate_nothing_is_charged_only_marked() {
    let events = run(test_at(at(2)), disbursed(), OrderCommand::AccrueOverdue);
    assert_eq!(
        events,
        vec![
            OrderEvent::InstallmentOverdue {
                period: 1,
                due_date: at(1).date_naive(),
                day_start: day_start(at(1).date_naive().succ_opt().unwrap()),
            },
            OrderEvent::DelinquencyChanged {
                bucket: "1-30".to_string(),
                days_past_due: 1,
                leaves_at: Some(31),
                on: at(2).date_naive(),
                day_start: day_start(at(2).date_naive()),
            },
        ]
    );
}

// ---- a payment the workflow applied late (P11, 12.1) ----------------------------------------

/// The loan of [`with_overdue_fee`] at `rate` (100: 0.1 %/day), with a payment page
/// opened five minutes before `arrived` for `amount`, and what the scheduler did before
/// the loan workflow applied the payment: a pass of `AccrueOverdue` at each of
/// `passes`.
fn paid_before_the_scheduler_ran(
    rate: u32,
    arrived: DateTime<Utc>,
    amount: Decimal,
    passes: &[DateTime<Utc>],
) -> (Product, Vec<OrderEvent>) {
    let (product, mut given) = with_overdue_fee(rate, dec!(100));
    given.push(OrderEvent::PaymentSessionOpened {
        session_id: session(1),
        amount,
        expires_at: arrived + chrono::Duration::minutes(25),
        at: arrived - chrono::Duration::minutes(5),
    });
    for pass in passes {
        given.extend(run(
            test_with(product.clone(), *pass),
            given.clone(),
            OrderCommand::AccrueOverdue,
        ));
    }
    (product, given)
}

fn fees(order: &Order) -> Vec<Decimal> {
    order
        .loan
        .as_ref()
        .unwrap()
        .schedule
        .iter()
        .map(|i| i.fee)
        .collect()
}

#[test]
fn a_payment_that_arrived_on_the_due_day_is_charged_no_overdue_fee_however_late_the_workflow_runs_p11(
) {
    // Installment 1 (13,493.3) is due on day 1. Its amount arrives at 23:59:59 that day;
    // the scheduler marks it overdue and charges day 2 (13.49) at 00:00:01, before the
    // workflow hands the payment to the order at 00:00:06.
    // 23:59:59 on the loan's calendar (Manila).
    let arrived = manila_terms(6).day_start(at(2).date_naive()) - chrono::Duration::seconds(1);
    let pass = arrived + chrono::Duration::seconds(2);
    let (product, given) = paid_before_the_scheduler_ran(100, arrived, dec!(13493.3), &[pass]);
    assert_eq!(fees(&fold(given.clone()))[0], dec!(13.49));
    let workflow_runs = arrived + chrono::Duration::seconds(7);
    let events = run(
        test_with(product, workflow_runs),
        given.clone(),
        recharge_received("pay-1", 1, dec!(13493.3), arrived),
    );
    let day2 = at(2).date_naive();
    assert_eq!(
        events,
        vec![
            OrderEvent::OverdueReversed {
                period: 1,
                from: Some(day2),
                through: Some(day2),
                amount: dec!(13.49),
                payment_ref: "pay-1".into(),
                at: arrived,
                day_start: day_start(day2),
            },
            OrderEvent::PaymentSessionPaid {
                session_id: session(1),
                payment_ref: "pay-1".into(),
                amount: dec!(13493.3),
                at: arrived,
            },
            OrderEvent::RepaymentReceived {
                payment_ref: "pay-1".into(),
                amount: dec!(13493.3),
                allocations: vec![Allocation {
                    period: 1,
                    amount: dec!(13493.3),
                }],
                source: RepaymentSource::Recharge,
                at: arrived,
            },
            // The scheduler had moved the loan to 1-30; the payment moves it back.
            OrderEvent::DelinquencyChanged {
                bucket: "current".to_string(),
                days_past_due: 0,
                leaves_at: Some(1),
                on: day2,
                day_start: day_start(day2),
            },
        ]
    );
    let mut all = given;
    all.extend(events);
    let order = fold(all);
    let first = &order.loan.as_ref().unwrap().schedule[0];
    assert_eq!(
        (first.fee, first.overdue, first.fees_through),
        (dec!(0), false, None)
    );
    assert_eq!(first.status(), crate::order::InstallmentStatus::Repaid);
    assert_eq!(order.outstanding(), dec!(80960.0) - dec!(13493.3));
}

#[test]
fn a_part_payment_applied_late_is_charged_as_if_applied_when_it_arrived_p11() {
    // 5,000 of installment 1 arrives at noon on its due day; the scheduler charges
    // days 2 and 3 (installment 2 is due on day 2) before the workflow runs on day 3.
    let arrived = at(1).date_naive().and_hms_opt(12, 0, 0).unwrap().and_utc();
    let passes = [arrived + Days::new(1), arrived + Days::new(2)];
    let (product, given) = paid_before_the_scheduler_ran(100, arrived, dec!(5000), &passes);
    assert_eq!(
        &fees(&fold(given.clone()))[..2],
        &[dec!(26.98), dec!(13.49)]
    );
    let workflow_runs = arrived + Days::new(2) + chrono::Duration::hours(1);
    let events = run(
        test_with(product.clone(), workflow_runs),
        given.clone(),
        recharge_received("pay-1", 1, dec!(5000), arrived),
    );
    let (day2, day3) = (at(2).date_naive(), at(3).date_naive());
    assert_eq!(
        events[..2],
        [
            OrderEvent::OverdueReversed {
                period: 1,
                from: Some(day2),
                through: Some(day3),
                amount: dec!(26.98),
                payment_ref: "pay-1".into(),
                at: arrived,
                day_start: day_start(day3),
            },
            OrderEvent::OverdueReversed {
                period: 2,
                from: Some(day3),
                through: Some(day3),
                amount: dec!(13.49),
                payment_ref: "pay-1".into(),
                at: arrived,
                day_start: day_start(day3),
            },
        ]
    );
    let mut all = given;
    all.extend(events);
    let order = fold(all.clone());
    // Installment 1 is charged days 2 and 3 on the 8,493.3 left (8.49 a day); 2 as before.
    assert_eq!(&fees(&order)[..2], &[dec!(16.98), dec!(13.49)]);
    let schedule = &order.loan.as_ref().unwrap().schedule;
    assert!(schedule[0].overdue && schedule[1].overdue);
    assert_eq!(schedule[0].fees_through, Some(day3));
    assert_eq!(
        order.outstanding(),
        dec!(80960.0) - dec!(5000) + dec!(16.98) + dec!(13.49)
    );
    // The scheduler's next pass that day finds nothing left to charge.
    test_with(product, workflow_runs)
        .given(all)
        .when(OrderCommand::AccrueOverdue)
        .then_expect_events(vec![]);
}

#[test]
fn a_fee_already_paid_when_it_is_taken_back_counts_toward_the_next_installments_p11() {
    // Installment 1's amount arrives at 23:59:59 on its due day; the scheduler charges
    // day 2 (13.49) at 00:00:01; at 09:00 an auditor enters a bank transfer of the
    // installment with that fee; at 10:00 the workflow applies the first payment.
    // 23:59:59 on the loan's calendar (Manila).
    let arrived = manila_terms(6).day_start(at(2).date_naive()) - chrono::Duration::seconds(1);
    let pass = arrived + chrono::Duration::seconds(2);
    let (product, mut given) = paid_before_the_scheduler_ran(100, arrived, dec!(13493.3), &[pass]);
    let nine = at(2).date_naive().and_hms_opt(9, 0, 0).unwrap().and_utc();
    given.extend(run(
        test_with(product.clone(), nine),
        given.clone(),
        repay("bank-1", dec!(13506.79)),
    ));
    let ten = nine + chrono::Duration::hours(1);
    let events = run(
        test_with(product, ten),
        given.clone(),
        recharge_received("pay-1", 1, dec!(13493.3), arrived),
    );
    assert!(
        matches!(&events[0], OrderEvent::OverdueReversed { period: 1, amount, .. } if *amount == dec!(13.49)),
        "{events:?}"
    );
    let mut all = given;
    all.extend(events);
    let order = fold(all);
    let loan = order.loan.as_ref().unwrap();
    // The 13.49 paid toward the fee taken back went to installment 2: no installment is
    // paid beyond what it asks, and the schedule holds every payment.
    assert!(
        loan.schedule.iter().all(|i| i.paid <= i.due()),
        "{:?}",
        loan.schedule
    );
    let paid: Decimal = loan.schedule.iter().map(|i| i.paid).sum();
    assert_eq!(paid, loan.repaid);
    assert_eq!(loan.repaid, dec!(13506.79) + dec!(13493.3));
    assert_eq!(loan.fees_charged(), dec!(0));
    assert_eq!(order.outstanding(), dec!(80960.0) - loan.repaid);
}

#[test]
fn an_overdue_mark_taken_back_is_set_again_when_the_payment_left_the_installment_owed_p11() {
    // No overdue fee (rate 0): 5,000 of installment 1 arrives at noon on its due day;
    // the scheduler marks it overdue at 01:00 the next day, the workflow runs at 02:00.
    let arrived = at(1).date_naive().and_hms_opt(12, 0, 0).unwrap().and_utc();
    let pass = at(2).date_naive().and_hms_opt(1, 0, 0).unwrap().and_utc();
    let (product, given) = paid_before_the_scheduler_ran(0, arrived, dec!(5000), &[pass]);
    let events = run(
        test_with(product, pass + chrono::Duration::hours(1)),
        given,
        recharge_received("pay-1", 1, dec!(5000), arrived),
    );
    let names: Vec<String> = events
        .iter()
        .map(cqrs_es::DomainEvent::event_type)
        .collect();
    assert_eq!(
        names,
        [
            "OverdueReversed",
            "PaymentSessionPaid",
            "RepaymentReceived",
            "InstallmentOverdue"
        ]
    );
    assert!(matches!(
        &events[0],
        OrderEvent::OverdueReversed { period: 1, from: None, through: None, amount, .. }
            if amount.is_zero()
    ));
}

#[test]
fn a_payment_refunded_whole_takes_back_no_overdue_fee_p11() {
    // The payment page had expired when the money arrived: nothing is applied, so the
    // charges since stand.
    let arrived = at(1).date_naive().and_hms_opt(12, 0, 0).unwrap().and_utc();
    let (product, given) =
        paid_before_the_scheduler_ran(100, arrived, dec!(5000), &[arrived + Days::new(1)]);
    let late = arrived + chrono::Duration::minutes(40);
    let events = run(
        test_with(product, arrived + Days::new(1) + chrono::Duration::hours(1)),
        given,
        recharge_received("pay-1", 1, dec!(5000), late),
    );
    assert!(
        events
            .iter()
            .all(|e| !matches!(e, OrderEvent::OverdueReversed { .. })),
        "{events:?}"
    );
    assert!(matches!(
        events.last(),
        Some(OrderEvent::PaymentRefundDue { reason, .. }) if reason == "the payment page had expired"
    ));
}

// ---- no ad-hoc charges (P11) ---------------------------------------------------------------

#[test]
fn no_auditor_or_borrower_command_increases_what_is_owed_p11() {
    // Every command that is not a scheduler accrual is tried against a disbursed loan;
    // none may raise the amount owed. (The only charges are interest, fixed at payout,
    // and capped overdue fees from AccrueOverdue.)
    let before = fold(disbursed()).outstanding();
    let commands = vec![
        OrderCommand::StartReview {
            auditor_id: auditor_1(),
        },
        OrderCommand::RequestResubmission {
            auditor_id: auditor_1(),
            reason: "x".into(),
            items: vec![ResubmissionItem::Photos],
        },
        OrderCommand::Resubmit {
            fixed: ResubmissionItem::ALL.to_vec(),
        },
        OrderCommand::PassFirstAudit {
            auditor_id: auditor_1(),
            note: "x".into(),
            identity_verified: true,
        },
        OrderCommand::PassFinalAudit {
            auditor_id: auditor_2(),
            note: "x".into(),
        },
        OrderCommand::Refuse {
            auditor_id: auditor_1(),
            reason: "x".into(),
            reasons: vec![],
        },
        OrderCommand::Cancel,
        OrderCommand::ExpireOffer,
        withdraw(dec!(1000)),
        OrderCommand::RecordPayoutSucceeded {
            payout_id: payout_id(),
        },
        OrderCommand::RecordPayoutFailed {
            payout_id: payout_id(),
            reason: "x".into(),
        },
        OrderCommand::ReceiveRepayment {
            payment_ref: "manual-1".into(),
            amount: dec!(1000),
            source: RepaymentSource::Manual {
                auditor_id: auditor_1(),
            },
            session_id: None,
            received_at: None,
        },
        OrderCommand::SendReminder {
            period: 7,
            kind: ReminderKind::Overdue,
        },
    ];
    for command in commands {
        let mut history = disbursed();
        if let Ok(events) = test_at(at(8))
            .given(disbursed())
            .when(command.clone())
            .inspect_result()
        {
            history.extend(events);
        }
        let after = fold(history).outstanding();
        assert!(
            after <= before,
            "{command:?} raised the debt {before} → {after}"
        );
    }
}

// ---- history (P9) ---------------------------------------------------------------------------

#[test]
fn the_state_as_of_any_event_is_the_fold_of_the_events_before_it_p9() {
    let history = disbursed();
    let states = states_after_each::<Order>(history.clone());
    assert_eq!(states.len(), history.len());
    let codes: Vec<u8> = states.iter().map(|s| s.status.code()).collect();
    assert_eq!(codes, vec![0, 1, 3, 9, 9, 4]);
    for (k, state) in states.iter().enumerate() {
        assert_eq!(*state, state_as_of::<Order>(history.clone(), k + 1));
    }
    assert_eq!(state_as_of::<Order>(history, 0), Order::default());
}

#[test]
fn every_order_error_maps_to_its_catalogue_code() {
    let table = [
        (OrderError::InvalidInput(InvalidInput::new("x", "y")), 10004),
        (OrderError::Terms(crate::pricing::TermsError::Period), 10004),
        (OrderError::ProductDisabled, 10004),
        (OrderError::ProductNotFound, 40007),
        (
            OrderError::Compliance(crate::pricing::ComplianceBreach::Period {
                period_days: 1,
                max: 0,
            }),
            40003,
        ),
        (OrderError::AlreadyApplied, 40005),
        (OrderError::NotFound, 40007),
        (
            OrderError::WrongStatus {
                status: 0,
                action: "x",
            },
            10004,
        ),
        (OrderError::IdentityNotVerified, 40000),
        (OrderError::SameAuditor, 10004),
        (OrderError::OfferExpired, 40004),
        (OrderError::InsufficientBalance, 40006),
        (OrderError::PayoutInFlight, 40006),
        (OrderError::AccountNotInBorrowersName, 10028),
        (OrderError::UnknownPayout, 40007),
        (OrderError::NothingOwed, 40007),
        (
            OrderError::RepaymentAmount {
                min: dec!(1),
                max: dec!(2),
            },
            40001,
        ),
        (OrderError::OfferStillValid, 10004),
    ];
    for (error, code) in table {
        assert_eq!(error.code().code(), code, "{error:?}");
    }
    let _ = ComplianceProfile::Ph; // the profile used by the services above
    let _: OrderServices = order_services(Arc::new(FixedClock::at(test_now())));
}

// ---- payment sessions and refunds (P1, 12.1) ----------------------------------------

fn session(n: u128) -> Uuid {
    Uuid::from_u128(0x5E55_0000 + n)
}

fn open_session(n: u128, amount: Decimal) -> OrderCommand {
    OrderCommand::OpenPaymentSession {
        session_id: session(n),
        amount,
    }
}

fn session_opened(n: u128, amount: Decimal) -> OrderEvent {
    OrderEvent::PaymentSessionOpened {
        session_id: session(n),
        amount,
        expires_at: test_now() + chrono::Duration::minutes(30),
        at: test_now(),
    }
}

fn recharge(payment_ref: &str, n: u128, amount: Decimal) -> OrderCommand {
    OrderCommand::ReceiveRepayment {
        payment_ref: payment_ref.to_string(),
        amount,
        source: RepaymentSource::Recharge,
        session_id: Some(session(n)),
        received_at: None,
    }
}

fn refund(payment_ref: &str, amount: Decimal, reason: &str) -> OrderEvent {
    OrderEvent::PaymentRefundDue {
        payment_ref: payment_ref.to_string(),
        amount,
        reason: reason.to_string(),
        at: test_now(),
    }
}

fn paid(payment_ref: &str, n: u128, amount: Decimal) -> OrderEvent {
    OrderEvent::PaymentSessionPaid {
        session_id: session(n),
        payment_ref: payment_ref.to_string(),
        amount,
        at: test_now(),
    }
}

#[test]
fn open_payment_sessions_never_exceed_todays_payoff_p1() {
    // Paid out today, within cooling-off: the payoff is the principal, 80,000 (P12).
    let mut given = disbursed();
    for n in 0..3 {
        given.push(session_opened(n, dec!(20000)));
    }
    given.push(session_opened(3, dec!(19900)));
    test()
        .given(given.clone())
        .when(open_session(4, dec!(100)))
        .then_expect_events(vec![session_opened(4, dec!(100))]);
    // 200 does not fit beside the open pages: they give way to the new one (issue 52),
    // so the pages open together still never exceed the payoff.
    let events = run(test(), given.clone(), open_session(4, dec!(200)));
    let replaced: Vec<OrderEvent> = (0..4)
        .map(|n| OrderEvent::PaymentSessionReplaced {
            session_id: session(n),
            by: session(4),
            at: test_now(),
        })
        .collect();
    assert_eq!(events[..4], replaced[..]);
    assert_eq!(events[4], session_opened(4, dec!(200)));
    let mut after = given.clone();
    after.extend(events);
    assert_eq!(fold(after).open_sessions_total(test_now()), dec!(200));
    // An amount the payoff itself does not allow is still refused, nothing replaced.
    test()
        .given(given.clone())
        .when(open_session(4, dec!(90000)))
        .then_expect_error(OrderError::RepaymentAmount {
            min: dec!(100),
            max: dec!(20000),
        });
    // An expired session no longer holds any of the payoff.
    let later = test_now() + chrono::Duration::minutes(31);
    let events = run(test_at(later), given, open_session(4, dec!(20000)));
    assert_eq!(events.len(), 1);
}

#[test]
fn a_page_left_unpaid_never_blocks_the_payoff_and_is_refunded_if_paid_later() {
    // Given a 20,000 page left open, when the borrower opens one for the whole
    // payoff (80,000, cooling-off), then the old page is replaced and the payoff
    // opens (issue 52); money that still arrives on the old page is refunded in full.
    let mut given = disbursed();
    given.push(session_opened(1, dec!(20000)));
    test()
        .given(given.clone())
        .when(open_session(2, dec!(80000)))
        .then_expect_events(vec![
            OrderEvent::PaymentSessionReplaced {
                session_id: session(1),
                by: session(2),
                at: test_now(),
            },
            session_opened(2, dec!(80000)),
        ]);
    given.push(OrderEvent::PaymentSessionReplaced {
        session_id: session(1),
        by: session(2),
        at: test_now(),
    });
    given.push(session_opened(2, dec!(80000)));
    let events = run(test(), given, recharge("late", 1, dec!(20000)));
    assert_eq!(
        events,
        vec![
            paid("late", 1, dec!(20000)),
            refund("late", dec!(20000), "the payment page was already closed"),
        ]
    );
}

#[test]
fn todays_payoff_is_paid_in_one_payment_whatever_repay_max_says_p12() {
    // Paid out today (cooling-off): the payoff is the principal, 80,000, four times
    // repay_max (20,000). One page for all of it opens, and its payment closes the loan.
    let given = disbursed();
    test()
        .given(given.clone())
        .when(open_session(1, dec!(80000)))
        .then_expect_events(vec![session_opened(1, dec!(80000))]);
    let mut paid_off = given.clone();
    paid_off.push(session_opened(1, dec!(80000)));
    let events = run(test(), paid_off.clone(), recharge("payoff", 1, dec!(80000)));
    assert_eq!(events[0], paid("payoff", 1, dec!(80000)));
    assert!(
        matches!(
            events.last(),
            Some(OrderEvent::LoanRepaid {
                cooling_off: true,
                ..
            })
        ),
        "{events:?}"
    );
    paid_off.extend(events);
    assert_eq!(fold(paid_off).status.code(), 10);
    // Any other amount above repay_max is still refused.
    test()
        .given(given)
        .when(open_session(2, dec!(30000)))
        .then_expect_error(OrderError::RepaymentAmount {
            min: dec!(100),
            max: dec!(20000),
        });
}

#[test]
fn the_installments_due_today_are_paid_in_one_payment_whatever_repay_max_says() {
    // 80,000 over 6 days, three days later: three installments are due, above 20,000
    // together, and below the payoff (the principal, within cooling-off).
    let later = test_now() + chrono::Duration::days(3);
    let order = fold(disbursed());
    let loan = order.loan.clone().unwrap();
    let due = loan.due_on(later.date_naive());
    assert!(due > dec!(20000), "{due}");
    let payoff = order.payoff_at(later);
    assert!(due <= payoff);
    let events = run(test_at(later), disbursed(), open_session(1, due));
    assert!(
        matches!(events.as_slice(), [OrderEvent::PaymentSessionOpened { amount, .. }] if *amount == due),
        "{events:?}"
    );
}

#[test]
fn no_payment_session_opens_before_the_payout_or_after_closing_p1() {
    test()
        .given(approved(dec!(80000), 6))
        .when(open_session(1, dec!(1000)))
        .then_expect_error(OrderError::NothingOwed);
}

#[test]
fn a_session_payment_is_applied_and_the_session_closes_p1() {
    let mut given = disbursed();
    given.push(session_opened(1, dec!(5000)));
    let events = run(test(), given.clone(), recharge("pay-1", 1, dec!(5000)));
    assert_eq!(events[0], paid("pay-1", 1, dec!(5000)));
    assert!(matches!(
        events[1],
        OrderEvent::RepaymentReceived { amount, .. } if amount == dec!(5000)
    ));
    assert_eq!(events.len(), 2);
    // The same session paid again (another payment reference): refunded in full.
    given.extend(events);
    test()
        .given(given)
        .when(recharge("pay-2", 1, dec!(5000)))
        .then_expect_events(vec![
            paid("pay-2", 1, dec!(5000)),
            refund("pay-2", dec!(5000), "the payment page was already closed"),
        ]);
}

#[test]
fn paying_a_stale_session_is_refunded_in_full_p1() {
    let mut given = disbursed();
    given.push(session_opened(1, dec!(5000)));
    let later = test_now() + chrono::Duration::minutes(31);
    let events = run(test_at(later), given, recharge("pay-1", 1, dec!(5000)));
    assert!(matches!(
        &events[1],
        OrderEvent::PaymentRefundDue { amount, reason, .. }
            if *amount == dec!(5000) && reason == "the payment page had expired"
    ));
    assert_eq!(events.len(), 2);
}

/// `recharge` of money that arrived at `received_at`.
fn recharge_received(
    payment_ref: &str,
    n: u128,
    amount: Decimal,
    received_at: DateTime<Utc>,
) -> OrderCommand {
    OrderCommand::ReceiveRepayment {
        payment_ref: payment_ref.to_string(),
        amount,
        source: RepaymentSource::Recharge,
        session_id: Some(session(n)),
        received_at: Some(received_at),
    }
}

#[test]
fn a_payment_made_in_time_is_applied_however_late_the_workflow_runs_p1() {
    // Paid at minute 20 of the 30-minute page; the workflow was down until minute 40.
    let mut given = disbursed();
    given.push(session_opened(1, dec!(5000)));
    let paid_at = test_now() + chrono::Duration::minutes(20);
    let workflow_runs = test_now() + chrono::Duration::minutes(40);
    let events = run(
        test_at(workflow_runs),
        given,
        recharge_received("pay-1", 1, dec!(5000), paid_at),
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, OrderEvent::PaymentRefundDue { .. })),
        "refunded: {events:?}"
    );
    assert!(matches!(
        events.last(),
        Some(OrderEvent::RepaymentReceived { amount, at, .. })
            if *amount == dec!(5000) && *at == paid_at
    ));
}

#[test]
fn an_arrival_time_past_the_orders_clock_is_not_believed_p1() {
    let mut given = disbursed();
    given.push(session_opened(1, dec!(5000)));
    let now = test_now() + chrono::Duration::minutes(31);
    let claimed = test_now() + chrono::Duration::minutes(60);
    let events = run(
        test_at(now),
        given,
        recharge_received("pay-1", 1, dec!(5000), claimed),
    );
    assert!(matches!(
        &events[1],
        OrderEvent::PaymentRefundDue { amount, reason, at, .. }
            if *amount == dec!(5000) && reason == "the payment page had expired" && *at == now
    ));
}

#[test]
fn a_payoff_that_arrived_on_the_last_cooling_off_day_closes_the_loan_free_after_midnight_p12() {
    // Paid out on 22 November; day 7 (29 November) is the last day of cooling-off.
    // The principal arrives at 23:59:59 Manila (the loan's days are Manila days) and
    // the workflow takes it at 00:00:05.
    let arrived = Utc.with_ymd_and_hms(2026, 11, 29, 15, 59, 59).unwrap();
    let mut given = disbursed();
    given.push(OrderEvent::PaymentSessionOpened {
        session_id: session(1),
        amount: dec!(80000),
        expires_at: arrived + chrono::Duration::minutes(25),
        at: arrived - chrono::Duration::minutes(5),
    });
    let workflow_runs = arrived + chrono::Duration::seconds(6);
    let events = run(
        test_at(workflow_runs),
        given,
        recharge_received("pay-1", 1, dec!(80000), arrived),
    );
    assert!(
        matches!(
            events.last(),
            Some(OrderEvent::LoanRepaid { cooling_off: true, fees_waived, at, .. })
                if fees_waived.is_zero() && *at == arrived
        ),
        "{events:?}"
    );
}

#[test]
fn a_payment_above_its_session_applies_the_session_and_refunds_the_rest_p1() {
    let mut given = disbursed();
    given.push(session_opened(1, dec!(100)));
    test()
        .given(given)
        .when(recharge("pay-1", 1, dec!(1000000)))
        .then_expect_events(vec![
            paid("pay-1", 1, dec!(1000000)),
            refund(
                "pay-1",
                dec!(999900),
                "the amount differs from the payment page's",
            ),
            OrderEvent::RepaymentReceived {
                payment_ref: "pay-1".into(),
                amount: dec!(100),
                allocations: vec![Allocation {
                    period: 1,
                    amount: dec!(100),
                }],
                source: RepaymentSource::Recharge,
                at: test_now(),
            },
        ]);
}

#[test]
fn a_late_payment_on_a_closed_loan_is_refunded_p1() {
    // Paid off with the whole payoff on session 1; session 2 was opened before.
    let mut given = disbursed();
    given.push(session_opened(1, dec!(20000)));
    given.push(session_opened(2, dec!(100)));
    for n in 0..4 {
        let payment = repay(&format!("bank-{n}"), dec!(20000));
        given.extend(run(test(), given.clone(), payment));
    }
    assert_eq!(fold(given.clone()).status, OrderStatus::Repaid);
    test()
        .given(given)
        .when(recharge("late", 2, dec!(100)))
        .then_expect_events(vec![
            paid("late", 2, dec!(100)),
            refund("late", dec!(100), "nothing is owed on this loan"),
        ]);
}

#[test]
fn a_payment_without_a_session_is_refunded_p1() {
    test()
        .given(disbursed())
        .when(OrderCommand::ReceiveRepayment {
            payment_ref: "stray".into(),
            amount: dec!(500),
            source: RepaymentSource::Recharge,
            session_id: None,
            received_at: None,
        })
        .then_expect_events(vec![refund(
            "stray",
            dec!(500),
            "no payment page was opened for this payment",
        )]);
}

#[test]
fn a_failed_session_frees_its_amount_and_is_never_paid_p1() {
    let mut given = disbursed();
    given.push(session_opened(1, dec!(80000)));
    // An open page holding the whole payoff gives way to a new one (issue 52).
    test()
        .given(given.clone())
        .when(open_session(2, dec!(100)))
        .then_expect_events(vec![
            OrderEvent::PaymentSessionReplaced {
                session_id: session(1),
                by: session(2),
                at: test_now(),
            },
            session_opened(2, dec!(100)),
        ]);
    given.push(OrderEvent::PaymentSessionFailed {
        session_id: session(1),
        at: test_now(),
    });
    assert_eq!(
        run(test(), given.clone(), open_session(2, dec!(100))).len(),
        1
    );
    test()
        .given(given)
        .when(recharge("after-failure", 1, dec!(80000)))
        .then_expect_events(vec![
            paid("after-failure", 1, dec!(80000)),
            refund(
                "after-failure",
                dec!(80000),
                "the payment page was already closed",
            ),
        ]);
}

fn manual_by(payment_ref: &str, amount: Decimal, auditor_id: Uuid) -> OrderCommand {
    OrderCommand::ReceiveRepayment {
        payment_ref: payment_ref.to_string(),
        amount,
        source: RepaymentSource::Manual { auditor_id },
        session_id: None,
        received_at: None,
    }
}

#[test]
fn a_manual_repayment_above_20000_needs_a_second_auditor() {
    let proposed = OrderEvent::ManualRepaymentProposed {
        payment_ref: "manual:BANK-9".into(),
        amount: dec!(25000),
        auditor_id: auditor_1(),
        at: test_now(),
    };
    test()
        .given(disbursed())
        .when(manual_by("manual:BANK-9", dec!(25000), auditor_1()))
        .then_expect_events(vec![proposed.clone()]);
    let mut given = disbursed();
    given.push(proposed);
    // The same auditor cannot confirm their own entry, nor anyone another amount.
    test()
        .given(given.clone())
        .when(manual_by("manual:BANK-9", dec!(25000), auditor_1()))
        .then_expect_error(OrderError::SecondAuditorRequired);
    test()
        .given(given.clone())
        .when(manual_by("manual:BANK-9", dec!(25000.5), auditor_2()))
        .then_expect_error(OrderError::ManualAmountMismatch);
    let events = run(
        test(),
        given,
        manual_by("manual:BANK-9", dec!(25000), auditor_2()),
    );
    assert!(matches!(
        &events[0],
        OrderEvent::RepaymentReceived { amount, source: RepaymentSource::Manual { auditor_id }, .. }
            if *amount == dec!(25000) && *auditor_id == auditor_2()
    ));
}

#[test]
fn a_manual_repayment_above_what_is_owed_is_refunded_not_kept_p1() {
    // 80,000 owed (cooling-off): two auditors record a transfer of 90,000.
    let mut given = disbursed();
    given.extend(run(
        test(),
        given.clone(),
        manual_by("manual:BIG", dec!(90000), auditor_1()),
    ));
    let events = run(
        test(),
        given,
        manual_by("manual:BIG", dec!(90000), auditor_2()),
    );
    assert_eq!(
        events[0],
        refund("manual:BIG", dec!(10000), "more than is owed was paid")
    );
    assert!(matches!(
        events[1],
        OrderEvent::RepaymentReceived { amount, .. } if amount == dec!(80000)
    ));
    assert!(matches!(events[2], OrderEvent::LoanRepaid { .. }));
}

#[test]
fn notes_and_reasons_longer_than_500_characters_are_refused() {
    let pass = OrderCommand::PassFirstAudit {
        auditor_id: auditor_1(),
        note: "n".repeat(501),
        identity_verified: true,
    };
    test()
        .given(in_first_review())
        .when(pass)
        .then_expect_error(InvalidInput::new("note", "at most 500 characters").into());
    let resubmit = OrderCommand::RequestResubmission {
        auditor_id: auditor_1(),
        reason: "r".repeat(501),
        items: vec![ResubmissionItem::Photos],
    };
    test()
        .given(in_first_review())
        .when(resubmit)
        .then_expect_error(InvalidInput::new("reason", "at most 500 characters").into());
}

// ---- due-date reminders (PRODUCT.md 12.5) -------------------------------------------------

fn remind(period: u32, kind: ReminderKind) -> OrderCommand {
    OrderCommand::SendReminder { period, kind }
}

fn reminder_due(period: u32, kind: ReminderKind, day: u64, amount: Decimal) -> OrderEvent {
    OrderEvent::ReminderDue {
        period,
        kind,
        due_date: at(period.into()).date_naive(),
        amount,
        at: at(day),
    }
}

#[test]
fn a_reminder_three_days_before_the_due_date_is_recorded_with_the_amount_owed() {
    // Installment 4 is due on day 4: its 3-day reminder falls on day 1.
    test_at(at(1))
        .given(disbursed())
        .when(remind(4, ReminderKind::DueIn3Days))
        .then_expect_events(vec![reminder_due(
            4,
            ReminderKind::DueIn3Days,
            1,
            dec!(13493.3),
        )]);
}

#[test]
fn a_reminder_one_day_before_the_due_date_is_recorded_on_the_payout_day() {
    // Installment 1 is due the day after the payout.
    test_at(test_now())
        .given(disbursed())
        .when(remind(1, ReminderKind::DueIn1Day))
        .then_expect_events(vec![reminder_due(
            1,
            ReminderKind::DueIn1Day,
            0,
            dec!(13493.3),
        )]);
}

#[test]
fn each_reminder_of_an_installment_is_recorded_once() {
    let mut given = disbursed();
    given.push(reminder_due(4, ReminderKind::DueIn3Days, 1, dec!(13493.3)));
    test_at(at(1))
        .given(given.clone())
        .when(remind(4, ReminderKind::DueIn3Days))
        .then_expect_events(vec![]);
    // Another kind or another installment is a reminder of its own.
    test_at(at(1))
        .given(given.clone())
        .when(remind(2, ReminderKind::DueIn1Day))
        .then_expect_events(vec![reminder_due(
            2,
            ReminderKind::DueIn1Day,
            1,
            dec!(13493.3),
        )]);
    test_at(at(3))
        .given(given)
        .when(remind(4, ReminderKind::DueIn1Day))
        .then_expect_events(vec![reminder_due(
            4,
            ReminderKind::DueIn1Day,
            3,
            dec!(13493.3),
        )]);
}

#[test]
fn a_paid_installment_is_not_reminded() {
    // 13,493.30 pays installment 1 in full (oldest first); 2 is still owed.
    let mut given = disbursed();
    given.extend(run(test(), disbursed(), repay("bank-1", dec!(13493.3))));
    test_at(test_now())
        .given(given.clone())
        .when(remind(1, ReminderKind::DueIn1Day))
        .then_expect_events(vec![]);
    test_at(at(1))
        .given(given)
        .when(remind(2, ReminderKind::DueIn1Day))
        .then_expect_events(vec![reminder_due(
            2,
            ReminderKind::DueIn1Day,
            1,
            dec!(13493.3),
        )]);
}

#[test]
fn a_partly_paid_installment_is_reminded_of_what_is_left() {
    let mut given = disbursed();
    given.extend(run(test(), disbursed(), repay("bank-1", dec!(20000))));
    // 20,000 covers installment 1 and 6,506.70 of installment 2: 6,986.60 is left.
    test_at(at(1))
        .given(given)
        .when(remind(2, ReminderKind::DueIn1Day))
        .then_expect_events(vec![reminder_due(
            2,
            ReminderKind::DueIn1Day,
            1,
            dec!(6986.6),
        )]);
}

#[test]
fn a_reminder_outside_its_window_records_nothing() {
    // Installment 4 (due day 4): its 3-day reminder may be recorded on days 1–2, its
    // 1-day reminder on days 3–4, its overdue reminder on days 5–11.
    for (kind, wrong_days) in [
        (ReminderKind::DueIn3Days, [0, 3, 4]),
        (ReminderKind::DueIn1Day, [1, 2, 5]),
        (ReminderKind::Overdue, [3, 4, 12]),
    ] {
        for day in wrong_days {
            test_at(at(day))
                .given(disbursed())
                .when(remind(4, kind))
                .then_expect_events(vec![]);
        }
    }
}

#[test]
fn a_reminder_day_the_scheduler_missed_is_made_up_while_its_window_is_open() {
    // Installment 4 is due on day 4. No pass ran on day 1 (the 3-day reminder's day)
    // or day 3 (the 1-day reminder's): each is recorded on the next day instead.
    test_at(at(2))
        .given(disbursed())
        .when(remind(4, ReminderKind::DueIn3Days))
        .then_expect_events(vec![reminder_due(
            4,
            ReminderKind::DueIn3Days,
            2,
            dec!(13493.3),
        )]);
    test_at(at(4))
        .given(disbursed())
        .when(remind(4, ReminderKind::DueIn1Day))
        .then_expect_events(vec![reminder_due(
            4,
            ReminderKind::DueIn1Day,
            4,
            dec!(13493.3),
        )]);
    // Overdue from day 5: after a week without passes, day 11 still tells the borrower.
    test_at(at(11))
        .given(disbursed())
        .when(remind(4, ReminderKind::Overdue))
        .then_expect_events(vec![reminder_due(
            4,
            ReminderKind::Overdue,
            11,
            dec!(13493.3),
        )]);
}

#[test]
fn a_reminder_whose_day_came_before_the_payout_is_not_sent() {
    // Installment 2 is due on day 2: its 3-day reminder's day was day −1, before the
    // loan was paid out on day 0, so it is not sent late; its 1-day reminder is.
    for day in [0, 1] {
        test_at(at(day))
            .given(disbursed())
            .when(remind(2, ReminderKind::DueIn3Days))
            .then_expect_events(vec![]);
    }
    test_at(at(1))
        .given(disbursed())
        .when(remind(2, ReminderKind::DueIn1Day))
        .then_expect_events(vec![reminder_due(
            2,
            ReminderKind::DueIn1Day,
            1,
            dec!(13493.3),
        )]);
}

#[test]
fn the_overdue_reminder_falls_on_the_day_the_installment_becomes_overdue() {
    // Installment 1 is due on day 1 and overdue from day 2 (PRODUCT.md 4.4); the
    // scheduler marks it first, then reminds.
    let mut given = disbursed();
    given.extend(run(
        test_at(at(2)),
        disbursed(),
        OrderCommand::AccrueOverdue,
    ));
    test_at(at(2))
        .given(given.clone())
        .when(remind(1, ReminderKind::Overdue))
        .then_expect_events(vec![reminder_due(
            1,
            ReminderKind::Overdue,
            2,
            dec!(13493.3),
        )]);
    // Not before it is overdue, and only once.
    test_at(at(1))
        .given(disbursed())
        .when(remind(1, ReminderKind::Overdue))
        .then_expect_events(vec![]);
    given.push(reminder_due(1, ReminderKind::Overdue, 2, dec!(13493.3)));
    test_at(at(2))
        .given(given)
        .when(remind(1, ReminderKind::Overdue))
        .then_expect_events(vec![]);
}

#[test]
fn the_overdue_reminder_states_the_fees_charged_with_the_installment() {
    // 0.1 %/day: on day 2, installment 1 carries one day's fee of 13.49.
    let (product, mut given) = with_overdue_fee(100, dec!(100));
    given.extend(run(
        test_with(product.clone(), at(2)),
        given.clone(),
        OrderCommand::AccrueOverdue,
    ));
    test_with(product, at(2))
        .given(given)
        .when(remind(1, ReminderKind::Overdue))
        .then_expect_events(vec![reminder_due(
            1,
            ReminderKind::Overdue,
            2,
            dec!(13506.79),
        )]);
}

#[test]
fn no_reminder_before_the_payout_after_closing_or_for_an_unknown_installment() {
    test_at(test_now())
        .given(approved(dec!(80000), 6))
        .when(remind(1, ReminderKind::DueIn1Day))
        .then_expect_events(vec![]);
    test_at(test_now())
        .given(disbursed())
        .when(remind(9, ReminderKind::DueIn1Day))
        .then_expect_events(vec![]);
    // Closed on day 3: nothing is owed, nothing is reminded (P12).
    let closed = repaid_within_cooling_off();
    assert_eq!(fold(closed.clone()).status, OrderStatus::Repaid);
    test_at(at(3))
        .given(closed)
        .when(remind(4, ReminderKind::DueIn1Day))
        .then_expect_events(vec![]);
    test()
        .given_no_previous_events()
        .when(remind(1, ReminderKind::DueIn1Day))
        .then_expect_error(OrderError::NotFound);
}

#[test]
fn a_reminder_never_changes_what_is_owed_p11() {
    let mut history = disbursed();
    history.push(reminder_due(4, ReminderKind::DueIn3Days, 1, dec!(13493.3)));
    let order = fold(history);
    assert_eq!(order.outstanding(), fold(disbursed()).outstanding());
    assert!(order.reminders.contains(&(4, ReminderKind::DueIn3Days)));
}

// ---- when the scheduler need ask (scheduling.rs) -------------------------------------------

/// Runs the scheduler's two commands on every day from the payout to day `last`
/// (except `skipped`, an outage), as a pass does: `AccrueOverdue`, then every
/// reminder. Checks, on each day, that `next_scheduled_day` was not after a day on
/// which something was recorded, and that `open_reminders` named exactly the
/// reminders recorded. Returns the history and the days on which something was recorded.
fn scheduler_days(
    product: Product,
    mut history: Vec<OrderEvent>,
    last: u64,
    skipped: &[u64],
) -> (Vec<OrderEvent>, Vec<u64>) {
    let mut busy = Vec::new();
    for day in (0..=last).filter(|day| !skipped.contains(day)) {
        let today = at(day).date_naive();
        let next = fold(history.clone()).next_scheduled_day();
        let accrued = run(
            test_with(product.clone(), at(day)),
            history.clone(),
            OrderCommand::AccrueOverdue,
        );
        let mut recorded = !accrued.is_empty();
        history.extend(accrued);
        let open = fold(history.clone()).open_reminders(today);
        let mut reminded = Vec::new();
        for period in 1..=7 {
            for kind in ReminderKind::ALL {
                let events = run(
                    test_with(product.clone(), at(day)),
                    history.clone(),
                    remind(period, kind),
                );
                if !events.is_empty() {
                    reminded.push((period, kind));
                }
                history.extend(events);
            }
        }
        assert_eq!(open, reminded, "day {day}: open reminders");
        recorded |= !reminded.is_empty();
        if recorded {
            busy.push(day);
            assert!(
                next.is_some_and(|next| next <= today),
                "day {day}: something was recorded, but the next scheduled day was {next:?}"
            );
        }
    }
    (history, busy)
}

#[test]
fn the_next_scheduled_day_is_never_after_a_day_the_scheduler_records_something() {
    // No overdue rate, nothing paid: installment k (due on day k) is reminded on days
    // k − 3, k − 1 and k + 1, and marked overdue on day k + 1; the last is day 7.
    let (history, busy) = scheduler_days(demo_product(), disbursed(), 20, &[]);
    assert_eq!(busy, (0..=7).collect::<Vec<_>>());
    // Every reminder is recorded and nothing accrues without a rate: the next day is
    // the one installment 1 (due on day 1) turns 31 days past due (issue 53's buckets).
    assert_eq!(
        fold(history).next_scheduled_day(),
        Some(at(32).date_naive())
    );
}

#[test]
fn with_an_overdue_rate_the_order_is_due_every_day_until_the_cap() {
    // Cap at 1.3 % of 80,000: interest 960 leaves 80 for fees (see above).
    let (product, given) = with_overdue_fee(100, dec!(1.3));
    let (history, busy) = scheduler_days(product, given, 30, &[]);
    let order = fold(history);
    assert_eq!(order.loan.as_ref().unwrap().fees_charged(), dec!(80));
    assert_eq!(
        order.next_scheduled_day(),
        Some(at(32).date_naive()),
        "capped: nothing left to charge, only the next bucket"
    );
    // Fees on days 2 to 4 (the cap is reached on day 4), reminders through day 7.
    assert_eq!(busy, (0..=7).collect::<Vec<_>>());
    // Cap at 2 % (640 for fees): about 81 a day once all six are overdue, so fees go
    // on after the last reminder (day 7) until day 12.
    let (product, given) = with_overdue_fee(100, dec!(2));
    let (history, busy) = scheduler_days(product, given, 30, &[]);
    assert_eq!(busy, (0..=12).collect::<Vec<_>>());
    let order = fold(history);
    assert_eq!(order.loan.as_ref().unwrap().fees_charged(), dec!(640));
    assert_eq!(order.next_scheduled_day(), Some(at(32).date_naive()));
}

#[test]
fn after_an_outage_missed_reminders_do_not_keep_the_order_due() {
    // The scheduler is down on days 1 to 4: installment 5's 3-day reminder (day 2,
    // window 2..=3) is never made up, and must not make every later day a due day.
    let (history, busy) = scheduler_days(demo_product(), disbursed(), 20, &[1, 2, 3, 4]);
    let order = fold(history.clone());
    assert!(!order.reminders.contains(&(5, ReminderKind::DueIn3Days)));
    assert_eq!(order.next_scheduled_day(), Some(at(32).date_naive()));
    // Day 5 makes up what is still open (the 1-day reminders of installments 5 and 6,
    // the overdue reminders of 1 to 4); days 6 and 7 are installment 5's and 6's
    // overdue days.
    assert_eq!(busy, vec![0, 5, 6, 7]);
    // Right after day 5 the closed windows (3-day reminders of 4 to 6, days 1 to 4) do
    // not hold the day back: the next is installment 5's overdue day.
    let (through_day_5, _) = scheduler_days(demo_product(), disbursed(), 5, &[1, 2, 3, 4]);
    assert_eq!(
        fold(through_day_5).next_scheduled_day(),
        Some(at(6).date_naive())
    );
}

#[test]
fn a_fee_that_rounds_to_nothing_does_not_keep_the_order_due() {
    // A cap that leaves room: fees go on every day while anything is owed.
    let (product, given) = with_overdue_fee(100, dec!(50));
    let (mut history, _) = scheduler_days(product.clone(), given, 8, &[]);
    // Day 8: everything is paid but 4.00 of the last installment, whose day's fee
    // (4.00 × 100 / 100,000 = 0.004) rounds to 0.00, and so will every later day's.
    let mut left = fold(history.clone()).outstanding() - dec!(4);
    let mut n = 0;
    while left > Decimal::ZERO {
        let part = left.min(dec!(15000));
        let paid = run(
            test_with(product.clone(), at(8)),
            history.clone(),
            repay(&format!("part-{n}"), part),
        );
        history.extend(paid);
        left -= part;
        n += 1;
    }
    let order = fold(history.clone());
    assert_eq!(order.status, OrderStatus::Disbursed);
    assert_eq!(order.outstanding(), dec!(4));
    // Only the day installment 6 (due on day 6) turns 31 days past due.
    assert_eq!(order.next_scheduled_day(), Some(at(37).date_naive()));
    // And no later day records anything (days 9 to 20: still 1-30).
    let (_, busy) = scheduler_days(product, history, 20, &(0..=8).collect::<Vec<_>>());
    assert_eq!(busy, Vec::<u64>::new());
}

#[test]
fn a_repaid_refused_or_unreviewed_order_is_never_scheduled() {
    assert_eq!(fold(repaid_within_cooling_off()).next_scheduled_at(), None);
    assert_eq!(fold(submitted()).next_scheduled_at(), None);
    assert_eq!(fold(awaiting_final()).next_scheduled_at(), None);
    // A fresh loan: installment 1's 1-day reminder opens on the payout day, at 00:00
    // Manila (16:00 UTC the day before).
    let payout_day = test_now().date_naive();
    assert_eq!(fold(disbursed()).next_scheduled_day(), Some(payout_day));
    assert_eq!(
        fold(disbursed()).next_scheduled_at(),
        Some(
            payout_day
                .pred_opt()
                .unwrap()
                .and_hms_opt(16, 0, 0)
                .unwrap()
                .and_utc()
        )
    );
}

#[test]
fn an_offer_is_scheduled_for_the_moment_it_may_be_expired() {
    let offer = fold(approved(dec!(80000), 6));
    let expires =
        offer.offer_expires_at.unwrap() + chrono::Duration::minutes(OFFER_EXPIRY_GRACE_MINUTES);
    assert_eq!(offer.next_scheduled_at(), Some(expires));
    let second = chrono::Duration::seconds(1);
    test_at(expires - second)
        .given(approved(dec!(80000), 6))
        .when(OrderCommand::ExpireOffer)
        .then_expect_error(OrderError::OfferStillValid);
    assert_eq!(
        run(
            test_at(expires),
            approved(dec!(80000), 6),
            OrderCommand::ExpireOffer
        )
        .len(),
        1
    );
}
