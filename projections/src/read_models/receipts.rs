//! `receipts`: one official receipt per payment received and one per refund sent
//! back (PRODUCT.md 12.5, 12.1), the facts the api prints on a receipt PDF.
//!
//! Guarantees:
//! - every payment the lender received for an order has exactly one receipt: a
//!   recharge (`Recharged`, the payment page) or a manual repayment recorded by an
//!   auditor (`RepaymentReceived` with a manual source), keyed by the order and the
//!   payment's reference, so the events of one payment (received, applied,
//!   excess refunded) complete one receipt and a re-delivered event cannot make two;
//! - every refund (`RefundRequested`) has exactly one receipt, keyed by its id, whose
//!   status follows the bank (`RefundPaid`, `RefundFailed`);
//! - a receipt's number (`OR-2611-000157` for a payment, `RF-…` for a refund) is the
//!   month and global log position of the event that opened it, so it is unique and
//!   the same after any rebuild; ids stay on the wire, as for order numbers.
//!
//! Its own projection with its own checkpoint: on an existing database it starts at
//! the beginning of the log, so payments made before it existed get receipts too.

use aggregates::order::{Order, OrderEvent, RepaymentSource};
use aggregates::wallet::{Wallet, WalletEvent};
use async_trait::async_trait;
use chrono::{DateTime, Utc};
use cqrs_es::Aggregate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::projection::{
    decode, money_text, recorded_at, time_text, to_json, Projection, ProjectionError,
};
use crate::read_models::orders::order_event_time;
use crate::rows::{Kind, Row, RowStore, TableSpec, Value};
use crate::store::StoredEvent;

/// `receipt`: one row per receipt.
pub static RECEIPT: TableSpec = TableSpec {
    name: "receipt",
    key_len: 1,
    columns: &[
        ("receipt_key", Kind::Text),
        ("receipt_no", Kind::Text),
        ("order_id", Kind::Text),
        ("kind", Kind::Text),
        ("amount", Kind::Text),
        ("at", Kind::Text),
        ("doc", Kind::Text),
    ],
};

/// What a receipt is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ReceiptKind {
    /// Money received from the borrower.
    Payment,
    /// Money sent back to the borrower (12.1).
    Refund,
}

impl ReceiptKind {
    /// The stored name (`payment`, `refund`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Payment => "payment",
            Self::Refund => "refund",
        }
    }
}

/// How a payment reached the lender.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Channel {
    /// The payment page (payment provider).
    Online,
    /// A bank transfer an auditor recorded.
    Manual,
}

/// Where a refund stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RefundStatus {
    /// Sent to the payout provider.
    Sent,
    /// The bank confirmed it.
    Paid,
    /// The bank returned it (the cash is the borrower's again and is sent again).
    Returned,
}

/// One installment's share of a payment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReceiptAllocation {
    /// The installment number.
    pub period: u32,
    /// The amount applied to it.
    #[serde(with = "aggregates::money")]
    pub amount: Decimal,
}

/// A receipt as stored in `receipt.doc`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Receipt {
    /// `OR-yymm-position` (payment) or `RF-yymm-position` (refund).
    pub receipt_no: String,
    /// Payment or refund.
    pub kind: ReceiptKind,
    /// The order.
    pub order_id: String,
    /// The payment's reference (provider's or the auditor's).
    pub payment_ref: String,
    /// Received (payment) or sent back (refund).
    #[serde(with = "aggregates::money")]
    pub amount: Decimal,
    /// When it was received or the refund was requested.
    pub at: DateTime<Utc>,
    /// Payments: how the money came.
    pub channel: Option<Channel>,
    /// Payments: the part applied to the loan.
    #[serde(with = "aggregates::money")]
    pub applied: Decimal,
    /// Payments: the installments the applied part went to, oldest first.
    pub allocations: Vec<ReceiptAllocation>,
    /// Payments: the part refunded as not owed.
    #[serde(with = "aggregates::money")]
    pub refunded: Decimal,
    /// Payments: why a part was refunded; refunds: why the bank returned it.
    pub reason: Option<String>,
    /// Refunds: the refund's id.
    pub refund_id: Option<String>,
    /// Refunds: the bank and masked account number it was sent to.
    pub account: Option<String>,
    /// Refunds: the receipt of the payment the money came from.
    pub for_receipt_no: Option<String>,
    /// Refunds: where it stands.
    pub status: Option<RefundStatus>,
    /// Refunds: when the bank confirmed or returned it.
    pub resolved_at: Option<DateTime<Utc>>,
}

/// The receipt number of a receipt opened by the event at `position` at `at`.
pub fn receipt_number(kind: ReceiptKind, at: DateTime<Utc>, position: i64) -> String {
    let prefix = match kind {
        ReceiptKind::Payment => "OR",
        ReceiptKind::Refund => "RF",
    };
    format!("{prefix}-{}-{position:06}", at.format("%y%m"))
}

fn payment_key(order_id: &str, payment_ref: &str) -> String {
    format!("payment:{order_id}:{payment_ref}")
}

fn refund_key(refund_id: &str) -> String {
    format!("refund:{refund_id}")
}

/// Maintains `receipt` from Order and Wallet events.
pub struct ReceiptsProjection;

static TABLES: [&TableSpec; 1] = [&RECEIPT];

#[async_trait]
impl Projection for ReceiptsProjection {
    fn name(&self) -> &'static str {
        "receipts"
    }

    fn tables(&self) -> &'static [&'static TableSpec] {
        &TABLES
    }

    fn follows(&self) -> &'static [&'static str] {
        &[Order::TYPE, Wallet::TYPE]
    }

    async fn apply_all(
        &self,
        store: &mut dyn RowStore,
        events: &[StoredEvent],
    ) -> Result<(), ProjectionError> {
        for event in events {
            if event.aggregate_type == Order::TYPE {
                let payload = decode::<OrderEvent>(event)?;
                apply_order(store, event, &payload).await?;
            } else if event.aggregate_type == Wallet::TYPE {
                let payload = decode::<WalletEvent>(event)?;
                apply_wallet(store, event, &payload).await?;
            }
        }
        Ok(())
    }
}

async fn load(store: &mut dyn RowStore, key: &str) -> Result<Option<Receipt>, ProjectionError> {
    let Some(row) = store.get(&RECEIPT, &[Value::from(key)]).await? else {
        return Ok(None);
    };
    serde_json::from_str(row.text("doc"))
        .map(Some)
        .map_err(|source| ProjectionError::Decode {
            what: "receipt",
            position: crate::store::LogPosition::default(),
            source,
        })
}

async fn save(
    store: &mut dyn RowStore,
    key: &str,
    receipt: &Receipt,
) -> Result<(), ProjectionError> {
    store
        .upsert(Row {
            table: &RECEIPT,
            values: vec![
                key.into(),
                receipt.receipt_no.as_str().into(),
                receipt.order_id.as_str().into(),
                receipt.kind.as_str().into(),
                money_text(receipt.amount).into(),
                time_text(receipt.at).into(),
                to_json(receipt).into(),
            ],
        })
        .await
}

/// A new receipt opened by `event`.
fn opened(
    kind: ReceiptKind,
    event: &StoredEvent,
    order_id: &str,
    payment_ref: &str,
    amount: Decimal,
    at: DateTime<Utc>,
) -> Receipt {
    Receipt {
        receipt_no: receipt_number(kind, at, event.position.global_position),
        kind,
        order_id: order_id.to_string(),
        payment_ref: payment_ref.to_string(),
        amount,
        at,
        channel: None,
        applied: Decimal::ZERO,
        allocations: Vec::new(),
        refunded: Decimal::ZERO,
        reason: None,
        refund_id: None,
        account: None,
        for_receipt_no: None,
        status: None,
        resolved_at: None,
    }
}

async fn apply_order(
    store: &mut dyn RowStore,
    event: &StoredEvent,
    payload: &OrderEvent,
) -> Result<(), ProjectionError> {
    let order_id = event.aggregate_id.as_str();
    match payload {
        OrderEvent::RepaymentReceived {
            payment_ref,
            amount,
            allocations,
            source,
            ..
        } => {
            let key = payment_key(order_id, payment_ref);
            let at = order_event_time(payload);
            let mut receipt = match load(store, &key).await? {
                Some(receipt) => receipt,
                // A manual repayment: the money arrived with this event.
                None => opened(
                    ReceiptKind::Payment,
                    event,
                    order_id,
                    payment_ref,
                    *amount,
                    at,
                ),
            };
            if receipt.channel.is_none() {
                receipt.channel = Some(match source {
                    RepaymentSource::Recharge => Channel::Online,
                    RepaymentSource::Manual { .. } => Channel::Manual,
                });
            }
            if matches!(source, RepaymentSource::Manual { .. }) {
                // What the auditor recorded: the applied part plus any refunded excess.
                receipt.amount = *amount + receipt.refunded;
            }
            receipt.applied = *amount;
            receipt.allocations = allocations
                .iter()
                .map(|a| ReceiptAllocation {
                    period: a.period,
                    amount: a.amount,
                })
                .collect();
            save(store, &key, &receipt).await
        }
        OrderEvent::PaymentRefundDue {
            payment_ref,
            amount,
            reason,
            ..
        } => {
            let key = payment_key(order_id, payment_ref);
            let at = order_event_time(payload);
            let mut receipt = match load(store, &key).await? {
                Some(receipt) => receipt,
                None => {
                    let mut receipt = opened(
                        ReceiptKind::Payment,
                        event,
                        order_id,
                        payment_ref,
                        Decimal::ZERO,
                        at,
                    );
                    receipt.channel = Some(Channel::Manual);
                    receipt
                }
            };
            receipt.refunded += *amount;
            if receipt.channel == Some(Channel::Manual) {
                receipt.amount = receipt.applied + receipt.refunded;
            }
            receipt.reason = Some(reason.clone());
            save(store, &key, &receipt).await
        }
        _ => Ok(()),
    }
}

async fn apply_wallet(
    store: &mut dyn RowStore,
    event: &StoredEvent,
    payload: &WalletEvent,
) -> Result<(), ProjectionError> {
    let at = recorded_at(event);
    match payload {
        WalletEvent::Recharged {
            payment_ref,
            order_id,
            amount,
            ..
        } => {
            let order_id = order_id.to_string();
            let key = payment_key(&order_id, payment_ref);
            if load(store, &key).await?.is_some() {
                return Ok(());
            }
            let mut receipt = opened(
                ReceiptKind::Payment,
                event,
                &order_id,
                payment_ref,
                *amount,
                at,
            );
            receipt.channel = Some(Channel::Online);
            save(store, &key, &receipt).await
        }
        WalletEvent::RefundRequested {
            refund_id,
            payment_ref,
            order_id,
            amount,
            account,
        } => {
            let key = refund_key(&refund_id.to_string());
            if load(store, &key).await?.is_some() {
                return Ok(());
            }
            let order_id = order_id.to_string();
            let paid = load(store, &payment_key(&order_id, payment_ref)).await?;
            let mut receipt = opened(
                ReceiptKind::Refund,
                event,
                &order_id,
                payment_ref,
                *amount,
                at,
            );
            receipt.refund_id = Some(refund_id.to_string());
            receipt.account = Some(format!(
                "{} {}",
                account.bank_name,
                account.masked_account_no()
            ));
            receipt.for_receipt_no = paid.map(|p| p.receipt_no);
            receipt.status = Some(RefundStatus::Sent);
            save(store, &key, &receipt).await
        }
        WalletEvent::RefundPaid { refund_id, .. } | WalletEvent::RefundFailed { refund_id, .. } => {
            let key = refund_key(&refund_id.to_string());
            let Some(mut receipt) = load(store, &key).await? else {
                return Ok(());
            };
            if let WalletEvent::RefundFailed { reason, .. } = payload {
                receipt.status = Some(RefundStatus::Returned);
                receipt.reason = Some(reason.clone());
            } else {
                receipt.status = Some(RefundStatus::Paid);
            }
            receipt.resolved_at = Some(at);
            save(store, &key, &receipt).await
        }
        _ => Ok(()),
    }
}
