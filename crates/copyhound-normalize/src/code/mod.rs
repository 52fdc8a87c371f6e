//! The source-code front-end: program text to a stream of token symbols
//! that ignores whitespace, comments and (by default) identifier names.
//!
//! Three kinds of tokeniser share one token model ([`Token`], [`TokenKind`]):
//!
//! - tree-sitter grammars (one Cargo feature each, `lang-go`, `lang-cpp`,
//!   …, all on by default) for Kotlin, Scala, Rust, PHP, Ruby, Haskell and
//!   Bash;
//! - own lexers for Java, C, C++, C#, Python, Go, JavaScript and
//!   TypeScript/TSX, which give the tokens their grammar gives, at a
//!   fraction of the cost ([`tokenize_with_own_lexer`]): for Java, C, C++
//!   and C# the table lexer with a few passes (`java.rs`, `c.rs`, `cpp/`,
//!   which ends with the C pass, `csharp/`), for Python, Go and
//!   JavaScript scanners of their own (`python/`, `go.rs`, `javascript/`,
//!   whose scanner also reads TypeScript's types). The grammars of Java,
//!   C, C++ and C# are only the reference their tests compare with,
//!   through [`tokenize_with_grammar`] (Java's and C's stay behind the
//!   `lang-java` and `lang-c` features, off by default; C++'s and C#'s
//!   are still in the default build). Python's, Go's, JavaScript's and
//!   TypeScript's stay in the default build: where their lexer sees a
//!   syntax error (an unclosed string or bracket, a `:` missing after
//!   `if x`) it leaves the file to the grammar, whose error recovery no
//!   local rule predicts; the JavaScript and TypeScript lexer also leaves
//!   to it what it cannot tell from the tokens around (JSX, TypeScript's
//!   `<T>x` and `<T>(x) =>`, `await (…)` that is neither plainly a call
//!   nor plainly awaited);
//! - a table-driven lexer for the long tail (Lisp, Scheme, OCaml/ML,
//!   Pascal, Fortran, Ada, Perl, Matlab, Prolog, Verilog, VHDL, SQL, R,
//!   Lua, Swift, Elixir, Elm, Groovy, Modelica, MIPS and x86 assembly,
//!   Visual Basic, Spice, Modula-2, Tcl), and for any tree-sitter language
//!   whose feature is off.
//!
//! Tokens become symbols according to the [`Level`]:
//!
//! | level | identifiers | literals | keywords, operators |
//! |---|---|---|---|
//! | [`Level::Exact`] | text | text | text |
//! | [`Level::Rename`] (default) | `V` | text | text |
//! | [`Level::Abstract`] | `V` | kind (number, string, char) | text |
//! | [`Level::Structure`] | `V` | kind | class (keyword, operator, punctuation) |
//!
//! Every name a programmer chooses is an identifier — variables,
//! functions, types, fields, labels, modules — as in MOSS: renaming any of
//! them (or a class) leaves the `rename` stream unchanged. Keywords,
//! operators and literal kinds stay distinct, which is what separates two
//! unrelated programs of the same shape (a purely structural comparison,
//! as in Dolos, cannot), while renaming alone cannot hide a copy (as it
//! can from a comparison of raw tokens, as in copydetect for JavaScript).
//!
//! Three options rewrite the token stream of each function body before it
//! becomes symbols (Java, C, C++, C# and Python; the `statements` module):
//! [`StatementOptions::drop_dead_code`] leaves out statements that cannot
//! change what the function does (a local nothing reads, assignments to
//! it), [`StatementOptions::canonical_order`] puts statements that do not
//! depend on each other in one order, and [`StatementOptions::while_loops`]
//! reads a counted `for` loop as the `while` loop it equals, so that
//! inserting dead code, swapping independent statements or rewriting a
//! loop leaves the symbols as they were.
//!
//! ```
//! use copyhound_normalize::code::{CodeOptions, Language, StatementOptions, normalize_code};
//!
//! let options = CodeOptions::default();
//! let a = normalize_code(Language::C, "int total = 0; // sum", &options);
//! let b = normalize_code(Language::C, "int   s=0;", &options);
//! assert_eq!(a.symbols, b.symbols);
//! assert_eq!(a.spans[1].range(), 4..9); // "total"
//!
//! let statements = StatementOptions { drop_dead_code: true, ..StatementOptions::default() };
//! let dead = CodeOptions { statements, ..CodeOptions::default() };
//! let padded = "class A { int f(int p) { int unused = 1; unused++; return p; } }";
//! let plain = "class A { int f(int p) { return p; } }";
//! assert_eq!(
//!     normalize_code(Language::Java, padded, &dead).symbols,
//!     normalize_code(Language::Java, plain, &dead).symbols,
//! );
//! ```

mod c;
mod cpp;
mod csharp;
mod go;
mod java;
mod javascript;
mod language;
mod lexer;
mod python;
mod specs;
mod statement_modes;
mod statements;
mod token;
#[cfg(feature = "tree-sitter")]
mod tree;

pub use language::Language;
pub use statement_modes::{DeadCode, Loops, StatementOrder};
pub use token::{FIRST_TEXT_SYMBOL, Token, TokenKind, text_symbol, token_symbol};

use crate::{NormalizedDocument, Symbol};
use javascript::Dialect;

/// How much of each token the symbols keep; see the [module docs](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Level {
    /// Every token by its text (whitespace and comments still dropped).
    Exact,
    /// Identifiers become one symbol `V`; the rest is kept by its text.
    #[default]
    Rename,
    /// Also literals become their kind: number, string, character.
    Abstract,
    /// Only token classes: identifier, keyword, operator, punctuation and
    /// the literal kinds.
    Structure,
}

impl Level {
    /// Every level, from the most to the least of each token kept.
    pub const ALL: [Level; 4] = [
        Level::Exact,
        Level::Rename,
        Level::Abstract,
        Level::Structure,
    ];

    /// The level's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Level::Exact => "exact",
            Level::Rename => "rename",
            Level::Abstract => "abstract",
            Level::Structure => "structure",
        }
    }

    /// The level named `name` ([`Level::name`]), if any.
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|level| level.name() == name)
    }

    /// What the level does, in a line of a command's help.
    pub fn description(self) -> &'static str {
        match self {
            Level::Exact => "Drop whitespace and comments, keep every token",
            Level::Rename => "Also map every identifier to one symbol",
            Level::Abstract => "Also map every literal to its kind",
            Level::Structure => "Keep token classes only",
        }
    }
}

/// Options of the code front-end.
#[derive(Clone, Debug, Default)]
pub struct CodeOptions {
    /// How much of each token to keep.
    pub level: Level,
    /// Drop import, include, using, package and require lines, which are
    /// alike in unrelated programs.
    pub drop_imports: bool,
    /// How statements inside function bodies are normalised.
    pub statements: StatementOptions,
}

/// How the statements inside function bodies are normalised (Java, C, C++,
/// C#, Python; see the `statements` module). All off by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatementOptions {
    /// Leave out statements that cannot change what the function does:
    /// locals nothing reads, assignments to them, loops and branches with
    /// nothing else inside.
    pub drop_dead_code: bool,
    /// Put statements that do not depend on each other in one canonical
    /// order, so that swapping them changes nothing. Tokens keep their own
    /// spans, which are then no longer in increasing order where
    /// statements moved.
    pub canonical_order: bool,
    /// Read `for (init; cond; step) body` as `init; while (cond) { body
    /// step; }` (not Python): the loop's own tokens in that order, its
    /// `for` with the symbol of `while`.
    pub while_loops: bool,
}

/// Normalises source code in `lang` into symbols with byte spans.
///
/// Never fails: code with syntax errors is still tokenised, and any text
/// yields a document (an empty one for empty text). Spans are disjoint,
/// non-empty byte ranges inside `text`, each a token's own; they are in
/// increasing order unless the statement options moved statements.
pub fn normalize_code(lang: Language, text: &str, opts: &CodeOptions) -> NormalizedDocument {
    let tokens = tokenize(lang, text, opts.drop_imports);
    let fold = folds_case(lang);
    let mut symbols: Vec<Symbol> = tokens
        .iter()
        .map(|token| {
            let fold = fold.applies_to(token.kind);
            token_symbol(token.kind, &text[token.range.clone()], opts.level, fold)
        })
        .collect();
    let wanted = opts.statements;
    let rewrite = statements::Rewrite {
        drop_dead_code: wanted.drop_dead_code,
        canonical_order: wanted.canonical_order,
        while_loops: wanted
            .while_loops
            .then(|| token_symbol(TokenKind::Keyword, "while", opts.level, false)),
    };
    let rewrites = wanted != StatementOptions::default();
    let order = rewrites
        .then(|| statements::rewrite(lang, text, &tokens, &mut symbols, rewrite))
        .flatten();
    let mut doc = NormalizedDocument {
        symbols: Vec::with_capacity(tokens.len()),
        spans: Vec::with_capacity(tokens.len()),
    };
    match order {
        Some(order) => {
            for index in order {
                doc.push(symbols[index], tokens[index].range.clone());
            }
        }
        None => {
            for (symbol, token) in symbols.into_iter().zip(tokens) {
                doc.push(symbol, token.range);
            }
        }
    }
    doc
}

/// The tokens of `text` in `lang`, in order, comments and whitespace left
/// out (and import lines too, if `drop_imports`).
pub fn tokenize(lang: Language, text: &str, drop_imports: bool) -> Vec<Token> {
    if let Some(tokens) = tokenize_with_own_lexer(lang, text, drop_imports) {
        return tokens;
    }
    tokenize_with_grammar(lang, text, drop_imports)
        .unwrap_or_else(|| tokenize_with_table(lang, text, drop_imports))
}

/// The tokens of `text` read by `lang`'s own lexer alone, or `None` if
/// `lang` has none or its lexer leaves this text to the grammar (Python's,
/// Go's, JavaScript's and TypeScript's do where the grammar would find a
/// syntax error).
/// [`tokenize`] tries this first; tests compare it with
/// [`tokenize_with_grammar`].
pub fn tokenize_with_own_lexer(
    lang: Language,
    text: &str,
    drop_imports: bool,
) -> Option<Vec<Token>> {
    match lang {
        Language::C => Some(c::tokenize(text, drop_imports)),
        Language::Cpp => Some(cpp::tokenize(text, drop_imports)),
        Language::CSharp => Some(csharp::tokenize(text, drop_imports)),
        Language::Java => Some(java::tokenize(text, drop_imports)),
        Language::Python => python::tokenize(text, drop_imports),
        Language::Go => go::tokenize(text, drop_imports),
        Language::JavaScript => javascript::tokenize(text, drop_imports, Dialect::JavaScript),
        Language::TypeScript => javascript::tokenize(text, drop_imports, Dialect::TypeScript),
        Language::Tsx => javascript::tokenize(text, drop_imports, Dialect::Tsx),
        _ => None,
    }
}

/// The tokens of `text` read through `lang`'s tree-sitter grammar, or
/// `None` if this build has no grammar for it (or the parser gave up).
/// [`tokenize`] reads Java and C without their grammars; this is how tests
/// and experiments reach them (features `lang-java`, `lang-c`) to compare.
pub fn tokenize_with_grammar(lang: Language, text: &str, drop_imports: bool) -> Option<Vec<Token>> {
    #[cfg(feature = "tree-sitter")]
    {
        tree::tokenize(lang, text, drop_imports).map(in_order)
    }
    #[cfg(not(feature = "tree-sitter"))]
    {
        let _ = (lang, text, drop_imports);
        None
    }
}

/// The tokens of `text` read by the table-driven lexer alone, whatever
/// grammars are compiled in: what a tree-sitter language falls back to
/// when its feature is off.
pub fn tokenize_with_table(lang: Language, text: &str, drop_imports: bool) -> Vec<Token> {
    let lexer = lexer::lexer(lang);
    let mut tokens = Vec::with_capacity(text.len() / 4);
    lexer.tokenize_into(text, 0..text.len(), &mut tokens);
    if drop_imports {
        lexer.drop_import_lines(text, &mut tokens);
    }
    tokens
}

/// Whether `lang` is read by a tree-sitter grammar in this build (false:
/// by the table lexer).
pub fn uses_grammar(lang: Language) -> bool {
    #[cfg(feature = "tree-sitter")]
    {
        !has_own_lexer(lang) && tree::has_grammar(lang)
    }
    #[cfg(not(feature = "tree-sitter"))]
    {
        let _ = lang;
        false
    }
}

/// Whether reading a file of `lang` may run a tree-sitter grammar in this
/// build: `lang` has no lexer of its own, or its lexer hands the files it
/// sees an error in to the grammar (Python's, Go's, JavaScript's and
/// TypeScript's do; Java's and C's never do).
pub fn may_use_grammar(lang: Language) -> bool {
    #[cfg(feature = "tree-sitter")]
    {
        !matches!(lang, Language::Java | Language::C) && tree::has_grammar(lang)
    }
    #[cfg(not(feature = "tree-sitter"))]
    {
        let _ = lang;
        false
    }
}

/// Whether `lang` is read by its own lexer, which gives its grammar's
/// tokens (Python's, Go's, JavaScript's and TypeScript's hand the files
/// they cannot be sure of to the grammar).
fn has_own_lexer(lang: Language) -> bool {
    matches!(
        lang,
        Language::Java
            | Language::C
            | Language::Cpp
            | Language::CSharp
            | Language::Python
            | Language::Go
            | Language::JavaScript
            | Language::TypeScript
            | Language::Tsx
    )
}

/// Keeps the promise of non-decreasing spans even if a grammar ever
/// reports overlapping leaves: a token that starts before its predecessor
/// is dropped.
#[cfg_attr(not(feature = "tree-sitter"), allow(dead_code))]
fn in_order(mut tokens: Vec<Token>) -> Vec<Token> {
    let mut last_start = 0;
    tokens.retain(|token| {
        let ordered = token.range.start >= last_start;
        debug_assert!(ordered, "token out of order: {token:?}");
        last_start = token.range.start.max(last_start);
        ordered
    });
    tokens
}

/// Which tokens compare without case in a language.
#[derive(Clone, Copy)]
enum CaseFolding {
    None,
    /// Keywords only (PHP: `IF` is `if`, but `$X` is not `$x`).
    Keywords,
    /// Everything but string and character literals (Pascal, Fortran, Ada,
    /// SQL, VHDL, Visual Basic, Lisp, …).
    All,
}

impl CaseFolding {
    fn applies_to(self, kind: TokenKind) -> bool {
        match self {
            CaseFolding::None => false,
            CaseFolding::Keywords => kind == TokenKind::Keyword,
            CaseFolding::All => true,
        }
    }
}

fn folds_case(lang: Language) -> CaseFolding {
    if uses_grammar(lang) {
        if lang == Language::Php {
            CaseFolding::Keywords
        } else {
            CaseFolding::None
        }
    } else if lexer::lexer(lang).case_insensitive() {
        CaseFolding::All
    } else if lang == Language::Php {
        CaseFolding::Keywords
    } else {
        CaseFolding::None
    }
}
