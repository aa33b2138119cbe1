//! The `{code, msg, data}` envelope of every call (PRODUCT.md sections 8 and 9).
//!
//! Domain errors answer HTTP 200 with their catalogue code; the client reads `code`.
//! Infrastructure failures are logged with their details and answered with code 500
//! and a generic message: details never reach the client. Malformed bodies answer
//! 10004 naming the problem, never axum's plain-text rejection.

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

/// The envelope.
#[derive(Debug, Serialize)]
pub struct Envelope<T: Serialize> {
    /// 0 on success, else a code of section 9.
    pub code: u32,
    /// "ok", or what went wrong in words.
    pub msg: String,
    /// The answer (null on error).
    pub data: T,
}

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
        Json(Envelope {
            code: self.code.code(),
            msg: self.msg,
            data: Json_::Null,
        })
        .into_response()
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

impl From<projections::ProjectionError> for ApiError {
    fn from(error: projections::ProjectionError) -> Self {
        Self::internal(error)
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
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(Self(value)),
            Err(rejection) => Err(match rejection {
                JsonRejection::JsonDataError(error) => {
                    ApiError::new(ErrorCode::RequestError, error.body_text())
                }
                other => ApiError::new(ErrorCode::RequestError, other.body_text()),
            }),
        }
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
        serde_json::from_slice(&bytes)
            .map(Self)
            .map_err(|error| ApiError::new(ErrorCode::RequestError, error.to_string()))
    }
}
