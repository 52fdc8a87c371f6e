//! What the API does, as plain blocking functions over the shared state:
//! the handlers in [`crate::api`] run these on tokio's blocking pool.

use std::sync::Arc;
use std::time::Instant;

use copyhound_db::{Database, DocId, DocumentMeta, DocumentRecord};
use copyhound_pipeline::database::{
    DatabaseStats, DocumentDatabase, PreparedDocument, SearchRequest, SearchResult, TextStore,
};
use serde::Serialize;

use crate::audit::Audit;
use crate::auth::Token;
use crate::error::{ApiError, ApiResult};
use crate::input::{Upload, UploadLimit, load};
use crate::{ServerConfig, ServerError};

/// Everything the handlers share; cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

struct Shared {
    db: DocumentDatabase,
    token: Option<Token>,
    max_upload_bytes: usize,
    audit: Audit,
}

/// A registered document, as the API shows it.
#[derive(Clone, Debug, Serialize)]
pub struct DocumentOutput {
    /// Its id.
    pub id: DocId,
    /// Title.
    pub title: String,
    /// URL or path it was registered with (may be empty).
    pub location: String,
    /// Contact address (may be empty).
    pub email: String,
    /// Size of the original in bytes.
    pub size: u64,
    /// When it was added, seconds since the Unix epoch.
    pub added: u64,
    /// Size of its stored fingerprint.
    pub stored: u32,
    /// Size of its search fingerprint.
    pub print: u32,
    /// Searches that matched it since the server started.
    pub searches_matched: u64,
    /// Whether its text can be shown side by side.
    pub text_available: bool,
    /// What loading it noticed (guessed encoding, replaced bytes…).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Counts and sizes of the database (as `db stats --json` gives them),
/// and the server's settings.
#[derive(Clone, Debug, Serialize)]
pub struct StatsOutput {
    /// The database's counts and sizes.
    #[serde(flatten)]
    pub database: DatabaseStats,
    /// Whether writes are refused (no token configured).
    pub read_only: bool,
    /// The request-body limit.
    pub max_upload_bytes: usize,
    /// Audit: more matching searches than this within the window warn.
    pub audit_threshold: u32,
    /// Audit: the window in seconds.
    pub audit_window_secs: u64,
}

impl AppState {
    /// The state for `db` under `config`.
    pub fn new(db: Arc<Database>, config: ServerConfig) -> Result<Self, ServerError> {
        let audit = Audit::persisted(config.audit, Arc::clone(&db));
        let mut db = DocumentDatabase::new(db)
            .map_err(|error| ServerError::FrontEnd(error.to_string()))?
            .with_max_bytes(config.max_upload_bytes as u64)
            .with_isolation(config.isolation.clone());
        if let Some(dir) = &config.texts_dir {
            let texts = TextStore::open(dir).map_err(|source| ServerError::Texts {
                path: dir.clone(),
                source,
            })?;
            db = db.with_texts(texts);
        }
        Ok(Self(Arc::new(Shared {
            audit,
            db,
            token: config.token,
            max_upload_bytes: config.max_upload_bytes,
        })))
    }

    /// The write token, if writes are allowed.
    pub fn token(&self) -> Option<&Token> {
        self.0.token.as_ref()
    }

    /// Loads, registers and (if configured) keeps the text of `upload`.
    pub fn add(&self, upload: &Upload) -> ApiResult<DocumentOutput> {
        let prepared = self.prepare(upload)?;
        let title = upload
            .fields
            .title
            .clone()
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| upload.name.clone());
        let location = match upload.fields.url.as_deref().map(str::trim) {
            None | Some("") => String::new(),
            Some(url) if is_web_url(url) => url.to_owned(),
            // A location is also read as a file for side by side views, so
            // writers over HTTP may give web addresses only, never paths.
            Some(other) => {
                return Err(ApiError::BadRequest(format!(
                    "url {other:?} is not an http:// or https:// address"
                )));
            }
        };
        let meta = DocumentMeta {
            title,
            location,
            email: upload.fields.email.clone().unwrap_or_default(),
            size: upload.bytes.len() as u64,
        };
        let (record, text_error) = self.0.db.register(meta, &prepared)?;
        if let Some(error) = text_error {
            tracing::warn!("{error}");
        }
        tracing::info!(id = record.id, title = %record.meta.title, "added");
        let mut output = self.document_output(record);
        output.warnings = prepared.loaded.warnings;
        Ok(output)
    }

    /// Searches `upload` and locates the passages it shares with the best
    /// matches.
    pub fn search(&self, upload: &Upload) -> ApiResult<SearchResult> {
        let query = self.prepare(upload)?;
        let request = SearchRequest {
            options: upload.fields.search_options(),
            fragments: upload.fields.fragment_count(),
            include_text: upload.fields.include_text.unwrap_or(false),
        };
        let result = self.0.db.search(&upload.name, query, &request)?;
        self.0
            .audit
            .record(result.matches.iter().map(|m| m.id), Instant::now());
        Ok(result)
    }

    /// Whether the server keeps a text of `id` (uploaded over HTTP), as
    /// opposed to reading its registered file.
    pub fn has_kept_text(&self, id: DocId) -> bool {
        self.0
            .db
            .texts()
            .is_some_and(|texts| texts.path(id).is_file())
    }

    /// The record of `id`.
    pub fn get(&self, id: DocId) -> ApiResult<DocumentOutput> {
        let record = self.record(id)?;
        Ok(self.document_output(record))
    }

    /// The text of `id` that passage offsets index into.
    pub fn text(&self, id: DocId) -> ApiResult<String> {
        let record = self.record(id)?;
        self.0
            .db
            .registered_text(&record)
            .map(|loaded| loaded.text)
            .ok_or_else(|| {
                ApiError::NotFound(format!("the text of document {id} is not available"))
            })
    }

    /// Unregisters `id`.
    pub fn remove(&self, id: DocId) -> ApiResult<DocumentOutput> {
        let (record, text_error) = self.0.db.remove(id)?.ok_or_else(|| no_document(id))?;
        if let Some(error) = text_error {
            tracing::warn!("{error}");
        }
        let mut output = self.document_output(record);
        output.text_available = false;
        self.0.audit.forget(id);
        tracing::info!(id, "removed");
        Ok(output)
    }

    /// Counts, sizes and settings.
    pub fn stats(&self) -> ApiResult<StatsOutput> {
        let shared = &self.0;
        let audit = shared.audit.config();
        Ok(StatsOutput {
            database: shared.db.stats()?,
            read_only: shared.token.is_none(),
            max_upload_bytes: shared.max_upload_bytes,
            audit_threshold: audit.threshold,
            audit_window_secs: audit.window.as_secs(),
        })
    }

    /// Loads `upload` and computes its print once; refuses it when it
    /// yields no fingerprint.
    fn prepare(&self, upload: &Upload) -> ApiResult<PreparedDocument> {
        let loaded = load(upload, &self.0.db)?;
        Ok(self.0.db.prepare_printable(&upload.name, loaded)?)
    }

    fn record(&self, id: DocId) -> ApiResult<DocumentRecord> {
        self.0
            .db
            .database()
            .document(id)?
            .ok_or_else(|| no_document(id))
    }

    fn document_output(&self, record: DocumentRecord) -> DocumentOutput {
        DocumentOutput {
            text_available: self.0.db.text_available(&record),
            searches_matched: self.0.audit.total(record.id),
            id: record.id,
            title: record.meta.title,
            location: record.meta.location,
            email: record.meta.email,
            size: record.meta.size,
            added: record.added,
            stored: record.stored,
            print: record.print,
            warnings: Vec::new(),
        }
    }
}

impl UploadLimit for AppState {
    fn max_upload_bytes(&self) -> usize {
        self.0.max_upload_bytes
    }
}

pub(crate) fn is_web_url(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    (lower.starts_with("http://") || lower.starts_with("https://"))
        && !text.contains(char::is_whitespace)
}

fn no_document(id: DocId) -> ApiError {
    ApiError::NotFound(format!("no document {id}"))
}
