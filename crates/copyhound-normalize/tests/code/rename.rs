//! Renaming identifiers, reformatting and rewriting comments must leave the
//! `rename` stream unchanged: hand-written disguised copies, and a property
//! test that renames every identifier of the fixtures consistently.

use std::collections::HashMap;

use copyhound_normalize::code::{
    CodeOptions, Language, Level, TokenKind, normalize_code, tokenize,
};
use proptest::prelude::*;

use super::support::fixture;

fn rename_symbols(lang: Language, text: &str) -> Vec<u32> {
    normalize_code(lang, text, &CodeOptions::default()).symbols
}

#[test]
#[cfg_attr(
    not(feature = "code-all"),
    ignore = "needs every tree-sitter grammar (feature code-all)"
)]
fn disguised_copies_have_the_same_rename_stream() {
    for (lang, original, disguised) in [
        (Language::C, "rename/original.c", "rename/disguised.c"),
        (
            Language::Java,
            "rename/Original.java",
            "rename/Disguised.java",
        ),
        (
            Language::Python,
            "rename/original.py",
            "rename/disguised.py",
        ),
        (
            Language::JavaScript,
            "rename/original.js",
            "rename/disguised.js",
        ),
    ] {
        let original = fixture(original);
        let disguised = fixture(disguised);
        assert_eq!(
            rename_symbols(lang, &original),
            rename_symbols(lang, &disguised),
            "{lang}"
        );
        // The exact level sees the renaming.
        let exact = CodeOptions {
            level: Level::Exact,
            ..CodeOptions::default()
        };
        assert_ne!(
            normalize_code(lang, &original, &exact).symbols,
            normalize_code(lang, &disguised, &exact).symbols,
            "{lang}"
        );
    }
}

/// `text` with every identifier replaced through `names` (by first-seen
/// order of distinct identifiers).
fn rename_all(lang: Language, text: &str, names: &[String]) -> String {
    let mut assigned: HashMap<&str, &str> = HashMap::new();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for token in tokenize(lang, text, false) {
        if token.kind != TokenKind::Identifier {
            continue;
        }
        let old = &text[token.range.clone()];
        let next = assigned.len() % names.len();
        let new = *assigned.entry(old).or_insert(names[next].as_str());
        out.push_str(&text[copied..token.range.start]);
        // Keep sigils ($x, @x) that are part of an identifier token.
        let sigil_len = old.len() - old.trim_start_matches(['$', '@']).len();
        out.push_str(&old[..sigil_len]);
        out.push_str(new);
        copied = token.range.end;
    }
    out.push_str(&text[copied..]);
    out
}

fn fresh_names() -> impl Strategy<Value = Vec<String>> {
    // The index makes names distinct; the underscore keeps them clear of
    // every keyword.
    prop::collection::vec("[a-zA-Z][a-zA-Z0-9]{0,7}", 64).prop_map(|names| {
        names
            .into_iter()
            .enumerate()
            .map(|(i, name)| format!("{name}_{i}"))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn consistent_renaming_keeps_the_rename_stream(names in fresh_names()) {
        for (lang, name) in [
            (Language::C, "rename/original.c"),
            (Language::Java, "rename/Original.java"),
            (Language::Python, "rename/original.py"),
            (Language::JavaScript, "rename/original.js"),
            (Language::Go, "sample.go"),
            (Language::Rust, "sample.rs"),
            (Language::Pascal, "sample.pas"),
            (Language::Lua, "sample.lua"),
        ] {
            let text = fixture(name);
            let distinct = tokenize(lang, &text, false)
                .iter()
                .filter(|t| t.kind == TokenKind::Identifier)
                .map(|t| &text[t.range.clone()])
                .collect::<std::collections::HashSet<_>>()
                .len();
            prop_assume!(distinct <= names.len());
            let renamed = rename_all(lang, &text, &names);
            prop_assert_eq!(rename_symbols(lang, &text), rename_symbols(lang, &renamed), "{}", lang);
        }
    }
}
