//! A persistent fingerprint database in the manner of Heintze's Koala
//! (1996): documents are registered once and any later document can be
//! searched against all of them.
//!
//! - [`Database`]: create/open a database directory; [`Database::add`],
//!   [`Database::search`], [`Database::remove`], [`Database::stats`],
//!   rotation ([`Database::rotate_from_documents`] reads the documents
//!   again, Koala's way; [`Database::rotate`] uses kept prints; both commit
//!   a batch of documents at a time and resume an interrupted rotation, see
//!   [`RotationOptions`]), and [`check`] for integrity.
//! - [`Fingerprinter`]: turns a normalised document into its
//!   [`DocumentPrint`] with the database's [`Params`] — Koala's fixed-size
//!   search set (N = 1000, of which n = 100 are stored) or, in
//!   [`Mode::Winnow`], every winnowed fingerprint.
//! - Storage, a module per job (FORMAT.md at the crate root documents the
//!   bytes and lists the modules):
//!   - `catalog`: the redb catalogue — document records, a crash-safe
//!     staging area for new postings and prints, tombstones, the manifest —
//!     behind typed transactions;
//!   - `directory`: every file name of a database, files written under a
//!     temporary name (locked, deleted if the write fails), their
//!     publication and the cleanup of what a failed or killed write left;
//!   - [`segment`]: immutable, memory-mapped posting files, bucketed by
//!     hash prefix and Rice-coded, that check each group of buckets against
//!     its checksum the first time it is read;
//!   - `merge_policy`: which segments to merge, from their sizes alone;
//!   - `view`: the snapshot of segments and catalogue that a search reads;
//!   - `kept_prints`: the prints kept for rotation, which move at each flush
//!     into cold, append-once print files;
//!   - `database`: the façade [`Database`] that wires them.
//!
//!   Damage found in any file (a flipped bit in a segment included) is a
//!   [`DbError::Corrupt`] naming the file, never a changed answer.
//!
//! Costs per document, Koala defaults (measured, see the crate's benchmark):
//! hot postings about 278 bytes (n = 100 keys of 27 bits; Koala used 400);
//! the record about 5 to 10 bytes, coded against its neighbours in a block
//! that fills one redb page. Prints are kept only with [`Params::keep_prints`] (about 2.3 KB
//! per document at N = 1000, read only by [`Database::rotate`] and `check`);
//! without them rotation reads every document again.
//!
//! ```
//! use copyhound_db::{Database, DocumentMeta, NewDocument, Params, SearchOptions};
//! use copyhound_fingerprint::NormalizedDocument;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let mut params = Params::default();
//! params.prologue_bytes = 0;
//! let db = Database::create(dir.path(), params).unwrap();
//!
//! let text = "It was the best of times, it was the worst of times, it was the age of wisdom, \
//!             it was the age of foolishness, it was the epoch of belief.";
//! let mut doc = NormalizedDocument::new();
//! for (at, c) in text.char_indices().filter(|(_, c)| c.is_alphanumeric()) {
//!     doc.push(u32::from(c.to_ascii_lowercase()), at..at + 1);
//! }
//! let print = db.fingerprinter().print(&doc);
//! let meta = DocumentMeta { title: "Two cities".into(), ..DocumentMeta::default() };
//! let ids = db.add(vec![NewDocument { meta, print: print.clone() }]).unwrap();
//!
//! let report = db.search(&print, &SearchOptions::default()).unwrap();
//! assert_eq!(report.matches[0].document.id, ids[0]);
//! assert_eq!(report.matches[0].ratio, 1.0);
//! ```
#![deny(missing_docs)]

mod catalog;
mod check;
pub mod code_archive;
mod codec;
mod database;
mod directory;
mod error;
mod fingerprinter;
mod kept_prints;
mod keys;
mod merge_policy;
mod params;
mod rotate;
mod search;
pub mod segment;
mod stats;
mod view;

pub use catalog::{DocId, DocumentMeta, DocumentRecord};
pub use check::{CheckReport, check};
pub use database::{BackgroundMerger, Database, NewDocument};
pub use directory::CATALOG_FILE;
pub use error::{DbError, Result};
pub use fingerprinter::{DocumentPrint, Fingerprinter};
pub use params::{Mode, Params};
pub use rotate::{DEFAULT_ROTATION_BATCH, Refetch, RotationOptions, RotationReport, Unrotated};
pub use search::{IgnoredKey, MatchBucket, SearchMatch, SearchOptions, SearchReport};
pub use stats::{RotationProgress, Stats};
