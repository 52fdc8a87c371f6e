//! The programming languages the code front-end knows, their names and
//! aliases, and how a language is recognised from a path and its text.

use std::path::Path;

/// A programming language with a code front-end.
///
/// Every variant exists whatever Cargo features are on: a language whose
/// tree-sitter grammar is compiled out is read by the table-driven lexer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)] // The variant names are the language names.
pub enum Language {
    C,
    Cpp,
    CSharp,
    Java,
    Kotlin,
    Scala,
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Go,
    Rust,
    Php,
    Ruby,
    Haskell,
    Bash,
    Lisp,
    Scheme,
    OCaml,
    Pascal,
    Fortran,
    Ada,
    Perl,
    Matlab,
    Prolog,
    Verilog,
    Vhdl,
    Sql,
    R,
    Lua,
    Swift,
    Elixir,
    Elm,
    Groovy,
    Modelica,
    Mips,
    X86,
    VisualBasic,
    Spice,
    Modula2,
    Tcl,
}

/// Every language, in declaration order.
const ALL: &[Language] = &[
    Language::C,
    Language::Cpp,
    Language::CSharp,
    Language::Java,
    Language::Kotlin,
    Language::Scala,
    Language::Python,
    Language::JavaScript,
    Language::TypeScript,
    Language::Tsx,
    Language::Go,
    Language::Rust,
    Language::Php,
    Language::Ruby,
    Language::Haskell,
    Language::Bash,
    Language::Lisp,
    Language::Scheme,
    Language::OCaml,
    Language::Pascal,
    Language::Fortran,
    Language::Ada,
    Language::Perl,
    Language::Matlab,
    Language::Prolog,
    Language::Verilog,
    Language::Vhdl,
    Language::Sql,
    Language::R,
    Language::Lua,
    Language::Swift,
    Language::Elixir,
    Language::Elm,
    Language::Groovy,
    Language::Modelica,
    Language::Mips,
    Language::X86,
    Language::VisualBasic,
    Language::Spice,
    Language::Modula2,
    Language::Tcl,
];

/// Lower-case aliases and file extensions for each language. The first
/// entry of each row is not repeated: it is [`Language::name`].
const ALIASES: &[(Language, &[&str])] = &[
    (Language::C, &["h"]),
    (
        Language::Cpp,
        &["c++", "cc", "cxx", "hpp", "hh", "hxx", "h++", "ino"],
    ),
    (Language::CSharp, &["c#", "cs"]),
    (Language::Java, &[]),
    (Language::Kotlin, &["kt", "kts"]),
    (Language::Scala, &["sc"]),
    (
        Language::Python,
        &["py", "python3", "python2", "pyw", "pyi"],
    ),
    (
        Language::JavaScript,
        &["js", "mjs", "cjs", "jsx", "node", "ecmascript"],
    ),
    (Language::TypeScript, &["ts", "mts", "cts"]),
    (Language::Tsx, &[]),
    (Language::Go, &["golang"]),
    (Language::Rust, &["rs"]),
    (Language::Php, &["php3", "php4", "php5", "php7", "phtml"]),
    (Language::Ruby, &["rb", "rake", "gemspec"]),
    (Language::Haskell, &["hs"]),
    (Language::Bash, &["sh", "shell", "zsh", "ksh", "dash"]),
    (
        Language::Lisp,
        &[
            "cl",
            "common-lisp",
            "commonlisp",
            "lsp",
            "el",
            "elisp",
            "emacs-lisp",
            "clj",
            "clojure",
        ],
    ),
    (Language::Scheme, &["scm", "ss", "rkt", "racket", "guile"]),
    (Language::OCaml, &["ml", "mli", "sml", "standard-ml"]),
    (
        Language::Pascal,
        &["pas", "pp", "delphi", "dpr", "objectpascal"],
    ),
    (
        Language::Fortran,
        &["f", "f77", "f90", "f95", "f03", "f08", "for", "ftn"],
    ),
    (Language::Ada, &["adb", "ads"]),
    (Language::Perl, &["pl", "pm", "perl5"]),
    (Language::Matlab, &["m", "octave"]),
    (Language::Prolog, &["pro", "swipl"]),
    (
        Language::Verilog,
        &["v", "sv", "vh", "svh", "systemverilog"],
    ),
    (Language::Vhdl, &["vhd"]),
    (
        Language::Sql,
        &[
            "plsql", "pl/sql", "pls", "pks", "pkb", "psql", "mysql", "tsql",
        ],
    ),
    (Language::R, &["rscript"]),
    (Language::Lua, &[]),
    (Language::Swift, &[]),
    (Language::Elixir, &["ex", "exs"]),
    (Language::Elm, &[]),
    (Language::Groovy, &["gvy", "gradle"]),
    (Language::Modelica, &["mo"]),
    (Language::Mips, &["mips32", "spim", "mars"]),
    (
        Language::X86,
        &[
            "asm", "nasm", "masm", "x86-64", "x86_64", "amd64", "assembly",
        ],
    ),
    (
        Language::VisualBasic,
        &[
            "visualbasic",
            "visual-basic",
            "vbnet",
            "vb.net",
            "bas",
            "vbs",
            "vba",
            "frm",
        ],
    ),
    (Language::Spice, &["cir", "sp", "spi", "ckt", "ngspice"]),
    (Language::Modula2, &["modula-2", "mod", "m2", "def"]),
    (Language::Tcl, &["tk", "itcl", "tclsh", "wish"]),
];

/// Interpreter names found after `#!` that are not language names.
const INTERPRETERS: &[(&str, Language)] = &[
    ("bash", Language::Bash),
    ("sh", Language::Bash),
    ("zsh", Language::Bash),
    ("ksh", Language::Bash),
    ("dash", Language::Bash),
    ("node", Language::JavaScript),
    ("nodejs", Language::JavaScript),
    ("deno", Language::TypeScript),
    ("ts-node", Language::TypeScript),
    ("runhaskell", Language::Haskell),
    ("runghc", Language::Haskell),
    ("sbcl", Language::Lisp),
    ("clisp", Language::Lisp),
    ("guile", Language::Scheme),
    ("racket", Language::Scheme),
    ("csi", Language::Scheme),
    ("octave", Language::Matlab),
    ("rscript", Language::R),
    ("tclsh", Language::Tcl),
    ("wish", Language::Tcl),
    ("swipl", Language::Prolog),
    ("elixir", Language::Elixir),
    ("kscript", Language::Kotlin),
];

impl Language {
    /// The canonical lower-case name: `"c"`, `"cpp"`, `"java"`, `"python"`, …
    pub fn name(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::CSharp => "csharp",
            Language::Java => "java",
            Language::Kotlin => "kotlin",
            Language::Scala => "scala",
            Language::Python => "python",
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::Go => "go",
            Language::Rust => "rust",
            Language::Php => "php",
            Language::Ruby => "ruby",
            Language::Haskell => "haskell",
            Language::Bash => "bash",
            Language::Lisp => "lisp",
            Language::Scheme => "scheme",
            Language::OCaml => "ocaml",
            Language::Pascal => "pascal",
            Language::Fortran => "fortran",
            Language::Ada => "ada",
            Language::Perl => "perl",
            Language::Matlab => "matlab",
            Language::Prolog => "prolog",
            Language::Verilog => "verilog",
            Language::Vhdl => "vhdl",
            Language::Sql => "sql",
            Language::R => "r",
            Language::Lua => "lua",
            Language::Swift => "swift",
            Language::Elixir => "elixir",
            Language::Elm => "elm",
            Language::Groovy => "groovy",
            Language::Modelica => "modelica",
            Language::Mips => "mips",
            Language::X86 => "x86",
            Language::VisualBasic => "vb",
            Language::Spice => "spice",
            Language::Modula2 => "modula2",
            Language::Tcl => "tcl",
        }
    }

    /// The language called `name`: a canonical name, a common alias or a
    /// file extension (without the dot), in any case. `"py"`, `"js"`,
    /// `"c++"` and `"C#"` all work.
    pub fn from_name(name: &str) -> Option<Language> {
        let name = name.trim().trim_start_matches('.').to_ascii_lowercase();
        if name.is_empty() {
            return None;
        }
        ALL.iter()
            .copied()
            .find(|lang| lang.name() == name)
            .or_else(|| {
                ALIASES
                    .iter()
                    .find(|(_, aliases)| aliases.contains(&name.as_str()))
                    .map(|&(lang, _)| lang)
            })
    }

    /// Recognises the language of a file: by its extension first (looking
    /// at the text where an extension is shared, such as `.h`, `.pl` or
    /// `.s`), then by a `#!` line, a `<?php` opening or an Emacs
    /// `-*- mode: … -*-` marker on the first line.
    pub fn detect(path: &Path, text: &str) -> Option<Language> {
        // Go's module files share Modula-2's extension.
        if path
            .file_name()
            .is_some_and(|name| name == "go.mod" || name == "go.sum")
        {
            return None;
        }
        let by_extension = path
            .extension()
            .and_then(|ext| ext.to_str())
            .and_then(|ext| detect_by_extension(ext, text));
        by_extension.or_else(|| detect_by_first_line(text))
    }

    /// Every language, C first.
    pub fn all() -> &'static [Language] {
        ALL
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The language of an extension, sniffing the text for extensions that
/// several languages share.
fn detect_by_extension(ext: &str, text: &str) -> Option<Language> {
    let ext = ext.to_ascii_lowercase();
    match ext.as_str() {
        "h" => Some(if looks_like_cpp(text) {
            Language::Cpp
        } else {
            Language::C
        }),
        "pl" | "pro" => Some(if looks_like_prolog(text) {
            Language::Prolog
        } else if ext == "pl" {
            Language::Perl
        } else {
            Language::Prolog
        }),
        "s" | "asm" => Some(if looks_like_mips(text) {
            Language::Mips
        } else {
            Language::X86
        }),
        _ => Language::from_name(&ext),
    }
}

/// The language named by the first line: `#!`, `<?php` or an Emacs mode line.
fn detect_by_first_line(text: &str) -> Option<Language> {
    let first = text.trim_start_matches('\u{feff}').lines().next()?.trim();
    if let Some(command) = first.strip_prefix("#!") {
        return detect_by_shebang(command);
    }
    if first.starts_with("<?php") {
        return Some(Language::Php);
    }
    let mode = first.split("-*-").nth(1)?;
    let mode = mode
        .split(';')
        .find_map(|part| part.trim().strip_prefix("mode:"))
        .unwrap_or(mode)
        .trim();
    Language::from_name(mode)
}

/// The language of a `#!` command line such as `/usr/bin/env python3 -u`.
fn detect_by_shebang(command: &str) -> Option<Language> {
    let mut words = command.split_whitespace();
    let mut program = words.next()?.rsplit('/').next()?;
    if program == "env" {
        program = words.find(|word| !word.starts_with('-') && !word.contains('='))?;
    }
    // python3.12 → python, perl5 → perl.
    let program = program
        .trim_end_matches(|c: char| c.is_ascii_digit() || c == '.')
        .to_ascii_lowercase();
    INTERPRETERS
        .iter()
        .find(|(name, _)| *name == program)
        .map(|&(_, lang)| lang)
        .or_else(|| Language::from_name(&program))
}

fn looks_like_cpp(text: &str) -> bool {
    [
        "class ",
        "namespace ",
        "template<",
        "template <",
        "std::",
        "public:",
        "#include <iostream>",
    ]
    .iter()
    .any(|marker| text.contains(marker))
}

fn looks_like_prolog(text: &str) -> bool {
    text.contains(":-") && !text.contains("my $") && !text.contains("use strict")
}

fn looks_like_mips(text: &str) -> bool {
    [
        "$t0", "$s0", "$a0", "$v0", "$sp", "$ra", "syscall", "addiu", "$zero",
    ]
    .iter()
    .any(|marker| text.contains(marker))
}
