//! The `{code, msg, data}` envelope of every call (PRODUCT.md sections 8 and 9).
//!
//! Domain errors answer HTTP 200 with their catalogue code; the client reads `code`.
//! Infrastructure failures are logged with their details and answered with code 500
//! and a generic message: details never reach the client. Malformed bodies answer
//! 10004 naming the problem, never axum's plain-text rejection; so do texts with a NUL
//! character, which PostgreSQL cannot store (they would otherwise fail as code 500).

use aggregates::order::OrderError;
use aggregates::user::UserError;
use aggregates::wallet::WalletError;
use aggregates::ErrorCode;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::response::{IntoResponse, Response};
use axum::Json;
use cqrs_es::AggregateError;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value as Json_;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

/// The envelope. Domain errors answer HTTP 200 too, with their code, the message and
/// `data: null`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Envelope<T> {
    /// 0 on success, else a code of PRODUCT.md section 9 (10004: bad input).
    #[schema(example = 0)]
    pub code: u32,
    /// "ok", or what went wrong in words.
    #[schema(example = "ok")]
    pub msg: String,
    /// The answer (null on error: the documents write `Envelope<Option<T>>`).
    pub data: T,
}

/// `data` of a call that answers nothing: always `null` (OpenAPI documentation only).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Null;

impl PartialSchema for Null {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Null)
            .description(Some("always null"))
            .into()
    }
}

impl ToSchema for Null {}

/// The bytes of a file answered as it is (a PDF, an image), not in the envelope
/// (OpenAPI documentation only: a binary string).
pub struct Binary;

impl PartialSchema for Binary {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
                utoipa::openapi::KnownFormat::Binary,
            )))
            .into()
    }
}

impl ToSchema for Binary {}

/// A successful answer.
pub fn ok<T: Serialize>(data: T) -> Response {
    Json(Envelope {
        code: 0,
        msg: "ok".to_string(),
        data,
    })
    .into_response()
}

/// An error answer: a catalogue code and a message for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The code.
    pub code: ErrorCode,
    /// The message.
    pub msg: String,
}

impl ApiError {
    /// An error with its own message.
    pub fn new(code: ErrorCode, msg: impl Into<String>) -> Self {
        Self {
            code,
            msg: msg.into(),
        }
    }

    /// An error with the catalogue's message.
    pub fn code(code: ErrorCode) -> Self {
        Self::new(code, code.default_message())
    }

    /// 10004 naming the field.
    pub fn bad_input(field: &str, reason: &str) -> Self {
        Self::new(ErrorCode::RequestError, format!("{field}: {reason}"))
    }

    /// An infrastructure failure: logged in full, answered as 500 "unknown error".
    pub fn internal(error: impl std::fmt::Display) -> Self {
        tracing::error!(%error, "internal error");
        Self::code(ErrorCode::Unknown)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let code = self.code.code();
        let mut response = Json(Envelope {
            code,
            msg: self.msg,
            data: Json_::Null,
        })
        .into_response();
        // For the audit trail, which records each console call's answer.
        response
            .extensions_mut()
            .insert(crate::http::middleware::staff_trail::AnsweredCode(code));
        response
    }
}

impl From<UserError> for ApiError {
    fn from(error: UserError) -> Self {
        Self::new(error.code(), error.to_string())
    }
}

impl From<OrderError> for ApiError {
    fn from(error: OrderError) -> Self {
        Self::new(error.code(), error.to_string())
    }
}

impl From<aggregates::catalogue::ChangeError> for ApiError {
    fn from(error: aggregates::catalogue::ChangeError) -> Self {
        Self::new(error.code(), error.to_string())
    }
}

impl From<WalletError> for ApiError {
    fn from(error: WalletError) -> Self {
        Self::new(error.code(), error.to_string())
    }
}

impl<E: std::error::Error + Into<ApiError>> From<AggregateError<E>> for ApiError {
    fn from(error: AggregateError<E>) -> Self {
        match error {
            AggregateError::UserError(refusal) => refusal.into(),
            // Conflicts are retried before they get here; one that outlasts the retries
            // is a transient server condition, not the user's fault.
            AggregateError::AggregateConflict => {
                Self::new(ErrorCode::ServerError, "busy, please try again")
            }
            other => Self::internal(other),
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        // SQLite's single write lock still busy after the busy timeout: an overload,
        // answered as such (nothing was written), not as an unknown failure.
        let busy = error
            .as_database_error()
            .and_then(|e| e.code())
            .is_some_and(|code| code == "5" || code == "517");
        if busy {
            tracing::warn!(%error, "store busy");
            return Self::new(ErrorCode::ServerError, "busy, please try again");
        }
        Self::internal(error)
    }
}

/// Infrastructure failures answered as [`ApiError::internal`] (logged, 500 "unknown
/// error"), so a handler writes `?`: the store, the read side, the object store, a
/// blocking task, and our own stored documents and ids that do not parse (a
/// borrower's input never reaches these: [`ApiJson`] refuses it with 10004 first).
macro_rules! internal_from {
    ($($error:ty),* $(,)?) => {$(
        impl From<$error> for ApiError {
            fn from(error: $error) -> Self {
                Self::internal(error)
            }
        }
    )*};
}

internal_from!(
    projections::ProjectionError,
    projections::store::StoreError,
    crate::providers::storage::StorageError,
    object_store::Error,
    crate::documents::RenderError,
    crate::config::ConfigError,
    rust_decimal::Error,
    chrono::ParseError,
    serde_json::Error,
    uuid::Error,
    tokio::task::JoinError,
);

/// Where a JSON text holds a NUL character (`\u0000`) in a string or a key, as a path
/// such as `contacts[0].name` (`body` for the top level); `None` when it holds none or
/// is not JSON. PostgreSQL text cannot hold NUL, so such input is refused as bad input.
pub fn nul_field(json: &[u8]) -> Option<String> {
    // Cheap pre-check: a NUL can only arrive escaped (a raw one is not valid JSON).
    if !json.windows(6).any(|w| w == b"\\u0000") {
        return None;
    }
    let value: Json_ = serde_json::from_slice(json).ok()?;
    fn find(value: &Json_, path: &str) -> Option<String> {
        let here = || (if path.is_empty() { "body" } else { path }).to_string();
        match value {
            Json_::String(text) => text.contains('\0').then(here),
            Json_::Array(items) => items
                .iter()
                .enumerate()
                .find_map(|(i, item)| find(item, &format!("{path}[{i}]"))),
            Json_::Object(fields) => fields.iter().find_map(|(key, item)| {
                let inner = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                if key.contains('\0') {
                    return Some(here());
                }
                find(item, &inner)
            }),
            _ => None,
        }
    }
    find(&value, "")
}

/// 10004 for a JSON body holding a NUL character.
fn refuse_nul(json: &[u8]) -> Result<(), ApiError> {
    match nul_field(json) {
        Some(field) => Err(ApiError::bad_input(
            &field,
            "must not contain a NUL character",
        )),
        None => Ok(()),
    }
}

/// A JSON body whose rejection answers 10004 in the envelope.
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let reject = |rejection: JsonRejection| match rejection {
            JsonRejection::JsonDataError(error) => {
                ApiError::new(ErrorCode::RequestError, error.body_text())
            }
            other => ApiError::new(ErrorCode::RequestError, other.body_text()),
        };
        // The raw bytes are kept for the NUL check; axum's `Json` then judges the
        // content type and the syntax exactly as it would on the original request.
        let headers = request.headers().clone();
        let extensions = request.extensions().clone();
        let bytes = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(|rejection| reject(rejection.into()))?;
        let mut rebuilt = Request::new(axum::body::Body::from(bytes.clone()));
        *rebuilt.headers_mut() = headers;
        *rebuilt.extensions_mut() = extensions;
        let Json(value) = Json::<T>::from_request(rebuilt, state)
            .await
            .map_err(reject)?;
        refuse_nul(&bytes)?;
        Ok(Self(value))
    }
}

/// A JSON body that may be absent: an empty body gives `T::default()` (calls such as
/// `/loan/orderInfo` take an optional id).
pub struct OptionalJson<T>(pub T);

impl<S, T> FromRequest<S> for OptionalJson<T>
where
    T: DeserializeOwned + Default,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(|rejection| ApiError::new(ErrorCode::RequestError, rejection.body_text()))?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self(T::default()));
        }
        // The refusal names the field, as `ApiJson`'s (axum's) does.
        let mut reader = serde_json::Deserializer::from_slice(&bytes);
        let value = serde_path_to_error::deserialize(&mut reader).map_err(|error| {
            ApiError::new(
                ErrorCode::RequestError,
                format!("{}: {}", error.path(), error.inner()),
            )
        })?;
        reader
            .end()
            .map_err(|error| ApiError::new(ErrorCode::RequestError, error.to_string()))?;
        refuse_nul(&bytes)?;
        Ok(Self(value))
    }
}
