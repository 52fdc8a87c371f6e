//! Python's statements over its lexemes: what the syntax tree decided for
//! the tree walker, recovered from the statement structure alone.
//!
//! - Soft keywords: `print` and `exec` start Python 2 statements where
//!   what follows cannot continue a name (`print "x"`, `print >>f, x`,
//!   `exec code`), `type` where a name follows (`type X = int`), `match`
//!   where its line ends with `:`, `case` in a match block; `async` before
//!   `def`, `for` and `with`; `await` before an operand. Elsewhere they
//!   are names. In a case pattern, `_` is the grammar's wildcard, an
//!   operator to the tree walker.
//! - Docstrings: a statement that is one string (an f-string too, with a
//!   comma after it or not) is documentation, dropped as the tree walker
//!   drops it; two strings in a row are one concatenated string, kept.
//! - With `drop_imports`: `import` and `from` statements go, and so does
//!   a block, a one-line suite or the module whose only child is one
//!   (with its `;`). As the tree walker does for every language, a
//!   top-level statement that fits on one line and mentions `require(`,
//!   `require ` or `require_relative` goes too (a one-line compound
//!   statement with the comment at its end).
//!
//! Statements that the grammar cannot parse (a compound header without
//! `:`, `else` after nothing it can follow, a block of a match that holds
//! something other than `case`) make the pass give up with `None`.

use super::scan::{Kind, Kw, Lexeme};
use crate::code::token::{Token, TokenKind};

/// The tokens of the lexemes, or `None` where the grammar would err.
pub(super) fn read(text: &str, lexemes: &[Lexeme], drop_imports: bool) -> Option<Vec<Token>> {
    let mut reader = Reader {
        text,
        lx: lexemes,
        at: 0,
        out: Vec::with_capacity(lexemes.len()),
        drop_imports,
        blocks: vec![Block::new(0, false)],
        error: false,
    };
    reader.run()?;
    (!reader.error).then_some(reader.out)
}

/// The named children of a suite, as far as the import rule cares.
#[derive(Clone, Copy, Default)]
struct Suite {
    /// Where the suite's tokens start in the output.
    out_start: usize,
    statements: u32,
    comments: u32,
    first_is_import: bool,
}

impl Suite {
    fn new(out_start: usize) -> Self {
        Self {
            out_start,
            ..Self::default()
        }
    }

    fn add_statement(&mut self, is_import: bool) {
        if self.statements == 0 {
            self.first_is_import = is_import;
        }
        self.statements += 1;
    }

    /// Whether the suite's only named child is an import statement.
    fn wraps_import(&self) -> bool {
        self.statements == 1 && self.comments == 0 && self.first_is_import
    }
}

/// Which clauses may continue the last statement of a block.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    Nothing,
    /// After `if` or `elif`: `elif`, `else`.
    If,
    /// After `for` or `while`: `else`.
    Loop,
    /// After `try` or `except`: `except`, `else`, `finally`.
    Try,
    /// After a `try`'s `else`: `finally`.
    TryElse,
}

struct Block {
    suite: Suite,
    /// The block of a `match`: only `case` clauses.
    cases_only: bool,
    open: Open,
    /// After a decorator: a definition must follow.
    decorated: bool,
}

impl Block {
    fn new(out_start: usize, cases_only: bool) -> Self {
        Self {
            suite: Suite::new(out_start),
            cases_only,
            open: Open::Nothing,
            decorated: false,
        }
    }
}

/// The compound statements and their clauses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Header {
    If,
    Elif,
    Else,
    While,
    For,
    Try,
    Except,
    Finally,
    With,
    Def,
    Class,
    Decorator,
    Match,
    Case,
}

impl Header {
    /// Whether the clause starts a statement (rather than continuing one).
    fn is_head(self) -> bool {
        !matches!(
            self,
            Header::Elif | Header::Else | Header::Except | Header::Finally
        )
    }
}

struct Reader<'a> {
    text: &'a str,
    lx: &'a [Lexeme],
    at: usize,
    out: Vec<Token>,
    drop_imports: bool,
    blocks: Vec<Block>,
    /// Set where a token shows an error the statement walk cannot stop at.
    error: bool,
}

impl Reader<'_> {
    fn kind(&self, index: usize) -> Kind {
        self.lx
            .get(index)
            .map_or(Kind::Newline, |lexeme| lexeme.kind)
    }

    fn bytes(&self, index: usize) -> &[u8] {
        self.lx.get(index).map_or(b"", |lexeme| {
            &self.text.as_bytes()[lexeme.start as usize..lexeme.end as usize]
        })
    }

    fn is(&self, index: usize, kind: Kind, text: &[u8]) -> bool {
        self.kind(index) == kind && self.bytes(index) == text
    }

    /// The index of the next lexeme after `index` that is not a comment.
    fn next_code(&self, index: usize) -> usize {
        self.first_code(index + 1)
    }

    /// The index of the first lexeme from `index` on that is not a comment.
    fn first_code(&self, mut index: usize) -> usize {
        while self.kind(index) == Kind::Comment {
            index += 1;
        }
        index
    }

    fn block(&mut self) -> &mut Block {
        self.blocks.last_mut().expect("the module block stays")
    }

    fn run(&mut self) -> Option<()> {
        while let Some(lexeme) = self.lx.get(self.at) {
            match lexeme.kind {
                Kind::Comment => {
                    self.block().suite.comments += 1;
                    self.at += 1;
                }
                Kind::Newline => self.at += 1,
                Kind::Dedent => {
                    if self.blocks.len() == 1 {
                        return None;
                    }
                    self.close_block()?;
                    self.at += 1;
                }
                Kind::Indent => return None,
                _ => self.statement()?,
            }
        }
        while self.blocks.len() > 1 {
            self.close_block()?;
        }
        let module = self.blocks.pop().expect("the module block");
        if module.decorated {
            return None;
        }
        if self.drop_imports && module.suite.wraps_import() {
            self.out.clear();
        }
        Some(())
    }

    fn close_block(&mut self) -> Option<()> {
        let block = self.blocks.pop().expect("not the module block");
        if block.decorated {
            return None;
        }
        if self.drop_imports && block.suite.wraps_import() {
            self.out.truncate(block.suite.out_start);
        }
        Some(())
    }

    /// The compound clause that starts at `index`, if one does.
    fn header_at(&self, index: usize) -> Option<Header> {
        let header = match self.kind(index) {
            Kind::Keyword(Kw::If) => Header::If,
            Kind::Keyword(Kw::Elif) => Header::Elif,
            Kind::Keyword(Kw::Else) => Header::Else,
            Kind::Keyword(Kw::While) => Header::While,
            Kind::Keyword(Kw::For) => Header::For,
            Kind::Keyword(Kw::Try) => Header::Try,
            Kind::Keyword(Kw::Except) => Header::Except,
            Kind::Keyword(Kw::Finally) => Header::Finally,
            Kind::Keyword(Kw::With) => Header::With,
            Kind::Keyword(Kw::Def) => Header::Def,
            Kind::Keyword(Kw::Class) => Header::Class,
            Kind::Async => match self.kind(index + 1) {
                Kind::Keyword(Kw::Def) => Header::Def,
                Kind::Keyword(Kw::For) => Header::For,
                Kind::Keyword(Kw::With) => Header::With,
                _ => return None,
            },
            Kind::Op if self.bytes(index) == b"@" => Header::Decorator,
            Kind::Match if self.is_match_header(index) => Header::Match,
            Kind::Case if self.blocks.last().is_some_and(|block| block.cases_only) => Header::Case,
            _ => return None,
        };
        Some(header)
    }

    /// Whether `match` at `index` starts a match statement: an operand
    /// follows and its line ends with `:`.
    fn is_match_header(&self, index: usize) -> bool {
        if !self.starts_operand(index + 1) {
            return false;
        }
        let mut end = index + 1;
        while self.kind(end) != Kind::Newline {
            end += 1;
        }
        let mut last = end - 1;
        while self.kind(last) == Kind::Comment {
            last -= 1;
        }
        self.is(last, Kind::Punct, b":")
    }

    /// Whether `match (…).x:` or `match (…)[…]:` at `start` may be an
    /// annotation (of `match(…).x`) to the grammar, whose type may even go
    /// on over the next line (`case 1: 's'` as a constrained type).
    fn may_be_annotation(&self, start: usize) -> bool {
        if !self.is(start + 1, Kind::Punct, b"(") {
            return false;
        }
        let mut depth = 0usize;
        let mut index = start + 1;
        loop {
            match (self.kind(index), self.bytes(index)) {
                (Kind::Punct, b"(" | b"[" | b"{") => depth += 1,
                (Kind::Punct, b")" | b"]" | b"}") => {
                    depth -= 1;
                    if depth == 0 {
                        return self.is(index + 1, Kind::Punct, b".")
                            || self.is(index + 1, Kind::Punct, b"[");
                    }
                }
                (Kind::Newline, _) => return false,
                _ => {}
            }
            index += 1;
        }
    }

    fn statement(&mut self) -> Option<()> {
        let header = self.header_at(self.at);
        let block = self.blocks.last().expect("the module block stays");
        if block.cases_only && header != Some(Header::Case) {
            return None;
        }
        if block.decorated
            && !matches!(
                header,
                Some(Header::Def | Header::Class | Header::Decorator)
            )
        {
            return None;
        }
        if header == Some(Header::Match) && self.may_be_annotation(self.at) {
            return None;
        }
        if let Some(header) = header {
            return self.compound(header);
        }
        let top = self.blocks.len() == 1;
        let line = self.simple_statements(top)?;
        let block = self.block();
        block.open = Open::Nothing;
        for index in 0..line.statements {
            block
                .suite
                .add_statement(index == 0 && line.first_is_import);
        }
        block.suite.comments += line.comments;
        Some(())
    }

    /// Updates the block for a new clause; `None` if the clause cannot
    /// follow what came before.
    fn open_clause(&mut self, header: Header) -> Option<()> {
        let block = self.block();
        let open = block.open;
        block.open = match header {
            Header::If => Open::If,
            Header::Elif if open == Open::If => Open::If,
            Header::Else => match open {
                Open::If | Open::Loop => Open::Nothing,
                Open::Try => Open::TryElse,
                Open::Nothing | Open::TryElse => return None,
            },
            Header::Except if open == Open::Try => Open::Try,
            Header::Finally if matches!(open, Open::Try | Open::TryElse) => Open::Nothing,
            Header::While | Header::For => Open::Loop,
            Header::Try => Open::Try,
            Header::With
            | Header::Def
            | Header::Class
            | Header::Decorator
            | Header::Match
            | Header::Case => Open::Nothing,
            Header::Elif | Header::Except | Header::Finally => return None,
        };
        let decorated = std::mem::replace(&mut block.decorated, header == Header::Decorator);
        if header.is_head() && !decorated {
            block.suite.add_statement(false);
        }
        Some(())
    }

    /// A compound statement's clause: its header, and its suite on the
    /// same line or the block after it.
    fn compound(&mut self, header: Header) -> Option<()> {
        let start = self.at;
        let out_start = self.out.len();
        let was_decorated = self.blocks.last().is_some_and(|block| block.decorated);
        let top = self.blocks.len() == 1 && header.is_head() && !was_decorated;
        self.open_clause(header)?;
        if header == Header::Decorator {
            while self.kind(self.at) != Kind::Newline {
                self.emit(self.at, None);
                self.at += 1;
            }
            self.at += 1;
            return Some(());
        }
        let colon = self.header_colon(start)?;
        let pattern_end = if header == Header::Case {
            self.pattern_end(start, colon)
        } else {
            start
        };
        // `match` and `case` are keywords here, and a pattern's `_` the
        // wildcard.
        self.emit(start, Some(TokenKind::Keyword));
        for index in start + 1..=colon {
            let wildcard = index < pattern_end && self.kind(index) == Kind::Underscore;
            self.emit(index, wildcard.then_some(TokenKind::Operator));
        }
        self.at = colon + 1;
        let mut end = self.lx[colon].end;
        if matches!(self.kind(self.at), Kind::Comment | Kind::Newline) {
            while self.kind(self.at) == Kind::Comment {
                end = self.lx[self.at].end;
                self.at += 1;
            }
            self.at += 1;
            // Comment lines before the block's first statement are the
            // clause's, not the block's.
            let first = self.first_code(self.at);
            if self.kind(first) == Kind::Indent {
                self.at = first + 1;
                let out_start = self.out.len();
                self.blocks
                    .push(Block::new(out_start, header == Header::Match));
                return Some(());
            }
        } else {
            if header == Header::Match || self.continues_return_type(header, start, colon) {
                return None;
            }
            let suite_start = self.out.len();
            let suite = self.simple_statements(false)?;
            if self.drop_imports && suite.wraps_import() {
                self.out.truncate(suite_start);
            }
            // The suite ends with what comes last before the line end: a
            // token, a `;` or a comment.
            end = self.lx[self.at - 2].end;
        }
        if top && self.drop_imports {
            let next = self.next_code(self.at - 1);
            let continued = matches!(
                self.kind(next),
                Kind::Keyword(Kw::Elif | Kw::Else | Kw::Except | Kw::Finally)
            );
            if !continued && self.is_require_line(self.lx[start].start, end) {
                self.out.truncate(out_start);
            }
        }
        Some(())
    }

    /// Whether a `def` header with a return type is followed on its line
    /// by a name and `[`: the grammar reads `-> T: x[…]` as a constrained
    /// generic type and then finds an error.
    fn continues_return_type(&self, header: Header, start: usize, colon: usize) -> bool {
        header == Header::Def
            && (start..colon).any(|index| self.is(index, Kind::Op, b"->"))
            && self.lx[colon + 1].is_name()
            && self.is(colon + 2, Kind::Punct, b"[")
    }

    /// The `:` that ends the header starting at `start` (not a lambda's,
    /// nor one inside brackets).
    fn header_colon(&self, start: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut lambdas = 0usize;
        let mut index = start;
        loop {
            let kind = self.lx.get(index)?.kind;
            match kind {
                Kind::Newline => return None,
                Kind::Punct => match self.bytes(index) {
                    b"(" | b"[" | b"{" => depth += 1,
                    b")" | b"]" | b"}" => depth = depth.saturating_sub(1),
                    b":" if depth == 0 && lambdas > 0 => lambdas -= 1,
                    b":" if depth == 0 => return Some(index),
                    _ => {}
                },
                Kind::Keyword(Kw::Lambda) if depth == 0 => lambdas += 1,
                _ => {}
            }
            index += 1;
        }
    }

    /// Where a case clause's pattern ends: at its guard's `if` or at the
    /// header's `:`.
    fn pattern_end(&self, start: usize, colon: usize) -> usize {
        let mut depth = 0usize;
        for index in start..colon {
            match self.kind(index) {
                Kind::Punct => match self.bytes(index) {
                    b"(" | b"[" | b"{" => depth += 1,
                    b")" | b"]" | b"}" => depth = depth.saturating_sub(1),
                    _ => {}
                },
                Kind::FStart => depth += 1,
                Kind::FEnd => depth = depth.saturating_sub(1),
                Kind::Keyword(Kw::If) if depth == 0 => return index,
                _ => {}
            }
        }
        colon
    }

    /// The simple statements of one line, up to and with its line end;
    /// `top`: they are children of the module.
    fn simple_statements(&mut self, top: bool) -> Option<Suite> {
        let mut line = Suite::new(self.out.len());
        loop {
            let start = self.at;
            // The statement ends at `;` or the line end; a `:` outside
            // brackets makes it an annotation (or an error).
            let mut end = start;
            let mut depth = 0usize;
            let mut colon = false;
            loop {
                let lexeme = *self.lx.get(end)?;
                match lexeme.kind {
                    Kind::Newline => break,
                    Kind::Punct => match self.text.as_bytes()[lexeme.start as usize] {
                        b';' => break,
                        b'(' | b'[' | b'{' => depth += 1,
                        b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                        b':' => colon |= depth == 0,
                        _ => {}
                    },
                    _ => {}
                }
                end += 1;
            }
            if end == start {
                return None;
            }
            let mut last = end - 1;
            while last > start && self.kind(last) == Kind::Comment {
                line.comments += 1;
                last -= 1;
            }
            let is_import = self.simple_statement(start, last, top, colon)?;
            line.add_statement(is_import);
            self.at = end;
            if self.kind(end) == Kind::Newline {
                self.at += 1;
                return Some(line);
            }
            self.emit(end, None);
            self.at = end + 1;
            if matches!(self.kind(self.at), Kind::Newline | Kind::Comment) {
                while self.kind(self.at) == Kind::Comment {
                    line.comments += 1;
                    self.at += 1;
                }
                self.at += 1;
                return Some(line);
            }
        }
    }

    /// One simple statement, `start..=last`; whether it is an import.
    fn simple_statement(
        &mut self,
        start: usize,
        last: usize,
        top: bool,
        colon: bool,
    ) -> Option<bool> {
        // A clause cannot follow a `;` or another clause's `:` (`match` and
        // `case` are names there).
        let clause =
            matches!(self.kind(start), Kind::Match | Kind::Case) || self.header_at(start).is_none();
        if self.is(last, Kind::Punct, b":") || !clause {
            return None;
        }
        if self.kind(start + 1) == Kind::Keyword(Kw::Other)
            && self.bytes(start + 1) == b"__future__"
            && self.is(start + 3, Kind::Op, b"*")
        {
            // `from __future__ import *`: no import list, an error.
            return None;
        }
        if (colon || self.kind(start) == Kind::Type) && self.has_type_error(start, last) {
            return None;
        }
        let out_start = self.out.len();
        let is_import = matches!(self.kind(start), Kind::Keyword(Kw::Import | Kw::From));
        let dropped = (is_import && self.drop_imports) || self.is_lone_string(start, last);
        if !dropped {
            let first = match self.kind(start) {
                Kind::Print if self.is_print_statement(start, last) => Some(TokenKind::Keyword),
                Kind::Exec
                    if start < last
                        && (self.lx[start + 1].is_name()
                            || matches!(self.kind(start + 1), Kind::Str | Kind::FStart)) =>
                {
                    Some(TokenKind::Keyword)
                }
                Kind::Type if self.is_type_alias(start, last) => Some(TokenKind::Keyword),
                _ => None,
            };
            self.emit(start, first);
            for index in start + 1..=last {
                self.emit(index, None);
            }
        }
        if top && self.drop_imports && self.is_require_line(self.lx[start].start, self.lx[last].end)
        {
            self.out.truncate(out_start);
        }
        Some(is_import)
    }

    /// Whether `type` at `start` starts a type alias, `type L = R`: an
    /// operand follows, and one `=` splits the rest in two expressions
    /// (which is all the grammar asks: it prefers the alias where both
    /// readings parse, so `type(x).y = z` is one).
    fn is_type_alias(&self, start: usize, last: usize) -> bool {
        if start == last || !self.starts_operand(start + 1) {
            return false;
        }
        let mut depth = 0usize;
        let mut equals = 0;
        for index in start + 1..=last {
            match (self.kind(index), self.bytes(index)) {
                (Kind::Punct, b"(" | b"[" | b"{") | (Kind::FStart, _) => depth += 1,
                (Kind::Punct, b")" | b"]" | b"}") | (Kind::FEnd, _) => {
                    depth = depth.saturating_sub(1);
                }
                (Kind::Punct, b",") if depth == 0 => return false,
                (Kind::Op, b"=") if depth == 0 => {
                    equals += 1;
                    if self.kind(index + 1) == Kind::Keyword(Kw::Other)
                        && self.bytes(index + 1) == b"yield"
                    {
                        return false;
                    }
                }
                _ => {}
            }
        }
        equals == 1
    }

    /// Whether a type of the statement `start..=last` — a type alias's
    /// sides, an annotation — starts with a generic type that the grammar
    /// cannot finish. It reads `Name[…]` there as a generic type, whose
    /// brackets hold no slice and after which only `|`, `.` or `,` may
    /// follow (`x: A[1] + b = 2`, `type T = a[1:]` are errors to it).
    fn has_type_error(&self, start: usize, last: usize) -> bool {
        let mut depth = 0usize;
        let mut equals = None;
        let mut colon = None;
        for index in start..=last {
            match (self.kind(index), self.bytes(index)) {
                (Kind::Punct, b"(" | b"[" | b"{") | (Kind::FStart, _) => depth += 1,
                (Kind::Punct, b")" | b"]" | b"}") | (Kind::FEnd, _) => {
                    depth = depth.saturating_sub(1);
                }
                (Kind::Keyword(Kw::Lambda), _) if depth == 0 && colon.is_none() => return false,
                (Kind::Punct, b":") if depth == 0 && colon.is_none() => colon = Some(index),
                (Kind::Op, b"=") if depth == 0 && equals.is_none() => equals = Some(index),
                _ => {}
            }
        }
        let end = equals.unwrap_or(last + 1);
        if self.kind(start) == Kind::Type && self.is_type_alias(start, last) {
            self.generic_type_error(start + 1, end) || self.generic_type_error(end + 1, last + 1)
        } else {
            colon.is_some_and(|colon| colon < end && self.generic_type_error(colon + 1, end))
        }
    }

    /// Whether the type `from..to` starts with `Name[` and goes on in a way
    /// that a generic type cannot.
    fn generic_type_error(&self, from: usize, to: usize) -> bool {
        if from >= to || !self.lx[from].is_name() || !self.is(from + 1, Kind::Punct, b"[") {
            return false;
        }
        let mut depth = 0usize;
        for index in from + 1..to {
            match (self.kind(index), self.bytes(index)) {
                (Kind::Punct, b"(" | b"[" | b"{") | (Kind::FStart, _) => depth += 1,
                (Kind::Punct, b")" | b"]" | b"}") | (Kind::FEnd, _) => {
                    depth -= 1;
                    if depth == 0 {
                        let next = index + 1;
                        return next < to
                            && !(self.is(next, Kind::Op, b"|")
                                || self.is(next, Kind::Punct, b".")
                                || self.is(next, Kind::Punct, b","));
                    }
                }
                (Kind::Punct, b":") if depth == 1 => return true,
                _ => {}
            }
        }
        false
    }

    /// Whether `start..=last` is one string, with or without a comma.
    fn is_lone_string(&self, start: usize, last: usize) -> bool {
        let unit_end = match self.kind(start) {
            Kind::Str => start,
            Kind::FStart => self.string_end(start),
            _ => return false,
        };
        unit_end == last || (unit_end + 1 == last && self.is(last, Kind::Punct, b","))
    }

    /// The `FEnd` that closes the f-string opened at `start`.
    fn string_end(&self, start: usize) -> usize {
        let mut depth = 0usize;
        let mut index = start;
        loop {
            match self.kind(index) {
                Kind::FStart => depth += 1,
                Kind::FEnd => {
                    depth -= 1;
                    if depth == 0 {
                        return index;
                    }
                }
                _ => {}
            }
            index += 1;
        }
    }

    /// Whether `print` at `start` starts a Python 2 print statement: a
    /// chevron follows, or an operand that cannot continue an expression
    /// after a name (`print -1` is a subtraction, `print (x)` a call).
    fn is_print_statement(&self, start: usize, last: usize) -> bool {
        if start == last {
            return false;
        }
        let next = start + 1;
        match self.kind(next) {
            Kind::Op => matches!(self.bytes(next), b">>" | b"~" | b"..."),
            Kind::Punct => match self.bytes(next) {
                b"{" => true,
                // `print[…]` is a subscript unless the brackets hold what
                // no subscript can: nothing, or a comprehension.
                b"[" => self.holds_no_subscript(next),
                _ => false,
            },
            Kind::Keyword(Kw::Value | Kw::Lambda) | Kind::Number | Kind::Str | Kind::FStart => true,
            Kind::Keyword(Kw::Not) => self.kind(next + 1) != Kind::Keyword(Kw::In),
            _ => self.lx[next].is_name(),
        }
    }

    /// Whether the brackets opened at `open` are empty or hold a
    /// comprehension's `for`.
    fn holds_no_subscript(&self, open: usize) -> bool {
        if self.is(open + 1, Kind::Punct, b"]") {
            return true;
        }
        let mut depth = 0usize;
        let mut index = open;
        while let Some(lexeme) = self.lx.get(index) {
            match (lexeme.kind, self.bytes(index)) {
                (Kind::Punct, b"(" | b"[" | b"{") => depth += 1,
                (Kind::Punct, b")" | b"]" | b"}") => {
                    depth -= 1;
                    if depth == 0 {
                        return false;
                    }
                }
                (Kind::Keyword(Kw::For), _) if depth == 1 => return true,
                (Kind::Newline, _) => return false,
                _ => {}
            }
            index += 1;
        }
        false
    }

    /// Whether the lexeme at `index` can start an operand: what makes
    /// `await` and `match` keywords.
    fn starts_operand(&self, index: usize) -> bool {
        match self.kind(index) {
            Kind::Keyword(Kw::Value) | Kind::Number | Kind::Str | Kind::FStart | Kind::Ident => {
                true
            }
            Kind::Punct => matches!(self.bytes(index), b"(" | b"[" | b"{"),
            Kind::Op => matches!(self.bytes(index), b"-" | b"+" | b"~" | b"*" | b"..."),
            _ => self.lx.get(index).is_some_and(|lexeme| lexeme.is_name()),
        }
    }

    /// Whether a top-level statement spanning `start..end` is a one-line
    /// `require` as the tree walker sees one.
    fn is_require_line(&self, start: u32, end: u32) -> bool {
        let text = &self.text[start as usize..end as usize];
        !text.contains('\n')
            && ["require(", "require ", "require_relative"]
                .iter()
                .any(|marker| text.contains(marker))
    }

    /// Appends the token of the lexeme at `index`, as `kind` if given.
    fn emit(&mut self, index: usize, kind: Option<TokenKind>) {
        let lexeme = self.lx[index];
        let kind = kind.unwrap_or(match lexeme.kind {
            Kind::Name
            | Kind::Print
            | Kind::Exec
            | Kind::Match
            | Kind::Case
            | Kind::Type
            | Kind::Underscore
            | Kind::Ident => TokenKind::Identifier,
            Kind::Async => {
                if matches!(
                    self.kind(self.next_code(index)),
                    Kind::Keyword(Kw::Def | Kw::For | Kw::With)
                ) {
                    TokenKind::Keyword
                } else {
                    TokenKind::Identifier
                }
            }
            Kind::Await => {
                let next = self.next_code(index);
                // `await *` takes a name only (`await *(x,)` is an error).
                if self.is(next, Kind::Op, b"*") && !self.lx[self.next_code(next)].is_name() {
                    self.error = true;
                }
                if self.starts_operand(next) {
                    TokenKind::Keyword
                } else {
                    TokenKind::Identifier
                }
            }
            Kind::Keyword(_) => TokenKind::Keyword,
            Kind::Number => TokenKind::Number,
            Kind::Str | Kind::Chunk => TokenKind::String,
            Kind::Op => {
                // These take a primary operand: `a + not b` and
                // `-lambda: 0` are errors.
                if matches!(
                    self.kind(self.next_code(index)),
                    Kind::Keyword(Kw::Lambda | Kw::Not)
                ) && matches!(
                    self.bytes(index),
                    b"+" | b"-"
                        | b"/"
                        | b"//"
                        | b"%"
                        | b"|"
                        | b"&"
                        | b"^"
                        | b"<<"
                        | b">>"
                        | b"<"
                        | b">"
                        | b"<="
                        | b">="
                        | b"=="
                        | b"!="
                        | b"<>"
                        | b"~"
                ) {
                    self.error = true;
                }
                TokenKind::Operator
            }
            Kind::Punct => TokenKind::Punctuation,
            Kind::FStart
            | Kind::FEnd
            | Kind::Comment
            | Kind::Newline
            | Kind::Indent
            | Kind::Dedent => return,
        });
        self.out.push(Token {
            kind,
            range: lexeme.start as usize..lexeme.end as usize,
        });
    }
}
