//! One small program per language: invariants first, then a snapshot of
//! its token stream.

use copyhound_normalize::code::{
    CodeOptions, Language, Level, tokenize, tokenize_with_table, uses_grammar,
};

use super::support::{check_invariants, fixture, fixture_dir, render_tokens};

/// Every fixture and the language its name must be detected as.
const FIXTURES: &[(&str, Language)] = &[
    ("sample.c", Language::C),
    ("sample.cpp", Language::Cpp),
    ("sample.cs", Language::CSharp),
    ("Sample.java", Language::Java),
    ("sample.kt", Language::Kotlin),
    ("sample.scala", Language::Scala),
    ("sample.py", Language::Python),
    ("sample.js", Language::JavaScript),
    ("sample.ts", Language::TypeScript),
    ("sample.tsx", Language::Tsx),
    ("sample.go", Language::Go),
    ("sample.rs", Language::Rust),
    ("sample.php", Language::Php),
    ("sample.rb", Language::Ruby),
    ("sample.hs", Language::Haskell),
    ("sample.sh", Language::Bash),
    ("sample.lisp", Language::Lisp),
    ("sample.scm", Language::Scheme),
    ("sample.ml", Language::OCaml),
    ("sample.pas", Language::Pascal),
    ("sample.f90", Language::Fortran),
    ("sample.adb", Language::Ada),
    ("sample.pl", Language::Perl),
    ("sample.m", Language::Matlab),
    ("sample.pro", Language::Prolog),
    ("sample.v", Language::Verilog),
    ("sample.vhd", Language::Vhdl),
    ("sample.sql", Language::Sql),
    ("sample.r", Language::R),
    ("sample.lua", Language::Lua),
    ("sample.swift", Language::Swift),
    ("sample.ex", Language::Elixir),
    ("sample.elm", Language::Elm),
    ("sample.groovy", Language::Groovy),
    ("sample.mo", Language::Modelica),
    ("sample.mips.s", Language::Mips),
    ("sample.asm", Language::X86),
    ("sample.vb", Language::VisualBasic),
    ("sample.cir", Language::Spice),
    ("sample.mod", Language::Modula2),
    ("sample.tcl", Language::Tcl),
];

#[test]
fn every_language_has_a_fixture_and_every_fixture_is_listed() {
    for lang in Language::all() {
        assert!(
            FIXTURES.iter().any(|(_, l)| l == lang),
            "no fixture for {lang}"
        );
    }
    let on_disk = std::fs::read_dir(fixture_dir())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_file())
        .count();
    assert_eq!(on_disk, FIXTURES.len());
}

#[test]
fn fixtures_are_detected_by_name() {
    for &(name, lang) in FIXTURES {
        let text = fixture(name);
        assert_eq!(
            Language::detect(std::path::Path::new(name), &text),
            Some(lang),
            "{name}"
        );
    }
}

#[test]
#[cfg_attr(
    not(feature = "code-all"),
    ignore = "needs every tree-sitter grammar (feature code-all)"
)]
fn fixture_token_streams() {
    for &(name, lang) in FIXTURES {
        let text = fixture(name);
        for level in [
            Level::Exact,
            Level::Rename,
            Level::Abstract,
            Level::Structure,
        ] {
            for drop_imports in [false, true] {
                let options = CodeOptions {
                    level,
                    drop_imports,
                    ..CodeOptions::default()
                };
                let doc = check_invariants(lang, &text, &options);
                assert!(!doc.is_empty(), "{name}: no symbols");
            }
        }
        insta::with_settings!({
            snapshot_path => "../snapshots",
            prepend_module_to_snapshot => false,
            description => format!("{name} read as {lang}"),
            omit_expression => true,
        }, {
            insta::assert_snapshot!(format!("code_{}", name.replace('.', "_")), render_tokens(lang, &text));
        });
    }
}

/// The table lexer is the fallback of every tree-sitter language: on the
/// fixtures it must agree with the grammar on most tokens (same bytes, same
/// kind). Interpolated strings are where they differ most: the table lexer
/// keeps them whole.
#[test]
fn table_lexer_agrees_with_the_grammars() {
    for &(name, lang) in FIXTURES.iter().filter(|(_, lang)| uses_grammar(*lang)) {
        let text = fixture(name);
        let table = tokenize_with_table(lang, &text, false);
        let tree = tokenize(lang, &text, false);
        let agreed = tree.iter().filter(|token| table.contains(token)).count();
        let share = agreed as f64 / tree.len().max(table.len()) as f64;
        // Shell code is mostly interpolated strings.
        let minimum = if lang == Language::Bash { 0.5 } else { 0.75 };
        assert!(
            share >= minimum,
            "{name}: only {:.0}% of tokens agree",
            share * 100.0
        );
    }
}
