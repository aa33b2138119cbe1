//! `wallets`: the `wallet` read model (balances per borrower).

use aggregates::wallet::{Wallet, WalletEvent};
use async_trait::async_trait;
use cqrs_es::Aggregate;

use crate::projection::{decode, money_text, to_json, Projection, ProjectionError, StateCache};
use crate::rows::{Kind, Row, RowStore, TableSpec};
use crate::store::StoredEvent;

/// `wallet`.
pub static WALLET: TableSpec = TableSpec {
    name: "wallet",
    key_len: 1,
    columns: &[
        ("user_id", Kind::Text),
        ("proceeds", Kind::Text),
        ("cash", Kind::Text),
        ("balance", Kind::Text),
        ("state", Kind::Text),
    ],
};

/// Maintains `wallet` from Wallet events.
pub struct WalletsProjection;

static TABLES: [&TableSpec; 1] = [&WALLET];

#[async_trait]
impl Projection for WalletsProjection {
    fn name(&self) -> &'static str {
        "wallets"
    }

    fn tables(&self) -> &'static [&'static TableSpec] {
        &TABLES
    }

    fn follows(&self) -> &'static [&'static str] {
        &[Wallet::TYPE]
    }

    async fn apply_all(
        &self,
        store: &mut dyn RowStore,
        events: &[StoredEvent],
    ) -> Result<(), ProjectionError> {
        let mine = || events.iter().filter(|e| self.applies_to(e));
        let mut wallets = StateCache::<Wallet, ()>::new();
        wallets.preload(store, &WALLET, mine()).await?;
        for event in mine() {
            let payload = decode::<WalletEvent>(event)?;
            let wallet = wallets.entry(store, &WALLET, event, |_| ()).await?;
            wallet.state.apply(payload.into_owned());
        }
        for wallet in wallets.into_touched() {
            let state = &wallet.state;
            let proceeds = state.balance() - state.cash();
            let row = Row {
                table: &WALLET,
                values: vec![
                    wallet.id.as_str().into(),
                    money_text(proceeds).into(),
                    money_text(state.cash()).into(),
                    money_text(state.balance()).into(),
                    to_json(state).into(),
                ],
            };
            store.upsert(row).await?;
        }
        Ok(())
    }
}
