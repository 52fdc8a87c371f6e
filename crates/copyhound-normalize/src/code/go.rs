//! Go read without a syntax tree: a scanner that cuts the text as the
//! tree-sitter grammar's lexer does, which for Go is nearly all the tree
//! walker needs.
//!
//! Why: tree-sitter's parse is most of the cost of reading code, and the
//! Go grammar's tokens follow from the text alone, but for a few words:
//!
//! - `true`, `false`, `nil` and `iota` are keywords as operands and names
//!   after a `.` (a field) or where the grammar reads brackets as type
//!   arguments (`f[nil](x)`, `a[b[c[nil]]]`); `new` and `make` are always
//!   names;
//! - numbers are the grammar's longest match of its integer, float and
//!   imaginary literals (`0x1p-2`, `1_000`, `017`, `1.5i`), runes and
//!   strings one token each, `<-`, `&^=` and `...` one operator each —
//!   but where only a unary operator may stand, a longer operator is its
//!   first character (`x < &^y` is `&`, `^`, and so is `&^y` starting a
//!   line's statement, as the grammar's lexer reads broken code);
//! - with `drop_imports`, the `package` clause and the `import`
//!   declarations go (and a file of nothing else goes whole, its `;`s
//!   too); as the tree walker does for every language, a top-level
//!   declaration that fits on one line and mentions `require(`,
//!   `require ` or `require_relative` goes too.
//!
//! The reference is the grammar: tests compare the two token streams on
//! the fixture, on cases of each rule, on random well-formed Go and on the
//! Go sources of the machine. Where the text has a lexical error (an
//! unclosed string, rune, comment or bracket, a character no token starts
//! with) the lexer gives up (`None`) and the caller reads the file through
//! the grammar; a syntax error it does not see (`x := ;`) it reads token
//! by token, where the tree walker hands the grammar's error region to the
//! table lexer.

use unicode_ident::{is_xid_continue, is_xid_start};

use super::lexer::{digits_len, opening_bracket};
use super::token::{Token, TokenKind};

/// The tokens of Go `text`, as the grammar and the tree walker give them,
/// or `None` where the text has a lexical error.
pub(crate) fn tokenize(text: &str, drop_imports: bool) -> Option<Vec<Token>> {
    let mut scanner = Scanner {
        text,
        bytes: text.as_bytes(),
        at: 0,
        tokens: Vec::with_capacity(text.len() / 4),
        brackets: Vec::new(),
        comments: 0,
    };
    scanner.run()?;
    let mut tokens = scanner.tokens;
    name_operand_words(text, &mut tokens);
    if drop_imports {
        drop_imports_and_requires(text, &mut tokens, scanner.comments);
    }
    Some(tokens)
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    tokens: Vec<Token>,
    /// Open brackets.
    brackets: Vec<u8>,
    comments: usize,
}

/// Whether `word` is a keyword of the grammar: a reserved word, or one of
/// the [`OPERAND_WORDS`] (which a later pass makes names where they are).
fn is_keyword(word: &str) -> bool {
    matches!(
        word,
        "break"
            | "default"
            | "func"
            | "interface"
            | "select"
            | "case"
            | "defer"
            | "go"
            | "map"
            | "struct"
            | "chan"
            | "else"
            | "goto"
            | "package"
            | "switch"
            | "const"
            | "fallthrough"
            | "if"
            | "range"
            | "type"
            | "continue"
            | "for"
            | "import"
            | "return"
            | "var"
            | "true"
            | "false"
            | "nil"
            | "iota"
    )
}

/// Words the grammar reads as keywords where an operand stands.
const OPERAND_WORDS: &[&str] = &["true", "false", "nil", "iota"];

/// The operators and punctuation of the grammar, longest first within a
/// first byte; 0 where no token starts here.
fn operator_len(rest: &[u8]) -> usize {
    let b0 = rest[0];
    let b1 = rest.get(1).copied().unwrap_or(0);
    let b2 = rest.get(2).copied().unwrap_or(0);
    match b0 {
        b'<' | b'>' if b1 == b0 && b2 == b'=' => 3,
        b'&' if b1 == b'^' && b2 == b'=' => 3,
        b'.' if b1 == b'.' && b2 == b'.' => 3,
        b'<' | b'>' | b'&' | b'|' | b'+' | b'-' if b1 == b0 => 2,
        b'&' if b1 == b'^' => 2,
        b'<' if b1 == b'-' => 2,
        b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'<' | b'>' | b'=' | b'!'
        | b':'
            if b1 == b'=' =>
        {
            2
        }
        b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'<' | b'>' | b'=' | b'!'
        | b'~' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b',' | b';' | b'.' | b':' => 1,
        _ => 0,
    }
}

impl Scanner<'_> {
    fn push(&mut self, kind: TokenKind, start: usize, end: usize) {
        self.tokens.push(Token {
            kind,
            range: start..end,
        });
        self.at = end;
    }

    fn run(&mut self) -> Option<()> {
        let bytes = self.bytes;
        loop {
            while self.at < bytes.len() && matches!(bytes[self.at], b' ' | b'\t' | b'\n' | b'\r') {
                self.at += 1;
            }
            let Some(&b) = bytes.get(self.at) else {
                return self.brackets.is_empty().then_some(());
            };
            let start = self.at;
            match b {
                b'/' if bytes.get(start + 1) == Some(&b'/') => {
                    self.comments += 1;
                    self.at = bytes[start..]
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(bytes.len(), |offset| start + offset);
                }
                b'/' if bytes.get(start + 1) == Some(&b'*') => {
                    self.comments += 1;
                    let close = self.text[start + 2..].find("*/")?;
                    self.at = start + 2 + close + 2;
                }
                b'"' => {
                    let end = self.interpreted_string_end(start)?;
                    self.push(TokenKind::String, start, end);
                }
                b'`' => {
                    let close = bytes[start + 1..].iter().position(|&b| b == b'`')?;
                    self.push(TokenKind::String, start, start + 1 + close + 1);
                }
                b'\'' => {
                    let end = self.rune_end(start)?;
                    self.push(TokenKind::Char, start, end);
                }
                b'0'..=b'9' => self.push(
                    TokenKind::Number,
                    start,
                    start + number_len(&bytes[start..]),
                ),
                b'.' if bytes.get(start + 1).is_some_and(u8::is_ascii_digit) => {
                    self.push(
                        TokenKind::Number,
                        start,
                        start + number_len(&bytes[start..]),
                    );
                }
                _ if b.is_ascii_alphabetic() || b == b'_' || b >= 0x80 => self.word(start)?,
                _ => self.operator(start)?,
            }
        }
    }

    fn word(&mut self, start: usize) -> Option<()> {
        let rest = &self.text[start..];
        let ascii = rest
            .bytes()
            .position(|b| !(b.is_ascii_alphanumeric() || b == b'_'))
            .unwrap_or(rest.len());
        let len = if rest.as_bytes().get(ascii).is_some_and(|&b| b >= 0x80) {
            let mut chars = rest.char_indices();
            let (_, first) = chars.next()?;
            if !(first == '_' || is_xid_start(first)) {
                return None;
            }
            chars
                .find(|&(_, c)| !(c == '_' || is_xid_continue(c)))
                .map_or(rest.len(), |(offset, _)| offset)
        } else {
            ascii
        };
        let kind = if is_keyword(&rest[..len]) {
            TokenKind::Keyword
        } else {
            TokenKind::Identifier
        };
        self.push(kind, start, start + len);
        Some(())
    }

    fn operator(&mut self, start: usize) -> Option<()> {
        let b = self.bytes[start];
        let mut len = operator_len(&self.bytes[start..]);
        if len == 0 {
            return None;
        }
        if len > 1
            && matches!(b, b'+' | b'-' | b'!' | b'^' | b'*' | b'&')
            && (self.operand_expected() || self.statement_starts(start, len))
        {
            // Where only a unary operator may stand, the grammar's lexer
            // takes `&` of `&^x`, `-` of `--x`.
            len = 1;
        }
        match b {
            b'(' | b'[' | b'{' => self.brackets.push(b),
            b')' | b']' | b'}' if self.brackets.pop() != Some(opening_bracket(b)) => return None,
            _ => {}
        }
        let kind = if len == 1 {
            TokenKind::of_symbol_text(&self.text[start..=start])
        } else {
            TokenKind::Operator
        };
        self.push(kind, start, start + len);
        Some(())
    }

    /// Whether the operator at `start` (`len` bytes) starts a statement,
    /// where Go has no binary or assigning one: after a line break that
    /// ends the statement before (`a := a` newline `--a`, `&^a`, `-=a`),
    /// or, for `++` and `--`, after a `}` (`S{} != b` compares).
    fn statement_starts(&self, start: usize, len: usize) -> bool {
        let Some(last) = self.tokens.last() else {
            return false;
        };
        let steps = matches!(&self.text[start..start + len], "++" | "--");
        (steps && &self.text[last.range.clone()] == "}")
            || (self.text[last.range.end..start].contains('\n') && ends_statement(self.text, last))
    }

    /// Whether an operand must come next: after an operator (but `++`,
    /// `--`), an opening bracket, a separator, or a keyword that an
    /// expression follows.
    fn operand_expected(&self) -> bool {
        self.tokens.last().is_some_and(|token| {
            let word = &self.text[token.range.clone()];
            match token.kind {
                TokenKind::Operator => !matches!(word, "++" | "--"),
                TokenKind::Punctuation => matches!(word, "(" | "[" | "{" | "," | ";" | ":"),
                TokenKind::Keyword => matches!(
                    word,
                    "return" | "case" | "if" | "for" | "switch" | "go" | "defer" | "range"
                ),
                _ => false,
            }
        })
    }

    /// Where the `"…"` string at `start` ends; `None` if it does not on its
    /// line or holds an escape the grammar has none for.
    fn interpreted_string_end(&self, start: usize) -> Option<usize> {
        let bytes = self.bytes;
        let mut at = start + 1;
        loop {
            match *bytes.get(at)? {
                b'"' => return Some(at + 1),
                b'\n' => return None,
                b'\\' => {
                    at += 1;
                    let digits = |count: usize, at: usize| {
                        bytes
                            .get(at..at + count)
                            .is_some_and(|run| run.iter().all(u8::is_ascii_hexdigit))
                    };
                    match *bytes.get(at)? {
                        b'x' => {
                            let run = bytes[at + 1..]
                                .iter()
                                .take_while(|b| b.is_ascii_hexdigit())
                                .count();
                            if run < 2 {
                                return None;
                            }
                            at += 1 + run;
                        }
                        b'u' if digits(4, at + 1) => at += 5,
                        b'U' if digits(8, at + 1) => at += 9,
                        b'u' | b'U' => return None,
                        _ => at += self.text[at..].chars().next()?.len_utf8(),
                    }
                }
                _ => at += 1,
            }
        }
    }

    /// Where the rune literal at `start` ends, as the grammar's one token.
    fn rune_end(&self, start: usize) -> Option<usize> {
        let bytes = self.bytes;
        let at = start + 1;
        let hex = |from: usize, count: usize| {
            bytes
                .get(from..from + count)
                .is_some_and(|run| run.iter().all(u8::is_ascii_hexdigit))
        };
        let body_end = match *bytes.get(at)? {
            b'\'' => return None,
            b'\\' => match *bytes.get(at + 1)? {
                b'x' if hex(at + 2, 2) => at + 4,
                b'u' if hex(at + 2, 4) => at + 6,
                b'U' if hex(at + 2, 8) => at + 10,
                b'0'..=b'7'
                    if bytes
                        .get(at + 1..at + 4)
                        .is_some_and(|run| run.iter().all(|b| (b'0'..=b'7').contains(b))) =>
                {
                    at + 4
                }
                b'a' | b'b' | b'f' | b'n' | b'r' | b't' | b'v' | b'\\' | b'\'' | b'"' => at + 2,
                _ => return None,
            },
            _ => at + self.text[at..].chars().next()?.len_utf8(),
        };
        (bytes.get(body_end) == Some(&b'\'')).then_some(body_end + 1)
    }
}

/// The length of the number at the start of `rest`: the longest match of
/// the grammar's `int_literal`, `float_literal` and `imaginary_literal`.
fn number_len(rest: &[u8]) -> usize {
    let int = int_len(rest);
    let float = float_len(rest);
    let digits = digits_len(rest, 0, u8::is_ascii_digit);
    let longest = int.max(float).max(digits);
    if longest > 0 && rest.get(longest) == Some(&b'i') {
        // The imaginary literal takes any of the three before its `i`.
        longest + 1
    } else {
        int.max(float)
    }
}

/// The length of the integer literal at the start of `rest` (0 if none).
fn int_len(rest: &[u8]) -> usize {
    let prefixed = |at: usize, digit: fn(&u8) -> bool| {
        let at = if rest.get(at) == Some(&b'_') {
            at + 1
        } else {
            at
        };
        let end = digits_len(rest, at, digit);
        if end > at { end } else { 0 }
    };
    match (rest.first(), rest.get(1)) {
        (Some(b'0'), Some(b'x' | b'X')) => prefixed(2, u8::is_ascii_hexdigit).max(1),
        (Some(b'0'), Some(b'b' | b'B')) => prefixed(2, |b| matches!(b, b'0' | b'1')).max(1),
        (Some(b'0'), Some(b'o' | b'O')) => prefixed(2, |b| (b'0'..=b'7').contains(b)).max(1),
        (Some(b'0'), _) => prefixed(1, |b| (b'0'..=b'7').contains(b)).max(1),
        (Some(b'1'..=b'9'), _) => {
            let end = if rest.get(1) == Some(&b'_') { 2 } else { 1 };
            let digits = digits_len(rest, end, u8::is_ascii_digit);
            if digits > end { digits } else { 1 }
        }
        _ => 0,
    }
}

/// The length of the float literal at the start of `rest` (0 if none).
fn float_len(rest: &[u8]) -> usize {
    let decimal = |at: usize| digits_len(rest, at, u8::is_ascii_digit);
    let exponent = |at: usize, marks: [u8; 2]| -> usize {
        if !rest.get(at).is_some_and(|b| marks.contains(b)) {
            return at;
        }
        let sign = usize::from(matches!(rest.get(at + 1), Some(b'+' | b'-')));
        let end = decimal(at + 1 + sign);
        if end > at + 1 + sign { end } else { at }
    };
    if rest.starts_with(b"0x") || rest.starts_with(b"0X") {
        let hex = |at: usize| digits_len(rest, at, u8::is_ascii_hexdigit);
        let start = if rest.get(2) == Some(&b'_') { 3 } else { 2 };
        let whole = hex(start);
        let mantissa = if rest.get(whole) == Some(&b'.') {
            let fraction = hex(whole + 1);
            if whole > start || fraction > whole + 1 {
                fraction
            } else {
                return 0;
            }
        } else if whole > start {
            whole
        } else {
            return 0;
        };
        let end = exponent(mantissa, [b'p', b'P']);
        return if end > mantissa { end } else { 0 };
    }
    let whole = decimal(0);
    if rest.get(whole) == Some(&b'.') {
        let fraction = decimal(whole + 1);
        if whole == 0 && fraction == 1 {
            return 0;
        }
        return exponent(fraction, [b'e', b'E']);
    }
    if whole > 0 {
        let end = exponent(whole, [b'e', b'E']);
        if end > whole {
            return end;
        }
    }
    0
}

/// Makes `true`, `false`, `nil` and `iota` names where the grammar reads
/// a name or a type there: after `.` and the words that a name follows
/// (`const`, `var`, `func`, labels' `goto`…), before a type on the same
/// line (a parameter or field `iota int`), first in a line of a `const (…)`
/// or `var (…)` group, in the type list of a type switch's `case`, and as
/// the type argument of a generic call.
fn name_operand_words(text: &str, tokens: &mut [Token]) {
    let word = |index: usize| {
        tokens
            .get(index)
            .map_or("", |t: &Token| &text[t.range.clone()])
    };
    let type_switch_bodies = type_switch_bodies(text, tokens);
    // The open brackets: whether each is a type switch's body or a
    // declaration group.
    let mut open: Vec<(bool, bool)> = Vec::new();
    let mut in_case_types = false;
    let mut renamed = Vec::new();
    for index in 0..tokens.len() {
        let current = word(index);
        match current {
            "(" | "[" | "{" => {
                let group =
                    current == "(" && index > 0 && matches!(word(index - 1), "const" | "var");
                open.push((type_switch_bodies.contains(&index), group));
            }
            ")" | "]" | "}" => {
                open.pop();
            }
            "case" => in_case_types = open.last().is_some_and(|&(body, _)| body),
            ":" => in_case_types = false,
            _ => {}
        }
        if tokens[index].kind != TokenKind::Keyword || !OPERAND_WORDS.contains(&current) {
            continue;
        }
        let before = index.checked_sub(1).map_or("", |before| word(before));
        let same_line = |a: usize, b: usize| {
            tokens
                .get(b)
                .is_some_and(|next| !text[tokens[a].range.end..next.range.start].contains('\n'))
        };
        let next = &tokens.get(index + 1);
        let type_follows = same_line(index, index + 1)
            && next.is_some_and(|next| {
                next.kind == TokenKind::Identifier
                    || matches!(
                        &text[next.range.clone()],
                        "map" | "chan" | "func" | "struct" | "interface"
                    )
            });
        let group_start = open.last().is_some_and(|&(_, group)| group)
            && (before == "(" || before == ";" || (index > 0 && !same_line(index - 1, index)));
        let names = matches!(
            before,
            "." | "const" | "var" | "type" | "func" | "goto" | "break" | "continue"
        );
        let instantiated = is_instantiation_argument(text, tokens, index);
        if in_case_types || type_follows || group_start || names || instantiated {
            renamed.push(index);
        }
    }
    for index in renamed {
        tokens[index].kind = TokenKind::Identifier;
    }
}

/// Whether the word at `index` is the whole index of `N[…]` (in
/// parentheses or not), nested in the indexes of names (`a[b[c[nil]]]`),
/// that the grammar reads as type arguments: when the nesting, plus one
/// for a `[` after the outermost `]` and two for a `(` (a call of an
/// instantiation, on any line: `f[nil](x)`), less one when the outermost
/// name is `new` or `make`, reaches three. Shapes the grammar reads so
/// for other reasons (`a[nil]{}` outside a statement's header,
/// `a[b, c][nil]`, `a[(b[c[nil]])]`) are not followed: no valid Go has
/// them, for no such word is a type.
fn is_instantiation_argument(text: &str, tokens: &[Token], index: usize) -> bool {
    let word = |index: usize| tokens.get(index).map_or("", |t| &text[t.range.clone()]);
    let (mut first, mut last) = (index, index);
    while first > 0 && word(first - 1) == "(" && word(last + 1) == ")" {
        (first, last) = (first - 1, last + 1);
    }
    let mut levels = 0;
    while first > 2 * levels + 1
        && word(first - 2 * levels - 1) == "["
        && tokens[first - 2 * levels - 2].kind == TokenKind::Identifier
        && word(last + levels + 1) == "]"
    {
        levels += 1;
    }
    let follows = match word(last + levels + 1) {
        "[" => 1,
        "(" => 2,
        _ => 0,
    };
    // `new` and `make` take a type in parentheses to the grammar.
    let builtin = matches!(word(first - 2 * levels), "new" | "make");
    levels > 0 && levels + follows >= 3 + usize::from(builtin)
}

/// The indices of the `{` that open a type switch's body (`switch
/// x.(type) {`).
fn type_switch_bodies(text: &str, tokens: &[Token]) -> Vec<usize> {
    let word = |index: usize| {
        tokens
            .get(index)
            .map_or("", |t: &Token| &text[t.range.clone()])
    };
    let mut bodies = Vec::new();
    for index in 0..tokens.len() {
        if word(index) != "switch" {
            continue;
        }
        let mut depth = 0usize;
        let mut type_guard = false;
        for at in index + 1..tokens.len() {
            match word(at) {
                "(" | "[" => depth += 1,
                ")" | "]" => depth = depth.saturating_sub(1),
                "type" if word(at - 1) == "(" && word(at + 1) == ")" => type_guard = true,
                "{" if depth == 0 => {
                    if type_guard {
                        bodies.push(at);
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    bodies
}

/// Whether a statement may end after `token` at a line break (Go's rule
/// for automatic semicolons), so that a top-level declaration ends there.
fn ends_statement(text: &str, token: &Token) -> bool {
    match token.kind {
        TokenKind::Identifier | TokenKind::Number | TokenKind::String | TokenKind::Char => true,
        TokenKind::Keyword => matches!(
            &text[token.range.clone()],
            "break" | "continue" | "fallthrough" | "return" | "true" | "false" | "nil" | "iota"
        ),
        TokenKind::Operator | TokenKind::Punctuation => {
            matches!(&text[token.range.clone()], "++" | "--" | ")" | "]" | "}")
        }
    }
}

/// Drops the `package` clause and `import` declarations, and the
/// top-level declarations on one line that mention `require` (see the
/// module docs). A file whose only declaration is dropped loses its `;`s
/// too, unless it has comments.
fn drop_imports_and_requires(text: &str, tokens: &mut Vec<Token>, comments: usize) {
    let mut kept = Vec::with_capacity(tokens.len());
    let mut declarations = 0;
    let mut only_import = false;
    let mut index = 0;
    while index < tokens.len() {
        if &text[tokens[index].range.clone()] == ";" {
            kept.push(tokens[index].clone());
            index += 1;
            continue;
        }
        let end = declaration_end(text, tokens, index);
        let first = &text[tokens[index].range.clone()];
        let import =
            tokens[index].kind == TokenKind::Keyword && matches!(first, "package" | "import");
        let span = &text[tokens[index].range.start..tokens[end - 1].range.end];
        let require = !span.contains('\n')
            && ["require(", "require ", "require_relative"]
                .iter()
                .any(|marker| span.contains(marker));
        declarations += 1;
        only_import = declarations == 1 && import;
        if !(import || require) {
            kept.extend_from_slice(&tokens[index..end]);
        }
        index = end;
    }
    if declarations == 1 && only_import && comments == 0 {
        kept.clear();
    }
    *tokens = kept;
}

/// One past the last token of the top-level declaration starting at
/// `first`: it ends at a `;` or a line break after which no statement
/// can go on, outside brackets.
fn declaration_end(text: &str, tokens: &[Token], first: usize) -> usize {
    let mut depth = 0usize;
    let mut index = first;
    while index < tokens.len() {
        let token = &tokens[index];
        let word = &text[token.range.clone()];
        match word {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = depth.saturating_sub(1),
            ";" if depth == 0 => return index,
            _ => {}
        }
        index += 1;
        if depth == 0
            && tokens
                .get(index)
                .is_some_and(|next| text[token.range.end..next.range.start].contains('\n'))
            && ends_statement(text, token)
        {
            return index;
        }
    }
    index
}

#[cfg(test)]
mod tests {
    use super::number_len;

    #[test]
    fn numbers_are_the_longest_match() {
        for (text, len) in [
            ("0x1p-2 ", 6),
            ("1_000", 5),
            ("017", 3),
            ("08", 1),
            ("08.5", 4),
            ("089i", 4),
            ("1.5i", 4),
            (".5e3", 4),
            ("5.", 2),
            ("0b101", 5),
            ("0o17", 4),
            ("0x_ff", 5),
            ("1e", 1),
            ("0x", 1),
            ("0xp1", 1),
            ("0x.8p1", 6),
            ("1__0", 1),
        ] {
            assert_eq!(number_len(text.as_bytes()), len, "{text}");
        }
    }
}
