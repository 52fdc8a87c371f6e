//! The table-driven lexer: one engine, one [`LexSpec`] table per language.
//!
//! It reads identifiers, numbers, strings with their escape rules, comments
//! (line, block, nested), keywords and operators (longest match first). It
//! never fails: a byte it cannot place becomes a one-character operator.
//! It serves the long tail of languages without a tree-sitter grammar, the
//! tree-sitter languages whose grammar feature is off, and the pieces of a
//! syntax tree that the grammar leaves as raw text (macro bodies, error
//! leaves).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use super::Language;
use super::specs::{Escape, IdentRule, LexSpec, StringRule, spec};
use super::token::{FNV_OFFSET, Token, TokenKind, fnv_step};

/// A [`LexSpec`] made ready for matching.
pub(crate) struct Lexer {
    spec: &'static LexSpec,
    keywords: WordSet,
    /// Operators by first byte, longest first.
    operators: Vec<Vec<&'static str>>,
    /// By byte: whether a comment or a string may start with it (either
    /// case for word markers). Most tokens start with neither, and this
    /// spares them a test of every marker.
    may_open: [bool; 256],
}

/// The lexer of `lang`, built once per process.
pub(crate) fn lexer(lang: Language) -> &'static Lexer {
    static LEXERS: [OnceLock<Lexer>; 64] = [const { OnceLock::new() }; 64];
    LEXERS[lang as usize].get_or_init(|| Lexer::new(spec(lang)))
}

impl Lexer {
    fn new(spec: &'static LexSpec) -> Self {
        let mut operators = vec![Vec::new(); 256];
        for &op in spec.operators {
            operators[usize::from(op.as_bytes()[0])].push(op);
        }
        for bucket in &mut operators {
            bucket.sort_by_key(|op: &&str| std::cmp::Reverse(op.len()));
        }
        let mut may_open = [false; 256];
        let markers = spec.line_comments.iter().chain(spec.line_start_comments);
        let openings = spec.block_comments.iter().map(|(open, _)| open);
        let strings = spec.strings.iter().map(|rule| &rule.open);
        for marker in markers.chain(openings).chain(strings) {
            let first = marker.as_bytes()[0];
            may_open[usize::from(first.to_ascii_lowercase())] = true;
            may_open[usize::from(first.to_ascii_uppercase())] = true;
        }
        Self {
            spec,
            keywords: spec.keywords.iter().copied().collect(),
            operators,
            may_open,
        }
    }

    /// Whether a comment or string may start at `rest`.
    fn may_open(&self, rest: &str) -> bool {
        rest.as_bytes()
            .first()
            .is_some_and(|&b| self.may_open[usize::from(b)])
    }

    /// Whether identifiers and keywords compare without case.
    pub(crate) fn case_insensitive(&self) -> bool {
        self.spec.case_insensitive
    }

    /// Appends the tokens of `text[range]` to `out`; token ranges are
    /// offsets into the whole `text`.
    pub(crate) fn tokenize_into(
        &self,
        text: &str,
        range: std::ops::Range<usize>,
        out: &mut Vec<Token>,
    ) {
        out.extend(self.tokens(text, range));
    }

    /// The tokens of `text[range]` one at a time, for a reader that may
    /// stop and start again elsewhere (after a literal whose end only it
    /// can find, such as a C++ raw string).
    pub(crate) fn tokens<'a>(
        &'a self,
        text: &'a str,
        range: std::ops::Range<usize>,
    ) -> impl Iterator<Item = Token> + 'a {
        let mut cursor = Cursor {
            lexer: self,
            text,
            end: range.end,
            at: range.start,
            last_was_value: false,
        };
        std::iter::from_fn(move || cursor.next_token())
    }

    /// Removes the tokens of import lines: lines whose first word is one of
    /// the language's import words, or which mention one of its `require`
    /// words anywhere. A line that opens a bracket runs on until it closes.
    pub(crate) fn drop_import_lines(&self, text: &str, tokens: &mut Vec<Token>) {
        if self.spec.import_words.is_empty() && self.spec.require_words.is_empty() {
            return;
        }
        let mut kept = Vec::with_capacity(tokens.len());
        let mut line_start = 0;
        while line_start < tokens.len() {
            let line_end = logical_line_end(text, tokens, line_start);
            let line = &tokens[line_start..line_end];
            if !self.is_import_line(text, line) {
                kept.extend_from_slice(line);
            }
            line_start = line_end;
        }
        *tokens = kept;
    }

    fn is_import_line(&self, text: &str, line: &[Token]) -> bool {
        let word = |token: &Token| {
            let word = &text[token.range.clone()];
            if self.spec.case_insensitive {
                word.to_lowercase()
            } else {
                word.to_owned()
            }
        };
        let first_word = line
            .iter()
            .find(|token| !matches!(token.kind, TokenKind::Operator | TokenKind::Punctuation));
        first_word.is_some_and(|token| self.spec.import_words.contains(&word(token).as_str()))
            || line.iter().any(|token| {
                matches!(token.kind, TokenKind::Identifier | TokenKind::Keyword)
                    && self.spec.require_words.contains(&word(token).as_str())
            })
    }

    fn is_keyword(&self, word: &str) -> bool {
        if self.spec.case_insensitive || self.spec.keywords_ignore_case {
            self.keywords.contains(word.to_lowercase().as_str())
        } else {
            self.keywords.contains(word)
        }
    }
}

/// The end of `d(_?d)*` from `at` for digits `d`, or `at` if none starts
/// there.
pub(crate) fn digits_len(rest: &[u8], at: usize, digit: fn(&u8) -> bool) -> usize {
    if !rest.get(at).is_some_and(digit) {
        return at;
    }
    let mut end = at + 1;
    loop {
        if rest.get(end).is_some_and(digit) {
            end += 1;
        } else if rest.get(end) == Some(&b'_') && rest.get(end + 1).is_some_and(digit) {
            end += 2;
        } else {
            return end;
        }
    }
}

/// The opening bracket that `close` (`)`, `]` or `}`) closes.
pub(crate) fn opening_bracket(close: u8) -> u8 {
    match close {
        b')' => b'(',
        b']' => b'[',
        _ => b'{',
    }
}

/// FNV-1a (the step token symbols use) for the keyword set: every word of the source is looked up, and
/// the default hasher (`SipHash`, made to resist chosen keys, which a fixed
/// keyword table need not) cost more than lexing the word.
#[derive(Default)]
pub(crate) struct WordHasher(u64);

/// A set of fixed words, looked up by every word of the source.
pub(crate) type WordSet = HashSet<&'static str, BuildHasherDefault<WordHasher>>;

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let state = if self.0 == 0 { FNV_OFFSET } else { self.0 };
        self.0 = bytes.iter().copied().fold(state, fnv_step);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The reading position of one tokenisation.
struct Cursor<'a> {
    lexer: &'a Lexer,
    text: &'a str,
    end: usize,
    at: usize,
    /// Whether the previous token can end an expression (identifier,
    /// literal, closing bracket): then `'` is a transpose or attribute tick,
    /// not a quote.
    last_was_value: bool,
}

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..self.end]
    }

    fn at_line_start(&self) -> bool {
        self.text[..self.at]
            .rsplit('\n')
            .next()
            .is_none_or(|before| before.trim().is_empty())
    }

    fn next_token(&mut self) -> Option<Token> {
        loop {
            self.skip_whitespace();
            if self.at >= self.end {
                return None;
            }
            if !self.skip_comment() {
                break;
            }
        }
        let start = self.at;
        let kind = self.read_token();
        debug_assert!(self.at > start, "the lexer must always advance");
        self.last_was_value = match kind {
            TokenKind::Identifier | TokenKind::Number | TokenKind::String | TokenKind::Char => true,
            TokenKind::Punctuation => matches!(&self.text[start..self.at], ")" | "]" | "}"),
            TokenKind::Keyword | TokenKind::Operator => false,
        };
        Some(Token {
            kind,
            range: start..self.at,
        })
    }

    fn skip_whitespace(&mut self) {
        let rest = self.rest();
        let trimmed = rest.trim_start();
        self.at += rest.len() - trimmed.len();
    }

    /// Skips one comment at the cursor; false if there is none.
    fn skip_comment(&mut self) -> bool {
        let spec = self.lexer.spec;
        let rest = self.rest();
        if !self.lexer.may_open(rest) {
            return false;
        }
        for &(open, close) in spec.block_comments {
            if rest.starts_with(open) {
                self.at += block_comment_len(rest, open, close, spec.nested_comments);
                return true;
            }
        }
        let line_comment = spec
            .line_comments
            .iter()
            .any(|marker| starts_with_marker(rest, marker))
            || (spec
                .line_start_comments
                .iter()
                .any(|marker| starts_with_marker(rest, marker))
                && self.at_line_start());
        if line_comment {
            self.at += rest.find('\n').unwrap_or(rest.len());
            return true;
        }
        false
    }

    fn read_token(&mut self) -> TokenKind {
        let rest = self.rest();
        let first = rest.chars().next().expect("not at the end");
        if self.lexer.may_open(rest) {
            for rule in self.lexer.spec.strings {
                if (rule.after_value || !self.last_was_value)
                    && let Some(len) = string_len(rest, rule)
                {
                    self.at += len;
                    return rule.kind;
                }
            }
        }
        let second = rest[first.len_utf8()..].chars().next();
        if first.is_ascii_digit() || (first == '.' && second.is_some_and(|c| c.is_ascii_digit())) {
            self.at += number_len(rest, self.lexer.spec.number_extra);
            return TokenKind::Number;
        }
        if let Some(len) = self.identifier_len(rest) {
            let word = &rest[..len];
            self.at += len;
            return if self.lexer.is_keyword(word) {
                TokenKind::Keyword
            } else if !word.chars().any(|c| c.is_alphanumeric() || c == '_') {
                // A Lisp symbol such as `+` or `<=` is an operator.
                TokenKind::of_symbol_text(word)
            } else {
                TokenKind::Identifier
            };
        }
        let op = self.lexer.operators[usize::from(rest.as_bytes()[0])]
            .iter()
            .find(|op| self.starts_with_operator(rest, op));
        let len = op.map_or(first.len_utf8(), |op| op.len());
        self.at += len;
        TokenKind::of_symbol_text(&rest[..len])
    }

    /// Whether `rest` starts with `op`, ignoring case in languages that do
    /// (Fortran's `.AND.`).
    fn starts_with_operator(&self, rest: &str, op: &str) -> bool {
        if self.lexer.spec.case_insensitive {
            rest.len() >= op.len()
                && rest.is_char_boundary(op.len())
                && rest[..op.len()].eq_ignore_ascii_case(op)
        } else {
            rest.starts_with(op)
        }
    }

    fn identifier_len(&self, rest: &str) -> Option<usize> {
        match self.lexer.spec.ident {
            IdentRule::Standard { start, inner } => {
                let first = rest.chars().next()?;
                if !(first.is_alphabetic() || first == '_' || start.contains(first)) {
                    return None;
                }
                let tail = &rest[first.len_utf8()..];
                let len = tail
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || inner.contains(c)))
                    .unwrap_or(tail.len());
                Some(first.len_utf8() + len)
            }
            IdentRule::Lisp => {
                let len = rest
                    .find(|c: char| c.is_whitespace() || "()[]{}\"';`,".contains(c))
                    .unwrap_or(rest.len());
                (len > 0).then_some(len)
            }
        }
    }
}

/// One past the last token of the logical line starting at `first`.
fn logical_line_end(text: &str, tokens: &[Token], first: usize) -> usize {
    let mut depth = 0i32;
    let mut index = first;
    while index < tokens.len() {
        let token = &tokens[index];
        if index > first && depth <= 0 {
            let gap = &text[tokens[index - 1].range.end..token.range.start];
            if gap.contains('\n') {
                break;
            }
        }
        match &text[token.range.clone()] {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            _ => {}
        }
        index += 1;
    }
    index
}

/// Whether `rest` starts with the comment `marker`; a marker that is a word
/// (`REM`, `C`) must match without case and end at a word boundary.
fn starts_with_marker(rest: &str, marker: &str) -> bool {
    if !marker.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return rest.starts_with(marker);
    }
    rest.len() >= marker.len()
        && rest.is_char_boundary(marker.len())
        && rest[..marker.len()].eq_ignore_ascii_case(marker)
        && !rest[marker.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
}

/// Length of a block comment starting at `rest`; an unterminated comment
/// runs to the end.
fn block_comment_len(rest: &str, open: &str, close: &str, nested: bool) -> usize {
    let mut depth = 0usize;
    let mut at = 0;
    while at < rest.len() {
        let here = &rest[at..];
        if here.starts_with(open) && (nested || depth == 0) {
            depth += 1;
            at += open.len();
        } else if here.starts_with(close) {
            depth -= 1;
            at += close.len();
            if depth == 0 {
                return at;
            }
        } else {
            at += here.chars().next().map_or(1, char::len_utf8);
        }
    }
    rest.len()
}

/// Length of the string literal of `rule` at the start of `rest`, if one
/// starts there. An unterminated string runs to the end of the line (or of
/// the text, for multi-line rules).
fn string_len(rest: &str, rule: &StringRule) -> Option<usize> {
    if !starts_with_marker(rest, rule.open) {
        return None;
    }
    let mut at = rule.open.len();
    let mut chars_seen = 0usize;
    loop {
        let here = &rest[at..];
        if here.is_empty() {
            return rule.max_chars.is_none().then_some(at);
        }
        if let Some(after) = here.strip_prefix(rule.close) {
            if rule.escape == Escape::Doubled && after.starts_with(rule.close) {
                at += 2 * rule.close.len();
                chars_seen += 1;
                continue;
            }
            return Some(at + rule.close.len());
        }
        if rule.max_chars.is_some_and(|max| chars_seen >= max) {
            return None;
        }
        let c = here.chars().next().expect("not empty");
        if c == '\n' && !rule.multiline {
            return rule.max_chars.is_none().then_some(at);
        }
        at += c.len_utf8();
        if rule.escape == Escape::Backslash && c == '\\' {
            at += here[1..].chars().next().map_or(0, char::len_utf8);
        }
        chars_seen += 1;
    }
}

/// Length of the number at the start of `rest`: digits, letters (radix
/// prefixes, suffixes, hex digits), `_`, a `.` followed by a digit, a sign
/// after an exponent, and the language's `extra` characters (`#` in Ada,
/// `'` in Verilog).
fn number_len(rest: &str, extra: &str) -> usize {
    let bytes = rest.as_bytes();
    let hex = rest.starts_with("0x") || rest.starts_with("0X");
    let mut at = 0;
    while at < bytes.len() {
        let c = bytes[at] as char;
        let next_is_digit = bytes.get(at + 1).is_some_and(u8::is_ascii_digit);
        let ok = c.is_ascii_alphanumeric()
            || c == '_'
            || (c == '.' && next_is_digit)
            || ((c == '+' || c == '-') && !hex && at > 0 && matches!(bytes[at - 1], b'e' | b'E'))
            || (c.is_ascii() && extra.contains(c));
        if !ok {
            break;
        }
        at += 1;
    }
    at.max(1)
}
