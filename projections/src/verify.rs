//! `replay-tool verify`: proves the read side agrees with the event log.
//!
//! Checks, each reported as a drift when it fails:
//! 1. every aggregate refolds: its events decode and its sequences run 1, 2, 3, …;
//! 2. every read model equals a fresh rebuild up to that projection's checkpoint;
//! 3. every journal entry sums to zero, and so does the whole trial balance;
//! 4. every wallet's cash equals the credit balance of its `borrower_wallet` account.
//!
//! Run it while the workers are idle (or stopped): a worker moving during the check
//! makes its tables differ from the rebuild taken at the checkpoint read before.

use std::collections::BTreeMap;

use aggregates::catalogue::{ProductLine, SettingsLine};
use aggregates::order::Order;
use aggregates::user::User;
use aggregates::wallet::Wallet;
use cqrs_es::Aggregate;
use rust_decimal::Decimal;

use crate::consumer::runner::read_checkpoint;
use crate::projection::{all, ProjectionError};
use crate::read_models::ledger::{borrower_wallet, LEDGER_JOURNAL};
use crate::read_models::wallets::WALLET;
use crate::rebuild::{fold_log, row_text};
use crate::rows::{dump_table, MemoryStore, Value};
use crate::store::{Database, EventLog, LogPosition, Payload};

/// What `verify` found.
#[derive(Debug, Default, Clone)]
pub struct VerifyReport {
    /// Events in the log.
    pub events: usize,
    /// Aggregates refolded.
    pub aggregates: usize,
    /// Read-model rows compared.
    pub rows_compared: usize,
    /// Journal postings checked.
    pub postings: usize,
    /// Wallets compared with the ledger.
    pub wallets: usize,
    /// Every disagreement, in words. Empty means all is well.
    pub drifts: Vec<String>,
}

impl VerifyReport {
    /// True when nothing drifted.
    pub fn is_clean(&self) -> bool {
        self.drifts.is_empty()
    }
}

/// At most this many differing rows are listed per table.
const MAX_LISTED: usize = 5;

/// Runs every check.
pub async fn verify(database: &Database) -> Result<VerifyReport, ProjectionError> {
    let mut report = VerifyReport::default();
    refold_aggregates(database, &mut report).await?;
    compare_read_models(database, &mut report).await?;
    check_ledger(database, &mut report).await?;
    Ok(report)
}

fn fold_one<A: Aggregate>(state: &mut A, payload: &Payload) -> Result<(), serde_json::Error> {
    let event: A::Event = payload.decode()?;
    state.apply(event);
    Ok(())
}

async fn refold_aggregates(
    database: &Database,
    report: &mut VerifyReport,
) -> Result<(), ProjectionError> {
    enum State {
        User(Box<User>),
        Order(Box<Order>),
        Wallet(Box<Wallet>),
        ProductLine(Box<ProductLine>),
        SettingsLine(Box<SettingsLine>),
    }
    let log = EventLog::new(database);
    let mut aggregates: BTreeMap<(String, String), (i64, Option<State>)> = BTreeMap::new();
    let mut after = LogPosition::START;
    loop {
        let page = log.read_after(after, 5_000).await?;
        let Some(last) = page.last() else { break };
        after = last.position;
        for event in &page {
            report.events += 1;
            let key = (event.aggregate_type.clone(), event.aggregate_id.clone());
            let (sequence, state) = aggregates.entry(key).or_insert_with(|| {
                let state = match event.aggregate_type.as_str() {
                    "User" => Some(State::User(Box::default())),
                    "Order" => Some(State::Order(Box::default())),
                    "Wallet" => Some(State::Wallet(Box::default())),
                    "ProductLine" => Some(State::ProductLine(Box::default())),
                    "SettingsLine" => Some(State::SettingsLine(Box::default())),
                    _ => None,
                };
                (0, state)
            });
            if event.sequence != *sequence + 1 {
                report.drifts.push(format!(
                    "{} {}: sequence {} follows {}",
                    event.aggregate_type, event.aggregate_id, event.sequence, sequence
                ));
            }
            *sequence = event.sequence;
            let folded = match state {
                Some(State::User(user)) => fold_one::<User>(user, &event.payload),
                Some(State::Order(order)) => fold_one::<Order>(order, &event.payload),
                Some(State::Wallet(wallet)) => fold_one::<Wallet>(wallet, &event.payload),
                Some(State::ProductLine(line)) => fold_one::<ProductLine>(line, &event.payload),
                Some(State::SettingsLine(line)) => fold_one::<SettingsLine>(line, &event.payload),
                None => {
                    report.drifts.push(format!(
                        "unknown aggregate type {} at {}",
                        event.aggregate_type, event.position
                    ));
                    Ok(())
                }
            };
            if let Err(error) = folded {
                report.drifts.push(format!(
                    "{} {} event {} does not decode: {error}",
                    event.aggregate_type, event.aggregate_id, event.sequence
                ));
            }
        }
    }
    report.aggregates = aggregates.len();
    Ok(())
}

async fn compare_read_models(
    database: &Database,
    report: &mut VerifyReport,
) -> Result<(), ProjectionError> {
    for projection in all() {
        let checkpoint = read_checkpoint(database, projection.name()).await?;
        let folded = fold_log(
            database,
            std::slice::from_ref(&projection),
            Some(checkpoint),
            &mut |_| {},
        )
        .await?;
        let fresh = &folded.stores[0];
        for table in projection.tables() {
            let live = dump_table(database, table).await?;
            let expected = fresh.rows_in_key_order(table.name);
            report.rows_compared += live.len().max(expected.len());
            let live_text: Vec<String> = live.iter().map(row_text).collect();
            let expected_text: Vec<String> = expected.iter().map(|r| row_text(r)).collect();
            if live_text != expected_text {
                let missing: Vec<&String> = expected_text
                    .iter()
                    .filter(|row| !live_text.contains(row))
                    .take(MAX_LISTED)
                    .collect();
                let extra: Vec<&String> = live_text
                    .iter()
                    .filter(|row| !expected_text.contains(row))
                    .take(MAX_LISTED)
                    .collect();
                report.drifts.push(format!(
                    "{}.{}: {} live rows, {} in a fresh rebuild at {checkpoint}; \
                     missing or different: {missing:?}; unexpected: {extra:?}",
                    projection.name(),
                    table.name,
                    live.len(),
                    expected.len()
                ));
            }
        }
    }
    Ok(())
}

async fn check_ledger(
    database: &Database,
    report: &mut VerifyReport,
) -> Result<(), ProjectionError> {
    // Live journal: each entry and the whole trial balance sum to zero.
    let journal = dump_table(database, &LEDGER_JOURNAL).await?;
    report.postings = journal.len();
    let mut entries: BTreeMap<String, i64> = BTreeMap::new();
    let mut accounts: BTreeMap<String, i64> = BTreeMap::new();
    for row in &journal {
        let (Some(Value::Text(entry)), Some(Value::Text(account)), Some(Value::Int(minor))) = (
            row.get("entry_id"),
            row.get("account"),
            row.get("amount_minor"),
        ) else {
            continue;
        };
        *entries.entry(entry.clone()).or_default() += minor;
        *accounts.entry(account.clone()).or_default() += minor;
    }
    for (entry, sum) in &entries {
        if *sum != 0 {
            report.drifts.push(format!(
                "journal entry {entry} sums to {sum} (hundredths), not 0"
            ));
        }
    }
    let trial_balance: i64 = accounts.values().sum();
    if trial_balance != 0 {
        report.drifts.push(format!(
            "trial balance is {trial_balance} (hundredths), not 0"
        ));
    }
    // Wallets against the ledger, both from one fresh fold of the whole log so they
    // describe the same moment.
    let projections = [
        crate::projection::by_name("wallets").expect("wallets projection"),
        crate::projection::by_name("ledger").expect("ledger projection"),
    ];
    let folded = fold_log(database, &projections, None, &mut |_| {}).await?;
    check_wallets_against_ledger(&folded.stores[0], &folded.stores[1], report);
    Ok(())
}

fn check_wallets_against_ledger(
    wallets: &MemoryStore,
    ledger: &MemoryStore,
    report: &mut VerifyReport,
) {
    let mut balances: BTreeMap<&str, Decimal> = BTreeMap::new();
    for row in ledger.rows(LEDGER_JOURNAL.name) {
        if let (Some(Value::Text(account)), Some(Value::Int(minor))) =
            (row.get("account"), row.get("amount_minor"))
        {
            *balances.entry(account.as_str()).or_default() += Decimal::new(*minor, 2);
        }
    }
    for row in wallets.rows(WALLET.name) {
        report.wallets += 1;
        let (Some(Value::Text(user)), Some(Value::Text(cash))) =
            (row.get("user_id"), row.get("cash"))
        else {
            continue;
        };
        let cash: Decimal = cash.parse().unwrap_or_default();
        let account = borrower_wallet(user);
        let ledger_cash = -balances.get(account.as_str()).copied().unwrap_or_default();
        if cash != ledger_cash {
            report.drifts.push(format!(
                "wallet of {user}: cash {cash} but {account} holds {ledger_cash}"
            ));
        }
    }
}
