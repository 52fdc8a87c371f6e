//! What the API does, as plain blocking functions over the shared state:
//! the handlers in [`crate::api`] run these on tokio's blocking pool.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use copyhound_db::{
    Database, DocId, DocumentMeta, DocumentRecord, MatchBucket, NewDocument, SearchReport,
    SharedPassage,
};
use copyhound_normalize::{LoadOptions, LoadedDocument};
use serde::Serialize;

use crate::audit::Audit;
use crate::auth::Token;
use crate::error::{ApiError, ApiResult};
use crate::fragments::{fragments, load_registered};
use crate::input::{Upload, load, load_options};
use crate::texts::TextStore;
use crate::{ServerConfig, ServerError};

/// Everything the handlers share; cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

struct Shared {
    db: Arc<Database>,
    token: Option<Token>,
    max_upload_bytes: usize,
    texts: Option<TextStore>,
    audit: Audit,
    load_options: LoadOptions,
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

/// The answer to a search.
#[derive(Clone, Debug, Serialize)]
pub struct SearchOutput {
    /// The name the query was loaded under.
    pub query_name: String,
    /// Distinct keys of the query's fingerprint.
    pub query_keys: usize,
    /// Common keys left out of the count.
    pub ignored_common_keys: usize,
    /// Matched documents per ratio range (before `limit`).
    pub distribution: Vec<BucketCount>,
    /// The best matches, best first.
    pub matches: Vec<MatchOutput>,
    /// The query's decoded text, when asked for (`include_text`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query_text: Option<String>,
    /// What loading the query noticed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Documents in one ratio range.
#[derive(Clone, Debug, Serialize)]
pub struct BucketCount {
    /// The range, as in Heintze's Table 1.
    pub range: &'static str,
    /// Documents in it.
    pub documents: u64,
}

/// One registered document that matches the query.
#[derive(Clone, Debug, Serialize)]
pub struct MatchOutput {
    /// Its id.
    pub id: DocId,
    /// Title.
    pub title: String,
    /// URL or path.
    pub location: String,
    /// Contact address.
    pub email: String,
    /// hits / its stored size (Koala's match ratio).
    pub ratio: f64,
    /// hits / the query's size.
    pub query_ratio: f64,
    /// Query keys found in its stored fingerprint.
    pub hits: u32,
    /// Its stored fingerprint size.
    pub stored: u32,
    /// The ratio range.
    pub bucket: &'static str,
    /// Passages shared with the query; `null` when its text is not
    /// available or fragments were not asked for at this rank.
    pub fragments: Option<Vec<SharedPassage>>,
}

/// How far an unfinished rotation got.
#[derive(Clone, Debug, Serialize)]
pub struct RotationProgressOutput {
    /// The epoch it rotates to.
    pub epoch: u64,
    /// Documents with smaller ids have their new selection.
    pub done_below: u64,
    /// The rotation covers the documents with smaller ids.
    pub end: u64,
}

/// Counts and sizes of the database, and the server's settings.
#[derive(Clone, Debug, Serialize)]
pub struct StatsOutput {
    /// `koala` or `winnow`.
    pub mode: &'static str,
    /// Rotation epoch.
    pub rotation: u64,
    /// Registered documents.
    pub documents: u64,
    /// Documents whose postings are still staged.
    pub staged_documents: u64,
    /// Removed documents a merge has yet to drop.
    pub removed_pending_merge: u64,
    /// Posting segments.
    pub segments: usize,
    /// Postings in segments.
    pub postings: u64,
    /// Bytes of segment files.
    pub segment_bytes: u64,
    /// Bytes of the catalogue.
    pub catalog_bytes: u64,
    /// A rotation stopped before its end (the next `db rotate` resumes
    /// it), or null.
    pub unfinished_rotation: Option<RotationProgressOutput>,
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
        let load_options = LoadOptions {
            isolation: config.isolation.clone(),
            ..load_options(db.params(), config.max_upload_bytes).map_err(ServerError::FrontEnd)?
        };
        let texts = match &config.texts_dir {
            Some(dir) => Some(TextStore::open(dir).map_err(|source| ServerError::Texts {
                path: dir.clone(),
                source,
            })?),
            None => None,
        };
        Ok(Self(Arc::new(Shared {
            audit: Audit::persisted(config.audit, Arc::clone(&db)),
            db,
            token: config.token,
            max_upload_bytes: config.max_upload_bytes,
            texts,
            load_options,
        })))
    }

    /// The write token, if writes are allowed.
    pub fn token(&self) -> Option<&Token> {
        self.0.token.as_ref()
    }

    /// The request-body limit.
    pub fn max_upload_bytes(&self) -> usize {
        self.0.max_upload_bytes
    }

    /// Loads, registers and (if configured) keeps the text of `upload`.
    pub fn add(&self, upload: &Upload) -> ApiResult<DocumentOutput> {
        let shared = &self.0;
        let loaded = self.load_printable(upload)?;
        let print = shared.db.fingerprinter().print(&loaded.doc);
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
        let ids = shared.db.add(vec![NewDocument { meta, print }])?;
        let id = ids[0];
        if let Some(texts) = &shared.texts {
            // The document is registered either way; a text that cannot be
            // kept only costs the side by side view.
            if let Err(error) = texts.put(id, &loaded.text) {
                tracing::warn!(
                    "{}: cannot keep the text of document {id}: {error}",
                    texts.path(id).display()
                );
            }
        }
        let record = shared
            .db
            .document(id)?
            .ok_or_else(|| ApiError::Internal(format!("document {id} vanished after adding")))?;
        tracing::info!(id, title = %record.meta.title, "added");
        let mut output = self.document_output(record);
        output.warnings = loaded.warnings;
        Ok(output)
    }

    /// Searches `upload` and computes fragments for the best matches.
    pub fn search(&self, upload: &Upload) -> ApiResult<SearchOutput> {
        let shared = &self.0;
        let query = self.load_printable(upload)?;
        let print = shared.db.fingerprinter().print(&query.doc);
        let report = shared.db.search(&print, &upload.fields.search_options())?;
        shared
            .audit
            .record(report.matches.iter().map(|m| m.document.id), Instant::now());
        Ok(self.search_output(upload, query, &report))
    }

    fn search_output(
        &self,
        upload: &Upload,
        query: LoadedDocument,
        report: &SearchReport,
    ) -> SearchOutput {
        let mode = self.0.db.params().mode;
        let with_fragments = upload.fields.fragment_count();
        let matches = report
            .matches
            .iter()
            .enumerate()
            .map(|(rank, m)| MatchOutput {
                id: m.document.id,
                title: m.document.meta.title.clone(),
                location: m.document.meta.location.clone(),
                email: m.document.meta.email.clone(),
                ratio: m.ratio,
                query_ratio: m.query_ratio,
                hits: m.hits,
                stored: m.document.stored,
                bucket: MatchBucket::of(m.score(mode)).label(),
                fragments: (rank < with_fragments)
                    .then(|| self.registered_text(&m.document))
                    .flatten()
                    .map(|registered| fragments(self.0.db.fingerprinter(), &query, &registered)),
            })
            .collect();
        SearchOutput {
            query_name: upload.name.clone(),
            query_keys: report.query_keys,
            ignored_common_keys: report.ignored.len(),
            distribution: MatchBucket::ALL
                .iter()
                .zip(report.distribution)
                .map(|(bucket, documents)| BucketCount {
                    range: bucket.label(),
                    documents,
                })
                .collect(),
            matches,
            query_text: upload
                .fields
                .include_text
                .unwrap_or(false)
                .then_some(query.text),
            warnings: query.warnings,
        }
    }

    /// Whether the server keeps a text of `id` (uploaded over HTTP), as
    /// opposed to reading its registered file.
    pub fn has_kept_text(&self, id: DocId) -> bool {
        self.0
            .texts
            .as_ref()
            .is_some_and(|texts| texts.path(id).is_file())
    }

    /// The record of `id`.
    pub fn get(&self, id: DocId) -> ApiResult<DocumentOutput> {
        let record = self.0.db.document(id)?.ok_or_else(|| no_document(id))?;
        Ok(self.document_output(record))
    }

    /// The text of `id` that fragment offsets index into.
    pub fn text(&self, id: DocId) -> ApiResult<String> {
        let record = self.0.db.document(id)?.ok_or_else(|| no_document(id))?;
        self.registered_text(&record)
            .map(|loaded| loaded.text)
            .ok_or_else(|| {
                ApiError::NotFound(format!("the text of document {id} is not available"))
            })
    }

    /// Unregisters `id`.
    pub fn remove(&self, id: DocId) -> ApiResult<DocumentOutput> {
        let shared = &self.0;
        let record = shared.db.remove(id)?.ok_or_else(|| no_document(id))?;
        let mut output = self.document_output(record);
        output.text_available = false;
        if let Some(texts) = &shared.texts
            && let Err(error) = texts.remove(id)
        {
            tracing::warn!(
                "{}: cannot delete the kept text: {error}",
                texts.path(id).display()
            );
        }
        shared.audit.forget(id);
        tracing::info!(id, "removed");
        Ok(output)
    }

    /// Counts, sizes and settings.
    pub fn stats(&self) -> ApiResult<StatsOutput> {
        let shared = &self.0;
        let s = shared.db.stats()?;
        let audit = shared.audit.config();
        Ok(StatsOutput {
            mode: s.mode.name(),
            rotation: s.epoch,
            documents: s.documents,
            staged_documents: s.staged_documents,
            removed_pending_merge: s.removed_pending,
            segments: s.segments,
            postings: s.postings,
            segment_bytes: s.segment_bytes,
            catalog_bytes: s.catalog_bytes,
            unfinished_rotation: s.unfinished_rotation.map(|r| RotationProgressOutput {
                epoch: r.epoch,
                done_below: r.done_below,
                end: r.end,
            }),
            read_only: shared.token.is_none(),
            max_upload_bytes: shared.max_upload_bytes,
            audit_threshold: audit.threshold,
            audit_window_secs: audit.window.as_secs(),
        })
    }

    /// Loads `upload` and refuses it when it yields no fingerprint.
    fn load_printable(&self, upload: &Upload) -> ApiResult<LoadedDocument> {
        let loaded = load(upload, &self.0.load_options)?;
        let params = self.0.db.params();
        if self.0.db.fingerprinter().print(&loaded.doc).is_empty() {
            return Err(ApiError::Unprocessable(format!(
                "{}: the document gives no fingerprint: {} symbols after normalisation \
                 (at least k = {} are needed{})",
                upload.name,
                loaded.doc.len(),
                params.k,
                if params.prologue_bytes > 0 {
                    format!(
                        ", after the first {} bytes, which are skipped",
                        params.prologue_bytes
                    )
                } else {
                    String::new()
                }
            )));
        }
        Ok(loaded)
    }

    /// The registered text of `record`: the kept copy, else the file it was
    /// added from.
    fn registered_text(&self, record: &DocumentRecord) -> Option<LoadedDocument> {
        let options = &self.0.load_options;
        self.0
            .texts
            .as_ref()
            .and_then(|texts| load_registered(&texts.path(record.id), options))
            .or_else(|| load_registered(Path::new(&record.meta.location), options))
    }

    fn text_available(&self, record: &DocumentRecord) -> bool {
        self.0
            .texts
            .as_ref()
            .is_some_and(|texts| texts.path(record.id).is_file())
            || Path::new(&record.meta.location).is_file()
    }

    fn document_output(&self, record: DocumentRecord) -> DocumentOutput {
        DocumentOutput {
            text_available: self.text_available(&record),
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

pub(crate) fn is_web_url(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    (lower.starts_with("http://") || lower.starts_with("https://"))
        && !text.contains(char::is_whitespace)
}

fn no_document(id: DocId) -> ApiError {
    ApiError::NotFound(format!("no document {id}"))
}
