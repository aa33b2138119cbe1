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

/// Adds a ledger account to `target` as the console names it: `account` (the journal's
/// name, kept for filtering and as the exact reference), `kind` (the part before `:`,
/// e.g. `borrower_wallet`), and for a borrower's wallet or a loan receivable the
/// order's number (`orderNo`) and the applicant's name (`holder`), `null` when the
/// read models do not know them (yet).
fn account_json(target: &mut Json, account: &str, holder: &queries::AccountHolder) {
    let kind = account.split_once(':').map_or(account, |(kind, _)| kind);
    target["account"] = json!(account);
    target["kind"] = json!(kind);
    target["orderNo"] = json!(holder.order_no.as_deref().filter(|no| !no.is_empty()));
    target["holder"] = json!(holder
        .holder_name
        .as_deref()
        .filter(|name| !name.is_empty()));
}

#[utoipa::path(
    post,
    path = "/admin/api/ledger/journal",
    tag = "auditor",
    summary = "The ledger journal",
    description = "`data`: {total, page, pageSize, entries: [{entryId, at, orderId, orderNo, code, description, postings: [{postingNo, account, kind, orderNo, holder, amount}]}]}: `kind` is the account without its id (`borrower_wallet`, `loan_receivable`, `lender_cash`, ...), `orderNo` and `holder` the order number and applicant behind a wallet or receivable (else null); `code` names what the entry records (`payout_sent`, `repayment`, ... as projections::ledger::ENTRY_DESCRIPTIONS), `description` says it in English. Includes every event committed before the call. The body may be empty. `orderId` takes an order's id or its number (`HL-2611-000010`; an unknown number lists nothing). 10004 both filters or bad paging; 40007 an orderId that is neither.",
    security(("bearer" = [])),
    request_body = Option<JournalBody>,
    responses((status = 200, description = "Envelope, the answer", body = Envelope<AnyData>))
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
    let mut entries: Vec<Json> = Vec::new();
    for row in rows {
        let mut posting = json!({ "postingNo": row.posting_no, "amount": row.amount });
        account_json(&mut posting, &row.account, &row.holder);
        match entries.last_mut() {
            Some(entry) if entry["entryId"] == row.entry_id.as_str() => {
                if let Some(postings) = entry["postings"].as_array_mut() {
                    postings.push(posting);
                }
            }
            _ => entries.push(json!({
                "entryId": row.entry_id,
                "at": row.at,
                "orderId": row.order_id,
                "orderNo": row.entry_order_no.filter(|no| !no.is_empty()),
                "code": projections::ledger::entry_code(&row.description),
                "description": row.description,
                "postings": [posting],
            })),
        }
    }
    Ok(ok(json!({
        "total": total,
        "page": body.page.unwrap_or(1),
        "pageSize": limit,
        "entries": entries,
    })))
}

#[utoipa::path(
    post,
    path = "/admin/api/ledger/trialBalance",
    tag = "auditor",
    summary = "The trial balance",
    description = "`data`: {accounts: [{account, kind, orderNo, holder, balance, postings}], sum, balanced}. Includes every event committed before the call (the ledger read model is waited for, bounded).",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope, the answer", body = Envelope<AnyData>))
)]
pub(super) async fn trial_balance(
    State(state): State<AppState>,
    _auditor: Auditor,
) -> Result<Response, ApiError> {
    // As of the request, like the journal: see `journal`.
    state.read_models_at_head().await?;
    let rows = queries::trial_balance(state.read_models()).await?;
    let sum: i128 = rows.iter().map(|row| i128::from(row.balance_minor)).sum();
    let accounts: Vec<Json> = rows
        .into_iter()
        .map(|row| {
            let mut account = json!({
                "balance": money_text(Decimal::new(row.balance_minor, 2)),
                "postings": row.postings,
            });
            account_json(&mut account, &row.account, &row.holder);
            account
        })
        .collect();
    let sum = Decimal::try_from_i128_with_scale(sum, 2).map_err(ApiError::internal)?;
    Ok(ok(json!({
        "accounts": accounts,
        "sum": money_text(sum),
        "balanced": sum.is_zero(),
    })))
}
