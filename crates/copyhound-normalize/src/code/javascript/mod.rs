//! JavaScript read without a syntax tree: a scanner that cuts the text as
//! the tree-sitter grammar's lexer does, deciding from the tokens around
//! what the parse state decides for the grammar (`scan.rs`), then a pass
//! that classes the words as the tree walker does (`words.rs`).
//!
//! The reference is the grammar: tests compare the two token streams on
//! the fixture, on cases of each rule, on random well-formed JavaScript
//! and on the JavaScript files found on the machine. The lexer leaves a
//! file to the grammar where it sees a lexical error, and where it cannot
//! tell what the grammar reads (JSX, a `<` where an operand starts).

mod scan;
mod words;

use super::token::Token;

/// The tokens of JavaScript `text`, as the grammar and the tree walker give
/// them, or `None` where the lexer leaves the text to the grammar.
pub(crate) fn tokenize(text: &str, drop_imports: bool) -> Option<Vec<Token>> {
    let (lexemes, _comments) = scan::scan(text)?;
    words::read(text, &lexemes, drop_imports)
}
