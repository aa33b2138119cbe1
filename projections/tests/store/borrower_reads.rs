//! The borrower's one-order read (`reads::borrower::order`), on both stores: the
//! session and the order's row in one statement, with only the `order_detail`
//! columns asked for, and never another borrower's order (issue 14, queries).

use projections::consumer::runner::begin;
use projections::read_models::orders::{LOAN_PROGRESS, ORDER_DETAIL};
use projections::reads::borrower::{order, OrderColumns, OrderRow};
use projections::rows::{Row, RowStore};

use crate::helpers::TestDb;

on_both_stores!(an_order_read_answers_the_columns_asked_for_and_only_the_borrowers_own);

fn detail(order_id: &str, user_id: &str) -> Row {
    Row {
        table: &ORDER_DETAIL,
        values: vec![
            order_id.into(),
            user_id.into(),
            1.into(),
            "2026-11-28T00:00:00.000000Z".into(),
            format!("{{\"doc\":\"{order_id}\"}}").into(),
            format!("{{\"state\":\"{order_id}\"}}").into(),
            "9999-12-31".into(),
        ],
    }
}

fn progress(user_id: &str, order_id: &str) -> Row {
    Row {
        table: &LOAN_PROGRESS,
        values: vec![
            user_id.into(),
            order_id.into(),
            1.into(),
            "1000.00".into(),
            "0.00".into(),
            "2026-11-28T00:00:00.000000Z".into(),
            String::new().into(),
        ],
    }
}

/// Given borrowers `a` (order `o-a`, their latest) and `b` (order `o-b`), each with a
/// session, when `a`'s session reads an order with each choice of columns, then it
/// gets `o-a`'s document, state or both and `None` for the column not asked for; the
/// latest order when none is named; no row for `b`'s order or an unknown one; and
/// nothing at all for an unknown session.
async fn an_order_read_answers_the_columns_asked_for_and_only_the_borrowers_own(db: &TestDb) {
    let mut tx = begin(&db.database).await.unwrap();
    for (token, subject) in [("hash-a", "a"), ("hash-b", "b")] {
        tx.execute(
            "insert into auth_token (token_hash, subject, kind, expires_at, created_at) \
             values ($1, $2, 'borrower', '2099-01-01T00:00:00.000000Z', '2026-11-28T00:00:00.000000Z')",
            &[token.into(), subject.into()],
        )
        .await
        .unwrap();
    }
    for row in [
        detail("o-a", "a"),
        detail("o-b", "b"),
        progress("a", "o-a"),
        progress("b", "o-b"),
    ] {
        tx.upsert(row).await.unwrap();
    }
    tx.commit().await.unwrap();

    let doc = Some(r#"{"doc":"o-a"}"#.to_string());
    let state = Some(r#"{"state":"o-a"}"#.to_string());
    for (columns, expected) in [
        (
            OrderColumns::Doc,
            OrderRow {
                doc: doc.clone(),
                state: None,
            },
        ),
        (
            OrderColumns::State,
            OrderRow {
                doc: None,
                state: state.clone(),
            },
        ),
        (
            OrderColumns::Both,
            OrderRow {
                doc: doc.clone(),
                state: state.clone(),
            },
        ),
    ] {
        for named in [Some("o-a"), None] {
            let (session, row) = order(&db.database, "hash-a", "borrower", named, columns)
                .await
                .unwrap()
                .expect("a's session");
            assert_eq!(session.subject, "a");
            assert_eq!(row.as_ref(), Some(&expected), "{columns:?} {named:?}");
        }
    }
    for other in ["o-b", "o-unknown"] {
        let (session, row) = order(
            &db.database,
            "hash-a",
            "borrower",
            Some(other),
            OrderColumns::Both,
        )
        .await
        .unwrap()
        .expect("a's session");
        assert_eq!(session.subject, "a");
        assert_eq!(row, None, "{other}");
    }
    let unknown = order(
        &db.database,
        "hash-x",
        "borrower",
        Some("o-a"),
        OrderColumns::Both,
    )
    .await
    .unwrap();
    assert!(unknown.is_none());
    let wrong_kind = order(
        &db.database,
        "hash-a",
        "auditor",
        Some("o-a"),
        OrderColumns::Both,
    )
    .await
    .unwrap();
    assert!(wrong_kind.is_none());
}
