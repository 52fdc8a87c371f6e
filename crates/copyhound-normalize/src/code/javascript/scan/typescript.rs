//! What TypeScript adds to the scanner outside types: the words that
//! declare (`interface`, `type`, `enum`, `namespace`, `declare`,
//! `abstract`), the class members' and parameters' modifiers, `as` and
//! `satisfies`, where a `:` starts a type, `<` that opens type parameters
//! or arguments, the optional `?` and the non-null `!`.
//!
//! Each rule reads the words and brackets around, as the rest of the
//! scanner does; where none fits, the file is left to the grammar.

use super::jsx::is_jsx;
use super::types::PREDEFINED;
use super::{Context, Kind, Lexeme, OPERAND_AFTER, Open, RESERVED, Scanner, VALUE_WORDS};

/// Modifiers of a class member (besides JavaScript's `static`, `get`,
/// `set` and `async`).
const MEMBER_MODIFIERS: &[&str] = &[
    "public",
    "private",
    "protected",
    "readonly",
    "override",
    "abstract",
    "declare",
    "accessor",
];

/// Modifiers of a parameter that declares a property.
const PARAMETER_MODIFIERS: &[&str] = &["public", "private", "protected", "readonly", "override"];

/// What a declaration can follow `declare` with.
const DECLARED: &[&str] = &[
    "const",
    "let",
    "var",
    "function",
    "class",
    "enum",
    "namespace",
    "module",
    "global",
    "type",
    "interface",
    "abstract",
    "async",
];

/// What a `:` that starts a type annotates.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Annotation {
    /// A function's return type.
    ReturnType,
    /// A binding's, a parameter's or a field's type.
    Binding,
    /// No type: the `:` of a label, a key, a ternary.
    None,
}

/// The scanner's state, kept to go back to after a guess that failed.
pub(super) struct Saved {
    at: usize,
    out: usize,
    stack: usize,
    line_break: bool,
    comments: usize,
    last_closed: Option<Open>,
}

fn starts_name(b: u8) -> bool {
    b == b'_' || b == b'$' || b.is_ascii_alphabetic() || b >= 0x80
}

impl<'a> Scanner<'a> {
    pub(super) fn save(&self) -> Saved {
        Saved {
            at: self.at,
            out: self.out.len(),
            stack: self.stack.len(),
            line_break: self.line_break,
            comments: self.comments,
            last_closed: self.last_closed,
        }
    }

    pub(super) fn restore(&mut self, saved: &Saved) {
        self.at = saved.at;
        self.out.truncate(saved.out);
        while self.stack.len() > saved.stack {
            self.stack.pop();
            self.close_depth();
        }
        self.line_break = saved.line_break;
        self.comments = saved.comments;
        self.last_closed = saved.last_closed;
    }

    /// The word after the spaces and tabs from `from`, on the same line.
    pub(super) fn next_word(&self, from: usize) -> Option<&'a str> {
        let start = from
            + self.bytes[from..]
                .iter()
                .position(|b| !matches!(b, b' ' | b'\t'))?;
        if !starts_name(self.bytes[start]) {
            return None;
        }
        let len = self.name_len(start)?;
        let text: &'a str = self.text;
        Some(&text[start..start + len])
    }

    /// Where the word after the one ending at `from` ends, if one follows
    /// on the same line.
    fn word_after(&self, from: usize) -> Option<usize> {
        let start = from
            + self.bytes[from..]
                .iter()
                .position(|b| !matches!(b, b' ' | b'\t'))?;
        starts_name(self.bytes[start]).then_some(())?;
        Some(start + self.name_len(start)?)
    }

    fn push_keyword(&mut self, start: usize, end: usize) {
        self.push_decided(Kind::Word, start, end, Some(true));
    }

    fn last_text(&self) -> &str {
        self.out.last().map_or("", |last| self.word_at(last))
    }

    /// Whether the last lexeme is a word the TypeScript rules made a
    /// keyword.
    fn last_is_decided_keyword(&self) -> bool {
        self.out
            .last()
            .is_some_and(|last| last.keyword == Some(true))
    }

    /// Whether a statement starts here: first in the text, after `;`, a
    /// block's `{` or `}`, a control header's `)`, a label, a line break
    /// after what may end a statement, or `export`/`declare`.
    fn at_statement_start(&self) -> bool {
        if !matches!(self.context(), Context::Top | Context::Block) {
            return false;
        }
        let Some(last) = self.out.last() else {
            return true;
        };
        let text = self.word_at(last);
        match last.kind {
            Kind::Punct => match text {
                ";" | "{" => true,
                "}" => {
                    self.line_break
                        || self
                            .last_closed
                            .is_some_and(|o| o.context != Context::Object)
                }
                ")" | "]" => {
                    self.line_break || (text == ")" && self.last_closed.is_some_and(|o| o.control))
                }
                ":" => self.colon_starts_statement,
                _ => false,
            },
            Kind::Word => {
                matches!(text, "export" | "declare" | "default")
                    || (self.line_break && (last.keyword.is_some() || !RESERVED.contains(&text)))
            }
            // The `>` that closes a type.
            Kind::Op => self.line_break && text == ">",
            _ => self.line_break,
        }
    }

    /// Whether a class member starts here.
    fn at_member_start(&self) -> bool {
        if self.context() != Context::Class {
            return false;
        }
        let Some(last) = self.out.last() else {
            return false;
        };
        let text = self.word_at(last);
        (self.line_break && (last.kind != Kind::Op || text == ">"))
            || (last.kind == Kind::Punct && matches!(text, "{" | ";" | "}" | ")"))
            || last.keyword == Some(true)
            || (last.kind == Kind::Word && matches!(text, "static" | "get" | "set" | "async"))
    }

    /// Reads a word by TypeScript's rules; false where JavaScript's apply.
    pub(super) fn typescript_word(&mut self, start: usize, end: usize) -> Option<bool> {
        let word = &self.text[start..end];
        if matches!(self.last_text(), "." | "?.") {
            return Some(false);
        }
        let next = self.next_byte(end);
        let next_is_name = next.is_some_and(starts_name);
        let context = self.context();
        let next_word = self.next_word(end);
        match word {
            "let" | "const" | "var" => {
                *self.declaring.last_mut()? = true;
                Some(false)
            }
            // Between an import's or export's braces every word is a name
            // but `as` after a name and `type` before one.
            _ if context == Context::Specifiers => {
                let keyword = match word {
                    "as" => self.out.last().is_some_and(|last| last.kind == Kind::Word),
                    "type" => next_word.is_some_and(|next| next != "as"),
                    _ => false,
                };
                self.push_decided(Kind::Word, start, end, Some(keyword));
                Some(true)
            }
            "as" | "satisfies" if !self.operand_expected() => {
                self.push_keyword(start, end);
                if word == "as" && next_word == Some("const") {
                    let (const_start, const_end) = self.next_token()?;
                    self.push_keyword(const_start, const_end);
                    return Some(true);
                }
                self.ty()?;
                Some(true)
            }
            "interface" | "type" if next_is_name && self.at_statement_start() => {
                self.push_keyword(start, end);
                if word == "interface" {
                    self.interface_rest()?;
                } else {
                    self.type_alias_rest()?;
                }
                Some(true)
            }
            "type"
                if matches!(self.last_text(), "import" | "export")
                    && (matches!(next, Some(b'{' | b'*'))
                        || (next_is_name && next_word != Some("from"))) =>
            {
                self.push_keyword(start, end);
                Some(true)
            }
            "enum" if next_is_name => {
                self.push_keyword(start, end);
                Some(true)
            }
            "namespace" | "module"
                if (next_is_name || (word == "module" && matches!(next, Some(b'"' | b'\''))))
                    && self.at_statement_start() =>
            {
                self.push_keyword(start, end);
                self.pending_block = Some(self.stack.len());
                Some(true)
            }
            "global" if self.last_text() == "declare" && next == Some(b'{') => {
                self.push_keyword(start, end);
                self.pending_block = Some(self.stack.len());
                Some(true)
            }
            "declare" | "abstract"
                if next_word.is_some_and(|w| DECLARED.contains(&w))
                    && self.at_statement_start() =>
            {
                self.push_keyword(start, end);
                Some(true)
            }
            "implements" if self.pending_class == Some(self.stack.len()) => {
                self.push_keyword(start, end);
                self.type_list()?;
                Some(true)
            }
            "require" if self.import_equals() => None,
            // `import a = …` aliases, which the lexer leaves to the grammar.
            _ if self.last_text() == "import" && next == Some(b'=') => None,
            _ if MEMBER_MODIFIERS.contains(&word)
                && self.at_member_start()
                && (next_is_name || matches!(next, Some(b'[' | b'#' | b'"' | b'\'' | b'*'))) =>
            {
                self.push_keyword(start, end);
                Some(true)
            }
            _ if PARAMETER_MODIFIERS.contains(&word)
                && matches!(context, Context::Paren)
                && (matches!(self.last_text(), "(" | "," | ")")
                    || self.last_is_decided_keyword())
                && (next_is_name || matches!(next, Some(b'{' | b'['))) =>
            {
                self.push_keyword(start, end);
                Some(true)
            }
            _ => Some(false),
        }
    }

    /// Whether the lexemes before are `import name =`.
    fn import_equals(&self) -> bool {
        let n = self.out.len();
        n >= 3
            && self.word_at(&self.out[n - 3]) == "import"
            && self.word_at(&self.out[n - 1]) == "="
    }

    /// The context of a `{` by TypeScript's rules, if they decide it.
    pub(super) fn typescript_brace(&mut self) -> Option<Context> {
        if self.return_type_just_ended() || self.pending_block == Some(self.stack.len()) {
            self.pending_block = None;
            return Some(Context::Block);
        }
        let n = self.out.len();
        let last = self.last_text();
        let import_names = n >= 1
            && self.context() == Context::Top
            && (matches!(last, "import" | "export")
                || (last == "type"
                    && matches!(self.word_at(&self.out[n - 2]), "import" | "export"))
                || (last == "," && n >= 3 && self.word_at(&self.out[n - 3]) == "import"));
        import_names.then_some(Context::Specifiers)
    }

    /// Whether the `!` at `index` asserts that the operand before is not
    /// null (rather than negating what follows).
    pub(super) fn non_null_assertion(&self, index: usize) -> bool {
        let Some(before) = index.checked_sub(1).map(|i| self.out[i]) else {
            return false;
        };
        let text = self.word_at(&before);
        match before.kind {
            Kind::Word if before.keyword.is_some() => true,
            Kind::Word => {
                !((RESERVED.contains(&text) && !VALUE_WORDS.contains(&text))
                    || OPERAND_AFTER.contains(&text))
            }
            Kind::Number | Kind::Str | Kind::Regex | Kind::Private | Kind::Chunk => true,
            Kind::Punct => matches!(text, ")" | "]"),
            Kind::Op => text == "!" && self.non_null_assertion(index - 1),
        }
    }

    /// Whether the `?` at `start` marks something optional (`x?: T`,
    /// `f(a?)`, `m?()`) rather than starting a conditional expression.
    pub(super) fn optional_marker(&self, start: usize) -> bool {
        let Some(last) = self.out.last() else {
            return false;
        };
        let pattern_end = matches!(self.word_at(last), "]" | "}") && last.kind == Kind::Punct;
        if !matches!(
            last.kind,
            Kind::Word | Kind::Str | Kind::Number | Kind::Private
        ) && !pattern_end
        {
            return false;
        }
        match self.next_byte(start + 1) {
            // A ternary has an operand between `?` and `:`: a destructured
            // parameter may be optional (`({ a }?: T)`, `([b]?: U)`).
            Some(b':' | b',' | b')') => true,
            _ => {
                self.context() == Context::Class
                    && last.end as usize == start
                    && self.word_at(last) != "}"
            }
        }
    }

    /// What the `:` here starts a type of, if any; `None` where the
    /// scanner cannot tell.
    pub(super) fn colon_starts_type(&self) -> Option<Annotation> {
        let last = self.out.last()?;
        let text = self.word_at(last);
        if text == ")" && last.kind == Kind::Punct {
            return Some(Annotation::ReturnType);
        }
        Some(match self.context() {
            Context::Paren | Context::ForParen | Context::Class => Annotation::Binding,
            Context::Object | Context::Substitution | Context::Specifiers => Annotation::None,
            Context::Top | Context::Block => {
                let n = self.out.len();
                let binding = n >= 2
                    && *self.declaring.last()?
                    && (matches!(text, "]" | "}")
                        || (last.kind == Kind::Word
                            && matches!(
                                self.word_at(&self.out[n - 2]),
                                "let" | "const" | "var" | ","
                            )));
                if binding || (text == "!" && last.kind == Kind::Op) {
                    Annotation::Binding
                } else {
                    Annotation::None
                }
            }
            Context::Bracket
            | Context::Type
            | Context::JsxTag
            | Context::JsxChildren
            | Context::JsxBraces => return None,
        })
    }

    /// Reads the type after an annotation's `:`.
    pub(super) fn annotation(&mut self, annotation: Annotation) -> Option<()> {
        match annotation {
            Annotation::ReturnType => {
                self.return_type()?;
                self.return_type_end = Some(self.out.len());
            }
            Annotation::Binding => self.ty()?,
            Annotation::None => {}
        }
        Some(())
    }

    /// Whether the last lexeme ended a function's return type.
    pub(super) fn return_type_just_ended(&self) -> bool {
        self.return_type_end == Some(self.out.len())
    }

    /// Reads type parameters or arguments at a `<` after an operand, if
    /// they are: parameters after a declared name, arguments in a class's
    /// heritage or where a call follows them. False where `<` compares.
    pub(super) fn type_arguments_here(&mut self) -> Option<bool> {
        if self.declares_type_parameters() {
            self.type_parameters()?;
            return Some(true);
        }
        if self.pending_class == Some(self.stack.len()) {
            self.type_arguments()?;
            return Some(true);
        }
        // An async generic arrow function (`async <const T,>(x: T) =>`):
        // its type parameters, which need not read as arguments.
        if self.last_word() == Some("async") && self.arrow_type_parameters(|_, _| true) {
            return Some(true);
        }
        // The grammar reads `a < (number)` (or `keyof`) as type
        // arguments whose `>` is missing.
        let rest = &self.text[self.at + 1..];
        let after = self.at + 1 + rest.len() - rest.trim_start().len();
        if self.bytes.get(after) == Some(&b'(')
            && self
                .next_word(after + 1)
                .is_some_and(|word| PREDEFINED.contains(&word) || word == "keyof")
        {
            return None;
        }
        let saved = self.save();
        if self.type_arguments().is_some() && self.next_token_byte() == Some(b'(') {
            // Where the arguments hold a function type, the grammar may
            // read `f < ((a: T) => U) > (x)` as comparisons of an arrow
            // function, by what comes before: the lexer cannot tell.
            let arrow = self.out[saved.out..]
                .iter()
                .any(|l| self.word_at(l) == "=>");
            // After a comparison's `<`, it reads `g<A<B>>(x)` as
            // comparisons and a shift.
            let shift =
                self.text[saved.at..self.at].contains(">>") && self.compares_before(saved.out);
            return (!arrow && !shift).then_some(true);
        }
        self.restore(&saved);
        Some(false)
    }

    /// A `<` where an operand starts, in TypeScript without JSX: a generic
    /// arrow function's type parameters where a `(` follows them and they
    /// are more than one word (`<T, U>(x: T) => x`), else a type
    /// assertion's one type (`<number>x`; the grammar reads `<T>(x)` either
    /// way, with the same tokens).
    pub(super) fn angle_operand(&mut self) -> Option<()> {
        // One word (`<T>(x)`, `<number>(x)`) is read as a type below: the
        // same tokens for a name, and a predefined or literal type is a
        // keyword there, as no parameter is named.
        if self.arrow_type_parameters(|_, read| read.len() > 3) {
            return Some(());
        }
        self.asserted_type()
    }

    /// In TSX, reads the type parameters of a generic arrow function at
    /// the `<` here, if they are: followed by `(` and holding a `,` or a
    /// constraint, which no element's tag does (`<T,>(x: T) =>`,
    /// `<T extends U>(x: T) =>`); false where an element starts.
    pub(super) fn tsx_generic_arrow(&mut self) -> bool {
        self.arrow_type_parameters(|scanner, read| {
            read.iter()
                .any(|l| matches!(scanner.word_at(l), "," | "extends"))
        })
    }

    /// Reads type parameters at the `<` here where a `(` follows them and
    /// `accept` takes their lexemes (`<` to `>`) for an arrow function's;
    /// otherwise reads nothing and returns false.
    fn arrow_type_parameters(&mut self, accept: impl Fn(&Self, &[Lexeme]) -> bool) -> bool {
        let saved = self.save();
        if self.type_parameters().is_some()
            && self.next_token_byte() == Some(b'(')
            && accept(self, &self.out[saved.out..])
        {
            return true;
        }
        self.restore(&saved);
        false
    }

    /// Whether a `<` that compares comes before `index` in its statement.
    fn compares_before(&self, index: usize) -> bool {
        self.out[..index]
            .iter()
            .rev()
            .take_while(|l| !matches!(self.word_at(l), ";" | "{" | "}"))
            .any(|l| {
                l.kind == Kind::Op
                    && l.context != Context::Type
                    && !is_jsx(l.context)
                    && self.word_at(l) == "<"
            })
    }

    /// The first byte of the next lexeme, spaces and comments skipped.
    pub(super) fn next_token_byte(&mut self) -> Option<u8> {
        self.skip_space()?;
        self.bytes.get(self.at).copied()
    }

    /// Whether the `<` here opens a declaration's type parameters: after
    /// `function`, or a name that `function`, `class`, `interface` or
    /// `type` declares, or a method's name.
    fn declares_type_parameters(&self) -> bool {
        let n = self.out.len();
        let Some(last) = self.out.last() else {
            return false;
        };
        if last.kind != Kind::Word {
            return false;
        }
        if self.word_at(last) == "function" {
            return true;
        }
        let Some(before) = n.checked_sub(2).map(|i| self.out[i]) else {
            return false;
        };
        let prior = self.word_at(&before);
        if matches!(prior, "function" | "class" | "interface") || prior == "*" {
            return true;
        }
        match self.context() {
            Context::Class => {
                last.line_break_before
                    || matches!(prior, "{" | ";" | "}" | ")")
                    || before.keyword == Some(true)
                    || matches!(prior, "static" | "get" | "set" | "async")
            }
            Context::Object => matches!(prior, "{" | ","),
            _ => false,
        }
    }

    /// Reads `[key: T]` at a class member's start (an index signature);
    /// false where the `[` opens a computed name.
    pub(super) fn index_signature_here(&mut self) -> Option<bool> {
        if !self.at_member_start() {
            return Some(false);
        }
        let Some(name_end) = self.word_after(self.at + 1) else {
            return Some(false);
        };
        if self.next_byte(name_end) != Some(b':') {
            return Some(false);
        }
        self.index_signature()?;
        Some(true)
    }
}
