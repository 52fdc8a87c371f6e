//! Batch comparison for copyhound: which units of a batch share text or
//! code, where exactly, and how much.
//!
//! The pipeline (winnowing paper §5.2), each step a module:
//!
//! 1. [`Unit`]s of [`Document`]s — normalised symbols with their
//!    fingerprints — come in; this crate does no I/O and knows nothing of
//!    file kinds.
//! 2. [`BaseCode`]: every k-gram of the starter code is masked out of every
//!    unit, so template code never counts, even around edits to it.
//! 3. [`FingerprintIndex`]: hash → postings in two flat sorted arrays;
//!    fingerprints in more units than [`MaxOccurrences`] allows are dropped.
//! 4. Candidate pairs: only pairs that share a fingerprint are ever
//!    touched (never all pairs), under the pairing rules (no old–old pair,
//!    no pair within a group), each with an upper bound of its similarity
//!    summed from what its shared hashes can cover; the work on
//!    fingerprints common to most of a large batch is bounded.
//! 5. Fragments: matching fingerprints merged along diagonals and extended
//!    symbol by symbol into exact, maximal [`Fragment`]s, disjoint per side.
//!    For reporting, [`merge_passages`] joins fragments that follow each
//!    other closely on both sides into [`Passage`]s (noise splits a copied
//!    stretch into several fragments); scores use the fragments only.
//! 6. [`PairScore`]: coverage of each side (symbols, lines), longest
//!    fragment, total overlap and the symmetric similarity, the mean of the
//!    two sides' coverages — each symbol weighted by its rarity in the
//!    batch when [`CompareOptions::rarity_weighting`] is on, fragments
//!    shorter than [`CompareOptions::min_fragment`] left out — exactly 1
//!    for identical units.
//! 7. The listing: candidates are scored best bound first, and those
//!    whose bound cannot beat the least similar of the
//!    [`CompareOptions::max_pairs`] listed pairs are skipped, so the list
//!    is what scoring every pair would rank highest. Candidates the cap
//!    left out whose bound could still be listed are counted again and
//!    scored when up to [`CompareOptions::extra_passes`] caps hold them all; [`Omitted`]
//!    says what is left out and whether any of it could be more similar.
//!
//! [`compare`] runs it all, in parallel with rayon.
//!
//! ```
//! use copyhound_fingerprint::{KGramHasher, NormalizedDocument, Scheme, Winnowing};
//! use copyhound_index::{compare, BaseCode, CompareOptions, Document, Unit};
//!
//! let scheme = Scheme::new(KGramHasher::new(5, 42), Winnowing::robust(4));
//! let unit = |name: &str, text: &str| {
//!     let mut doc = NormalizedDocument::new();
//!     for (i, b) in text.bytes().enumerate() {
//!         doc.push(u32::from(b), i..i + 1);
//!     }
//!     Unit::new(name, vec![Document::fingerprinted(name, doc, &scheme)])
//! };
//! let units = [
//!     unit("alice", "the quick brown fox jumps over the lazy dog"),
//!     unit("bob", "a quick brown fox jumps over the lazy cat"),
//!     unit("carol", "completely different words here, nothing shared"),
//! ];
//! let result = compare(&units, &BaseCode::none(), &CompareOptions::new(scheme)).unwrap();
//! assert_eq!(result.pairs.len(), 1);
//! let pair = &result.pairs[0];
//! assert_eq!((pair.a, pair.b), (0, 1));
//! // " quick brown fox jumps over the lazy " is 37 bytes on each side.
//! assert_eq!(pair.longest_fragment, 37);
//! ```
#![deny(missing_docs)]

mod base;
mod best;
mod bitset;
mod bounds;
mod candidates;
mod compare;
mod directory;
mod elsewhere;
mod error;
mod fragments;
mod index;
mod listing;
mod options;
mod passages;
mod prepare;
mod rarity;
mod score;
mod shares;
mod spans;
mod twins;
mod unit;

pub use base::BaseCode;
pub use compare::{
    Comparison, LocatedPassage, Progress, Stage, compare, compare_with_progress,
    locate_shared_passages, shared_fragments,
};
pub use directory::HashDirectory;
pub use elsewhere::UnitsElsewhere;
pub use error::CompareError;
pub use fragments::{Fragment, SymbolRange};
pub use index::{FingerprintIndex, IndexStats, Posting};
pub use listing::Omitted;
pub use options::{
    CompareOptions, DEFAULT_MAX_PAIRS, EXTRA_PASSES, MaxOccurrences, SCORED_PER_LISTED,
};
pub use passages::{Passage, merge_passages};
pub use prepare::UnitSummary;
pub use score::{PairScore, SideCoverage};
pub use shares::{PrintedDocument, ShareRules, UnitShares, WHOLE_SHARE, pair_bound};
pub use unit::{Document, Role, Unit};

// Crate-wide, so that every module names it alike; users import it from
// `copyhound-source`.
pub(crate) use copyhound_source::LineIndex;
