//! The ledger as the console reads it: the journal and the trial balance.

#[allow(clippy::wildcard_imports)]
use super::*;

#[derive(Deserialize, Default, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct JournalBody {
    #[serde(default)]
    order_id: Option<String>,
    #[serde(default)]
    account: Option<String>,
    #[serde(default)]
    page: Option<i64>,
    #[serde(default)]
    page_size: Option<i64>,
}

/// The console's name for `account` and who it belongs to (`null` when the read models
/// do not know them, yet).
fn ledger_account(account: &str, holder: &queries::AccountHolder) -> LedgerAccount {
    LedgerAccount::new(
        account,
        holder.order_no.as_deref(),
        holder.holder_name.as_deref(),
    )
}

#[utoipa::path(
    post,
    path = "/admin/api/ledger/journal",
    tag = "auditor",
    summary = "The ledger journal",
    description = "`code` names what an entry records (`payout_sent`, `repayment`, ... as projections::read_models::ledger::ENTRY_DESCRIPTIONS), `description` says it in English. Includes every event committed before the call. The body may be empty. `orderId` takes an order's id or its number (`HL-2611-000010`; an unknown number lists nothing). 10004 both filters or bad paging; 40007 an orderId that is neither.",
    security(("bearer" = [])),
    request_body = Option<JournalBody>,
    responses((status = 200, description = "Envelope, the answer", body = Envelope<Option<JournalPage>>))
)]
pub(super) async fn journal(
    State(state): State<AppState>,
    _auditor: Auditor,
    OptionalJson(body): OptionalJson<JournalBody>,
) -> Result<Response, ApiError> {
    let (limit, offset) = paging(body.page, body.page_size, 200)?;
    // The books answer as of the request: a payment settled by the loan process a moment
    // ago must show, even though no command of this auditor waited for it.
    state.read_models_at_head().await?;
    let order_id = body
        .order_id
        .as_deref()
        .map(str::trim)
        .filter(|id| !id.is_empty());
    let account = body
        .account
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty());
    let filter = match (order_id, account) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_input(
                "orderId",
                "give orderId or account, not both",
            ))
        }
        // An officer reads order numbers (HL-…); an order id still works.
        (Some(number), None)
            if number
                .get(..3)
                .is_some_and(|p| p.eq_ignore_ascii_case("HL-")) =>
        {
            queries::JournalFilter::OrderNo(number.to_ascii_uppercase())
        }
        (Some(id), None) => queries::JournalFilter::Order(record_id(id, "order")?),
        (None, Some(account)) => queries::JournalFilter::Account(account.to_string()),
        (None, None) => queries::JournalFilter::All,
    };
    let (rows, total) = queries::journal(state.read_models(), &filter, limit, offset).await?;
    let mut entries: Vec<JournalEntryView> = Vec::new();
    for row in rows {
        let posting = PostingView {
            posting_no: row.posting_no,
            account: ledger_account(&row.account, &row.holder),
            amount: row.amount,
        };
        match entries.last_mut() {
            Some(entry) if entry.entry_id == row.entry_id => entry.postings.push(posting),
            _ => entries.push(JournalEntryView {
                code: projections::read_models::ledger::entry_code(&row.description)
                    .map(str::to_string),
                entry_id: row.entry_id,
                at: row.at,
                order_id: row.order_id,
                order_no: row.entry_order_no.filter(|no| !no.is_empty()),
                description: row.description,
                postings: vec![posting],
            }),
        }
    }
    Ok(ok(JournalPage {
        total,
        page: body.page.unwrap_or(1),
        page_size: limit,
        entries,
    }))
}

#[utoipa::path(
    post,
    path = "/admin/api/ledger/trialBalance",
    tag = "auditor",
    summary = "The trial balance",
    description = "Includes every event committed before the call (the ledger read model is waited for, bounded).",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope, the answer", body = Envelope<Option<TrialBalance>>))
)]
pub(super) async fn trial_balance(
    State(state): State<AppState>,
    _auditor: Auditor,
) -> Result<Response, ApiError> {
    // As of the request, like the journal: see `journal`.
    state.read_models_at_head().await?;
    let rows = queries::trial_balance(state.read_models()).await?;
    let sum: i128 = rows.iter().map(|row| i128::from(row.balance_minor)).sum();
    let accounts = rows
        .into_iter()
        .map(|row| AccountBalance {
            account: ledger_account(&row.account, &row.holder),
            balance: money_text(Decimal::new(row.balance_minor, 2)),
            postings: row.postings,
        })
        .collect();
    let sum = Decimal::try_from_i128_with_scale(sum, 2)?;
    Ok(ok(TrialBalance {
        accounts,
        sum: money_text(sum),
        balanced: sum.is_zero(),
    }))
}
