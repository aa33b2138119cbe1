//! Given-when-then tests of the Wallet aggregate.

use super::*;
use cqrs_es::test::TestFramework;
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use uuid::Uuid;

type WalletTest = TestFramework<Wallet>;

fn order() -> Uuid {
    Uuid::from_u128(0x0D1)
}
fn payout() -> Uuid {
    Uuid::from_u128(0xB1)
}

fn test() -> WalletTest {
    WalletTest::with(())
}

fn credited() -> Vec<WalletEvent> {
    vec![WalletEvent::LoanProceedsCredited {
        order_id: order(),
        amount: dec!(100000),
    }]
}

fn withdrawn(amount: Decimal) -> Vec<WalletEvent> {
    let mut events = credited();
    events.push(WalletEvent::Withdrawn {
        order_id: order(),
        payout_id: payout(),
        amount,
    });
    events
}

fn fold(events: Vec<WalletEvent>) -> Wallet {
    crate::history::state_as_of::<Wallet>(events, usize::MAX)
}

#[test]
fn approval_credits_the_proceeds_once() {
    let credit = WalletCommand::CreditLoanProceeds {
        order_id: order(),
        amount: dec!(100000),
    };
    test()
        .given_no_previous_events()
        .when(credit.clone())
        .then_expect_events(credited());
    test()
        .given(credited())
        .when(credit)
        .then_expect_events(vec![]);
    assert_eq!(fold(credited()).balance(), dec!(100000));
}

#[test]
fn a_withdrawal_never_exceeds_the_proceeds_of_its_order() {
    test()
        .given(credited())
        .when(WalletCommand::Withdraw {
            order_id: order(),
            payout_id: payout(),
            amount: dec!(100000.01),
        })
        .then_expect_error(WalletError::InsufficientBalance);
    test()
        .given(credited())
        .when(WalletCommand::Withdraw {
            order_id: Uuid::from_u128(0x0D2),
            payout_id: payout(),
            amount: dec!(1),
        })
        .then_expect_error(WalletError::InsufficientBalance);
}

#[test]
fn a_payout_id_is_withdrawn_once_and_reversed_once_p3() {
    let withdraw = WalletCommand::Withdraw {
        order_id: order(),
        payout_id: payout(),
        amount: dec!(80000),
    };
    test()
        .given(withdrawn(dec!(80000)))
        .when(withdraw)
        .then_expect_events(vec![]);
    let reverse = WalletCommand::ReverseWithdrawal {
        payout_id: payout(),
        reason: "connection to bank account failed".to_string(),
    };
    let reversed = WalletEvent::WithdrawalReversed {
        order_id: order(),
        payout_id: payout(),
        amount: dec!(80000),
        reason: "connection to bank account failed".to_string(),
    };
    test()
        .given(withdrawn(dec!(80000)))
        .when(reverse.clone())
        .then_expect_events(vec![reversed.clone()]);
    let mut history = withdrawn(dec!(80000));
    history.push(reversed);
    assert_eq!(
        fold(history.clone()).balance(),
        dec!(100000),
        "all of it is back"
    );
    test()
        .given(history)
        .when(reverse)
        .then_expect_events(vec![]);
    test()
        .given(credited())
        .when(WalletCommand::ReverseWithdrawal {
            payout_id: payout(),
            reason: "x".to_string(),
        })
        .then_expect_error(WalletError::RecordNotFound);
}

#[test]
fn the_undrawn_remainder_is_released_after_the_drawdown() {
    test()
        .given(withdrawn(dec!(80000)))
        .when(WalletCommand::ReleaseProceeds { order_id: order() })
        .then_expect_events(vec![WalletEvent::ProceedsReleased {
            order_id: order(),
            amount: dec!(20000),
        }]);
    let mut history = withdrawn(dec!(100000));
    test()
        .given(history.clone())
        .when(WalletCommand::ReleaseProceeds { order_id: order() })
        .then_expect_events(vec![]);
    history.push(WalletEvent::Recharged {
        payment_ref: "pay-1".to_string(),
        order_id: order(),
        amount: dec!(500),
        session_id: None,
        received_at: None,
    });
    assert_eq!(fold(history).balance(), dec!(500));
}

#[test]
fn a_payment_is_recorded_once_and_applied_once() {
    let recharged = vec![WalletEvent::Recharged {
        payment_ref: "pay-1".to_string(),
        order_id: order(),
        amount: dec!(5000),
        session_id: None,
        received_at: None,
    }];
    test()
        .given(recharged.clone())
        .when(WalletCommand::RecordRecharge {
            payment_ref: "pay-1".to_string(),
            order_id: order(),
            amount: dec!(5000),
            session_id: None,
            received_at: None,
        })
        .then_expect_events(vec![]);
    let apply = WalletCommand::ApplyRepayment {
        payment_ref: "pay-1".to_string(),
        order_id: order(),
        amount: dec!(5000),
    };
    let applied = WalletEvent::RepaymentApplied {
        payment_ref: "pay-1".to_string(),
        order_id: order(),
        amount: dec!(5000),
    };
    test()
        .given(recharged.clone())
        .when(apply.clone())
        .then_expect_events(vec![applied.clone()]);
    let mut history = recharged;
    history.push(applied);
    assert_eq!(fold(history.clone()).cash(), Decimal::ZERO);
    test()
        .given(history.clone())
        .when(apply)
        .then_expect_events(vec![]);
    // A replayed webhook after the payment was applied changes nothing either.
    test()
        .given(history)
        .when(WalletCommand::RecordRecharge {
            payment_ref: "pay-1".to_string(),
            order_id: order(),
            amount: dec!(5000),
            session_id: None,
            received_at: None,
        })
        .then_expect_events(vec![]);
}

#[test]
fn money_received_beyond_what_is_owed_is_refunded_not_kept_p1() {
    // 5,000 arrived but the order accepted only 3,000: the other 2,000 goes back.
    let history = vec![
        WalletEvent::Recharged {
            payment_ref: "pay-1".to_string(),
            order_id: order(),
            amount: dec!(5000),
            session_id: None,
            received_at: None,
        },
        WalletEvent::RepaymentApplied {
            payment_ref: "pay-1".to_string(),
            order_id: order(),
            amount: dec!(3000),
        },
    ];
    assert_eq!(fold(history.clone()).cash(), dec!(2000));
    let refund = WalletCommand::RefundExcess {
        payment_ref: "pay-1".to_string(),
        refund_id: refund_id(),
        amount: dec!(2000),
        account: bound(),
    };
    let requested = WalletEvent::RefundRequested {
        refund_id: refund_id(),
        payment_ref: "pay-1".to_string(),
        order_id: order(),
        amount: dec!(2000),
        account: bound(),
    };
    test()
        .given(history.clone())
        .when(refund.clone())
        .then_expect_events(vec![requested.clone()]);
    let mut refunded = history.clone();
    refunded.push(requested);
    // No cash is left in the wallet, and the refund is sent once.
    assert_eq!(fold(refunded.clone()).cash(), Decimal::ZERO);
    test()
        .given(refunded.clone())
        .when(refund)
        .then_expect_events(vec![]);
    // Never more than the payment left.
    test()
        .given(history.clone())
        .when(WalletCommand::RefundExcess {
            payment_ref: "pay-1".to_string(),
            refund_id: refund_id(),
            amount: dec!(2000.01),
            account: bound(),
        })
        .then_expect_error(WalletError::InsufficientBalance);
    // One result per refund; a returned refund is the borrower's cash again.
    let failed = WalletEvent::RefundFailed {
        refund_id: refund_id(),
        order_id: order(),
        amount: dec!(2000),
        reason: "closed account".to_string(),
    };
    test()
        .given(refunded.clone())
        .when(WalletCommand::RecordRefundResult {
            refund_id: refund_id(),
            failure: Some("closed account".to_string()),
        })
        .then_expect_events(vec![failed.clone()]);
    refunded.push(failed);
    assert_eq!(fold(refunded.clone()).cash(), dec!(2000));
    test()
        .given(refunded)
        .when(WalletCommand::RecordRefundResult {
            refund_id: refund_id(),
            failure: None,
        })
        .then_expect_events(vec![]);
}

#[test]
fn a_refund_the_bank_returned_is_sent_again_once_to_another_account_p1() {
    let returned_by = bound();
    let fixed = crate::types::BankAccount {
        account_no: "009876543210".to_string(),
        ..bound()
    };
    let history = vec![
        WalletEvent::Recharged {
            payment_ref: "pay-1".to_string(),
            order_id: order(),
            amount: dec!(2000),
            session_id: None,
            received_at: None,
        },
        WalletEvent::RefundRequested {
            refund_id: refund_id(),
            payment_ref: "pay-1".to_string(),
            order_id: order(),
            amount: dec!(2000),
            account: returned_by.clone(),
        },
        WalletEvent::RefundFailed {
            refund_id: refund_id(),
            order_id: order(),
            amount: dec!(2000),
            reason: "closed account".to_string(),
        },
    ];
    let wallet = fold(history.clone());
    let key = format!("refund:{}", refund_id());
    assert_eq!(
        wallet.returned_refunds(),
        vec![ReturnedRefund {
            key: key.clone(),
            amount: dec!(2000),
            returned_by: Some(returned_by),
        }]
    );
    let again = Uuid::from_u128(0xFF0);
    let resend = WalletCommand::RefundExcess {
        payment_ref: key.clone(),
        refund_id: again,
        amount: dec!(2000),
        account: fixed.clone(),
    };
    let requested = WalletEvent::RefundRequested {
        refund_id: again,
        payment_ref: key,
        order_id: order(),
        amount: dec!(2000),
        account: fixed,
    };
    test()
        .given(history.clone())
        .when(resend.clone())
        .then_expect_events(vec![requested.clone()]);
    let mut resent = history;
    resent.push(requested);
    let wallet = fold(resent.clone());
    assert_eq!(wallet.cash(), Decimal::ZERO);
    assert!(wallet.returned_refunds().is_empty());
    // Sent once, however often the process retries.
    test().given(resent).when(resend).then_expect_events(vec![]);
}

fn refund_id() -> Uuid {
    Uuid::from_u128(0xFEF)
}

fn bound() -> crate::types::BankAccount {
    crate::types::BankAccount {
        bank_name: "BDO".to_string(),
        account_no: "001234567890".to_string(),
        holder_name: "Ana Santos".to_string(),
    }
}

#[test]
fn applying_more_than_a_payment_brought_is_refused() {
    let recharged = WalletEvent::Recharged {
        payment_ref: "pay-1".to_string(),
        order_id: order(),
        amount: dec!(5000),
        session_id: None,
        received_at: None,
    };
    test()
        .given(vec![recharged])
        .when(WalletCommand::ApplyRepayment {
            payment_ref: "pay-1".to_string(),
            order_id: order(),
            amount: dec!(5000.01),
        })
        .then_expect_error(WalletError::InsufficientBalance);
}

#[test]
fn amounts_must_be_positive_with_two_decimals() {
    for amount in [dec!(0), dec!(-1), dec!(1.001)] {
        test()
            .given_no_previous_events()
            .when(WalletCommand::RecordRecharge {
                payment_ref: "pay-1".to_string(),
                order_id: order(),
                amount,
                session_id: None,
                received_at: None,
            })
            .then_expect_error(WalletError::InvalidAmount);
    }
}

#[test]
fn every_wallet_error_maps_to_its_catalogue_code() {
    assert_eq!(WalletError::InvalidAmount.code().code(), 10004);
    assert_eq!(WalletError::InsufficientBalance.code().code(), 40006);
    assert_eq!(WalletError::RecordNotFound.code().code(), 40007);
}
