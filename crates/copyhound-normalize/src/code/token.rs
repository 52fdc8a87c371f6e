//! Tokens, the classes they fall in, and the symbol each becomes at each
//! [`Level`].
//!
//! Symbols below [`FIRST_TEXT_SYMBOL`] are reserved for token classes
//! ([`TokenKind::class_symbol`]); a token kept by its text gets a stable id
//! at or above it ([`text_symbol`]), the same on every machine and run.

use std::ops::Range;

use crate::Symbol;

use super::Level;

/// What a token is, as far as copy detection cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TokenKind {
    /// A reserved word of the language, including words the grammar treats
    /// as fixed names (`true`, `null`, `this`, primitive types such as `int`).
    Keyword,
    /// A name chosen by the programmer: variables, functions, types,
    /// fields, labels, modules. All of them become `V` from [`Level::Rename`] on.
    Identifier,
    /// An operator: `+`, `==`, `->`, `:=`, …
    Operator,
    /// A bracket or separator: `(`, `]`, `{`, `,`, `;`, `:`, `.`.
    Punctuation,
    /// A number literal.
    Number,
    /// A string literal, or one literal piece of an interpolated string.
    String,
    /// A character literal.
    Char,
}

impl TokenKind {
    /// The reserved symbol that stands for this whole class.
    pub fn class_symbol(self) -> Symbol {
        match self {
            TokenKind::Identifier => 1,
            TokenKind::Keyword => 2,
            TokenKind::Operator => 3,
            TokenKind::Punctuation => 4,
            TokenKind::Number => 5,
            TokenKind::String => 6,
            TokenKind::Char => 7,
        }
    }

    /// A short lower-case label, used when printing token streams.
    pub fn label(self) -> &'static str {
        match self {
            TokenKind::Keyword => "keyword",
            TokenKind::Identifier => "ident",
            TokenKind::Operator => "op",
            TokenKind::Punctuation => "punct",
            TokenKind::Number => "number",
            TokenKind::String => "string",
            TokenKind::Char => "char",
        }
    }

    /// Whether this is a literal (number, string or character).
    pub fn is_literal(self) -> bool {
        matches!(
            self,
            TokenKind::Number | TokenKind::String | TokenKind::Char
        )
    }

    /// The kind of a bracket, separator or operator spelled `text`.
    pub(crate) fn of_symbol_text(text: &str) -> TokenKind {
        match text {
            "(" | ")" | "[" | "]" | "{" | "}" | "," | ";" | ":" | "." => TokenKind::Punctuation,
            _ => TokenKind::Operator,
        }
    }
}

/// One token: its kind and the bytes of the source it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub kind: TokenKind,
    /// Its bytes in the source text.
    pub range: Range<usize>,
}

/// Symbols below this are token classes; text-derived symbols are at or
/// above it.
pub const FIRST_TEXT_SYMBOL: Symbol = 64;

/// The symbol of a token at `level`. `fold_case` lower-cases the text of
/// everything but string and character literals first (case-insensitive
/// languages).
pub fn token_symbol(kind: TokenKind, text: &str, level: Level, fold_case: bool) -> Symbol {
    let keep_text = match level {
        Level::Exact => true,
        Level::Rename => kind != TokenKind::Identifier,
        Level::Abstract => !(kind == TokenKind::Identifier || kind.is_literal()),
        Level::Structure => false,
    };
    if !keep_text {
        return kind.class_symbol();
    }
    if fold_case && !matches!(kind, TokenKind::String | TokenKind::Char) {
        text_symbol_folded(text)
    } else {
        text_symbol(text)
    }
}

/// The stable id of a token's text: FNV-1a over the bytes, folded into
/// `u32` and moved above the reserved class ids.
///
/// A fixed function (not a per-process random hasher) so that the same
/// token gets the same symbol in every run, on every machine, and in a
/// database built yesterday.
pub fn text_symbol(text: &str) -> Symbol {
    finish(text.bytes().fold(FNV_OFFSET, fnv_step))
}

/// [`text_symbol`] of the lower-cased text, without allocating.
fn text_symbol_folded(text: &str) -> Symbol {
    let mut state = FNV_OFFSET;
    let mut buf = [0u8; 4];
    for c in text.chars() {
        for lower in c.to_lowercase() {
            state = lower.encode_utf8(&mut buf).bytes().fold(state, fnv_step);
        }
    }
    finish(state)
}

pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

pub(crate) fn fnv_step(state: u64, byte: u8) -> u64 {
    (state ^ u64::from(byte)).wrapping_mul(FNV_PRIME)
}

fn finish(state: u64) -> Symbol {
    let folded = (state ^ (state >> 32)) as u32;
    FIRST_TEXT_SYMBOL + folded % (u32::MAX - FIRST_TEXT_SYMBOL + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_symbols_avoid_the_class_ids() {
        for text in ["", "a", "if", "while", "+", "==", "\"hello\"", "42"] {
            assert!(text_symbol(text) >= FIRST_TEXT_SYMBOL);
        }
    }

    #[test]
    fn folding_ignores_case_but_not_for_strings() {
        let upper = token_symbol(TokenKind::Keyword, "BEGIN", Level::Exact, true);
        let lower = token_symbol(TokenKind::Keyword, "begin", Level::Exact, true);
        assert_eq!(upper, lower);
        assert_eq!(lower, text_symbol("begin"));
        let s1 = token_symbol(TokenKind::String, "'A'", Level::Exact, true);
        let s2 = token_symbol(TokenKind::String, "'a'", Level::Exact, true);
        assert_ne!(s1, s2);
    }

    #[test]
    fn levels_forget_more_and_more() {
        let ident = |level| token_symbol(TokenKind::Identifier, "count", level, false);
        let number = |level| token_symbol(TokenKind::Number, "42", level, false);
        let keyword = |level| token_symbol(TokenKind::Keyword, "while", level, false);
        assert_eq!(ident(Level::Exact), text_symbol("count"));
        assert_eq!(ident(Level::Rename), TokenKind::Identifier.class_symbol());
        assert_eq!(number(Level::Rename), text_symbol("42"));
        assert_eq!(number(Level::Abstract), TokenKind::Number.class_symbol());
        assert_eq!(keyword(Level::Abstract), text_symbol("while"));
        assert_eq!(keyword(Level::Structure), TokenKind::Keyword.class_symbol());
    }
}
