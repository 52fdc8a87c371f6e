//! The data the page's script renders, encoded to stay small and quick to
//! open with tens of thousands of pairs:
//!
//! - the units and the pair list as columns (one array per field, units
//!   by index, shares in millionths), read at once to draw the list;
//! - each pair's fragments and passages as flat integer arrays, as UTF-16
//!   ranges (what JavaScript strings index by) into the embedded texts,
//!   [`PAIRS_PER_BLOCK`] pairs to a block;
//! - the texts of the documents fragments lie in, a block of up to
//!   [`TEXT_BLOCK_BYTES`] at a time.
//!
//! A block is JSON compressed with raw DEFLATE and written in base64: the
//! page inflates one (with the browser's `DecompressionStream`) only when
//! a pair that needs it is opened. Fragments are most of a report, and
//! their integers and the texts compress several times over.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

use flate2::Compression;
use flate2::write::DeflateEncoder;
use rayon::prelude::*;
use serde::Serialize;

use super::HtmlOptions;
use crate::{Location, PairReport, Parameters, Problem, Report, Summary, Tool, UnitOrigin};

/// Bins of the similarity histogram, each 5 % wide.
const HISTOGRAM_BINS: usize = 20;

/// Pairs whose details share a compressed block: small enough that
/// opening a pair inflates little, large enough to compress well.
pub(super) const PAIRS_PER_BLOCK: usize = 64;

/// Bytes of text a block of texts holds at most (a longer document gets
/// a block to itself).
pub(super) const TEXT_BLOCK_BYTES: usize = 256 << 10;

/// Integers per fragment in a block: symbols, then each side's document,
/// UTF-16 start and end, first and last line (0 when not known).
pub(super) const FRAGMENT_FIELDS: usize = 11;

/// Integers per passage: its fragments' first and end, matched symbols,
/// then each side as a fragment's.
pub(super) const PASSAGE_FIELDS: usize = 13;

/// Integers per fragment, then per passage, in the cells of a pair whose
/// notebooks have them: each side's first cell and line within it, last
/// cell and line (cell 0 when the side has none).
pub(super) const CELL_FIELDS: usize = 8;

/// Everything the page shows.
#[derive(Debug, Serialize)]
pub(super) struct PageData<'a> {
    tool: &'a Tool,
    parameters: &'a Parameters,
    summary: &'a Summary,
    /// Names the set of units compared (a hash of their input paths,
    /// names and sizes), so that the reviews a browser keeps for one class
    /// are not shown for another.
    identity: String,
    /// Pairs in the report; more than the page embeds when capped.
    listed_pairs: usize,
    /// Pair counts by similarity, `[0, 5 %)`, `[5 %, 10 %)`, … `[95 %, 100 %]`,
    /// over all listed pairs.
    histogram: [usize; HISTOGRAM_BINS],
    units: PageUnits<'a>,
    pairs: PagePairs,
    pairs_per_block: usize,
    /// Compressed: per pair of the block, `[fragments, passages]`, each a
    /// flat array of [`FRAGMENT_FIELDS`] or [`PASSAGE_FIELDS`] integers
    /// per entry, and a third array of [`CELL_FIELDS`] integers per
    /// fragment and passage when either unit is a notebook.
    detail_blocks: Vec<String>,
    documents: PageDocuments<'a>,
    /// Compressed: the texts of the documents of the block, in order.
    text_blocks: Vec<String>,
    problems: &'a [Problem],
}

/// Every unit, by id.
#[derive(Debug, Default, Serialize)]
struct PageUnits<'a> {
    path: Vec<&'a str>,
    origin: Vec<UnitOrigin>,
    language: Vec<Option<&'a str>>,
}

/// The embedded pairs, most similar first, one array per field.
#[derive(Debug, Default, Serialize)]
struct PagePairs {
    a: Vec<usize>,
    b: Vec<usize>,
    /// Millionths.
    similarity: Vec<u32>,
    coverage_a: Vec<u32>,
    coverage_b: Vec<u32>,
    longest: Vec<usize>,
    overlap: Vec<usize>,
    shared: Vec<usize>,
    fragments: Vec<usize>,
}

/// The embedded documents, one array per field. A document's text is
/// entry `text_index` of block `text_block`; the block is `null` when
/// `missing` says why there is none.
#[derive(Debug, Default, Serialize)]
struct PageDocuments<'a> {
    unit: Vec<usize>,
    path: Vec<&'a str>,
    missing: Vec<Option<&'static str>>,
    text_block: Vec<Option<usize>>,
    text_index: Vec<usize>,
}

impl<'a> PageData<'a> {
    pub(super) fn new(
        report: &'a Report,
        source: &dyn Fn(usize, usize) -> Option<String>,
        options: &HtmlOptions,
    ) -> Self {
        let embedded = &report.pairs[..report.pairs.len().min(options.max_pairs)];
        let documents = Documents::load(embedded, source, options);
        let detail_blocks = embedded
            .par_chunks(PAIRS_PER_BLOCK)
            .map(|pairs| {
                let details: Vec<Vec<Vec<u32>>> =
                    pairs.iter().map(|pair| details(pair, &documents)).collect();
                compressed(&details)
            })
            .collect();
        let (documents, text_blocks) = documents.into_page();
        Self {
            tool: &report.tool,
            parameters: &report.parameters,
            summary: &report.summary,
            identity: identity(report),
            listed_pairs: report.pairs.len(),
            histogram: histogram(&report.pairs),
            units: PageUnits {
                path: report.units.iter().map(|u| u.path.as_str()).collect(),
                origin: report.units.iter().map(|u| u.origin).collect(),
                language: report.units.iter().map(|u| u.language.as_deref()).collect(),
            },
            pairs: page_pairs(embedded),
            pairs_per_block: PAIRS_PER_BLOCK,
            detail_blocks,
            documents,
            text_blocks,
            problems: &report.problems,
        }
    }
}

/// FNV-1a over every unit's input path, name and symbol count: the same
/// files compared again (other settings, a later run) get the same
/// identity, another assignment handed in by the same names does not.
fn identity(report: &Report) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for unit in &report.units {
        let symbols = unit.symbols.to_le_bytes();
        let fields = [
            unit.root.as_bytes(),
            &[0],
            unit.path.as_bytes(),
            &[0],
            &symbols,
        ];
        for &byte in fields.iter().copied().flatten() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

fn histogram(pairs: &[PairReport]) -> [usize; HISTOGRAM_BINS] {
    let mut bins = [0; HISTOGRAM_BINS];
    for pair in pairs {
        let bin = (pair.similarity.clamp(0.0, 1.0) * HISTOGRAM_BINS as f64) as usize;
        bins[bin.min(HISTOGRAM_BINS - 1)] += 1;
    }
    bins
}

/// A share in `[0, 1]` in millionths.
fn millionths(share: f64) -> u32 {
    (share.clamp(0.0, 1.0) * 1e6).round() as u32
}

fn page_pairs(pairs: &[PairReport]) -> PagePairs {
    let mut page = PagePairs::default();
    for pair in pairs {
        page.a.push(pair.a.unit);
        page.b.push(pair.b.unit);
        page.similarity.push(millionths(pair.similarity));
        page.coverage_a.push(millionths(pair.a.coverage));
        page.coverage_b.push(millionths(pair.b.coverage));
        page.longest.push(pair.longest_fragment);
        page.overlap.push(pair.total_overlap);
        page.shared.push(pair.shared_fingerprints);
        page.fragments.push(pair.fragment_count);
    }
    page
}

/// A pair's fragments and passages as flat integer arrays, and their
/// cells when it has some in a notebook.
fn details(pair: &PairReport, documents: &Documents<'_>) -> Vec<Vec<u32>> {
    let sides = |out: &mut Vec<u32>, a: &Location, b: &Location| {
        out.extend(documents.span(pair.a.unit, a));
        out.extend(documents.span(pair.b.unit, b));
    };
    let mut fragments = Vec::with_capacity(pair.listed_fragments().len() * FRAGMENT_FIELDS);
    for fragment in pair.listed_fragments() {
        fragments.push(fragment.symbols);
        sides(&mut fragments, &fragment.a, &fragment.b);
    }
    let mut passages = Vec::with_capacity(pair.listed_passages().len() * PASSAGE_FIELDS);
    for passage in pair.listed_passages() {
        let [first, end] = passage
            .fragments
            .map(|f| u32::try_from(f).unwrap_or(u32::MAX));
        passages.extend([first, end, passage.matched_symbols]);
        sides(&mut passages, &passage.a, &passage.b);
    }
    let mut details = vec![fragments, passages];
    if let Some(cells) = cells(pair) {
        details.push(cells);
    }
    details
}

/// The cells of a pair's fragments and passages, `None` when no side of
/// them is in a notebook.
fn cells(pair: &PairReport) -> Option<Vec<u32>> {
    let fragments = pair.listed_fragments().iter().map(|f| [&f.a, &f.b]);
    let passages = pair.listed_passages().iter().map(|p| [&p.a, &p.b]);
    let sides: Vec<[&Location; 2]> = fragments.chain(passages).collect();
    if !sides.iter().flatten().any(|side| side.notebook.is_some()) {
        return None;
    }
    let mut cells = Vec::with_capacity(sides.len() * CELL_FIELDS);
    for side in sides.iter().flatten() {
        cells.extend(side.notebook.map_or([0; 4], |at| {
            [at.cells[0], at.lines[0], at.cells[1], at.lines[1]]
        }));
    }
    Some(cells)
}

/// `value` as JSON, compressed with raw DEFLATE, in base64.
fn compressed(value: &impl Serialize) -> String {
    let json = serde_json::to_vec(value).expect("plain data serialises");
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::default());
    encoder
        .write_all(&json)
        .expect("writing to memory cannot fail");
    base64(&encoder.finish().expect("writing to memory cannot fail"))
}

/// Standard base64 with padding, what the browser's `atob` reads.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0_u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The embedded documents, keyed by `(unit, document)`, with each one's
/// byte offsets that fragments start or end at mapped to UTF-16 offsets.
struct Documents<'a> {
    entries: BTreeMap<(usize, usize), Entry<'a>>,
}

struct Entry<'a> {
    /// Position in the page's `documents`.
    index: u32,
    path: &'a str,
    text: Result<String, &'static str>,
    utf16: BTreeMap<usize, u32>,
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
            .zip(0..)
            .map(|(((unit, document), (path, bytes)), index)| {
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

    /// Document, UTF-16 start and end, first and last line (0 when not
    /// known) of `location` in unit `unit`.
    fn span(&self, unit: usize, location: &Location) -> [u32; 5] {
        let entry = &self.entries[&(unit, location.document)];
        let at = |byte: usize| entry.utf16.get(&byte).copied().unwrap_or(0);
        let [first, last] = location.lines.unwrap_or([0, 0]);
        [
            entry.index,
            at(location.bytes[0]),
            at(location.bytes[1]),
            first,
            last,
        ]
    }

    /// The documents' columns, and their texts in compressed blocks.
    fn into_page(self) -> (PageDocuments<'a>, Vec<String>) {
        let mut page = PageDocuments::default();
        let mut blocks: Vec<Vec<String>> = Vec::new();
        let mut block_bytes = 0;
        for ((unit, _), entry) in self.entries {
            page.unit.push(unit);
            page.path.push(entry.path);
            match entry.text {
                Ok(text) => {
                    if blocks.is_empty() || block_bytes + text.len() > TEXT_BLOCK_BYTES {
                        blocks.push(Vec::new());
                        block_bytes = 0;
                    }
                    block_bytes += text.len();
                    page.missing.push(None);
                    page.text_block.push(Some(blocks.len() - 1));
                    let block = blocks.last_mut().expect("a block was pushed");
                    page.text_index.push(block.len());
                    block.push(text);
                }
                Err(why) => {
                    page.missing.push(Some(why));
                    page.text_block.push(None);
                    page.text_index.push(0);
                }
            }
        }
        let blocks = blocks.par_iter().map(compressed).collect();
        (page, blocks)
    }
}

/// The UTF-16 offset of each byte offset in `bytes`, found in one pass over
/// `text`. An offset inside a character counts as that character's start
/// and one past the end as the end, so a stale or odd range still gives a
/// valid (if wrong) slice.
fn utf16_offsets(text: &str, bytes: &BTreeSet<usize>) -> BTreeMap<usize, u32> {
    let mut offsets = BTreeMap::new();
    let mut wanted = bytes.iter().copied().peekable();
    let mut units = 0_u32;
    for (at, c) in text.char_indices() {
        while let Some(byte) = wanted.next_if(|&byte| byte < at + c.len_utf8()) {
            offsets.insert(byte, units);
        }
        units += c.len_utf16() as u32;
    }
    for byte in wanted {
        offsets.insert(byte, units);
    }
    offsets
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PairSide;

    #[test]
    fn utf16_offsets_of_non_ascii_text() {
        // é is 2 bytes and 1 unit, € 3 bytes and 1 unit, 𝄞 4 bytes and 2 units.
        let text = "aé€𝄞b";
        let bytes: BTreeSet<usize> = [0, 1, 3, 6, 10, 11, 2, 99].into();
        let offsets = utf16_offsets(text, &bytes);
        let expected: BTreeMap<usize, u32> = [
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
    fn base64_as_the_standard_writes_it() {
        // RFC 4648, section 10.
        for (bytes, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(bytes.as_bytes()), encoded);
        }
        assert_eq!(base64(&[0xff, 0xfe, 0x00]), "//4A");
    }

    #[test]
    fn the_identity_is_of_the_units_paths_and_sizes() {
        let unit = |path: &str, symbols: usize| crate::UnitReport {
            id: 0,
            path: path.into(),
            root: "class".into(),
            language: None,
            role: crate::UnitRole::New,
            origin: UnitOrigin::New,
            group: None,
            symbols,
            compared_symbols: symbols,
            base_symbols: 0,
            documents: Vec::new(),
        };
        let report = |units| Report {
            schema_version: crate::SCHEMA_VERSION,
            tool: Tool {
                name: "copyhound".into(),
                version: "test".into(),
            },
            parameters: Parameters::default(),
            summary: Summary::default(),
            units,
            pairs: Vec::new(),
            problems: Vec::new(),
        };
        let class = identity(&report(vec![unit("ann", 10), unit("ben", 20)]));
        let mut other_settings = report(vec![unit("ann", 10), unit("ben", 20)]);
        other_settings.parameters.k = 99;
        assert_eq!(identity(&other_settings), class);
        for other in [
            vec![unit("ann", 10), unit("ben", 21)],
            vec![unit("ann", 10), unit("bob", 20)],
            vec![unit("ann", 10)],
            vec![unit("an", 10), unit("nben", 20)],
        ] {
            assert_ne!(identity(&report(other)), class);
        }
    }

    #[test]
    fn histogram_bins_include_both_ends() {
        let side = |unit: usize| PairSide {
            unit,
            path: unit.to_string(),
            coverage: 0.0,
            line_coverage: None,
            covered_symbols: 0,
            covered_lines: None,
        };
        let pair = |similarity| PairReport {
            similarity,
            a: side(0),
            b: side(1),
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
