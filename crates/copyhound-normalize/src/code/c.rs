//! C read without a syntax tree: the table lexer's tokens, then one pass
//! that recovers what the tree-sitter grammar used to decide.
//!
//! Why: on the C data set, tree-sitter's GLR parse of C was about 70 % of
//! the CPU time of `compare` (the grammar reads about 4.7 MB/s, this lexer
//! about 75 MB/s: `cargo bench -p copyhound-normalize --bench frontends`,
//! group `c_tokens`), and the tree served only decisions that a look at
//! the neighbouring tokens can make. The pass, token by token:
//!
//! - directives: `#include`, `#define`, `#if`, `#ifdef`, `#ifndef`,
//!   `#elif`, `#else`, `#endif` (and `#elifdef`, `#elifndef`) become one
//!   keyword with their `#`; a `<path>` one string; a macro's name and
//!   parameters names; `defined` in a condition a keyword; with
//!   `drop_imports`, `#include` lines go. A macro's body and the argument
//!   of any other directive (`#pragma`, `#undef`) stay as the lexer read
//!   them, as the grammar hands them to it as raw text — and, as in the
//!   grammar, a name followed by space and a line break takes the next
//!   line as its body;
//! - line continuations (`\` at a line's end) are space outside raw text;
//! - `L"…"`, `u8"…"`, `u'…'` are one literal with their prefix;
//! - numbers are the grammar's longest match (`1.`, `2.f`, `0x1p-3`,
//!   `1'000`), with their sign where an operand is expected (`x = -1`,
//!   `f(-1)`, `(int)-1`, but `x -1` is a subtraction; `(a) -1` is a cast
//!   to the grammar only where `*`, `/` or `%` follows);
//! - where only a unary operator may stand (after an operator or an
//!   opening bracket), a longer operator is its first character and the
//!   rest read anew, as the grammar's lexer reads broken code (`= ->`);
//! - `&&` after a lone name in parentheses is two `&` where an operator
//!   binding tighter than `&&` follows the operand after it (`(a) && b + c`:
//!   to the grammar a cast of `&&b` to a type `a`), outside `#if`;
//! - words: the grammar's primitive types (`size_t`, `uint8_t`), `TRUE`,
//!   `FALSE` and its extension keywords (`__attribute__`) are keywords;
//!   the directive words, `_Bool` and `_Complex` outside a directive are
//!   names, and so is any word after `->` or `.` (a field) and a
//!   primitive type in the place of a missing function name
//!   (`int (void) {`, anonymised code).
//!
//! The reference is the grammar: tests compare the two token streams on
//! the fixture, on cases of each rule, on random well-formed C, and on
//! every C file of the evaluation data sets (79 files, none differs, with
//! or without `drop_imports`). Left out: the grammar's error recovery,
//! which on broken code can split, join or reclassify tokens in ways no
//! local rule predicts; a C++ guard (`#ifdef __cplusplus` `extern "C" {`
//! `#endif`) is one such case, where the grammar reads the directives as
//! raw `#` and words. So is a sign after a group that C cannot tell from
//! a type without knowing the program's types, such as `(f()) -1` (a cast
//! to a function type, to the grammar).

use std::cell::OnceCell;
use std::ops::Range;
use std::sync::OnceLock;

use super::Language;
use super::lexer::{WordSet, lexer};
use super::token::{Token, TokenKind};

/// The tokens of C `text`, in order, comments and whitespace left out
/// (and `#include` lines too, if `drop_imports`).
pub(crate) fn tokenize(text: &str, drop_imports: bool) -> Vec<Token> {
    let mut tokens = Vec::with_capacity(text.len() / 4);
    lexer(Language::C).tokenize_into(text, 0..text.len(), &mut tokens);
    read(text, &tokens, &C_DIALECT, &[], drop_imports).0
}

/// What the readers of C and of C++ (`cpp.rs`, which hands its tokens to
/// this pass) differ in.
pub(super) struct Dialect {
    /// Whose table lexer reads again what the pass splits.
    pub(super) lang: Language,
    /// The length of the grammar's number literal at the start of bytes.
    pub(super) number_len: fn(&[u8]) -> usize,
    /// Whether a word right after a number is a token of its own, a
    /// user-defined literal's suffix (C++: `1.5_km`), which the walker
    /// reads as a keyword.
    pub(super) literal_suffixes: bool,
    /// Whether words are classed here by the C lists below; C++ classes
    /// its words before.
    pub(super) c_words: bool,
}

const C_DIALECT: Dialect = Dialect {
    lang: Language::C,
    number_len,
    literal_suffixes: false,
    c_words: true,
};

/// Reads the table lexer's `tokens` of `text` as the grammar of `dialect`
/// does: directives, numbers and their signs, literal prefixes, words.
/// `value_closers`: the starts of the `>` tokens that close template
/// arguments (sorted), after which a sign is an operator. Also returns
/// the bytes of the `#include` lines dropped.
pub(super) fn read(
    text: &str,
    tokens: &[Token],
    dialect: &Dialect,
    value_closers: &[usize],
    drop_imports: bool,
) -> (Vec<Token>, Vec<Range<usize>>) {
    let mut reader = Reader {
        text,
        tokens,
        dialect,
        value_closers,
        out: Vec::with_capacity(tokens.len()),
        dropped_includes: Vec::new(),
        code_start: 0,
        closers: OnceCell::new(),
    };
    reader.read(drop_imports);
    (reader.out, reader.dropped_includes)
}

/// Words the lexer's table reserves but the grammar reads as names: the
/// directive words (which the directive pass joins to their `#`) and the
/// C99/C11 spellings the grammar does not know.
const NAMES: &[&str] = &[
    "include",
    "define",
    "ifdef",
    "ifndef",
    "endif",
    "elif",
    "pragma",
    "undef",
    "_Bool",
    "_Complex",
    "_Static_assert",
];

/// Words the grammar reads as keywords (fixed tokens and the
/// `true`/`false`/`null` spellings) that the lexer's table leaves as names;
/// so are the [`PRIMITIVE_TYPES`] it does not know.
const KEYWORDS: &[&str] = &[
    "TRUE",
    "FALSE",
    "nullptr",
    "_Alignas",
    "_Alignof",
    "_Generic",
    "_Nonnull",
    "alignas",
    "alignof",
    "asm",
    "constexpr",
    "noreturn",
    "offsetof",
    "thread_local",
    "__alignof",
    "__alignof__",
    "__asm",
    "__asm__",
    "__attribute",
    "__attribute__",
    "__based",
    "__cdecl",
    "__clrcall",
    "__declspec",
    "__except",
    "__extension__",
    "__fastcall",
    "__finally",
    "__forceinline",
    "__inline",
    "__inline__",
    "__leave",
    "__restrict__",
    "__stdcall",
    "__thiscall",
    "__thread",
    "__try",
    "__unaligned",
    "__vectorcall",
    "__volatile__",
    "_alignof",
    "_unaligned",
];

/// [`KEYWORDS`] and [`PRIMITIVE_TYPES`] as one set: every name of the
/// source is looked up in it.
fn grammar_keywords() -> &'static WordSet {
    static SET: OnceLock<WordSet> = OnceLock::new();
    SET.get_or_init(|| KEYWORDS.iter().chain(PRIMITIVE_TYPES).copied().collect())
}

/// What a group in parentheses that may hold a type holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TypeGroup {
    /// A type: `(int)`, `(FILE *)`, `(struct node *)`.
    Cast,
    /// `sizeof(int)`: an operand, or to the grammar the start of a cast.
    SizeofType,
    /// `(a)`: a parenthesised name or a cast to a type named `a`.
    Name,
    /// `sizeof (a)`: an operand, never a cast, but a sign after it reads
    /// as after [`Self::Name`].
    SizeofName,
}

/// Whether `word` names a type in a cast (`int`, `struct`, …); the
/// closer look of casts and of their operands shares it.
fn is_type_word(word: &str) -> bool {
    PRIMITIVE_TYPES.contains(&word) || matches!(word, "struct" | "union" | "enum")
}

/// Whether `word` qualifies a type without naming one.
fn is_qualifier(word: &str) -> bool {
    matches!(word, "const" | "volatile")
}

/// Keywords that are values: a sign after them is an operator.
const VALUE_WORDS: &[&str] = &["NULL", "nullptr", "true", "false", "TRUE", "FALSE"];

/// The grammar's primitive types, and the words it reads as one.
pub(super) const PRIMITIVE_TYPES: &[&str] = &[
    "bool",
    "char",
    "int",
    "float",
    "double",
    "void",
    "long",
    "short",
    "signed",
    "unsigned",
    "size_t",
    "ssize_t",
    "ptrdiff_t",
    "intptr_t",
    "uintptr_t",
    "charptr_t",
    "nullptr_t",
    "max_align_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "char8_t",
    "char16_t",
    "char32_t",
    "char64_t",
];

/// The directives the grammar parses; any other (`#pragma`, `#undef`,
/// `#error`) is a directive word and raw text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Directive {
    Include,
    Define,
    /// `#if`, `#elif`: a condition follows.
    Condition,
    /// `#ifdef`, `#ifndef`, `#elifdef`, `#elifndef`: a name follows.
    Name,
    /// `#else`, `#endif`.
    Bare,
    /// Anything else.
    Raw,
}

struct Reader<'a> {
    text: &'a str,
    tokens: &'a [Token],
    dialect: &'a Dialect,
    value_closers: &'a [usize],
    out: Vec<Token>,
    /// The bytes of the `#include` lines dropped.
    dropped_includes: Vec<Range<usize>>,
    /// Where in `out` the code since the last directive starts: what came
    /// before (a macro's raw body) is no context for the tokens after.
    code_start: usize,
    /// For each token, one past the bracket that closes it if it opens one
    /// (`u32::MAX` otherwise): found once, the first time a look ahead needs
    /// it, so that looking past a group never scans the rest of the file.
    closers: OnceCell<Vec<u32>>,
}

impl Reader<'_> {
    fn word(&self, index: usize) -> &str {
        self.tokens
            .get(index)
            .map_or("", |token| &self.text[token.range.clone()])
    }

    fn read(&mut self, drop_imports: bool) {
        let mut index = 0;
        while index < self.tokens.len() {
            index = if self.word(index) == "#" {
                let next = self.directive(index, drop_imports);
                self.code_start = self.out.len();
                next
            } else {
                self.code(index, false)
            };
        }
    }

    /// One past the last token of the line on which the token at `first`
    /// stands, lines joined by `\`.
    fn line_end(&self, first: usize) -> usize {
        line_end(self.text, self.tokens, first)
    }

    /// Skips the line continuations at `index`, which the grammar reads as
    /// space between a directive's word or name and its raw text.
    fn skip_continuations(&self, mut index: usize, end: usize) -> usize {
        while index < end && self.is_continuation(index) {
            index += 1;
        }
        index
    }

    fn is_continuation(&self, index: usize) -> bool {
        self.word(index) == "\\" && self.ends_line(self.tokens[index].range.end)
    }

    /// Pushes the raw text that follows a directive's word or a macro's
    /// name as the lexer read it, from `index` to the end of the line; the
    /// index after it. Where the line has none, the grammar's raw text is
    /// the next line if the line ended in space (its line break was no
    /// longer "immediate").
    fn raw_text(&mut self, index: usize, end: usize) -> usize {
        let start = self.skip_continuations(index, end);
        let end = if start < end || start >= self.tokens.len() || self.line_ends_at(index - 1) {
            end
        } else {
            self.line_end(start)
        };
        self.out.extend_from_slice(&self.tokens[start..end]);
        end
    }

    /// Whether the line break after the token at `last` follows it or a
    /// comment directly, not after space.
    fn line_ends_at(&self, last: usize) -> bool {
        let after = self.tokens[last].range.end;
        let rest = &self.text[after..];
        let Some(line) = rest.find('\n').map(|at| &rest[..at]) else {
            return true;
        };
        let line = line.strip_suffix('\r').unwrap_or(line);
        line.contains("//") || !line.ends_with([' ', '\t'])
    }

    /// Reads the directive at the `#` at `hash`; the index after it.
    fn directive(&mut self, hash: usize, drop_imports: bool) -> usize {
        let (kind, first) = self.directive_kind(hash);
        if first == hash {
            self.out.push(self.tokens[hash].clone());
            return hash + 1;
        }
        let end = self.line_end(hash);
        if kind == Directive::Raw {
            self.out.extend_from_slice(&self.tokens[hash..=first]);
            return self.raw_text(first + 1, end);
        }
        if kind == Directive::Include && drop_imports {
            let start = self.tokens[hash].range.start;
            self.dropped_includes
                .push(start..self.tokens[end - 1].range.end);
            return end;
        }
        self.out.push(Token {
            kind: TokenKind::Keyword,
            range: self.tokens[hash].range.start..self.tokens[first].range.end,
        });
        let mut index = first + 1;
        match kind {
            Directive::Include => {
                if let Some(path) = self.system_path(index) {
                    self.out.push(Token {
                        kind: TokenKind::String,
                        range: path.clone(),
                    });
                    while index < end && self.tokens[index].range.start < path.end {
                        index += 1;
                    }
                }
            }
            Directive::Define => {
                index = self.name(index, end);
                let touching = index < end
                    && self.tokens[index - 1].range.end == self.tokens[index].range.start;
                if touching && self.word(index) == "(" {
                    while index < end {
                        let close = self.word(index) == ")";
                        index = self.name(index, end);
                        if close {
                            break;
                        }
                    }
                }
                return self.raw_text(index, end);
            }
            Directive::Name => index = self.name(index, end),
            _ => {}
        }
        while index < end {
            index = self.code(index, kind == Directive::Condition);
        }
        end
    }

    /// Pushes the token at `index` (if before `end`) with a word read as a
    /// name; the index after it.
    fn name(&mut self, index: usize, end: usize) -> usize {
        if index >= end {
            return index;
        }
        let mut token = self.tokens[index].clone();
        if token.kind == TokenKind::Keyword {
            token.kind = TokenKind::Identifier;
        }
        self.out.push(token);
        index + 1
    }

    /// What directive the `#` at `hash` starts, and the index of its word.
    fn directive_kind(&self, hash: usize) -> (Directive, usize) {
        let first = hash + 1;
        let Some(next) = self.tokens.get(first) else {
            return (Directive::Raw, hash);
        };
        let gap = &self.text[self.tokens[hash].range.end..next.range.start];
        if !gap.bytes().all(|b| b == b' ' || b == b'\t') {
            return (Directive::Raw, hash);
        }
        let kind = match self.word(first) {
            "include" => Directive::Include,
            "define" => Directive::Define,
            "if" | "elif" => Directive::Condition,
            "ifdef" | "ifndef" | "elifdef" | "elifndef" => Directive::Name,
            "else" | "endif" => Directive::Bare,
            _ => Directive::Raw,
        };
        (kind, first)
    }

    /// The bytes of `<path>` if the token at `index` opens one.
    fn system_path(&self, index: usize) -> Option<Range<usize>> {
        if self.word(index) != "<" {
            return None;
        }
        let start = self.tokens[index].range.start;
        let bytes = self.text.as_bytes();
        let mut at = start + 1;
        while at < bytes.len() {
            match bytes[at] {
                b'>' => return Some(start..at + 1),
                b'\n' => return None,
                b'\\' if bytes.get(at + 1) == Some(&b'>') => at += 2,
                _ => at += 1,
            }
        }
        None
    }

    /// Pushes the code token at `index`, joined with what the grammar
    /// reads as one token with it; the index after what it took.
    /// `condition`: inside `#if`, where `defined` is a keyword.
    fn code(&mut self, index: usize, condition: bool) -> usize {
        let token = &self.tokens[index];
        let word = &self.text[token.range.clone()];
        let next = self.tokens.get(index + 1);
        let touches_next = next.is_some_and(|next| next.range.start == token.range.end);
        match token.kind {
            TokenKind::Operator if word == "\\" && self.ends_line(token.range.end) => {
                return index + 1;
            }
            TokenKind::Identifier if self.is_literal_prefix(index) => {
                let next = next.expect("a prefix's literal follows it");
                self.out.push(Token {
                    kind: next.kind,
                    range: token.range.start..next.range.end,
                });
                return index + 2;
            }
            TokenKind::Operator
                if matches!(word, "-" | "+")
                    && touches_next
                    && next.is_some_and(|next| next.kind == TokenKind::Number)
                    && self.sign_joins_number(index) =>
            {
                return self.number(index + 1, token.range.start);
            }
            TokenKind::Operator if word == "&&" && !condition && self.and_is_a_cast(index) => {
                // Two address-of operators, each its own token.
                let start = token.range.start;
                self.out.extend([start, start + 1].map(|at| Token {
                    kind: TokenKind::Operator,
                    range: at..at + 1,
                }));
                return index + 1;
            }
            TokenKind::Operator
                if word.len() > 1
                    && word.starts_with(['-', '+', '&', '*', '!', '~'])
                    && !matches!(word, "++" | "--")
                    && !self.trailing_return(word)
                    && self.expects_operand() =>
            {
                // Only a unary operator is valid here: the grammar reads the
                // first character alone and the rest anew (`= ->`, `; ->=`).
                let start = token.range.start;
                self.out.push(Token {
                    kind: TokenKind::Operator,
                    range: start..start + 1,
                });
                let (end, after) = match next {
                    Some(next) if touches_next && next.kind == TokenKind::Operator => {
                        (next.range.end, index + 2)
                    }
                    _ => (token.range.end, index + 1),
                };
                lexer(self.dialect.lang).tokenize_into(self.text, start + 1..end, &mut self.out);
                return after;
            }
            TokenKind::Number => return self.number(index, token.range.start),
            TokenKind::Keyword
                if PRIMITIVE_TYPES.contains(&word)
                    && self.word(index + 1) == ")"
                    && (self.dialect.lang != Language::Cpp || self.word(index + 2) == "{")
                    && index >= 2
                    && self.word(index - 1) == "("
                    && PRIMITIVE_TYPES.contains(&self.word(index - 2)) =>
            {
                // `int (void)`: a function whose name is missing (as in
                // anonymised code) reads as a declarator in parentheses.
                self.out.push(Token {
                    kind: TokenKind::Identifier,
                    range: token.range.clone(),
                });
                return index + 1;
            }
            _ => {}
        }
        let mut token = token.clone();
        let field = self.context().last().is_some_and(|last| {
            let last_word = &self.text[last.range.clone()];
            last_word == "." || (last_word == "->" && !self.after_trailing_return())
        });
        if field && token.kind == TokenKind::Keyword && !matches!(word, "template" | "operator") {
            // Only a field name may follow: `p->NULL` names a field (but
            // C++'s `x.template f<T>()`, `x.operator=(y)`).
            token.kind = TokenKind::Identifier;
        } else if !self.dialect.c_words {
            if token.kind == TokenKind::Identifier && condition && word == "defined" {
                token.kind = TokenKind::Keyword;
            }
        } else if token.kind == TokenKind::Keyword && NAMES.contains(&word) {
            token.kind = TokenKind::Identifier;
        } else if token.kind == TokenKind::Identifier
            && !field
            && (grammar_keywords().contains(word) || (condition && word == "defined"))
        {
            token.kind = TokenKind::Keyword;
        }
        self.out.push(token);
        index + 1
    }

    /// Pushes the number whose digits start the token at `index` as the
    /// grammar reads it, from `start` (its sign, if any); the index after
    /// the tokens it covered. Where the grammar's number ends inside a
    /// token of the lexer (`2.f` is `2`, `.`, `f` to the lexer, `123abc`
    /// one token), the rest of that token is lexed anew.
    fn number(&mut self, index: usize, start: usize) -> usize {
        let (digits_end, end) = self.number_ends(index);
        self.out.push(Token {
            kind: TokenKind::Number,
            range: start..digits_end,
        });
        if end > digits_end {
            self.out.push(Token {
                kind: TokenKind::Keyword,
                range: digits_end..end,
            });
        }
        let mut after = self.first_token_past(index, end);
        if let Some(split) = self.tokens.get(after).filter(|t| t.range.start < end) {
            let rest = end..split.range.end;
            lexer(self.dialect.lang).tokenize_into(self.text, rest, &mut self.out);
            after += 1;
        }
        after
    }

    /// Where the number whose digits start the raw token at `index` ends
    /// by the dialect's rule, and where its suffix (`2.f`, `10ul`) ends.
    fn number_ends(&self, index: usize) -> (usize, usize) {
        let bytes = self.text.as_bytes();
        let digits = self.tokens[index].range.start;
        let digits_end = digits + (self.dialect.number_len)(&bytes[digits..]);
        let mut end = digits_end;
        if self.dialect.literal_suffixes
            && bytes
                .get(end)
                .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_')
        {
            while bytes
                .get(end)
                .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
            {
                end += 1;
            }
        }
        (digits_end, end)
    }

    /// The first raw token from `index` on not wholly before `end`.
    fn first_token_past(&self, mut index: usize, end: usize) -> usize {
        while self.tokens.get(index).is_some_and(|t| t.range.end <= end) {
            index += 1;
        }
        index
    }

    /// Whether a line break follows `at` (`\r\n` too).
    fn ends_line(&self, at: usize) -> bool {
        let rest = &self.text.as_bytes()[at..];
        rest.starts_with(b"\n") || rest.starts_with(b"\r\n")
    }

    /// The tokens pushed since the last directive.
    fn context(&self) -> &[Token] {
        &self.out[self.code_start..]
    }

    /// Whether the last token pushed leaves the grammar expecting an
    /// operand: it is an operator or opens a group or list.
    fn expects_operand(&self) -> bool {
        self.context().last().is_some_and(|token| {
            let word = &self.text[token.range.clone()];
            match token.kind {
                TokenKind::Operator => !matches!(word, "++" | "--") && !self.closes_template(token),
                TokenKind::Punctuation => {
                    matches!(word, "(" | "[" | "," | ";" | "{" | "}")
                        || self.closes_type() == Some(TypeGroup::Cast)
                }
                TokenKind::Keyword => word == "return",
                _ => false,
            }
        })
    }

    /// What the group that the last token pushed closes holds, if that is
    /// a `)` after a type or a lone name in parentheses.
    fn closes_type(&self) -> Option<TypeGroup> {
        let (last, mut before) = self.context().split_last()?;
        if &self.text[last.range.clone()] != ")" {
            return None;
        }
        // Array declarators end a type (`(a[2])`, `(int[n][m])`) whatever
        // their sizes hold: the grammar reads the group as a cast.
        while let Some(open) = self.array_declarator_starts(before) {
            before = &before[..open];
        }
        let (mut words, mut names, mut type_word) = (0, 0, false);
        let (mut ends_in_pointer, mut qualified) = (false, false);
        // A cast's type is a few words; the look stops after 16 tokens.
        for (index, token) in before.iter().rev().enumerate().take(16) {
            let word = &self.text[token.range.clone()];
            match word {
                "(" => {
                    let before = before.iter().rev().nth(index + 1);
                    let before_word = before.map_or("", |t| &self.text[t.range.clone()]);
                    if before.is_some_and(|t| t.kind == TokenKind::Identifier)
                        || matches!(before_word, "if" | "while" | "switch" | "for")
                    {
                        return None;
                    }
                    // C++'s `(std::size_t)-1` is a cast too.
                    let a_type = type_word
                        || (ends_in_pointer && names == words)
                        || (qualified && names == words);
                    return if before_word == "sizeof" && a_type {
                        // `sizeof(std::string) && x`: an operand, then `&&`.
                        Some(TypeGroup::SizeofType)
                    } else if a_type {
                        Some(TypeGroup::Cast)
                    } else if words == 1 && names == 1 && !matches!(before_word, ")" | "]") {
                        Some(if before_word == "sizeof" {
                            TypeGroup::SizeofName
                        } else {
                            TypeGroup::Name
                        })
                    } else {
                        None
                    };
                }
                // A `*` before a name dereferences it (`(*a)`).
                "*" if names > 0 => return None,
                "*" => ends_in_pointer |= words == 0,
                "::" if self.dialect.lang == Language::Cpp => qualified = true,
                _ if token.kind == TokenKind::Identifier => {
                    words += 1;
                    names += 1;
                }
                _ if is_type_word(word) || is_qualifier(word) => {
                    words += 1;
                    type_word |= is_type_word(word);
                }
                _ => return None,
            }
        }
        None
    }

    /// Whether the tokens in `start..end` are a type with a type word in
    /// it (`int`, `struct node *`, `unsigned long`): names and `*`s
    /// around one of C's type words.
    fn names_a_type(&self, start: usize, end: usize) -> bool {
        let mut type_word = false;
        for index in start..end {
            let word = self.word(index);
            if is_type_word(word) {
                type_word = true;
            } else if !(word == "*"
                || is_qualifier(word)
                || self.tokens[index].kind == TokenKind::Identifier)
            {
                return false;
            }
        }
        type_word
    }

    /// Where the `[…]` that ends `tokens` opens, when a name, type word,
    /// `*` or another `]` stands before it (an array declarator); the
    /// look stops after 16 tokens.
    fn array_declarator_starts(&self, tokens: &[Token]) -> Option<usize> {
        if tokens.last().map(|t| &self.text[t.range.clone()]) != Some("]") {
            return None;
        }
        let mut depth = 0usize;
        for (back, token) in tokens.iter().rev().enumerate().take(16) {
            match &self.text[token.range.clone()] {
                "]" => depth += 1,
                "[" => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                let open = tokens.len() - 1 - back;
                let before = open.checked_sub(1).map(|b| &tokens[b])?;
                let word = &self.text[before.range.clone()];
                let declares = before.kind == TokenKind::Identifier
                    || PRIMITIVE_TYPES.contains(&word)
                    || matches!(word, "*" | "]");
                return declares.then_some(open);
            }
        }
        None
    }

    /// Whether the `&&` at `index` is, to the grammar, two `&` of a cast:
    /// `(a) && b + c` casts `&&b` to a type `a` where an operator binding
    /// tighter than `&&` follows the operand (not after `sizeof (a)`).
    fn and_is_a_cast(&self, index: usize) -> bool {
        self.closes_type() == Some(TypeGroup::Name) && self.operand_then_tighter_operator(index + 1)
    }

    /// Whether the tokens from `index` are an operand (unary operators, a
    /// name, number, literal or group, then calls, subscripts, fields)
    /// followed by a binary operator that binds tighter than `&&`.
    fn operand_then_tighter_operator(&self, mut index: usize) -> bool {
        while matches!(
            self.word(index),
            "-" | "+" | "!" | "~" | "*" | "&" | "++" | "--" | "sizeof"
        ) {
            index += 1;
        }
        let Some(first) = self.tokens.get(index) else {
            return false;
        };
        index = match first.kind {
            // A literal is one operand, however many raw tokens it spans
            // (`1.` is `1` and `.`, `L"w"` a prefix and a string).
            TokenKind::Number => self.first_token_past(index, self.number_ends(index).1),
            TokenKind::Identifier if self.is_literal_prefix(index) => index + 2,
            TokenKind::Identifier | TokenKind::String | TokenKind::Char => index + 1,
            TokenKind::Keyword
                if VALUE_WORDS.contains(&self.word(index)) || self.word(index) == "this" =>
            {
                index + 1
            }
            TokenKind::Punctuation if self.word(index) == "(" => match self.past_group(index) {
                // A group before a name or literal is a cast's type
                // (`(int)"s" + a`), and so is one that names a type
                // before anything (`(int)-0`): the operand is what
                // follows it.
                Some(after)
                    if self.tokens.get(after).is_some_and(|t| {
                        matches!(
                            t.kind,
                            TokenKind::Identifier
                                | TokenKind::Number
                                | TokenKind::String
                                | TokenKind::Char
                        )
                    }) || self.names_a_type(index + 1, after - 1) =>
                {
                    return self.operand_then_tighter_operator(after);
                }
                Some(after) => after,
                None => return false,
            },
            _ => return false,
        };
        loop {
            index = match self.word(index) {
                "(" | "[" => match self.past_group(index) {
                    Some(after) => after,
                    None => return false,
                },
                "." | "->" | "::" => index + 2,
                "++" | "--" => index + 1,
                _ => break,
            };
        }
        matches!(
            self.word(index),
            "*" | "/"
                | "%"
                | "+"
                | "-"
                | "<<"
                | ">>"
                | "<"
                | ">"
                | "<="
                | ">="
                | "=="
                | "!="
                | "&"
                | "^"
                | "|"
        )
    }

    /// One past the bracket that closes the one at `index`, if any: the
    /// next bracket, of any kind, that brings the depth back.
    fn past_group(&self, index: usize) -> Option<usize> {
        let closers = self.closers.get_or_init(|| {
            let mut closers = vec![u32::MAX; self.tokens.len()];
            let mut open: Vec<usize> = Vec::new();
            for (at, token) in self.tokens.iter().enumerate() {
                match &self.text[token.range.clone()] {
                    "(" | "[" | "{" => open.push(at),
                    ")" | "]" | "}" => {
                        if let Some(opener) = open.pop() {
                            closers[opener] = (at + 1) as u32;
                        }
                    }
                    _ => {}
                }
            }
            closers
        });
        Some(closers[index] as usize).filter(|&after| after != u32::MAX as usize)
    }

    /// Whether the raw token at `index` is the prefix of the string or
    /// character literal it touches (`L"w"`, `u8'a'`).
    fn is_literal_prefix(&self, index: usize) -> bool {
        let prefix = &self.tokens[index];
        matches!(self.word(index), "L" | "u" | "U" | "u8")
            && self.tokens.get(index + 1).is_some_and(|literal| {
                matches!(literal.kind, TokenKind::String | TokenKind::Char)
                    && literal.range.start == prefix.range.end
            })
    }

    /// Whether the sign at `index` belongs to the number after it.
    fn sign_joins_number(&self, index: usize) -> bool {
        match self.closes_type() {
            Some(TypeGroup::Cast | TypeGroup::SizeofType) => true,
            // `(a) -1` is a cast of `-1` to the grammar where an operator
            // that binds tighter than `-` follows, a subtraction elsewhere.
            Some(TypeGroup::Name | TypeGroup::SizeofName) => {
                matches!(self.word(index + 2), "*" | "/" | "%")
            }
            None => !self.last_is_value(),
        }
    }

    /// Whether `word` is C++'s `->` after a `)` (or `const`, `mutable`, …):
    /// a trailing return type
    /// (`[](int x) -> bool`), not an operator where an operand belongs.
    fn trailing_return(&self, word: &str) -> bool {
        word == "->"
            && self.dialect.lang == Language::Cpp
            && self
                .context()
                .last()
                .is_some_and(|last| ends_declarator(&self.text[last.range.clone()]))
    }

    /// Whether the last token pushed is C++'s `->` after a `)`.
    fn after_trailing_return(&self) -> bool {
        let context = self.context();
        self.dialect.lang == Language::Cpp
            && context.len() >= 2
            && ends_declarator(&self.text[context[context.len() - 2].range.clone()])
    }

    /// Whether `token` is a `>` that closes template arguments.
    fn closes_template(&self, token: &Token) -> bool {
        self.value_closers.binary_search(&token.range.start).is_ok()
    }

    /// Whether the last token pushed ends an operand, after which `-1` is
    /// a subtraction.
    fn last_is_value(&self) -> bool {
        self.context().last().is_some_and(|token| {
            let word = &self.text[token.range.clone()];
            match token.kind {
                TokenKind::Identifier | TokenKind::Number | TokenKind::String | TokenKind::Char => {
                    true
                }
                TokenKind::Punctuation => {
                    matches!(word, ")" | "]")
                }
                TokenKind::Keyword => VALUE_WORDS.contains(&word),
                TokenKind::Operator => self.closes_template(token),
            }
        })
    }
}

/// Whether a C++ `->` after `word` starts a trailing return type: after
/// a function's or lambda's `)` or a qualifier of it.
fn ends_declarator(word: &str) -> bool {
    matches!(word, ")" | "mutable" | "const" | "noexcept" | "volatile")
}

/// One past the last of `tokens` on the line on which the token at
/// `first` stands, lines joined by `\`.
pub(super) fn line_end(text: &str, tokens: &[Token], first: usize) -> usize {
    let mut index = first + 1;
    while index < tokens.len() {
        let gap = &text[tokens[index - 1].range.end..tokens[index].range.start];
        let continued =
            &text[tokens[index - 1].range.clone()] == "\\" && gap.matches('\n').count() == 1;
        if gap.contains('\n') && !continued {
            break;
        }
        index += 1;
    }
    index
}

/// The length of the grammar's number literal at the start of `bytes`
/// (a digit, or `.` and a digit): its longest match of digits with `'`
/// separators, radix prefix, fraction (hex digits after the point),
/// exponent and suffix letters.
pub(super) fn number_len(bytes: &[u8]) -> usize {
    let is_hex = |b: u8| b.is_ascii_hexdigit();
    let is_decimal = |b: u8| b.is_ascii_digit();
    let digits = |at: usize, digit: &dyn Fn(u8) -> bool| {
        let mut at = at;
        while at < bytes.len() && digit(bytes[at]) {
            at += 1;
            if bytes.get(at) == Some(&b'\'') && bytes.get(at + 1).is_some_and(|&b| digit(b)) {
                at += 1;
            }
        }
        at
    };
    let exponent_and_suffix = |at: usize| {
        let mut at = at;
        if bytes.get(at).is_some_and(|b| b"eEpP".contains(b)) {
            at += 1;
            let signed = usize::from(bytes.get(at).is_some_and(|b| b"+-".contains(b)));
            if bytes.get(at + signed).is_some_and(|&b| is_hex(b)) {
                at = digits(at + signed, &is_hex);
            }
        }
        while bytes.get(at).is_some_and(|b| b"uUlLwWfFbBdD".contains(b)) {
            at += 1;
        }
        at
    };
    if bytes.first() == Some(&b'.') {
        return exponent_and_suffix(digits(1, &is_decimal));
    }
    let radix = bytes.len() > 1 && bytes[0] == b'0' && b"xXbB".contains(&bytes[1]);
    let hex = radix && b"xX".contains(&bytes[1]);
    let integer = if hex {
        digits(2, &is_hex)
    } else {
        digits(usize::from(radix) * 2, &is_decimal)
    };
    if bytes.get(integer) != Some(&b'.') {
        return exponent_and_suffix(integer);
    }
    // After the point, hex digits or decimal digits and an exponent: the
    // longer reading wins (`1.5e3`, `1.5e-3`, `2.f`).
    let as_hex = exponent_and_suffix(digits(integer + 1, &is_hex));
    let as_decimal = exponent_and_suffix(digits(integer + 1, &is_decimal));
    as_hex.max(as_decimal).max(integer + 1)
}
