//! The HTML report of small fixed comparisons: the data embedded in the
//! page (snapshot, its compressed blocks inflated), that no file's text or
//! path can break out of it, that fragments and passages of non-ASCII
//! text slice correctly in JavaScript's UTF-16 indices, and the limits on
//! what is embedded.

mod common;

use std::cell::RefCell;
use std::io::Read;

use common::Compared;
use copyhound_index::{Document, Unit};
use copyhound_report::{HtmlOptions, Report, write_html};
use serde_json::Value;

const K: usize = 6;
const W: usize = 4;
const SEED: u64 = 11;

fn document(name: &str, text: &str) -> Document {
    common::document(name, text, K, W, SEED)
}

/// Units of `(name, [(document name, text)])`, compared.
fn report_of(tool_name: &str, units: &[(&str, &[(&str, &str)])]) -> Report {
    let units: Vec<Unit> = units
        .iter()
        .map(|(name, documents)| {
            Unit::new(
                *name,
                documents
                    .iter()
                    .map(|(d, text)| document(d, text))
                    .collect(),
            )
        })
        .collect();
    let roots = vec!["subs".to_string(); units.len()];
    let mut compared = Compared::new(units, roots, (K, W, SEED), Vec::new());
    compared.tool = common::tool(tool_name);
    Report::build(compared.input(None))
}

/// The texts of `units`, looked up as `write_html` asks for them.
fn texts<'a>(
    units: &'a [(&'a str, &'a [(&'a str, &'a str)])],
) -> impl Fn(usize, usize) -> Option<String> + 'a {
    move |unit, document| Some(units[unit].1[document].1.to_string())
}

fn page(
    report: &Report,
    source: impl Fn(usize, usize) -> Option<String>,
    options: &HtmlOptions,
) -> String {
    let mut out = Vec::new();
    write_html(report, source, options, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

const DATA_OPEN: &str = r#"<script type="application/json" id="copyhound-data">"#;

/// The JSON inside the page's data element, its blocks inflated.
fn embedded_data(page: &str) -> Value {
    let start = page.find(DATA_OPEN).expect("the data element") + DATA_OPEN.len();
    let end = start
        + page[start..]
            .find("</script>")
            .expect("the data element's end");
    let mut data: Value = serde_json::from_str(&page[start..end]).expect("valid JSON");
    for blocks in ["detail_blocks", "text_blocks"] {
        let inflated = data[blocks]
            .as_array()
            .unwrap()
            .iter()
            .map(|block| inflate(block.as_str().unwrap()))
            .collect();
        data[blocks] = Value::Array(inflated);
    }
    data
}

/// A block as the page reads it: base64, raw DEFLATE, JSON.
fn inflate(block: &str) -> Value {
    let mut bits = Vec::new();
    for byte in block.bytes().filter(|&b| b != b'=') {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {byte}"),
        };
        bits.push(value);
    }
    let bytes: Vec<u8> = bits
        .chunks(4)
        .flat_map(|chunk| {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0_u32, |n, (i, &v)| n | u32::from(v) << (18 - 6 * i));
            let [_, a, b, c] = n.to_be_bytes();
            [a, b, c].into_iter().take(chunk.len() - 1)
        })
        .collect();
    let mut json = String::new();
    flate2::read::DeflateDecoder::new(&bytes[..])
        .read_to_string(&mut json)
        .expect("a raw DEFLATE stream of UTF-8");
    serde_json::from_str(&json).expect("a block holds JSON")
}

/// Pair `pair`'s `[fragments, passages]` as flat arrays.
fn details(data: &Value, pair: usize) -> &Value {
    let per_block = data["pairs_per_block"].as_u64().unwrap() as usize;
    &data["detail_blocks"][pair / per_block][pair % per_block]
}

/// The text of embedded document `doc`, if any.
fn text(data: &Value, doc: usize) -> Option<&str> {
    let documents = &data["documents"];
    let block = documents["text_block"][doc].as_u64()? as usize;
    let index = documents["text_index"][doc].as_u64().unwrap() as usize;
    Some(data["text_blocks"][block][index].as_str().unwrap())
}

/// The `(document, start, end)` of each side of each entry of `flat`,
/// entries of `fields` integers whose sides start at `first`.
fn spans(flat: &Value, fields: usize, first: usize) -> Vec<[[usize; 3]; 2]> {
    let values: Vec<usize> = flat
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect();
    values
        .chunks(fields)
        .map(|entry| {
            let side = |at: usize| [entry[at], entry[at + 1], entry[at + 2]];
            [side(first), side(first + 5)]
        })
        .collect()
}

const POEM: &str = "The quick brown fox\njumps over the lazy dog\nand runs far away.\n";
const POEM_COPY: &str = "A title line\nThe quick brown fox\njumps over the lazy dog!\n";
const OTHER: &str = "Completely unrelated words\nabout rivers and mountains.\n";
const FOX_NOTE: &str = "notes: jumps over the lazy dog\n";

const CLASS: &[(&str, &[(&str, &str)])] = &[
    ("ann", &[("ann/poem.txt", POEM), ("ann/other.txt", OTHER)]),
    ("ben", &[("ben/poem.txt", POEM_COPY)]),
    ("cat", &[("cat/notes.txt", FOX_NOTE)]),
];

#[test]
fn embedded_data_of_a_small_report() {
    let report = report_of("copyhound", CLASS);
    assert!(report.pairs.len() >= 2, "the fixture has similar pairs");
    let page = page(&report, texts(CLASS), &HtmlOptions::default());

    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("<title>copyhound report: 3 units,"));
    // Self-contained: nothing is loaded from anywhere.
    for outside in [
        "<link",
        " src=",
        "@import",
        "url(",
        "fetch(",
        "XMLHttpRequest",
    ] {
        assert!(
            !page.contains(outside),
            "the page refers outside: {outside}"
        );
    }
    let data = embedded_data(&page);
    // Only documents fragments lie in are embedded: not ann/other.txt.
    let paths: Vec<&str> = data["documents"]["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    assert!(!paths.contains(&"ann/other.txt"));
    insta::assert_json_snapshot!(data);
}

#[test]
fn fragments_slice_the_embedded_text_as_the_report_says() {
    let report = report_of("copyhound", CLASS);
    let data = embedded_data(&page(&report, texts(CLASS), &HtmlOptions::default()));
    assert_fragments_match(&report, &data);
}

/// Every embedded fragment and passage, sliced from the embedded text in
/// UTF-16 code units as the page's script does, is the report's byte range
/// of the original text.
fn assert_fragments_match(report: &Report, data: &Value) {
    let mut checked = 0;
    for (i, pair) in report.pairs.iter().enumerate() {
        let [fragments, passages] = [0, 1].map(|k| &details(data, i)[k]);
        let locations = pair
            .listed_fragments()
            .iter()
            .map(|f| [&f.a, &f.b])
            .chain(pair.listed_passages().iter().map(|p| [&p.a, &p.b]));
        let page_spans: Vec<_> = spans(fragments, 11, 1)
            .into_iter()
            .chain(spans(passages, 13, 3))
            .collect();
        assert_eq!(
            pair.listed_fragments().len() + pair.listed_passages().len(),
            page_spans.len()
        );
        for (sides, page_sides) in locations.zip(page_spans) {
            for (location, [doc, start, end]) in sides.into_iter().zip(page_sides) {
                assert_eq!(data["documents"]["path"][doc], location.path.as_str());
                let text = text(data, doc).unwrap();
                let utf16: Vec<u16> = text.encode_utf16().collect();
                let sliced = String::from_utf16(&utf16[start..end]).unwrap();
                assert_eq!(sliced, text[location.bytes[0]..location.bytes[1]]);
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "the fixture has fragments");
}

const GREEK: &str = "Ἐν ἀρχῇ ἦν ὁ λόγος, καὶ ὁ λόγος ἦν πρὸς τὸν θεόν.\n";
const MIXED: &str =
    "😀 émoji first 𝄞\nἘν ἀρχῇ ἦν ὁ λόγος, καὶ ὁ λόγος ἦν πρὸς τὸν θεόν.\n中文在这里\n";
const NON_ASCII: &[(&str, &[(&str, &str)])] = &[
    ("greek", &[("greek.txt", GREEK)]),
    ("mixed", &[("mixed.txt", MIXED)]),
];

#[test]
fn non_ascii_fragments_slice_by_utf16_code_units() {
    let report = report_of("copyhound", NON_ASCII);
    assert_eq!(report.pairs.len(), 1);
    // The fragment in `mixed` starts after characters of 4, 2 and 4 bytes,
    // so byte and UTF-16 offsets differ.
    let fragment = &report.pairs[0].listed_fragments()[0];
    let data = embedded_data(&page(&report, texts(NON_ASCII), &HtmlOptions::default()));
    assert_fragments_match(&report, &data);
    let mixed_start = spans(&details(&data, 0)[0], 11, 1)[0][1][1];
    assert!(mixed_start < fragment.b.bytes[0]);
}

const SNEAKY_NAME: &str = "x</script><img src=x onerror=alert(2)>.txt";
const SNEAKY: &str = "<!-- </script><script>alert(1)</script> & more text to match here -->\n";
const SNEAKY_COPY: &str = "copied: </script><script>alert(1)</script> & more text to match\n";

#[test]
fn no_text_or_path_breaks_out_of_the_data() {
    let class: &[(&str, &[(&str, &str)])] = &[
        ("mallory", &[(SNEAKY_NAME, SNEAKY)]),
        ("trent", &[("trent/copy.txt", SNEAKY_COPY)]),
    ];
    let report = report_of("<b>hound</b>", class);
    assert_eq!(report.pairs.len(), 1);
    let page = page(&report, texts(class), &HtmlOptions::default());

    // The page's own script elements are the only ones: the data and the code.
    assert_eq!(page.matches("<script").count(), 2);
    assert_eq!(page.matches("</script>").count(), 2);
    assert!(!page.contains("<img"));
    assert!(!page.contains("<!--"));
    assert!(page.contains("<title>&lt;b&gt;hound&lt;/b&gt; report"));
    assert!(!page.contains("<b>hound"));
    // And the data still holds the texts exactly.
    let data = embedded_data(&page);
    assert_eq!(data["documents"]["path"][0], SNEAKY_NAME);
    assert_eq!(text(&data, 0), Some(SNEAKY));
    assert_eq!(data["tool"]["name"], "<b>hound</b>");
}

#[test]
fn only_the_most_similar_pairs_and_their_documents_are_embedded() {
    let report = report_of("copyhound", CLASS);
    let asked = RefCell::new(Vec::new());
    let source = |unit: usize, document: usize| {
        asked.borrow_mut().push((unit, document));
        texts(CLASS)(unit, document)
    };
    let options = HtmlOptions {
        max_pairs: 1,
        ..HtmlOptions::default()
    };
    let data = embedded_data(&page(&report, source, &options));

    assert_eq!(data["pairs"]["a"].as_array().unwrap().len(), 1);
    assert_eq!(data["listed_pairs"], report.pairs.len());
    let histogram_total: u64 = data["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(histogram_total, report.pairs.len() as u64);
    // The top pair's documents, each asked for once.
    let top = &report.pairs[0];
    let mut expected: Vec<(usize, usize)> = top
        .listed_fragments()
        .iter()
        .flat_map(|f| [(top.a.unit, f.a.document), (top.b.unit, f.b.document)])
        .collect();
    expected.sort_unstable();
    expected.dedup();
    let mut asked = asked.into_inner();
    asked.sort_unstable();
    assert_eq!(asked, expected);
}

#[test]
fn missing_and_long_texts_are_named_not_embedded() {
    let report = report_of("copyhound", CLASS);
    let unavailable = embedded_data(&page(&report, |_, _| None, &HtmlOptions::default()));
    let too_long = embedded_data(&page(
        &report,
        texts(CLASS),
        &HtmlOptions {
            max_document_bytes: 10,
            ..HtmlOptions::default()
        },
    ));
    for (data, why) in [
        (&unavailable, "the text of this file is not available"),
        (&too_long, "this file is too long to embed"),
    ] {
        let documents = data["documents"]["path"].as_array().unwrap().len();
        assert!(documents > 0);
        for doc in 0..documents {
            assert_eq!(text(data, doc), None);
            assert_eq!(data["documents"]["missing"][doc], why);
        }
    }
}
