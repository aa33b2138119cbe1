//! The audit trail in the console (issue 55): every staff action with who, when, from
//! where and what it touched, searchable by staff member, borrower and order, and
//! exportable as CSV. Recorded by `crate::http::middleware::staff_trail`.

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::db::staff_actions::{self as db, Action, Filter};
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::IntoResponse;

/// The routes of this file.
pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/api/audit/trail", post(trail))
        .route("/admin/api/audit/export", post(export))
}

/// Actions a page holds at most.
const PAGE: i64 = 50;
/// Actions an export holds at most (the newest).
const EXPORT_ROWS: i64 = 10_000;

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", default)]
pub(super) struct TrailBody {
    /// A staff member's username.
    username: Option<String>,
    /// A borrower's id.
    user_id: Option<String>,
    /// An order's id.
    order_id: Option<String>,
    /// The `next` of the page before (older actions).
    before: Option<String>,
}

impl TrailBody {
    fn filter(self) -> Filter {
        let given = |value: Option<String>| {
            value
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        Filter {
            username: given(self.username).map(|name| auditors::normalize_username(&name)),
            user_id: given(self.user_id),
            order_id: given(self.order_id),
            before: given(self.before),
        }
    }
}

/// One staff action.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct StaffAction {
    /// Its id (UUID v7, ordered by time).
    id: String,
    /// When, RFC 3339 UTC.
    at: String,
    /// Who: the staff member's id.
    staff_id: String,
    /// Who: their username.
    username: String,
    /// From where: the client address.
    client_ip: String,
    /// The call, e.g. `/admin/api/users/hold`.
    call: String,
    /// The order it named.
    order_id: Option<String>,
    /// The borrower it named.
    user_id: Option<String>,
    /// Another thing it named (a staff account or a username).
    target: Option<String>,
    /// Its answer's code (0 done; PRODUCT.md 9).
    code: i64,
}

impl From<Action> for StaffAction {
    fn from(action: Action) -> Self {
        Self {
            id: action.action_id,
            at: action.at,
            staff_id: action.auditor_id,
            username: action.username,
            client_ip: action.client_ip,
            call: action.call,
            order_id: action.order_id,
            user_id: action.user_id,
            target: action.target,
            code: action.code,
        }
    }
}

/// A page of the audit trail, newest first.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct TrailPage {
    /// Up to 50 actions.
    items: Vec<StaffAction>,
    /// `before` for the next (older) page; `None` at the end.
    next: Option<String>,
}

#[utoipa::path(
    post,
    path = "/admin/api/audit/trail",
    tag = "staff",
    summary = "The audit trail of staff actions",
    description = "Every console call a staff member made, refused ones too, newest first, \
                   50 a page; each filter given narrows.",
    security(("bearer" = [])),
    request_body = TrailBody,
    responses((status = 200, description = "Envelope with a page", body = Envelope<Option<TrailPage>>))
)]
pub(super) async fn trail(
    State(state): State<AppState>,
    _: Auditor,
    OptionalJson(body): OptionalJson<TrailBody>,
) -> Result<Response, ApiError> {
    let filter = body.filter();
    let mut actions = db::actions(&state.database, &filter, PAGE + 1).await?;
    let more = actions.len() as i64 > PAGE;
    actions.truncate(PAGE as usize);
    let next = more
        .then(|| actions.last().map(|a| a.action_id.clone()))
        .flatten();
    Ok(ok(TrailPage {
        items: actions.into_iter().map(StaffAction::from).collect(),
        next,
    }))
}

/// One CSV field: quoted when it holds a comma, quote or line break; a leading `=`,
/// `+`, `-` or `@` is prefixed with `'` so a spreadsheet never runs it as a formula
/// (OWASP "CSV injection").
fn csv_field(value: &str) -> String {
    let value = if value.starts_with(['=', '+', '-', '@']) {
        format!("'{value}")
    } else {
        value.to_string()
    };
    if value.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value
    }
}

#[utoipa::path(
    post,
    path = "/admin/api/audit/export",
    tag = "staff",
    summary = "The audit trail as CSV",
    description = "The newest 10,000 actions matching the filters (as `trail`), newest first: \
                   at, username, staff id, client address, call, order, borrower, other, code.",
    security(("bearer" = [])),
    request_body = TrailBody,
    responses((status = 200, description = "The CSV file", content((String = "text/csv"))))
)]
pub(super) async fn export(
    State(state): State<AppState>,
    _: Auditor,
    OptionalJson(body): OptionalJson<TrailBody>,
) -> Result<Response, ApiError> {
    let filter = body.filter();
    let actions = db::actions(&state.database, &filter, EXPORT_ROWS).await?;
    let mut csv =
        String::from("at,username,staff_id,client_ip,call,order_id,user_id,other,code\r\n");
    for action in actions {
        let fields = [
            action.at,
            action.username,
            action.auditor_id,
            action.client_ip,
            action.call,
            action.order_id.unwrap_or_default(),
            action.user_id.unwrap_or_default(),
            action.target.unwrap_or_default(),
            action.code.to_string(),
        ];
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        csv.push_str(&line.join(","));
        csv.push_str("\r\n");
    }
    let headers = [
        (CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
        (
            CONTENT_DISPOSITION,
            "attachment; filename=\"audit-trail.csv\"".to_string(),
        ),
        (CACHE_CONTROL, "no-store".to_string()),
    ];
    Ok((headers, csv).into_response())
}

#[cfg(test)]
mod tests {
    use super::csv_field;

    #[test]
    fn a_csv_field_is_quoted_and_never_a_formula() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("=HYPERLINK(1)"), "'=HYPERLINK(1)");
        assert_eq!(csv_field("-1,2"), "\"'-1,2\"");
    }
}
