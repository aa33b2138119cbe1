//! Given-when-then tests of the ProductLine aggregate (issue 55): maker-checker,
//! the caps checked at the proposal, the moment a change takes effect, every version
//! kept.

use std::sync::Arc;

use chrono::Duration;
use cqrs_es::test::TestFramework;
use uuid::Uuid;

use super::*;
use crate::codes::ErrorCode;
use crate::pricing::{ComplianceProfile, Product};
use crate::services::doubles::{demo_product, test_now, FixedClock};

type LineTest = TestFramework<ProductLine>;

fn maker() -> Uuid {
    Uuid::from_u128(0xA1)
}
fn checker() -> Uuid {
    Uuid::from_u128(0xA2)
}
fn proposal() -> Uuid {
    Uuid::from_u128(0x91)
}

fn services() -> ChangeServices {
    ChangeServices {
        clock: Arc::new(FixedClock::at(test_now())),
        compliance: Arc::new(ComplianceProfile::Ph),
        reference: Arc::new(crate::services::doubles::StaticReference),
    }
}

fn test() -> LineTest {
    LineTest::with(services())
}

/// The demo product with the 24-day rate at `daily_rate` (thousandths of a percent).
fn with_rate(daily_rate: u32) -> Product {
    let mut product = demo_product();
    product.rate_configs.last_mut().unwrap().daily_rate = daily_rate;
    product
}

fn propose(product: Product, effective_at: chrono::DateTime<chrono::Utc>) -> ProductCommand {
    ProductCommand::ProposeChange {
        proposal_id: proposal(),
        value: Box::new(product),
        effective_at: Some(effective_at),
        maker: maker(),
        reason: "lower the 24-day rate".into(),
    }
}

fn proposed(product: Product, effective_at: chrono::DateTime<chrono::Utc>) -> ProductEvent {
    ProductEvent::ChangeProposed {
        proposal_id: proposal(),
        value: Box::new(product),
        effective_at,
        base_version: 0,
        maker: maker(),
        reason: "lower the 24-day rate".into(),
    }
}

fn fold(events: Vec<ProductEvent>) -> ProductLine {
    crate::history::state_as_of::<ProductLine>(events, usize::MAX)
}

#[test]
fn a_proposal_that_fits_the_caps_is_recorded_and_a_repeat_is_not() {
    let at = test_now() + Duration::days(1);
    test()
        .given_no_previous_events()
        .when(propose(with_rate(90), at))
        .then_expect_events(vec![proposed(with_rate(90), at)]);
    test()
        .given(vec![proposed(with_rate(90), at)])
        .when(propose(with_rate(90), at))
        .then_expect_events(vec![]);
}

#[test]
fn a_proposal_that_breaks_a_cap_is_refused_naming_the_cap() {
    // 3 %/day for 24 days is far above the PH effective-rate cap of 12 %/month.
    let refused = test()
        .given_no_previous_events()
        .when(propose(with_rate(3000), test_now()))
        .inspect_result()
        .unwrap_err();
    assert_eq!(refused.code(), ErrorCode::CapBreached);
    let ChangeError::Cap(breach) = &refused else {
        panic!("{refused:?}")
    };
    let text = refused.to_string();
    assert!(text.contains(&breach.to_string()), "{text}");
}

#[test]
fn a_proposal_needs_a_reason_a_moment_not_past_and_this_lines_product() {
    let mut no_reason = propose(with_rate(90), test_now());
    if let ProductCommand::ProposeChange { reason, .. } = &mut no_reason {
        *reason = "  ".into();
    }
    test()
        .given_no_previous_events()
        .when(no_reason)
        .then_expect_error(ChangeError::Reason);
    test()
        .given_no_previous_events()
        .when(propose(with_rate(90), test_now() - Duration::minutes(1)))
        .then_expect_error(ChangeError::InThePast);
    let mut other = with_rate(90);
    other.id = 7;
    let mut second = propose(other, test_now());
    if let ProductCommand::ProposeChange { proposal_id, .. } = &mut second {
        *proposal_id = Uuid::from_u128(0x92);
    }
    test()
        .given(vec![proposed(with_rate(90), test_now())])
        .when(second)
        .then_expect_error(ChangeError::OtherLine(1));
}

#[test]
fn a_proposal_must_be_an_offer_a_borrower_can_be_made_and_priced_in_bounded_time() {
    // Given no proposal, when one offers a million amounts (each priced against the
    // caps), or no period, or a smallest repayment above the largest, it is refused
    // naming the field.
    let mut million = with_rate(90);
    million.amount_step = rust_decimal_macros::dec!(1);
    million.amount_max = rust_decimal_macros::dec!(1000000);
    let mut no_period = with_rate(90);
    no_period.rate_configs.clear();
    let mut repay = with_rate(90);
    repay.pricing.repay_min = repay.pricing.repay_max + rust_decimal_macros::dec!(1);
    for (product, field) in [
        (million, "amountStep"),
        (no_period, "rateConfigs"),
        (repay, "repayMin"),
    ] {
        let refused = test()
            .given_no_previous_events()
            .when(propose(product, test_now()))
            .inspect_result();
        assert!(
            matches!(&refused, Err(ChangeError::Offer(invalid)) if invalid.field == field),
            "{field}: {refused:?}"
        );
    }
}

#[test]
fn a_proposal_approved_by_its_own_maker_is_refused() {
    let at = test_now() + Duration::days(1);
    let own = ProductCommand::ApproveChange {
        proposal_id: proposal(),
        checker: maker(),
        checker_vouchers: vec![],
    };
    let refused = test()
        .given(vec![proposed(with_rate(90), at)])
        .when(own)
        .inspect_result()
        .unwrap_err();
    assert_eq!(refused, ChangeError::OwnProposal);
    assert_eq!(refused.code(), ErrorCode::SecondStaffRequired);
}

#[test]
fn an_account_the_maker_stands_behind_cannot_approve() {
    // Given a proposal, when a checker whose account its maker created approves it,
    test()
        .given(vec![proposed(with_rate(90), test_now())])
        .when(ProductCommand::ApproveChange {
            proposal_id: proposal(),
            checker: checker(),
            checker_vouchers: vec![Uuid::from_u128(0xA9), maker()],
        })
        // then it is refused: the maker may have held its setup link.
        .then_expect_error(ChangeError::MakersAccount);
    assert_eq!(
        ChangeError::MakersAccount.code(),
        ErrorCode::SecondStaffRequired
    );
}

#[test]
fn a_change_takes_effect_at_its_moment_and_not_before() {
    let at = test_now() + Duration::days(1);
    let approve = ProductCommand::ApproveChange {
        proposal_id: proposal(),
        checker: checker(),
        checker_vouchers: vec![],
    };
    let approved = ProductEvent::ChangeApproved {
        proposal_id: proposal(),
        version: 1,
        checker: checker(),
        effective_at: at,
    };
    test()
        .given(vec![proposed(with_rate(90), at)])
        .when(approve.clone())
        .then_expect_events(vec![approved.clone()]);
    // Approved twice: recorded once.
    test()
        .given(vec![proposed(with_rate(90), at), approved.clone()])
        .when(approve)
        .then_expect_events(vec![]);
    let line = fold(vec![proposed(with_rate(90), at), approved]);
    assert_eq!(line.value_at(at - Duration::seconds(1)), None);
    // The version travels with the terms it answers (into each loan signed under it).
    let version_1 = Product {
        version: 1,
        ..with_rate(90)
    };
    assert_eq!(line.value_at(at), Some(&version_1));
}

#[test]
fn a_moment_passed_before_the_approval_becomes_the_approvals() {
    // Proposed for now; the clock moves on an hour before a checker approves.
    let proposed_for = test_now();
    let later = test_now() + Duration::hours(1);
    let services = ChangeServices {
        clock: Arc::new(FixedClock::at(later)),
        ..services()
    };
    LineTest::with(services)
        .given(vec![proposed(with_rate(90), proposed_for)])
        .when(ProductCommand::ApproveChange {
            proposal_id: proposal(),
            checker: checker(),
            checker_vouchers: vec![],
        })
        .then_expect_events(vec![ProductEvent::ChangeApproved {
            proposal_id: proposal(),
            version: 1,
            checker: checker(),
            effective_at: later,
        }]);
}

#[test]
fn every_version_is_kept_and_each_moment_answers_its_own() {
    let first_at = test_now();
    let second_at = test_now() + Duration::days(10);
    let second = Uuid::from_u128(0x92);
    let events = vec![
        proposed(with_rate(100), first_at),
        ProductEvent::ChangeApproved {
            proposal_id: proposal(),
            version: 1,
            checker: checker(),
            effective_at: first_at,
        },
        ProductEvent::ChangeProposed {
            proposal_id: second,
            value: Box::new(with_rate(80)),
            effective_at: second_at,
            base_version: 1,
            maker: maker(),
            reason: "cheaper".into(),
        },
        ProductEvent::ChangeApproved {
            proposal_id: second,
            version: 2,
            checker: checker(),
            effective_at: second_at,
        },
    ];
    let line = fold(events);
    assert_eq!(line.versions.len(), 2);
    let rate_at = |at| {
        line.value_at(at)
            .unwrap()
            .rate_configs
            .last()
            .unwrap()
            .daily_rate
    };
    assert_eq!(rate_at(first_at), 100);
    assert_eq!(rate_at(second_at - Duration::seconds(1)), 100);
    assert_eq!(rate_at(second_at), 80);
    assert_eq!(line.version_at(second_at).unwrap().version, 2);
}

#[test]
fn a_version_overtaken_by_a_later_approval_never_takes_effect() {
    // Given version 1 scheduled in ten days, and version 2 (an urgent cut) approved
    // after it to take effect today,
    let next_week = test_now() + Duration::days(10);
    let urgent = Uuid::from_u128(0x92);
    let events = vec![
        proposed(with_rate(100), next_week),
        ProductEvent::ChangeApproved {
            proposal_id: proposal(),
            version: 1,
            checker: checker(),
            effective_at: next_week,
        },
        ProductEvent::ChangeProposed {
            proposal_id: urgent,
            value: Box::new(with_rate(80)),
            effective_at: test_now(),
            base_version: 1,
            maker: maker(),
            reason: "urgent".into(),
        },
        ProductEvent::ChangeApproved {
            proposal_id: urgent,
            version: 2,
            checker: checker(),
            effective_at: test_now(),
        },
    ];
    let line = fold(events);
    // then version 2 is in force from today, and still when version 1's moment comes.
    assert_eq!(line.version_at(test_now()).unwrap().version, 2);
    assert_eq!(line.version_at(next_week).unwrap().version, 2);
    assert_eq!(line.latest().unwrap().version, 2);
}

#[test]
fn a_rejected_proposal_is_never_approved_and_an_approved_one_never_rejected() {
    let at = test_now() + Duration::days(1);
    let rejected = ProductEvent::ChangeRejected {
        proposal_id: proposal(),
        checker: checker(),
        reason: "not this month".into(),
    };
    test()
        .given(vec![proposed(with_rate(90), at)])
        .when(ProductCommand::RejectChange {
            proposal_id: proposal(),
            checker: checker(),
            reason: "not this month".into(),
        })
        .then_expect_events(vec![rejected.clone()]);
    test()
        .given(vec![proposed(with_rate(90), at), rejected])
        .when(ProductCommand::ApproveChange {
            proposal_id: proposal(),
            checker: checker(),
            checker_vouchers: vec![],
        })
        .then_expect_error(ChangeError::Proposal("the proposal was rejected"));
    let approved = ProductEvent::ChangeApproved {
        proposal_id: proposal(),
        version: 1,
        checker: checker(),
        effective_at: at,
    };
    test()
        .given(vec![proposed(with_rate(90), at), approved])
        .when(ProductCommand::RejectChange {
            proposal_id: proposal(),
            checker: checker(),
            reason: "late".into(),
        })
        .then_expect_error(ChangeError::Proposal("the proposal was approved"));
}

#[test]
fn a_proposal_overtaken_by_a_newer_version_is_refused_and_an_id_is_not_reused() {
    let at = test_now() + Duration::days(1);
    let second = Uuid::from_u128(0x92);
    // Two proposals made against version 0; the second is approved first.
    let events = vec![
        proposed(with_rate(90), at),
        ProductEvent::ChangeProposed {
            proposal_id: second,
            value: Box::new(with_rate(80)),
            effective_at: at,
            base_version: 0,
            maker: maker(),
            reason: "cheaper".into(),
        },
        ProductEvent::ChangeApproved {
            proposal_id: second,
            version: 1,
            checker: checker(),
            effective_at: at,
        },
    ];
    test()
        .given(events.clone())
        .when(ProductCommand::ApproveChange {
            proposal_id: proposal(),
            checker: checker(),
            checker_vouchers: vec![],
        })
        .then_expect_error(ChangeError::Proposal(
            "a newer version was approved since this proposal; propose again",
        ));
    // The first proposal's id again, with other terms: refused.
    test()
        .given(events)
        .when(propose(with_rate(70), at))
        .then_expect_error(ChangeError::Proposal("this proposal id is taken"));
}

// ---- the lender's settings: the same line, another value ------------------------------

fn settings(codes: &[&str]) -> LenderSettings {
    LenderSettings {
        invite_code_required: true,
        invite_codes: codes.iter().map(|code| code.to_string()).collect(),
        texts: [(
            "faq".to_string(),
            [("en".to_string(), "Repay any time.".to_string())].into(),
        )]
        .into(),
        receiving_accounts: vec![],
        version: 0,
    }
}

#[test]
fn lender_settings_are_changed_by_two_people_and_must_be_ones_to_show() {
    type SettingsTest = TestFramework<SettingsLine>;
    let propose = |value: LenderSettings| SettingsCommand::ProposeChange {
        proposal_id: proposal(),
        value: Box::new(value),
        effective_at: None,
        maker: maker(),
        reason: "a new agent".into(),
    };
    // Given no proposal, when a code has a space, a text has no English, or an account
    // is at a bank the app does not know, refused naming the field;
    let mut no_english = settings(&["AGENT7"]);
    no_english.texts.insert(
        "faq".into(),
        [("zh".to_string(), "随时还款".to_string())].into(),
    );
    let mut unknown_bank = settings(&["AGENT7"]);
    unknown_bank.receiving_accounts.push(ReceivingAccount {
        bank_name: "Bank of Nowhere".into(),
        account_name: "Honest Lending Corporation".into(),
        account_no: "001234567890".into(),
    });
    for (value, field) in [
        (settings(&["AGENT 7"]), "inviteCodes"),
        (settings(&[]), "inviteCodes"),
        (no_english, "texts"),
        (unknown_bank, "receivingAccounts"),
    ] {
        let refused = SettingsTest::with(services())
            .given_no_previous_events()
            .when(propose(value))
            .inspect_result();
        assert!(
            matches!(&refused, Err(ChangeError::Offer(invalid)) if invalid.field == field),
            "{field}: {refused:?}"
        );
    }
    // when good settings are proposed, their maker cannot approve them; another can,
    // and they are in force from the approval, stamped version 1.
    let proposed = ChangeEvent::ChangeProposed {
        proposal_id: proposal(),
        value: Box::new(settings(&["AGENT7"])),
        effective_at: test_now(),
        base_version: 0,
        maker: maker(),
        reason: "a new agent".into(),
    };
    SettingsTest::with(services())
        .given_no_previous_events()
        .when(propose(settings(&["AGENT7"])))
        .then_expect_events(vec![proposed.clone()]);
    let approve = |checker| SettingsCommand::ApproveChange {
        proposal_id: proposal(),
        checker,
        checker_vouchers: vec![],
    };
    SettingsTest::with(services())
        .given(vec![proposed.clone()])
        .when(approve(maker()))
        .then_expect_error(ChangeError::OwnProposal);
    let approved = SettingsTest::with(services())
        .given(vec![proposed.clone()])
        .when(approve(checker()))
        .inspect_result()
        .unwrap();
    let events: Vec<_> = [proposed].into_iter().chain(approved).collect();
    let line = crate::history::state_as_of::<SettingsLine>(events, usize::MAX);
    let in_force = line.value_at(test_now()).unwrap();
    assert_eq!(
        (in_force.version, in_force.invite_codes.clone()),
        (1, vec!["AGENT7".to_string()])
    );
}
