//! Fixtures shared by the report tests: a small text front-end, the
//! report parameters of a default comparison, and a compared batch with
//! everything a report of it is built from.

use copyhound_fingerprint::{KGramHasher, NormalizedDocument, Scheme, Winnowing};
use copyhound_index::{BaseCode, CompareOptions, Comparison, Document, Unit, compare};
use copyhound_report::{Parameters, Problem, ReportInput, Tool};
use copyhound_source::LineIndex;

/// Robust winnowing over `window` k-grams of `k` symbols hashed with
/// `seed`.
pub fn scheme(k: usize, window: usize, seed: u64) -> Scheme {
    Scheme::new(KGramHasher::new(k, seed), Winnowing::robust(window))
}

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
    Document::fingerprinted(name, normalized, &scheme(k, window, seed))
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
    let k = options.scheme.k();
    Parameters {
        language: Some("text".into()),
        k,
        window,
        seed: options.scheme.hasher().seed(),
        selector: "robust-winnow".into(),
        max_occurrences: "unlimited".into(),
        base: vec![],
        min_shared: options.min_shared,
        min_fragment: options.shortest_fragment(),
        weighting: "flat".into(),
        max_pairs: options.max_pairs,
        merge_gap: 2 * k,
        languages: vec![],
        min_passage: 0,
        symbol: Some("character".into()),
        code: None,
        score_gap: 0,
    }
}

/// A compared batch and everything a report of it is built from.
pub struct Compared {
    pub units: Vec<Unit>,
    pub roots: Vec<String>,
    pub comparison: Comparison,
    pub tool: Tool,
    pub parameters: Parameters,
    pub problems: Vec<Problem>,
}

impl Compared {
    /// `units` (their input paths `roots`) compared with the default
    /// options for k-grams of `k` symbols hashed with `seed`, as the tool
    /// `copyhound` reports them with robust winnowing over `window`.
    pub fn new(
        units: Vec<Unit>,
        roots: Vec<String>,
        (k, window, seed): (usize, usize, u64),
        problems: Vec<Problem>,
    ) -> Self {
        let options = CompareOptions::new(scheme(k, window, seed));
        let comparison = compare(&units, &BaseCode::none(), &options).unwrap();
        Self {
            units,
            roots,
            comparison,
            tool: tool("copyhound"),
            parameters: parameters(&options, window),
            problems,
        }
    }

    /// What the report of the first `pair_limit` pairs is built from.
    pub fn input(&self, pair_limit: Option<usize>) -> ReportInput<'_> {
        ReportInput {
            tool: &self.tool,
            parameters: &self.parameters,
            units: &self.units,
            roots: &self.roots,
            origins: None,
            comparison: &self.comparison,
            problems: &self.problems,
            pair_limit,
        }
    }
}
