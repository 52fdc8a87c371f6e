//! The data the page's script renders: the embedded pairs with their
//! fragments and passages as UTF-16 ranges (what JavaScript strings index
//! by) into the embedded document texts, the histogram of all pairs, and
//! the totals.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::HtmlOptions;
use crate::{Location, PairReport, PairSide, Parameters, Problem, Report, Summary, Tool};

/// Bins of the similarity histogram, each 5 % wide.
const HISTOGRAM_BINS: usize = 20;

/// Everything the page shows.
#[derive(Debug, Serialize)]
pub(super) struct PageData<'a> {
    tool: &'a Tool,
    parameters: &'a Parameters,
    summary: &'a Summary,
    /// Pairs in the report; more than `pairs.len()` when capped.
    listed_pairs: usize,
    /// Pair counts by similarity, `[0, 5 %)`, `[5 %, 10 %)`, … `[95 %, 100 %]`,
    /// over all listed pairs.
    histogram: [usize; HISTOGRAM_BINS],
    pairs: Vec<PagePair<'a>>,
    documents: Vec<PageDocument<'a>>,
    problems: &'a [Problem],
}

#[derive(Debug, Serialize)]
struct PagePair<'a> {
    similarity: f64,
    /// Both units' language, when known.
    language: Option<&'a str>,
    a: PageSide<'a>,
    b: PageSide<'a>,
    shared_fingerprints: usize,
    longest_fragment: usize,
    total_overlap: usize,
    fragments: Vec<PageFragment>,
    passages: Vec<PagePassage>,
}

#[derive(Debug, Serialize)]
struct PageSide<'a> {
    unit: usize,
    path: &'a str,
    coverage: f64,
}

#[derive(Debug, Serialize)]
struct PageFragment {
    symbols: u32,
    a: PageSpan,
    b: PageSpan,
}

/// Fragments `[first, last + 1)` that make one copied stretch; its spans
/// run from its first fragment's start to its last one's end.
#[derive(Debug, Serialize)]
struct PagePassage {
    fragments: [usize; 2],
    matched_symbols: u32,
    a: PageSpan,
    b: PageSpan,
}

/// A fragment or passage on one side: `[start, end)` in UTF-16 code units of the
/// text of `documents[doc]`, and its lines.
#[derive(Debug, Serialize)]
struct PageSpan {
    doc: usize,
    start: usize,
    end: usize,
    lines: Option<[u32; 2]>,
}

#[derive(Debug, Serialize)]
struct PageDocument<'a> {
    unit: usize,
    path: &'a str,
    /// `None` when not available or too long; `missing` says which.
    text: Option<String>,
    missing: Option<&'static str>,
}

impl<'a> PageData<'a> {
    pub(super) fn new(
        report: &'a Report,
        source: &dyn Fn(usize, usize) -> Option<String>,
        options: &HtmlOptions,
    ) -> Self {
        let embedded = &report.pairs[..report.pairs.len().min(options.max_pairs)];
        let documents = Documents::load(embedded, source, options);
        Self {
            tool: &report.tool,
            parameters: &report.parameters,
            summary: &report.summary,
            listed_pairs: report.pairs.len(),
            histogram: histogram(&report.pairs),
            pairs: embedded
                .iter()
                .map(|pair| page_pair(report, pair, &documents))
                .collect(),
            documents: documents.into_page(),
            problems: &report.problems,
        }
    }
}

fn histogram(pairs: &[PairReport]) -> [usize; HISTOGRAM_BINS] {
    let mut bins = [0; HISTOGRAM_BINS];
    for pair in pairs {
        let bin = (pair.similarity.clamp(0.0, 1.0) * HISTOGRAM_BINS as f64) as usize;
        bins[bin.min(HISTOGRAM_BINS - 1)] += 1;
    }
    bins
}

fn page_pair<'a>(
    report: &'a Report,
    pair: &'a PairReport,
    documents: &Documents<'a>,
) -> PagePair<'a> {
    let side = |side: &'a PairSide| PageSide {
        unit: side.unit,
        path: &side.path,
        coverage: side.coverage,
    };
    PagePair {
        similarity: pair.similarity,
        language: report.pair_language(pair),
        a: side(&pair.a),
        b: side(&pair.b),
        shared_fingerprints: pair.shared_fingerprints,
        longest_fragment: pair.longest_fragment,
        total_overlap: pair.total_overlap,
        fragments: pair
            .listed_fragments()
            .iter()
            .map(|fragment| PageFragment {
                symbols: fragment.symbols,
                a: documents.span(pair.a.unit, &fragment.a),
                b: documents.span(pair.b.unit, &fragment.b),
            })
            .collect(),
        passages: pair
            .listed_passages()
            .iter()
            .map(|passage| PagePassage {
                fragments: passage.fragments,
                matched_symbols: passage.matched_symbols,
                a: documents.span(pair.a.unit, &passage.a),
                b: documents.span(pair.b.unit, &passage.b),
            })
            .collect(),
    }
}

/// The embedded documents, keyed by `(unit, document)`, with each one's
/// byte offsets that fragments start or end at mapped to UTF-16 offsets.
struct Documents<'a> {
    entries: BTreeMap<(usize, usize), Entry<'a>>,
}

struct Entry<'a> {
    /// Position in the page's `documents`.
    index: usize,
    path: &'a str,
    text: Result<String, &'static str>,
    utf16: BTreeMap<usize, usize>,
}

impl<'a> Documents<'a> {
    fn load(
        pairs: &'a [PairReport],
        source: &dyn Fn(usize, usize) -> Option<String>,
        options: &HtmlOptions,
    ) -> Self {
        let mut offsets: BTreeMap<(usize, usize), (&'a str, BTreeSet<usize>)> = BTreeMap::new();
        for pair in pairs {
            let spans = pair.listed_fragments().iter().map(|f| (&f.a, &f.b));
            let passage_spans = pair.listed_passages().iter().map(|p| (&p.a, &p.b));
            for (a, b) in spans.chain(passage_spans) {
                for (unit, location) in [(pair.a.unit, a), (pair.b.unit, b)] {
                    let entry = offsets
                        .entry((unit, location.document))
                        .or_insert_with(|| (&location.path, BTreeSet::new()));
                    entry.1.extend(location.bytes);
                }
            }
        }
        let entries = offsets
            .into_iter()
            .enumerate()
            .map(|(index, ((unit, document), (path, bytes)))| {
                let text = match source(unit, document) {
                    None => Err("the text of this file is not available"),
                    Some(text) if text.len() > options.max_document_bytes => {
                        Err("this file is too long to embed")
                    }
                    Some(text) => Ok(text),
                };
                let utf16 = match &text {
                    Ok(text) => utf16_offsets(text, &bytes),
                    Err(_) => BTreeMap::new(),
                };
                let entry = Entry {
                    index,
                    path,
                    text,
                    utf16,
                };
                ((unit, document), entry)
            })
            .collect();
        Self { entries }
    }

    fn span(&self, unit: usize, location: &Location) -> PageSpan {
        let entry = &self.entries[&(unit, location.document)];
        let at = |byte: usize| entry.utf16.get(&byte).copied().unwrap_or(0);
        PageSpan {
            doc: entry.index,
            start: at(location.bytes[0]),
            end: at(location.bytes[1]),
            lines: location.lines,
        }
    }

    fn into_page(self) -> Vec<PageDocument<'a>> {
        self.entries
            .into_iter()
            .map(|((unit, _), entry)| {
                let (text, missing) = match entry.text {
                    Ok(text) => (Some(text), None),
                    Err(why) => (None, Some(why)),
                };
                PageDocument {
                    unit,
                    path: entry.path,
                    text,
                    missing,
                }
            })
            .collect()
    }
}

/// The UTF-16 offset of each byte offset in `bytes`, found in one pass over
/// `text`. An offset inside a character counts as that character's start
/// and one past the end as the end, so a stale or odd range still gives a
/// valid (if wrong) slice.
fn utf16_offsets(text: &str, bytes: &BTreeSet<usize>) -> BTreeMap<usize, usize> {
    let mut offsets = BTreeMap::new();
    let mut wanted = bytes.iter().copied().peekable();
    let mut units = 0;
    for (at, c) in text.char_indices() {
        while let Some(byte) = wanted.next_if(|&byte| byte < at + c.len_utf8()) {
            offsets.insert(byte, units);
        }
        units += c.len_utf16();
    }
    for byte in wanted {
        offsets.insert(byte, units);
    }
    offsets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_offsets_of_non_ascii_text() {
        // é is 2 bytes and 1 unit, € 3 bytes and 1 unit, 𝄞 4 bytes and 2 units.
        let text = "aé€𝄞b";
        let bytes: BTreeSet<usize> = [0, 1, 3, 6, 10, 11, 2, 99].into();
        let offsets = utf16_offsets(text, &bytes);
        let expected: BTreeMap<usize, usize> = [
            (0, 0),
            (1, 1),
            (2, 1),
            (3, 2),
            (6, 3),
            (10, 5),
            (11, 6),
            (99, 6),
        ]
        .into();
        assert_eq!(offsets, expected);
    }

    #[test]
    fn histogram_bins_include_both_ends() {
        let pair = |similarity| PairReport {
            similarity,
            a: PairSide {
                unit: 0,
                path: "a".into(),
                coverage: 0.0,
                line_coverage: None,
                covered_symbols: 0,
                covered_lines: None,
            },
            b: PairSide {
                unit: 1,
                path: "b".into(),
                coverage: 0.0,
                line_coverage: None,
                covered_symbols: 0,
                covered_lines: None,
            },
            shared_fingerprints: 0,
            longest_fragment: 0,
            total_overlap: 0,
            fragment_count: 0,
            fragments: None,
            passages: None,
        };
        let bins = histogram(&[pair(0.0), pair(0.049), pair(0.05), pair(0.97), pair(1.0)]);
        assert_eq!(bins[0], 2);
        assert_eq!(bins[1], 1);
        assert_eq!(bins[19], 2);
        assert_eq!(bins.iter().sum::<usize>(), 5);
    }
}
