//! JavaScript and TypeScript (and TSX) read without a syntax tree: a
//! scanner that cuts the text as the tree-sitter grammar's lexer does,
//! deciding from the tokens around what the parse state decides for the
//! grammar (`scan.rs`; TypeScript's types and declarations in `scan/`),
//! then a pass that classes the words as the tree walker does
//! (`words.rs`).
//!
//! The reference is the grammar (TypeScript's and TSX's for TypeScript):
//! tests compare the two token streams on the fixtures, on cases of each
//! rule, on random well-formed programs and on real files. The lexer
//! leaves a file to the grammar where it sees a lexical error, and where
//! it cannot tell what the grammar reads (JSX, a `<` where an operand
//! starts, which in TypeScript is a type assertion or a generic arrow
//! function). TypeScript and TSX read alike where no `<` starts an
//! operand, so one lexer serves both.

mod scan;
mod words;

use super::token::Token;

/// The tokens of JavaScript `text` (TypeScript's if `typescript`), as the
/// grammar and the tree walker give them, or `None` where the lexer leaves
/// the text to the grammar.
pub(crate) fn tokenize(text: &str, drop_imports: bool, typescript: bool) -> Option<Vec<Token>> {
    let (lexemes, _comments) = scan::scan(text, typescript)?;
    words::read(text, &lexemes, drop_imports)
}
