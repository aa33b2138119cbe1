//! `wallets`: the `wallet` read model (balances per borrower).

use aggregates::wallet::{Wallet, WalletEvent};
use async_trait::async_trait;
use cqrs_es::Aggregate;

use crate::projection::{decode, money_text, stored_state, to_json, Projection, ProjectionError};
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

    async fn apply(
        &self,
        store: &mut dyn RowStore,
        event: &StoredEvent,
    ) -> Result<(), ProjectionError> {
        if event.aggregate_type != Wallet::TYPE {
            return Ok(());
        }
        let payload: WalletEvent = decode(event)?;
        let (mut wallet, _) = stored_state::<Wallet>(store, &WALLET, event).await?;
        wallet.apply(payload);
        let proceeds = wallet.balance() - wallet.cash();
        let row = Row {
            table: &WALLET,
            values: vec![
                event.aggregate_id.as_str().into(),
                money_text(proceeds).into(),
                money_text(wallet.cash()).into(),
                money_text(wallet.balance()).into(),
                to_json(&wallet).into(),
            ],
        };
        store.upsert(row).await
    }
}
