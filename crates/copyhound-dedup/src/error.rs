//! What can go wrong in a deduplication run: every error about input names
//! the file, and the row or line, where it went wrong.

use std::fmt;
use std::path::PathBuf;

/// Where in an input file a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The file as a whole.
    File,
    /// A row of a Parquet file, 1-based.
    Row(u64),
    /// A line of a JSONL file, 1-based.
    Line(u64),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::File => Ok(()),
            Self::Row(row) => write!(f, ", row {row}"),
            Self::Line(line) => write!(f, ", line {line}"),
        }
    }
}

/// A failed deduplication run.
#[derive(Debug, thiserror::Error)]
pub enum DedupError {
    /// An input file, or one of its rows, is not what a run needs.
    #[error("{}{place}: {message}", path.display())]
    Input {
        /// The input file.
        path: PathBuf,
        /// The row or line, if the problem is in one.
        place: Place,
        /// What is wrong.
        message: String,
    },
    /// A setting is out of range.
    #[error("invalid setting: {0}")]
    Setting(String),
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Writing a Parquet output failed.
    #[error("writing {}: {source}", path.display())]
    Write {
        /// The output file.
        path: PathBuf,
        /// The cause.
        source: parquet::errors::ParquetError,
    },
}

impl DedupError {
    /// An error about `path` at `place`.
    pub(crate) fn input(
        path: impl Into<PathBuf>,
        place: Place,
        message: impl Into<String>,
    ) -> Self {
        Self::Input {
            path: path.into(),
            place,
            message: message.into(),
        }
    }

    /// An I/O error on `path`.
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| Self::Io { path, source }
    }
}
