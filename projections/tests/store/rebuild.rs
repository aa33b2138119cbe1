//! The PostgreSQL rebuild's parallel write (issue 14 item 5): the tables are written
//! into shadows several at once and swapped in with the checkpoints in one
//! transaction. What must hold: readers never see a table empty or half written; the
//! tables come back with their keys, indexes and views under their own names, and with
//! their storage parameters and grants, rebuild after rebuild; nothing of the shadows
//! is left behind; rebuilds at once take turns.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use projections::consumer::runner::Runner;
use projections::projection::all;
use projections::rebuild::{rebuild, tables_hash};
use projections::store::Database;
use projections::workload::seed;

use crate::helpers::TestDb;

/// Every key, index and view of the current schema, by table: (table, name, kind).
async fn schema_objects(pool: &sqlx::PgPool) -> Vec<(String, String, String)> {
    sqlx::query_as(
        "select coalesce(t.relname, c.relname)::text, c.relname::text, c.relkind::text \
         from pg_class c join pg_namespace n on n.oid = c.relnamespace \
         left join pg_index x on x.indexrelid = c.oid left join pg_class t on t.oid = x.indrelid \
         where n.nspname = current_schema() and c.relkind in ('r', 'i', 'v') \
         order by 1, 2",
    )
    .fetch_all(pool)
    .await
    .unwrap()
}

/// Storage parameters and grants, by table: (table, its reloptions, its TOAST table's,
/// the privileges granted to PUBLIC).
async fn table_settings(pool: &sqlx::PgPool) -> Vec<(String, String, String, String)> {
    sqlx::query_as(
        "select c.relname::text, coalesce(c.reloptions, '{}')::text, \
                coalesce(t.reloptions, '{}')::text, \
                coalesce((select string_agg(a.privilege_type, ',' order by a.privilege_type) \
                          from aclexplode(c.relacl) a where a.grantee = 0), '') \
         from pg_class c join pg_namespace n on n.oid = c.relnamespace \
         left join pg_class t on t.oid = c.reltoastrelid \
         where n.nspname = current_schema() and c.relkind = 'r' \
         and c.relname in ('order_detail', 'order_list', 'wallet') order by 1",
    )
    .fetch_all(pool)
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_rebuild_swaps_whole_tables_in_under_their_own_names() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let database = &db.database;
    let Database::Postgres(pool) = database else {
        unreachable!()
    };
    seed(database, 120).await.expect("seed");
    for projection in all() {
        Runner::new(database, projection).catch_up().await.unwrap();
    }
    let before = schema_objects(pool).await;
    assert!(before.iter().any(|(_, name, _)| name == "ledger_balances"));
    // An operator's tuning of a read model (fillfactor, its TOAST table's autovacuum)
    // and a reporting role's access (granted to PUBLIC here: roles are the cluster's,
    // not the test schema's), which `CREATE TABLE ... LIKE` would leave behind.
    for statement in [
        "alter table order_detail set (fillfactor = 70, toast.autovacuum_enabled = false)",
        "alter table wallet set (autovacuum_vacuum_scale_factor = 0.01)",
        "grant select on order_list to public",
        "grant select, update on wallet to public",
    ] {
        sqlx::query(statement).execute(pool).await.unwrap();
    }
    let tuned = table_settings(pool).await;
    let row = |table: &str, options: &str, toast: &str, public: &str| {
        (table.into(), options.into(), toast.into(), public.into())
    };
    assert_eq!(
        tuned,
        [
            row(
                "order_detail",
                "{fillfactor=70}",
                "{autovacuum_enabled=false}",
                ""
            ),
            row("order_list", "{}", "{}", "SELECT"),
            row(
                "wallet",
                "{autovacuum_vacuum_scale_factor=0.01}",
                "{}",
                "SELECT,UPDATE"
            ),
        ]
    );
    let mut live = Vec::new();
    for projection in all() {
        live.push(tables_hash(database, projection.as_ref()).await.unwrap());
    }
    let orders: i64 = sqlx::query_scalar("select count(*) from order_list")
        .fetch_one(pool)
        .await
        .unwrap();
    let balance: String =
        sqlx::query_scalar("select sum(balance_minor)::text from ledger_balances")
            .fetch_one(pool)
            .await
            .unwrap();

    // A reader counts the rows all through two rebuilds.
    let done = Arc::new(AtomicBool::new(false));
    let reader = tokio::spawn({
        let pool = pool.clone();
        let done = done.clone();
        async move {
            let mut seen = Vec::new();
            while !done.load(Ordering::Relaxed) {
                let count: i64 = sqlx::query_scalar("select count(*) from order_list")
                    .fetch_one(&pool)
                    .await
                    .expect("the table is always there");
                seen.push(count);
            }
            seen
        }
    });
    for _ in 0..2 {
        rebuild(database, &all(), &mut |_| {}).await.unwrap();
    }
    done.store(true, Ordering::Relaxed);
    let seen = reader.await.unwrap();
    assert!(!seen.is_empty());
    assert!(
        seen.iter().all(|count| *count == orders),
        "a reader saw a table part written: {:?}",
        seen.iter()
            .filter(|c| **c != orders)
            .take(5)
            .collect::<Vec<_>>()
    );

    // The same rows, the same keys, indexes and views under the same names, the same
    // storage parameters and grants, and nothing left of the shadows.
    let mut rebuilt = Vec::new();
    for projection in all() {
        rebuilt.push(tables_hash(database, projection.as_ref()).await.unwrap());
    }
    assert_eq!(rebuilt, live);
    assert_eq!(schema_objects(pool).await, before);
    assert_eq!(table_settings(pool).await, tuned);
    let after: String = sqlx::query_scalar("select sum(balance_minor)::text from ledger_balances")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(after, balance);
    // The live workers carry on from the rebuild's checkpoints.
    for projection in all() {
        assert_eq!(
            Runner::new(database, projection).catch_up().await.unwrap(),
            0
        );
    }
    db.teardown().await;
}

/// A reader that holds a table through the swap makes the swap give up its lock wait
/// (so the readers queued behind it go on) and try again: the rebuild still lands.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_rebuild_outwaits_a_long_reader() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let database = &db.database;
    let Database::Postgres(pool) = database else {
        unreachable!()
    };
    seed(database, 20).await.expect("seed");
    for projection in all() {
        Runner::new(database, projection).catch_up().await.unwrap();
    }
    let mut reader = pool.begin().await.unwrap();
    let orders: i64 = sqlx::query_scalar("select count(*) from order_list")
        .fetch_one(&mut *reader)
        .await
        .unwrap();
    let rebuilding = tokio::spawn({
        let database = database.clone();
        async move { rebuild(&database, &all(), &mut |_| {}).await }
    });
    // Longer than the swap's 2 s lock wait: its first try gives up.
    tokio::time::sleep(std::time::Duration::from_millis(3_500)).await;
    assert!(
        !rebuilding.is_finished(),
        "the swap did not wait for the reader"
    );
    reader.commit().await.unwrap();
    rebuilding
        .await
        .unwrap()
        .expect("the rebuild lands once the reader is done");
    let rebuilt: i64 = sqlx::query_scalar("select count(*) from order_list")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!((rebuilt, orders), (20, 20));
    db.teardown().await;
}

/// Two rebuilds at once (an erasure's and the replay tool's) take turns with the
/// shadow tables: both land, and the tables are the ones a single rebuild gives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_postgres_rebuilds_at_once_both_land() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let database = &db.database;
    seed(database, 30).await.expect("seed");
    rebuild(database, &all(), &mut |_| {}).await.unwrap();
    let mut single = Vec::new();
    for projection in all() {
        single.push(tables_hash(database, projection.as_ref()).await.unwrap());
    }
    let (projections, mut quiet, mut silent) = (all(), |_| {}, |_| {});
    let (first, second) = tokio::join!(
        rebuild(database, &projections, &mut quiet),
        rebuild(database, &projections, &mut silent)
    );
    first.expect("the first rebuild lands");
    second.expect("the second rebuild lands");
    let mut after = Vec::new();
    for projection in all() {
        after.push(tables_hash(database, projection.as_ref()).await.unwrap());
    }
    assert_eq!(after, single);
    db.teardown().await;
}

/// The rebuild writes its rows with binary `COPY`, which carries each value in its
/// column type's own format: every read-model column must be `text` where its
/// [`Kind`](projections::rows::Kind) says text and `bigint` where it says integer.
#[tokio::test]
async fn every_read_model_column_on_postgres_has_the_type_its_spec_gives() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let pool = db.postgres_pool();
    let mut checked = 0;
    for projection in all() {
        for table in projection.tables() {
            let types: Vec<(String, String)> = sqlx::query_as(
                "select column_name::text, data_type::text from information_schema.columns \
                 where table_schema = current_schema() and table_name = $1 \
                 order by ordinal_position",
            )
            .bind(table.name)
            .fetch_all(pool)
            .await
            .unwrap();
            let expected: Vec<(String, String)> = table
                .columns
                .iter()
                .map(|(column, kind)| {
                    let sql_type = match kind {
                        projections::rows::Kind::Text => "text",
                        projections::rows::Kind::Int => "bigint",
                    };
                    (column.to_string(), sql_type.to_string())
                })
                .collect();
            assert_eq!(types, expected, "{}", table.name);
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} tables checked");
    db.teardown().await;
}
