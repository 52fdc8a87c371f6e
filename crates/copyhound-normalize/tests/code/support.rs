//! Helpers shared by the code front-end tests.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use copyhound_normalize::NormalizedDocument;
use copyhound_normalize::code::{
    CodeOptions, Language, Token, normalize_code, tokenize, tokenize_with_grammar,
    tokenize_with_own_lexer,
};

use super::datasets::{datasets_dir, files_under};

/// The proptest configuration of a random-program test: `default` cases,
/// or as many as `PROPTEST_CASES` asks for, so that a longer campaign
/// needs no edit (`PROPTEST_CASES=20000 PROPTEST_RNG_SEED=7 cargo test
/// … random_go`; `ProptestConfig::with_cases` alone would not read it).
pub fn random_programs(default: u32) -> proptest::prelude::ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(default);
    proptest::prelude::ProptestConfig::with_cases(cases)
}

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

/// The tokens `lang`'s grammar gives for `text`: the reference that a
/// language read without its grammar (Java, C) is held to.
pub fn grammar_tokens(lang: Language, text: &str, drop_imports: bool) -> Vec<Token> {
    tokenize_with_grammar(lang, text, drop_imports)
        .unwrap_or_else(|| panic!("the tests build the {lang} grammar"))
}

/// The first place where two token streams of `text` part, shown with
/// their text; `None` if they are the same.
pub fn first_difference(text: &str, lexer: &[Token], grammar: &[Token]) -> Option<String> {
    let at = lexer
        .iter()
        .zip(grammar)
        .position(|(a, b)| a != b)
        .or_else(|| (lexer.len() != grammar.len()).then(|| lexer.len().min(grammar.len())))?;
    let show = |tokens: &[Token]| {
        tokens
            .iter()
            .skip(at.saturating_sub(3))
            .take(8)
            .map(|t| format!("{}:{:?}@{}", &text[t.range.clone()], t.kind, t.range.start))
            .collect::<Vec<_>>()
            .join(" ")
    };
    Some(format!(
        "token {at}\n  lexer:   {}\n  grammar: {}",
        show(lexer),
        show(grammar)
    ))
}

/// Asserts that `lang`'s own lexer reads `text` itself (leaves it not to
/// the grammar) and as the grammar does.
pub fn assert_same_as_grammar(lang: Language, text: &str, drop_imports: bool) {
    let lexer = tokenize_with_own_lexer(lang, text, drop_imports)
        .unwrap_or_else(|| panic!("{text}\nthe {lang} lexer left this to the grammar"));
    let grammar = grammar_tokens(lang, text, drop_imports);
    if let Some(difference) = first_difference(text, &lexer, &grammar) {
        panic!("{text}\n{difference}");
    }
}

/// Asserts that `lang`'s own lexer leaves `text` to the grammar, and that
/// [`tokenize`] then gives the grammar's tokens.
pub fn assert_left_to_grammar(lang: Language, text: &str) {
    assert!(
        tokenize_with_own_lexer(lang, text, false).is_none(),
        "{text}\nthe {lang} lexer read this itself"
    );
    assert_eq!(
        tokenize(lang, text, false),
        grammar_tokens(lang, text, false)
    );
}

/// The files with extension `ext` in the data sets' `files/` folders;
/// `None` where the data sets are absent.
pub fn dataset_files(ext: &str) -> Option<Vec<PathBuf>> {
    let root = datasets_dir()?;
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&root).ok()?.filter_map(Result::ok) {
        files_under(&entry.path().join("files"), &mut files);
    }
    files.retain(|path| path.extension().is_some_and(|e| e == ext));
    files.sort();
    Some(files)
}

/// Asserts that every data-set file with extension `ext` reads in `lang`
/// as the grammar reads it, with and without `drop_imports`.
pub fn assert_dataset_files_same_as_grammar(lang: Language, ext: &str) {
    let Some(files) = dataset_files(ext) else {
        eprintln!("skipped: no shared/datasets folder (set COPYHOUND_DATASETS)");
        return;
    };
    let mut differing = Vec::new();
    for path in &files {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        for drop_imports in [true, false] {
            let lexer = tokenize(lang, &text, drop_imports);
            let grammar = grammar_tokens(lang, &text, drop_imports);
            if let Some(difference) = first_difference(&text, &lexer, &grammar) {
                differing.push(format!(
                    "{} (drop_imports {drop_imports}): {difference}",
                    path.display()
                ));
                break;
            }
        }
    }
    eprintln!("{} of {} {lang} files differ", differing.len(), files.len());
    for line in differing.iter().take(40) {
        eprintln!("{line}");
    }
    assert!(differing.is_empty());
}
