//! Cutting C# into the tokens the grammar's lexer and external scanner
//! give: the table lexer's tokens, with the literals it cannot read made
//! whole and the lexer started again after each.
//!
//! One pass over the text: interpolated strings open inside the holes of
//! others are a stack, not a recursion, and each byte is read by the table
//! lexer or by a string's scan, a bounded number of times (a run of `$`
//! and `@` that opens no string is not scanned again from each of its
//! bytes).

use super::super::Language;
use super::super::lexer::{Lexer, lexer};
use super::super::token::{Token, TokenKind};

/// The tokens of `text`, words not yet classed as the grammar classes
/// them:
///
/// - an interpolated string (`$"…{x}…"`, `$@"…"`, `@$"…"`, `$$"""…"""`)
///   is its literal pieces, the braces of each hole and the tokens of the
///   code in it, as the walker gives them (a format clause `:F2` is its
///   `:` alone: the grammar keeps the rest as no node);
/// - a raw string (`"""…"""`, more quotes too) and a verbatim name
///   (`@class`) are one token; `u8` joins the string before it;
/// - `?.` is `?` and `.`, and `..`, `>>>` and `>>>=` are one operator.
pub(super) fn lex(text: &str) -> Vec<Token> {
    let mut scanner = Scanner {
        text,
        table: lexer(Language::CSharp),
        out: Vec::with_capacity(text.len() / 4),
        strings: Vec::new(),
        no_string_before: 0,
    };
    let mut at = 0;
    while at < text.len() {
        at = match scanner.strings.last() {
            Some(string) if string.hole.is_none() => scanner.string_text(at),
            _ => scanner.code(at),
        };
    }
    scanner.out
}

struct Scanner<'a> {
    text: &'a str,
    table: &'static Lexer,
    out: Vec<Token>,
    /// The interpolated strings open, innermost last: each but the last
    /// is in a hole.
    strings: Vec<OpenString>,
    /// Up to here, a `$` or `@` opens no interpolated string: a scan of a
    /// run of them found none.
    no_string_before: usize,
}

/// An interpolated string being read.
struct OpenString {
    shape: Interpolated,
    /// Where the piece of its text being read starts.
    chunk_start: usize,
    /// The hole being read, if the code of one is.
    hole: Option<Hole>,
}

/// The hole of an interpolated string whose code is being read.
struct Hole {
    /// Braces that opened it (a raw string's holes open with as many as
    /// the string has `$` signs), the most that close it.
    braces: usize,
    /// Brackets open in its code.
    depth: usize,
}

/// The shape of an interpolated string.
struct Interpolated {
    /// `$` signs: a raw string's holes open with as many braces.
    dollars: usize,
    verbatim: bool,
    /// Quotes of a raw string (3 or more); 0 for a quoted one.
    raw_quotes: usize,
}

/// What comes next in an interpolated string's text.
enum Next {
    /// The string ends here (after its closing quotes).
    End(usize),
    /// Text of the string; go on from here.
    Skip(usize),
    /// A hole opens here with this many braces.
    Open(usize, usize),
}

impl Scanner<'_> {
    /// Reads code from `start` (at the top level or in a hole) until a
    /// literal the table cannot read starts, the hole closes or the text
    /// ends; where reading goes on.
    fn code(&mut self, start: usize) -> usize {
        let text = self.text;
        for token in self.table.tokens(text, start..text.len()) {
            let word = &text[token.range.clone()];
            if let Some(hole) = self.strings.last_mut().and_then(|s| s.hole.as_mut()) {
                match word {
                    "(" | "[" | "{" => hole.depth += 1,
                    ")" | "]" if hole.depth > 0 => hole.depth -= 1,
                    "}" if hole.depth == 0 => return self.close_hole(token.range.start),
                    "}" => hole.depth -= 1,
                    ":" if hole.depth == 0 => {
                        self.out.push(token.clone());
                        let close = text[token.range.end..]
                            .find('}')
                            .map_or(text.len(), |len| token.range.end + len);
                        return self.close_hole(close);
                    }
                    _ => {}
                }
            }
            if let Some(end) = self.special(&token) {
                return end;
            }
            join_or_push(text, token, &mut self.out);
        }
        text.len()
    }

    /// Reads what starts at `token` if the table cannot: pushes its tokens
    /// (or opens its string) and returns where reading goes on.
    fn special(&mut self, token: &Token) -> Option<usize> {
        let text = self.text;
        let bytes = text.as_bytes();
        let at = token.range.start;
        match &text[token.range.clone()] {
            "$" | "@" => {
                if let Some(end) = self.open_interpolated(at) {
                    return Some(end);
                }
                if bytes[at] != b'@' {
                    return None;
                }
                let word = text[at + 1..]
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .map_or(text.len(), |len| at + 1 + len);
                (word > at + 1).then(|| {
                    push(&mut self.out, TokenKind::Identifier, at..word);
                    word
                })
            }
            "." if bytes.get(at + 1) == Some(&b'.') => {
                push(&mut self.out, TokenKind::Operator, at..at + 2);
                Some(at + 2)
            }
            word if token.kind == TokenKind::String && word.starts_with("\"\"\"") => {
                let end = raw_string_end(bytes, at);
                push(&mut self.out, TokenKind::String, at..end);
                Some(end)
            }
            _ => None,
        }
    }

    /// If an interpolated string starts at `start`, opens it and returns
    /// where its text starts.
    fn open_interpolated(&mut self, start: usize) -> Option<usize> {
        if start < self.no_string_before {
            return None;
        }
        let bytes = self.text.as_bytes();
        let mut at = start;
        let (mut dollars, mut verbatim) = (0, None);
        while at < bytes.len() {
            match bytes[at] {
                b'$' => dollars += 1,
                b'@' if verbatim.is_none() => verbatim = Some(at),
                _ => break,
            }
            at += 1;
        }
        if dollars == 0 || bytes.get(at) != Some(&b'"') {
            // A scan from any later byte of the run stops at the same byte,
            // unless it starts after the `@` and a second `@` stopped this
            // one.
            self.no_string_before = match (verbatim, bytes.get(at)) {
                (Some(first), Some(b'@')) => first + 1,
                _ => at,
            };
            return None;
        }
        let quotes = run(bytes, at, b'"');
        let shape = Interpolated {
            dollars,
            verbatim: verbatim.is_some(),
            raw_quotes: if quotes >= 3 { quotes } else { 0 },
        };
        at += if shape.raw_quotes > 0 { quotes } else { 1 };
        self.strings.push(OpenString {
            shape,
            chunk_start: start,
            hole: None,
        });
        Some(at)
    }

    /// Reads the text of the innermost string from `start` until a hole
    /// opens or the string ends; where reading goes on.
    fn string_text(&mut self, start: usize) -> usize {
        let bytes = self.text.as_bytes();
        let string = self.strings.last_mut().expect("a string is open");
        let mut at = start;
        while at < bytes.len() {
            match string.shape.next(bytes, at) {
                Next::End(end) => {
                    if string.chunk_start < end {
                        push(&mut self.out, TokenKind::String, string.chunk_start..end);
                    }
                    self.strings.pop();
                    return end;
                }
                Next::Skip(next) => at = next,
                Next::Open(open, braces) => {
                    if string.chunk_start < open {
                        push(&mut self.out, TokenKind::String, string.chunk_start..open);
                    }
                    push(&mut self.out, brace_kind(braces), open..open + braces);
                    string.hole = Some(Hole { braces, depth: 0 });
                    return open + braces;
                }
            }
        }
        if string.chunk_start < bytes.len() {
            push(
                &mut self.out,
                TokenKind::String,
                string.chunk_start..bytes.len(),
            );
        }
        self.strings.pop();
        bytes.len()
    }

    /// Closes the hole of the innermost string with the braces at `close`
    /// (as many as opened it, or fewer); where its text goes on.
    fn close_hole(&mut self, close: usize) -> usize {
        let string = self.strings.last_mut().expect("a string is open");
        let braces = string.hole.take().map_or(1, |hole| hole.braces);
        let closing = run(self.text.as_bytes(), close, b'}').min(braces);
        if closing > 0 {
            push(&mut self.out, brace_kind(braces), close..close + closing);
        }
        string.chunk_start = close + closing;
        close + closing
    }
}

/// A hole's braces: one is punctuation, more (a raw string's `{{`) an
/// operator.
fn brace_kind(braces: usize) -> TokenKind {
    if braces == 1 {
        TokenKind::Punctuation
    } else {
        TokenKind::Operator
    }
}

/// Pushes `token`, joined with the token before where the grammar reads
/// one (`"…"u8`, `>>>`), or split where it reads two (`?.`).
fn join_or_push(text: &str, token: Token, out: &mut Vec<Token>) {
    let word = &text[token.range.clone()];
    if let Some(last) = out.last_mut()
        && last.range.end == token.range.start
    {
        let last_word = &text[last.range.clone()];
        let joins = match word {
            "u8" | "U8" => last.kind == TokenKind::String,
            ">" | ">=" => last_word == ">>",
            _ => false,
        };
        if joins {
            last.range.end = token.range.end;
            return;
        }
    }
    if word == "?." {
        let at = token.range.start;
        push(out, TokenKind::Operator, at..at + 1);
        push(out, TokenKind::Punctuation, at + 1..at + 2);
        return;
    }
    out.push(token);
}

fn push(out: &mut Vec<Token>, kind: TokenKind, range: std::ops::Range<usize>) {
    out.push(Token { kind, range });
}

/// The number of `byte`s in a row at `at`.
fn run(bytes: &[u8], at: usize, byte: u8) -> usize {
    bytes[at.min(bytes.len())..]
        .iter()
        .take_while(|&&b| b == byte)
        .count()
}

/// The end of the raw string whose quotes start at `at`: after as many
/// quotes as opened it (or the end, if none close it).
fn raw_string_end(bytes: &[u8], at: usize) -> usize {
    let quotes = run(bytes, at, b'"');
    let mut end = at + quotes;
    while end < bytes.len() {
        if bytes[end] == b'"' {
            let closing = run(bytes, end, b'"');
            if closing >= quotes {
                return end + closing;
            }
            end += closing;
        } else {
            end += 1;
        }
    }
    bytes.len()
}

impl Interpolated {
    fn next(&self, bytes: &[u8], at: usize) -> Next {
        match bytes[at] {
            b'"' if self.raw_quotes > 0 => {
                let quotes = run(bytes, at, b'"');
                if quotes >= self.raw_quotes {
                    Next::End(at + quotes)
                } else {
                    Next::Skip(at + quotes)
                }
            }
            b'"' if self.verbatim && bytes.get(at + 1) == Some(&b'"') => Next::Skip(at + 2),
            b'"' => Next::End(at + 1),
            b'\\' if !self.verbatim && self.raw_quotes == 0 => {
                Next::Skip((at + 2).min(bytes.len()))
            }
            b'\n' if !self.verbatim && self.raw_quotes == 0 => Next::End(at),
            b'{' if self.raw_quotes > 0 => {
                // A run of braces twice as long as the `$` signs or longer
                // is text to the grammar's scanner.
                let braces = run(bytes, at, b'{');
                if braces >= self.dollars && braces < 2 * self.dollars {
                    Next::Open(at + braces - self.dollars, self.dollars)
                } else {
                    Next::Skip(at + braces)
                }
            }
            b'{' if bytes.get(at + 1) == Some(&b'{') => Next::Skip(at + 2),
            b'{' => Next::Open(at, 1),
            _ => Next::Skip(at + 1),
        }
    }
}
