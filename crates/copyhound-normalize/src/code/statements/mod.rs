//! Statement normalisation of a token stream: inside each function, dead
//! statements left out and independent statements put in one canonical
//! order, so that the two cheapest ways to hide a copy — inserting
//! statements that do nothing, and swapping statements that do not depend
//! on each other — leave the symbols unchanged (the idea of Sağlam et al.'s
//! token sequence normalisation, ICSE 2024, done here on tokens).
//!
//! For Java, C, C++, C# (`braces.rs`) and Python (`indent.rs`), the
//! structure a compiler would see is recovered from the tokens: function
//! bodies, statements, nested bodies, and Python's suites from where each
//! token sits in its line. `effects.rs` reads what each statement does by
//! the identifiers' text, before they become `V`; `rewrite.rs` marks the
//! live statements and orders each body.
//!
//! A third rewrite reads a counted loop `for (init; cond; step) body` as the
//! `while` loop it equals, `init; while (cond) { body step; }`: its own
//! tokens in that order, the `for` with the symbol of `while`.
//!
//! Tokens keep their own spans: a moved statement's symbols still point at
//! its own text, so spans stay inside the text and never overlap, but are
//! no longer in increasing order where statements moved. Code outside
//! function bodies (declarations, class bodies) keeps its order, and other
//! languages pass through unchanged; Python's top level is ordered as a
//! function is, but nothing in it is dead, since another module may import
//! what it binds.

mod braces;
mod effects;
mod indent;
mod rewrite;
mod syntax;

use super::Language;
use super::token::Token;
use crate::Symbol;

use effects::{Dialect, Facts};
use rewrite::Emitter;
pub(crate) use rewrite::Rewrite;
use syntax::{Ids, Source};

/// The order of the tokens to keep, as indices into `tokens`, with dead
/// statements left out, independent statements reordered and counted
/// loops read as `while` loops as `rewrite` asks; `None` for a language
/// the pass does not read. `symbols[i]` is token `i`'s symbol, which orders
/// statements; a `for` read as `while` gets `while`'s.
pub(crate) fn rewrite(
    lang: Language,
    text: &str,
    tokens: &[Token],
    symbols: &mut [Symbol],
    rewrite: Rewrite,
) -> Option<Vec<usize>> {
    let dialect = match lang {
        Language::Java => Dialect::Java,
        Language::C => Dialect::C,
        Language::Cpp => Dialect::Cpp,
        Language::CSharp => Dialect::CSharp,
        Language::Python => Dialect::Python,
        _ => return None,
    };
    let source = Source::new(text, tokens);
    let mut ids = Ids::default();
    let mut out = Vec::with_capacity(tokens.len());
    if dialect == Dialect::Python {
        let module = indent::module(&source, &mut ids);
        let mut emitter = emitter(&source, symbols, dialect, &ids, rewrite);
        emitter.function(&module, &mut out);
        return Some(out);
    }
    let c_like = matches!(dialect, Dialect::C | Dialect::Cpp);
    let bodies = braces::function_bodies(&source, &mut ids, c_like);
    let mut emitter = emitter(&source, symbols, dialect, &ids, rewrite);
    let mut next = 0;
    for body in &bodies {
        let (Some(open), Some(close)) = (body.open, body.close) else {
            continue;
        };
        out.extend(next..open);
        emitter.function(body, &mut out);
        next = close + 1;
    }
    out.extend(next..tokens.len());
    Some(out)
}

fn emitter<'s, 'a>(
    source: &'s Source<'a>,
    symbols: &'s mut [Symbol],
    dialect: Dialect,
    ids: &Ids,
    rewrite: Rewrite,
) -> Emitter<'s, 'a> {
    Emitter {
        source,
        symbols,
        dialect,
        rewrite,
        facts: vec![Facts::default(); ids.count()],
        live: vec![false; ids.count()],
    }
}
