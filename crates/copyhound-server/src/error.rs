//! The one error type of the API, and how it becomes a JSON response.
//!
//! Every error answer has the body `{"error": {"code": "...", "message":
//! "..."}}`: `code` is a stable machine name, `message` says what was wrong
//! with the request in words meant for the person who sent it.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use copyhound_pipeline::database::DatabaseError;
use serde::Serialize;

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed: bad JSON, a missing field, an empty
    /// document, an unknown content type.
    #[error("{0}")]
    BadRequest(String),
    /// The request is well-formed but its document cannot be used: binary,
    /// undecodable, no text to fingerprint.
    #[error("{0}")]
    Unprocessable(String),
    /// A code archive holds no unit of the submission's language (or it
    /// has none the front-end knows).
    #[error("{0}")]
    NoUnitOfItsLanguage(String),
    /// The body exceeds the upload limit.
    #[error("the request body exceeds the limit of {limit} bytes")]
    TooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// A write without a bearer token.
    #[error("this request needs an `Authorization: Bearer <token>` header")]
    Unauthorized,
    /// A write with a wrong token, or on a read-only server.
    #[error("{0}")]
    Forbidden(String),
    /// No such document or route.
    #[error("{0}")]
    NotFound(String),
    /// The route exists but not for this method.
    #[error("method not allowed on this path")]
    MethodNotAllowed,
    /// The server is at its limit of work in flight; try again later.
    #[error(
        "the server is busy with other documents; try again in {} s",
        retry_after.as_secs().max(1)
    )]
    Busy {
        /// How long to wait.
        retry_after: std::time::Duration,
    },
    /// The request body did not arrive in time.
    #[error("the request body did not arrive within {} s", .0.as_secs())]
    BodyTimeout(std::time::Duration),
    /// The database failed; the message names the file.
    #[error("database error: {0}")]
    Database(#[from] copyhound_db::DbError),
    /// Something on the server side failed (a worker panicked, a kept text
    /// could not be written).
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unprocessable(_) | ApiError::NoUnitOfItsLanguage(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ApiError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Busy { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::BodyTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::Database(_) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The stable machine name of this error.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::Unprocessable(_) => "unprocessable_document",
            ApiError::NoUnitOfItsLanguage(_) => "no_unit_of_its_language",
            ApiError::TooLarge { .. } => "too_large",
            ApiError::Unauthorized => "unauthorized",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::NotFound(_) => "not_found",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::Busy { .. } => "busy",
            ApiError::BodyTimeout(_) => "body_timeout",
            ApiError::Database(_) => "database_error",
            ApiError::Internal(_) => "internal_error",
        }
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: ErrorDetail<'a>,
}

#[derive(Serialize)]
struct ErrorDetail<'a> {
    code: &'a str,
    message: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() {
            tracing::error!("{self}");
        }
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code(),
                message: self.to_string(),
            },
        };
        let mut response = (status, Json(body)).into_response();
        match self {
            ApiError::Unauthorized => {
                response
                    .headers_mut()
                    .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            ApiError::Busy { retry_after } => {
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, retry_after.as_secs().max(1).into());
            }
            // The connection may hold the rest of a body nobody will read.
            ApiError::BodyTimeout(_) => {
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            _ => {}
        }
        response
    }
}

impl From<DatabaseError> for ApiError {
    fn from(error: DatabaseError) -> Self {
        match error {
            DatabaseError::Db(error) => ApiError::Database(error),
            DatabaseError::NoFingerprint { .. } => ApiError::Unprocessable(error.to_string()),
            DatabaseError::UnknownFrontEnd(_)
            | DatabaseError::CodeArchive(_)
            | DatabaseError::Seed(_)
            | DatabaseError::Vanished(_)
            | DatabaseError::Io(_) => ApiError::Internal(error.to_string()),
        }
    }
}

/// `Result` with [`ApiError`].
pub type ApiResult<T> = Result<T, ApiError>;
