//! Front-ends: turn the bytes of a file into a [`NormalizedDocument`] — the
//! symbols the fingerprinting engine hashes, each with the byte span of the
//! text it came from.
//!
//! What a front-end drops decides what copying survives detection (winnowing
//! paper §2.1): whitespace, case and punctuation for text; whitespace,
//! comments and identifier names for code.
//!
//! The front door is [`load_file`] (or [`load_bytes`]): it refuses files over
//! a size limit before reading them, recognises PDF, DOCX, HTML, source code
//! and plain text, decodes the text ([`decode`]: BOM, UTF-8, else a guessed
//! legacy encoding), extracts what needs extracting ([`extract`]) and runs
//! the front-end of the kind found: [`text`] (characters, words or Koala's
//! consonants) or [`code`]. Every failure is a [`LoadError`] naming the file.
//! A file whose front-end would need more memory than its budget is refused
//! before it runs ([`budget`]).
//! Spans index into [`LoadedDocument::text`], which for a plain UTF-8 file is
//! the file itself.
//!
//! ```
//! use std::path::Path;
//! use copyhound_normalize::{DocumentKind, LoadOptions, load_bytes};
//!
//! let loaded = load_bytes(Path::new("essay.txt"), b"Hello, World!", &LoadOptions::default())?;
//! assert_eq!(loaded.kind, DocumentKind::Text);
//! assert_eq!(loaded.doc.len(), 10); // "helloworld"
//! assert_eq!(loaded.doc.spans[5].range(), 7..8); // the "W"
//! # Ok::<(), copyhound_normalize::LoadError>(())
//! ```
#![deny(missing_docs)]

pub mod budget;
pub mod code;
pub mod decode;
mod error;
pub mod extract;
mod load;
pub mod text;

pub use error::LoadError;
pub use load::{
    DEFAULT_MAX_BYTES, DEFAULT_PDF_TIMEOUT, DocumentKind, KindChoice, LoadOptions, LoadedDocument,
    load_bytes, load_file,
};
pub use text::{TextMode, TextOptions};

pub use copyhound_fingerprint::{NormalizedDocument, Span, Symbol};
