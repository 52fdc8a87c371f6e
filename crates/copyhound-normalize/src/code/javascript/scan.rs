//! JavaScript's lexemes as the grammar's lexer cuts them, with the
//! bracket each stands in.
//!
//! What the grammar decides by its parse state, the scanner decides by
//! the token before and the brackets around:
//!
//! - `/` starts a regular expression where an operand may start (after an
//!   operator, an opening bracket, `,`, `;`, a keyword such as `return`,
//!   the `)` of an `if`/`for`/`while`/`with` header, the `}` of a block)
//!   and is a division elsewhere;
//! - `{` opens a block at a statement's start (and after `)`, `=>`,
//!   `else`, `do`, `try`, `finally`), a class body after `class`, and an
//!   object elsewhere;
//! - template strings become their literal pieces, with each `${`, its
//!   code and its `}` between them;
//! - numbers and operators are the grammar's longest match.
//!
//! It gives up (`None`) where the grammar would read an error or where it
//! cannot tell what the grammar reads: an unclosed string, template,
//! comment, regular expression or bracket, a character no token starts
//! with, HTML-like comments, escapes in names.
//!
//! TypeScript's additions (types, their declarations, modifiers) are read
//! by `scan/typescript.rs` and `scan/types.rs`, JSX (in JavaScript and
//! TSX) by `scan/jsx.rs`, numbers by `scan/number.rs`.

mod jsx;
mod number;
mod types;
mod typescript;

use super::Dialect;
use crate::code::lexer::opening_bracket;
use number::number_len;
use typescript::Annotation;

/// What a lexeme is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A word: a keyword or a name, decided by the word pass.
    Word,
    Number,
    Str,
    /// A literal piece of a template string.
    Chunk,
    Regex,
    Op,
    Punct,
    /// `#name`.
    Private,
}

/// The bracket a lexeme stands in (directly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Context {
    Top,
    Block,
    Object,
    Class,
    Paren,
    /// The parentheses of a `for` header.
    ForParen,
    Bracket,
    /// The `${…}` of a template string.
    Substitution,
    /// The brackets of a TypeScript type.
    Type,
    /// The braces of a TypeScript import's or export's names.
    Specifiers,
    /// A JSX element's tag, from its `<` to its `>` or `/>`.
    JsxTag,
    /// A JSX element's children, from its tag's `>` to its closing `</`.
    JsxChildren,
    /// The braces of an expression in JSX.
    JsxBraces,
}

/// One lexeme: its kind, its bytes, the bracket it stands in, and whether
/// a line break comes before it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lexeme {
    pub(super) kind: Kind,
    pub(super) start: u32,
    pub(super) end: u32,
    pub(super) context: Context,
    pub(super) line_break_before: bool,
    /// For a word whose kind the TypeScript rules decided where they read
    /// it: keyword (`true`) or name.
    pub(super) keyword: Option<bool>,
    /// For a `}`: whether it closes a statement's block (a function
    /// declaration's body, an `if`'s or a loop's block), after which a
    /// statement may start on the same line; not an object, a class body or
    /// a function expression's body.
    pub(super) closes_block: bool,
}

/// The lexemes of `text` in `dialect` and its number of comments (and
/// hash-bang line), or `None` where the lexer leaves the text to the
/// grammar.
pub(super) fn scan(text: &str, dialect: Dialect) -> Option<(Vec<Lexeme>, usize)> {
    u32::try_from(text.len()).ok()?;
    let mut scanner = Scanner {
        text,
        bytes: text.as_bytes(),
        at: 0,
        out: Vec::with_capacity(text.len() / 4),
        stack: Vec::new(),
        line_break: false,
        comments: 0,
        pending_class: None,
        last_closed: None,
        ternaries: vec![0],
        case_pending: vec![false],
        colon_starts_statement: false,
        pending_function_expression: None,
        dialect,
        jsx_end: None,
        declaring: vec![false],
        pending_block: None,
        return_type_end: None,
    };
    scanner.run()?;
    Some((scanner.out, scanner.comments))
}

/// An open bracket: its context, and what it means when it closes.
#[derive(Clone, Copy, Debug)]
struct Open {
    context: Context,
    /// A `(` of an `if`, `for`, `while` or `with` header: a statement
    /// starts after its `)`.
    control: bool,
    /// A `{` of a function expression's or an arrow function's body: an
    /// operator, not a statement, may follow its `}`.
    expression_body: bool,
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    out: Vec<Lexeme>,
    stack: Vec<Open>,
    line_break: bool,
    comments: usize,
    /// After `class`: the bracket depth at which its body opens.
    pending_class: Option<usize>,
    /// The bracket the last `)`, `]` or `}` closed.
    last_closed: Option<Open>,
    /// By bracket depth: the `?` still waiting for their `:`.
    ternaries: Vec<usize>,
    /// By bracket depth: a `case` or `default` waiting for its `:`.
    case_pending: Vec<bool>,
    /// Whether the last `:` ended a label (`case 1:`, `loop:`), so that a
    /// statement starts after it.
    colon_starts_statement: bool,
    /// After a `function` that stands where an operand does: the bracket
    /// depth at which its body opens.
    pending_function_expression: Option<usize>,
    /// Whether TypeScript's rules apply, and JSX's.
    dialect: Dialect,
    /// The number of lexemes when the last JSX element ended: an operand
    /// ends there.
    jsx_end: Option<usize>,
    /// By bracket depth: whether a `let`, `const` or `var` declaration is
    /// open, so that a `:` after its binding starts a type.
    declaring: Vec<bool>,
    /// After `namespace N`, `module M`, `global`: the bracket depth at
    /// which the block opens.
    pending_block: Option<usize>,
    /// After a function's return type: the number of lexemes up to its
    /// end, so that a `{` right after it opens the function's body.
    return_type_end: Option<usize>,
}

/// Whether `c` may go on a name (the grammar's `identifier`: anything but
/// controls, white space, the punctuation it excludes and a few invisible
/// characters).
fn is_name_char(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric() || c == '_' || c == '$'
    } else {
        !(c.is_whitespace() || matches!(c, '\u{FEFF}' | '\u{2060}' | '\u{200B}'))
    }
}

/// The length of the operator or punctuation at the start of `rest`, the
/// longest that matches; 0 where none starts.
fn operator_len(rest: &[u8]) -> usize {
    if rest.starts_with(b"?.") && !rest.get(2).is_some_and(u8::is_ascii_digit) {
        return 2;
    }
    // By first byte, longest first, so that the first match is the
    // longest.
    let longer: &[&[u8]] = match rest[0] {
        b'>' => &[b">>>=", b">>>", b">>=", b">>", b">="],
        b'<' => &[b"<<=", b"<<", b"<="],
        b'=' => &[b"===", b"==", b"=>"],
        b'!' => &[b"!==", b"!="],
        b'*' => &[b"**=", b"**", b"*="],
        b'&' => &[b"&&=", b"&&", b"&="],
        b'|' => &[b"||=", b"||", b"|="],
        b'?' => &[b"??=", b"??"],
        b'.' => &[b"..."],
        b'+' => &[b"++", b"+="],
        b'-' => &[b"--", b"-="],
        b'/' => &[b"/="],
        b'%' => &[b"%="],
        b'^' => &[b"^="],
        _ => &[],
    };
    let starts = |op: &[u8]| rest.len() >= op.len() && op.iter().zip(rest).all(|(a, b)| a == b);
    if let Some(op) = longer.iter().find(|op| starts(op)) {
        return op.len();
    }
    usize::from(b"+-*/%&|^!~<>=?:.,;()[]{}@".contains(&rest[0]))
}

/// Reserved words after which an operand comes (`return /x/`).
const OPERAND_AFTER: &[&str] = &[
    "return",
    "typeof",
    "case",
    "do",
    "else",
    "in",
    "new",
    "delete",
    "void",
    "throw",
    "instanceof",
    "yield",
    "await",
    "extends",
];

/// Words that are values: what follows them is an operator.
const VALUE_WORDS: &[&str] = &["this", "super", "null", "true", "false", "undefined"];

/// The reserved words of the grammar.
pub(super) const RESERVED: &[&str] = &[
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
];

impl Scanner<'_> {
    fn context(&self) -> Context {
        self.stack.last().map_or(Context::Top, |open| open.context)
    }

    fn word_at(&self, lexeme: &Lexeme) -> &str {
        &self.text[lexeme.start as usize..lexeme.end as usize]
    }

    fn push(&mut self, kind: Kind, start: usize, end: usize) {
        self.push_decided(kind, start, end, None);
    }

    fn push_decided(&mut self, kind: Kind, start: usize, end: usize, keyword: Option<bool>) {
        self.out.push(Lexeme {
            kind,
            start: start as u32,
            end: end as u32,
            context: self.context(),
            line_break_before: std::mem::take(&mut self.line_break),
            keyword,
            closes_block: false,
        });
        self.at = end;
    }

    fn run(&mut self) -> Option<()> {
        if self.text.starts_with("#!") {
            self.comments += 1;
            self.at = self.line_end(0);
        }
        loop {
            self.skip_space()?;
            let Some(&b) = self.bytes.get(self.at) else {
                return self.stack.is_empty().then_some(());
            };
            let start = self.at;
            match b {
                b'"' | b'\'' => {
                    let end = self.string_end(start)?;
                    self.push(Kind::Str, start, end);
                }
                b'`' => self.template(start)?,
                b'0'..=b'9' => self.push(
                    Kind::Number,
                    start,
                    start + number_len(&self.bytes[start..]),
                ),
                b'.' if self.bytes.get(start + 1).is_some_and(u8::is_ascii_digit) => {
                    self.push(
                        Kind::Number,
                        start,
                        start + number_len(&self.bytes[start..]),
                    );
                }
                b'#' => {
                    let len = self.name_len(start + 1)?;
                    self.push(Kind::Private, start, start + 1 + len);
                }
                b'/' if self.operand_expected() => {
                    let end = self.regex_end(start)?;
                    self.push(Kind::Regex, start, end);
                }
                b'<' if self.operand_expected() => {
                    if self.dialect.jsx() {
                        self.jsx_element(start)?;
                    } else {
                        self.angle_operand()?;
                    }
                }
                b'<' if self.dialect.typescript() && self.type_arguments_here()? => {}
                b'}' if self.context() == Context::Substitution => {
                    self.stack.pop();
                    self.close_depth();
                    self.push(Kind::Punct, start, start + 1);
                    self.template_rest(start + 1)?;
                }
                _ if b >= 0x80 || b.is_ascii_alphabetic() || b == b'_' || b == b'$' => {
                    let len = self.name_len(start)?;
                    if !(self.dialect.typescript() && self.typescript_word(start, start + len)?) {
                        self.word(start, start + len);
                    }
                }
                _ => self.operator(start)?,
            }
        }
    }

    fn line_end(&self, from: usize) -> usize {
        self.bytes[from..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(self.bytes.len(), |offset| from + offset)
    }

    /// Skips space and comments; `None` at an HTML-like comment.
    fn skip_space(&mut self) -> Option<()> {
        loop {
            let Some(&b) = self.bytes.get(self.at) else {
                return Some(());
            };
            match b {
                b'\n' | b'\r' => {
                    self.line_break = true;
                    self.at += 1;
                }
                b' ' | b'\t' | b'\x0b' | b'\x0c' => self.at += 1,
                b'/' if self.bytes.get(self.at + 1) == Some(&b'/') => {
                    self.comments += 1;
                    self.at = self.line_end(self.at);
                }
                b'/' if self.bytes.get(self.at + 1) == Some(&b'*') => {
                    self.comments += 1;
                    let close = self.text[self.at + 2..].find("*/")?;
                    let body = &self.text[self.at..self.at + 2 + close];
                    if body.contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
                        self.line_break = true;
                    }
                    self.at += 2 + close + 2;
                }
                b'<' if self.text[self.at..].starts_with("<!--") => return None,
                b'-' if self.line_break && self.text[self.at..].starts_with("-->") => return None,
                _ if b >= 0x80 => {
                    let c = self.text[self.at..].chars().next()?;
                    if c.is_whitespace() || matches!(c, '\u{FEFF}' | '\u{2060}' | '\u{200B}') {
                        if matches!(c, '\u{2028}' | '\u{2029}') {
                            self.line_break = true;
                        }
                        self.at += c.len_utf8();
                    } else {
                        return Some(());
                    }
                }
                _ => return Some(()),
            }
        }
    }

    /// The length of the name at `from` (`None` if none, or if it holds an
    /// escape).
    fn name_len(&self, from: usize) -> Option<usize> {
        let rest = &self.text[from..];
        let first = rest.chars().next()?;
        if first.is_ascii_digit() || !is_name_char(first) {
            return None;
        }
        let len = rest
            .char_indices()
            .find(|&(_, c)| !is_name_char(c))
            .map_or(rest.len(), |(offset, _)| offset);
        (!rest[len..].starts_with('\\')).then_some(len)
    }

    /// Whether an operand may start here (so `/` opens a regular
    /// expression and `{` an object).
    fn operand_expected(&self) -> bool {
        let Some(last) = self.out.last() else {
            return true;
        };
        if self.jsx_end == Some(self.out.len()) {
            return false;
        }
        let text = self.word_at(last);
        match last.kind {
            // A template's piece is last only where it closes the template.
            Kind::Number | Kind::Str | Kind::Regex | Kind::Private | Kind::Chunk => false,
            Kind::Word if last.keyword.is_some() => false,
            Kind::Word => {
                let property = self.out.len() >= 2
                    && matches!(self.word_at(&self.out[self.out.len() - 2]), "." | "?.");
                // `of` only in a `for` header: elsewhere it is a name.
                let of = text == "of" && self.context() == Context::ForParen;
                !property
                    && ((RESERVED.contains(&text) && !VALUE_WORDS.contains(&text))
                        || OPERAND_AFTER.contains(&text)
                        || of)
            }
            Kind::Punct => match text {
                ")" => self.last_closed.is_some_and(|open| open.control),
                "]" => false,
                "}" => self.last_closed.is_some_and(|open| {
                    matches!(open.context, Context::Block | Context::Class) && !open.expression_body
                }),
                _ => true,
            },
            Kind::Op => {
                if text == "!" && self.dialect.typescript() {
                    // TypeScript's `x!` asserts an operand is not null.
                    !self.non_null_assertion(self.out.len() - 1)
                } else if matches!(text, "++" | "--") {
                    // Postfix after an operand, prefix before one.
                    let before = self.out.len().checked_sub(2).map(|i| &self.out[i]);
                    before.is_none_or(|before| {
                        matches!(before.kind, Kind::Op)
                            || matches!(self.word_at(before), "(" | "[" | "{" | "," | ";" | ":")
                    })
                } else {
                    true
                }
            }
        }
    }

    fn word(&mut self, start: usize, end: usize) {
        let word = &self.text[start..end];
        let property = self
            .out
            .last()
            .is_some_and(|last| matches!(self.word_at(last), "." | "?."));
        let next = self.next_byte(end);
        let key = next == Some(b':');
        // `class` declares where a name, `extends` or the body follows (a
        // field named `class;` does not).
        let declares = next.is_some_and(|b| {
            b == b'{' || b == b'_' || b == b'$' || b.is_ascii_alphabetic() || b >= 0x80
        });
        if word == "class" && !property && declares {
            self.pending_class = Some(self.stack.len());
        }
        if word == "function" && !property && self.in_expression() {
            self.pending_function_expression = Some(self.stack.len());
        }
        let switch_body = matches!(self.context(), Context::Block | Context::Top);
        if (word == "case" || (word == "default" && key))
            && !property
            && switch_body
            && let Some(pending) = self.case_pending.last_mut()
        {
            *pending = true;
        }
        self.push(Kind::Word, start, end);
    }

    /// The first byte after `from` that is not a space.
    fn next_byte(&self, from: usize) -> Option<u8> {
        self.bytes[from..]
            .iter()
            .copied()
            .find(|b| !matches!(b, b' ' | b'\t'))
    }

    fn operator(&mut self, start: usize) -> Option<()> {
        let b = self.bytes[start];
        let len = operator_len(&self.bytes[start..]);
        if len == 0 {
            return None;
        }
        match b {
            b'[' if self.dialect.typescript() && self.index_signature_here()? => return Some(()),
            b'(' | b'[' => {
                let context = if b == b'[' {
                    Context::Bracket
                } else if self.last_word() == Some("for")
                    || self.last_two_words() == Some(("for", "await"))
                {
                    Context::ForParen
                } else {
                    Context::Paren
                };
                let control = b == b'('
                    && (matches!(self.last_word(), Some("if" | "for" | "while" | "with"))
                        || self.last_two_words() == Some(("for", "await")));
                self.push(Kind::Punct, start, start + 1);
                self.open(Open {
                    context,
                    control,
                    expression_body: false,
                });
                return Some(());
            }
            b'{' => {
                let context = self.brace_context();
                let function_body = self.pending_function_expression == Some(self.stack.len())
                    && (self.last_word_is(")") || self.return_type_just_ended());
                if function_body {
                    self.pending_function_expression = None;
                }
                let expression_body =
                    context == Context::Block && (function_body || self.last_word_is("=>"));
                self.push(Kind::Punct, start, start + 1);
                self.open(Open {
                    context,
                    control: false,
                    expression_body,
                });
                return Some(());
            }
            b')' | b']' | b'}' => {
                let open = self.stack.pop()?;
                let expected = match open.context {
                    Context::Paren | Context::ForParen => b'(',
                    Context::Bracket => b'[',
                    Context::Substitution
                    | Context::Top
                    | Context::Type
                    | Context::JsxTag
                    | Context::JsxChildren => return None,
                    Context::Block
                    | Context::Object
                    | Context::Class
                    | Context::Specifiers
                    | Context::JsxBraces => b'{',
                };
                if opening_bracket(b) != expected {
                    return None;
                }
                self.close_depth();
                self.push(Kind::Punct, start, start + 1);
                if let Some(closing) = self.out.last_mut() {
                    closing.closes_block = open.context == Context::Block && !open.expression_body;
                }
                self.last_closed = Some(open);
                if open.context == Context::JsxBraces {
                    return self.jsx();
                }
                return Some(());
            }
            b'?' if len == 1 && !(self.dialect.typescript() && self.optional_marker(start)) => {
                *self.ternaries.last_mut()? += 1;
            }
            b':' if len == 1 => {
                let annotation = self.colon()?;
                if annotation != Annotation::None {
                    self.push(Kind::Punct, start, start + 1);
                    return self.annotation(annotation);
                }
            }
            b';' => {
                *self.ternaries.last_mut()? = 0;
                *self.declaring.last_mut()? = false;
            }
            _ => {}
        }
        let kind = if len == 1 && b"()[]{},;:.".contains(&b) {
            Kind::Punct
        } else {
            Kind::Op
        };
        self.push(kind, start, start + len);
        Some(())
    }

    /// Reads a `:`: it ends a `case` label, else a ternary's branch, else
    /// (outside objects and brackets) a statement's label, or in
    /// TypeScript starts a type, whose annotation it returns.
    fn colon(&mut self) -> Option<Annotation> {
        let case = std::mem::take(self.case_pending.last_mut()?);
        let ternary = self.ternaries.last_mut()?;
        let ends_ternary = !case && *ternary > 0;
        if ends_ternary {
            *ternary -= 1;
        }
        let annotation = if self.dialect.typescript() && !case && !ends_ternary {
            self.colon_starts_type()?
        } else {
            Annotation::None
        };
        self.colon_starts_statement = if case {
            true
        } else if ends_ternary || annotation != Annotation::None {
            false
        } else {
            matches!(self.context(), Context::Top | Context::Block)
        };
        Some(annotation)
    }

    fn open(&mut self, open: Open) {
        self.stack.push(open);
        self.ternaries.push(0);
        self.case_pending.push(false);
        self.declaring.push(false);
    }

    /// Forgets what was pending inside a bracket that closes.
    fn close_depth(&mut self) {
        self.ternaries.pop();
        self.case_pending.pop();
        self.declaring.pop();
    }

    fn last_word_is(&self, text: &str) -> bool {
        self.out
            .last()
            .is_some_and(|last| self.word_at(last) == text)
    }

    /// Whether a word here stands in an expression (after an operator, an
    /// opening bracket, `,`, `?`, a value's `:`, or a keyword that an
    /// operand follows), not at a statement's start.
    fn in_expression(&self) -> bool {
        let Some(last) = self.out.last() else {
            return false;
        };
        let text = self.word_at(last);
        match last.kind {
            Kind::Op => !matches!(text, "++" | "--"),
            Kind::Punct => match text {
                "(" | "[" | "," => true,
                ":" => !self.colon_starts_statement,
                "{" => self.context() == Context::Object,
                _ => false,
            },
            Kind::Word => matches!(
                text,
                "return"
                    | "await"
                    | "yield"
                    | "typeof"
                    | "void"
                    | "delete"
                    | "new"
                    | "in"
                    | "instanceof"
                    | "case"
                    | "throw"
            ),
            _ => false,
        }
    }

    fn last_word(&self) -> Option<&str> {
        self.out
            .last()
            .filter(|last| last.kind == Kind::Word)
            .map(|last| self.word_at(last))
    }

    fn last_two_words(&self) -> Option<(&str, &str)> {
        let n = self.out.len();
        (n >= 2).then(|| {
            (
                self.word_at(&self.out[n - 2]),
                self.word_at(&self.out[n - 1]),
            )
        })
    }

    /// What a `{` at the cursor opens.
    fn brace_context(&mut self) -> Context {
        if self.pending_class == Some(self.stack.len()) {
            self.pending_class = None;
            return Context::Class;
        }
        if self.dialect.typescript()
            && let Some(context) = self.typescript_brace()
        {
            return context;
        }
        let Some(last) = self.out.last() else {
            return Context::Block;
        };
        let text = self.word_at(last);
        let statement_start = match last.kind {
            Kind::Punct => match text {
                ";" | ")" => true,
                "{" => matches!(
                    self.context(),
                    Context::Block | Context::Top | Context::Class
                ),
                "}" => self
                    .last_closed
                    .is_some_and(|open| matches!(open.context, Context::Block | Context::Class)),
                ":" => self.colon_starts_statement,
                _ => false,
            },
            Kind::Op => text == "=>",
            Kind::Word => matches!(text, "else" | "do" | "try" | "catch" | "finally" | "static"),
            _ => false,
        };
        if statement_start {
            Context::Block
        } else {
            Context::Object
        }
    }

    /// Where the string at `start` ends; `None` if not on its line.
    fn string_end(&self, start: usize) -> Option<usize> {
        let quote = self.bytes[start];
        let mut at = start + 1;
        loop {
            match *self.bytes.get(at)? {
                b if b == quote => return Some(at + 1),
                b'\n' | b'\r' => return None,
                b'\\' => {
                    let next = *self.bytes.get(at + 1)?;
                    at += match next {
                        b'x' if self.hex_run(at + 2, 2) => 4,
                        b'u' if self.hex_run(at + 2, 4) => 6,
                        b'u' if self.bytes.get(at + 2) == Some(&b'{') => {
                            let close = self.bytes[at + 3..].iter().position(|&b| b == b'}')?;
                            if close == 0 || !self.hex_run(at + 3, close) {
                                return None;
                            }
                            close + 4
                        }
                        b'x' | b'u' => return None,
                        b'\r' if self.bytes.get(at + 2) == Some(&b'\n') => 3,
                        _ => 1 + self.text[at + 1..].chars().next()?.len_utf8(),
                    };
                }
                _ => at += 1,
            }
        }
    }

    fn hex_run(&self, from: usize, count: usize) -> bool {
        self.bytes
            .get(from..from + count)
            .is_some_and(|run| run.iter().all(u8::is_ascii_hexdigit))
    }

    /// A template string from its backtick: pieces up to each `${`, whose
    /// code the main loop reads, and up to the closing backtick.
    fn template(&mut self, start: usize) -> Option<()> {
        self.template_rest_from(start, start + 1)
    }

    /// Goes on with a template after a substitution's `}` at `from - 1`.
    fn template_rest(&mut self, from: usize) -> Option<()> {
        self.template_rest_from(from, from)
    }

    fn template_rest_from(&mut self, chunk_start: usize, from: usize) -> Option<()> {
        let mut at = from;
        loop {
            match *self.bytes.get(at)? {
                b'`' => {
                    self.push(Kind::Chunk, chunk_start, at + 1);
                    return Some(());
                }
                b'\\' => at += 1 + self.text[at + 1..].chars().next()?.len_utf8(),
                b'$' if self.bytes.get(at + 1) == Some(&b'{') => {
                    if chunk_start < at {
                        self.push(Kind::Chunk, chunk_start, at);
                    }
                    self.push(Kind::Op, at, at + 2);
                    self.open(Open {
                        context: Context::Substitution,
                        control: false,
                        expression_body: false,
                    });
                    return Some(());
                }
                _ => at += 1,
            }
        }
    }

    /// Where the regular expression at `start` ends, flags included.
    fn regex_end(&self, start: usize) -> Option<usize> {
        let bytes = self.bytes;
        let mut at = start + 1;
        let mut in_class = false;
        loop {
            match *bytes.get(at)? {
                b'\n' | b'\r' => return None,
                b'\\' => {
                    let next = self.text[at + 1..].chars().next()?;
                    if matches!(next, '\n' | '\r') {
                        return None;
                    }
                    at += 1 + next.len_utf8();
                }
                b'[' => {
                    in_class = true;
                    at += 1;
                }
                b']' => {
                    in_class = false;
                    at += 1;
                }
                b'/' if !in_class => break,
                _ => at += 1,
            }
        }
        if at == start + 1 {
            return None;
        }
        let flags = bytes[at + 1..]
            .iter()
            .take_while(|b| b.is_ascii_lowercase())
            .count();
        Some(at + 1 + flags)
    }
}
