//! JSX, where JavaScript and TSX allow it: an element where an operand
//! starts, read as the grammar's lexer cuts it.
//!
//! - Tags: `<` (and `</` of a closing tag, one token), the element's name
//!   (names, `.` and `:` between them; a name may hold `-`), attributes
//!   (`name`, `=`, a string read whole without escapes, an expression in
//!   braces, or an element), `>` or `/>`. A fragment is `<` `>` … `</` `>`.
//! - Children: text, as the grammar's external scanner cuts it (a run up to
//!   `<`, `>`, `{`, `}` or `&`, a token only when it holds more than white
//!   space that starts a line), character references (`&amp;`: the tree
//!   walker splits them with the language's table lexer, and so does this
//!   scanner), expressions in braces and elements.
//!
//! The code in braces is read by the main loop, in context `JsxBraces`; its
//! `}` hands the cursor back here, where the element it stands in goes on.
//! Names and attributes are names to the tree walker, so their words are
//! decided here. Where the grammar would read an error (in JavaScript a
//! reserved word as a name; text up to the end, a stray `>` or `}`, an `&`
//! that starts no character reference), the scanner gives up. In TSX,
//! `<T,>(…)` and `<T extends U>(…)` open a generic arrow function's type
//! parameters, not an element.

use super::{Context, Kind, Open, RESERVED, Scanner};
use crate::code::Language;
use crate::code::lexer::lexer;
use crate::code::token::TokenKind;

/// Whether lexemes in `context` are JSX's own (a tag or children).
pub(super) fn is_jsx(context: Context) -> bool {
    matches!(context, Context::JsxTag | Context::JsxChildren)
}

impl Scanner<'_> {
    /// Reads the element whose `<` is at `start` as far as the first
    /// expression in braces, or to its end.
    pub(super) fn jsx_element(&mut self, start: usize) -> Option<()> {
        if self.dialect.typescript() && self.tsx_generic_arrow() {
            return Some(());
        }
        self.jsx_open_tag(start)?;
        self.jsx()
    }

    /// Goes on with the JSX around the cursor after an expression's `}`.
    pub(super) fn jsx(&mut self) -> Option<()> {
        loop {
            let go_on = match self.context() {
                Context::JsxTag => self.jsx_tag_step()?,
                Context::JsxChildren => self.jsx_children_step()?,
                _ => {
                    // The outermost element closed: an operand ends here.
                    self.jsx_end = Some(self.out.len());
                    return Some(());
                }
            };
            if !go_on {
                return Some(());
            }
        }
    }

    fn open_jsx(&mut self, context: Context) {
        self.open(Open {
            context,
            control: false,
            expression_body: false,
        });
    }

    /// `<` at `start`, then the element's name, or the `>` of a fragment.
    fn jsx_open_tag(&mut self, start: usize) -> Option<()> {
        self.open_jsx(Context::JsxTag);
        self.push(Kind::Op, start, start + 1);
        self.skip_space()?;
        if self.bytes.get(self.at) == Some(&b'>') {
            self.push(Kind::Op, self.at, self.at + 1);
            self.stack.last_mut()?.context = Context::JsxChildren;
            return Some(());
        }
        self.jsx_name(true)?;
        // In TSX, `<T extends U>` not followed by `(`: whether the grammar
        // reads an element or erring type parameters is left to it (a `,`
        // after the name already stops the attributes).
        self.skip_space()?;
        if self.dialect.typescript() && self.next_word(self.at) == Some("extends") {
            return None;
        }
        Some(())
    }

    /// An element's name (`member`: `a.b.c` allowed) or an attribute's:
    /// names joined by `.` or one `:`.
    fn jsx_name(&mut self, member: bool) -> Option<()> {
        self.jsx_identifier()?;
        match self.bytes.get(self.at) {
            Some(b':') => {
                self.push(Kind::Punct, self.at, self.at + 1);
                self.jsx_identifier()
            }
            Some(b'.') if member => {
                while self.bytes.get(self.at) == Some(&b'.') {
                    self.push(Kind::Punct, self.at, self.at + 1);
                    // A member's name holds no `-`.
                    let len = self.name_len(self.at)?;
                    self.jsx_word(self.at, self.at + len)?;
                }
                Some(())
            }
            _ => Some(()),
        }
    }

    /// A name, which in JSX may go on with `-` and ASCII name characters.
    fn jsx_identifier(&mut self) -> Option<()> {
        let start = self.at;
        let mut end = start + self.name_len(start)?;
        if self.bytes.get(end) == Some(&b'-') {
            if !self.text[start..end].is_ascii() {
                return None;
            }
            end += self.bytes[end..]
                .iter()
                .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'-'))
                .count();
        }
        self.jsx_word(start, end)
    }

    /// The name `start..end`. A reserved word is an error there in
    /// JavaScript's grammar, a name in TSX's (`<div class="x">`).
    fn jsx_word(&mut self, start: usize, end: usize) -> Option<()> {
        if !self.dialect.typescript() && RESERVED.contains(&&self.text[start..end]) {
            return None;
        }
        self.push_decided(Kind::Word, start, end, Some(false));
        Some(())
    }

    /// One step inside a tag: an attribute, an expression's `{` (false:
    /// the main loop reads it), or the tag's end.
    fn jsx_tag_step(&mut self) -> Option<bool> {
        self.skip_space()?;
        let at = self.at;
        match *self.bytes.get(at)? {
            b'>' => {
                self.push(Kind::Op, at, at + 1);
                self.stack.last_mut()?.context = Context::JsxChildren;
            }
            b'/' if self.bytes.get(at + 1) == Some(&b'>') => {
                self.push(Kind::Op, at, at + 2);
                self.jsx_close();
            }
            b'{' => {
                self.jsx_braces(at);
                return Some(false);
            }
            _ => {
                self.jsx_name(false)?;
                self.skip_space()?;
                if self.bytes.get(self.at) != Some(&b'=') {
                    return Some(true);
                }
                self.push(Kind::Op, self.at, self.at + 1);
                self.skip_space()?;
                let at = self.at;
                match *self.bytes.get(at)? {
                    quote @ (b'"' | b'\'') => {
                        // No escapes: the string ends at its next quote,
                        // on whatever line.
                        let close = self.bytes[at + 1..].iter().position(|&b| b == quote)?;
                        self.push(Kind::Str, at, at + close + 2);
                    }
                    b'{' => {
                        self.jsx_braces(at);
                        return Some(false);
                    }
                    b'<' => self.jsx_open_tag(at)?,
                    _ => return None,
                }
            }
        }
        Some(true)
    }

    /// One step among children: text, a character reference, an
    /// element's start or end, or an expression's `{` (false: the main
    /// loop reads it).
    fn jsx_children_step(&mut self) -> Option<bool> {
        self.jsx_text()?;
        let at = self.at;
        match *self.bytes.get(at)? {
            b'{' => {
                self.jsx_braces(at);
                return Some(false);
            }
            b'<' if self.bytes.get(at + 1) == Some(&b'/') => {
                self.push(Kind::Op, at, at + 2);
                self.skip_space()?;
                if self.bytes.get(self.at) != Some(&b'>') {
                    self.jsx_name(true)?;
                    self.skip_space()?;
                }
                if self.bytes.get(self.at) != Some(&b'>') {
                    return None;
                }
                self.push(Kind::Op, self.at, self.at + 1);
                self.jsx_close();
            }
            b'<' => self.jsx_open_tag(at)?,
            b'&' => self.jsx_character_reference(at)?,
            _ => return None,
        }
        Some(true)
    }

    /// Text among children up to the next `<`, `>`, `{`, `}` or `&`: a
    /// token when it holds anything but white space at the start of its
    /// lines (the grammar's external scanner's rule, kept to ASCII white
    /// space, as its `iswspace` knows it).
    fn jsx_text(&mut self) -> Option<()> {
        let start = self.at;
        let mut at = start;
        let mut saw_text = false;
        let mut at_newline = false;
        let mut newline = false;
        loop {
            let c = self.text[at..].chars().next()?;
            if matches!(c, '<' | '>' | '{' | '}' | '&' | '\0') {
                break;
            }
            let space = if c.is_ascii() {
                matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
            } else if c.is_whitespace() {
                // Unicode space: whether the grammar's scanner counts it
                // depends on its C library's locale.
                return None;
            } else {
                false
            };
            if c == '\n' {
                at_newline = true;
                newline = true;
            } else {
                at_newline &= space;
                saw_text |= !at_newline;
            }
            at += c.len_utf8();
        }
        if saw_text {
            self.push(Kind::Str, start, at);
        } else {
            self.at = at;
            self.line_break |= newline;
        }
        Some(())
    }

    /// A character reference (`&amp;`, `&#38;`, `&#x26;`) at `start`,
    /// split as the tree walker splits it: with the table lexer.
    fn jsx_character_reference(&mut self, start: usize) -> Option<()> {
        let len = character_reference_len(&self.bytes[start..])?;
        let table = lexer(if self.dialect.typescript() {
            Language::TypeScript
        } else {
            Language::JavaScript
        });
        for token in table.tokens(self.text, start..start + len) {
            let range = token.range;
            match token.kind {
                TokenKind::Operator => self.push(Kind::Op, range.start, range.end),
                TokenKind::Punctuation => self.push(Kind::Punct, range.start, range.end),
                TokenKind::Number => self.push(Kind::Number, range.start, range.end),
                TokenKind::Identifier | TokenKind::Keyword => {
                    let keyword = token.kind == TokenKind::Keyword;
                    self.push_decided(Kind::Word, range.start, range.end, Some(keyword));
                }
                _ => return None,
            }
        }
        self.at = start + len;
        Some(())
    }

    /// An expression's `{` at `at`, in a tag or among children.
    fn jsx_braces(&mut self, at: usize) {
        self.open_jsx(Context::JsxBraces);
        self.push(Kind::Punct, at, at + 1);
    }

    /// The element whose tag or children are innermost has closed.
    fn jsx_close(&mut self) {
        self.stack.pop();
        self.close_depth();
    }
}

/// The length of the character reference at the start of `rest` (the
/// grammar's `&(#([xX][0-9a-fA-F]{1,6}|[0-9]{1,5})|[A-Za-z]{1,30});`).
fn character_reference_len(rest: &[u8]) -> Option<usize> {
    let run = |from: usize, max: usize, class: fn(&u8) -> bool| {
        let n = rest.get(from..)?.iter().take_while(|b| class(b)).count();
        (1..=max).contains(&n).then_some(from + n)
    };
    let end = match rest.get(1)? {
        b'#' if matches!(rest.get(2), Some(b'x' | b'X')) => run(3, 6, u8::is_ascii_hexdigit)?,
        b'#' => run(2, 5, u8::is_ascii_digit)?,
        _ => run(1, 30, u8::is_ascii_alphabetic)?,
    };
    (rest.get(end) == Some(&b';')).then_some(end + 1)
}
