//! Cutting C# into the tokens the grammar's lexer and external scanner
//! give: the table lexer's tokens, with the literals it cannot read made
//! whole and the lexer started again after each.

use super::super::Language;
use super::super::lexer::lexer;
use super::super::token::{Token, TokenKind};

/// The tokens of `text`, words not yet classed as the grammar classes
/// them.
pub(super) fn lex(text: &str) -> Vec<Token> {
    let mut out = Vec::with_capacity(text.len() / 4);
    lex_into(text, 0..text.len(), &mut out);
    out
}

/// Appends the tokens of `text[range]` to `out`: the table's, but
///
/// - an interpolated string (`$"…{x}…"`, `$@"…"`, `@$"…"`, `$$"""…"""`)
///   is its literal pieces, the braces of each hole and the tokens of the
///   code in it, as the walker gives them (a format clause `:F2` is its
///   `:` alone: the grammar keeps the rest as no node);
/// - a raw string (`"""…"""`, more quotes too) and a verbatim name
///   (`@class`) are one token; `u8` joins the string before it;
/// - `?.` is `?` and `.`, and `..`, `>>>` and `>>>=` are one operator.
fn lex_into(text: &str, range: std::ops::Range<usize>, out: &mut Vec<Token>) {
    let table = lexer(Language::CSharp);
    let mut start = range.start;
    'lexing: loop {
        for token in table.tokens(text, start..range.end) {
            if let Some(end) = special(text, &token, range.end, out) {
                start = end;
                continue 'lexing;
            }
            join_or_push(text, token, out);
        }
        return;
    }
}

/// Reads what starts at `token` if the table cannot: pushes its tokens and
/// returns where lexing goes on.
fn special(text: &str, token: &Token, limit: usize, out: &mut Vec<Token>) -> Option<usize> {
    let bytes = text.as_bytes();
    let at = token.range.start;
    match &text[token.range.clone()] {
        "$" | "@" => {
            if let Some(end) = interpolated(text, at, limit, out) {
                return Some(end);
            }
            let word = text[at + 1..limit]
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .map_or(limit, |len| at + 1 + len);
            (bytes[at] == b'@' && word > at + 1).then(|| {
                push(out, TokenKind::Identifier, at..word);
                word
            })
        }
        "." if bytes.get(at + 1) == Some(&b'.') => {
            push(out, TokenKind::Operator, at..at + 2);
            Some(at + 2)
        }
        word if token.kind == TokenKind::String && word.starts_with("\"\"\"") => {
            let end = raw_string_end(text, at, limit);
            push(out, TokenKind::String, at..end);
            Some(end)
        }
        _ => None,
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
fn raw_string_end(text: &str, at: usize, limit: usize) -> usize {
    let bytes = &text.as_bytes()[..limit];
    let quotes = run(bytes, at, b'"');
    let mut end = at + quotes;
    while end < limit {
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
    limit
}

/// The shape of an interpolated string.
struct Interpolated {
    /// `$` signs: a raw string's holes open with as many braces.
    dollars: usize,
    verbatim: bool,
    /// Quotes of a raw string (3 or more); 0 for a quoted one.
    raw_quotes: usize,
}

/// If an interpolated string starts at `start`, pushes its pieces and
/// the tokens of its holes and returns its end.
fn interpolated(text: &str, start: usize, limit: usize, out: &mut Vec<Token>) -> Option<usize> {
    let bytes = &text.as_bytes()[..limit];
    let mut at = start;
    let (mut dollars, mut verbatim) = (0, false);
    while at < limit {
        match bytes[at] {
            b'$' => dollars += 1,
            b'@' if !verbatim => verbatim = true,
            _ => break,
        }
        at += 1;
    }
    if dollars == 0 || bytes.get(at) != Some(&b'"') {
        return None;
    }
    let quotes = run(bytes, at, b'"');
    let shape = Interpolated {
        dollars,
        verbatim,
        raw_quotes: if quotes >= 3 { quotes } else { 0 },
    };
    at += if shape.raw_quotes > 0 { quotes } else { 1 };
    let mut chunk_start = start;
    while at < limit {
        let (open, braces) = match shape.next_hole(bytes, at) {
            Hole::End(end) => {
                push(out, TokenKind::String, chunk_start..end);
                return Some(end);
            }
            Hole::Skip(next) => {
                at = next;
                continue;
            }
            Hole::Open(open, braces) => (open, braces),
        };
        if chunk_start < open {
            push(out, TokenKind::String, chunk_start..open);
        }
        let brace = if braces == 1 {
            TokenKind::Punctuation
        } else {
            TokenKind::Operator
        };
        push(out, brace, open..open + braces);
        let code = open + braces;
        let (code_end, format) = hole_end(text, code, limit);
        lex_into(text, code..code_end, out);
        let mut close = code_end;
        if format {
            push(out, TokenKind::Punctuation, code_end..code_end + 1);
            close = text[code_end..limit]
                .find('}')
                .map_or(limit, |len| code_end + len);
        }
        let closing = run(bytes, close, b'}').min(braces);
        if closing > 0 {
            push(out, brace, close..close + closing);
        }
        at = close + closing;
        chunk_start = at;
    }
    if chunk_start < limit {
        push(out, TokenKind::String, chunk_start..limit);
    }
    Some(limit)
}

/// What comes next in an interpolated string's text.
enum Hole {
    /// The string ends here (after its closing quotes).
    End(usize),
    /// Text of the string; go on from here.
    Skip(usize),
    /// A hole opens here with this many braces.
    Open(usize, usize),
}

impl Interpolated {
    fn next_hole(&self, bytes: &[u8], at: usize) -> Hole {
        match bytes[at] {
            b'"' if self.raw_quotes > 0 => {
                let quotes = run(bytes, at, b'"');
                if quotes >= self.raw_quotes {
                    Hole::End(at + quotes)
                } else {
                    Hole::Skip(at + quotes)
                }
            }
            b'"' if self.verbatim && bytes.get(at + 1) == Some(&b'"') => Hole::Skip(at + 2),
            b'"' => Hole::End(at + 1),
            b'\\' if !self.verbatim && self.raw_quotes == 0 => {
                Hole::Skip((at + 2).min(bytes.len()))
            }
            b'\n' if !self.verbatim && self.raw_quotes == 0 => Hole::End(at),
            b'{' if self.raw_quotes > 0 => {
                // A run of braces twice as long as the `$` signs or longer
                // is text to the grammar's scanner.
                let braces = run(bytes, at, b'{');
                if braces >= self.dollars && braces < 2 * self.dollars {
                    Hole::Open(at + braces - self.dollars, self.dollars)
                } else {
                    Hole::Skip(at + braces)
                }
            }
            b'{' if bytes.get(at + 1) == Some(&b'{') => Hole::Skip(at + 2),
            b'{' => Hole::Open(at, 1),
            _ => Hole::Skip(at + 1),
        }
    }
}

/// Where the code of a hole that starts at `code` ends, and whether a
/// format clause (`:F2`) follows it there: at a `}` or `:` outside any
/// bracket, string or character literal of the code.
fn hole_end(text: &str, code: usize, limit: usize) -> (usize, bool) {
    let bytes = &text.as_bytes()[..limit];
    let mut depth = 0usize;
    let mut at = code;
    while at < limit {
        match bytes[at] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' if depth > 0 => depth -= 1,
            b'}' if depth == 0 => return (at, false),
            b'}' => depth -= 1,
            b':' if depth == 0 && bytes.get(at + 1) != Some(&b':') => {
                if at > code && bytes[at - 1] == b':' {
                    at += 1;
                    continue;
                }
                return (at, true);
            }
            b'"' | b'\'' | b'$' | b'@' => {
                at = literal_end(text, at, limit);
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    (limit, false)
}

/// The end of the string or character literal at `at` inside a hole (or
/// `at + 1` if none starts there).
fn literal_end(text: &str, at: usize, limit: usize) -> usize {
    let mut scratch = Vec::new();
    if let Some(end) = interpolated(text, at, limit, &mut scratch) {
        return end;
    }
    let bytes = &text.as_bytes()[..limit];
    match bytes[at] {
        b'@' if bytes.get(at + 1) == Some(&b'"') => {
            let mut end = at + 2;
            while end < limit {
                if bytes[end] == b'"' {
                    if bytes.get(end + 1) != Some(&b'"') {
                        return end + 1;
                    }
                    end += 1;
                }
                end += 1;
            }
            limit
        }
        b'"' if run(bytes, at, b'"') >= 3 => raw_string_end(text, at, limit),
        quote @ (b'"' | b'\'') => {
            let mut end = at + 1;
            while end < limit && bytes[end] != quote && bytes[end] != b'\n' {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            (end + 1).min(limit)
        }
        _ => at + 1,
    }
}
