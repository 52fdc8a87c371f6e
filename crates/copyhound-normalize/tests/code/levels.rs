//! What each level keeps and forgets, import dropping and case folding.

use copyhound_normalize::code::{
    CodeOptions, Language, Level, TokenKind, normalize_code, text_symbol, tokenize,
};

fn symbols(lang: Language, text: &str, level: Level) -> Vec<u32> {
    let options = CodeOptions {
        level,
        ..CodeOptions::default()
    };
    normalize_code(lang, text, &options).symbols
}

fn kinds(lang: Language, text: &str) -> Vec<TokenKind> {
    tokenize(lang, text, false).iter().map(|t| t.kind).collect()
}

#[test]
fn exact_keeps_names_rename_does_not() {
    let a = "int total = 41 + 1;";
    let b = "int count = 41 + 1;";
    assert_ne!(
        symbols(Language::C, a, Level::Exact),
        symbols(Language::C, b, Level::Exact)
    );
    assert_eq!(
        symbols(Language::C, a, Level::Rename),
        symbols(Language::C, b, Level::Rename)
    );
    let exact = symbols(Language::C, a, Level::Exact);
    assert_eq!(exact[1], text_symbol("total"));
    assert_eq!(exact[3], text_symbol("41"));
}

#[test]
fn java_parentheses_around_a_whole_operand_are_dropped() {
    let plain = "class A { int f(int y) { int x = y + 1; x = y; g(x, y * 2); return x; } }";
    let wrapped =
        "class A { int f(int y) { int x = (y + 1); x = ((y)); g((x), (y * 2)); return (x); } }";
    assert_eq!(
        symbols(Language::Java, plain, Level::Rename),
        symbols(Language::Java, wrapped, Level::Rename)
    );
    // Inside an expression and around a condition they say something.
    for (a, b) in [
        (
            "class A { int f() { return a * (b + c); } }",
            "class A { int f() { return a * b + c; } }",
        ),
        (
            "class A { void f() { if (a) g(); } }",
            "class A { void f() { if a g(); } }",
        ),
    ] {
        assert_ne!(
            symbols(Language::Java, a, Level::Rename),
            symbols(Language::Java, b, Level::Rename),
            "{a}"
        );
    }
    // Other languages keep them.
    assert_ne!(
        symbols(Language::C, "int f(int y) { return (y); }", Level::Rename),
        symbols(Language::C, "int f(int y) { return y; }", Level::Rename)
    );
}

#[test]
fn rename_keeps_literals_abstract_does_not() {
    let a = "x = 'left' + 2";
    let b = "x = 'right' + 3";
    assert_ne!(
        symbols(Language::Python, a, Level::Rename),
        symbols(Language::Python, b, Level::Rename)
    );
    assert_eq!(
        symbols(Language::Python, a, Level::Abstract),
        symbols(Language::Python, b, Level::Abstract)
    );
}

#[test]
fn abstract_keeps_keywords_and_operators_structure_does_not() {
    let a = "while (i < n) { i += 1; }";
    let b = "if (i > n) { i -= 1; }";
    assert_ne!(
        symbols(Language::Java, a, Level::Abstract),
        symbols(Language::Java, b, Level::Abstract)
    );
    assert_eq!(
        symbols(Language::Java, a, Level::Structure),
        symbols(Language::Java, b, Level::Structure)
    );
}

/// The reason for the rename level: two unrelated programs of the same
/// shape look the same to a purely structural comparison, not to ours.
#[test]
fn same_shape_different_program_differs_at_rename_level() {
    let sum = "function f(a) { let s = 0; for (const x of a) { s += x; } return s; }";
    let product = "function g(b) { let p = 1; for (const y of b) { p *= y; } return p; }";
    let js = Language::JavaScript;
    assert_ne!(
        symbols(js, sum, Level::Rename),
        symbols(js, product, Level::Rename)
    );
    assert_eq!(
        symbols(js, sum, Level::Structure),
        symbols(js, product, Level::Structure)
    );
}

#[test]
fn identifiers_of_every_role_are_identifiers() {
    // Type, function, parameter, field and label names alike.
    let text = "struct point { int x; }; int f(struct point p) { again: return p.x; }";
    let tokens = tokenize(Language::C, text, false);
    let names: Vec<&str> = tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Identifier)
        .map(|t| &text[t.range.clone()])
        .collect();
    assert_eq!(names, ["point", "x", "f", "point", "p", "again", "p", "x"]);
    // `int`, `struct` and `return` stay keywords.
    let keywords = tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Keyword)
        .count();
    assert_eq!(keywords, 5);
}

#[test]
#[cfg_attr(
    not(feature = "code-all"),
    ignore = "needs every tree-sitter grammar (feature code-all)"
)]
fn interpolated_strings_expose_their_code() {
    let text = "print(f\"sum={total + 1}!\")";
    assert_eq!(
        kinds(Language::Python, text),
        [
            TokenKind::Identifier,
            TokenKind::Punctuation,
            TokenKind::String,
            TokenKind::Punctuation,
            TokenKind::Identifier,
            TokenKind::Operator,
            TokenKind::Number,
            TokenKind::Punctuation,
            TokenKind::String,
            TokenKind::Punctuation,
        ]
    );
}

#[test]
#[cfg_attr(
    not(feature = "code-all"),
    ignore = "needs every tree-sitter grammar (feature code-all)"
)]
fn template_names_are_renamed_too() {
    for (lang, a, b) in [
        (
            Language::Kotlin,
            r#"println("hi $name, ${n + 1}")"#,
            r#"println("hi $who, ${k + 1}")"#,
        ),
        (
            Language::JavaScript,
            "log(`hi ${name}`)",
            "log(`hi ${who}`)",
        ),
        (
            Language::Ruby,
            r#"puts "hi #{name}""#,
            r#"puts "hi #{who}""#,
        ),
        (Language::Bash, r#"echo "hi $name""#, r#"echo "hi $who""#),
    ] {
        assert_eq!(
            symbols(lang, a, Level::Rename),
            symbols(lang, b, Level::Rename),
            "{lang}"
        );
        assert_ne!(
            symbols(lang, a, Level::Exact),
            symbols(lang, b, Level::Exact),
            "{lang}"
        );
    }
}

#[test]
fn drop_imports_removes_import_lines_only() {
    let cases = [
        (Language::C, "#include <stdio.h>\nint x;", "int x;"),
        (
            Language::Java,
            "package a.b;\nimport java.util.*;\nclass A {}",
            "class A {}",
        ),
        (
            Language::Python,
            "import os\nfrom a import (b,\n c)\nx = 1",
            "x = 1",
        ),
        (
            Language::JavaScript,
            "const fs = require('fs');\nimport x from 'y';\nlet a = 1;",
            "let a = 1;",
        ),
        (
            Language::Go,
            "package main\nimport \"fmt\"\nvar x = 1",
            "var x = 1",
        ),
        (Language::Rust, "use std::io;\nfn main() {}", "fn main() {}"),
        (Language::CSharp, "using System;\nclass A {}", "class A {}"),
        (
            Language::Kotlin,
            "package a\nimport b.c\nval x = 1",
            "val x = 1",
        ),
        (
            Language::Scala,
            "package a\nimport b.c._\nobject A",
            "object A",
        ),
        (
            Language::Php,
            "<?php\nuse A\\B;\nrequire_once 'x.php';\n$a = 1;",
            "<?php\n$a = 1;",
        ),
        (
            Language::Ruby,
            "require 'set'\nrequire_relative 'x'\na = 1",
            "a = 1",
        ),
        (
            Language::Haskell,
            "import Data.List\nimport qualified M as N\nx = 1",
            "x = 1",
        ),
        (
            Language::TypeScript,
            "import { a } from 'b';\nlet c = 1;",
            "let c = 1;",
        ),
        (
            Language::Cpp,
            "#include <vector>\nusing std::vector;\nint x;",
            "int x;",
        ),
        (Language::Pascal, "uses SysUtils;\nbegin end.", "begin end."),
        (
            Language::Lua,
            "local json = require \"json\"\nx = 1",
            "x = 1",
        ),
        (Language::R, "library(stats)\nx <- 1", "x <- 1"),
        (
            Language::Ada,
            "with Ada.Text_IO; use Ada.Text_IO;\nprocedure P is begin null; end P;",
            "procedure P is begin null; end P;",
        ),
    ];
    for (lang, with_imports, without) in cases {
        let options = CodeOptions {
            level: Level::Rename,
            drop_imports: true,
            ..CodeOptions::default()
        };
        let dropped = normalize_code(lang, with_imports, &options).symbols;
        let expected = normalize_code(lang, without, &CodeOptions::default()).symbols;
        assert_eq!(dropped, expected, "{lang}: {with_imports:?}");
        let kept = normalize_code(lang, with_imports, &CodeOptions::default()).symbols;
        assert!(kept.len() > dropped.len(), "{lang}: nothing was dropped");
    }
}

#[test]
fn case_insensitive_languages_fold_case() {
    for (lang, a, b) in [
        (
            Language::Pascal,
            "BEGIN WriteLn(X) END.",
            "begin writeln(x) end.",
        ),
        (
            Language::Fortran,
            "PROGRAM P\nPRINT *, X\nEND",
            "program p\nprint *, x\nend",
        ),
        (Language::Sql, "SELECT Name FROM T", "select name from t"),
        (
            Language::VisualBasic,
            "DIM X AS INTEGER",
            "Dim x As Integer",
        ),
        (
            Language::Php,
            "<?php IF ($x) { ECHO 1; }",
            "<?php if ($x) { echo 1; }",
        ),
    ] {
        assert_eq!(
            symbols(lang, a, Level::Exact),
            symbols(lang, b, Level::Exact),
            "{lang}"
        );
    }
    // ... but not their strings.
    assert_ne!(
        symbols(Language::Pascal, "x := 'A'", Level::Exact),
        symbols(Language::Pascal, "x := 'a'", Level::Exact)
    );
    // Case-sensitive languages do not fold.
    assert_ne!(
        symbols(Language::C, "int X;", Level::Exact),
        symbols(Language::C, "int x;", Level::Exact)
    );
}

#[test]
fn keywords_stay_distinct_in_table_languages() {
    let lua = kinds(Language::Lua, "local x = nil -- note\nif x then return end");
    assert_eq!(
        lua,
        [
            TokenKind::Keyword,
            TokenKind::Identifier,
            TokenKind::Operator,
            TokenKind::Keyword,
            TokenKind::Keyword,
            TokenKind::Identifier,
            TokenKind::Keyword,
            TokenKind::Keyword,
            TokenKind::Keyword,
        ]
    );
}

#[test]
fn strings_follow_their_escape_rules() {
    // Doubled quotes (Pascal) and backslashes (C) stay inside the literal.
    let pascal = tokenize(Language::Pascal, "s := 'it''s'; t", false);
    assert_eq!(pascal[2].range, 5..12);
    let c = tokenize(Language::Lua, r#"s = "a\"b" .. t"#, false);
    assert_eq!(c[2].range, 4..10);
    // Matlab: a quote after a value is the transpose operator.
    let matlab = kinds(Language::Matlab, "y = x' + 'str';");
    assert_eq!(matlab[3], TokenKind::Operator);
    assert_eq!(matlab[5], TokenKind::String);
}

#[test]
fn nested_block_comments_are_skipped_whole() {
    let text = "(* outer (* inner *) still comment *) x";
    let tokens = tokenize(Language::Modula2, text, false);
    assert_eq!(tokens.len(), 1);
    assert_eq!(&text[tokens[0].range.clone()], "x");
}

#[test]
fn operators_match_longest_first() {
    let text = "a >>>= b";
    let tokens = tokenize(Language::Java, text, false);
    assert_eq!(&text[tokens[1].range.clone()], ">>>=");
    let lua = "a = b .. c ... d";
    let ops: Vec<&str> = tokenize(Language::Lua, lua, false)
        .iter()
        .filter(|t| t.kind == TokenKind::Operator)
        .map(|t| &lua[t.range.clone()])
        .collect();
    assert_eq!(ops, ["=", "..", "..."]);
}
