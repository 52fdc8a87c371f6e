//! Fixtures shared by the report tests: a small text front-end and the
//! report parameters of a default comparison.

use copyhound_fingerprint::{KGramHasher, NormalizedDocument, Winnowing};
use copyhound_index::{CompareOptions, Document, LineIndex};
use copyhound_report::{Parameters, Tool};

/// One symbol per non-whitespace character, lower-cased, spanning its
/// bytes: a small stand-in for the text front-end that keeps byte ranges
/// on character boundaries. Fingerprinted with robust winnowing.
pub fn document(name: &str, text: &str, k: usize, window: usize, seed: u64) -> Document {
    let mut normalized = NormalizedDocument::new();
    for (at, c) in text.char_indices() {
        if !c.is_whitespace() {
            let symbol = c.to_lowercase().next().map_or(0, u32::from);
            normalized.push(symbol, at..at + c.len_utf8());
        }
    }
    let hasher = KGramHasher::new(k, seed);
    Document::fingerprinted(name, normalized, &hasher, &Winnowing::robust(window))
        .with_lines(LineIndex::new(text.as_bytes()))
}

/// A test build of the tool called `name`.
pub fn tool(name: &str) -> Tool {
    Tool {
        name: name.into(),
        version: "test".into(),
    }
}

/// The parameters a text comparison with `options` and robust winnowing
/// over `window` reports.
pub fn parameters(options: &CompareOptions, window: usize) -> Parameters {
    let k = options.hasher.k();
    Parameters {
        language: Some("text".into()),
        k,
        window,
        seed: options.hasher.seed(),
        selector: "robust-winnow".into(),
        max_occurrences: "unlimited".into(),
        base: vec![],
        min_shared: options.min_shared,
        min_fragment: options.min_fragment.max(k),
        weighting: "flat".into(),
        max_pairs: options.max_pairs,
        merge_gap: 2 * k,
        languages: vec![],
        min_passage: 0,
    }
}
