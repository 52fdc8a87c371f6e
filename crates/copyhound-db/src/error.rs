//! The error type of the database: every variant names the file (or the
//! database directory) and what went wrong with it.

use std::path::PathBuf;

/// Anything that can go wrong opening, writing, searching or checking a
/// database.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// An operating-system error on a file of the database.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A redb file (a database's catalogue, a code archive) failed; the
    /// message names the file, not the part, since both kinds use it.
    #[error("{path}: cannot use the file: {source}")]
    Catalog {
        /// The redb file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: Box<redb::Error>,
    },
    /// A file of the database holds something it should not: the data is
    /// damaged, truncated or was written by something else.
    #[error("{path}: corrupt: {problem}")]
    Corrupt {
        /// The damaged file.
        path: PathBuf,
        /// What is wrong, as precisely as the check could tell.
        problem: String,
    },
    /// The file was written in a format version this build cannot read.
    #[error(
        "{path}: format version {found} is not supported (this build reads version \
         {supported}); create a new database with this build and add the documents again"
    )]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// The version this build reads and writes.
        supported: u32,
    },
    /// `create` found a database already there.
    #[error("{path}: a database already exists here")]
    AlreadyExists {
        /// The database directory.
        path: PathBuf,
    },
    /// `open` found no database.
    #[error("{path}: no database here (create one with `copyhound db init`)")]
    NotADatabase {
        /// The directory that was opened.
        path: PathBuf,
    },
    /// A parameter is out of its range.
    #[error("invalid parameter {name}: {problem}")]
    InvalidParameter {
        /// The parameter's name, as on the command line.
        name: &'static str,
        /// Why the value is not accepted.
        problem: String,
    },
    /// The operation does not exist in this database's mode.
    #[error("{operation} is not available in {mode} mode")]
    WrongMode {
        /// What was asked.
        operation: &'static str,
        /// The database's mode.
        mode: &'static str,
    },
    /// [`crate::Database::rotate`] on a database created without kept prints.
    #[error(
        "{path}: this database keeps no prints (keep_prints=false), so rotation must read \
         the documents again: use `rotate_from_documents` (what `copyhound db rotate` does)"
    )]
    NoKeptPrints {
        /// The database directory.
        path: PathBuf,
    },
    /// Another process moved the same rotation on meanwhile.
    #[error("{path}: another process is rotating this database at the same time")]
    RotationConflict {
        /// The database directory.
        path: PathBuf,
    },
    /// A segment would outgrow its 32-bit offsets.
    #[error(
        "{path}: segment would exceed 4 GiB of postings; lower `merge_factor` or the batch size"
    )]
    SegmentTooLarge {
        /// The segment being written.
        path: PathBuf,
    },
}

/// `Result` with [`DbError`].
pub type Result<T, E = DbError> = std::result::Result<T, E>;

impl DbError {
    /// An I/O error on `path`.
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }

    /// Corruption in `path`.
    pub(crate) fn corrupt(path: impl Into<PathBuf>, problem: impl Into<String>) -> Self {
        Self::Corrupt {
            path: path.into(),
            problem: problem.into(),
        }
    }

    /// A redb error on `path`.
    pub(crate) fn catalog(path: impl Into<PathBuf>, source: impl Into<redb::Error>) -> Self {
        Self::Catalog {
            path: path.into(),
            source: Box::new(source.into()),
        }
    }
}
