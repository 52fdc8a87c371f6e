//! Reading a document out of a request: a JSON body with the text pasted
//! in, or a multipart form with an uploaded file.
//!
//! Both forms carry the same optional fields — `title`, `url`, `email` for
//! registering, `limit`, `min_hits`, `fragments`, `include_text` for
//! searching. The bytes then go through the database's front-end
//! (`DocumentDatabase::load_bytes`), which recognises PDF, DOCX and HTML
//! by content and refuses binary or undecodable data.

use std::path::Path;

use axum::body::{Bytes, HttpBody};
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::{StatusCode, header};
use copyhound_db::SearchOptions;
use copyhound_normalize::{LoadError, LoadedDocument};
use copyhound_pipeline::database::DocumentDatabase;
use serde::Deserialize;

use crate::error::ApiError;
use crate::limits::{Admission, AdmissionPermit};

/// The name pasted text is loaded under (its extension makes it text).
const PASTED_NAME: &str = "pasted.txt";

/// A document sent to the server, not yet loaded.
#[derive(Debug, Default)]
pub struct Upload {
    /// The file name (only its extension matters, and messages use it).
    pub name: String,
    /// The content.
    pub bytes: Vec<u8>,
    /// The other fields.
    pub fields: UploadFields,
    /// Its share of the server's work budget, held as long as the upload
    /// lives (through the database work); `None` on a router without
    /// admission control.
    pub admission: Option<AdmissionPermit>,
}

/// The optional fields of an upload.
#[derive(Debug, Default, Deserialize)]
pub struct UploadFields {
    /// Title to register (default: the file name).
    pub title: Option<String>,
    /// Where the document can be fetched.
    pub url: Option<String>,
    /// A contact address.
    pub email: Option<String>,
    /// At most this many matches.
    pub limit: Option<usize>,
    /// Only matches with at least this many hits.
    pub min_hits: Option<u32>,
    /// Matching fragments for this many of the best matches.
    pub fragments: Option<usize>,
    /// Return the query's decoded text (which fragment offsets index into).
    pub include_text: Option<bool>,
}

/// The JSON form: the text and the fields.
#[derive(Deserialize)]
struct JsonUpload {
    text: String,
    #[serde(flatten)]
    fields: UploadFields,
}

/// Most matches one search may ask for.
const MAX_LIMIT: usize = 1000;
/// Most matches one search may compute fragments for (each reads a file).
const MAX_FRAGMENTS: usize = 20;

impl UploadFields {
    /// The search options these fields ask for.
    pub fn search_options(&self) -> SearchOptions {
        let defaults = SearchOptions::default();
        SearchOptions {
            limit: self.limit.unwrap_or(defaults.limit).min(MAX_LIMIT),
            min_hits: self.min_hits.unwrap_or(defaults.min_hits),
        }
    }

    /// For how many of the best matches to compute fragments.
    pub fn fragment_count(&self) -> usize {
        self.fragments.unwrap_or(3).min(MAX_FRAGMENTS)
    }
}

/// A server's state, as far as reading uploads goes.
pub trait UploadLimit: Send + Sync {
    /// The request-body limit.
    fn max_upload_bytes(&self) -> usize;
}

impl<S: UploadLimit> FromRequest<S> for Upload {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let content_type = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        let limit = state.max_upload_bytes();
        // Admitted before the body is read, charged what it announces.
        let admission = request.extensions().get::<Admission>().cloned();
        let permit = match &admission {
            Some(admission) => Some(admission.try_admit(announced_length(&request, limit))?),
            None => None,
        };
        let body_timeout = admission.map(|admission| admission.body_timeout());
        let mut upload = within(
            body_timeout,
            read_upload(request, state, &content_type, limit),
        )
        .await?;
        upload.admission = permit;
        Ok(upload)
    }
}

/// The body length a request announces (its `Content-Length`), capped at
/// the upload limit, which a chunked body of unknown length is charged.
fn announced_length(request: &Request, limit: usize) -> usize {
    request
        .body()
        .size_hint()
        .exact()
        .and_then(|length| usize::try_from(length).ok())
        .map_or(limit, |length| length.min(limit))
}

/// `reading`, given up after `timeout` when there is one.
async fn within<T>(
    timeout: Option<std::time::Duration>,
    reading: impl Future<Output = Result<T, ApiError>>,
) -> Result<T, ApiError> {
    match timeout {
        Some(timeout) => tokio::time::timeout(timeout, reading)
            .await
            .map_err(|_| ApiError::BodyTimeout(timeout))?,
        None => reading.await,
    }
}

async fn read_upload<S: UploadLimit>(
    request: Request,
    state: &S,
    content_type: &str,
    limit: usize,
) -> Result<Upload, ApiError> {
    if content_type.starts_with("application/json") {
        let body = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| body_error(rejection.status(), &rejection.body_text(), limit))?;
        let upload: JsonUpload = serde_json::from_slice(&body)
            .map_err(|error| ApiError::BadRequest(format!("invalid JSON body: {error}")))?;
        Ok(Upload {
            name: PASTED_NAME.into(),
            bytes: upload.text.into_bytes(),
            fields: upload.fields,
            admission: None,
        })
    } else if content_type.starts_with("multipart/form-data") {
        let multipart = Multipart::from_request(request, state)
            .await
            .map_err(|rejection| body_error(rejection.status(), &rejection.body_text(), limit))?;
        read_multipart(multipart, limit).await
    } else {
        Err(ApiError::BadRequest(format!(
            "unsupported content type {content_type:?}: send application/json \
             ({{\"text\": ...}}) or multipart/form-data (a `file` or `text` field)"
        )))
    }
}

fn body_error(status: StatusCode, text: &str, limit: usize) -> ApiError {
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::TooLarge { limit }
    } else {
        ApiError::BadRequest(format!("cannot read the request body: {text}"))
    }
}

async fn read_multipart(mut multipart: Multipart, limit: usize) -> Result<Upload, ApiError> {
    let mut upload = Upload::default();
    let mut has_document = false;
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|error| body_error(error.status(), &error.body_text(), limit))?
    {
        let name = field.name().unwrap_or("").to_owned();
        let file_name = field.file_name().map(str::to_owned);
        let bytes = field
            .bytes()
            .await
            .map_err(|error| body_error(error.status(), &error.body_text(), limit))?;
        let text = || {
            String::from_utf8(bytes.to_vec())
                .map_err(|_| ApiError::BadRequest(format!("form field `{name}` is not UTF-8")))
        };
        match name.as_str() {
            "file" | "text" => {
                if has_document {
                    return Err(ApiError::BadRequest(
                        "send one document: a single `file` or `text` field".into(),
                    ));
                }
                has_document = true;
                upload.name = match file_name {
                    Some(file_name) if name == "file" && !file_name.is_empty() => file_name,
                    _ => PASTED_NAME.into(),
                };
                upload.bytes = bytes.to_vec();
            }
            "title" => upload.fields.title = Some(text()?),
            "url" => upload.fields.url = Some(text()?),
            "email" => upload.fields.email = Some(text()?),
            "limit" => upload.fields.limit = Some(parse_number(&name, &text()?)?),
            "min_hits" => upload.fields.min_hits = Some(parse_number(&name, &text()?)?),
            "fragments" => upload.fields.fragments = Some(parse_number(&name, &text()?)?),
            "include_text" => {
                upload.fields.include_text = Some(matches!(text()?.trim(), "true" | "1" | "on"));
            }
            other => {
                return Err(ApiError::BadRequest(format!(
                    "unknown form field {other:?}"
                )));
            }
        }
    }
    if !has_document {
        return Err(ApiError::BadRequest(
            "the form has no document: add a `file` or `text` field".into(),
        ));
    }
    Ok(upload)
}

fn parse_number<T: std::str::FromStr>(name: &str, text: &str) -> Result<T, ApiError> {
    text.trim()
        .parse()
        .map_err(|_| ApiError::BadRequest(format!("form field `{name}` is not a number: {text:?}")))
}

/// Loads an upload through the front-end; refuses empty documents.
pub fn load(upload: &Upload, db: &DocumentDatabase) -> Result<LoadedDocument, ApiError> {
    if upload.bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::BadRequest(format!(
            "{}: the document is empty",
            upload.name
        )));
    }
    let name = Path::new(&upload.name)
        .file_name()
        .map_or_else(|| Path::new(PASTED_NAME), Path::new);
    db.load_bytes(name, &upload.bytes)
        .map_err(|error| match error {
            LoadError::TooLarge { limit, .. } => ApiError::TooLarge {
                limit: limit as usize,
            },
            LoadError::Binary { .. }
            | LoadError::Undecodable { .. }
            | LoadError::Extract { .. }
            | LoadError::TooLargeForMemory { .. } => ApiError::Unprocessable(error.to_string()),
            other => ApiError::Internal(other.to_string()),
        })
}
