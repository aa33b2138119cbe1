//! The demo SMS inbox, `GET /sandbox/sms/{mobile}`: the text messages the default
//! sender wrote to the outbox for one phone, newest first, so a person trying the demo
//! (and the tools that drive it: loadgen, Lighthouse, schemathesis) can read the codes
//! that registration, unlock, bank binding and the PIN need (PRODUCT.md 12.2).
//!
//! Mounted only with `APP_ENV=demo` ([`crate::app`]), where no phone is real: like
//! the sandbox payment page it would defeat its own purpose with real borrowers, and
//! a production start has no sandbox (PRODUCT.md 12.7).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use utoipa::OpenApi;

use super::pay::{escape, html, page};
use crate::documents::Lang;
use crate::queries;
use crate::runtime::state::AppState;

/// How many messages the page lists.
const SHOWN: i64 = 10;

/// The OpenAPI description of this module's call (see [`crate::http::openapi`]).
#[derive(OpenApi)]
#[openapi(paths(inbox))]
pub struct Doc;

/// The demo inbox route.
pub fn router() -> Router<AppState> {
    Router::new().route("/sandbox/sms/{mobile}", get(inbox))
}

#[utoipa::path(
    get,
    path = "/sandbox/sms/{mobile}",
    tag = "payment",
    summary = "The demo SMS inbox (APP_ENV=demo only)",
    description = "The last ten text messages sent to this phone, newest first: the demo \
                   has no real phones. Not mounted with APP_ENV=production.",
    params(("mobile" = String, Path, description = "the phone number")),
    responses((status = 200, description = "The page", body = String, content_type = "text/html"))
)]
async fn inbox(State(state): State<AppState>, Path(mobile): Path<String>) -> Response {
    let messages = match queries::borrower::sms_messages(&state, &mobile, SHOWN).await {
        Ok(messages) => messages,
        Err(error) => {
            tracing::error!(error = %error.msg, "demo SMS inbox unavailable");
            let body = page(&state, "Text messages", "<h1 class=\"bad\">Messages unavailable</h1><p class=\"muted\">Please try again.</p>", Lang::En);
            return html(StatusCode::SERVICE_UNAVAILABLE, &body);
        }
    };
    let list = if messages.is_empty() {
        "<p class=\"muted\">No messages yet. Press Send code in the app.</p>".to_string()
    } else {
        messages
            .iter()
            .map(|(at, body)| {
                // To the second: the stored fraction adds nothing here.
                let at = at.split('.').next().unwrap_or(at).replace('T', " ");
                format!(
                    "<li style=\"margin: 0 0 16px\"><span class=\"code\">{} UTC</span><br>\
                     <span data-testid=\"sms\">{}</span></li>",
                    escape(&at),
                    escape(body)
                )
            })
            .collect::<String>()
    };
    let body = format!(
        "<h1>Text messages to {}</h1><ul style=\"list-style: none; padding: 0; text-align: left\">{list}</ul>\
         <p class=\"sandbox\">Demo inbox: this demo sends no real SMS. A real deployment \
         (APP_ENV=production) texts the phone and has no such page.</p>",
        escape(&mobile)
    );
    html(
        StatusCode::OK,
        &page(&state, "Text messages", &body, Lang::En),
    )
}
