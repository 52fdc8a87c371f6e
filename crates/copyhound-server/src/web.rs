//! The web page: paste or upload a document, see its matches, view one side
//! by side with the shared passages highlighted. One self-contained HTML
//! file (CSS and JavaScript inline, nothing fetched from elsewhere) that
//! talks to the JSON API.
//!
//! `/?text=...` runs a search for that text as soon as the page loads, and
//! `&show=ID` then opens the side by side view of document ID, so a search
//! can be shared as a link (the headless-browser test drives the page that
//! way).
//!
//! Over a code archive, `GET /` is another page ([`archive_page`]): upload
//! a code file or a zip, see the archived units it matches, open one side
//! by side as the compare HTML report shows a pair — with the report's own
//! style sheet and drawing script (`copyhound_report::html_parts`),
//! put into `web/archive.html` once. `/?name=FILE&code=TEXT` checks TEXT
//! as a file named FILE as soon as the page loads, and `&show=N` then
//! opens match N side by side.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::{Html, IntoResponse};
use copyhound_report::html_parts;

/// The page's source.
pub const PAGE: &str = include_str!("../web/index.html");

/// The template of the page over a code archive.
const ARCHIVE_TEMPLATE: &str = include_str!("../web/archive.html");

/// The page over a code archive, with the report's parts put in.
pub static ARCHIVE_PAGE: LazyLock<String> = LazyLock::new(|| {
    [
        ("{{REPORT_STYLE}}", html_parts::STYLE),
        ("{{REPORT_DATA}}", html_parts::EMPTY_REPORT_DATA),
        ("{{REPORT_COMMON_SCRIPT}}", html_parts::COMMON_SCRIPT),
        ("{{REPORT_PAIR_SCRIPT}}", html_parts::PAIR_SCRIPT),
    ]
    .iter()
    .fold(ARCHIVE_TEMPLATE.to_owned(), |page, (key, value)| {
        page.replacen(key, value, 1)
    })
});

/// The headers of both pages: nothing fetched from elsewhere, no inline
/// code but the page's own.
const HEADERS: [(header::HeaderName, &str); 2] = [
    (header::CACHE_CONTROL, "no-cache"),
    (
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'",
    ),
];

/// `GET /`.
pub async fn page() -> impl IntoResponse {
    (HEADERS, Html(PAGE))
}

/// `GET /` over a code archive.
pub async fn archive_page() -> impl IntoResponse {
    (HEADERS, Html(ARCHIVE_PAGE.as_str()))
}
