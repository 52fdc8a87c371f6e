//! Language detection: extensions, shared extensions, shebangs, first
//! lines and the names users type.

use std::path::Path;

use copyhound_normalize::code::Language;

fn detect(path: &str, text: &str) -> Option<Language> {
    Language::detect(Path::new(path), text)
}

#[test]
fn by_extension() {
    let cases = [
        ("a.c", Language::C),
        ("a.cc", Language::Cpp),
        ("a.hpp", Language::Cpp),
        ("A.java", Language::Java),
        ("a.PY", Language::Python),
        ("a.mjs", Language::JavaScript),
        ("a.tsx", Language::Tsx),
        ("a.kts", Language::Kotlin),
        ("a.rs", Language::Rust),
        ("a.f90", Language::Fortran),
        ("a.adb", Language::Ada),
        ("a.vhd", Language::Vhdl),
        ("a.ex", Language::Elixir),
        ("a.bas", Language::VisualBasic),
        ("dir.with.dots/a.lua", Language::Lua),
    ];
    for (path, lang) in cases {
        assert_eq!(detect(path, ""), Some(lang), "{path}");
    }
}

#[test]
fn shared_extensions_look_at_the_text() {
    assert_eq!(detect("a.h", "int f(void);"), Some(Language::C));
    assert_eq!(
        detect("a.h", "namespace x { class A; }"),
        Some(Language::Cpp)
    );
    assert_eq!(
        detect("a.pl", "my $x = 1;\nprint $x;"),
        Some(Language::Perl)
    );
    assert_eq!(detect("a.pl", "p(X) :- q(X)."), Some(Language::Prolog));
    assert_eq!(detect("a.s", "li $t0, 1\nsyscall"), Some(Language::Mips));
    assert_eq!(detect("a.s", "movl %eax, %ebx"), Some(Language::X86));
}

#[test]
fn by_first_line() {
    let cases = [
        ("#!/usr/bin/env python3\nprint(1)", Some(Language::Python)),
        ("#!/usr/bin/python3.12 -u\n", Some(Language::Python)),
        ("#!/bin/sh\necho hi", Some(Language::Bash)),
        (
            "#!/usr/bin/env -S node --harmony\n",
            Some(Language::JavaScript),
        ),
        ("#!/usr/bin/perl -w\n", Some(Language::Perl)),
        ("#!/usr/bin/env ruby\n", Some(Language::Ruby)),
        ("#!/usr/bin/tclsh\n", Some(Language::Tcl)),
        ("#!/usr/bin/env Rscript\n", Some(Language::R)),
        ("<?php echo 1;", Some(Language::Php)),
        ("// -*- mode: c++ -*-\nint x;", Some(Language::Cpp)),
        ("; -*- Lisp -*-\n(car x)", Some(Language::Lisp)),
        ("#!/usr/bin/env unknown-thing\n", None),
        ("plain text", None),
        ("", None),
    ];
    for (text, lang) in cases {
        assert_eq!(detect("noextension", text), lang, "{text:?}");
    }
}

#[test]
fn extension_wins_over_first_line() {
    assert_eq!(
        detect("a.rb", "#!/usr/bin/env python\n"),
        Some(Language::Ruby)
    );
}

#[test]
fn unknown_extension_falls_back_to_the_first_line() {
    assert_eq!(
        detect("script.cgi", "#!/usr/bin/perl\n"),
        Some(Language::Perl)
    );
    assert_eq!(detect("notes.txt", "hello"), None);
    assert_eq!(detect("go.mod", "module example.com/x"), None);
}

#[test]
fn names_and_aliases() {
    let cases = [
        ("py", Language::Python),
        ("Python", Language::Python),
        ("js", Language::JavaScript),
        ("c++", Language::Cpp),
        ("C#", Language::CSharp),
        ("cs", Language::CSharp),
        ("golang", Language::Go),
        ("sh", Language::Bash),
        ("ml", Language::OCaml),
        ("sml", Language::OCaml),
        ("octave", Language::Matlab),
        ("plsql", Language::Sql),
        ("modula-2", Language::Modula2),
        ("vb.net", Language::VisualBasic),
        (".rs", Language::Rust),
        (" java ", Language::Java),
    ];
    for (name, lang) in cases {
        assert_eq!(Language::from_name(name), Some(lang), "{name}");
    }
    for name in ["", "cobol", "txt", "c+"] {
        assert_eq!(Language::from_name(name), None, "{name}");
    }
}

#[test]
fn every_name_round_trips_and_is_unique() {
    let mut names = std::collections::HashSet::new();
    for &lang in Language::all() {
        assert_eq!(Language::from_name(lang.name()), Some(lang));
        assert!(names.insert(lang.name()), "{} twice", lang.name());
    }
    assert!(Language::all().len() >= 40);
}
