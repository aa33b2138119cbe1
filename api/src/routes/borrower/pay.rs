//! Repayment through a payment page (PRODUCT.md 8): `POST /jackey/loan/recharge`, the
//! provider's webhook `POST /jackey/payment/webhook`, and the sandbox checkout page
//! `GET|POST /pay/sandbox/{session}` (see [`crate::payment`] for the rules), and the
//! formatting of the pages the api renders itself (`page`; amounts by
//! `aggregates::money::grouped`).
//!
//! The sandbox page is mounted only with the sandbox provider ([`router`]): with a
//! real gateway ([`router_with`]) its buttons would let anyone settle a real session.
//! The session id in its URL is random (UUID v4) and is the page's only credential,
//! like a gateway's hosted checkout link; the SPA opens it without a bearer token.

use std::sync::Arc;

use aggregates::order::{OrderCommand, OrderEvent};
use aggregates::types::Amount;
use aggregates::Actor;
use axum::body::Bytes;
use axum::extract::rejection::{FormRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Form, Router};
use rust_decimal::Decimal;
use serde::Deserialize;
use utoipa::{OpenApi, ToSchema};
use uuid::Uuid;

use super::pay_texts;
use crate::documents::Lang;
use crate::http::auth::Borrower;
use crate::http::envelope::{ok, ApiError, Envelope, OptionalJson};
use crate::payment::webhook::{self, Outcome, WebhookError};
use crate::payment::{self, PaymentSession, SessionStatus};
use crate::providers::sandbox::SandboxPayment;
use crate::providers::signing::{self, SIGNATURE_HEADER, TIMESTAMP_HEADER};
use crate::providers::PaymentProvider;
use crate::runtime::state::AppState;

/// The OpenAPI description of this module's calls (see [`crate::http::openapi`]).
#[derive(OpenApi)]
#[openapi(paths(recharge, webhook, sandbox_page, sandbox_settle))]
pub struct Doc;

/// The routes with the built-in sandbox provider and its checkout page.
pub fn router() -> Router<AppState> {
    router_with(Arc::new(SandboxPayment)).route(
        "/pay/sandbox/{session}",
        get(sandbox_page).post(sandbox_settle),
    )
}

/// The routes for the provider `PAYMENT_PROVIDER` names: the sandbox with its page, or
/// a real gateway's adapter (with its webhook routes, [`crate::routes::xendit`]).
pub fn router_for(state: &AppState) -> Router<AppState> {
    let xendit = crate::providers::xendit(&state.env, &state.config);
    let payments = match &xendit {
        Some(client) if state.env.providers.payment == crate::config::XENDIT => {
            router_with(client.clone())
        }
        _ => router(),
    };
    // Say now, at start-up, when webhooks are verified with the development secret.
    signing::warn_of_development_secret(&state.env);
    payments.merge(crate::routes::xendit::router(xendit))
}

/// The recharge call and the webhook, with `provider` opening the payment pages.
pub fn router_with(provider: Arc<dyn PaymentProvider>) -> Router<AppState> {
    Router::new()
        .route("/jackey/loan/recharge", post(recharge))
        .route("/jackey/payment/webhook", post(webhook))
        .layer(Extension(provider))
}

#[derive(Deserialize, Default, ToSchema)]
struct RechargeBody {
    /// Amount to pay: a decimal string (a whole JSON number is accepted too), PRODUCT.md 5;
    /// another form is 10004, an absent amount is out of range (40001).
    #[serde(default)]
    #[schema(value_type = Option<String>, pattern = r"^[0-9]{1,9}(\.[0-9]{1,2})?$", example = "1000.00")]
    amt: Option<Amount>,
}

/// Opens a payment page for `amt` towards the borrower's disbursed loan; `data` is the
/// page's URL. The Order decides before anything is created: 40007 when nothing is
/// owed (P1), 40001 for an amount it would not accept today, or beyond what the pages
/// already open leave of today's payoff (12.1).
#[utoipa::path(
    post,
    path = "/jackey/loan/recharge",
    tag = "payment",
    summary = "Open a payment page to repay",
    description = "`data`: the payment page's URL. 40007 nothing is owed (P1); 40001 amount \
                   out of range. A page still open that leaves too little of today's payoff \
                   for this amount is replaced by the new one (it can no longer be paid). \
                   Accepts `Idempotency-Key`.",
    security(("bearer" = [])),
    params(("Idempotency-Key" = Option<String>, Header, description = "repeat-safe key, 1 to 200 characters (any other answers 10004)")),
    request_body = Option<RechargeBody>,
    responses((status = 200, description = "Envelope with the URL", body = Envelope<Option<String>>))
)]
async fn recharge(
    State(state): State<AppState>,
    Extension(provider): Extension<Arc<dyn PaymentProvider>>,
    borrower: Borrower,
    OptionalJson(body): OptionalJson<RechargeBody>,
) -> Result<Response, ApiError> {
    let order_id = payment::open_order_of(&state, borrower.user_id).await?;
    // A missing amount is answered by the order as out of range (40001).
    let amount = body.amt.map(Amount::value).unwrap_or_default();
    // Derived from the Idempotency-Key when there is one: a repeat names this session.
    let session_id = payment::new_session_id();
    // One command: the Order decides whether this page may open (P1, 12.1).
    let open = || OrderCommand::OpenPaymentSession { session_id, amount };
    let events = state
        .execute(
            &state.orders,
            &order_id.to_string(),
            open,
            Actor::User(borrower.user_id),
            &Uuid::now_v7().to_string(),
        )
        .await?;
    // Pages this one replaced stop offering Pay once this page's own row is stored
    // (the Order refunds anything still paid on them; a crash before that leaves
    // only that refund to happen).
    let replaced: Vec<Uuid> = events
        .iter()
        .filter_map(|event| match event.payload {
            OrderEvent::PaymentSessionReplaced { session_id, .. } => Some(session_id),
            _ => None,
        })
        .collect();
    let (_, url) = payment::open_session(
        &state,
        provider.as_ref(),
        session_id,
        borrower.user_id,
        order_id,
        amount,
    )
    .await?;
    payment::mark_replaced(&state, order_id, session_id, replaced).await?;
    tracing::info!(%session_id, %order_id, %amount, "payment page opened");
    Ok(ok(url))
}

/// The body of the webhook (documentation of [`webhook::WebhookEvent`]).
#[derive(ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)] // documentation only
struct WebhookEventDoc {
    /// The provider's id of this notification (a redelivery repeats it).
    #[schema(min_length = 1, max_length = 200)]
    event_id: String,
    /// The payment session.
    session_id: Uuid,
    /// The provider's reference of the payment.
    #[schema(min_length = 1, max_length = 200)]
    payment_ref: String,
    /// Amount received, a decimal string (positive, at most two decimals when paid).
    #[schema(value_type = String, pattern = r"^[0-9]{1,9}(\.[0-9]{1,2})?$", example = "1000.00")]
    amount: Decimal,
    /// The outcome.
    outcome: OutcomeDoc,
}

/// What a payment came to.
#[derive(ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)] // documentation only
enum OutcomeDoc {
    Paid,
    Failed,
}

/// The provider's notification; answers per [`webhook::WebhookError`].
#[utoipa::path(
    post,
    path = "/jackey/payment/webhook",
    tag = "payment",
    summary = "The payment provider's signed notification",
    description = "`X-Signature` is the hex HMAC-SHA256 of `timestamp + \".\" + raw body` \
                   with the webhook secret. A redelivered event id answers `duplicate: true`.",
    params(
        ("X-Signature-Timestamp" = String, Header, description = "Unix seconds, within 300 s of now"),
        ("X-Signature" = String, Header, description = "lowercase hex HMAC-SHA256")
    ),
    request_body = WebhookEventDoc,
    responses(
        (status = 200, description = "Processed (or 40007 unknown session)", body = Envelope<Option<webhook::WebhookReceipt>>),
        (status = 400, description = "Signed, but not a valid event (10004)", body = Envelope<crate::http::envelope::Null>),
        (status = 401, description = "Signature missing, wrong or stale (10004)", body = Envelope<crate::http::envelope::Null>),
        (status = 500, description = "Our failure (500); deliver again", body = Envelope<crate::http::envelope::Null>),
        (status = 503, description = "Busy (40003); deliver again", body = Envelope<crate::http::envelope::Null>)
    )
)]
async fn webhook(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let processed = match refuse_nul_event(&state, &headers, &body) {
        Ok(()) => webhook::process_webhook(&state, &headers, &body).await,
        Err(error) => Err(error),
    };
    match processed {
        Ok(receipt) => ok(receipt),
        Err(error) => {
            tracing::warn!(status = %error.status, code = ?error.error.code, msg = %error.error.msg, "webhook refused");
            error.into_response()
        }
    }
}

/// A signed event with a NUL character in a text is not a valid event (400, 10004):
/// the store could not keep it. Checked after the signature, so an unsigned body still
/// answers 401.
fn refuse_nul_event(
    state: &AppState,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<(), WebhookError> {
    let Some(field) = crate::http::envelope::nul_field(body) else {
        return Ok(());
    };
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    signing::webhook_secret(&state.env).verify(
        header(TIMESTAMP_HEADER),
        header(SIGNATURE_HEADER),
        body,
        state.now().timestamp(),
    )?;
    Err(WebhookError {
        status: StatusCode::BAD_REQUEST,
        error: ApiError::bad_input(&field, "must not contain a NUL character"),
    })
}

#[utoipa::path(
    get,
    path = "/pay/sandbox/{session}",
    tag = "payment",
    summary = "The sandbox checkout page",
    description = "The amount with Pay and Fail buttons, or how the payment ended. The random \
                   session id is the page's only credential.",
    params(("session" = String, Path, description = "the session id from `/jackey/loan/recharge`")),
    responses(
        (status = 200, description = "The page", body = String, content_type = "text/html"),
        (status = 404, description = "No such session", body = String, content_type = "text/html")
    )
)]
async fn sandbox_page(
    State(state): State<AppState>,
    session: Result<Path<String>, PathRejection>,
    lang: Result<Query<LangQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let lang = page_lang(lang, &headers);
    match load(&state, &session_id(session), lang).await {
        Ok(session) => html(StatusCode::OK, &session_page(&state, &session, lang)),
        Err(response) => response,
    }
}

/// `?lang=` of the sandbox page: the app's language (issue 52).
#[derive(Deserialize)]
struct LangQuery {
    lang: Option<String>,
}

/// The page's language: `?lang=`, else the browser's `Accept-Language`, else English.
fn page_lang(query: Result<Query<LangQuery>, QueryRejection>, headers: &HeaderMap) -> Lang {
    let asked = query.ok().and_then(|Query(q)| q.lang);
    let browser = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok());
    Lang::pick(asked.as_deref(), browser).unwrap_or(Lang::En)
}

#[derive(Deserialize, ToSchema)]
struct SettleForm {
    /// `paid` or `failed`.
    #[serde(default)]
    #[schema(value_type = OutcomeDoc)]
    outcome: String,
}

/// Pay or Fail: delivers the signed webhook for the session, then shows the result
/// (303 to the page, so a reload does not resubmit). A settled session is not
/// settled again; its page shows how it ended.
#[utoipa::path(
    post,
    path = "/pay/sandbox/{session}",
    tag = "payment",
    summary = "Pay or Fail on the sandbox page",
    params(("session" = String, Path, description = "the session id")),
    request_body(content = SettleForm, content_type = "application/x-www-form-urlencoded"),
    responses(
        (status = 303, description = "Back to the page, which shows the result"),
        (status = 400, description = "No valid outcome", body = String, content_type = "text/html"),
        (status = 404, description = "No such session", body = String, content_type = "text/html"),
        (status = 503, description = "The payment could not be recorded; nothing charged", body = String, content_type = "text/html")
    )
)]
async fn sandbox_settle(
    State(state): State<AppState>,
    session: Result<Path<String>, PathRejection>,
    lang: Result<Query<LangQuery>, QueryRejection>,
    headers: HeaderMap,
    form: Result<Form<SettleForm>, FormRejection>,
) -> Response {
    let lang = page_lang(lang, &headers);
    let t = pay_texts::of(lang);
    let session = match load(&state, &session_id(session), lang).await {
        Ok(session) => session,
        Err(response) => return response,
    };
    let here = format!("/pay/sandbox/{}?lang={}", session.session_id, lang.code());
    let back = Redirect::to(&here).into_response();
    if session.status != SessionStatus::Open || session.expired_at(state.now()) {
        return back;
    }
    let outcome = match form.as_ref().map(|Form(f)| f.outcome.as_str()) {
        Ok("paid") => Outcome::Paid,
        Ok("failed") => Outcome::Failed,
        _ => {
            let body = "<h1>Choose Pay or Fail</h1><p>The form must send <code>outcome=paid</code> or <code>outcome=failed</code>.</p>";
            return html(
                StatusCode::BAD_REQUEST,
                &page(&state, t.repayment, body, lang),
            );
        }
    };
    match SandboxPayment::deliver(&state, &session, outcome).await {
        Ok(_) => back,
        Err(error) => {
            tracing::error!(session_id = %session.session_id, status = %error.status, msg = %error.error.msg, "sandbox webhook not processed");
            let body = format!(
                "<h1>{}</h1><p>{}</p><a class=\"button\" href=\"{here}\">{}</a>",
                t.not_completed_title, t.not_completed_text, t.try_again
            );
            html(
                StatusCode::SERVICE_UNAVAILABLE,
                &page(&state, t.repayment, &body, lang),
            )
        }
    }
}

/// The path's session id as sent; one that is not even text (bad percent-encoding) is
/// empty, which names no session (404 page, like any unknown id).
fn session_id(path: Result<Path<String>, PathRejection>) -> String {
    path.map(|Path(session)| session).unwrap_or_default()
}

/// The session named in the path, or the response to give instead (404 page).
async fn load(state: &AppState, session: &str, lang: Lang) -> Result<PaymentSession, Response> {
    let t = pay_texts::of(lang);
    let not_found = || {
        let body = format!(
            "<h1>{}</h1><p>{}</p><a class=\"button\" href=\"/repayDetail\">{}</a>",
            t.not_found_title, t.not_found_text, t.back
        );
        html(
            StatusCode::NOT_FOUND,
            &page(state, t.repayment, &body, lang),
        )
    };
    let Ok(session_id) = session.parse::<Uuid>() else {
        return Err(not_found());
    };
    match payment::find_session(state, session_id).await {
        Ok(Some(session)) => Ok(session),
        Ok(None) => Err(not_found()),
        Err(ApiError { msg, .. }) => {
            let body = format!("<h1>Unavailable</h1><p>{}</p>", escape(&msg));
            Err(html(
                StatusCode::INTERNAL_SERVER_ERROR,
                &page(state, t.repayment, &body, lang),
            ))
        }
    }
}

fn session_page(state: &AppState, session: &PaymentSession, lang: Lang) -> String {
    let t = pay_texts::of(lang);
    let currency = &state.config.currency;
    let amount = format!(
        "<p class=\"amount\">{}{} <span class=\"code\">{}</span></p>",
        escape(&currency.symbol),
        aggregates::money::grouped(session.amount),
        escape(&currency.code),
    );
    let back = format!("<a class=\"button\" href=\"/repayDetail\">{}</a>", t.back);
    let ended = |class: &str, title: &str, text: &str| {
        format!("<h1 class=\"{class}\">{title}</h1>{amount}<p>{text}</p>{back}")
    };
    let body = match session.status {
        SessionStatus::Open if session.expired_at(state.now()) => {
            ended("bad", t.expired_title, t.expired_text)
        }
        SessionStatus::Open => format!(
            "<h1>{title}</h1>{amount}\
             <p class=\"muted\">{to}</p>\
             <form method=\"post\" action=\"/pay/sandbox/{id}?lang={code}\">\
             <button class=\"pay\" type=\"submit\" name=\"outcome\" value=\"paid\">{pay}</button>\
             <button class=\"fail\" type=\"submit\" name=\"outcome\" value=\"failed\">{fail}</button>\
             </form>\
             <p class=\"sandbox\">{sandbox}</p>",
            title = t.repayment,
            to = t
                .to_lender
                .replace("{lender}", &escape(&state.config.lender.legal_name)),
            id = session.session_id,
            code = lang.code(),
            pay = t.pay,
            fail = t.fail,
            sandbox = t.sandbox,
        ),
        SessionStatus::Paid => ended("ok", t.paid_title, t.paid_text),
        SessionStatus::Failed => ended("bad", t.failed_title, t.failed_text),
        SessionStatus::Replaced => ended("bad", t.replaced_title, t.replaced_text),
    };
    page(state, t.repayment, &body, lang)
}

/// A whole sandbox page: `body` in a card, with the lender's name, licence and notice
/// (P14) below it.
pub(super) fn page(state: &AppState, title: &str, body: &str, lang: Lang) -> String {
    let lender = &state.config.lender;
    format!(
        r#"<!doctype html>
<html lang="{tag}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
  :root {{ color-scheme: light; }}
  body {{ margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
         background: #f4f6f8; color: #1f2933; }}
  main {{ max-width: 420px; margin: 0 auto; padding: 24px 16px; }}
  .card {{ background: #fff; border-radius: 12px; padding: 24px 20px;
           box-shadow: 0 1px 4px rgba(0, 0, 0, .08); text-align: center; }}
  h1 {{ font-size: 1.25rem; margin: 0 0 12px; }}
  h1.ok {{ color: #1b7f3b; }} h1.bad {{ color: #b42318; }}
  .amount {{ font-size: 2rem; font-weight: 700; margin: 8px 0; }}
  .code {{ font-size: 1rem; font-weight: 400; color: #52606d; }}
  .muted {{ color: #52606d; margin: 0 0 20px; }}
  form {{ display: flex; flex-direction: column; gap: 12px; }}
  button, .button {{ display: block; width: 100%; box-sizing: border-box; padding: 14px;
           font-size: 1rem; border-radius: 8px; border: 0; cursor: pointer;
           text-decoration: none; text-align: center; }}
  .pay, .button {{ background: #1d4ed8; color: #fff; }}
  .fail {{ background: #fff; color: #b42318; border: 1px solid #b42318; }}
  .sandbox {{ font-size: .85rem; color: #7b8794; margin-top: 20px; }}
  footer {{ font-size: .8rem; color: #7b8794; text-align: center; margin-top: 16px; }}
</style>
</head>
<body>
<main>
<div class="card">
{body}
</div>
<footer>{legal} · {licence}<br>{notice}</footer>
</main>
</body>
</html>
"#,
        title = escape(title),
        legal = escape(&lender.legal_name),
        licence = escape(&lender.licence_no),
        notice = escape(pay_texts::of(lang).notice),
        tag = lang.tag(),
    )
}

/// `body` as an HTML answer that is never cached nor framed.
pub(super) fn html(status: StatusCode, body: &str) -> Response {
    let mut response = (status, axum::response::Html(body.to_string())).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    // The Pay button must not be clickable through someone else's frame.
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}

/// `text` with the HTML special characters escaped.
pub(super) fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            _ => escaped.push(c),
        }
    }
    escaped
}
