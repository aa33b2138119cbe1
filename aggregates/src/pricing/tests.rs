//! Worked examples (table tests) and properties of the pricing functions.

use super::*;
use crate::services::doubles::{demo_lender, demo_product};
use proptest::prelude::*;
use rust_decimal_macros::dec;

fn terms(daily_rate: u32, period_days: u32) -> LoanTerms {
    let mut product = demo_product();
    product.rate_configs = vec![RateConfig {
        period_days,
        daily_rate,
    }];
    product.terms_for(period_days).unwrap()
}

#[test]
fn worked_examples_of_interest_total_and_installments() {
    // (principal, daily_rate, days, interest, total, regular installment, last installment)
    let table = [
        (
            dec!(80000),
            200,
            6,
            dec!(960.0),
            dec!(80960.0),
            dec!(13493.3),
            dec!(13493.5),
        ),
        (
            dec!(80000),
            100,
            24,
            dec!(1920.0),
            dec!(81920.0),
            dec!(3413.3),
            dec!(3414.1),
        ),
        (
            dec!(3000000),
            200,
            24,
            dec!(144000.0),
            dec!(3144000.0),
            dec!(131000.0),
            dec!(131000.0),
        ),
        (
            dec!(100000),
            150,
            7,
            dec!(1050.0),
            dec!(101050.0),
            dec!(14435.7),
            dec!(14435.8),
        ),
        (
            dec!(12345),
            333,
            7,
            dec!(287.8),
            dec!(12632.8),
            dec!(1804.7),
            dec!(1804.6),
        ),
    ];
    for (principal, rate, days, want_interest, want_total, regular, last) in table {
        assert_eq!(
            interest(principal, rate, days),
            want_interest,
            "{principal} {rate} {days}"
        );
        let parts = installments(want_total, days);
        assert_eq!(parts.len(), days as usize);
        assert!(
            parts[..parts.len() - 1].iter().all(|p| *p == regular),
            "{parts:?}"
        );
        assert_eq!(*parts.last().unwrap(), last);
        assert_eq!(parts.iter().sum::<Decimal>(), want_total);
    }
}

#[test]
fn rounding_is_half_away_from_zero_to_one_decimal() {
    assert_eq!(round1(dec!(0.05)), dec!(0.1));
    assert_eq!(round1(dec!(0.15)), dec!(0.2));
    assert_eq!(round1(dec!(0.25)), dec!(0.3), "not banker's rounding");
    assert_eq!(round1(dec!(-0.25)), dec!(-0.3));
    assert_eq!(round1(dec!(0.249)), dec!(0.2));
    assert_eq!(round2(dec!(1.005)), dec!(1.01));
}

#[test]
fn rates_are_displayed_from_thousandths_of_a_percent() {
    assert_eq!(daily_rate_pct(400), dec!(0.4));
    assert_eq!(daily_rate_pct(200), dec!(0.2));
}

/// The schedule and net proceeds of `principal` at `daily_rate` over `days` with a
/// processing fee of `fee_pct`, as the disclosure states them.
fn disclosed(principal: Decimal, daily_rate: u32, days: u32, fee_pct: Decimal) -> Disclosure {
    let mut t = terms(daily_rate, days);
    t.pricing.processing_fee_pct = fee_pct;
    disclose(principal, &t, &demo_lender())
}

#[test]
fn the_effective_rate_is_the_irr_of_the_schedule_p5() {
    // Given a loan's schedule and net proceeds, when the effective rate is computed,
    // then it is the daily IRR compounded over 30 and 365 days (BSP Circular 730;
    // worked by hand with 40-digit arithmetic). The flat ratio the disclosure used to
    // show is beside each row: it understated every one by about half.
    // (principal, daily_rate, days, fee %, daily IRR to 10 places, % a month, % a year, flat % a month)
    let table = [
        // The shipped 12-day product (issue 52): 8.60 %/month (30 × r = 8.27 %).
        (
            dec!(100000),
            150,
            12,
            dec!(0),
            dec!(0.0027553226),
            dec!(8.60),
            dec!(173.00),
            dec!(4.50),
        ),
        // 0.2 %/day, 24 days, 1 % fee: 14.78 %/month (30 × r = 13.82 %), above PH's 12 %.
        (
            dec!(100000),
            200,
            24,
            dec!(1),
            dec!(0.0046057879),
            dec!(14.78),
            dec!(435.08),
            dec!(7.32),
        ),
        (
            dec!(80000),
            200,
            6,
            dec!(0),
            dec!(0.0034188416),
            dec!(10.78),
            dec!(247.55),
            dec!(6.00),
        ),
        (
            dec!(80000),
            200,
            6,
            dec!(1),
            dec!(0.0063160566),
            dec!(20.79),
            dec!(895.54),
            dec!(11.11),
        ),
        // The PH cap's edge: 0.2 %/day over 24 days is 12.0013 %, just above 12 %.
        (
            dec!(80000),
            200,
            24,
            dec!(0),
            dec!(0.0037851552),
            dec!(12.00),
            dec!(297.08),
            dec!(6.00),
        ),
    ];
    for (principal, rate, days, fee, daily, monthly, annual, flat) in table {
        let d = disclosed(principal, rate, days, fee);
        let r = EffectiveRate::of(d.net_amount, &d.schedule).expect("a rate");
        assert_eq!(
            r.daily.round_dp(10),
            daily,
            "{principal} {rate} {days} {fee}"
        );
        assert_eq!(
            d.effective_monthly_rate_pct, monthly,
            "{principal} {rate} {days} {fee}"
        );
        assert_eq!(d.apr_pct, annual, "{principal} {rate} {days} {fee}");
        let flat_ratio = (d.interest + d.processing_fee) / d.net_amount * dec!(30)
            / Decimal::from(days)
            * dec!(100);
        assert_eq!(round2(flat_ratio), flat);
        assert!(monthly > flat * dec!(1.7), "the IRR is not the flat ratio");
    }
}

#[test]
fn a_loan_with_no_proceeds_or_no_schedule_has_no_effective_rate() {
    let d = disclosed(dec!(80000), 200, 6, dec!(0));
    assert_eq!(EffectiveRate::of(Decimal::ZERO, &d.schedule), None);
    assert_eq!(EffectiveRate::of(dec!(80000), &[]), None);
    // Repayments worth less than the proceeds would be a negative rate.
    assert_eq!(EffectiveRate::of(dec!(90000), &d.schedule), None);
    // Repayments equal to the proceeds: zero.
    let free = [ScheduledPayment {
        period: 1,
        amount: dec!(100),
    }];
    assert_eq!(
        EffectiveRate::of(dec!(100), &free).map(|r| r.monthly_pct),
        Some(Decimal::ZERO)
    );
}

#[test]
fn the_02_pct_24_day_product_with_a_1_pct_fee_is_refused_by_ph() {
    // Given the product the flat ratio let through (7.32 %/month), when configuration
    // loads under PH, then it is refused: its effective rate is 14.78 %/month.
    let mut product = demo_product();
    product.rate_configs = vec![RateConfig {
        period_days: 24,
        daily_rate: 200,
    }];
    product.pricing.processing_fee_pct = dec!(1);
    match ComplianceProfile::Ph.check_product(&product) {
        Err(ComplianceBreach::EffectiveRate {
            pct,
            max_pct,
            basis_days,
            ..
        }) => {
            assert_eq!((pct, max_pct, basis_days), (dec!(14.78), dec!(12), 30));
        }
        other => panic!("expected an effective-rate breach, got {other:?}"),
    }
}

#[test]
fn disclosure_states_every_cost_p5() {
    let mut t = terms(200, 6);
    t.pricing.processing_fee_pct = dec!(1);
    let d = disclose(dec!(80000), &t, &demo_lender());
    assert_eq!(d.principal, dec!(80000));
    assert_eq!(d.processing_fee, dec!(800.00));
    assert_eq!(d.net_amount, dec!(79200.00));
    assert_eq!(d.interest, dec!(960.0));
    assert_eq!(d.total_repayable, dec!(80960.0));
    assert_eq!(d.per_period_payment, dec!(13493.3));
    assert_eq!(d.daily_rate_pct, dec!(0.2));
    // The IRR of six payments of 13,493.3 (the last 13,493.5) against 79,200 received:
    // 0.63161 % a day, 20.79 % a month and 895.54 % a year, compounded.
    assert_eq!(d.effective_monthly_rate_pct, dec!(20.79));
    assert_eq!(d.apr_pct, dec!(895.54));
    assert_eq!(d.schedule.len(), 6);
    assert_eq!(
        d.schedule.iter().map(|s| s.amount).sum::<Decimal>(),
        d.total_repayable
    );
    assert_eq!(d.lender, demo_lender());
    assert_eq!(d.notice, "We never ask you to pay to receive a loan.");
}

#[test]
fn payoff_charges_interest_only_for_days_elapsed_p12() {
    let t = terms(200, 24); // 160/day on 80,000
    let principal = dec!(80000);
    // Day 10, nothing repaid: outside the 7-day cooling-off, 10 days of interest.
    let p = payoff(principal, &t, 10, Decimal::ZERO, Decimal::ZERO);
    assert_eq!(p.amount, dec!(81600.0));
    assert_eq!(p.interest_waived, dec!(3840.0) - dec!(1600.0));
    assert!(!p.cooling_off);
    // Day 0 after the cooling-off window would charge at least one day.
    let mut no_cooling = t.clone();
    no_cooling.pricing.cooling_off_days = 0;
    let p = payoff(principal, &no_cooling, 0, Decimal::ZERO, Decimal::ZERO);
    assert_eq!(p.amount, dec!(80160.0), "at least one day");
    // Past the term, interest stops at the term.
    let p = payoff(principal, &t, 40, dec!(12.5), dec!(1000));
    assert_eq!(
        p.amount,
        dec!(80000) + dec!(3840.0) + dec!(12.5) - dec!(1000)
    );
    assert_eq!(p.interest_waived, Decimal::ZERO);
}

#[test]
fn cooling_off_returns_only_the_principal_p12() {
    let t = terms(200, 6);
    let p = payoff(dec!(80000), &t, 7, dec!(30), dec!(13493.3));
    assert!(p.cooling_off);
    assert_eq!(p.amount, dec!(80000) - dec!(13493.3));
    assert_eq!(p.interest_waived, dec!(960.0));
    assert_eq!(p.fees_waived, dec!(30));
    let p = payoff(dec!(80000), &t, 8, Decimal::ZERO, Decimal::ZERO);
    assert!(!p.cooling_off, "day 8 is outside a 7-day window");
}

#[test]
fn overdue_fee_is_capped_by_total_cost() {
    assert_eq!(overdue_fee_for_day(dec!(13493.3), 100), dec!(13.49));
    assert_eq!(overdue_fee_for_day(dec!(13493.3), 0), Decimal::ZERO);
    // cap 100 % of 1,000 = 1,000; interest 900 and fees 95 so far leave 5.
    assert_eq!(
        fee_headroom(dec!(1000), dec!(900), dec!(95), dec!(100)),
        dec!(5)
    );
    assert_eq!(
        fee_headroom(dec!(1000), dec!(900), dec!(150), dec!(100)),
        Decimal::ZERO
    );
}

#[test]
fn the_shipped_demo_product_fits_the_ph_profile_and_breaks_th() {
    let product = demo_product();
    assert_eq!(ComplianceProfile::Ph.check_product(&product), Ok(()));
    assert!(ComplianceProfile::Th.check_product(&product).is_err());
}

#[test]
fn the_seeds_daily_rates_break_both_shipped_profiles() {
    // The seed used 0.4 %–2.4 %/day (section 11).
    for rate in [400, 2400] {
        let t = terms(rate, 6);
        assert!(ComplianceProfile::Ph.check_loan(dec!(80000), &t).is_err());
        assert!(ComplianceProfile::Th.check_loan(dec!(20000), &t).is_err());
    }
}

#[test]
fn each_ph_cap_is_enforced() {
    let ok = terms(200, 6);
    assert_eq!(ComplianceProfile::Ph.check_loan(dec!(80000), &ok), Ok(()));
    let too_high = terms(201, 6);
    assert!(matches!(
        ComplianceProfile::Ph.check_loan(dec!(80000), &too_high),
        Err(ComplianceBreach::DailyRate { .. })
    ));
    let mut fee = terms(200, 6);
    fee.pricing.processing_fee_pct = dec!(1); // 20.79 %/month (the IRR; flat 11.11 %)
    assert!(matches!(
        ComplianceProfile::Ph.check_loan(dec!(80000), &fee),
        Err(ComplianceBreach::EffectiveRate { .. })
    ));
    let mut penalty = terms(200, 6);
    penalty.pricing.overdue_daily_rate = 167; // 5.01 %/month
    assert!(matches!(
        ComplianceProfile::Ph.check_loan(dec!(80000), &penalty),
        Err(ComplianceBreach::OverdueRate { .. })
    ));
    penalty.pricing.overdue_daily_rate = 166;
    assert_eq!(
        ComplianceProfile::Ph.check_loan(dec!(80000), &penalty),
        Ok(())
    );
    let mut lax = terms(200, 6);
    lax.pricing.max_total_cost_pct = dec!(150);
    assert!(matches!(
        ComplianceProfile::Ph.check_loan(dec!(80000), &lax),
        Err(ComplianceBreach::TotalCost { .. })
    ));
}

#[test]
fn each_th_cap_is_enforced() {
    // Daily installments over 30 days: 0.031 %/day is 24.40 % a year effective (the
    // IRR compounded): fits. 0.032 %/day is 25.27 %: does not.
    assert_eq!(
        ComplianceProfile::Th.check_loan(dec!(20000), &terms(31, 30)),
        Ok(())
    );
    assert!(matches!(
        ComplianceProfile::Th.check_loan(dec!(20000), &terms(32, 30)),
        Err(ComplianceBreach::EffectiveRate { .. })
    ));
    assert!(matches!(
        ComplianceProfile::Th.check_loan(dec!(20010), &terms(31, 30)),
        Err(ComplianceBreach::Amount { .. })
    ));
    assert!(matches!(
        ComplianceProfile::Th.check_loan(dec!(20000), &terms(31, 181)),
        Err(ComplianceBreach::Period { .. })
    ));
    let mut default_rate = terms(31, 30);
    default_rate.pricing.overdue_daily_rate = 40; // 14.6 %/yr > 11.315 + 3
    assert!(matches!(
        ComplianceProfile::Th.check_loan(dec!(20000), &default_rate),
        Err(ComplianceBreach::OverdueRate { .. })
    ));
}

#[test]
fn default_offer_is_the_largest_amount_and_longest_period_p7() {
    let product = demo_product();
    assert_eq!(product.default_offer(), Some((dec!(3000000), 24)));
}

fn arb_product() -> impl Strategy<Value = Product> {
    (
        1u32..=400,
        prop::collection::btree_set(1u32..=60, 1..4),
        0u32..=300,
        0u32..=300,
        1u32..=30,
    )
        .prop_map(|(daily_rate, periods, fee_bp, overdue, steps)| {
            let mut product = demo_product();
            product.amount_min = dec!(1000);
            product.amount_step = dec!(1000);
            product.amount_max = dec!(1000) * Decimal::from(steps);
            product.pricing.processing_fee_pct = Decimal::from(fee_bp) / dec!(100);
            product.pricing.overdue_daily_rate = overdue;
            product.rate_configs = periods
                .into_iter()
                .map(|period_days| RateConfig {
                    period_days,
                    daily_rate,
                })
                .collect();
            product
        })
}

proptest! {
    #[test]
    fn installments_always_sum_to_the_total(cents in 0i64..1_000_000_000, count in 1u32..400) {
        let total = round1(Decimal::new(cents, 2));
        let parts = installments(total, count);
        prop_assert_eq!(parts.len(), count as usize);
        prop_assert_eq!(parts.iter().sum::<Decimal>(), total);
        // Every installment but the last is the rounded share.
        for part in &parts[..parts.len() - 1] {
            prop_assert_eq!(*part, round1(total / Decimal::from(count)));
        }
    }

    #[test]
    fn rounding_is_half_away_from_zero(units in -1_000_000i64..1_000_000, hundredths in 0i64..100) {
        let value = Decimal::new(units * 100 + units.signum() * hundredths, 2);
        let rounded = round1(value);
        prop_assert_eq!(rounded.scale().min(1), rounded.scale());
        prop_assert!((rounded - value).abs() <= dec!(0.05));
        if (value * dec!(100)) % dec!(10) == dec!(5) || (value * dec!(100)) % dec!(10) == dec!(-5) {
            prop_assert!(rounded.abs() > value.abs(), "{} → {}", value, rounded);
        }
    }

    #[test]
    fn nothing_a_product_allows_exceeds_its_profiles_caps(product in arb_product(), pick in 0usize..1000) {
        for profile in [ComplianceProfile::Ph, ComplianceProfile::Th] {
            if profile.check_product(&product).is_err() {
                continue;
            }
            let caps = profile.caps();
            let amounts: Vec<Decimal> = product.amounts().collect();
            let amount = amounts[pick % amounts.len()];
            let config = &product.rate_configs[pick % product.rate_configs.len()];
            let terms = product.terms_for(config.period_days).unwrap();
            let d = disclose(amount, &terms, &demo_lender());
            if let Some(max) = caps.max_daily_rate { prop_assert!(terms.daily_rate <= max); }
            if let Some(cap) = &caps.max_effective_rate {
                let pct = EffectiveRate::of(d.net_amount, &d.schedule).and_then(|r| r.pct_per(cap.basis_days));
                prop_assert!(pct.is_some_and(|pct| pct <= cap.max_pct));
            }
            prop_assert!((d.interest + d.processing_fee) * dec!(100) <= caps.max_total_cost_pct * amount);
            if let Some(max) = caps.max_amount { prop_assert!(amount <= max); }
            if let Some(max) = caps.max_period_days { prop_assert!(terms.period_days <= max); }
        }
    }

    #[test]
    fn the_irr_discounts_the_schedule_back_to_the_net_proceeds(
        thousands in 1i64..=3000,
        daily_rate in 1u32..=400,
        days in 1u32..=90,
        fee_bp in 0u32..=500,
    ) {
        // Given any loan, when its effective rate is computed, then discounting every
        // payment at the daily IRR gives back the net proceeds within the tolerance.
        let d = disclosed(Decimal::from(thousands * 1000), daily_rate, days, Decimal::from(fee_bp) / dec!(100));
        let r = EffectiveRate::of(d.net_amount, &d.schedule).expect("a rate");
        let mut present = Decimal::ZERO;
        let mut discount = Decimal::ONE;
        for payment in &d.schedule {
            discount /= Decimal::ONE + r.daily;
            present += payment.amount * discount;
        }
        prop_assert!((present - d.net_amount).abs() <= d.net_amount * effective_rate::TOLERANCE * dec!(10),
            "{} against {}", present, d.net_amount);
        prop_assert!(r.monthly_pct >= r.daily * dec!(3000), "compounding is the higher reading");
    }

    #[test]
    fn payoff_never_exceeds_the_contractual_balance(days in 0i64..60, repaid_share in 0u32..100) {
        let t = terms(200, 24);
        let principal = dec!(80000);
        let total = principal + interest(principal, 200, 24);
        let repaid = round1(total * Decimal::from(repaid_share) / dec!(100));
        let p = payoff(principal, &t, days, Decimal::ZERO, repaid);
        prop_assert!(p.amount <= (total - repaid).max(Decimal::ZERO));
        prop_assert!(p.amount >= Decimal::ZERO);
    }
}

/// `LoanTerms` as `LoanApplied` has always stored it: one flat object, the product's
/// pricing beside the rate and the term, in this order.
const STORED_TERMS: &str = r#"{"daily_rate":200,"period_days":6,"processing_fee_pct":"0","overdue_daily_rate":0,"max_total_cost_pct":"100","cooling_off_days":7,"offer_valid_days":7,"repay_min":"100","repay_max":"20000"}"#;

#[test]
fn loan_terms_keep_their_stored_shape() {
    let terms = terms(200, 6);
    assert_eq!(serde_json::to_string(&terms).unwrap(), STORED_TERMS);
    let read: LoanTerms = serde_json::from_str(STORED_TERMS).unwrap();
    assert_eq!(read, terms);
    // Amounts written as numbers read the same.
    let numbers = STORED_TERMS
        .replace("\"100\"", "100")
        .replace("\"20000\"", "20000");
    let read: LoanTerms = serde_json::from_str(&numbers).unwrap();
    assert_eq!(read, terms);
}

#[test]
fn a_product_reads_its_pricing_from_the_flat_configuration() {
    let configured = serde_json::json!({
        "id": 1, "name": "Cash Loan", "enabled": true,
        "amount_min": "80000", "amount_max": "3000000", "amount_step": "10000",
        "rate_configs": [
            {"period_days": 6, "daily_rate": 200},
            {"period_days": 12, "daily_rate": 150},
            {"period_days": 18, "daily_rate": 120},
            {"period_days": 24, "daily_rate": 100}
        ],
        "processing_fee_pct": "0", "overdue_daily_rate": 0, "max_total_cost_pct": "100",
        "cooling_off_days": 7, "offer_valid_days": 7, "repay_min": "100", "repay_max": "20000"
    });
    let product: Product = serde_json::from_value(configured).unwrap();
    assert_eq!(product, demo_product());
    // The terms of each period carry the product's pricing as it is.
    assert_eq!(product.terms_for(6).unwrap().pricing, product.pricing);
}

// ---- affordability (issue 52) ----------------------------------------------------------

fn affordable_product(share_pct: Decimal) -> Product {
    Product {
        max_income_share_pct: Some(share_pct),
        ..demo_product()
    }
}

#[test]
fn worked_examples_of_the_affordability_rule() {
    use affordability::{max_affordable, monthly_allowance, monthly_repayment};
    let product = affordable_product(dec!(40));
    // (monthly income, period, allowance, largest affordable amount on the 10,000 step)
    let table = [
        // 150,000 over 24 days at 0.1 %/day repays 153,600 ≤ 160,000; 160,000 repays 163,840.
        (dec!(400000), 24, dec!(160000), Some(dec!(150000))),
        // 6 days at 0.2 %/day: 150,000 repays 151,800; 160,000 repays 161,920.
        (dec!(400000), 6, dec!(160000), Some(dec!(150000))),
        // The issue's borrower: 25,000 a month allows 10,000, below the smallest 80,000.
        (dec!(25000), 24, dec!(10000), None),
        // Exactly 40 % of 204,800 is 81,920: 80,000 over 24 days, to the centavo.
        (dec!(204800), 24, dec!(81920), Some(dec!(80000))),
        (dec!(204799), 24, dec!(81919.60), None),
        // A large income reaches the product's own maximum.
        (dec!(100000000), 24, dec!(40000000), Some(dec!(3000000))),
    ];
    for (income, days, allowance, max) in table {
        let terms = product.terms_for(days).unwrap();
        assert_eq!(monthly_allowance(income, dec!(40)), allowance, "{income}");
        assert_eq!(
            max_affordable(&product, &terms, Some(income)),
            max,
            "{income} over {days}"
        );
    }
    assert_eq!(
        monthly_repayment(dec!(150000), &product.terms_for(24).unwrap()),
        dec!(153600.0)
    );
    // No income declared as an amount: nothing is affordable under a share.
    assert_eq!(
        max_affordable(&product, &product.terms_for(24).unwrap(), None),
        None
    );
    // A product without a share offers its whole range.
    let open = demo_product();
    assert_eq!(
        max_affordable(&open, &open.terms_for(24).unwrap(), None),
        Some(dec!(3000000))
    );
}

#[test]
fn a_term_longer_than_a_month_counts_the_heaviest_thirty_days() {
    // 60 daily installments of 1,000 (principal 60,000, no interest): 30 of them fall in
    // any 30 days, so the month carries 30,000, not the whole 60,000.
    let mut terms = terms(0, 60);
    terms.daily_rate = 0;
    assert_eq!(
        affordability::monthly_repayment(dec!(60000), &terms),
        dec!(30000)
    );
}

proptest! {
    #[test]
    fn the_affordable_maximum_fits_and_the_next_step_does_not(
        income in 0i64..50_000_000,
        share in 1i64..=100,
        period_index in 0usize..4,
    ) {
        use affordability::{max_affordable, monthly_allowance, monthly_repayment};
        let product = affordable_product(Decimal::from(share));
        let days = [6, 12, 18, 24][period_index];
        let terms = product.terms_for(days).unwrap();
        let income = Decimal::from(income);
        let allowance = monthly_allowance(income, Decimal::from(share));
        match max_affordable(&product, &terms, Some(income)) {
            Some(max) => {
                prop_assert!(product.check_amount(max).is_ok());
                prop_assert!(monthly_repayment(max, &terms) <= allowance);
                let next = max + product.amount_step;
                prop_assert!(next > product.amount_max || monthly_repayment(next, &terms) > allowance);
            }
            None => prop_assert!(monthly_repayment(product.amount_min, &terms) > allowance),
        }
    }
}
