//! The OpenAPI 3.1 document of every route the server answers, generated from the
//! handlers' annotations with `utoipa` and served at `GET /api-docs/openapi.json`.
//!
//! Each route module describes its own calls (`routes::*::Doc`); this module adds the
//! routes mounted in `lib.rs` (start page, health, readiness, metrics) and this
//! document, the bearer security scheme and the tags. `api/tests/api/openapi.rs` checks that the
//! document lists exactly the routes the router serves.

use std::sync::OnceLock;

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::path::{HttpMethod, OperationBuilder};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::tag::TagBuilder;
use utoipa::openapi::{
    ComponentsBuilder, ContentBuilder, InfoBuilder, ObjectBuilder, OpenApiBuilder, ResponseBuilder,
    Type,
};
use utoipa::OpenApi as _;

use crate::http::envelope::ApiError;
use crate::http::route_table::{self, Access};
use crate::routes;
use crate::runtime::state::AppState;

/// Where the document is served (the literal in [`router`] too, where the route test
/// reads it).
pub const DOCUMENT_PATH: &str = "/api-docs/openapi.json";

/// Name of the security scheme of borrower and auditor calls (`Authorization: Bearer`).
pub const BEARER: &str = "bearer";

/// The route that serves the document (merged into the app's router).
pub fn router() -> Router<AppState> {
    Router::new().route("/api-docs/openapi.json", get(serve))
}

async fn serve() -> Response {
    match document_json() {
        Ok(json) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
        Err(error) => ApiError::internal(error).into_response(),
    }
}

/// The document as JSON, built once.
pub fn document_json() -> Result<&'static str, &'static str> {
    static JSON: OnceLock<Result<String, String>> = OnceLock::new();
    JSON.get_or_init(|| document().to_json().map_err(|e| e.to_string()))
        .as_deref()
        .map_err(String::as_str)
}

/// The whole document: every route module's calls plus the routes of `lib.rs`.
pub fn document() -> utoipa::openapi::OpenApi {
    let mut document = OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("Cash loan platform API")
                .version(env!("CARGO_PKG_VERSION"))
                .description(Some(DESCRIPTION)),
        )
        .components(Some(
            ComponentsBuilder::new()
                .security_scheme(BEARER, bearer_scheme())
                .build(),
        ))
        .tags(Some(TAGS.map(|(name, description)| {
            TagBuilder::new()
                .name(name)
                .description(Some(description))
                .build()
        })))
        .build();
    document.merge(routes::borrower::account::Doc::openapi());
    document.merge(routes::borrower::credentials::Doc::openapi());
    document.merge(routes::borrower::notices::Doc::openapi());
    document.merge(routes::borrower::loan::Doc::openapi());
    document.merge(routes::borrower::collection::Doc::openapi());
    document.merge(routes::borrower::payment_plan::Doc::openapi());
    document.merge(routes::files::Doc::openapi());
    document.merge(routes::borrower::pay::Doc::openapi());
    document.merge(routes::borrower::sms_inbox::Doc::openapi());
    document.merge(routes::xendit::Doc::openapi());
    document.merge(routes::documents::Doc::openapi());
    document.merge(routes::data_export::Doc::openapi());
    // Auditor handlers share names with borrower ones (`login`, `logout`): their
    // operation ids say whose they are.
    document.merge(prefix_operation_ids(
        "auditor_",
        routes::admin::Doc::openapi(),
    ));
    for (path, summary, responses) in OPERATIONS {
        document.paths.add_path_operation(
            path,
            vec![HttpMethod::Get],
            plain_operation(path, summary, responses),
        );
    }
    mark_permissions(&mut document);
    document
}

/// Marks each console call with what it needs of the caller, from the one table
/// ([`route_table::CONSOLE_CALLS`], issue 55): `x-permission` (`public`, `session` or
/// a permission's name) and a line in the description naming the roles that hold it.
/// One extension only: utoipa keeps them in a hash map, whose order would make the
/// document differ from run to run.
fn mark_permissions(document: &mut utoipa::openapi::OpenApi) {
    for (path, access) in route_table::CONSOLE_CALLS {
        let Some(operation) = document
            .paths
            .paths
            .get_mut(path)
            .and_then(|item| item.post.as_mut())
        else {
            continue;
        };
        let (permission, roles) = match access {
            Access::Public => ("public", Vec::new()),
            Access::Session => ("session", Vec::new()),
            Access::Needs(permission) => (permission.name(), permission.roles()),
        };
        let names: Vec<&str> = roles.iter().map(|role| role.name()).collect();
        let line = match access {
            Access::Public => "Needs no session.".to_string(),
            Access::Session => "Needs a staff session, any role.".to_string(),
            Access::Needs(_) => format!(
                "Needs `{permission}` (roles: {}); 50005 otherwise.",
                names.join(", ")
            ),
        };
        operation.description = Some(match operation.description.take() {
            Some(text) => format!("{text}\n\n{line}"),
            None => line,
        });
        operation.extensions = Some(
            ExtensionsBuilder::new()
                .add("x-permission", permission)
                .build(),
        );
    }
}

/// The bearer token scheme both audiences use.
fn bearer_scheme() -> SecurityScheme {
    SecurityScheme::Http(
        HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some(
                "Opaque session token from /jackey/user/login (borrowers) \
                 or /admin/api/login (auditors); each kind opens only its \
                 own calls.",
            ))
            .build(),
    )
}

/// The document's tags: name and description.
const TAGS: [(&str, &str); 9] = [
    (
        "borrower account",
        "Registration, login, profile, identity, bank account, PIN (`/jackey/...`).",
    ),
    (
        "borrower loan",
        "Products, quotes, applications, orders, withdrawal (`/jackey/...`).",
    ),
    (
        "payment",
        "Repayment pages, the sandbox provider and its signed webhook.",
    ),
    ("files", "Stored images, for their owner and auditors only."),
    ("auditor", "The loan officers' console (`/admin/api/...`)."),
    (
        "staff",
        "Staff accounts, roles, setup links and the audit trail (`/admin/api/...`; issue 55).",
    ),
    (
        "documents",
        "PDF contract, receipts and statement of account: borrowers their own, auditors any.",
    ),
    (
        "personal data",
        "Everything held about a borrower as JSON (PRODUCT.md 12.6): borrowers their own, auditors any, every export recorded.",
    ),
    (
        "operations",
        "Start page, health, readiness and this document.",
    ),
];

/// A `GET` route of `lib.rs` (health, readiness, the start page, this document),
/// described by hand: its responses by status, description and content type.
fn plain_operation(
    path: &str,
    summary: &str,
    responses: &[Answer],
) -> utoipa::openapi::path::Operation {
    let mut operation = OperationBuilder::new()
        .tag("operations")
        .summary(Some(summary))
        .operation_id(Some(operation_id(path)));
    for (status, description, content_type) in responses {
        let schema_type = if *content_type == "application/json" {
            Type::Object
        } else {
            Type::String
        };
        let content = ContentBuilder::new()
            .schema(Some(ObjectBuilder::new().schema_type(schema_type)))
            .build();
        operation = operation.response(
            status.as_str(),
            ResponseBuilder::new()
                .description(*description)
                .content(*content_type, content),
        );
    }
    operation.build()
}

const DESCRIPTION: &str = "Every borrower call is `POST /jackey/...` and every auditor \
call `POST /admin/api/...`, with a JSON body (multipart for the ID photos). They answer \
HTTP 200 with the envelope `{code, msg, data}`: `code` 0 is success, any other code is an \
error of PRODUCT.md section 9 (10004: bad input, `msg` names the field), with `data: null`. \
Money is a decimal string; rates are integers in thousandths of a percent per day. \
Requests that move money accept an `Idempotency-Key` header. A body over 8 MB answers 413. \
A call that wrote answers `X-Log-Position` (`<transaction>:<position>`); a call that sends \
`X-Min-Position` waits (at most 3 s) until the read models have passed it, so a client that \
sends the highest position it was answered reads its own writes (a malformed one: 10004).";

type Answer = (StatusCode, &'static str, &'static str);

/// The `GET` routes of `lib.rs` (and `ops`) and this module: path, summary, answers.
/// `/` is the start page, or the web app's `index.html` when it is built.
const OPERATIONS: &[(&str, &str, &[Answer])] = &[
    (
        "/",
        "The start page",
        &[(StatusCode::OK, "The page", "text/html")],
    ),
    (
        "/healthz",
        "Liveness: the process answers",
        &[(StatusCode::OK, "`ok`", "text/plain")],
    ),
    (
        "/readyz",
        "Readiness: the event store answers",
        &[
            (StatusCode::OK, "`ready`", "text/plain"),
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "The event store is unavailable",
                "text/plain",
            ),
        ],
    ),
    (
        "/metrics",
        "Prometheus metrics (bearer `METRICS_TOKEN`): requests and latency by route class, worker lag",
        &[
            (StatusCode::OK, "The metrics", "text/plain"),
            (
                StatusCode::UNAUTHORIZED,
                "No or a wrong `METRICS_TOKEN` bearer token",
                "text/plain",
            ),
            (
                StatusCode::NOT_FOUND,
                "Metrics are off: no `METRICS_TOKEN` is configured",
                "text/plain",
            ),
        ],
    ),
    (
        DOCUMENT_PATH,
        "This OpenAPI document",
        &[(StatusCode::OK, "The document", "application/json")],
    ),
];

/// `prefix` before every operation id of `document`.
fn prefix_operation_ids(
    prefix: &str,
    mut document: utoipa::openapi::OpenApi,
) -> utoipa::openapi::OpenApi {
    for item in document.paths.paths.values_mut() {
        for operation in [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.options,
            &mut item.head,
            &mut item.patch,
            &mut item.trace,
        ]
        .into_iter()
        .flatten()
        {
            if let Some(id) = &mut operation.operation_id {
                id.insert_str(0, prefix);
            }
        }
    }
    document
}

/// `getHealthz` for `/healthz`, `getRoot` for `/`.
fn operation_id(path: &str) -> String {
    let words: String = path
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect();
    if words.is_empty() {
        "getRoot".to_string()
    } else {
        format!("get{words}")
    }
}
