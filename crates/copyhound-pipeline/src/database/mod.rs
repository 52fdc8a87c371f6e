//! One layer over the fingerprint database (`copyhound-db`) that every
//! caller goes through: the command line's `copyhound db …` and the
//! server's API only parse their input and format what comes back.
//!
//! - [`DocumentDatabase`] opens a database and parses its stored front-end
//!   once: every add, search and re-fetch loads documents alike.
//! - Adding ([`DocumentDatabase::add_paths`]): paths through the
//!   pipeline's one walker ([`crate::walk`], `.gitignore` honoured as by
//!   `compare`), loaded and fingerprinted on every core while the previous
//!   batch commits; [`DocumentDatabase::register`] adds one loaded document
//!   (an upload) and keeps its text.
//! - Searching ([`DocumentDatabase::search`]): one result type,
//!   [`SearchResult`], whose JSON is the same from the command line and
//!   from `POST /api/search`; passages are the index's
//!   [`LocatedPassage`](copyhound_index::LocatedPassage)s, fragments
//!   merged as `compare` merges them. Many query files
//!   ([`DocumentDatabase::search_paths`]) are walked as `db add` walks
//!   them and printed ([`SearchLines`]) as [`SearchFormat`] says.
//! - [`NewDatabase`] (a new database's parameters), [`DatabaseStats`],
//!   [`DocumentDatabase::rotate`] (re-fetching every registered file as
//!   `db add` read it), [`check`], and the kept texts ([`TextStore`]) side
//!   by side views read; each with the plain text `copyhound db` prints.
//! - A code archive is refused by every command of text databases but
//!   [`write_stats`] ([`ArchiveStats`]) and [`check`], which read either.
//!
//! A separate crate would depend on this one for the walker and the
//! front-end anyway, so the layer is a module of the pipeline.

mod add;
mod check;
mod create;
mod error;
mod queries;
mod rotate;
mod search;
mod stats;
mod texts;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use copyhound_db::{Database, DocumentPrint, DocumentRecord, Params};
use copyhound_normalize::extract::isolated::IsolatedExtractor;
use copyhound_normalize::{
    KindChoice, LoadError, LoadOptions, LoadedDocument, TextMode, TextOptions, load_bytes,
    load_file,
};
use copyhound_report::{Problem, ProblemKind};

use crate::{PlannedFile, WalkFilter, walk};

pub use add::{AddEvent, AddRequest, AddSummary};
pub use check::{Checked, check, check_lines};
pub use create::NewDatabase;
pub use error::DatabaseError;
pub use queries::{SearchEvent, SearchFormat, SearchLines, SearchSummary};
pub use rotate::write_rotation;
pub use search::{BucketCount, SearchHit, SearchRequest, SearchResult};
pub use stats::{ArchiveStats, DatabaseStats, RotationProgressStats, write_stats};
pub use texts::TextStore;

/// A database with its front-end parsed, and where registered texts are
/// kept, if anywhere.
pub struct DocumentDatabase {
    db: Arc<Database>,
    load_options: LoadOptions,
    texts: Option<TextStore>,
}

/// A loaded document and its print, computed once.
#[derive(Debug)]
pub struct PreparedDocument {
    /// The document as the front-end read it.
    pub loaded: LoadedDocument,
    /// Its print with the database's parameters.
    pub print: DocumentPrint,
}

impl DocumentDatabase {
    /// Creates a database at `dir` with `params`; a front-end this build
    /// does not know is refused before anything is written.
    pub fn create(dir: &Path, params: Params) -> Result<Self, DatabaseError> {
        load_options(&params)?;
        Self::new(Arc::new(Database::create(dir, params)?))
    }

    /// Opens the database at `dir`; a code archive is refused.
    pub fn open(dir: &Path) -> Result<Self, DatabaseError> {
        refuse_archive(dir)?;
        Self::new(Arc::new(Database::open(dir)?))
    }

    /// The layer over an open database.
    pub fn new(db: Arc<Database>) -> Result<Self, DatabaseError> {
        Ok(Self {
            load_options: load_options(db.params())?,
            db,
            texts: None,
        })
    }

    /// Refuses documents larger than `max_bytes`.
    #[must_use]
    pub fn with_max_bytes(mut self, max_bytes: u64) -> Self {
        self.load_options.max_bytes = max_bytes;
        self
    }

    /// Extracts PDFs in `isolation` (a child process with its own limits)
    /// when given; `None` extracts them in this process.
    #[must_use]
    pub fn with_isolation(mut self, isolation: Option<IsolatedExtractor>) -> Self {
        self.load_options.isolation = isolation;
        self
    }

    /// Keeps the texts of registered uploads in `texts`, and reads them
    /// there for side by side views.
    #[must_use]
    pub fn with_texts(mut self, texts: TextStore) -> Self {
        self.texts = Some(texts);
        self
    }

    /// The database.
    pub fn database(&self) -> &Arc<Database> {
        &self.db
    }

    /// Its parameters.
    pub fn params(&self) -> &Params {
        self.db.params()
    }

    /// How its documents are loaded.
    pub fn load_options(&self) -> &LoadOptions {
        &self.load_options
    }

    /// Reads and normalises the file at `path` with the database's
    /// front-end.
    pub fn load_file(&self, path: &Path) -> Result<LoadedDocument, LoadError> {
        load_file(path, &self.load_options)
    }

    /// Normalises `bytes`, named `name` (only its extension matters).
    pub fn load_bytes(&self, name: &Path, bytes: &[u8]) -> Result<LoadedDocument, LoadError> {
        load_bytes(name, bytes, &self.load_options)
    }

    /// Reads and normalises a file a walk found (on disk, or read with its
    /// archive).
    fn load_planned(&self, file: &PlannedFile) -> Result<LoadedDocument, LoadError> {
        match &file.content {
            Some(bytes) => self.load_bytes(&file.path, bytes),
            None => self.load_file(&file.path),
        }
    }

    /// `loaded` with its print.
    pub fn prepare(&self, loaded: LoadedDocument) -> PreparedDocument {
        let print = self.db.fingerprinter().print(&loaded.doc);
        PreparedDocument { loaded, print }
    }

    /// [`prepare`](Self::prepare), refusing a document that gives no
    /// fingerprint (too short), with a message naming `name`.
    pub fn prepare_printable(
        &self,
        name: &str,
        loaded: LoadedDocument,
    ) -> Result<PreparedDocument, DatabaseError> {
        let prepared = self.prepare(loaded);
        if prepared.print.is_empty() {
            let params = self.params();
            return Err(DatabaseError::NoFingerprint {
                name: name.to_owned(),
                symbols: prepared.loaded.doc.len(),
                k: params.k,
                prologue_bytes: params.prologue_bytes,
            });
        }
        Ok(prepared)
    }

    /// The registered text of `record`: the kept copy, else the file it was
    /// added from; `None` when neither can be read.
    pub fn registered_text(&self, record: &DocumentRecord) -> Option<LoadedDocument> {
        let kept = self.texts.as_ref().map(|texts| texts.path(record.id));
        kept.iter()
            .map(std::path::PathBuf::as_path)
            .chain([Path::new(&record.meta.location)])
            .filter(|path| path.is_file())
            .find_map(|path| self.load_file(path).ok())
    }

    /// Whether [`registered_text`](Self::registered_text) has a file to
    /// read.
    pub fn text_available(&self, record: &DocumentRecord) -> bool {
        self.texts
            .as_ref()
            .is_some_and(|texts| texts.path(record.id).is_file())
            || Path::new(&record.meta.location).is_file()
    }

    /// The store of kept texts, if there is one.
    pub fn texts(&self) -> Option<&TextStore> {
        self.texts.as_ref()
    }
}

/// What walking the paths of `db add` or `db search` met besides files.
enum WalkProblem<'a> {
    /// A directory that could not be listed (a failure), or a link not
    /// followed (only said).
    Listing(&'a Problem),
    /// A path that could not be walked at all: the message naming it.
    Path(&'a str),
}

impl WalkProblem<'_> {
    /// Whether something that was asked for could not be read.
    fn failed(&self) -> bool {
        match self {
            Self::Listing(problem) => problem.kind == ProblemKind::Unreadable,
            Self::Path(_) => true,
        }
    }
}

/// The files under `paths`, each walked as `compare` walks it with
/// `filter`, in order; what the walks could not read or did not follow is
/// given to `on_problem` as it is met.
fn walk_paths(
    paths: &[PathBuf],
    filter: &WalkFilter,
    on_problem: &mut dyn FnMut(WalkProblem<'_>),
) -> Vec<PlannedFile> {
    let mut files = Vec::new();
    for path in paths {
        match walk(path, filter, &|_| ()) {
            Ok(walked) => {
                for problem in &walked.problems {
                    on_problem(WalkProblem::Listing(problem));
                }
                files.extend(walked.files);
            }
            Err(error) => on_problem(WalkProblem::Path(&error.to_string())),
        }
    }
    files
}

/// An error when `dir` holds a code archive, which the commands of text
/// databases must not read as one.
fn refuse_archive(dir: &Path) -> Result<(), DatabaseError> {
    if crate::code_archive::is_archive(dir) {
        return Err(DatabaseError::CodeArchive(dir.to_owned()));
    }
    Ok(())
}

/// How documents are loaded for a database: its stored text front-end
/// (parsed here only), never as code.
fn load_options(params: &Params) -> Result<LoadOptions, DatabaseError> {
    let mode = TextMode::from_name(&params.front_end)
        .ok_or_else(|| DatabaseError::UnknownFrontEnd(params.front_end.clone()))?;
    Ok(LoadOptions {
        kind: KindChoice::Text,
        text: TextOptions::with_mode(mode),
        ..LoadOptions::default()
    })
}
