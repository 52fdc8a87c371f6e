//! Helpers shared by the text tests.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use copyhound_normalize::{LoadOptions, LoadedDocument, NormalizedDocument, load_file};

/// The folder of the text fixtures.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/text")
        .join(name)
}

/// Writes `bytes` to `name` in a fresh temporary folder and loads it with
/// the default options.
pub fn load_written(
    name: &str,
    bytes: &[u8],
) -> (
    tempfile::TempDir,
    Result<LoadedDocument, copyhound_normalize::LoadError>,
) {
    let dir = tempfile::tempdir().expect("temporary folder");
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).expect("write test file");
    let loaded = load_file(&path, &LoadOptions::default());
    (dir, loaded)
}

/// The symbols of a character-level document as a string.
pub fn symbol_string(doc: &NormalizedDocument) -> String {
    doc.symbols
        .iter()
        .map(|&symbol| char::from_u32(symbol).expect("a character symbol"))
        .collect()
}

/// Checks the span invariants every front-end promises: non-empty, inside
/// the text, on character boundaries, and never decreasing.
pub fn assert_spans_valid(text: &str, doc: &NormalizedDocument) {
    assert_eq!(doc.symbols.len(), doc.spans.len());
    let mut previous_start = 0;
    for span in &doc.spans {
        let range = span.range();
        assert!(range.start < range.end, "empty span {range:?}");
        assert!(range.end <= text.len(), "span {range:?} past the text");
        assert!(
            text.is_char_boundary(range.start) && text.is_char_boundary(range.end),
            "span {range:?} splits a character"
        );
        assert!(range.start >= previous_start, "spans decrease at {range:?}");
        previous_start = range.start;
    }
}

/// One line per symbol: its span, the source text and the symbol.
pub fn render_char_symbols(text: &str, doc: &NormalizedDocument) -> String {
    let mut rendered = String::new();
    for (&symbol, span) in doc.symbols.iter().zip(&doc.spans) {
        let symbol = char::from_u32(symbol).expect("a character symbol");
        let source = &text[span.range()];
        writeln!(
            rendered,
            "{:>4}..{:<4} {source:?} -> {symbol}",
            span.start, span.end
        )
        .unwrap();
    }
    rendered
}
