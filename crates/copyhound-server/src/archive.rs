//! `copyhound serve` over a code archive (`copyhound db init --code`): a
//! submission — a code file, or a zip read as one unit — is checked
//! against every archived unit of its language by the pipeline's
//! [`check_submission`], the comparison `compare --against` runs, and the
//! archived units it shares code with are answered with their similarity,
//! passages and texts. The page at `/` uploads one and shows a match side
//! by side ([`crate::web::archive_page`]).
//!
//! Its own route, `POST /api/archive/search`, rather than `/api/search`:
//! the answer is another thing (archived units by name, scored as a
//! comparison scores a pair, passages in files of multi-file units), not
//! the text database's ranked documents with Koala ratios.
//!
//! The archive is opened for each check and closed after (redb opens a
//! file in one place at a time), so checks run one at a time and
//! `copyhound db add` can update the archive between them. A zip may
//! expand to at most four times the upload limit, a file in it to the
//! upload limit (`ArchiveLimits`, the pipeline's budgets).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use axum::extract::State;
use axum::routing::{MethodRouter, get, post};
use axum::{Json, Router};
use copyhound_normalize::extract::isolated::IsolatedExtractor;
use copyhound_pipeline::code_archive::{
    Submission, SubmissionError, SubmissionRequest, SubmissionResult, archive_settings,
    check_submission,
};
use copyhound_pipeline::{ArchiveLimits, FrontEndChoice, MaxOccurrences};

use crate::api::{Route, assemble, blocking};
use crate::error::{ApiError, ApiResult};
use crate::input::{Upload, UploadLimit};
use crate::{ServerConfig, ServerError, openapi, web};

/// What the handlers over an archive share; cheap to clone.
#[derive(Clone)]
pub struct ArchiveState(Arc<Shared>);

struct Shared {
    dir: PathBuf,
    max_upload_bytes: usize,
    isolation: Option<IsolatedExtractor>,
    max_occurrences: MaxOccurrences,
    /// Held by the check in progress.
    one_at_a_time: Mutex<()>,
}

/// Every route of a server over an archive, with its handler.
pub fn routes() -> Vec<(Route, MethodRouter<ArchiveState>)> {
    let route = |method, path| Route { method, path };
    vec![
        (route("GET", "/"), get(web::archive_page)),
        (route("GET", "/api/openapi.json"), get(openapi::document)),
        (route("POST", "/api/archive/search"), post(search)),
    ]
}

/// The application over the code archive at `dir`, whose settings are
/// read once here so that a damaged archive stops the server at start.
pub fn router(dir: &Path, config: &ServerConfig) -> Result<Router, ServerError> {
    archive_settings(dir, &FrontEndChoice::default())?;
    let admission = crate::limits::Admission::new(&config.limits);
    let state = ArchiveState(Arc::new(Shared {
        dir: dir.to_owned(),
        max_upload_bytes: config.max_upload_bytes,
        isolation: config.isolation.clone(),
        max_occurrences: config.archive_max_occurrences,
        one_at_a_time: Mutex::new(()),
    }));
    Ok(assemble(routes(), state).layer(axum::Extension(admission)))
}

impl UploadLimit for ArchiveState {
    fn max_upload_bytes(&self) -> usize {
        self.0.max_upload_bytes
    }
}

impl ArchiveState {
    /// Checks `upload` against the archive.
    pub fn check(&self, upload: &Upload) -> ApiResult<SubmissionResult> {
        let shared = &self.0;
        let upload_limit = shared.max_upload_bytes as u64;
        let request = SubmissionRequest {
            limit: upload.fields.search_options().limit,
            detailed: upload.fields.fragment_count(),
            include_text: upload.fields.include_text.unwrap_or(false),
            limits: FrontEndChoice {
                max_file_mib: upload_limit.div_ceil(1 << 20).max(1),
                isolation: shared.isolation.clone(),
                ..FrontEndChoice::default()
            },
            archive_limits: ArchiveLimits {
                max_total_bytes: upload_limit.saturating_mul(4),
                max_entry_bytes: upload_limit,
                ..ArchiveLimits::default()
            },
            max_occurrences: shared.max_occurrences,
        };
        let submission = Submission {
            name: &upload.name,
            bytes: &upload.bytes,
        };
        let _checking = shared
            .one_at_a_time
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let result = check_submission(&shared.dir, submission, &request)?;
        tracing::info!(
            name = %result.name,
            matches = result.matches.len(),
            "checked against the archive"
        );
        Ok(result)
    }
}

async fn search(
    State(state): State<ArchiveState>,
    upload: Upload,
) -> ApiResult<Json<SubmissionResult>> {
    blocking(move || state.check(&upload)).await.map(Json)
}

impl From<SubmissionError> for ApiError {
    fn from(error: SubmissionError) -> Self {
        match error {
            SubmissionError::Empty(_) => ApiError::BadRequest(error.to_string()),
            SubmissionError::Unreadable { .. } => ApiError::Unprocessable(error.to_string()),
            SubmissionError::NoUnitOfItsLanguage { .. } => {
                ApiError::NoUnitOfItsLanguage(error.to_string())
            }
            SubmissionError::Pipeline(_) | SubmissionError::Io(_) => {
                ApiError::Internal(error.to_string())
            }
        }
    }
}
