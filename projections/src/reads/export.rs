//! One borrower's every row, for the personal data export (PRODUCT.md 12.6): the
//! read models keyed by the borrower and the api tables a borrower's export shows
//! (payment sessions, downloads, sessions by their times, texts sent, earlier
//! exports), read in one read transaction so the sections agree as of one moment
//! (PostgreSQL: repeatable read; SQLite: one WAL snapshot).

use crate::projection::ProjectionError;
use crate::store::Database;

/// `payment_session`: id, order, amount, status, payment reference, created, updated.
pub type PaymentSessionRow = (
    String,
    String,
    String,
    String,
    Option<String>,
    String,
    String,
);

/// `notice` with its read mark: id, order, period, kind, amount, due date, created,
/// read.
pub type NoticeRow = (
    String,
    String,
    i64,
    String,
    String,
    String,
    String,
    Option<String>,
);

/// The rows of one borrower, read in one transaction.
pub struct Rows {
    /// The registered phone number.
    pub mobile: String,
    /// When the account was registered, RFC 3339 UTC.
    pub registered_at: String,
    /// The User's folded state (JSON), as `user_profile` holds it.
    pub state: String,
    /// Order id, `order_detail.doc`, order number.
    pub orders: Vec<(String, String, Option<String>)>,
    /// Order id, sequence, time, event type, actor, doc.
    pub timeline: Vec<(String, i64, String, String, String, String)>,
    /// Order id, `collection_log.doc` (contacts, promises, bucket moves; issue 53).
    pub collection: Vec<(String, String)>,
    /// The payment sessions (api `payment_session`).
    pub payment_sessions: Vec<PaymentSessionRow>,
    /// Order id, `receipt.doc`.
    pub receipts: Vec<(String, String)>,
    /// Id, order, kind, amount, time.
    pub transactions: Vec<(String, String, String, String, String)>,
    /// Order id, time, actor, document, receipt number.
    pub downloads: Vec<(String, String, String, String, String)>,
    /// Proceeds, cash, balance.
    pub wallet: Option<(String, String, String)>,
    /// The in-app notices with their read marks.
    pub notices: Vec<NoticeRow>,
    /// Created, expires, revoked.
    pub sessions: Vec<(String, String, Option<String>)>,
    /// Created, sent, body.
    pub sms: Vec<(String, Option<String>, String)>,
    /// Time, actor.
    pub exports: Vec<(String, String)>,
}

/// Reads every row of `user_id` in one read transaction; `None` when there is no
/// such borrower.
pub async fn rows(database: &Database, user_id: &str) -> Result<Option<Rows>, ProjectionError> {
    const PROFILE: &str =
        "select mobile, registered_at, state from user_profile where user_id = $1";
    const ORDERS: &str = "select d.order_id, d.doc, l.order_no from order_detail d \
         left join order_list l on l.order_id = d.order_id \
         where d.user_id = $1 order by d.applied_at, d.order_id";
    const TIMELINE: &str =
        "select t.order_id, t.sequence, t.at, t.event_type, t.actor, t.doc from order_timeline t \
         join order_detail d on d.order_id = t.order_id where d.user_id = $1 \
         order by t.order_id, t.sequence";
    const COLLECTION: &str = "select c.order_id, c.doc from collection_log c \
         join order_detail d on d.order_id = c.order_id where d.user_id = $1 \
         order by c.order_id, c.sequence";
    const PAYMENT_SESSIONS: &str = "select session_id, order_id, amount, status, payment_ref, \
         created_at, updated_at from payment_session where user_id = $1 \
         order by created_at, session_id";
    const RECEIPTS: &str = "select r.order_id, r.doc from receipt r \
         join order_detail d on d.order_id = r.order_id where d.user_id = $1 \
         order by r.at, r.receipt_no";
    const TRANSACTIONS: &str = "select transaction_id, order_id, kind, amount, at \
         from transactions where user_id = $1 order by at, transaction_id";
    const DOWNLOADS: &str =
        "select x.order_id, x.at, x.actor, x.document, x.receipt_no from document_download x \
         join order_detail d on d.order_id = x.order_id where d.user_id = $1 \
         order by x.at, x.download_id";
    const WALLET: &str = "select proceeds, cash, balance from wallet where user_id = $1";
    const NOTICES: &str = "select n.notice_id, n.order_id, n.period, n.kind, n.amount, \
         n.due_date, n.created_at, r.read_at from notice n \
         left join notice_read r on r.notice_id = n.notice_id \
         where n.user_id = $1 order by n.created_at, n.notice_id";
    const SESSIONS: &str = "select created_at, expires_at, revoked_at from auth_token \
         where subject = $1 and kind = 'borrower' order by created_at";
    const SMS: &str = "select created_at, sent_at, body from sms_outbox where mobile = $1 \
         order by created_at";
    const EXPORTS: &str =
        "select at, actor from data_export where user_id = $1 order by at, export_id";
    let postgres = matches!(database, Database::Postgres(_));
    let rows = crate::with_read_pool!(database, pool => {
        let mut tx = pool.begin().await?;
        if postgres {
            // One snapshot for every statement below.
            sqlx::query("set transaction isolation level repeatable read, read only")
                .execute(&mut *tx).await?;
        }
        let profile: Option<(String, String, String)> = sqlx::query_as(PROFILE)
            .bind(user_id).fetch_optional(&mut *tx).await?;
        let rows = match profile {
            None => None,
            Some((mobile, registered_at, user_state)) => Some(Rows {
                orders: sqlx::query_as(ORDERS).bind(user_id).fetch_all(&mut *tx).await?,
                timeline: sqlx::query_as(TIMELINE).bind(user_id).fetch_all(&mut *tx).await?,
                collection: sqlx::query_as(COLLECTION).bind(user_id).fetch_all(&mut *tx).await?,
                payment_sessions: sqlx::query_as(PAYMENT_SESSIONS).bind(user_id).fetch_all(&mut *tx).await?,
                receipts: sqlx::query_as(RECEIPTS).bind(user_id).fetch_all(&mut *tx).await?,
                transactions: sqlx::query_as(TRANSACTIONS).bind(user_id).fetch_all(&mut *tx).await?,
                downloads: sqlx::query_as(DOWNLOADS).bind(user_id).fetch_all(&mut *tx).await?,
                wallet: sqlx::query_as(WALLET).bind(user_id).fetch_optional(&mut *tx).await?,
                notices: sqlx::query_as(NOTICES).bind(user_id).fetch_all(&mut *tx).await?,
                sessions: sqlx::query_as(SESSIONS).bind(user_id).fetch_all(&mut *tx).await?,
                sms: sqlx::query_as(SMS).bind(&mobile).fetch_all(&mut *tx).await?,
                exports: sqlx::query_as(EXPORTS).bind(user_id).fetch_all(&mut *tx).await?,
                mobile,
                registered_at,
                state: user_state,
            }),
        };
        tx.commit().await?;
        Ok::<_, sqlx::Error>(rows)
    })?;
    Ok(rows)
}

/// The recorded exports of `user_id`'s data (api `data_export`), oldest first:
/// (time, actor, request id).
pub async fn exports(
    database: &Database,
    user_id: &str,
) -> Result<Vec<(String, String, String)>, ProjectionError> {
    let sql = "select at, actor, request_id from data_export where user_id = $1 \
               order by at, export_id";
    Ok(fetch!(database, sql, fetch_all, user_id))
}
