//! The error of loading a document: always the file and what is wrong with it.

use std::path::PathBuf;

use crate::decode::DecodeError;
use crate::extract::ExtractError;

/// Why a file could not be loaded. Every variant names the file; the
/// messages are written for the person who gave the file to copyhound.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The path does not exist.
    #[error("{}: no such file", path.display())]
    NotFound {
        /// The file.
        path: PathBuf,
    },
    /// The path is a directory or another non-file.
    #[error("{}: not a regular file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// Reading failed: permissions, I/O error.
    #[error("{}: cannot read: {error}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// The file exceeds the size limit; it was not read.
    #[error(
        "{}: too large: {size} bytes, over the limit of {limit} bytes (raise the limit to load it)",
        path.display()
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes (or a lower bound, for a file that grew while being read).
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The file's front-end would need more memory than the budget allows;
    /// it was not normalised.
    #[error(
        "{}: too large for the {front_end} front-end: {text_bytes} bytes of text need about {} MiB, over the memory budget of {} MiB (raise the budget, or read it as text)",
        path.display(), needed >> 20, budget >> 20
    )]
    TooLargeForMemory {
        /// The file.
        path: PathBuf,
        /// The front-end's name (`text`, `python`…).
        front_end: &'static str,
        /// Bytes of text to normalise.
        text_bytes: u64,
        /// The estimated peak in bytes.
        needed: u64,
        /// The budget in bytes.
        budget: u64,
    },
    /// The file is neither text nor a supported document format.
    #[error("{}: looks binary ({reason}); not text, code, HTML, PDF or DOCX", path.display())]
    Binary {
        /// The file.
        path: PathBuf,
        /// What gave it away.
        reason: String,
    },
    /// The file is text in no encoding we can decode.
    #[error(
        "{}: not decodable as {encoding}: {replaced} of {chars} characters are malformed",
        path.display()
    )]
    Undecodable {
        /// The file.
        path: PathBuf,
        /// The encoding tried.
        encoding: &'static str,
        /// Malformed sequences.
        replaced: usize,
        /// Characters decoded.
        chars: usize,
    },
    /// The text of a PDF or DOCX could not be extracted.
    #[error("{}: {problem}", path.display())]
    Extract {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        problem: ExtractError,
    },
}

impl LoadError {
    /// The file the error is about.
    pub fn path(&self) -> &std::path::Path {
        match self {
            LoadError::NotFound { path }
            | LoadError::NotAFile { path }
            | LoadError::Unreadable { path, .. }
            | LoadError::TooLarge { path, .. }
            | LoadError::TooLargeForMemory { path, .. }
            | LoadError::Binary { path, .. }
            | LoadError::Undecodable { path, .. }
            | LoadError::Extract { path, .. } => path,
        }
    }

    pub(crate) fn from_decode(path: PathBuf, error: DecodeError) -> Self {
        match error {
            DecodeError::Binary { reason } => LoadError::Binary { path, reason },
            DecodeError::Undecodable {
                encoding,
                replaced,
                chars,
            } => LoadError::Undecodable {
                path,
                encoding,
                replaced,
                chars,
            },
        }
    }
}
