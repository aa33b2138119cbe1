//! Reading a batch's read-model rows in one statement (`RowStore::prefetch` on
//! `Buffered`), on both stores: the rows read are exactly the stored ones,
//! whatever the keys hold, and a batch still reads what it wrote (issue 14).

use projections::consumer::runner::begin;
use projections::read_models::orders::ORDER_TIMELINE;
use projections::read_models::users::USER_PROFILE;
use projections::rows::{Buffered, Row, RowStore, SqlTx, Value};

use crate::helpers::TestDb;

on_both_stores!(
    many_keys_read_exactly_the_stored_rows,
    a_prefetched_batch_reads_what_it_wrote_and_what_was_stored
);

fn profile(user_id: &str, doc: &str) -> Row {
    Row {
        table: &USER_PROFILE,
        values: vec![
            user_id.into(),
            "09170000000".into(),
            0.into(),
            "2026-11-27T00:00:00.000000Z".into(),
            doc.into(),
            "{}".into(),
        ],
    }
}

async fn store_rows(db: &TestDb, rows: Vec<Row>) {
    let mut tx = begin(&db.database).await.unwrap();
    for row in rows {
        tx.upsert(row).await.unwrap();
    }
    commit(tx).await;
}

async fn commit(tx: SqlTx<'static>) {
    match tx {
        SqlTx::Sqlite(tx) => tx.commit().await.unwrap(),
        SqlTx::Postgres(tx) => tx.commit().await.unwrap(),
    }
}

/// Given 600 stored profiles, some with keys that need quoting in SQL or JSON, when a
/// batch prefetches them among as many absent keys, a repeat and a key of the wrong
/// kind, then each `get` answers the stored row or none; a prefetch on a composite-key
/// table is ignored and its `get` still reads the row.
async fn many_keys_read_exactly_the_stored_rows(db: &TestDb) {
    let odd = [
        "quote\"d",
        "back\\slash",
        "it's",
        "ünï 码",
        "line\nbreak",
        "",
    ];
    let mut stored: Vec<String> = (0..594).map(|n| format!("user-{n:04}")).collect();
    stored.extend(odd.iter().map(|key| key.to_string()));
    let mut rows: Vec<Row> = stored
        .iter()
        .map(|key| profile(key, &format!("doc of {key}")))
        .collect();
    let step = Row {
        table: &ORDER_TIMELINE,
        values: vec![
            "order-1".into(),
            1.into(),
            "2026-11-27T00:00:00.000000Z".into(),
            "LoanApplied".into(),
            "user:1".into(),
            "{}".into(),
        ],
    };
    rows.push(step.clone());
    store_rows(db, rows).await;
    let mut asked: Vec<Value> = vec![Value::Int(7), "user-0001".into()];
    for key in &stored {
        asked.push(key.as_str().into());
        asked.push(format!("{key}-absent").into());
    }

    let mut tx = begin(&db.database).await.unwrap();
    let mut batch = Buffered::new(&mut tx);
    batch
        .prefetch(&USER_PROFILE, &mut asked.into_iter())
        .await
        .unwrap();
    batch
        .prefetch(&USER_PROFILE, &mut std::iter::empty())
        .await
        .unwrap();
    for key in &stored {
        let row = batch
            .get(&USER_PROFILE, &[key.as_str().into()])
            .await
            .unwrap();
        assert_eq!(
            row.map(|row| row.text("doc").to_string()),
            Some(format!("doc of {key}")),
            "{key:?}"
        );
        let absent = format!("{key}-absent");
        let row = batch.get(&USER_PROFILE, &[absent.into()]).await.unwrap();
        assert_eq!(row, None, "{key:?}");
    }
    batch
        .prefetch(&ORDER_TIMELINE, &mut std::iter::once("order-1".into()))
        .await
        .unwrap();
    let key = ["order-1".into(), 1.into()];
    assert_eq!(batch.get(&ORDER_TIMELINE, &key).await.unwrap(), Some(step));
    batch.flush().await.unwrap();
    commit(tx).await;
}

/// Given stored profiles `a` and `b`, when a batch upserts `a`, prefetches `a`, `b`
/// and the absent `c`, then upserts `c`, then every `get` answers the batch's own row
/// where it wrote one and the stored row otherwise, and the commit leaves exactly that.
async fn a_prefetched_batch_reads_what_it_wrote_and_what_was_stored(db: &TestDb) {
    store_rows(db, vec![profile("a", "stored a"), profile("b", "stored b")]).await;

    let mut tx = begin(&db.database).await.unwrap();
    let mut batch = Buffered::new(&mut tx);
    batch.upsert(profile("a", "batch a")).await.unwrap();
    let keys: Vec<Value> = ["a", "b", "c", "b"].into_iter().map(Value::from).collect();
    batch
        .prefetch(&USER_PROFILE, &mut keys.clone().into_iter())
        .await
        .unwrap();
    let doc = |row: Option<Row>| row.map(|row| row.text("doc").to_string());
    let get = |key: &str| [Value::from(key)];
    assert_eq!(
        doc(batch.get(&USER_PROFILE, &get("a")).await.unwrap()),
        Some("batch a".into())
    );
    assert_eq!(
        doc(batch.get(&USER_PROFILE, &get("b")).await.unwrap()),
        Some("stored b".into())
    );
    assert_eq!(
        doc(batch.get(&USER_PROFILE, &get("c")).await.unwrap()),
        None
    );
    batch.upsert(profile("c", "batch c")).await.unwrap();
    assert_eq!(
        doc(batch.get(&USER_PROFILE, &get("c")).await.unwrap()),
        Some("batch c".into())
    );
    // Prefetching again reads nothing over what the batch holds.
    batch
        .prefetch(&USER_PROFILE, &mut keys.clone().into_iter())
        .await
        .unwrap();
    assert_eq!(
        doc(batch.get(&USER_PROFILE, &get("c")).await.unwrap()),
        Some("batch c".into())
    );
    batch.flush().await.unwrap();
    commit(tx).await;

    let mut tx = begin(&db.database).await.unwrap();
    let mut after = Vec::new();
    for key in ["a", "b", "c"] {
        after.push(doc(tx.get(&USER_PROFILE, &get(key)).await.unwrap()));
    }
    assert_eq!(
        after,
        vec![
            Some("batch a".into()),
            Some("stored b".into()),
            Some("batch c".into())
        ]
    );
    commit(tx).await;
}
