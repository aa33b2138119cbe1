//! The fault run's check, on the PostgreSQL store the api wrote: every command that got
//! a success answer left its event (or payment page), and no payout or repayment was
//! applied twice; every bank change that got a success answer bound its account, and
//! every payout went to the account bound when it was requested (P3).

use serde_json::{json, Value};
use sqlx::PgPool;

use crate::borrower::Done;

/// The event a successful call must have left on its order.
fn expected_event(kind: &str) -> Option<&'static str> {
    match kind {
        "apply" => Some("LoanApplied"),
        "startReview" => Some("ReviewStarted"),
        "passFirst" => Some("FirstAuditPassed"),
        "passFinal" => Some("FinalAuditPassed"),
        "withdraw" => Some("PayoutRequested"),
        _ => None,
    }
}

/// Checks `done` against the store: `{answeredOk, bankChanges, payoutToAnotherAccount,
/// found, missing: [...], missingCount, duplicates: {...}}`.
pub async fn check(pool: &PgPool, done: &[Done]) -> Result<Value, sqlx::Error> {
    let mut found = 0u64;
    let mut missing = Vec::new();
    for call in done {
        let present: bool = match (expected_event(call.kind), call.kind) {
            (Some(event_type), _) => {
                sqlx::query_scalar(
                    "select exists (select 1 from events where aggregate_id = $1 and event_type = $2)",
                )
                .bind(&call.order_id)
                .bind(event_type)
                .fetch_one(pool)
                .await?
            }
            // A page: the order opened its session (12.1) and the page row exists.
            (None, "recharge") => {
                sqlx::query_scalar(
                    "select exists (select 1 from payment_session where session_id = $1) \
                     and exists (select 1 from events where aggregate_id = $2 \
                       and event_type = 'PaymentSessionOpened' \
                       and payload -> 'PaymentSessionOpened' ->> 'session_id' = $1)",
                )
                .bind(&call.session_id)
                .bind(&call.order_id)
                .fetch_one(pool)
                .await?
            }
            // A paid page: the session is paid and the wallet got the money exactly
            // under the session's payment reference.
            (None, "pay") => {
                sqlx::query_scalar(
                    "select exists (select 1 from payment_session s join events e \
                       on e.event_type = 'Recharged' and e.payload -> 'Recharged' ->> 'payment_ref' = s.payment_ref \
                     where s.session_id = $1 and s.status = 'paid')",
                )
                .bind(&call.session_id)
                .fetch_one(pool)
                .await?
            }
            // A bank change: the user's stream bound exactly that account (12.3).
            (None, "changeBank") => {
                sqlx::query_scalar(
                    "select exists (select 1 from events where aggregate_type = 'User' \
                       and aggregate_id = $1 and event_type = 'BankCardBound' \
                       and payload -> 'BankCardBound' -> 'account' ->> 'account_no' = $2 \
                       and (payload -> 'BankCardBound' ->> 'replaced')::boolean)",
                )
                .bind(&call.user_id)
                .bind(&call.account_no)
                .fetch_one(pool)
                .await?
            }
            _ => false,
        };
        if present {
            found += 1;
        } else {
            missing.push(json!(call));
        }
    }
    let duplicates = json!({
        // One payout per order (single drawdown, PRODUCT.md 4.4).
        "payoutSucceededTwice": count(pool, "select count(*) from (select aggregate_id from events \
            where event_type = 'PayoutSucceeded' group by aggregate_id having count(*) > 1) d").await?,
        // Each payment applied at most once: to the wallet, to the order, from the wallet.
        "rechargedTwice": count(pool, "select count(*) from (select payload -> 'Recharged' ->> 'payment_ref' from events \
            where event_type = 'Recharged' group by 1 having count(*) > 1) d").await?,
        "repaymentReceivedTwice": count(pool, "select count(*) from (select payload -> 'RepaymentReceived' ->> 'payment_ref' from events \
            where event_type = 'RepaymentReceived' group by 1 having count(*) > 1) d").await?,
        "repaymentAppliedTwice": count(pool, "select count(*) from (select payload -> 'RepaymentApplied' ->> 'payment_ref' from events \
            where event_type = 'RepaymentApplied' group by 1 having count(*) > 1) d").await?,
        // A session paid at most once, a refund sent at most once per payment (12.1).
        "sessionPaidTwice": count(pool, "select count(*) from (select payload -> 'PaymentSessionPaid' ->> 'session_id' from events \
            where event_type = 'PaymentSessionPaid' group by 1 having count(*) > 1) d").await?,
        "refundedTwice": count(pool, "select count(*) from (select payload -> 'RefundRequested' ->> 'payment_ref' from events \
            where event_type = 'RefundRequested' group by 1 having count(*) > 1) d").await?,
        // One application open per borrower at a time (apply as a workflow).
        "applicationOpenedTwice": count(pool, "select count(*) from (select payload -> 'ApplicationOpened' ->> 'order_id' from events \
            where event_type = 'ApplicationOpened' group by 1 having count(*) > 1) d").await?,
    });
    Ok(json!({
        "answeredOk": done.len(),
        // Bank accounts replaced (with an SMS code) during the run.
        "bankChanges": count(pool, "select count(*) from events where event_type = 'BankCardBound' \
            and (payload -> 'BankCardBound' ->> 'replaced')::boolean").await?,
        // P3: every payout goes to the account the borrower's stream had bound last
        // before the payout was requested, in log order (never an old or a newer one).
        "payoutToAnotherAccount": count(pool, PAYOUT_TO_ANOTHER_ACCOUNT).await?,
        "found": found,
        "missing": missing.iter().take(20).collect::<Vec<_>>(),
        "missingCount": missing.len(),
        "duplicates": duplicates,
    }))
}

/// Payouts whose account differs from the last `BankCardBound` of the order's
/// borrower before the `PayoutRequested` in the log.
const PAYOUT_TO_ANOTHER_ACCOUNT: &str = "\
    select count(*) from events p \
    join events a on a.aggregate_id = p.aggregate_id and a.event_type = 'LoanApplied' \
    where p.event_type = 'PayoutRequested' \
      and (p.payload -> 'PayoutRequested' -> 'account' ->> 'account_no') is distinct from ( \
        select b.payload -> 'BankCardBound' -> 'account' ->> 'account_no' from events b \
        where b.aggregate_type = 'User' and b.event_type = 'BankCardBound' \
          and b.aggregate_id = a.payload -> 'LoanApplied' ->> 'user_id' \
          and (b.transaction_id, b.global_position) < (p.transaction_id, p.global_position) \
        order by b.transaction_id desc, b.global_position desc limit 1)";

async fn count(pool: &PgPool, sql: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(sql).fetch_one(pool).await
}
