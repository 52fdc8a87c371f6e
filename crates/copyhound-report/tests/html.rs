//! The HTML report of small fixed comparisons: the data embedded in the
//! page (snapshot), that no file's text or path can break out of it, that
//! fragments and passages of non-ASCII text slice correctly in
//! JavaScript's UTF-16 indices, and the limits on what is embedded.

mod common;

use std::cell::RefCell;

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

/// The JSON inside the page's data element.
fn embedded_data(page: &str) -> Value {
    let start = page.find(DATA_OPEN).expect("the data element") + DATA_OPEN.len();
    let end = start
        + page[start..]
            .find("</script>")
            .expect("the data element's end");
    serde_json::from_str(&page[start..end]).expect("valid JSON")
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
    let paths: Vec<&str> = data["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
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
    let documents = data["documents"].as_array().unwrap();
    let mut checked = 0;
    for (pair, page_pair) in report.pairs.iter().zip(data["pairs"].as_array().unwrap()) {
        let fragments = pair.listed_fragments().iter().map(|f| [&f.a, &f.b]);
        let passages = pair.listed_passages().iter().map(|p| [&p.a, &p.b]);
        let page_spans = page_pair["fragments"]
            .as_array()
            .unwrap()
            .iter()
            .chain(page_pair["passages"].as_array().unwrap());
        assert_eq!(
            pair.listed_fragments().len() + pair.listed_passages().len(),
            page_spans.clone().count()
        );
        for ([a, b], page_span) in fragments.chain(passages).zip(page_spans) {
            for (location, span) in [(a, &page_span["a"]), (b, &page_span["b"])] {
                let document = &documents[span["doc"].as_u64().unwrap() as usize];
                assert_eq!(document["path"], location.path.as_str());
                let text = document["text"].as_str().unwrap();
                let utf16: Vec<u16> = text.encode_utf16().collect();
                let (start, end) = (
                    span["start"].as_u64().unwrap() as usize,
                    span["end"].as_u64().unwrap() as usize,
                );
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
    let mixed_start = data["pairs"][0]["fragments"][0]["b"]["start"]
        .as_u64()
        .unwrap() as usize;
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
    let documents = data["documents"].as_array().unwrap();
    assert_eq!(documents[0]["path"], SNEAKY_NAME);
    assert_eq!(documents[0]["text"], SNEAKY);
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

    assert_eq!(data["pairs"].as_array().unwrap().len(), 1);
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
        for document in data["documents"].as_array().unwrap() {
            assert_eq!(document["text"], Value::Null);
            assert_eq!(document["missing"], why);
        }
    }
}
