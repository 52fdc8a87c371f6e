//! The statement tree both parsers build (`braces.rs` for the languages of
//! braces and semicolons, `indent.rs` for Python), and the token helpers
//! they share.
//!
//! A [`Statement`] is made of [`Part`]s in source order: runs of its own
//! tokens (`if (x)`, `else`, `x = 1;`) and the [`Body`]s nested in it. The
//! rewrite may leave statements out and reorder those of one body, but a
//! statement's own parts always stay together and in order.

use std::ops::Range;

use super::super::token::{Token, TokenKind};

/// What a statement is, as far as dead code and ordering care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    /// No body: a declaration, an assignment, a call, an expression.
    Simple,
    /// `;` or `pass`: does nothing.
    Empty,
    /// `return`, `throw`, `raise`, `goto`, `yield`, or a labelled
    /// `break`/`continue`: leaves the enclosing statements.
    Exit,
    /// An unlabelled `break` or `continue`: leaves the enclosing loop.
    LoopExit,
    /// `case 1:`, `default:`, `label:`, `global x`: everything keeps its
    /// place around it.
    Label,
    /// A loop or a `switch`: the `break`s and `continue`s inside stay inside.
    Loop,
    /// `if`, `try`, `with`, a bare block: a statement with bodies.
    Branch,
    /// A nested function (Python `def` inside a body) or class: kept, with
    /// any function inside it rewritten on its own.
    Declaration,
    /// Anything the parser does not follow (nesting too deep): kept as it
    /// is, in its place.
    Opaque,
}

/// A statement: its own tokens and the bodies nested in it.
#[derive(Debug)]
pub(super) struct Statement {
    /// Index among all statements of the file (for per-statement facts).
    pub(super) id: usize,
    pub(super) form: Form,
    pub(super) parts: Parts,
}

/// A piece of a statement.
#[derive(Debug)]
pub(super) enum Part {
    /// Tokens of the statement itself.
    Tokens(Range<usize>),
    /// A nested body, boxed so that a statement's parts fit in place.
    Body(Box<Body>),
}

/// A statement's parts: almost always one or two, held in place, since
/// allocating them one statement at a time cost more than parsing.
pub(super) type Parts = smallvec::SmallVec<[Part; 2]>;

impl Part {
    /// A nested body (boxed).
    pub(super) fn body(body: Body) -> Self {
        Self::Body(Box::new(body))
    }
}

/// The parts of a statement that starts with its own tokens `tokens`
/// (and may go on).
pub(super) fn starting_with(tokens: Range<usize>) -> Parts {
    smallvec::smallvec![Part::Tokens(tokens)]
}

/// A sequence of statements: a `{ … }` block, the single statement after
/// `if (…)`, or a Python suite.
#[derive(Debug, Default)]
pub(super) struct Body {
    /// The `{` token, if braced.
    pub(super) open: Option<usize>,
    pub(super) statements: Vec<Statement>,
    /// The `}` token, if braced and closed.
    pub(super) close: Option<usize>,
    /// A function's body, rewritten as a unit of its own (its locals are its
    /// own); otherwise a body of the function it is in.
    pub(super) function: Option<Function>,
}

/// What a function body declares before its first statement.
#[derive(Debug, Default)]
pub(super) struct Function {
    /// The tokens naming its parameters.
    pub(super) parameters: Vec<usize>,
    /// Python's module, read as a function without parameters: its
    /// statements are ordered as a function's are, but none is dead, since
    /// what a module binds another module may import (as Java's fields and
    /// C's globals are never dropped).
    pub(super) module: bool,
}

impl Statement {
    /// The statement's own token ranges.
    pub(super) fn own_tokens(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        self.parts.iter().filter_map(|part| match part {
            Part::Tokens(range) => Some(range.clone()),
            Part::Body(_) => None,
        })
    }

    /// The bodies nested directly in the statement.
    pub(super) fn bodies(&self) -> impl Iterator<Item = &Body> {
        self.parts.iter().filter_map(|part| match part {
            Part::Body(body) => Some(&**body),
            Part::Tokens(_) => None,
        })
    }
}

/// The tokens of a file with their text and matching brackets.
pub(super) struct Source<'a> {
    pub(super) text: &'a str,
    pub(super) tokens: &'a [Token],
    /// For each bracket token, the index of its partner; `NONE` for other
    /// tokens and unmatched brackets.
    partner: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl<'a> Source<'a> {
    pub(super) fn new(text: &'a str, tokens: &'a [Token]) -> Self {
        let mut partner = vec![NONE; tokens.len()];
        let mut open: Vec<usize> = Vec::new();
        for (index, token) in tokens.iter().enumerate() {
            if token.kind != TokenKind::Punctuation {
                continue;
            }
            match &text[token.range.clone()] {
                "(" | "[" | "{" => open.push(index),
                close @ (")" | "]" | "}") => {
                    let opener = match close {
                        ")" => "(",
                        "]" => "[",
                        _ => "{",
                    };
                    // An unmatched closer leaves the open brackets open; a
                    // mismatched one closes nothing.
                    if let Some(&top) = open.last()
                        && self_word(text, &tokens[top]) == opener
                    {
                        open.pop();
                        partner[top] = index as u32;
                        partner[index] = top as u32;
                    }
                }
                _ => {}
            }
        }
        Self {
            text,
            tokens,
            partner,
        }
    }

    /// The text of token `index`, or `""` past the end.
    pub(super) fn word(&self, index: usize) -> &'a str {
        self.tokens
            .get(index)
            .map_or("", |token| self_word(self.text, token))
    }

    pub(super) fn kind(&self, index: usize) -> Option<TokenKind> {
        self.tokens.get(index).map(|token| token.kind)
    }

    pub(super) fn is_identifier(&self, index: usize) -> bool {
        self.kind(index) == Some(TokenKind::Identifier)
    }

    pub(super) fn is_keyword(&self, index: usize, word: &str) -> bool {
        self.kind(index) == Some(TokenKind::Keyword) && self.word(index) == word
    }

    /// The partner of the bracket at `index`, if it is a matched bracket.
    pub(super) fn partner(&self, index: usize) -> Option<usize> {
        self.partner
            .get(index)
            .filter(|&&p| p != NONE)
            .map(|&p| p as usize)
    }

    /// Whether the token at `index` opens a bracket with a partner.
    pub(super) fn opens_group(&self, index: usize) -> bool {
        matches!(self.word(index), "(" | "[" | "{") && self.partner(index).is_some()
    }

    /// Whether there is a line break between tokens `index - 1` and `index`.
    pub(super) fn line_break_before(&self, index: usize) -> bool {
        index > 0
            && self.text[self.tokens[index - 1].range.end..self.tokens[index].range.start]
                .contains('\n')
    }
}

fn self_word<'a>(text: &'a str, token: &Token) -> &'a str {
    &text[token.range.clone()]
}

/// Numbers statements as they are made.
#[derive(Debug, Default)]
pub(super) struct Ids(usize);

impl Ids {
    pub(super) fn next(&mut self) -> usize {
        self.0 += 1;
        self.0 - 1
    }

    pub(super) fn count(&self) -> usize {
        self.0
    }
}

/// Nesting deeper than this is kept as written: the parsers recurse once
/// per level, and hostile input must not exhaust the stack.
pub(super) const MAX_DEPTH: usize = 96;
