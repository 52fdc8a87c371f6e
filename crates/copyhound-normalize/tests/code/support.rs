//! Helpers shared by the code front-end tests.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use copyhound_normalize::NormalizedDocument;
use copyhound_normalize::code::{CodeOptions, Language, Token, normalize_code, tokenize};

/// The folder of the code fixtures.
pub fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/code")
}

/// The text of one fixture.
pub fn fixture(name: &str) -> String {
    let path = fixture_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Asserts what every front-end promises: spans non-empty, in order and not
/// overlapping, inside the text, on character boundaries, and the same output on a
/// second run.
pub fn check_invariants(lang: Language, text: &str, options: &CodeOptions) -> NormalizedDocument {
    let doc = normalize_code(lang, text, options);
    assert_eq!(doc.symbols.len(), doc.spans.len());
    let mut previous = 0;
    for span in &doc.spans {
        let range = span.range();
        assert!(range.start < range.end, "{lang}: empty span {range:?}");
        assert!(
            range.end <= text.len(),
            "{lang}: span {range:?} outside the text"
        );
        assert!(
            text.is_char_boundary(range.start) && text.is_char_boundary(range.end),
            "{lang}: span {range:?} splits a character"
        );
        assert!(
            range.start >= previous,
            "{lang}: span {range:?} starts before {previous}"
        );
        previous = range.end;
    }
    assert_eq!(
        doc,
        normalize_code(lang, text, options),
        "{lang}: not deterministic"
    );
    doc
}

/// One line per token: byte range, kind and source text.
pub fn render(text: &str, tokens: &[Token]) -> String {
    let mut out = String::new();
    for token in tokens {
        let slice = &text[token.range.clone()];
        writeln!(
            out,
            "{:>4}..{:<4} {:<8} {slice:?}",
            token.range.start,
            token.range.end,
            token.kind.label()
        )
        .unwrap();
    }
    out
}

/// The rendered token stream of `text`.
pub fn render_tokens(lang: Language, text: &str) -> String {
    render(text, &tokenize(lang, text, false))
}
