//! The borrower's in-app notices ([`crate::read_models::notices`]) with their read marks
//! (`notice_read`, written by the borrower's own call, not derived from events).

use crate::projection::ProjectionError;
use crate::store::Database;

/// A row of [`page`]: the total and unread counts, then a notice's id, order,
/// installment, kind, amount, due date, creation time, read time and whether its
/// installment is settled (1) or not (0) (all null past the last page).
pub type PageRow = (
    i64,
    i64,
    Option<String>,
    Option<String>,
    Option<i64>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<i64>,
);

/// The notices of `user_id`: `limit` from `offset`, newest first (ties by id), each
/// row with the total and unread counts, in one statement (one snapshot). At least
/// one row (the counts) whatever the page. A notice whose installment is settled
/// (`notice_settled`) asks for nothing more and does not count as unread.
pub async fn page(
    database: &Database,
    user_id: &str,
    limit: i64,
    offset: i64,
) -> Result<Vec<PageRow>, ProjectionError> {
    let sql = "with mine as ( \
                 select n.notice_id, n.order_id, n.period, n.kind, n.amount, n.due_date, \
                        n.created_at, r.read_at, \
                        case when s.order_id is null then 0 else 1 end as settled \
                 from notice n left join notice_read r \
                   on r.notice_id = n.notice_id and r.user_id = n.user_id \
                 left join notice_settled s \
                   on s.order_id = n.order_id and s.period = n.period \
                 where n.user_id = $1) \
               select c.total, c.unread, p.notice_id, p.order_id, p.period, p.kind, \
                      p.amount, p.due_date, p.created_at, p.read_at, \
                      cast(p.settled as bigint) \
               from (select count(*) as total, \
                            count(case when read_at is null and settled = 0 then 1 end) \
                              as unread \
                     from mine) c \
               left join (select * from mine order by created_at desc, notice_id desc \
                          limit $2 offset $3) p on 1 = 1 \
               order by p.created_at desc, p.notice_id desc";
    Ok(fetch!(database, sql, fetch_all, user_id, limit, offset))
}

/// Marks read at `now` (RFC 3339 UTC) the notices of `user_id` among `ids` (every
/// one of theirs when `ids` is empty), in one statement on the writer scoped by the
/// user: ids of other borrowers' notices, or unknown ones, match nothing, and a
/// notice already read keeps its first time. Returns how many were newly marked.
pub async fn mark_read(
    database: &Database,
    user_id: &str,
    ids: &[String],
    now: &str,
) -> Result<u64, ProjectionError> {
    // `$3, $4, ...`: one placeholder per id (at most a page's worth), which both
    // stores accept; `where` comes before `on conflict`, as SQLite requires.
    let only = if ids.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = (0..ids.len()).map(|i| format!("${}", i + 3)).collect();
        format!(" and notice_id in ({})", list.join(", "))
    };
    let sql = format!(
        "insert into notice_read (notice_id, user_id, read_at) \
         select notice_id, user_id, $2 from notice where user_id = $1{only} \
         on conflict (notice_id) do nothing"
    );
    let marked = crate::with_pool!(database, pool => {
        let mut query = sqlx::query(&sql).bind(user_id).bind(now);
        for id in ids {
            query = query.bind(id);
        }
        query.execute(pool).await.map(|r| r.rows_affected())
    })?;
    Ok(marked)
}
