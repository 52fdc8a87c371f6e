//! Python's lexemes: the tokens as the grammar's lexer cuts them, and the
//! line structure its external scanner adds (logical line ends, indents,
//! dedents) with the comments where the grammar places them.
//!
//! The rules follow tree-sitter-python's `grammar.js` and `scanner.c`:
//!
//! - a line ends a statement only outside brackets and not after `\`;
//! - an indent is only taken after a line that ends with `:` (any other
//!   deeper line is read as if it were not indented); a shallower line
//!   closes blocks, and the comment lines before it that are shallower
//!   than a block it closes come after that block;
//! - indentation counts a space as 1 and a tab as 8, and a form feed or a
//!   carriage return starts it again;
//! - a string opens with any run of the letters `f t r b u` (either case)
//!   right before a quote, `` ` `` included; in f-strings (`f` or `t`), `{{`
//!   and `}}` are text and `{` opens an interpolation, whose format
//!   specification is text up to `}` except for nested `{…}`, of which
//!   only the names come out (as the tree walker picks them out of a
//!   string node);
//! - numbers and operators are the grammar's longest match, with `...`
//!   read as three dots after a statement's `from`, and `->` as `-` and
//!   `>` outside a `def` header.
//!
//! Whatever the grammar would read as an error (an unclosed bracket or
//! string, a character no token starts with, a `\` not before a line
//! break) makes [`scan`] give up with `None`, so that the caller can ask
//! the grammar itself.

mod strings;

use unicode_ident::{is_xid_continue, is_xid_start};

use crate::code::lexer::opening_bracket;

/// What a lexeme is. Words the grammar reads as keywords in some places
/// and as names in others get their own kind, decided by the statement
/// pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Name,
    Print,
    Exec,
    Async,
    Await,
    Match,
    Case,
    Type,
    Underscore,
    /// A name picked out of a nested format specification: always a name.
    Ident,
    Keyword(Kw),
    Number,
    /// A string literal that is one token.
    Str,
    /// A literal piece of an f-string.
    Chunk,
    /// Opens an f-string (no token of its own); `end` is the string's end.
    FStart,
    /// Closes an f-string (no token of its own).
    FEnd,
    Op,
    Punct,
    Comment,
    Newline,
    Indent,
    Dedent,
}

/// The keywords the statement pass tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kw {
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
    Import,
    From,
    Lambda,
    Not,
    In,
    /// `None`, `True`, `False`: values.
    Value,
    Other,
}

/// One lexeme: its kind and its bytes (empty for markers).
#[derive(Clone, Copy, Debug)]
pub(super) struct Lexeme {
    pub(super) kind: Kind,
    pub(super) start: u32,
    pub(super) end: u32,
}

impl Lexeme {
    /// Whether this is a word the grammar can read as a name.
    pub(super) fn is_name(self) -> bool {
        self.kind.is_name()
    }
}

impl Kind {
    /// Whether this is a word the grammar can read as a name.
    pub(super) fn is_name(self) -> bool {
        matches!(
            self,
            Kind::Name
                | Kind::Print
                | Kind::Exec
                | Kind::Async
                | Kind::Await
                | Kind::Match
                | Kind::Case
                | Kind::Type
                | Kind::Underscore
        )
    }
}

/// The lexemes of `text`, or `None` where the grammar would find an error.
pub(super) fn scan(text: &str) -> Option<Vec<Lexeme>> {
    u32::try_from(text.len()).ok()?;
    let mut scanner = Scanner {
        text,
        bytes: text.as_bytes(),
        at: 0,
        out: Vec::with_capacity(text.len() / 3),
        indents: vec![0],
        brackets: Vec::new(),
        line_has_tokens: false,
        ends_with_colon: false,
        statement_start: true,
        import_dots: false,
        def_header: false,
        muted: None,
        inside_fstring: false,
    };
    scanner.run()?;
    Some(scanner.out)
}

// The flags are the external scanner's and the lexer's line state, one each.
#[allow(clippy::struct_excessive_bools)]
struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    out: Vec<Lexeme>,
    /// The external scanner's indent stack.
    indents: Vec<u32>,
    /// Open brackets, `{` of an interpolation included (as `i`).
    brackets: Vec<u8>,
    /// Whether the current logical line has a token yet.
    line_has_tokens: bool,
    /// Whether the last token of the logical line so far is a `:`.
    ends_with_colon: bool,
    /// Whether the next token starts a statement.
    statement_start: bool,
    /// After a statement's `from`: dots are single tokens.
    import_dots: bool,
    /// In a `def` header: `->` is one token (elsewhere `-` and `>`).
    def_header: bool,
    /// Inside a nested format specification: where its current literal
    /// piece starts. Only names come out then.
    muted: Option<usize>,
    /// The external scanner's flag that keeps blocks open: set where an
    /// f-string starts, cleared where any string starts or ends.
    inside_fstring: bool,
}

/// By byte: an ASCII letter, digit or `_`, which go on a name.
static NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_';
        b += 1;
    }
    table
};

/// Whether `b` is a letter of a string prefix.
fn is_prefix_letter(b: u8) -> bool {
    matches!(
        b,
        b'f' | b'F' | b't' | b'T' | b'r' | b'R' | b'b' | b'B' | b'u' | b'U'
    )
}

fn is_quote(b: u8) -> bool {
    matches!(b, b'"' | b'\'' | b'`')
}

/// The grammar's operators and punctuation, longest first within a first
/// byte; `None` where no token starts with these bytes.
fn operator_len(rest: &[u8]) -> Option<usize> {
    let b0 = rest[0];
    let b1 = rest.get(1).copied().unwrap_or(0);
    let b2 = rest.get(2).copied().unwrap_or(0);
    let len = match b0 {
        b'*' | b'/' | b'>' | b'<' if b1 == b0 && b2 == b'=' => 3,
        b'*' | b'/' | b'>' | b'<' if b1 == b0 => 2,
        b'.' if b1 == b'.' && b2 == b'.' => 3,
        b'<' | b'-' if b1 == b'>' => 2,
        b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'@' | b'<' | b'>' | b'='
        | b'!' | b':'
            if b1 == b'=' =>
        {
            2
        }
        b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'@' | b'<' | b'>' | b'='
        | b'~' | b'.' | b',' | b':' | b';' | b'(' | b')' | b'[' | b']' | b'{' | b'}' => 1,
        _ => return None,
    };
    Some(len)
}

/// The words with a kind of their own. Every word of the source is looked
/// up here, so the table is indexed by [`keyword_slot`], a hash without
/// collisions among these words (checked as the table is built).
const KEYWORDS: &[(&str, Kind)] = &[
    ("if", Kind::Keyword(Kw::If)),
    ("elif", Kind::Keyword(Kw::Elif)),
    ("else", Kind::Keyword(Kw::Else)),
    ("while", Kind::Keyword(Kw::While)),
    ("for", Kind::Keyword(Kw::For)),
    ("try", Kind::Keyword(Kw::Try)),
    ("except", Kind::Keyword(Kw::Except)),
    ("finally", Kind::Keyword(Kw::Finally)),
    ("with", Kind::Keyword(Kw::With)),
    ("def", Kind::Keyword(Kw::Def)),
    ("class", Kind::Keyword(Kw::Class)),
    ("import", Kind::Keyword(Kw::Import)),
    ("from", Kind::Keyword(Kw::From)),
    ("lambda", Kind::Keyword(Kw::Lambda)),
    ("not", Kind::Keyword(Kw::Not)),
    ("in", Kind::Keyword(Kw::In)),
    ("None", Kind::Keyword(Kw::Value)),
    ("True", Kind::Keyword(Kw::Value)),
    ("False", Kind::Keyword(Kw::Value)),
    ("and", Kind::Keyword(Kw::Other)),
    ("as", Kind::Keyword(Kw::Other)),
    ("assert", Kind::Keyword(Kw::Other)),
    ("break", Kind::Keyword(Kw::Other)),
    ("continue", Kind::Keyword(Kw::Other)),
    ("del", Kind::Keyword(Kw::Other)),
    ("global", Kind::Keyword(Kw::Other)),
    ("is", Kind::Keyword(Kw::Other)),
    ("nonlocal", Kind::Keyword(Kw::Other)),
    ("or", Kind::Keyword(Kw::Other)),
    ("pass", Kind::Keyword(Kw::Other)),
    ("raise", Kind::Keyword(Kw::Other)),
    ("return", Kind::Keyword(Kw::Other)),
    ("yield", Kind::Keyword(Kw::Other)),
    ("print", Kind::Print),
    ("exec", Kind::Exec),
    ("async", Kind::Async),
    ("await", Kind::Await),
    ("match", Kind::Match),
    ("case", Kind::Case),
    ("type", Kind::Type),
    ("_", Kind::Underscore),
];

const KEYWORD_SLOTS: usize = 128;

/// The slot of a word in [`KEYWORD_TABLE`].
const fn keyword_slot(word: &[u8]) -> usize {
    (word[0] as usize + word[word.len() - 1] as usize * 8 + word.len() * 48) % KEYWORD_SLOTS
}

static KEYWORD_TABLE: [Option<(&[u8], Kind)>; KEYWORD_SLOTS] = {
    let mut table: [Option<(&[u8], Kind)>; KEYWORD_SLOTS] = [None; KEYWORD_SLOTS];
    let mut index = 0;
    while index < KEYWORDS.len() {
        let (word, kind) = KEYWORDS[index];
        let slot = keyword_slot(word.as_bytes());
        assert!(table[slot].is_none(), "two keywords share a slot");
        table[slot] = Some((word.as_bytes(), kind));
        index += 1;
    }
    table
};

/// The kind of a word.
fn word_kind(word: &str) -> Kind {
    let word = word.as_bytes();
    match KEYWORD_TABLE[keyword_slot(word)] {
        Some((keyword, kind)) if keyword == word => kind,
        _ => Kind::Name,
    }
}

impl Scanner<'_> {
    fn peek(&self, offset: usize) -> u8 {
        self.bytes.get(self.at + offset).copied().unwrap_or(0)
    }

    fn push(&mut self, kind: Kind, start: usize, end: usize) {
        if let Some(chunk_start) = self.muted {
            // Inside a nested format specification only names come out,
            // each with the literal text before it.
            if !matches!(kind, Kind::Ident) {
                return;
            }
            if chunk_start < start {
                self.out.push(Lexeme {
                    kind: Kind::Chunk,
                    start: chunk_start as u32,
                    end: start as u32,
                });
            }
            self.muted = Some(end);
        }
        self.out.push(Lexeme {
            kind,
            start: start as u32,
            end: end as u32,
        });
    }

    /// Pushes a token of the code (not a marker) and keeps the line state.
    fn push_token(&mut self, kind: Kind, start: usize, end: usize) {
        let outside = self.brackets.is_empty();
        if kind == Kind::Punct {
            // Punctuation is one byte.
            let b = self.bytes[start];
            self.import_dots &= b == b'.';
            if outside {
                self.ends_with_colon = b == b':';
                self.statement_start = b == b':' || b == b';';
                self.def_header &= b != b':';
            }
        } else {
            self.import_dots = kind == Kind::Keyword(Kw::From) && self.statement_start && outside;
            if outside {
                self.ends_with_colon = false;
                self.statement_start = false;
                self.def_header |= kind == Kind::Keyword(Kw::Def);
            }
        }
        self.line_has_tokens = true;
        self.push(kind, start, end);
    }

    fn marker(&mut self, kind: Kind, at: usize) {
        self.out.push(Lexeme {
            kind,
            start: at as u32,
            end: at as u32,
        });
    }

    fn run(&mut self) -> Option<()> {
        loop {
            self.skip_blank();
            let Some(&b) = self.bytes.get(self.at) else {
                return self.finish();
            };
            match b {
                b'\n' => {
                    self.at += 1;
                    if self.brackets.is_empty() {
                        self.line_start()?;
                    } else {
                        self.check_bracket_line()?;
                    }
                }
                b'#' => {
                    let end = self.line_end_from(self.at);
                    self.push(Kind::Comment, self.at, end);
                    self.at = end;
                }
                b'\\' => self.continuation()?,
                _ => self.token()?,
            }
        }
    }

    /// Skips spaces, tabs, form feeds, carriage returns and the invisible
    /// characters the grammar takes as space.
    fn skip_blank(&mut self) {
        if self
            .bytes
            .get(self.at)
            .is_some_and(|&b| b > b' ' && b < 0x80)
        {
            return;
        }
        while let Some(&b) = self.bytes.get(self.at) {
            match b {
                b' ' | b'\t' | b'\x0c' | b'\r' | b'\x0b' => self.at += 1,
                0xE2 | 0xEF => {
                    let rest = &self.text[self.at..];
                    if let Some(c) = rest.chars().next()
                        && matches!(c, '\u{FEFF}' | '\u{2060}' | '\u{200B}')
                    {
                        self.at += c.len_utf8();
                    } else {
                        return;
                    }
                }
                _ => return,
            }
        }
    }

    /// A `\` must end its line: the line goes on.
    fn continuation(&mut self) -> Option<()> {
        let next = self.peek(1);
        if next == b'\n' {
            self.at += 2;
        } else if next == b'\r' && self.peek(2) == b'\n' {
            self.at += 3;
        } else if self.at + 1 == self.bytes.len() {
            self.at += 1;
        } else {
            return None;
        }
        Some(())
    }

    fn line_end_from(&self, at: usize) -> usize {
        self.bytes[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.bytes.len(), |offset| at + offset)
    }

    /// The indentation of the line starting at `at`, as the external
    /// scanner counts it, and where its first other byte is.
    fn indentation(&self, mut at: usize) -> (u32, usize) {
        let mut indent = 0u32;
        while let Some(&b) = self.bytes.get(at) {
            match b {
                b' ' => indent += 1,
                b'\t' => indent += 8,
                b'\r' | b'\x0c' => indent = 0,
                _ => break,
            }
            at += 1;
        }
        (indent, at)
    }

    /// The first line from `at` with a token on it: its indentation and
    /// where the token starts; `None` at the end of the text.
    fn next_token_line(&self, mut at: usize) -> Option<(u32, usize)> {
        loop {
            let (indent, first) = self.indentation(at);
            match self.bytes.get(first) {
                None => return None,
                Some(b'\n') => at = first + 1,
                Some(b'#') => at = self.line_end_from(first) + 1,
                Some(_) => return Some((indent, first)),
            }
        }
    }

    /// At the start of a line after a logical line ended: the line's end,
    /// then the comments, indents and dedents up to the next token.
    fn line_start(&mut self) -> Option<()> {
        let line_end = self.at - 1;
        if self.line_has_tokens {
            self.marker(Kind::Newline, line_end);
            self.line_has_tokens = false;
            self.statement_start = true;
            self.import_dots = false;
        }
        let expect_indent = std::mem::take(&mut self.ends_with_colon);
        // The external scanner looks past comment lines to the next token:
        // blocks close only if that token is shallower, and only after the
        // comments that are not shallower than the block.
        let next_indent = self
            .next_token_line(self.at)
            .map_or(0, |(indent, _)| indent);
        let top = *self.indents.last().expect("never empty");
        let mut indent_pending =
            expect_indent && self.next_token_line(self.at).is_some() && next_indent > top;
        loop {
            let (indent, first) = self.indentation(self.at);
            match self.bytes.get(first) {
                None => {
                    self.at = first;
                    return Some(());
                }
                Some(b'\n') => self.at = first + 1,
                Some(b'#') => {
                    if !indent_pending {
                        self.dedent_below(indent.max(next_indent), first);
                    }
                    let end = self.line_end_from(first);
                    self.push(Kind::Comment, first, end);
                    self.at = (end + 1).min(self.bytes.len());
                }
                Some(b'\\') => return None,
                Some(_) => {
                    if std::mem::take(&mut indent_pending) {
                        self.indents.push(indent);
                        self.marker(Kind::Indent, first);
                    } else {
                        self.dedent_below(indent, first);
                    }
                    self.at = first;
                    return Some(());
                }
            }
        }
    }

    /// At the start of a line inside brackets: `None` where the external
    /// scanner would close a block here, which the grammar reads as an
    /// error. It does when the line (its first token, or a comment) is
    /// shallower than the current block and no closing bracket may follow
    /// the last token (`(a.` then `b)` on a shallower line), unless a
    /// string starts the line where one may stand, or the scanner's
    /// f-string flag is up.
    fn check_bracket_line(&self) -> Option<()> {
        let mut at = self.at;
        let (indent, first) = loop {
            let (indent, first) = self.indentation(at);
            match self.bytes.get(first) {
                None => return Some(()),
                Some(b'\n') => at = first + 1,
                Some(_) => break (indent, first),
            }
        };
        if self.inside_fstring || indent >= *self.indents.last().expect("never empty") {
            return Some(());
        }
        let last = self.out.iter().rev().find(|l| l.kind != Kind::Comment)?;
        let text = &self.bytes[last.start as usize..last.end as usize];
        let closer_may_follow = match last.kind {
            Kind::Punct => text != b":" && text != b".",
            Kind::Str | Kind::FEnd | Kind::Number | Kind::Keyword(Kw::Value) => true,
            _ => last.is_name(),
        };
        let string_next = self.bytes[first..]
            .iter()
            .find(|&&b| !is_prefix_letter(b))
            .is_some_and(|&b| is_quote(b));
        (self.muted.is_none() && (closer_may_follow || (string_next && text != b"."))).then_some(())
    }

    /// Closes the blocks deeper than `indent`.
    fn dedent_below(&mut self, indent: u32, at: usize) {
        while self.indents.len() > 1 && indent < *self.indents.last().expect("never empty") {
            self.indents.pop();
            self.marker(Kind::Dedent, at);
        }
    }

    fn finish(&mut self) -> Option<()> {
        if !self.brackets.is_empty() {
            return None;
        }
        if self.line_has_tokens {
            self.marker(Kind::Newline, self.at);
            self.line_has_tokens = false;
        }
        self.dedent_below(0, self.at);
        Some(())
    }

    /// Reads one token of code at the cursor.
    fn token(&mut self) -> Option<()> {
        let start = self.at;
        let b = self.bytes[start];
        if b.is_ascii_alphabetic() || b == b'_' || b >= 0x80 {
            return self.word();
        }
        if b.is_ascii_digit() || (b == b'.' && self.peek(1).is_ascii_digit()) {
            self.at = start + number_len(&self.bytes[start..]);
            self.push_token(Kind::Number, start, self.at);
            return Some(());
        }
        if is_quote(b) {
            return self.string(start);
        }
        let len = if (b == b'.' && self.import_dots)
            || (b == b'-' && self.peek(1) == b'>' && !(self.def_header && self.brackets.is_empty()))
        {
            1
        } else {
            operator_len(&self.bytes[start..])?
        };
        self.at = start + len;
        let kind = match b {
            b'(' | b'[' | b'{' => {
                self.brackets.push(b);
                Kind::Punct
            }
            b')' | b']' | b'}' => {
                if self.brackets.pop() != Some(opening_bracket(b)) {
                    return None;
                }
                Kind::Punct
            }
            b';' if !self.brackets.is_empty() => return None,
            b',' | b';' => Kind::Punct,
            b':' | b'.' if len == 1 => Kind::Punct,
            _ => Kind::Op,
        };
        self.push_token(kind, start, self.at);
        Some(())
    }

    /// A word: a string prefix before a quote, a keyword or a name.
    fn word(&mut self) -> Option<()> {
        let start = self.at;
        let bytes = self.bytes;
        let mut end = start
            + bytes[start..]
                .iter()
                .position(|&b| !NAME_BYTES[usize::from(b)])
                .unwrap_or(bytes.len() - start);
        if bytes.get(end).is_some_and(|&b| b >= 0x80) {
            end = start + self.unicode_word_len(start)?;
        }
        if bytes.get(end).copied().is_some_and(is_quote)
            && bytes[start..end].iter().all(|&b| is_prefix_letter(b))
        {
            return self.string(start);
        }
        self.at = end;
        let word = &self.text[start..end];
        let mut kind = word_kind(word);
        if word == "__future__" && self.import_dots {
            kind = Kind::Keyword(Kw::Other);
        }
        if self.muted.is_some() {
            if matches!(kind, Kind::Async | Kind::Await) {
                // Whether these are keywords needs the next token, which a
                // nested format specification does not keep.
                return None;
            }
            if kind.is_name() {
                kind = Kind::Ident;
            }
        }
        self.push_token(kind, start, end);
        Some(())
    }

    /// The length of a name with characters beyond ASCII at `start`, as
    /// the grammar's `[_\p{XID_Start}][_\p{XID_Continue}]*`; `None` if no
    /// name starts there.
    fn unicode_word_len(&self, start: usize) -> Option<usize> {
        let rest = &self.text[start..];
        let mut chars = rest.char_indices();
        let (_, first) = chars.next()?;
        if !(first == '_' || is_xid_start(first)) {
            return None;
        }
        Some(
            chars
                .find(|&(_, c)| !(c == '_' || is_xid_continue(c)))
                .map_or(rest.len(), |(offset, _)| offset),
        )
    }
}

/// The length of the number at the start of `rest`: the longest match of
/// the grammar's `integer` and `float`.
fn number_len(rest: &[u8]) -> usize {
    let digits = |at: usize, ok: fn(u8) -> bool| -> usize {
        // repeat1(/_?[digits]+/) for radix literals
        let mut end = at;
        loop {
            let mut probe = end;
            if rest.get(probe) == Some(&b'_') {
                probe += 1;
            }
            let run = rest[probe.min(rest.len())..]
                .iter()
                .take_while(|&&b| ok(b))
                .count();
            if run == 0 {
                return end;
            }
            end = probe + run;
        }
    };
    let lower = rest.get(1).map(u8::to_ascii_lowercase);
    if rest[0] == b'0' && matches!(lower, Some(b'x' | b'o' | b'b')) {
        let ok: fn(u8) -> bool = match lower {
            Some(b'x') => |b: u8| b.is_ascii_hexdigit(),
            Some(b'o') => |b: u8| (b'0'..=b'7').contains(&b),
            _ => |b: u8| b == b'0' || b == b'1',
        };
        let end = digits(2, ok);
        if end > 2 {
            return end + usize::from(matches!(rest.get(end), Some(b'l' | b'L')));
        }
    }
    // repeat1(/[0-9]+_?/)
    let decimal = |at: usize| -> usize {
        let mut end = at;
        loop {
            let run = rest[end..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            if run == 0 {
                return end;
            }
            end += run;
            if rest.get(end) == Some(&b'_') {
                end += 1;
            }
        }
    };
    let int_end = decimal(0);
    let mut end = int_end;
    let mut is_float = false;
    if rest.get(end) == Some(&b'.') {
        let fraction_end = decimal(end + 1);
        if int_end > 0 || fraction_end > end + 1 {
            end = fraction_end;
            is_float = true;
        }
    }
    if end > 0 && matches!(rest.get(end), Some(b'e' | b'E')) {
        let mut at = end + 1;
        if matches!(rest.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let exponent_end = decimal(at);
        if exponent_end > at {
            end = exponent_end;
            is_float = true;
        }
    }
    match rest.get(end) {
        Some(b'j' | b'J') => end + 1,
        Some(b'l' | b'L') if !is_float => end + 1,
        _ => end,
    }
}

#[cfg(test)]
mod tests {
    use super::number_len;

    #[test]
    fn numbers_are_the_longest_match() {
        for (text, len) in [
            ("1.e5 ", 4),
            ("0x_ff ", 5),
            ("1_ ", 2),
            ("1__0", 2),
            ("0777", 4),
            ("10L", 3),
            ("1.5j", 4),
            (".5", 2),
            ("1e5j", 4),
            ("1e", 1),
            ("1.", 2),
            ("0b102", 4),
            ("0x", 1),
            ("1if", 1),
            ("1.0L", 3),
        ] {
            assert_eq!(number_len(text.as_bytes()), len, "{text}");
        }
    }
}
