//! Selectors: which k-gram hashes of a document become its fingerprints.
//!
//! Every selector implements [`Selector`]. Most look only at the hash
//! sequence; Koala's also reads the symbols (it prefers k-grams whose first
//! symbols are rare in the document), so a selector is handed a [`KGrams`]
//! view with both.

mod koala;
mod modp;
mod simple;
mod sketch;
mod winnow;

pub use koala::{KoalaParams, KoalaSelector};
pub use modp::{ModP, SafeModP};
pub use simple::{All, Smallest};
pub use sketch::{Sketch, SketchBudget, SketchParams, SketchPlan};
pub use winnow::{QueryWinnowing, Winnowing};

use crate::{KGramHasher, Symbol};

/// A selected k-gram: its hash and the index of its first symbol.
///
/// Positions are `u32`: one document holds at most 4 Gi symbols, which the
/// front-ends enforce long before (their file-size limit), and it halves the
/// memory of every index entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint {
    /// The k-gram hash.
    pub hash: u64,
    /// Index of the k-gram's first symbol in the normalised document.
    pub pos: u32,
}

impl Fingerprint {
    /// A fingerprint of the k-gram starting at symbol `pos`.
    pub fn new(hash: u64, pos: usize) -> Self {
        Self {
            hash,
            pos: pos as u32,
        }
    }
}

/// The k-grams of one document: its symbols and the hash of every k-gram.
#[derive(Clone, Copy, Debug)]
pub struct KGrams<'a> {
    /// The normalised symbols.
    pub symbols: &'a [Symbol],
    /// `hashes[i]` is the hash of `symbols[i..i + k]`.
    pub hashes: &'a [u64],
    /// The k-gram length.
    pub k: usize,
}

impl<'a> KGrams<'a> {
    /// Pairs symbols with precomputed hashes.
    ///
    /// # Panics
    /// If the number of hashes is not the number of k-grams of `symbols`.
    pub fn new(symbols: &'a [Symbol], hashes: &'a [u64], k: usize) -> Self {
        assert_eq!(hashes.len(), (symbols.len() + 1).saturating_sub(k));
        Self { symbols, hashes, k }
    }

    /// A view of bare hashes, for selectors that never read symbols
    /// (and for tests that start from a given hash sequence).
    pub fn from_hashes(hashes: &'a [u64]) -> Self {
        Self {
            symbols: &[],
            hashes,
            k: 1,
        }
    }
}

/// Chooses fingerprints from the k-gram hashes of one document.
///
/// Implementations append to `out` in increasing position order and never
/// record the same position twice.
pub trait Selector: Send + Sync {
    /// A short name, as used on the command line.
    fn name(&self) -> &'static str;

    /// Appends the selected fingerprints of `kgrams` to `out`.
    fn select(&self, kgrams: &KGrams<'_>, out: &mut Vec<Fingerprint>);

    /// The window `w` of the selector's guarantee, if it has one: in any
    /// run of `w + k − 1` symbols two documents share, both select a
    /// fingerprint with the same hash inside the run (winnowing's
    /// guarantee). Knowing it, a batch comparison can bound how much of a
    /// unit a pair's shared fingerprints can cover.
    fn window_guarantee(&self) -> Option<usize> {
        None
    }

    /// Hashes `symbols` and selects from them.
    ///
    /// The provided version materialises every hash; selectors that can
    /// work on a stream (winnowing) override it to hash block by block in
    /// cache, which is much faster on large documents.
    fn fingerprint(&self, hasher: &KGramHasher, symbols: &[Symbol], out: &mut Vec<Fingerprint>) {
        let hashes = hasher.hashes(symbols);
        self.select(&KGrams::new(symbols, &hashes, hasher.k()), out);
    }
}

impl<S: Selector + ?Sized> Selector for Box<S> {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn select(&self, kgrams: &KGrams<'_>, out: &mut Vec<Fingerprint>) {
        (**self).select(kgrams, out);
    }
    fn window_guarantee(&self) -> Option<usize> {
        (**self).window_guarantee()
    }
    fn fingerprint(&self, hasher: &KGramHasher, symbols: &[Symbol], out: &mut Vec<Fingerprint>) {
        (**self).fingerprint(hasher, symbols, out);
    }
}
