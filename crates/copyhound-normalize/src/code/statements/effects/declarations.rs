//! Declarations of Java, C, C++ and C#: where a statement's type ends and
//! which tokens name what it declares.

use std::ops::Range;

use super::super::syntax::Source;
use super::Dialect;
use super::words::{DECLARATION_PREFIXES, TYPE_KEYWORDS};
use crate::code::token::TokenKind;

/// A declaration's type tokens and the tokens naming what it declares.
pub(super) struct Declaration {
    pub(super) type_tokens: Range<usize>,
    pub(super) names: Vec<usize>,
}

/// The declaration `range` is, if it is one: `[modifiers] Type name [=
/// init] {, name [= init]}` (Java, C#), with C's and C++'s qualifiers,
/// `*` and `&` declarators, `T x(args)` and `T x{init}` too; the `for`
/// form `Type name : xs` included.
pub(super) fn declaration(
    source: &Source<'_>,
    dialect: Dialect,
    range: Range<usize>,
) -> Option<Declaration> {
    let mut at = range.start;
    // Whether the prefixes already name a type (`unsigned`, `struct P`).
    let mut typed = false;
    while at < range.end {
        let word = source.word(at);
        if word == "@" && source.is_identifier(at + 1) {
            at += 2;
            while source.word(at) == "." && source.is_identifier(at + 1) {
                at += 2;
            }
            if source.word(at) == "(" {
                at = source.partner(at)? + 1;
            }
            continue;
        }
        if !(DECLARATION_PREFIXES.contains(&word) && source.kind(at) == Some(TokenKind::Keyword)) {
            break;
        }
        typed |= matches!(word, "unsigned" | "signed" | "long" | "short");
        at += 1;
        if matches!(word, "struct" | "union" | "enum") && source.is_identifier(at) {
            at += 1;
            typed = true;
        }
    }
    let base = at;
    let is_type_keyword = |i: usize| {
        source.kind(i) == Some(TokenKind::Keyword) && TYPE_KEYWORDS.contains(&source.word(i))
    };
    let declarator_end =
        |i: usize| matches!(source.word(i), "=" | ";" | "," | "[") || i >= range.end;
    if is_type_keyword(at) {
        while is_type_keyword(at) {
            at += 1;
        }
    } else if source.is_identifier(at) && !(typed && declarator_end(at + 1)) {
        at += 1;
        while matches!(source.word(at), "." | "::") && source.is_identifier(at + 1) {
            at += 2;
        }
    } else if !typed {
        return None;
    }
    if source.word(at) == "<" {
        at = angle_end(source, at, range.end)? + 1;
    }
    while source.word(at) == "[" && source.word(at + 1) == "]" {
        at += 2;
    }
    if dialect != Dialect::Java {
        while matches!(source.word(at), "*" | "&" | "&&") {
            at += 1;
        }
    }
    let type_tokens = range.start..at;
    let first = at;
    if first >= range.end || !source.is_identifier(first) || (first == base && !typed) {
        return None;
    }
    let follows = source.word(first + 1);
    let declares = first + 1 >= range.end
        || matches!(follows, "=" | ";" | "," | "[" | ":" | "in")
        || (dialect != Dialect::Java && matches!(follows, "(" | "{"));
    if !declares {
        return None;
    }
    // Each declarator: its first name, after any `*`, `&` or `const`.
    let mut names = vec![first];
    let mut index = first + 1;
    while index < range.end {
        match source.word(index) {
            "," => {
                let mut name = index + 1;
                while matches!(source.word(name), "*" | "&" | "&&" | "const") {
                    name += 1;
                }
                let ends = name + 1 >= range.end
                    || matches!(source.word(name + 1), "=" | ";" | "," | "[" | "(" | "{");
                if source.is_identifier(name) && ends {
                    names.push(name);
                }
            }
            ":" | "in" => break,
            _ => {}
        }
        index = match source.partner(index) {
            Some(close) if close > index && close < range.end => close + 1,
            _ => index + 1,
        };
    }
    Some(Declaration { type_tokens, names })
}

/// The `>` that closes type arguments opened at `open`, if what lies
/// between can be types.
pub(super) fn angle_end(source: &Source<'_>, open: usize, end: usize) -> Option<usize> {
    let mut depth = 0usize;
    for index in open..end.min(open + 128) {
        match source.word(index) {
            "<" => depth += 1,
            ">" => {
                depth -= 1;
                if depth == 0 {
                    return Some(index);
                }
            }
            ">>" if depth >= 2 => {
                depth -= 2;
                if depth == 0 {
                    return Some(index);
                }
            }
            "," | "." | "?" | "::" | "[" | "]" | "&" | "*" | "extends" | "super" => {}
            _ if source.is_identifier(index)
                || (source.kind(index) == Some(TokenKind::Keyword)
                    && TYPE_KEYWORDS.contains(&source.word(index))) => {}
            _ => return None,
        }
    }
    None
}
