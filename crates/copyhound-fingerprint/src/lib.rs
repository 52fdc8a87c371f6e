//! The fingerprinting engine of copyhound: the keyed rolling hash and every
//! fingerprint selector of the three papers copyhound is built on.
//!
//! The data flow is `symbols → k-gram hashes → selector → fingerprints`,
//! and a [`Scheme`] is one hasher and one selector, the value everyone who
//! fingerprints documents to compare them shares:
//!
//! - [`NormalizedDocument`]: symbols (`u32`) with the byte span each came
//!   from. The front-ends (crate `copyhound-normalize`) produce it; nothing
//!   here knows about document kinds (the MOSS lesson).
//! - [`KGramHasher`]: the paper's improved Karp–Rabin rolling hash, keyed by
//!   a seed, with a bijective finaliser.
//! - [`Selector`]: chooses [`Fingerprint`]s `(hash, position)` from the hash
//!   sequence. Implementations:
//!   - [`Winnowing`] — plain (rightmost minimum) and robust (the default);
//!     any shared run of `w + k − 1` symbols shares a fingerprint.
//!   - [`QueryWinnowing`] — a coarser window w' ≥ w that selects a subset of
//!     the w-selection (winnowing §3.2).
//!   - [`ModP`] and [`SafeModP`] — `0 mod p`, without and with the guarantee.
//!   - [`All`] — full fingerprinting; [`Smallest`] — the n smallest hashes.
//!   - [`KoalaSelector`] — Heintze's fixed-size selection: a search set of N
//!     and a stored subset of n, preferring k-grams whose first symbols are
//!     rare in the document.
//!   - [`Sketch`] — Ganguly and Veda's two-pass randomised sketch with a
//!     deterministic space bound.
//! - [`Scheme`]: a hasher and a selector together.
//!
//! ```
//! use copyhound_fingerprint::{KGramHasher, Selector, Winnowing};
//!
//! let symbols: Vec<u32> = "adorunrunrunadorunrun".bytes().map(u32::from).collect();
//! let hasher = KGramHasher::new(5, 42);
//! let mut fingerprints = Vec::new();
//! Winnowing::robust(4).fingerprint(&hasher, &symbols, &mut fingerprints);
//! // Every window of 4 hashes (8 symbols here) holds a fingerprint.
//! assert!(fingerprints.windows(2).all(|p| p[1].pos - p[0].pos <= 4));
//! ```
#![deny(missing_docs)]

mod document;
mod hash;
mod scheme;
pub mod select;

pub use document::{NormalizedDocument, Span, Symbol};
pub use hash::KGramHasher;
pub use scheme::Scheme;
pub use select::{
    All, Fingerprint, KGrams, KoalaParams, KoalaSelector, ModP, QueryWinnowing, SafeModP, Selector,
    Sketch, SketchBudget, SketchParams, SketchPlan, Smallest, Winnowing,
};
