//! `copyhound serve`: an HTTP search service over a copyhound fingerprint
//! database (Heintze's Koala was an online service of this kind).
//!
//! - [`router`] builds the axum application over an open
//!   [`copyhound_db::Database`], [`archive::router`] the one over a code
//!   archive (`db init --code`: a code file or a zip checked against it,
//!   `POST /api/archive/search`, and its page); [`serve`] runs either on a
//!   listener until a shutdown signal; [`launch`] runs it as the program
//!   does, on its own runtime until Ctrl-C or SIGTERM.
//! - The JSON API ([`api`]): add, search, get, remove, stats, described by
//!   the `OpenAPI` 3 document at `GET /api/openapi.json` ([`openapi`]).
//! - The web page at `GET /` ([`web`]): paste or upload a document, see its
//!   matches, view one side by side with the shared passages highlighted.
//! - Writes need a bearer token ([`auth`]); request bodies are limited;
//!   every error is JSON with a 4xx code for bad input ([`error`]).
//! - Hostile clients are bounded ([`limits`]): open connections, header,
//!   idle and body timeouts, and admission of documents under a concurrency
//!   limit and an in-flight byte budget (429 with `Retry-After` when full).
//! - Database calls block, so they run on tokio's blocking pool
//!   ([`service`]); searches go on while documents are added (the database
//!   serialises writes and gives searches a snapshot). Loading, adding,
//!   searching and stats go through the pipeline's database layer
//!   (`copyhound_pipeline::database`), as `copyhound db` does: a search
//!   answers with the same JSON from both.
//! - Auditing ([`audit`], Koala §3.3): per-document search counters, kept
//!   in the database in batches, and a warning in the log when one document
//!   is searched unusually often.
#![deny(missing_docs)]

pub mod api;
pub mod archive;
pub mod audit;
pub mod auth;
pub mod error;
pub mod input;
pub mod launch;
pub mod limits;
pub mod openapi;
pub mod service;
pub mod web;

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use axum::{Extension, Router};
use copyhound_db::Database;
use copyhound_normalize::extract::isolated::IsolatedExtractor;
use copyhound_pipeline::MaxOccurrences;
use tokio::net::TcpListener;

pub use audit::AuditConfig;
pub use auth::Token;
pub use error::ApiError;
pub use limits::Limits;
pub use service::AppState;

/// Default request-body limit: 16 MiB.
pub const DEFAULT_MAX_UPLOAD_BYTES: usize = 16 << 20;

/// How the server behaves.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The write token; `None` makes the server read-only.
    pub token: Option<Token>,
    /// Larger request bodies are refused with 413.
    pub max_upload_bytes: usize,
    /// Where the texts of documents added over HTTP are kept for side by
    /// side views; `None` keeps none.
    pub texts_dir: Option<PathBuf>,
    /// When a document counts as searched unusually often.
    pub audit: AuditConfig,
    /// The child process that extracts uploaded PDFs (`copyhound serve`
    /// runs itself as `copyhound __extract`); `None` extracts them on a
    /// thread of the server, which a looping PDF keeps busy for good.
    pub isolation: Option<IsolatedExtractor>,
    /// Connections, timeouts and admission of work.
    pub limits: Limits,
    /// Over a code archive: fingerprints more units hold than this are
    /// ignored in every check (`compare -m`).
    pub archive_max_occurrences: MaxOccurrences,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            token: None,
            max_upload_bytes: DEFAULT_MAX_UPLOAD_BYTES,
            texts_dir: None,
            audit: AuditConfig::default(),
            isolation: None,
            limits: Limits::default(),
            archive_max_occurrences: MaxOccurrences::Unlimited,
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The folder of kept texts could not be created.
    #[error("{}: cannot create the folder of kept texts: {source}", path.display())]
    Texts {
        /// The folder.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The token file could not be read.
    #[error("reading the token file {}", path.display())]
    TokenFile {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The token file holds no token.
    #[error("the token file {} is empty", .0.display())]
    EmptyToken(PathBuf),
    /// An occurrence limit for a server over a text database.
    #[error(
        "--max-occurrences applies to a code archive (`db init --code`), and {} is none",
        .0.display()
    )]
    LimitWithoutArchive(PathBuf),
    /// The database could not be opened.
    #[error(transparent)]
    Database(#[from] copyhound_db::DbError),
    /// The code archive could not be opened, or its settings read.
    #[error(transparent)]
    Archive(#[from] copyhound_pipeline::PipelineError),
    /// The async runtime could not start.
    #[error("starting the async runtime")]
    Runtime(#[source] std::io::Error),
    /// The address could not be listened on.
    #[error("listening on {address}")]
    Listen {
        /// The address.
        address: std::net::SocketAddr,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The database's parameters name a front-end this build lacks.
    #[error("{0}")]
    FrontEnd(String),
    /// Serving failed.
    #[error("serving HTTP: {0}")]
    Io(#[from] std::io::Error),
}

/// The application: API, `OpenAPI` description and web page over `db`.
/// Documents are admitted under `config.limits`.
pub fn router(db: Arc<Database>, config: ServerConfig) -> Result<Router, ServerError> {
    let admission = limits::Admission::new(&config.limits);
    let state = AppState::new(db, config)?;
    Ok(api::router(state).layer(Extension(admission)))
}

/// Serves `app` on `listener` under the connection limits and timeouts of
/// `limits` until `shutdown` completes; requests in flight are finished
/// first.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    limits::serve_connections(listener, app, &limits, shutdown).await?;
    Ok(())
}
