//! JavaScript and TypeScript (and TSX) read without a syntax tree: a
//! scanner that cuts the text as the tree-sitter grammar's lexer does,
//! deciding from the tokens around what the parse state decides for the
//! grammar (`scan.rs`; TypeScript's types and declarations, and JSX, in
//! `scan/`), then a pass that classes the words as the tree walker does
//! (`words.rs`).
//!
//! The reference is the grammar (TypeScript's and TSX's for TypeScript):
//! tests compare the two token streams on the fixtures, on cases of each
//! rule, on random well-formed programs and on real files. The lexer
//! leaves a file to the grammar where it sees a lexical error, and where
//! it cannot tell what the grammar reads. A `<` where an operand starts is
//! JSX in JavaScript and TSX (but for TSX's generic arrow functions,
//! `<T,>(x: T) =>`), and in TypeScript a generic arrow function or a type
//! assertion. Elsewhere TypeScript and TSX read alike, so one lexer serves
//! both.

mod scan;
mod words;

use super::token::Token;

/// Which of the languages this lexer reads a text is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// JavaScript, JSX included.
    JavaScript,
    TypeScript,
    /// TypeScript with JSX.
    Tsx,
}

impl Dialect {
    /// Whether TypeScript's types and declarations are read.
    fn typescript(self) -> bool {
        self != Self::JavaScript
    }

    /// Whether an element may stand where an operand does.
    fn jsx(self) -> bool {
        self != Self::TypeScript
    }
}

/// The tokens of `text` in `dialect`, as the grammar and the tree walker
/// give them, or `None` where the lexer leaves the text to the grammar.
pub(crate) fn tokenize(text: &str, drop_imports: bool, dialect: Dialect) -> Option<Vec<Token>> {
    let (lexemes, _comments) = scan::scan(text, dialect)?;
    words::read(text, &lexemes, drop_imports)
}
