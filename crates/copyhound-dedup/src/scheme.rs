//! The two per-document and per-pair steps both runners share: the
//! candidate fingerprints of one text, and the score and passages of one
//! pair of texts. Each is a function of its input alone, so a run split
//! over machines gives the same numbers as one on a single machine.

use std::ops::Range;

use copyhound_fingerprint::Scheme as Fingerprinting;
use copyhound_fingerprint::{KGramHasher, NormalizedDocument, Winnowing};
use copyhound_index::{
    BaseCode, CompareOptions, Document, Fragment, Unit, compare, merge_passages,
};
use copyhound_normalize::TextOptions;
use copyhound_normalize::text::normalize_text;

use crate::{DedupError, DedupOptions};

/// Validated settings, with the hasher and selectors made from them.
#[derive(Debug)]
pub struct Scheme {
    options: DedupOptions,
    text: TextOptions,
    /// Candidate fingerprints: the wider window.
    index: Fingerprinting,
    /// A pair's fingerprints, as `compare` takes them.
    score: Fingerprinting,
}

/// A stretch two texts share: byte ranges in each, and how many symbols
/// of it lie in exact fragments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedSpan {
    /// Bytes in the first text.
    pub a: Range<usize>,
    /// Bytes in the second text.
    pub b: Range<usize>,
    /// Symbols in exact fragments (all of them for a fragment).
    pub matched_symbols: u32,
}

/// How much and where two texts share.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairMatch {
    /// The mean of the two containments, in `[0, 1]`.
    pub similarity: f64,
    /// The share of each text's symbols inside shared fragments: how much
    /// of the first, and of the second, the other contains.
    pub containment: [f64; 2],
    /// The exact, maximal fragments, by position in the first text.
    pub fragments: Vec<SharedSpan>,
    /// The fragments merged into passages (those following each other on
    /// both sides within the merge gap), only those with at least the
    /// minimum passage length in fragments.
    pub passages: Vec<SharedSpan>,
}

impl PairMatch {
    /// Whether the pair is listed: it shares a passage of at least the
    /// minimum length.
    pub fn is_listed(&self) -> bool {
        !self.passages.is_empty()
    }
}

impl Scheme {
    /// The scheme of `options`, once they are checked.
    pub fn new(options: DedupOptions) -> Result<Self, DedupError> {
        options.validate()?;
        let hasher = KGramHasher::new(options.k, options.seed);
        Ok(Self {
            text: TextOptions::with_mode(options.text_mode),
            index: Fingerprinting::new(hasher.clone(), Winnowing::robust(options.index_window)),
            score: Fingerprinting::new(hasher, Winnowing::robust(options.window)),
            options,
        })
    }

    /// The settings.
    pub fn options(&self) -> &DedupOptions {
        &self.options
    }

    /// The symbols of `text`.
    pub fn normalize(&self, text: &str) -> NormalizedDocument {
        normalize_text(text, &self.text)
    }

    /// The distinct candidate fingerprints of `text`, sorted.
    pub fn candidate_hashes(&self, text: &str) -> Vec<u64> {
        let doc = self.normalize(text);
        let mut prints = Vec::new();
        self.index.fingerprint(&doc.symbols, &mut prints);
        let mut hashes: Vec<u64> = prints.iter().map(|f| f.hash).collect();
        hashes.sort_unstable();
        hashes.dedup();
        hashes
    }

    /// Whether texts `a` and `b` are a candidate pair on their own: they
    /// share at least [`DedupOptions::min_shared_fingerprints`] distinct
    /// candidate fingerprints (a run also drops those in too many of its
    /// documents).
    pub fn is_candidate(&self, a: &str, b: &str) -> bool {
        let (a, b) = (self.candidate_hashes(a), self.candidate_hashes(b));
        let shared = a.iter().filter(|h| b.binary_search(h).is_ok()).count();
        shared >= self.options.min_shared_fingerprints
    }

    /// What texts `a` and `b` share.
    pub fn score(&self, a: &str, b: &str) -> PairMatch {
        self.score_normalized(&self.normalize(a), &self.normalize(b))
    }

    /// What two normalised texts share: they are compared as a batch of
    /// two by `copyhound-index`, flat-weighted, so the fragments and
    /// similarity are the ones `compare --weighting flat` gives.
    pub fn score_normalized(&self, a: &NormalizedDocument, b: &NormalizedDocument) -> PairMatch {
        let unit = |name: &str, doc: &NormalizedDocument| {
            let document = Document::fingerprinted(name, doc.clone(), &self.score);
            Unit::new(name, vec![document])
        };
        let units = [unit("a", a), unit("b", b)];
        let options = CompareOptions::new(self.score.clone());
        let Ok(comparison) = compare(&units, &BaseCode::none(), &options) else {
            return PairMatch::default();
        };
        let Some(pair) = comparison.pairs.first() else {
            return PairMatch::default();
        };
        let fragments = comparison.fragments(&units, pair.a, pair.b);
        let span = |f: &Fragment| SharedSpan {
            a: a.byte_range(f.a.start as usize, f.a.len() as usize),
            b: b.byte_range(f.b.start as usize, f.b.len() as usize),
            matched_symbols: f.len(),
        };
        let passages = merge_passages(&fragments, self.options.merge_gap as u32)
            .into_iter()
            .filter_map(|p| {
                let matched: u32 = fragments[p.fragments.clone()]
                    .iter()
                    .map(Fragment::len)
                    .sum();
                (matched as usize >= self.options.min_passage).then(|| SharedSpan {
                    a: a.byte_range(p.a.start as usize, p.a.len() as usize),
                    b: b.byte_range(p.b.start as usize, p.b.len() as usize),
                    matched_symbols: matched,
                })
            })
            .collect();
        PairMatch {
            similarity: pair.similarity,
            containment: [
                pair.coverage_a(&comparison.units).symbol_share(),
                pair.coverage_b(&comparison.units).symbol_share(),
            ],
            fragments: fragments.iter().map(span).collect(),
            passages,
        }
    }
}
