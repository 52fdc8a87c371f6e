//! The HTML report: one self-contained page that works offline, with no
//! server and nothing fetched — a pair list (virtual: only the rows in
//! view exist, so tens of thousands of pairs sort and filter at once), a
//! similarity histogram, a graph of the units linked above a threshold,
//! a side-by-side view of every embedded pair with line numbers — its
//! passages listed (a click shows one on both sides), each fragment
//! highlighted exactly in its passage's colour, the gaps inside a passage
//! dotted — and a review workflow: each pair can be marked reviewed,
//! confirmed or dismissed and given a note, kept in the browser's local
//! storage under the report's identity, filtered on and exported as CSV.
//!
//! The page is a fixed template, style sheet and script (under `html/`,
//! embedded at compile time) plus the data (`html/data.rs`): one JSON object
//! inside a `<script type="application/json">`, with `<`, `>` and `&`
//! written as `\u003c`-style escapes so no file's text can close the
//! element. The script renders everything with `textContent`, never as
//! markup.
//!
//! Only the most similar pairs are embedded ([`HtmlOptions::max_pairs`]),
//! and only the texts of the documents their fragments lie in; the page
//! says when it holds fewer pairs than were found.

mod data;

use std::io::Write;

use crate::{Report, ReportError};

const TEMPLATE: &str = include_str!("html/page.html");
const STYLE: &str = include_str!("html/style.css");
/// The page's script, in parts that run in this order inside one function
/// (the template wraps them): each part uses what the ones before define.
const SCRIPTS: [&str; 6] = [
    include_str!("html/common.js"),
    include_str!("html/review.js"),
    include_str!("html/overview.js"),
    include_str!("html/list.js"),
    include_str!("html/pair.js"),
    include_str!("html/main.js"),
];

/// The parts of the page that draw a pair side by side, for other pages
/// that show pairs the report's way (the server's page over a code
/// archive): the style sheet, the script's helpers (which read the
/// report's data element, `#copyhound-data`, when they start, so a page
/// without a report gives it an empty one: [`EMPTY_REPORT_DATA`]) and its
/// pair view, whose `renderText` draws one file with line numbers and its
/// fragments and passages marked, and `codeTokens` colours its code.
pub mod parts {
    /// The report's style sheet.
    pub const STYLE: &str = super::STYLE;
    /// The script's helpers (`el`, `COLOURS`, `percent`, `plural`…).
    pub const COMMON_SCRIPT: &str = super::SCRIPTS[0];
    /// The pair view (`renderText`, `codeTokens`, `linkSides`…).
    pub const PAIR_SCRIPT: &str = super::SCRIPTS[4];
    /// The data of a report with no pair, on which the helpers start.
    pub const EMPTY_REPORT_DATA: &str = r#"{"parameters":{},"units":{"path":[],"origin":[],"language":[]},"pairs":{"a":[],"b":[]}}"#;
}

/// Pairs embedded by default: enough for any class, small enough for a
/// browser to open at once.
pub const DEFAULT_HTML_MAX_PAIRS: usize = 500;

/// Documents longer than this (bytes of text) are left out by default;
/// their fragments are then listed by line numbers only.
pub const DEFAULT_HTML_MAX_DOCUMENT_BYTES: usize = 2 << 20;

/// Limits on what the HTML page embeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HtmlOptions {
    /// Embed at most this many pairs (the most similar).
    pub max_pairs: usize,
    /// Leave out the text of a document longer than this many bytes.
    pub max_document_bytes: usize,
}

impl Default for HtmlOptions {
    fn default() -> Self {
        Self {
            max_pairs: DEFAULT_HTML_MAX_PAIRS,
            max_document_bytes: DEFAULT_HTML_MAX_DOCUMENT_BYTES,
        }
    }
}

/// Writes `report` as one self-contained HTML page.
///
/// `source(unit, document)` gives the text of document `document` (its
/// index in the unit's [`documents`](crate::UnitReport::documents)) of unit
/// `unit` — the text the fragments' byte ranges index into — or `None`
/// when it is not available; it is asked only for the documents that
/// fragments of embedded pairs lie in, once each.
pub fn write_html(
    report: &Report,
    source: impl Fn(usize, usize) -> Option<String>,
    options: &HtmlOptions,
    mut out: impl Write,
) -> Result<(), ReportError> {
    let data = data::PageData::new(report, &source, options);
    let json = script_safe(&serde_json::to_string(&data)?);
    let title = format!(
        "{} report: {} units, {} pairs with shared fragments",
        report.tool.name, report.summary.units, report.summary.matching_pairs
    );
    let page = fill(
        TEMPLATE,
        &[
            ("{{TITLE}}", &escape_html(&title)),
            ("{{STYLE}}", STYLE),
            ("{{DATA}}", &json),
            ("{{SCRIPT}}", &SCRIPTS.join("\n")),
        ],
    );
    out.write_all(page.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// `template` with every placeholder replaced, in one pass, so that text
/// inserted for one placeholder is never searched for another.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut page =
        String::with_capacity(template.len() + values.iter().map(|v| v.1.len()).sum::<usize>());
    let mut rest = template;
    while let Some((at, (key, value))) = values
        .iter()
        .filter_map(|entry| rest.find(entry.0).map(|at| (at, entry)))
        .min_by_key(|(at, _)| *at)
    {
        page.push_str(&rest[..at]);
        page.push_str(value);
        rest = &rest[at + key.len()..];
    }
    page.push_str(rest);
    page
}

/// JSON that can sit inside a `<script>` element: `<`, `>` and `&` only
/// occur inside JSON strings, where their `\u` escapes mean the same, and
/// without them no `</script>` or `<!--` can appear. U+2028 and U+2029 are
/// escaped too, for older JavaScript parsers.
fn script_safe(json: &str) -> String {
    let mut safe = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => safe.push_str("\\u003c"),
            '>' => safe.push_str("\\u003e"),
            '&' => safe.push_str("\\u0026"),
            '\u{2028}' => safe.push_str("\\u2028"),
            '\u{2029}' => safe.push_str("\\u2029"),
            c => safe.push(c),
        }
    }
    safe
}

/// Text as HTML character data or a quoted attribute value.
fn escape_html(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_in_inserted_text_stay() {
        let page = fill(
            "<a>{{X}}</a>{{Y}}{{X}}",
            &[("{{X}}", "{{Y}}"), ("{{Y}}", "y")],
        );
        assert_eq!(page, "<a>{{Y}}</a>y{{Y}}");
    }

    #[test]
    fn script_safe_json_parses_to_the_same_value() {
        let value = serde_json::json!({"text": "</script><!-- & \u{2028} >"});
        let safe = script_safe(&value.to_string());
        assert!(!safe.contains('<') && !safe.contains('>') && !safe.contains('&'));
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&safe).unwrap(),
            value
        );
    }

    #[test]
    fn html_escaping() {
        assert_eq!(
            escape_html("<b a=\"1\">'&'"),
            "&lt;b a=&quot;1&quot;&gt;&#39;&amp;&#39;"
        );
    }
}
