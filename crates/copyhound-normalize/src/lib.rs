//! Front-ends: turn the bytes of a file into a [`NormalizedDocument`] — the
//! symbols the fingerprinting engine hashes, each with the byte span of the
//! text it came from.
//!
//! What a front-end drops decides what copying survives detection (winnowing
//! paper §2.1): whitespace, case and punctuation for text; whitespace,
//! comments and identifier names for code.
//!
//! ```
//! use copyhound_normalize::text::normalize_chars;
//!
//! let doc = normalize_chars("Hello, World!");
//! assert_eq!(doc.len(), 10); // "helloworld"
//! assert_eq!(doc.spans[5].range(), 7..8); // the "W"
//! ```
#![deny(missing_docs)]

pub mod code;
pub mod decode;
pub mod extract;
pub mod text;

pub use copyhound_fingerprint::{NormalizedDocument, Span, Symbol};
