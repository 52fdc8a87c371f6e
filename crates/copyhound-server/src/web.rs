//! The web page: paste or upload a document, see its matches, view one side
//! by side with the shared passages highlighted. One self-contained HTML
//! file (CSS and JavaScript inline, nothing fetched from elsewhere) that
//! talks to the JSON API.
//!
//! `/?text=...` runs a search for that text as soon as the page loads, and
//! `&show=ID` then opens the side by side view of document ID, so a search
//! can be shared as a link (the headless-browser test drives the page that
//! way).

use axum::http::header;
use axum::response::{Html, IntoResponse};

/// The page's source.
pub const PAGE: &str = include_str!("../web/index.html");

/// `GET /`.
pub async fn page() -> impl IntoResponse {
    (
        [
            (header::CACHE_CONTROL, "no-cache"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'",
            ),
        ],
        Html(PAGE),
    )
}
