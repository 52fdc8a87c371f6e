//! TypeScript's types, read by a small recursive descent over the
//! grammar's type rules: unions and intersections, function and
//! constructor types, conditional types, `keyof`/`typeof`/`readonly`/
//! `unique`/`infer`, arrays and indexed access, object types with their
//! members (properties, methods, call, construct and index signatures,
//! mapped types), tuples, literals and names with type arguments.
//!
//! A type's words get their kind where they are read: the grammar's
//! predefined types (`number`, `string`, …), `this` and the literal words
//! are keywords, every other name (`type_identifier`) is a name. A `>`
//! inside a type is one token even where `>>` or `>=` follows, as the
//! grammar's lexer cuts it there. Template literal types, `import(…)`
//! types, `asserts` and anything else unexpected leave the file to the
//! grammar.

use super::{Context, Kind, Open, RESERVED, Scanner, number_len};

/// The grammar's predefined types.
pub(super) const PREDEFINED: &[&str] = &[
    "any", "number", "boolean", "string", "symbol", "void", "unknown", "never", "object",
];

/// Words that are literal types.
const LITERAL_WORDS: &[&str] = &["true", "false", "null", "undefined"];

fn starts_name(b: u8) -> bool {
    b == b'_' || b == b'$' || b.is_ascii_alphabetic() || b >= 0x80
}

impl<'a> Scanner<'a> {
    /// The next lexeme as a type cuts it: where it starts and ends.
    pub(super) fn next_token(&mut self) -> Option<(usize, usize)> {
        self.skip_space()?;
        let start = self.at;
        let b = *self.bytes.get(start)?;
        let rest = &self.text[start..];
        let end = match b {
            b'"' | b'\'' => self.string_end(start)?,
            b'0'..=b'9' => start + number_len(&self.bytes[start..]),
            b'.' if rest.starts_with("...") => start + 3,
            b'=' if rest.starts_with("=>") => start + 2,
            _ if starts_name(b) => start + self.name_len(start)?,
            _ if b"()[]{}<>,;:.?|&=-+*".contains(&b) => start + 1,
            _ => return None,
        };
        Some((start, end))
    }

    /// The text of the next lexeme in a type ("" at the end, or where no
    /// lexeme of a type starts).
    fn peek(&mut self) -> &'a str {
        let text: &'a str = self.text;
        self.next_token()
            .map_or("", |(start, end)| &text[start..end])
    }

    /// Pushes the next lexeme, a word as a keyword or a name.
    fn take_word(&mut self, keyword: bool) -> Option<()> {
        let (start, end) = self.next_token()?;
        starts_name(self.bytes[start]).then_some(())?;
        self.push_decided(Kind::Word, start, end, Some(keyword));
        Some(())
    }

    /// Pushes the next lexeme, a symbol or a literal.
    fn take(&mut self) -> Option<()> {
        let (start, end) = self.next_token()?;
        let b = self.bytes[start];
        let kind = match b {
            b'"' | b'\'' => Kind::Str,
            b'0'..=b'9' => Kind::Number,
            _ if starts_name(b) => return None,
            _ if end - start == 1 && b"()[]{},;:.".contains(&b) => Kind::Punct,
            _ => Kind::Op,
        };
        self.push(kind, start, end);
        Some(())
    }

    /// Pushes the next lexeme, which must be `text`.
    fn expect(&mut self, text: &str) -> Option<()> {
        (self.peek() == text).then_some(())?;
        self.take()
    }

    /// Pushes an opening bracket of a type.
    fn open_type(&mut self) -> Option<()> {
        self.take()?;
        self.open(Open {
            context: Context::Type,
            control: false,
            expression_body: false,
        });
        Some(())
    }

    /// Pushes the closing bracket `text` of a type.
    fn close_type(&mut self, text: &str) -> Option<()> {
        (self.peek() == text).then_some(())?;
        self.stack.pop();
        self.close_depth();
        self.take()?;
        self.last_closed = Some(Open {
            context: if text == "}" {
                Context::Block
            } else {
                Context::Paren
            },
            control: false,
            expression_body: false,
        });
        Some(())
    }

    /// Whether the next lexeme is `text`; pushes it if so.
    fn eat(&mut self, text: &str) -> Option<bool> {
        if self.peek() == text {
            self.take()?;
            return Some(true);
        }
        Some(false)
    }

    /// A whole type.
    pub(super) fn ty(&mut self) -> Option<()> {
        match self.peek() {
            "<" => {
                self.type_parameters()?;
                self.function_type_rest()
            }
            "new" => {
                self.take_word(true)?;
                if self.peek() == "<" {
                    self.type_parameters()?;
                }
                self.function_type_rest()
            }
            "abstract" => {
                self.take_word(true)?;
                (self.peek() == "new").then_some(())?;
                self.ty()
            }
            "(" if self.function_type_ahead() => self.function_type_rest(),
            _ => {
                self.union_type()?;
                if self.peek() == "extends" {
                    self.take_word(true)?;
                    self.union_type()?;
                    self.expect("?")?;
                    self.ty()?;
                    self.expect(":")?;
                    self.ty()?;
                }
                Some(())
            }
        }
    }

    /// Whether the `(` next opens a function type's parameters: its `)`
    /// is followed by `=>`, and no `(` opens its first parameter (as in an
    /// arrow function's return type `((a: T) => U) =>`).
    fn function_type_ahead(&self) -> bool {
        if self.text[self.at + 1..].trim_start().starts_with('(') {
            return false;
        }
        let mut depth = 0usize;
        let mut at = self.at;
        while let Some(&b) = self.bytes.get(at) {
            match b {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return self.text[at + 1..].trim_start().starts_with("=>");
                    }
                }
                b'"' | b'\'' => match self.string_end(at) {
                    Some(end) => {
                        at = end;
                        continue;
                    }
                    None => return false,
                },
                b'`' => return false,
                _ => {}
            }
            at += 1;
        }
        false
    }

    fn function_type_rest(&mut self) -> Option<()> {
        self.parameters()?;
        self.expect("=>")?;
        self.return_type()
    }

    /// A return type: a type, or a type predicate `x is T`.
    pub(super) fn return_type(&mut self) -> Option<()> {
        let word = self.peek();
        if word == "asserts" {
            return None;
        }
        if starts_name(word.bytes().next().unwrap_or(b' ')) {
            let end = self.at + word.len();
            if self.next_word(end) == Some("is") {
                self.take_word(word == "this")?;
                self.take_word(true)?;
                return self.ty();
            }
        }
        self.ty()
    }

    /// The parameters of a function type or a signature.
    fn parameters(&mut self) -> Option<()> {
        (self.peek() == "(").then_some(())?;
        self.open_type()?;
        self.comma_list(")", |scanner| {
            scanner.eat("...")?;
            let name = scanner.peek();
            if name == "this" {
                scanner.take_word(true)?;
            } else if RESERVED.contains(&name) {
                return None;
            } else {
                scanner.take_word(false)?;
            }
            scanner.eat("?")?;
            if scanner.eat(":")? {
                scanner.ty()?;
            }
            Some(())
        })
    }

    /// Items separated by commas, a last one allowed, up to the closing
    /// bracket `close`.
    fn comma_list(
        &mut self,
        close: &str,
        mut item: impl FnMut(&mut Self) -> Option<()>,
    ) -> Option<()> {
        while self.peek() != close {
            item(self)?;
            if !self.eat(",")? {
                break;
            }
        }
        self.close_type(close)
    }

    fn union_type(&mut self) -> Option<()> {
        self.joined("|", Self::intersection_type)
    }

    fn intersection_type(&mut self) -> Option<()> {
        self.joined("&", Self::operator_type)
    }

    /// Operands read by `operand` joined by `operator`, which may also
    /// lead (`| A | B`).
    fn joined(&mut self, operator: &str, operand: fn(&mut Self) -> Option<()>) -> Option<()> {
        self.eat(operator)?;
        operand(self)?;
        while self.eat(operator)? {
            operand(self)?;
        }
        Some(())
    }

    fn operator_type(&mut self) -> Option<()> {
        match self.peek() {
            "keyof" | "readonly" => {
                self.take_word(true)?;
                self.operator_type()
            }
            "unique" => {
                self.take_word(true)?;
                (self.peek() == "symbol").then_some(())?;
                self.take_word(true)
            }
            "infer" => {
                self.take_word(true)?;
                self.take_word(false)
            }
            _ => self.postfix_type(),
        }
    }

    /// A primary type and its `[]` and `[K]` suffixes.
    fn postfix_type(&mut self) -> Option<()> {
        self.primary_type()?;
        while self.peek() == "[" {
            if self.line_break {
                return None;
            }
            self.open_type()?;
            if self.peek() != "]" {
                self.ty()?;
            }
            self.close_type("]")?;
        }
        Some(())
    }

    fn primary_type(&mut self) -> Option<()> {
        let text = self.peek();
        match text {
            "(" => {
                self.open_type()?;
                self.ty()?;
                self.close_type(")")
            }
            "{" => self.object_type(),
            "[" => self.tuple_type(),
            "-" => {
                self.take()?;
                let (start, _) = self.next_token()?;
                self.bytes[start].is_ascii_digit().then_some(())?;
                self.take()
            }
            "typeof" => {
                self.take_word(true)?;
                if self.peek() == "this" {
                    self.take_word(true)?;
                } else {
                    self.name_word()?;
                }
                self.qualified_rest()
            }
            _ if PREDEFINED.contains(&text) || LITERAL_WORDS.contains(&text) || text == "this" => {
                self.take_word(true)
            }
            _ => {
                let first = *text.as_bytes().first()?;
                if first == b'"' || first == b'\'' || first.is_ascii_digit() {
                    return self.take();
                }
                self.name_word()?;
                self.qualified_rest()
            }
        }
    }

    /// A name in a type, which no reserved word may be.
    fn name_word(&mut self) -> Option<()> {
        let text = self.peek();
        if RESERVED.contains(&text) || matches!(text, "import" | "asserts" | "infer" | "keyof") {
            return None;
        }
        self.take_word(false)
    }

    /// `.name` parts of a qualified name, then type arguments.
    fn qualified_rest(&mut self) -> Option<()> {
        while self.peek() == "." && !self.line_break {
            self.take()?;
            self.take_word(false)?;
        }
        if self.peek() == "<" && !self.line_break {
            self.type_arguments()?;
        }
        Some(())
    }

    /// `<T, U>` where a type is used.
    pub(super) fn type_arguments(&mut self) -> Option<()> {
        (self.peek() == "<").then_some(())?;
        self.open_type()?;
        self.comma_list(">", Self::ty)
    }

    /// `<T>` of a type assertion: one type.
    pub(super) fn asserted_type(&mut self) -> Option<()> {
        (self.peek() == "<").then_some(())?;
        self.open_type()?;
        self.ty()?;
        self.close_type(">")
    }

    /// `<T extends U = V>` where a type is declared.
    pub(super) fn type_parameters(&mut self) -> Option<()> {
        (self.peek() == "<").then_some(())?;
        self.open_type()?;
        self.comma_list(">", |scanner| {
            loop {
                let word = scanner.peek();
                let end = scanner.at + word.len();
                if !(matches!(word, "const" | "in" | "out") && scanner.next_word(end).is_some()) {
                    break;
                }
                scanner.take_word(true)?;
            }
            scanner.name_word()?;
            if scanner.peek() == "extends" {
                scanner.take_word(true)?;
                scanner.ty()?;
            }
            if scanner.eat("=")? {
                scanner.ty()?;
            }
            Some(())
        })
    }

    fn tuple_type(&mut self) -> Option<()> {
        self.open_type()?;
        self.comma_list("]", Self::tuple_member)
    }

    /// A tuple's member: `T`, `T?`, `...T` or labelled, `name?: T`.
    fn tuple_member(&mut self) -> Option<()> {
        self.eat("...")?;
        let word = self.peek();
        let after = self.at + word.len();
        let labelled = starts_name(word.bytes().next().unwrap_or(b' '))
            && match self.next_byte(after) {
                Some(b':') => true,
                Some(b'?') => {
                    let question = after + self.text[after..].find('?').unwrap_or(0);
                    self.next_byte(question + 1) == Some(b':')
                }
                _ => false,
            };
        if labelled {
            // A predefined type's word stays a keyword as a label.
            self.take_word(PREDEFINED.contains(&word))?;
            self.eat("?")?;
            self.expect(":")?;
            self.ty()
        } else {
            self.ty()?;
            self.eat("?").map(|_| ())
        }
    }

    fn object_type(&mut self) -> Option<()> {
        self.open_type()?;
        loop {
            if self.peek() == "}" {
                break;
            }
            self.type_member()?;
            match self.peek() {
                "," | ";" => self.take()?,
                "}" => {}
                _ if self.line_break => {}
                _ => return None,
            }
        }
        self.close_type("}")
    }

    /// Whether the lexeme after the word next is one that a member's
    /// modifier is followed by.
    fn modifies_member(&mut self) -> bool {
        let word = self.peek();
        let end = self.at + word.len();
        self.next_word(end).is_some() || matches!(self.next_byte(end), Some(b'[' | b'"' | b'\''))
    }

    fn type_member(&mut self) -> Option<()> {
        let mut modified = false;
        loop {
            match self.peek() {
                "-" | "+" => {
                    self.take()?;
                    (self.peek() == "readonly").then_some(())?;
                }
                "readonly" if self.modifies_member() => {}
                _ => break,
            }
            self.take_word(true)?;
            modified = true;
        }
        match self.peek() {
            "[" => return self.index_signature(),
            "(" | "<" if !modified => return self.signature_rest(),
            "new" if matches!(self.next_byte(self.at + 3), Some(b'(' | b'<')) => {
                self.take_word(true)?;
                return self.signature_rest();
            }
            "get" | "set" if self.modifies_member() => self.take_word(true)?,
            _ => {}
        }
        let (start, _) = self.next_token()?;
        if starts_name(self.bytes[start]) {
            self.take_word(false)?;
        } else {
            let b = self.bytes[start];
            (b == b'"' || b == b'\'' || b.is_ascii_digit()).then_some(())?;
            self.take()?;
        }
        self.eat("?")?;
        match self.peek() {
            "(" | "<" => self.signature_rest(),
            ":" => {
                self.take()?;
                self.ty()
            }
            _ => Some(()),
        }
    }

    /// A signature's type parameters, parameters and return type.
    fn signature_rest(&mut self) -> Option<()> {
        if self.peek() == "<" {
            self.type_parameters()?;
        }
        self.parameters()?;
        if self.eat(":")? {
            self.return_type()?;
        }
        Some(())
    }

    /// `[key: T]: U` or a mapped type's `[K in T as U]?: V`.
    pub(super) fn index_signature(&mut self) -> Option<()> {
        self.open_type()?;
        self.name_word()?;
        if self.peek() == "in" {
            self.take_word(true)?;
            self.ty()?;
            if self.peek() == "as" {
                self.take_word(true)?;
                self.ty()?;
            }
            self.close_type("]")?;
            // `?:`, `-?:` and `+?:` are one token each to the grammar.
            self.peek();
            let rest = &self.text[self.at..];
            let optional = ["?:", "-?:", "+?:"]
                .into_iter()
                .find(|op| rest.starts_with(op));
            if let Some(op) = optional {
                self.push(Kind::Op, self.at, self.at + op.len());
                return self.ty();
            }
        } else {
            self.expect(":")?;
            self.ty()?;
            self.close_type("]")?;
        }
        if self.eat(":")? {
            self.ty()?;
        }
        Some(())
    }

    /// `interface`'s name, type parameters, `extends` list and body.
    pub(super) fn interface_rest(&mut self) -> Option<()> {
        self.name_word()?;
        if self.peek() == "<" {
            self.type_parameters()?;
        }
        if self.peek() == "extends" {
            self.take_word(true)?;
            self.type_list()?;
        }
        (self.peek() == "{").then_some(())?;
        self.object_type()
    }

    /// `type`'s name, type parameters and type.
    pub(super) fn type_alias_rest(&mut self) -> Option<()> {
        self.name_word()?;
        if self.peek() == "<" {
            self.type_parameters()?;
        }
        self.expect("=")?;
        self.ty()
    }

    /// Types separated by commas (`implements A, B<C>`).
    pub(super) fn type_list(&mut self) -> Option<()> {
        self.ty()?;
        while self.eat(",")? {
            self.ty()?;
        }
        Some(())
    }
}
