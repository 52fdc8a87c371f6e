//! The `OpenAPI` 3 description of the API, written by hand in
//! `openapi.json` next to this crate's sources and served at
//! `GET /api/openapi.json`. A test checks that it names exactly the routes
//! of [`crate::api::routes`].

use axum::http::header;
use axum::response::IntoResponse;

/// The description's source.
pub const OPENAPI_JSON: &str = include_str!("../openapi.json");

/// `GET /api/openapi.json`.
pub async fn document() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI_JSON)
}
