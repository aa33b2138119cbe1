//! The fault run's check, on the PostgreSQL store the api wrote: every command that got
//! a success answer left its event (or payment page), and no payout or repayment was
//! applied twice; every bank change that got a success answer bound its account, and
//! every payout went to the account bound when it was requested (P3).
//!
//! Account numbers are personal data, sealed in the stored payloads with the borrower's
//! data key and a random nonce (ADR 0012): the raw `payload` column holds
//! `{"$sealed": …}` objects, and two sealings of one number differ. The checks that
//! compare account numbers therefore read the opened log
//! ([`EventLog::read_after`]); the others read fields that are not sealed (ids,
//! payment references, `replaced`) and stay SQL.

use std::collections::{HashMap, HashSet};

use projections::store::{Database, EventLog, LogPosition, StoreError, StoredEvent};
use serde_json::{json, Value};
use sqlx::PgPool;

use crate::borrower::Done;

/// How many events one read of the log returns.
const LOG_PAGE: i64 = 2_000;

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
///
/// # Errors
/// A query fails, or a sealed value does not open.
pub async fn check(pool: &PgPool, done: &[Done]) -> Result<Value, StoreError> {
    let log = read_log(pool).await?;
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
            // A bank change: the user's stream bound exactly that account, replacing
            // the earlier one (12.3). The number is sealed: looked up in the opened log.
            (None, "changeBank") => call
                .account_no
                .as_ref()
                .is_some_and(|account_no| log.replaced(&call.user_id, account_no)),
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
        // Counted on the opened log: the stored numbers are sealed (see the module).
        "payoutToAnotherAccount": log.payout_to_another_account,
        "found": found,
        "missing": missing.iter().take(20).collect::<Vec<_>>(),
        "missingCount": missing.len(),
        "duplicates": duplicates,
    }))
}

/// What the checks need from the opened event log, gathered in one pass in log order.
#[derive(Debug, Default)]
struct LogScan {
    /// Each user's last bound account number so far (User `BankCardBound`).
    bound: HashMap<String, String>,
    /// Each order's borrower (Order `LoanApplied.user_id`).
    borrower: HashMap<String, String>,
    /// (user id, account number) of every `BankCardBound` that replaced an account.
    replacements: HashSet<(String, String)>,
    /// Payouts whose account differs from the last `BankCardBound` of the order's
    /// borrower before the `PayoutRequested` in the log (or that the borrower had
    /// bound no account before); payouts of an order without `LoanApplied` are not
    /// counted.
    payout_to_another_account: u64,
}

impl LogScan {
    /// Takes in the next event of the log (events must come in log order).
    fn feed(&mut self, event: &StoredEvent) {
        // Only these three event types count; the others are not parsed at all.
        let counted = matches!(
            (event.aggregate_type.as_str(), event.event_type.as_str()),
            ("User", "BankCardBound") | ("Order", "LoanApplied") | ("Order", "PayoutRequested")
        );
        if !counted {
            return;
        }
        let Ok(payload) = event.payload.to_value() else {
            return;
        };
        let Some(body) = payload.get(&event.event_type) else {
            return;
        };
        let account_no = || body["account"]["account_no"].as_str().map(str::to_string);
        match (event.aggregate_type.as_str(), event.event_type.as_str()) {
            ("User", "BankCardBound") => {
                let Some(account_no) = account_no() else {
                    return;
                };
                if body["replaced"].as_bool() == Some(true) {
                    self.replacements
                        .insert((event.aggregate_id.clone(), account_no.clone()));
                }
                self.bound.insert(event.aggregate_id.clone(), account_no);
            }
            ("Order", "LoanApplied") => {
                if let Some(user_id) = body["user_id"].as_str() {
                    self.borrower
                        .insert(event.aggregate_id.clone(), user_id.to_string());
                }
            }
            ("Order", "PayoutRequested") => {
                if let Some(user_id) = self.borrower.get(&event.aggregate_id) {
                    if self.bound.get(user_id) != account_no().as_ref() {
                        self.payout_to_another_account += 1;
                    }
                }
            }
            _ => {}
        }
    }

    /// Whether `user_id`'s stream bound `account_no` in place of an earlier account.
    fn replaced(&self, user_id: &str, account_no: &str) -> bool {
        self.replacements
            .contains(&(user_id.to_string(), account_no.to_string()))
    }
}

/// Reads the whole log in order, opened (sealed account numbers as plain text, or as
/// `[erased]` once a borrower's key is erased), page by page into a [`LogScan`].
///
/// Run after the load has stopped: on PostgreSQL the log holds back events behind a
/// transaction still in flight, so an empty page is the end only once nothing writes.
async fn read_log(pool: &PgPool) -> Result<LogScan, StoreError> {
    let log = EventLog::new(&Database::Postgres(pool.clone()));
    let mut scan = LogScan::default();
    let mut after = LogPosition::START;
    loop {
        let page = log.read_after(after, LOG_PAGE).await?;
        let Some(last) = page.last() else {
            return Ok(scan);
        };
        after = last.position;
        for event in &page {
            scan.feed(event);
        }
    }
}

async fn count(pool: &PgPool, sql: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(sql).fetch_one(pool).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `n`-th event of the log: `event_type` of `aggregate` (type, id) with `body`.
    fn event(n: i64, aggregate: (&str, &str), event_type: &str, body: Value) -> StoredEvent {
        StoredEvent {
            position: LogPosition {
                transaction_id: n,
                global_position: n,
            },
            aggregate_type: aggregate.0.to_string(),
            aggregate_id: aggregate.1.to_string(),
            sequence: n,
            event_type: event_type.to_string(),
            event_version: "1.0".to_string(),
            payload: projections::store::Payload::from_value(&json!({ event_type: body })),
            metadata: projections::store::Metadata::from_value(&json!({})),
        }
    }

    fn account(account_no: &str) -> Value {
        json!({"bank_name": "BDO", "account_no": account_no, "holder_name": "Juan"})
    }

    fn scan(events: &[StoredEvent]) -> LogScan {
        let mut scan = LogScan::default();
        events.iter().for_each(|e| scan.feed(e));
        scan
    }

    #[test]
    fn a_payout_to_an_account_replaced_before_it_is_counted() {
        let user = ("User", "u1");
        let events = vec![
            event(
                1,
                user,
                "BankCardBound",
                json!({"account": account("1111"), "replaced": false}),
            ),
            event(2, ("Order", "o1"), "LoanApplied", json!({"user_id": "u1"})),
            event(3, ("Order", "o2"), "LoanApplied", json!({"user_id": "u1"})),
            // To the account bound last: fine.
            event(
                4,
                ("Order", "o1"),
                "PayoutRequested",
                json!({"account": account("1111")}),
            ),
            event(
                5,
                user,
                "BankCardBound",
                json!({"account": account("2222"), "replaced": true}),
            ),
            // To the account replaced before the request: counted.
            event(
                6,
                ("Order", "o2"),
                "PayoutRequested",
                json!({"account": account("1111")}),
            ),
        ];
        let scan = scan(&events);
        assert_eq!(scan.payout_to_another_account, 1);
        assert!(scan.replaced("u1", "2222"));
        assert!(
            !scan.replaced("u1", "1111"),
            "the first binding replaced nothing"
        );
        assert!(!scan.replaced("u2", "2222"));
    }

    #[test]
    fn a_payout_before_any_binding_is_counted_one_without_its_application_is_not() {
        let events = vec![
            event(1, ("Order", "o1"), "LoanApplied", json!({"user_id": "u1"})),
            event(
                2,
                ("Order", "o1"),
                "PayoutRequested",
                json!({"account": account("1111")}),
            ),
            event(
                3,
                ("Order", "o9"),
                "PayoutRequested",
                json!({"account": account("1111")}),
            ),
        ];
        assert_eq!(scan(&events).payout_to_another_account, 1);
    }
}
