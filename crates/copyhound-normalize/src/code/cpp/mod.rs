//! C++ read without a syntax tree: the table lexer's tokens, a pass for
//! what C++ adds to C, then the C pass (`c.rs`) for what the two share.
//!
//! Why: tree-sitter's GLR parse of C++ is slow (see the `cpp_tokens`
//! group of `cargo bench -p copyhound-normalize --bench frontends`), and
//! the tree decides little that the neighbouring tokens cannot. The C++
//! pass, token by token:
//!
//! - raw strings `R"x(…)x"` (and `LR`, `uR`, `UR`, `u8R`) are one string,
//!   whatever quotes they hold;
//! - words are keywords by the grammar's list (`and`, `co_await`,
//!   `TRUE`, `size_t`, …); `final` and `override` only after a class's
//!   name or a function's `)`; any word after `::` is a name (but
//!   `template`, `operator`, `new`, `delete`), as is any word inside an
//!   attribute;
//! - `[[` and `]]` around an attribute are one operator each; after
//!   `operator`, `()`, `[]` and `""` are one operator (`operator new[]`
//!   too);
//! - a word right after a string, character or number literal is its
//!   user-defined suffix (`"s"s`, `1.5_km`), a keyword to the walker; the
//!   number is the grammar's longest match (`10ULL`, `1'000`, `0x1p-3`);
//! - `<` after a name opens template arguments where a matching `>`
//!   follows, with nothing but arguments between (no `;`, braces or
//!   unmatched brackets; a `>=` or a literal after the `>` ends the
//!   reading). There `>>` that closes two lists is two `>`, and so is a
//!   `>>` that closes one and then compares (`a < b && c >> d` is
//!   `a<b && c>` `>` `d` to the grammar, which reads templates wherever
//!   it can); after a closing `>` a sign is an operator (`a<b>-1`);
//! - with `drop_imports`, `using namespace std;` and `using std::cout;`
//!   go (not `using T = …;`), as do `#include` lines.
//!
//! Directive lines are left to the C pass as the table read them: the
//! grammar hands macro bodies to the table lexer as raw text.
//!
//! The reference is the grammar: tests compare the two token streams on
//! the fixture, on cases of each rule, on random well-formed C++, and on
//! the C++ headers of the machine where it has them. The grammar reads
//! much real C++ with errors (macros it cannot expand, newer syntax such
//! as `requires` clauses); where it does, its error recovery decides the
//! tokens, and this lexer does not follow it there.

use std::ops::Range;
use std::sync::OnceLock;

mod number;
mod specs;

use super::Language;
use super::c::{self, Dialect};
use super::lexer::{WordSet, lexer};
use super::token::{Token, TokenKind};
use number::number_len;
use specs::KEYWORDS;

/// The tokens of C++ `text`, in order, comments and whitespace left out
/// (and `#include` lines and `using` declarations too, if `drop_imports`).
pub(crate) fn tokenize(text: &str, drop_imports: bool) -> Vec<Token> {
    let tokens = lex(text);
    let mut pass = Pass {
        text,
        directive: directive_lines(text, &tokens),
        tokens: &tokens,
        split: Vec::new(),
        closers: Vec::new(),
        out: Vec::with_capacity(tokens.len()),
    };
    pass.find_template_arguments();
    // Found in order of position but for lists inside a list's brackets,
    // which are searched after it: sorted for the lookups that follow.
    pass.closers.sort_unstable();
    pass.split.sort_unstable_by_key(|split| split.index);
    pass.rebuild();
    let (mut out, mut dropped) = c::read(text, &pass.out, &CPP, &pass.closers, drop_imports);
    if drop_imports {
        drop_using_declarations(text, &mut out, &mut dropped);
        dropped.sort_unstable_by_key(|range| range.start);
        drop_import_wrappers(text, &mut out, &dropped);
    }
    out
}

const CPP: Dialect = Dialect {
    lang: Language::Cpp,
    number_len,
    literal_suffixes: true,
    c_words: false,
};

/// The table lexer's tokens, with each raw string and each number with
/// digit separators made one token and the lexer started again after it
/// (but on directive lines, whose raw text the grammar hands to the table
/// lexer).
fn lex(text: &str) -> Vec<Token> {
    let table = lexer(Language::Cpp);
    let mut tokens: Vec<Token> = Vec::with_capacity(text.len() / 4);
    let mut start = 0;
    let mut directive = false;
    'lexing: loop {
        for token in table.tokens(text, start..text.len()) {
            if let Some(last) = tokens.last() {
                let gap = &text[last.range.end..token.range.start];
                let continued = &text[last.range.clone()] == "\\" && gap.matches('\n').count() == 1;
                directive &= !gap.contains('\n') || continued;
            }
            directive |= &text[token.range.clone()] == "#";
            let whole = match token.kind {
                _ if directive => None,
                TokenKind::Identifier => {
                    raw_string_end(text, &token).map(|end| (TokenKind::String, end))
                }
                TokenKind::Number => {
                    separated_number_end(text, &token).map(|end| (TokenKind::Number, end))
                }
                _ => None,
            };
            if let Some((kind, end)) = whole {
                tokens.push(Token {
                    kind,
                    range: token.range.start..end,
                });
                start = end;
                continue 'lexing;
            }
            tokens.push(token);
        }
        return tokens;
    }
}

/// Where the number `token` starts ends if digit separators run on past
/// it (`1'000`, which the table reads as `1` and a character literal).
fn separated_number_end(text: &str, token: &Token) -> Option<usize> {
    let rest = &text.as_bytes()[token.range.end..];
    if rest.first() != Some(&b'\'') || !rest.get(1).is_some_and(u8::is_ascii_alphanumeric) {
        return None;
    }
    let end = token.range.start + number_len(&text.as_bytes()[token.range.start..]);
    (end > token.range.end).then_some(end)
}

/// Where the raw string that `token` (its prefix) opens ends, if it opens
/// one: `R"delimiter(` … `)delimiter"`.
fn raw_string_end(text: &str, token: &Token) -> Option<usize> {
    if !matches!(&text[token.range.clone()], "R" | "LR" | "uR" | "UR" | "u8R") {
        return None;
    }
    let rest = text[token.range.end..].strip_prefix('"')?;
    let open = rest.find('(')?;
    let delimiter = &rest[..open];
    if delimiter.len() > 16
        || delimiter
            .bytes()
            .any(|b| b.is_ascii_whitespace() || matches!(b, b'\\' | b')' | b'"'))
    {
        return None;
    }
    let body = &rest[open + 1..];
    let close = format!("){delimiter}\"");
    let end = body.find(&close)? + close.len();
    Some(text.len() - body.len() + end)
}

/// Per token: whether it stands on a directive line (from a `#` to the
/// line's end), which the C pass reads.
fn directive_lines(text: &str, tokens: &[Token]) -> Vec<bool> {
    let mut directive = vec![false; tokens.len()];
    let mut index = 0;
    while index < tokens.len() {
        if &text[tokens[index].range.clone()] == "#" {
            let end = c::line_end(text, tokens, index);
            directive[index..end].fill(true);
            index = end;
        } else {
            index += 1;
        }
    }
    directive
}

/// A token whose first `closes` bytes are each a `>` of their own (the
/// `>`s closing template arguments, or a `>>`'s two), its rest one
/// operator.
#[derive(Clone, Copy)]
struct Split {
    index: usize,
    closes: usize,
}

/// The C++ pass over the table's tokens (see the module docs).
struct Pass<'a> {
    text: &'a str,
    tokens: &'a [Token],
    directive: Vec<bool>,
    /// The tokens holding `>`s that close template arguments (`>>`, and
    /// after a member `>=` and `>>=`), in order.
    split: Vec<Split>,
    /// Starts of the `>` that close template arguments.
    closers: Vec<usize>,
    out: Vec<Token>,
}

impl Pass<'_> {
    fn word(&self, index: usize) -> &str {
        self.tokens
            .get(index)
            .map_or("", |token| &self.text[token.range.clone()])
    }

    fn is_word(&self, index: usize) -> bool {
        self.tokens
            .get(index)
            .is_some_and(|t| matches!(t.kind, TokenKind::Identifier | TokenKind::Keyword))
    }

    /// Whether the token at `index` starts right where the one before ends.
    fn touches_previous(&self, index: usize) -> bool {
        index > 0
            && self
                .tokens
                .get(index)
                .is_some_and(|t| t.range.start == self.tokens[index - 1].range.end)
    }

    /// Finds the template argument lists and notes their closers and the
    /// `>>` to split.
    fn find_template_arguments(&mut self) {
        self.find_template_arguments_in(0, self.tokens.len());
    }

    /// [`Self::find_template_arguments`] over the tokens `start..end`.
    /// The brackets inside a list found are searched again: a list's own
    /// search skips them (`a<sizeof(b<c<int>>)>`).
    fn find_template_arguments_in(&mut self, start: usize, end: usize) {
        let mut index = start;
        while index < end {
            if !self.directive[index]
                && self.word(index) == "<"
                && self.may_open_template(index)
                && let Some((close, groups)) = self.template_end(index)
            {
                for (open, group_end) in groups {
                    self.find_template_arguments_in(open + 1, group_end);
                }
                index = close + 1;
            } else {
                index += 1;
            }
        }
    }

    /// Whether the `<` at `open` may open template arguments: it follows
    /// a name (not a literal's suffix: `'c'_ch < a >> b` shifts) or
    /// `template`.
    fn may_open_template(&self, open: usize) -> bool {
        let Some(before) = open.checked_sub(1) else {
            return false;
        };
        let word = self.word(before);
        let suffix = self.touches_previous(before)
            && self.tokens[before - 1].kind.is_literal()
            && self.tokens[before - 1].kind != TokenKind::Number;
        word == "template"
            || (self.is_word(before)
                && !suffix
                && !keywords().contains(word)
                && self.word(before.wrapping_sub(1)) != "operator")
    }

    /// If template arguments open at `open`, the index of the token that
    /// closes them (a `>`, or a `>>` whose second `>` compares), and where
    /// the brackets at their own level open and close; their closers and
    /// splits are noted. Gives up after a token no argument list can hold,
    /// or after 256 tokens, so that `a < b` costs little.
    fn template_end(&mut self, open: usize) -> Option<(usize, Vec<(usize, usize)>)> {
        const MAX_LEN: usize = 256;
        let (mut depth, mut groups) = (1usize, 0usize);
        let mut group_ranges = Vec::new();
        // Where the last bracket opened at the list's own level is.
        let mut group_open = open;
        let (mut closers, mut split) = (Vec::new(), Vec::new());
        let last = (open + MAX_LEN).min(self.tokens.len());
        let mut index = open + 1;
        loop {
            if index >= last || self.directive[index] {
                return None;
            }
            let start = self.tokens[index].range.start;
            match self.word(index) {
                ";" => return None,
                "(" | "[" | "{" => {
                    if groups == 0 {
                        group_open = index;
                    }
                    groups += 1;
                }
                ")" | "]" | "}" if groups == 0 => return None,
                ")" | "]" | "}" => {
                    groups -= 1;
                    if groups == 0 {
                        group_ranges.push((group_open, index));
                    }
                }
                _ if groups > 0 => {}
                // After a member's or qualified name, a `>=` or `>>=` that
                // closes a list of names does, and the rest of it assigns
                // (`p->a<b>= c`, `a::b<c<d>>= e`).
                ">=" | ">>=" if self.closes_member_names(open, index, depth) => {
                    closers.extend((0..depth).map(|at| start + at));
                    split.push(Split {
                        index,
                        closes: depth,
                    });
                    break;
                }
                ">=" | ">>=" => return None,
                "<" if self.may_open_template(index) => depth += 1,
                ">" => {
                    closers.push(start);
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                ">>" => {
                    // The first `>` closes, and the second closes or compares.
                    split.push(Split { index, closes: 2 });
                    closers.push(start);
                    if depth == 1 {
                        // The second `>` compares with what follows. After
                        // an argument of a member's list that cannot be a
                        // type, the grammar reads a shift instead
                        // (`p->a < 0 >> b`).
                        let shifts =
                            self.is_member_template(open) && self.ends_value(index - 1, group_open);
                        if shifts || !self.starts_operand(index + 1) {
                            return None;
                        }
                        break;
                    }
                    closers.push(start + 1);
                    depth -= 2;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            index += 1;
        }
        if self.word(index) == ">" && !self.may_follow_template(index + 1) {
            return None;
        }
        self.closers.extend(closers);
        self.split.extend(split);
        Some((index, group_ranges))
    }

    /// Whether the `>=` or `>>=` at `close`, with the `<` at `open` and
    /// `depth` lists open, closes them all as the grammar reads it: the
    /// template is a member's or a qualified name (after `.`, `->` or
    /// `::`; a plain `a < b >= c` compares), what is open holds only names
    /// and commas, and the closer's `>`s close every open list.
    fn closes_member_names(&self, open: usize, close: usize, depth: usize) -> bool {
        let angles = self.word(close).len() - 1;
        matches!(self.before_template(open), "." | "->" | "::")
            && depth <= angles
            && (open + 1..close).all(|at| {
                matches!(self.word(at), "," | "::" | "<" | ">")
                    || self.tokens[at].kind == TokenKind::Identifier
            })
    }

    /// The token before the template's name, whose arguments the `<` at
    /// `open` opens (`.`, `->` or `::` when it is a member or qualified).
    fn before_template(&self, open: usize) -> &str {
        open.checked_sub(2).map_or("", |at| self.word(at))
    }

    /// Whether the `<` at `open` follows a member's name (after `.` or
    /// `->`).
    fn is_member_template(&self, open: usize) -> bool {
        matches!(self.before_template(open), "." | "->")
    }

    /// Whether the token at `last` ends an argument that cannot be a type:
    /// a literal, or a parenthesised expression standing alone (`(0)`,
    /// where `f(b)` may be a function type), `group_open` being where the
    /// last bracket at the list's level opened.
    fn ends_value(&self, last: usize, group_open: usize) -> bool {
        self.tokens[last].kind.is_literal()
            || (self.word(last) == ")"
                && self.word(group_open) == "("
                && matches!(self.word(group_open - 1), "<" | ","))
    }

    /// Whether the token at `index` can start an operand.
    fn starts_operand(&self, index: usize) -> bool {
        let Some(token) = self.tokens.get(index) else {
            return false;
        };
        match token.kind {
            TokenKind::Identifier
            | TokenKind::Keyword
            | TokenKind::Number
            | TokenKind::String
            | TokenKind::Char => true,
            TokenKind::Operator | TokenKind::Punctuation => matches!(
                self.word(index),
                "(" | "-" | "+" | "!" | "~" | "*" | "&" | "::" | "++" | "--"
            ),
        }
    }

    /// Whether the token at `index` may follow template arguments: not a
    /// literal or `=`, after which the grammar's reading as a template
    /// fails.
    fn may_follow_template(&self, index: usize) -> bool {
        self.tokens
            .get(index)
            .is_none_or(|token| !token.kind.is_literal() && !matches!(self.word(index), "="))
    }

    /// Builds `out`: the table's tokens with words classed, raw text of
    /// directives left alone, and the C++ tokens joined or split.
    fn rebuild(&mut self) {
        let (text, tokens) = (self.text, self.tokens);
        let mut attribute: Option<usize> = None;
        let mut next_split = 0;
        let mut index = 0;
        while index < tokens.len() {
            let token = &tokens[index];
            if self.directive[index] {
                self.out.push(token.clone());
                index += 1;
                continue;
            }
            if let Some(&Split { closes, .. }) =
                self.split.get(next_split).filter(|s| s.index == index)
            {
                next_split += 1;
                let (start, end) = (token.range.start, token.range.end);
                for at in start..start + closes {
                    self.push(TokenKind::Operator, at..at + 1);
                }
                if start + closes < end {
                    self.push(TokenKind::Operator, start + closes..end);
                }
                index += 1;
                continue;
            }
            let word = &text[token.range.clone()];
            if let Some(depth) = attribute.as_mut() {
                match word {
                    "]" if *depth == 0 && self.word(index + 1) == "]" => {
                        self.push(TokenKind::Operator, token.range.start..token.range.end + 1);
                        attribute = None;
                        index += 2;
                        continue;
                    }
                    "(" | "[" | "{" => *depth += 1,
                    ")" | "]" | "}" => *depth = depth.saturating_sub(1),
                    _ => {}
                }
                let kind = if self.is_word(index) {
                    TokenKind::Identifier
                } else {
                    token.kind
                };
                self.push(kind, token.range.clone());
                index += 1;
                continue;
            }
            if let Some(joined) = self.operator_name(index) {
                self.push(TokenKind::Operator, joined);
                index += 2;
                continue;
            }
            if word == "[" && self.opens_attribute(index) {
                self.push(TokenKind::Operator, token.range.start..token.range.end + 1);
                attribute = Some(0);
                index += 2;
                continue;
            }
            if token.kind.is_literal() && token.kind != TokenKind::Number {
                let operator = self.last_word() == "operator" && word == "\"\"";
                let kind = if operator {
                    TokenKind::Operator
                } else {
                    token.kind
                };
                self.push(kind, token.range.clone());
                if self.is_word(index + 1) && self.touches_previous(index + 1) {
                    // A user-defined literal's suffix, but the name of a
                    // literal operator (`operator""_km`).
                    let suffix = if operator {
                        TokenKind::Identifier
                    } else {
                        TokenKind::Keyword
                    };
                    self.push(suffix, tokens[index + 1].range.clone());
                    index += 1;
                }
                index += 1;
                continue;
            }
            let kind = if self.is_word(index) {
                self.word_kind(index)
            } else {
                token.kind
            };
            self.push(kind, token.range.clone());
            index += 1;
        }
    }

    fn push(&mut self, kind: TokenKind, range: std::ops::Range<usize>) {
        self.out.push(Token { kind, range });
    }

    fn last_word(&self) -> &str {
        self.out
            .last()
            .map_or("", |token| &self.text[token.range.clone()])
    }

    /// The bytes of `()` or `[]` at `index` if they name an operator
    /// (`operator()`, `operator new[]`).
    fn operator_name(&self, index: usize) -> Option<std::ops::Range<usize>> {
        let close = match self.word(index) {
            "(" => ")",
            "[" => "]",
            _ => return None,
        };
        let named = match self.last_word() {
            // `x.operator()(1)` calls: the grammar reads `(` and `)`.
            "operator" => {
                let before = self.out.len().checked_sub(2);
                self.out
                    .last()
                    .is_some_and(|t| t.kind == TokenKind::Keyword)
                    && before.is_none_or(|b| {
                        !matches!(&self.text[self.out[b].range.clone()], "." | "->")
                    })
            }
            "new" | "delete" => {
                let before = self.out.len().checked_sub(2);
                before.is_some_and(|b| &self.text[self.out[b].range.clone()] == "operator")
                    && close == "]"
            }
            _ => false,
        };
        (named && self.word(index + 1) == close && self.touches_previous(index + 1))
            .then(|| self.tokens[index].range.start..self.tokens[index + 1].range.end)
    }

    /// Whether the `[` at `index` opens an attribute `[[…]]`: a second
    /// `[` touches it, no operand comes before, and the first `]` at its
    /// level is followed by a touching `]`.
    fn opens_attribute(&self, index: usize) -> bool {
        if self.word(index + 1) != "[" || !self.touches_previous(index + 1) {
            return false;
        }
        let after_directive = index > 0 && self.directive[index - 1];
        if !after_directive
            && self.out.last().is_some_and(|last| {
                matches!(
                    last.kind,
                    TokenKind::Identifier | TokenKind::Number | TokenKind::String | TokenKind::Char
                ) || matches!(&self.text[last.range.clone()], "]" | "this")
            })
        {
            return false;
        }
        let mut depth = 0usize;
        for close in index + 2..self.tokens.len().min(index + 256) {
            match self.word(close) {
                "(" | "[" | "{" => depth += 1,
                ")" | "}" => depth = depth.saturating_sub(1),
                "]" if depth > 0 => depth -= 1,
                "]" => return self.word(close + 1) == "]" && self.touches_previous(close + 1),
                ";" => return false,
                _ => {}
            }
        }
        false
    }

    /// The kind of the word at `index` to the grammar.
    fn word_kind(&self, index: usize) -> TokenKind {
        let word = self.word(index);
        let keyword = match word {
            _ if self.last_word() == "::" => {
                matches!(word, "template" | "operator" | "new" | "delete")
            }
            "final" | "override" => self.is_virtual_specifier(index),
            "operator" => !self.in_expression(),
            _ => keywords().contains(word),
        };
        if keyword {
            TokenKind::Keyword
        } else {
            TokenKind::Identifier
        }
    }

    /// Whether the last token pushed leaves an operand to come, where
    /// the grammar reads `operator` as a name (`return operator==(o);`).
    fn in_expression(&self) -> bool {
        self.out.last().is_some_and(|last| {
            let word = &self.text[last.range.clone()];
            match last.kind {
                TokenKind::Operator => {
                    !matches!(word, "&" | "*" | "&&" | "::" | "~" | "->")
                        && self.closers.binary_search(&last.range.start).is_err()
                }
                _ => matches!(word, "return" | "(" | ","),
            }
        })
    }

    /// Whether `final` or `override` at `index` specifies a class or a
    /// function: after a function's `)` (or its qualifiers) or a class's
    /// name, before what may follow there.
    fn is_virtual_specifier(&self, index: usize) -> bool {
        let Some(last) = self.out.last() else {
            return false;
        };
        let last_word = &self.text[last.range.clone()];
        let after_function = matches!(
            last_word,
            ")" | "const" | "volatile" | "noexcept" | "final" | "override"
        );
        let class_key = self.out.len().checked_sub(2).is_some_and(|before| {
            matches!(
                &self.text[self.out[before].range.clone()],
                "class" | "struct" | "union"
            )
        });
        let after_class_name = last.kind == TokenKind::Identifier
            && class_key
            && matches!(self.word(index + 1), "{" | ":" | "final" | "override");
        after_function || after_class_name
    }
}

/// Drops the `using` declarations (`using namespace std;`,
/// `using std::cout;`), which the grammar reads as imports; `using T = …;`
/// declares a type and stays.
fn drop_using_declarations(text: &str, tokens: &mut Vec<Token>, ranges: &mut Vec<Range<usize>>) {
    let word = |index: usize| tokens.get(index).map_or("", |t| &text[t.range.clone()]);
    let mut dropped = vec![false; tokens.len()];
    let mut index = 0;
    while index < tokens.len() {
        if word(index) != "using" || tokens[index].kind != TokenKind::Keyword {
            index += 1;
            continue;
        }
        let mut end = index + 1;
        if word(end) == "namespace" {
            end += 1;
        }
        if word(end) == "::" {
            end += 1;
        }
        while tokens
            .get(end)
            .is_some_and(|t| t.kind == TokenKind::Identifier)
        {
            end += 1;
            if word(end) != "::" {
                break;
            }
            end += 1;
        }
        if end > index + 1 && word(end) == ";" {
            dropped[index..=end].fill(true);
            ranges.push(tokens[index].range.start..tokens[end].range.end);
            index = end;
        }
        index += 1;
    }
    let mut at = 0;
    tokens.retain(|_| {
        at += 1;
        !dropped[at - 1]
    });
}

/// Drops what only wrapped a dropped import (`dropped`, sorted), as the
/// tree walker drops a node whose one named child is an import: an
/// `#else` whose branch is the import alone, braces around it alone
/// (`extern "C" {` `#include …` `}`). A comment beside it would be a
/// named child too.
fn drop_import_wrappers(text: &str, tokens: &mut Vec<Token>, dropped: &[Range<usize>]) {
    let mut wrapper = vec![false; tokens.len()];
    let word = |token: &Token| &text[token.range.clone()];
    for import in dropped {
        let after = tokens.partition_point(|t| t.range.start < import.end);
        let (Some(before), Some(next)) = (after.checked_sub(1), tokens.get(after)) else {
            continue;
        };
        let blank = |range: Range<usize>| text[range].trim().is_empty();
        if !blank(tokens[before].range.end..import.start) || !blank(import.end..next.range.start) {
            continue;
        }
        let directive = |token: &Token, name: &str| {
            word(token)
                .strip_prefix('#')
                .is_some_and(|w| w.trim_start() == name)
        };
        if directive(&tokens[before], "else") && directive(next, "endif") {
            wrapper[before] = true;
        } else if word(&tokens[before]) == "{" && word(next) == "}" {
            wrapper[before] = true;
            wrapper[after] = true;
        }
    }
    let mut at = 0;
    tokens.retain(|_| {
        at += 1;
        !wrapper[at - 1]
    });
}

/// The words the C++ grammar reads as keywords: [`KEYWORDS`] and the
/// primitive types. `final` and `override` are decided by place.
fn keywords() -> &'static WordSet {
    static SET: OnceLock<WordSet> = OnceLock::new();
    SET.get_or_init(|| KEYWORDS.iter().chain(c::PRIMITIVE_TYPES).copied().collect())
}
