//! Visible text of HTML.
//!
//! The HTML5 tokenizer of `html5ever` reads any input, however malformed, and
//! decodes character references (`&eacute;`, `&#8217;`). What a reader never
//! sees is dropped: markup, comments, and the contents of `script`, `style`,
//! `template`, `noscript`, `iframe`, `noembed` and `noframes`. Block-level
//! elements and `<br>` become line breaks, so words of adjacent paragraphs or
//! table cells do not run together; other runs of whitespace collapse to one
//! space, except inside `pre`, `textarea` and `listing`. Inline elements add
//! nothing, so `<b>co</b>py` stays the word "copy".
//!
//! No tree is built: the tokenizer is enough for visible text and keeps
//! memory linear in the input.

use std::cell::RefCell;

use encoding_rs::Encoding;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};

/// Bytes at the start of a document searched for a `charset` declaration, as
/// browsers do (HTML's encoding sniffing algorithm looks at 1024 bytes).
const CHARSET_PRESCAN_BYTES: usize = 1024;

/// The visible text of an HTML document.
///
/// ```
/// use copyhound_normalize::extract::html::visible_text;
///
/// let text = visible_text("<p>Caf&eacute;<script>var x;</script> <b>open</b></p><p>Daily</p>");
/// assert_eq!(text, "Café open\nDaily\n");
/// ```
pub fn visible_text(html: &str) -> String {
    let sink = TextSink::default();
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(html));
    let tokenizer = Tokenizer::new(sink, TokenizerOpts::default());
    // The sink never asks to run a script, so one call consumes all input.
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    tokenizer.sink.state.into_inner().text
}

/// Whether a text document is HTML by its content: it opens, after
/// whitespace and comments, with `<!DOCTYPE html` or `<html`.
pub fn looks_like_html(text: &str) -> bool {
    let mut rest = text.trim_start_matches('\u{feff}').trim_start();
    while let Some(after) = rest.strip_prefix("<!--") {
        match after.find("-->") {
            Some(end) => rest = after[end + 3..].trim_start(),
            None => return false,
        }
    }
    let head = rest.get(..14).unwrap_or(rest);
    let head = head.to_ascii_lowercase();
    head.starts_with("<!doctype html") || head.starts_with("<html")
}

/// The encoding declared by a `charset=` in the first bytes of an HTML
/// document (a `<meta charset>` or an `http-equiv` content type), if any.
pub fn declared_encoding(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(CHARSET_PRESCAN_BYTES)];
    let lower = head.to_ascii_lowercase();
    let at = lower.windows(8).position(|window| window == b"charset=")? + 8;
    let label = lower[at..]
        .iter()
        .skip_while(|&&byte| byte == b'"' || byte == b'\'' || byte == b' ')
        .take_while(|&&byte| !matches!(byte, b'"' | b'\'' | b' ' | b';' | b'>' | b'/'))
        .copied()
        .collect::<Vec<u8>>();
    Encoding::for_label(&label)
}

/// Elements whose content is never shown.
fn is_hidden(name: &str) -> bool {
    matches!(
        name,
        "script" | "style" | "template" | "noscript" | "iframe" | "noembed" | "noframes"
    )
}

/// Elements that start on a new line when rendered.
fn is_block(name: &str) -> bool {
    matches!(
        name,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "body"
            | "br"
            | "caption"
            | "dd"
            | "details"
            | "dialog"
            | "div"
            | "dl"
            | "dt"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "head"
            | "header"
            | "hgroup"
            | "hr"
            | "html"
            | "li"
            | "listing"
            | "main"
            | "nav"
            | "ol"
            | "p"
            | "pre"
            | "section"
            | "summary"
            | "table"
            | "tbody"
            | "td"
            | "textarea"
            | "tfoot"
            | "th"
            | "thead"
            | "title"
            | "tr"
            | "ul"
    )
}

/// Elements whose whitespace is shown as written.
fn keeps_whitespace(name: &str) -> bool {
    matches!(name, "pre" | "textarea" | "listing")
}

/// How the tokenizer must read the content of an element that is not
/// ordinary markup (what a tree builder would tell it).
fn raw_content(name: &str) -> Option<RawKind> {
    match name {
        "script" => Some(RawKind::ScriptData),
        "style" | "xmp" | "iframe" | "noembed" | "noframes" => Some(RawKind::Rawtext),
        "title" | "textarea" => Some(RawKind::Rcdata),
        _ => None,
    }
}

#[derive(Default)]
struct TextSink {
    state: RefCell<TextState>,
}

#[derive(Default)]
struct TextState {
    text: String,
    /// Open hidden elements; text is dropped while non-zero.
    hidden_depth: usize,
    /// Open whitespace-preserving elements.
    verbatim_depth: usize,
    /// Whitespace was seen since the last character written.
    pending_space: bool,
}

impl TextState {
    fn tag(&mut self, tag: &Tag) -> TokenSinkResult<()> {
        let name: &str = &tag.name;
        let opens = tag.kind == TagKind::StartTag && !tag.self_closing;
        if is_hidden(name) {
            if opens {
                self.hidden_depth += 1;
            } else if tag.kind == TagKind::EndTag {
                self.hidden_depth = self.hidden_depth.saturating_sub(1);
            }
        }
        if keeps_whitespace(name) {
            if opens {
                self.verbatim_depth += 1;
            } else if tag.kind == TagKind::EndTag {
                self.verbatim_depth = self.verbatim_depth.saturating_sub(1);
            }
        }
        if is_block(name) {
            self.line_break();
        }
        match raw_content(name) {
            Some(kind) if opens => TokenSinkResult::RawData(kind),
            _ => TokenSinkResult::Continue,
        }
    }

    fn line_break(&mut self) {
        self.pending_space = false;
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
    }

    fn characters(&mut self, chars: &str) {
        if self.hidden_depth > 0 {
            return;
        }
        if self.verbatim_depth > 0 {
            self.text.push_str(chars);
            self.pending_space = false;
            return;
        }
        for c in chars.chars() {
            if c.is_whitespace() {
                self.pending_space = true;
                continue;
            }
            if self.pending_space && !self.text.is_empty() && !self.text.ends_with('\n') {
                self.text.push(' ');
            }
            self.pending_space = false;
            self.text.push(c);
        }
    }
}

impl TokenSink for TextSink {
    type Handle = ();

    fn process_token(&self, token: Token, _line_number: u64) -> TokenSinkResult<()> {
        let mut state = self.state.borrow_mut();
        match token {
            Token::TagToken(tag) => return state.tag(&tag),
            Token::CharacterTokens(chars) => state.characters(&chars),
            Token::DoctypeToken(_)
            | Token::CommentToken(_)
            | Token::NullCharacterToken
            | Token::EOFToken
            | Token::ParseError(_) => {}
        }
        TokenSinkResult::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_styles_and_comments_are_dropped() {
        let html = "<html><head><style>p { color: red }</style>\
                    <script>if (a < b) { document.write('<p>hidden</p>') }</script></head>\
                    <body><!-- note -->Shown</body></html>";
        assert_eq!(visible_text(html), "Shown\n");
    }

    #[test]
    fn entities_are_decoded() {
        assert_eq!(
            visible_text("Fish &amp; chips &mdash; &#8220;caf&#xE9;&#8221; &bogus; AT&T"),
            "Fish & chips — “café” &bogus; AT&T"
        );
        // As in browsers, a few legacy entities need no semicolon.
        assert_eq!(visible_text("&copy 2024 &notin; &notit;"), "© 2024 ∉ ¬it;");
    }

    #[test]
    fn inline_elements_do_not_split_words() {
        assert_eq!(visible_text("<p>co<b>py</b><i>ing</i></p>"), "copying\n");
    }

    #[test]
    fn blocks_and_breaks_separate_words() {
        assert_eq!(
            visible_text("<table><tr><td>one</td><td>two</td></tr></table>a<br>b"),
            "one\ntwo\na\nb"
        );
    }

    #[test]
    fn pre_keeps_its_whitespace() {
        assert_eq!(visible_text("<pre>a  b\n c</pre>  x   y"), "a  b\n c\nx y");
    }

    #[test]
    fn malformed_html_still_gives_text() {
        assert_eq!(
            visible_text("<p <b>bold</i> text</p></div></x"),
            "bold text\n"
        );
        assert_eq!(visible_text("<script>never closed"), "");
    }

    #[test]
    fn html_is_recognised_by_its_opening() {
        assert!(looks_like_html("\n <!-- hi --> <!DOCTYPE html><p>"));
        assert!(looks_like_html("<HTML lang=en>"));
        assert!(!looks_like_html("Plain text mentioning <html>"));
    }

    #[test]
    fn charset_is_found_in_meta() {
        let declared = |bytes: &[u8]| declared_encoding(bytes).map(Encoding::name);
        assert_eq!(
            declared(b"<meta charset=\"ISO-8859-1\">"),
            Some("windows-1252")
        );
        assert_eq!(
            declared(b"<meta http-equiv=Content-Type content='text/html; charset=koi8-r'>"),
            Some("KOI8-R")
        );
        assert_eq!(declared(b"<p>no declaration</p>"), None);
    }
}
