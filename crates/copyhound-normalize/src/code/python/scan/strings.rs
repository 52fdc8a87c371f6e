//! Strings as the grammar's external scanner reads them: where each
//! ends, and in an f-string its literal pieces and the tokens of each
//! interpolation, conversion and format specification.

use unicode_ident::is_xid_start;

use super::{Kind, Lexeme, Scanner, is_prefix_letter, word_kind};

/// How a string is delimited and read: the external scanner's flags.
#[derive(Clone, Copy)]
#[allow(clippy::struct_excessive_bools)]
struct Delimiter {
    quote: u8,
    triple: bool,
    raw: bool,
    format: bool,
    bytes: bool,
}

impl Scanner<'_> {
    /// A string literal starting with its prefix at `start`.
    pub(super) fn string(&mut self, start: usize) -> Option<()> {
        let mut delimiter = Delimiter {
            quote: 0,
            triple: false,
            raw: false,
            format: false,
            bytes: false,
        };
        let mut at = start;
        while is_prefix_letter(self.bytes[at]) {
            match self.bytes[at].to_ascii_lowercase() {
                b'f' | b't' => delimiter.format = true,
                b'r' => delimiter.raw = true,
                b'b' => delimiter.bytes = true,
                _ => {}
            }
            at += 1;
        }
        delimiter.quote = self.bytes[at];
        at += 1;
        if delimiter.quote != b'`'
            && self.bytes.get(at) == Some(&delimiter.quote)
            && self.bytes.get(at + 1) == Some(&delimiter.quote)
        {
            delimiter.triple = true;
            at += 2;
        }
        self.at = at;
        self.inside_fstring = delimiter.format;
        if delimiter.format {
            return self.format_string(start, delimiter);
        }
        let Stop::End(end) = self.content(delimiter)? else {
            unreachable!("only f-strings stop at braces");
        };
        self.inside_fstring = false;
        self.at = end;
        self.push_token(Kind::Str, start, end);
        Some(())
    }

    /// An f-string from after its opening quote: its literal pieces, and
    /// the tokens of each interpolation between them.
    fn format_string(&mut self, start: usize, delimiter: Delimiter) -> Option<()> {
        let muted = self.muted;
        if muted.is_none() {
            self.marker(Kind::FStart, start);
        }
        let mut chunk_start = start;
        loop {
            match self.content(delimiter)? {
                Stop::End(end) => {
                    self.at = end;
                    self.inside_fstring = false;
                    if muted.is_none() {
                        if chunk_start < end {
                            self.push(Kind::Chunk, chunk_start, end);
                        }
                        self.push_token(Kind::FEnd, end, end);
                    }
                    return Some(());
                }
                Stop::Brace => {
                    let open = self.at;
                    if self.peek(0) == b'}' {
                        return None;
                    }
                    // An interpolation is code even inside a muted
                    // specification: close the specification's literal
                    // piece before it and go on after it.
                    let outer = self.muted.take();
                    if let Some(outer_start) = outer
                        && outer_start < open
                    {
                        self.out.push(Lexeme {
                            kind: Kind::Chunk,
                            start: outer_start as u32,
                            end: open as u32,
                        });
                    }
                    if muted.is_none() && chunk_start < open {
                        self.push(Kind::Chunk, chunk_start, open);
                    }
                    self.interpolation(false)?;
                    chunk_start = self.at;
                    self.muted = outer.map(|_| self.at);
                }
            }
        }
    }

    /// Reads string content from the cursor up to the closing quote (the
    /// end after it) or, in an f-string, up to a single `{` or `}`.
    fn content(&mut self, delimiter: Delimiter) -> Option<Stop> {
        let bytes = self.bytes;
        let mut at = self.at;
        loop {
            let b = *bytes.get(at)?;
            match b {
                b'{' | b'}' if delimiter.format => {
                    if bytes.get(at + 1) == Some(&b) {
                        at += 2;
                        continue;
                    }
                    self.at = at;
                    return Some(Stop::Brace);
                }
                b'\\' => at = self.escape_end(at, delimiter),
                b'\n' if !delimiter.triple => return None,
                _ if b == delimiter.quote => {
                    if !delimiter.triple {
                        return Some(Stop::End(at + 1));
                    }
                    if bytes.get(at + 1) == Some(&b) && bytes.get(at + 2) == Some(&b) {
                        return Some(Stop::End(at + 3));
                    }
                    at += 1;
                }
                _ => at += 1,
            }
        }
    }

    /// Where the text after the `\` at `at` goes on, as the external
    /// scanner and the grammar's escape sequences read it. Only what can
    /// hide a quote, a backslash, a line break or a brace matters.
    fn escape_end(&self, at: usize, delimiter: Delimiter) -> usize {
        let bytes = self.bytes;
        let next = bytes.get(at + 1).copied().unwrap_or(0);
        if delimiter.raw {
            let mut at = at + 1;
            if next == delimiter.quote || next == b'\\' {
                at += 1;
            }
            if bytes.get(at) == Some(&b'\r') {
                at += 1;
                if bytes.get(at) == Some(&b'\n') {
                    at += 1;
                }
            } else if bytes.get(at) == Some(&b'\n') {
                at += 1;
            }
            return at;
        }
        if delimiter.bytes && matches!(next, b'N' | b'u' | b'U') {
            return at + 2;
        }
        match next {
            b'\'' | b'"' | b'\\' | b'\n' => at + 2,
            b'\r' if bytes.get(at + 2) == Some(&b'\n') => at + 3,
            b'N' if bytes.get(at + 2) == Some(&b'{') => {
                // `\N{NAME}`: the braces are the escape's, not an
                // interpolation's.
                match bytes[at + 3..].iter().position(|&b| b == b'}') {
                    Some(len) if len > 0 => at + 3 + len + 1,
                    _ => at + 1,
                }
            }
            _ => at + 1,
        }
    }

    /// An interpolation at the cursor's `{`: its code, `=`, conversion and
    /// format specification, up to and with its `}`. `muted`: a nested
    /// one in a format specification, of which only names come out.
    fn interpolation(&mut self, muted: bool) -> Option<()> {
        let open = self.at;
        self.at += 1;
        if !muted {
            self.push(Kind::Punct, open, open + 1);
        }
        let base = self.brackets.len();
        self.brackets.push(b'i');
        // Pending `lambda`s, whose `:` is not a format specification's;
        // whether the code so far is one name (`{x:=1}` is a walrus then).
        let mut lambdas = 0usize;
        let mut tokens = 0usize;
        let mut one_name = false;
        loop {
            self.skip_blank();
            let b = *self.bytes.get(self.at)?;
            let at_base = self.brackets.len() == base + 1;
            match b {
                b'\n' => {
                    self.at += 1;
                    self.check_bracket_line()?;
                }
                b'#' => return None,
                b'\\' => self.continuation()?,
                b'}' if at_base => {
                    self.brackets.pop();
                    if !muted {
                        self.push(Kind::Punct, self.at, self.at + 1);
                    }
                    self.at += 1;
                    return Some(());
                }
                b'!' if at_base && self.peek(1).is_ascii_lowercase() => {
                    // A conversion, `!r`: the tree walker hands this leaf
                    // to the table lexer, which reads `!` and a name (and
                    // in a nested specification it is text).
                    let at = self.at;
                    if !muted {
                        self.push(Kind::Op, at, at + 1);
                        self.push(Kind::Ident, at + 1, at + 2);
                    }
                    self.at += 2;
                }
                b':' if at_base && lambdas > 0 => {
                    lambdas -= 1;
                    self.token()?;
                }
                b':' if at_base && !(self.peek(1) == b'=' && tokens == 1 && one_name) => {
                    self.format_specifier()?;
                }
                _ => {
                    let start = self.at;
                    self.token()?;
                    let word = &self.text[start..self.at];
                    if at_base && word == "lambda" {
                        lambdas += 1;
                    }
                    tokens += 1;
                    one_name = tokens == 1
                        && word.starts_with(|c: char| c == '_' || is_xid_start(c))
                        && !matches!(word_kind(word), Kind::Keyword(_));
                }
            }
        }
    }

    /// A format specification from its `:` up to the `}` that ends its
    /// interpolation: text, with the names of nested interpolations.
    /// A nested specification (in a muted interpolation) adds no piece of
    /// its own: the tree walker keeps one string frame for the outermost.
    fn format_specifier(&mut self) -> Option<()> {
        let outermost = self.muted.is_none();
        if outermost {
            self.muted = Some(self.at);
        }
        self.at += 1;
        loop {
            match *self.bytes.get(self.at)? {
                b'}' => break,
                b'\n' => return None,
                b'{' => self.interpolation(true)?,
                _ => self.at += 1,
            }
        }
        if outermost {
            let chunk_start = self.muted.take().expect("set above");
            if chunk_start < self.at {
                self.push(Kind::Chunk, chunk_start, self.at);
            }
        }
        Some(())
    }
}

/// Where string content stopped.
enum Stop {
    /// At the closing quote; the string ends at this offset.
    End(usize),
    /// At a single `{` or `}` of an f-string.
    Brace,
}
