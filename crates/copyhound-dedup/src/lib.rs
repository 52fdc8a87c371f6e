//! Data-set deduplication with copyhound's fingerprints: which documents
//! of a corpus (Parquet, JSONL or JSONL.gz rows of an id and a text) copy
//! from each other — whole near-duplicates and single copied passages
//! alike — exactly where (byte ranges on both sides), and which one of
//! each cluster of near-duplicates to keep.
//!
//! One algorithm, in stages that each depend only on their input, so the
//! one-machine run here ([`dedup`]) and the Spark job of the Python
//! package give the same pairs and clusters:
//!
//! 1. per document: normalise the text (a [`copyhound_normalize::text`]
//!    front-end), hash k-grams, winnow → its distinct candidate
//!    fingerprints ([`Scheme::candidate_hashes`]);
//! 2. a fingerprint in more than `max_documents_per_hash` documents is
//!    dropped;
//! 3. every pair of documents sharing at least `min_shared_fingerprints`
//!    distinct kept fingerprints is a candidate;
//! 4. each candidate pair is scored by [`Scheme::score`] — the two texts
//!    compared by `copyhound-index` as `compare` does, flat-weighted:
//!    similarity, the containment of each side, exact fragments merged
//!    into passages — and listed when it shares a passage of at least the
//!    minimum length, whatever its similarity;
//! 5. the pairs at or above the minimum similarity are joined into
//!    clusters (connected components); each cluster is named by, and
//!    keeps, its smallest id.
//!
//! What is listed, precisely: the pairs that are candidates (step 3) and
//! share a passage of at least `min_passage` symbols in fragments (step
//! 4). Winnowing picks the smallest hash of every window of
//! `index_window` k-grams, so an exact run of `k + n * index_window - 1`
//! symbols two documents share holds `n` disjoint windows, each giving a
//! candidate fingerprint both select. With the defaults (`k + 3 *
//! index_window - 1` ≤ `min_passage`: 15 + 3 × 28 − 1 = 98 characters)
//! every pair sharing an exact run of `min_passage` symbols is scored,
//! unless a fingerprint of that run is in more than
//! `max_documents_per_hash` documents or the same k-gram repeats inside
//! it. A passage made only of shorter fragments (edits every few dozen
//! symbols) is listed when the pair shares enough fingerprints elsewhere,
//! not otherwise. Requiring three shared fingerprints instead of one is
//! what keeps a corpus of natural text, whose common phrases pair
//! documents by chance, from scoring millions of pairs that share nothing
//! of the minimum length (on the 20,000-document corpus of
//! `bench/dedup-corpus.py`: 6.8 million pairs share one fingerprint, 9,000
//! share three, 3,000 are listed).
//!
//! ```
//! use copyhound_dedup::{DedupOptions, Scheme};
//!
//! let scheme = Scheme::new(DedupOptions::default()).unwrap();
//! let paragraph = "The committee met on Tuesday to review the harbour budget, \
//!     and after a long debate agreed to postpone the dredging until spring.";
//! let long = format!("Weather report for the coast. {paragraph} Tides were normal.");
//! let found = scheme.score(paragraph, &long);
//! assert!(found.is_listed());
//! let passage = &found.passages[0];
//! assert_eq!(&long[passage.b.clone()], &paragraph[passage.a.clone()]);
//! assert_eq!(found.containment[0], 1.0); // all of the paragraph is copied
//! ```
#![deny(missing_docs)]

pub mod arrow;
mod error;
mod ids;
mod input;
mod options;
mod output;
mod run;
mod scheme;
mod store;

pub use error::{DedupError, Place};
pub use input::{Columns, DocId, Format, Row, input_files, read_rows};
pub use options::{
    DEFAULT_MAX_DOCUMENTS_PER_HASH, DEFAULT_MIN_SHARED_FINGERPRINTS, DEFAULT_MIN_SIMILARITY,
    DedupChoices, DedupOptions,
};
pub use run::{CLUSTERS_FILE, PAIRS_FILE, Progress, Stage, Summary, dedup};
pub use scheme::{PairMatch, Scheme, SharedSpan};
