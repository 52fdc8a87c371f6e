//! Java read without a syntax tree: the table lexer's tokens, then passes
//! that recover what the tree-sitter grammar used to decide.
//!
//! Why: on batches of small Java programs, parsing was a third to nearly
//! half of all the work of `compare` (tree-sitter's GLR parse of Java runs
//! about 4 MB/s, this lexer about 80 MB/s: `cargo bench -p
//! copyhound-normalize --bench frontends`), and the tree served only a few
//! decisions, each of which needs no more than bracket matching and a
//! look at the neighbouring tokens:
//!
//! - `>>` and `>>>` that close nested type arguments (`List<List<T>>`) are
//!   two or three `>` tokens, as the grammar reads them; in an expression
//!   they stay shift operators;
//! - with `drop_imports`, `import` and `package` declarations are dropped
//!   up to their `;`;
//! - parentheses around a whole operand (`x = (y)`, `f((a + b))`,
//!   `return (x);`, `((a))`, `case 1 -> (x);`) are dropped, parentheses
//!   inside an expression or around a condition kept — the rule of the
//!   tree walker (see `tree.rs`), stated on tokens below;
//! - the contextual keywords `record`, `sealed`, `non-sealed`, `permits`
//!   and `yield` are keywords where they declare and names elsewhere.
//!
//! The reference is the grammar: tests compare the two token streams on
//! the fixture, on cases of each rule, on random well-formed Java, and on
//! every Java file of the evaluation data sets (4,589 files, none differs).
//! Left as names: `when` (pattern guards) and the words of
//! `module-info.java`, which the grammar reads as keywords there.

use super::Language;
use super::lexer::lexer;
use super::token::{Token, TokenKind};

/// The tokens of Java `text`, in order, comments and whitespace left out
/// (and `import`/`package` declarations too, if `drop_imports`).
pub(crate) fn tokenize(text: &str, drop_imports: bool) -> Vec<Token> {
    let mut tokens = Vec::with_capacity(text.len() / 4);
    lexer(Language::Java).tokenize_into(text, 0..text.len(), &mut tokens);
    let source = Source { text };
    source.reclassify_words(&mut tokens);
    // Imports first: the `>` indices the type-argument pass returns must
    // still be those of the tokens the parenthesis pass reads.
    if drop_imports {
        source.drop_import_declarations(&mut tokens);
    }
    let closers = source.split_type_argument_closers(&mut tokens);
    source.drop_whole_operand_parentheses(&mut tokens, &closers);
    tokens
}

/// Type names and words that may stand inside type arguments.
const TYPE_ARGUMENT_WORDS: &[&str] = &[
    "extends", "super", "boolean", "byte", "char", "short", "int", "long", "float", "double",
];

/// Words after which `(` opens a condition: a parenthesised expression.
const CONDITION_WORDS: &[&str] = &["if", "while", "switch", "synchronized"];

/// Assignment operators: a parenthesised right-hand side is a whole operand.
const ASSIGNMENTS: &[&str] = &[
    "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>=",
];

/// Tokens that end an expression after a whole operand.
const OPERAND_ENDS: &[&str] = &[";", ",", ")", "]", "}"];

/// What a `(` opens, as far as the parenthesis rule cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    /// The arguments of a call or of `new`, `this(…)`, `super(…)`.
    Arguments,
    /// A parenthesised expression, a condition, a cast or lambda
    /// parameters (the last two are never followed by an operand end).
    Expression,
    /// Annotation arguments: `v = (x)` there is an element value, not an
    /// assignment.
    Annotation,
    /// Anything else: `for`, `catch` and `try` headers.
    Other,
}

struct Source<'a> {
    text: &'a str,
}

impl Source<'_> {
    fn word(&self, token: &Token) -> &str {
        &self.text[token.range.clone()]
    }

    /// Classes words as the grammar does where the lexer's table cannot:
    /// `const` and `goto` are reserved but unused, so names; `@interface`
    /// and `non-sealed` are one keyword each; the contextual keywords are
    /// keywords where they declare (`record P(`, `sealed class`,
    /// `permits A`, `yield x;`) and names elsewhere.
    fn reclassify_words(&self, tokens: &mut Vec<Token>) {
        let mut merged = false;
        for index in 0..tokens.len() {
            let word = self.word(&tokens[index]);
            let next = |offset: usize| tokens.get(index + offset);
            let touching = |offset: usize| {
                tokens[index + offset - 1].range.end == tokens[index + offset].range.start
            };
            let keyword = match word {
                "const" | "goto" => {
                    tokens[index].kind = TokenKind::Identifier;
                    continue;
                }
                "@" if self.is(next(1), "interface") && touching(1) => 2,
                "non"
                    if self.is(next(1), "-")
                        && self.is(next(2), "sealed")
                        && touching(1)
                        && touching(2)
                        && next(3).is_some_and(|t| t.kind == TokenKind::Keyword) =>
                {
                    3
                }
                "record" => usize::from(
                    next(1).is_some_and(|t| t.kind == TokenKind::Identifier)
                        && (self.is(next(2), "(") || self.is(next(2), "<")),
                ),
                "sealed" => usize::from(next(1).is_some_and(|t| t.kind == TokenKind::Keyword)),
                "permits" => usize::from(
                    index > 0
                        && (tokens[index - 1].kind == TokenKind::Identifier
                            || self.word(&tokens[index - 1]) == ">")
                        && next(1).is_some_and(|t| t.kind == TokenKind::Identifier),
                ),
                "yield" => usize::from(self.starts_yield_statement(tokens, index)),
                _ => 0,
            };
            if keyword == 0 {
                continue;
            }
            let end = tokens[index + keyword - 1].range.end;
            tokens[index].kind = TokenKind::Keyword;
            tokens[index].range.end = end;
            for joined in &mut tokens[index + 1..index + keyword] {
                joined.range = end..end;
                merged = true;
            }
        }
        if merged {
            tokens.retain(|token| !token.range.is_empty());
        }
    }

    fn is(&self, token: Option<&Token>, text: &str) -> bool {
        token.is_some_and(|token| self.word(token) == text)
    }

    /// Whether `yield` at `index` starts a `yield` statement: it begins a
    /// statement and what follows cannot continue a name (`yield = 1;`,
    /// `yield.f()`).
    fn starts_yield_statement(&self, tokens: &[Token], index: usize) -> bool {
        let starts_statement = index.checked_sub(1).is_some_and(|before| {
            matches!(self.word(&tokens[before]), ";" | "{" | "}" | "->" | ":")
        });
        let continues_name = tokens.get(index + 1).is_none_or(|next| {
            let word = self.word(next);
            matches!(word, "." | "[" | ";" | "++" | "--") || ASSIGNMENTS.contains(&word)
        });
        starts_statement && !continues_name
    }

    /// Splits the `>>` and `>>>` that close type arguments into single
    /// `>`s; returns the indices of every `>` that closes type arguments.
    fn split_type_argument_closers(&self, tokens: &mut Vec<Token>) -> Vec<usize> {
        let mut closers = Vec::new();
        let mut split = Vec::new();
        let mut index = 0;
        while index < tokens.len() {
            if self.word(&tokens[index]) == "<"
                && self.may_open_type_arguments(index.checked_sub(1).map(|i| &tokens[i]))
                && let Some(end) = self.type_arguments_end(tokens, index, &mut split)
            {
                closers.push(end);
                index = end + 1;
            } else {
                index += 1;
            }
        }
        if split.is_empty() {
            return closers;
        }
        // Rebuild with each split token as single `>`s; the closer
        // indices shift by the `>`s added before them.
        let mut out = Vec::with_capacity(tokens.len() + split.len() * 2);
        let mut shifted = Vec::with_capacity(closers.len());
        let (mut next_split, mut next_closer) = (0, 0);
        for (index, token) in tokens.drain(..).enumerate() {
            if next_split < split.len() && split[next_split] == index {
                next_split += 1;
                for at in token.range.clone() {
                    out.push(Token {
                        kind: TokenKind::Operator,
                        range: at..at + 1,
                    });
                }
            } else {
                out.push(token);
            }
            if next_closer < closers.len() && closers[next_closer] == index {
                next_closer += 1;
                shifted.push(out.len() - 1);
            }
        }
        *tokens = out;
        shifted
    }

    /// Whether a `<` after `before` can open type arguments: after a name
    /// (`List<`), a `.` (`Foo.<T>bar()`), a keyword or a brace or `;`
    /// (`public <T> void f`, `{ <T>m(); }`).
    fn may_open_type_arguments(&self, before: Option<&Token>) -> bool {
        before.is_none_or(|token| {
            matches!(token.kind, TokenKind::Identifier | TokenKind::Keyword)
                || matches!(self.word(token), "." | "{" | "}" | ";")
        })
    }

    /// If type arguments open at `open`, the index of the token that closes
    /// them; the indices of `>>`/`>>>` inside are appended to `split`.
    /// Gives up after a token no type can hold, or after 256 tokens, so
    /// that `a < b` costs little and hostile input stays linear.
    fn type_arguments_end(
        &self,
        tokens: &[Token],
        open: usize,
        split: &mut Vec<usize>,
    ) -> Option<usize> {
        const MAX_LEN: usize = 256;
        let mut depth = 0usize;
        let first_split = split.len();
        for (index, token) in tokens.iter().enumerate().skip(open).take(MAX_LEN) {
            let word = self.word(token);
            let closes = match word {
                "<" => {
                    depth += 1;
                    0
                }
                ">" => 1,
                ">>" => 2,
                ">>>" => 3,
                "?" | "," | "." | "&" | "[" | "]" | "@" => 0,
                _ if token.kind == TokenKind::Identifier => 0,
                _ if token.kind == TokenKind::Keyword && TYPE_ARGUMENT_WORDS.contains(&word) => 0,
                _ => break,
            };
            if closes == 0 {
                continue;
            }
            if closes > depth {
                break;
            }
            if closes > 1 {
                split.push(index);
            }
            depth -= closes;
            if depth == 0 {
                return Some(index);
            }
        }
        split.truncate(first_split);
        None
    }

    /// Drops `import …;` and `package …;` declarations outside any brace.
    fn drop_import_declarations(&self, tokens: &mut Vec<Token>) {
        let mut kept = Vec::with_capacity(tokens.len());
        let mut depth = 0usize;
        let mut in_declaration = false;
        for token in tokens.drain(..) {
            let word = self.word(&token);
            if in_declaration {
                in_declaration = word != ";";
                continue;
            }
            if depth == 0
                && token.kind == TokenKind::Keyword
                && matches!(word, "import" | "package")
            {
                in_declaration = true;
                continue;
            }
            match word {
                "{" => depth += 1,
                "}" => depth = depth.saturating_sub(1),
                _ => {}
            }
            kept.push(token);
        }
        *tokens = kept;
    }

    /// What the `(` at `open` opens; `closers` are the `>` tokens that
    /// close type arguments (`new ArrayList<>(`).
    fn group_at(&self, tokens: &[Token], open: usize, closers: &[usize]) -> Group {
        let Some(before) = open.checked_sub(1).map(|i| &tokens[i]) else {
            return Group::Expression;
        };
        let word = self.word(before);
        match before.kind {
            TokenKind::Identifier if self.is_annotation_name(tokens, open - 1) => Group::Annotation,
            TokenKind::Identifier => Group::Arguments,
            TokenKind::Keyword if matches!(word, "this" | "super") => Group::Arguments,
            TokenKind::Keyword if CONDITION_WORDS.contains(&word) => Group::Expression,
            TokenKind::Keyword if matches!(word, "for" | "catch" | "try") => Group::Other,
            _ if word == ">" && closers.binary_search(&(open - 1)).is_ok() => Group::Arguments,
            _ => Group::Expression,
        }
    }

    /// Whether the `->` at `arrow` ends a switch rule's label (`case 1 ->`,
    /// `default ->`) rather than a lambda's parameters: looking back, a
    /// `case` or `default` comes before the statement's start or an
    /// unclosed bracket. Labels are short; the look stops after 64 tokens
    /// so that a chain of lambdas costs little.
    fn is_switch_rule(&self, tokens: &[Token], arrow: usize) -> bool {
        let mut depth = 0usize;
        for token in tokens[..arrow].iter().rev().take(64) {
            match self.word(token) {
                ")" | "]" => depth += 1,
                "(" | "[" if depth > 0 => depth -= 1,
                "case" | "default" if depth == 0 => return true,
                "(" | "[" | "{" | "}" | ";" | "->" => return false,
                _ => {}
            }
        }
        false
    }

    /// Whether the name at `last` ends `@Name` or `@a.b.Name`.
    fn is_annotation_name(&self, tokens: &[Token], last: usize) -> bool {
        let mut at = last;
        loop {
            match at.checked_sub(1).map(|i| self.word(&tokens[i])) {
                Some("@") => return true,
                Some(".") if at >= 2 && tokens[at - 2].kind == TokenKind::Identifier => at -= 2,
                _ => return false,
            }
        }
    }

    /// Drops the parentheses of a parenthesised expression that is a whole
    /// operand: the value of an assignment or declaration, a call argument,
    /// a returned value, an expression statement, or the only content of
    /// other parentheses of an expression or condition.
    fn drop_whole_operand_parentheses(&self, tokens: &mut Vec<Token>, closers: &[usize]) {
        let mut open: Vec<(usize, Group)> = Vec::new();
        let mut braces: Vec<usize> = Vec::new();
        let mut dropped = Vec::new();
        for index in 0..tokens.len() {
            match self.word(&tokens[index]) {
                "(" => open.push((index, self.group_at(tokens, index, closers))),
                "[" | "{" => braces.push(index),
                "]" | "}" => {
                    braces.pop();
                }
                ")" => {
                    let Some((start, group)) = open.pop() else {
                        continue;
                    };
                    // The innermost bracket around this group, if any.
                    let enclosing_paren = open.last().copied();
                    let inside_paren = match (enclosing_paren, braces.last()) {
                        (Some((paren, _)), Some(&brace)) => paren > brace,
                        (Some(_), None) => true,
                        (None, _) => false,
                    };
                    let enclosing = if inside_paren {
                        enclosing_paren.map(|(_, group)| group)
                    } else {
                        None
                    };
                    if group == Group::Expression
                        && self.is_whole_operand(tokens, start, index, enclosing)
                    {
                        dropped.push(start);
                        dropped.push(index);
                    }
                }
                _ => {}
            }
        }
        if dropped.is_empty() {
            return;
        }
        dropped.sort_unstable();
        let mut next = 0;
        let mut index = 0;
        tokens.retain(|_| {
            let keep = dropped.get(next) != Some(&index);
            if !keep {
                next += 1;
            }
            index += 1;
            keep
        });
    }

    /// Whether the parenthesised expression `open..=close` is a whole
    /// operand; `enclosing` is the group directly around it, if it sits
    /// inside parentheses and not inside a brace or bracket.
    fn is_whole_operand(
        &self,
        tokens: &[Token],
        open: usize,
        close: usize,
        enclosing: Option<Group>,
    ) -> bool {
        let before = open.checked_sub(1).map(|i| &tokens[i]);
        let after = tokens.get(close + 1);
        let Some(before_word) = before.map(|token| self.word(token)) else {
            return false;
        };
        let after_word = after.map_or("", |token| self.word(token));
        if ASSIGNMENTS.contains(&before_word) {
            return enclosing != Some(Group::Annotation) && OPERAND_ENDS.contains(&after_word);
        }
        match before_word {
            "return" => after_word == ";",
            "(" => match enclosing {
                Some(Group::Arguments) => matches!(after_word, ")" | ","),
                Some(Group::Expression) => after_word == ")",
                _ => false,
            },
            "," => enclosing == Some(Group::Arguments) && matches!(after_word, ")" | ","),
            ";" | "{" | "}" => enclosing.is_none() && after_word == ";",
            "->" => {
                enclosing.is_none() && after_word == ";" && self.is_switch_rule(tokens, open - 1)
            }
            _ => false,
        }
    }
}
