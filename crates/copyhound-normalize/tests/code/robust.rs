//! Input the front-end must survive: empty text, syntax errors, stray
//! bytes, deep nesting and megabytes.

use copyhound_normalize::code::{CodeOptions, Language, Level, TokenKind, tokenize};
use proptest::prelude::*;

use super::support::check_invariants;

#[test]
fn empty_and_blank_input_give_empty_documents() {
    for &lang in Language::all() {
        for text in ["", "   \n\t\n", "\u{feff}"] {
            let doc = check_invariants(lang, text, &CodeOptions::default());
            assert!(
                doc.is_empty() || text == "\u{feff}",
                "{lang}: {text:?} gave {doc:?}"
            );
        }
    }
}

#[test]
fn syntax_errors_are_still_tokenised() {
    let cases = [
        (Language::C, "int main( { return 0 @@ x = ;; }}}"),
        (Language::Java, "class { void f( { int x = ; } garbage here"),
        (Language::Python, "def f(:\n  return ((1 +\nprint('x'"),
        (
            Language::JavaScript,
            "function (a, { let = ; `unterminated ${x",
        ),
        (Language::Rust, "fn main() { let x = 'a; }}}"),
        (Language::Go, "func main( { fmt.Println(\"x\" }"),
        (Language::Pascal, "begin x := 'unterminated\nend"),
        (
            Language::Ada,
            "procedure P is begin (* not a comment *) end",
        ),
        (Language::Lisp, "(defun f (x) (+ x 1"),
    ];
    for (lang, text) in cases {
        let doc = check_invariants(lang, text, &CodeOptions::default());
        // Every word and symbol of broken code still counts.
        let words = text
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|w| !w.is_empty())
            .count();
        assert!(
            doc.len() >= words / 2,
            "{lang}: {} symbols for {text:?}",
            doc.len()
        );
    }
}

#[test]
fn error_regions_keep_their_identifiers_and_keywords() {
    let text = "int f() { return x +* ; } @@@ while (y) { z(); }";
    let tokens = tokenize(Language::C, text, false);
    let words: Vec<&str> = tokens
        .iter()
        .filter(|t| matches!(t.kind, TokenKind::Identifier | TokenKind::Keyword))
        .map(|t| &text[t.range.clone()])
        .collect();
    for word in ["int", "f", "return", "x", "while", "y", "z"] {
        assert!(words.contains(&word), "{word} missing from {words:?}");
    }
}

#[test]
fn arbitrary_bytes_never_break_invariants() {
    let text = "\u{0}\u{7f}é中文 ';\"/* \\ `${ #| (* {- --[[ \r\n\u{2028}𝔘 0x 1e+ .5.";
    for &lang in Language::all() {
        check_invariants(lang, text, &CodeOptions::default());
    }
}

#[test]
fn deep_nesting_does_not_overflow_the_stack() {
    let depth = 20_000;
    let text = format!("x = {}1{};", "(".repeat(depth), ")".repeat(depth));
    for lang in [Language::C, Language::JavaScript, Language::Lua] {
        let doc = check_invariants(lang, &text, &CodeOptions::default());
        assert!(doc.len() >= 2 * depth, "{lang}");
    }
}

/// A few megabytes: works, and the output grows with the input (at most
/// one symbol per byte, capacity included).
#[test]
fn megabytes_of_code() {
    let unit = "int f{n}(int a, int b) {\n  /* add */\n  return a * {n} + b - \"s\"[0];\n}\n";
    let mut text = String::new();
    let mut n = 0;
    while text.len() < 3_000_000 {
        text.push_str(&unit.replace("{n}", &n.to_string()));
        n += 1;
    }
    for lang in [Language::C, Language::Groovy] {
        let doc = check_invariants(lang, &text, &CodeOptions::default());
        assert!(doc.len() > n * 20, "{lang}: {} symbols", doc.len());
        assert!(doc.symbols.capacity() <= text.len());
        assert!(doc.spans.capacity() <= text.len());
    }
}

/// Code-like noise: every comment, quote and bracket opener of every
/// language, mixed with words, numbers and non-ASCII text.
fn code_noise() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "x", "if", "BEGIN", "end", "42", "0x1F", "1e-3", ".5", "'", "\"", "`", "\\", "(*", "*)",
        "{-", "-}", "/*", "*/", "//", "#", "--", "--[[", "]]", "%", ";", "${", "}", "{", "(", ")",
        "[", "]", "#|", "|#", "=begin", "\n", " ", "\t", "é", "中", "$x", "@y", ":=", "<=>",
        "\"\"\"", "r#\"", "<?php", "?>", "'a'", "16#FF#", "4'b1", "=cut", "*",
    ]);
    prop::collection::vec(pieces, 0..60).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn noise_never_breaks_invariants(text in code_noise(), level_index in 0usize..4) {
        let level = [Level::Exact, Level::Rename, Level::Abstract, Level::Structure][level_index];
        for &lang in Language::all() {
            for drop_imports in [false, true] {
                check_invariants(lang, &text, &CodeOptions { level, drop_imports, ..CodeOptions::default() });
            }
        }
    }
}
