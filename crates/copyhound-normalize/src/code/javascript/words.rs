//! JavaScript's words as the tree walker classes them, and the statements
//! `drop_imports` removes.
//!
//! - Any word after `.` or `?.`, and any word that names a member of an
//!   object or a class (`{ if: 1 }`, `class A { delete() {} }`), is a name
//!   — but `target` in `new.target` and `meta` in `import.meta`.
//! - `get`, `set`, `static` and `async` are keywords where they modify a
//!   member (`get x() {}`, `static {`), `async` also before `function`
//!   and arrow functions, `await` before an operand, `let` and `using`
//!   before what they declare, `of` in a `for` header after its binding,
//!   `from` and `as` in imports and exports; elsewhere they are names.
//! - `undefined` is a keyword but where it is declared (`var undefined`).
//! - With `drop_imports`, `import` statements go, with their `;`, and so
//!   does a top-level statement on one line that mentions `require(`,
//!   `require ` or `require_relative` (the tree walker's rule for every
//!   language).

use super::scan::{Context, Kind, Lexeme, RESERVED};
use crate::code::token::{Token, TokenKind};

/// The tokens of the lexemes, or `None` where the lexer cannot tell what
/// the grammar reads.
pub(super) fn read(text: &str, lexemes: &[Lexeme], drop_imports: bool) -> Option<Vec<Token>> {
    let reader = Reader {
        text,
        lx: lexemes,
        unsure: std::cell::Cell::new(false),
    };
    let kinds = reader.kinds();
    if reader.unsure.get() {
        return None;
    }
    let mut keep = vec![true; lexemes.len()];
    if drop_imports {
        reader.drop_imports(&kinds, &mut keep);
    }
    let mut tokens = Vec::with_capacity(lexemes.len());
    let mut index = 0;
    while index < lexemes.len() {
        let lexeme = lexemes[index];
        let mut range = lexeme.start as usize..lexeme.end as usize;
        let (kind, kept) = (kinds[index], keep[index]);
        if let Some(end) = reader.static_get_end(index, &kinds) {
            // The grammar's one token `static get` and the line break.
            range.end = end;
            index += 1;
        }
        if kept {
            tokens.push(Token { kind, range });
        }
        index += 1;
    }
    Some(tokens)
}

struct Reader<'a> {
    text: &'a str,
    lx: &'a [Lexeme],
    /// Set where a word is one the lexer cannot class as the grammar does.
    unsure: std::cell::Cell<bool>,
}

impl Reader<'_> {
    fn word(&self, index: usize) -> &str {
        self.lx
            .get(index)
            .map_or("", |l| &self.text[l.start as usize..l.end as usize])
    }

    fn kind(&self, index: usize) -> Option<Kind> {
        self.lx.get(index).map(|l| l.kind)
    }

    fn is_punct(&self, index: usize, text: &str) -> bool {
        self.kind(index) == Some(Kind::Punct) && self.word(index) == text
    }

    /// The kind of every lexeme's token.
    fn kinds(&self) -> Vec<TokenKind> {
        let mut kinds: Vec<TokenKind> = Vec::with_capacity(self.lx.len());
        let mut module_statement = false;
        // Inside the braces of an import's or export's names.
        let mut specifiers = false;
        for index in 0..self.lx.len() {
            let lexeme = self.lx[index];
            let kind = match lexeme.kind {
                Kind::Word => {
                    if lexeme.context == Context::Top
                        && (self.is_punct(index.wrapping_sub(1), ";")
                            || (lexeme.line_break_before
                                && index > 0
                                && self.kind(index - 1) == Some(Kind::Str)))
                    {
                        module_statement = false;
                    }
                    if matches!(self.word(index), "import" | "export")
                        && lexeme.context == Context::Top
                        && !matches!(self.word(index + 1), "(" | ".")
                    {
                        module_statement = true;
                    }
                    if let Some(keyword) = lexeme.keyword {
                        if keyword {
                            TokenKind::Keyword
                        } else {
                            TokenKind::Identifier
                        }
                    } else if specifiers {
                        self.specifier_kind(index)
                    } else {
                        self.word_kind(index, &kinds, module_statement)
                    }
                }
                Kind::Number => TokenKind::Number,
                Kind::Str | Kind::Chunk | Kind::Regex => TokenKind::String,
                Kind::Private => TokenKind::Identifier,
                Kind::Op => TokenKind::Operator,
                Kind::Punct => {
                    match self.word(index) {
                        ";" if lexeme.context == Context::Top => module_statement = false,
                        "{" if module_statement
                            && lexeme.context == Context::Top
                            && matches!(
                                self.word(index.wrapping_sub(1)),
                                "import" | "export" | "," | "type"
                            ) =>
                        {
                            specifiers = true;
                        }
                        "}" => specifiers = false,
                        _ => {}
                    }
                    TokenKind::Punctuation
                }
            };
            kinds.push(kind);
        }
        kinds
    }

    fn word_kind(&self, index: usize, kinds: &[TokenKind], module_statement: bool) -> TokenKind {
        let word = self.word(index);
        let before = self.word(index.wrapping_sub(1));
        if index > 0 && matches!(before, "." | "?.") {
            let object = self.word(index.wrapping_sub(2));
            return if (word == "target" && object == "new")
                || (word == "meta" && object == "import")
            {
                TokenKind::Keyword
            } else {
                TokenKind::Identifier
            };
        }
        if self.member_start(index, kinds) {
            if matches!(word, "get" | "set" | "static" | "async") && self.modifies(index) {
                return TokenKind::Keyword;
            }
            if self.names_member(index) {
                return TokenKind::Identifier;
            }
        }
        let keyword = match word {
            "undefined" => !matches!(before, "var" | "let" | "const" | "function" | "class"),
            "yield" => true,
            "let" | "using" => {
                let next = self.lx.get(index + 1);
                next.is_some_and(|next| {
                    // `for (let of xs)` iterates over a name `let`.
                    let for_of =
                        self.word(index + 1) == "of" && self.lx[index].context == Context::ForParen;
                    // A line break before a name or a `{` ends the statement
                    // `let` (automatic semicolon insertion); before `[` it
                    // does not.
                    let next_line = next.line_break_before;
                    (next.kind == Kind::Word
                        && !matches!(self.word(index + 1), "in" | "instanceof")
                        && !for_of
                        && !next_line)
                        || (word == "let"
                            && (self.word(index + 1) == "["
                                || (self.word(index + 1) == "{" && !next_line)))
                })
            }
            "of" => {
                // After the binding: `for (x of`, `for (const let of`; not
                // the binding itself (`for (const of of`).
                let declares = matches!(before, "var" | "let" | "const" | "using")
                    && matches!(self.word(index.wrapping_sub(2)), "(" | "await");
                let after_of =
                    before == "of" && kinds.get(index.wrapping_sub(1)) == Some(&TokenKind::Keyword);
                self.lx[index].context == Context::ForParen
                    && index > 0
                    && (matches!(before, "]" | "}")
                        || (self.kind(index - 1) == Some(Kind::Word) && !declares && !after_of))
            }
            "from" => module_statement && self.kind(index + 1) == Some(Kind::Str),
            // `* as ns`; in braces, `specifier_kind` decides.
            "as" => module_statement && before == "*",
            "async" => self.starts_async_function(index),
            "await" => before == "for" || self.awaits(index),
            _ => RESERVED.contains(&word),
        };
        if keyword {
            TokenKind::Keyword
        } else {
            TokenKind::Identifier
        }
    }

    /// The kind of a word between an import's or export's braces: `as`
    /// between two names is a keyword, and so are the reserved words
    /// (`default as x`); any other word is a name (`async as a`).
    fn specifier_kind(&self, index: usize) -> TokenKind {
        let word = self.word(index);
        let renames = word == "as" && matches!(self.kind(index + 1), Some(Kind::Word | Kind::Str));
        if renames || RESERVED.contains(&word) {
            TokenKind::Keyword
        } else {
            TokenKind::Identifier
        }
    }

    /// Where the grammar's token `static get` ends if it starts at
    /// `index`: `static`, space, `get`, and space up to its last line
    /// break, at a class member's start.
    fn static_get_end(&self, index: usize, kinds: &[TokenKind]) -> Option<usize> {
        let lexeme = self.lx[index];
        let next = self.lx.get(index + 1)?;
        if self.word(index) != "static"
            || kinds[index] != TokenKind::Keyword
            || lexeme.context != Context::Class
            || self.word(index + 1) != "get"
        {
            return None;
        }
        let between = &self.text[lexeme.end as usize..next.start as usize];
        let after_start = next.end as usize;
        let rest = &self.text[after_start..];
        let space = &rest[..rest
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(rest.len())];
        if between.is_empty() || !between.chars().all(char::is_whitespace) {
            return None;
        }
        space
            .rfind('\n')
            .map(|line_break| after_start + line_break + 1)
    }

    /// Whether the word at `index` starts a member of an object or class.
    fn member_start(&self, index: usize, kinds: &[TokenKind]) -> bool {
        let lexeme = self.lx[index];
        let Some(before) = index.checked_sub(1) else {
            return false;
        };
        let previous = self.lx[before];
        let prior = self.word(before);
        match lexeme.context {
            // The word just after a `{` stands in what it opened.
            Context::Object => {
                prior == "{"
                    || (previous.context == Context::Object
                        && (prior == "," || prior == "*" || self.is_modifier(before, kinds)))
            }
            Context::Class => {
                prior == "{"
                    || (matches!(prior, ";" | "}") && previous.context == Context::Class)
                    || (previous.context == Context::Class
                        && (self.is_modifier(before, kinds) || prior == "*"))
                    || (lexeme.line_break_before
                        && previous.context == Context::Class
                        // TypeScript's `>` may close a field's type.
                        && (previous.kind != Kind::Op || prior == ">"))
            }
            _ => false,
        }
    }

    fn is_modifier(&self, index: usize, kinds: &[TokenKind]) -> bool {
        (matches!(self.word(index), "get" | "set" | "static" | "async")
            && kinds.get(index) == Some(&TokenKind::Keyword))
            // TypeScript's modifiers, `private`, `readonly`, …
            || self.lx[index].keyword == Some(true)
    }

    /// Whether a member's first word modifies what follows (`get x`,
    /// `static {`, `async *m`) rather than naming the member itself.
    fn modifies(&self, index: usize) -> bool {
        let Some(next) = self.lx.get(index + 1) else {
            return false;
        };
        match next.kind {
            Kind::Word | Kind::Str | Kind::Number | Kind::Private => true,
            Kind::Punct => match self.word(index + 1) {
                "[" => true,
                "{" => self.word(index) == "static",
                _ => false,
            },
            Kind::Op => {
                self.word(index + 1) == "*"
                    && self.word(index) != "get"
                    && self.word(index) != "set"
            }
            _ => false,
        }
    }

    /// Whether the member's word at `index` is its name: a method, a key,
    /// a shorthand property or a field.
    fn names_member(&self, index: usize) -> bool {
        let next = index + 1;
        // `?`, `!` and `<` only in TypeScript: `x?: T`, `x!: T`, `m<T>()`.
        matches!(
            self.word(next),
            "(" | ":" | "," | "}" | "=" | ";" | "?" | "!" | "<"
        ) || self
            .lx
            .get(next)
            .is_none_or(|l| l.line_break_before && l.context == Context::Class)
    }

    /// Whether `async` at `index` starts an async function: `function`,
    /// or arrow parameters, follows.
    fn starts_async_function(&self, index: usize) -> bool {
        match self.word(index + 1) {
            "function" => true,
            "(" => self.arrow_parameters_at(index + 1),
            // TypeScript's type parameters (read in context `Type`, up to
            // their `>`), then the parameters.
            "<" => {
                let mut close = index + 2;
                while self
                    .lx
                    .get(close)
                    .is_some_and(|l| l.context == Context::Type)
                {
                    close += 1;
                }
                self.word(close) == ">" && self.arrow_parameters_at(close + 1)
            }
            _ => self.kind(index + 1) == Some(Kind::Word) && self.word(index + 2) == "=>",
        }
    }

    /// Whether the `(` at `index` opens an arrow function's parameters:
    /// `=>` or a return type follows its `)`.
    fn arrow_parameters_at(&self, index: usize) -> bool {
        if self.word(index) != "(" {
            return false;
        }
        let close = self.closing(index);
        self.word(close + 1) == "=>" || self.return_type_follows(close + 1)
    }

    /// Whether the `:` at `index` starts a TypeScript return type (the
    /// scanner decided the words of the type after it).
    fn return_type_follows(&self, index: usize) -> bool {
        self.is_punct(index, ":")
            && (index + 1..index + 3).any(|at| {
                self.lx
                    .get(at)
                    .is_some_and(|l| l.keyword.is_some() || l.context == Context::Type)
            })
    }

    /// Whether `await` at `index` awaits an operand. `await (x)` followed
    /// by a call, a member or a template is a function named `await` to
    /// the grammar; any other `await (x)` it reads either as a call or as
    /// an awaited expression, by the statements around (`g(await (a))` is
    /// a call in an `if` block, an `await` in a `try` block), which the
    /// lexer cannot tell, so it leaves the file to the grammar.
    fn awaits(&self, index: usize) -> bool {
        if self.word(index + 1) == "(" {
            let close = self.closing(index + 1);
            let call = matches!(self.word(close + 1), "(" | "[" | "." | "?.")
                || self.kind(close + 1) == Some(Kind::Chunk);
            if !call {
                self.unsure.set(true);
            }
            return false;
        }
        self.starts_operand(index + 1)
    }

    /// The index of the bracket that closes the one at `open` (or the
    /// end).
    fn closing(&self, open: usize) -> usize {
        let mut depth = 0usize;
        for at in open..self.lx.len() {
            match self.word(at) {
                // A template's `${` opens what its `}` closes.
                "(" | "[" | "{" | "${" => depth += 1,
                ")" | "]" | "}" if self.kind(at) == Some(Kind::Punct) => {
                    depth -= 1;
                    if depth == 0 {
                        return at;
                    }
                }
                _ => {}
            }
        }
        self.lx.len()
    }

    /// Whether the lexeme at `index` can start an operand.
    fn starts_operand(&self, index: usize) -> bool {
        match self.kind(index) {
            Some(Kind::Word) => !matches!(self.word(index), "in" | "instanceof" | "of"),
            Some(Kind::Number | Kind::Str | Kind::Chunk | Kind::Regex | Kind::Private) => true,
            Some(Kind::Punct) => matches!(self.word(index), "(" | "[" | "{"),
            Some(Kind::Op) => matches!(self.word(index), "!" | "~" | "+" | "-" | "++" | "--"),
            None => false,
        }
    }

    /// Marks the tokens of `import` statements and of one-line top-level
    /// statements that mention `require` as dropped.
    fn drop_imports(&self, kinds: &[TokenKind], keep: &mut [bool]) {
        let mut index = 0;
        while index < self.lx.len() {
            let end = self.statement_end(index);
            if self.lx[index].context == Context::Top {
                let span = &self.text[self.lx[index].start as usize..self.lx[end - 1].end as usize];
                let require = !span.contains(['\n', '\r'])
                    && ["require(", "require ", "require_relative"]
                        .iter()
                        .any(|marker| span.contains(marker));
                if require {
                    keep[index..end].iter_mut().for_each(|k| *k = false);
                }
            }
            index = end;
        }
        for index in 0..self.lx.len() {
            if self.word(index) == "using" && kinds[index] == TokenKind::Keyword {
                // The tree walker takes `using_declaration` for an import
                // (C++'s `using`), so it goes, `await` and `;` with it.
                let start = if self.word(index.wrapping_sub(1)) == "await" {
                    index - 1
                } else {
                    index
                };
                let end = self.declaration_end(index);
                keep[start..end].iter_mut().for_each(|k| *k = false);
                continue;
            }
            if self.word(index) != "import" || kinds[index] != TokenKind::Keyword {
                continue;
            }
            match self.word(index + 1) {
                // `import.meta` keeps its word; a dynamic `import(…)` is
                // the grammar's `import` node, which goes alone.
                "." => {}
                "(" => keep[index] = false,
                _ if self.at_statement_start(index) => {
                    let end = self.import_end(index);
                    keep[index..end].iter_mut().for_each(|k| *k = false);
                }
                _ => {}
            }
        }
    }

    /// One past the last token of the declaration starting at `first`: its
    /// `;`, or the line break after which its next token cannot go on.
    fn declaration_end(&self, first: usize) -> usize {
        let context = self.lx[first].context;
        let mut index = first + 1;
        while index < self.lx.len() {
            if self.ends_before(index, context) {
                return index;
            }
            if self.lx[index].context == context && self.word(index) == ";" {
                return index + 1;
            }
            index += 1;
        }
        index
    }

    /// Whether a statement standing in `context` ends just before the
    /// lexeme at `index` (> 0): after a `;`, or at a line break where the
    /// next token cannot go on with it (automatic semicolon insertion).
    fn ends_before(&self, index: usize, context: Context) -> bool {
        let lexeme = self.lx[index];
        if lexeme.context != context || self.lx[index - 1].context != context {
            return false;
        }
        let after_block = self.lx[index - 1].closes_block
            && !matches!(self.word(index), "else" | "catch" | "finally" | "while");
        self.word(index - 1) == ";"
            || after_block
            || (lexeme.line_break_before
                && self.ends_statement(index - 1)
                && !self.continues(index))
    }

    /// Whether a statement may start at `index`.
    fn at_statement_start(&self, index: usize) -> bool {
        index == 0
            || matches!(self.word(index - 1), ";" | "{" | "}" | ")")
            || self.lx[index].line_break_before
    }

    /// One past the last token of the `import` statement at `index`: its
    /// source string, `with {…}` and `;`.
    fn import_end(&self, index: usize) -> usize {
        let mut at = index + 1;
        while at < self.lx.len() && self.kind(at) != Some(Kind::Str) {
            at += 1;
        }
        at += 1;
        if self.word(at) == "with" && self.word(at + 1) == "{" {
            let mut depth = 0usize;
            at += 1;
            while at < self.lx.len() {
                match self.word(at) {
                    "{" => depth += 1,
                    "}" => {
                        depth -= 1;
                        if depth == 0 {
                            at += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                at += 1;
            }
        }
        if self.word(at) == ";" {
            at += 1;
        }
        at.min(self.lx.len())
    }

    /// One past the last token of the top-level statement starting at
    /// `first`: a `;` ends it, and so does a line break where the next
    /// token cannot go on with it (automatic semicolon insertion) or after
    /// a declaration's or block's closing `}`.
    fn statement_end(&self, first: usize) -> usize {
        (first + 1..self.lx.len())
            .find(|&index| self.ends_before(index, Context::Top))
            .unwrap_or(self.lx.len())
    }

    /// Whether a statement may end after the lexeme at `index`.
    fn ends_statement(&self, index: usize) -> bool {
        match self.kind(index) {
            None | Some(Kind::Number | Kind::Str | Kind::Chunk | Kind::Regex | Kind::Private) => {
                true
            }
            Some(Kind::Word) => !matches!(
                self.word(index),
                "in" | "instanceof" | "typeof" | "void" | "delete" | "new" | "else" | "do" | "case"
            ),
            Some(Kind::Punct) => matches!(self.word(index), ")" | "]" | "}" | ";"),
            Some(Kind::Op) => matches!(self.word(index), "++" | "--"),
        }
    }

    /// Whether the lexeme at `index`, first on its line, goes on with the
    /// statement before it.
    fn continues(&self, index: usize) -> bool {
        match self.kind(index) {
            Some(Kind::Op) => !matches!(self.word(index), "++" | "--" | "!" | "~"),
            Some(Kind::Punct) => matches!(self.word(index), "(" | "[" | "." | "," | ":"),
            Some(Kind::Chunk) => true,
            Some(Kind::Word) => matches!(
                self.word(index),
                "else" | "catch" | "finally" | "in" | "instanceof" | "of"
            ),
            _ => false,
        }
    }
}
