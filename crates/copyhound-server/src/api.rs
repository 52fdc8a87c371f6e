//! The HTTP surface: routes, handlers, the body limit and the fallbacks.
//!
//! Every route is listed once in [`routes`], which builds the router and
//! which the tests compare with the `OpenAPI` description. Handlers check
//! the token (writes) before the body is read, then run the blocking
//! database work on tokio's blocking pool.
//!
//! Documents registered from the command line have a path on the server as
//! their location. Without the write token, answers show only its file
//! name, and the text of such a document is not served: only token holders
//! may read files of the server's disk. Texts uploaded over HTTP and kept
//! by the server are served to everyone, as their uploader meant.

use axum::extract::{DefaultBodyLimit, FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, delete, get, post};
use axum::{Json, Router};
use copyhound_db::DocId;
use copyhound_pipeline::database::SearchResult;
use tower_http::trace::TraceLayer;

use crate::auth::authorize_write;
use crate::error::{ApiError, ApiResult};
use crate::input::{Upload, UploadLimit};
use crate::service::{AppState, DocumentOutput, StatsOutput, is_web_url};
use crate::{openapi, web};

/// One route: its method and path (axum syntax, `{id}` for parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    /// The HTTP method.
    pub method: &'static str,
    /// The path.
    pub path: &'static str,
}

/// Every route of the application, with its handler.
pub fn routes() -> Vec<(Route, MethodRouter<AppState>)> {
    let route = |method, path| Route { method, path };
    vec![
        (route("GET", "/"), get(web::page)),
        (route("GET", "/api/openapi.json"), get(openapi::document)),
        (route("POST", "/api/documents"), post(add_document)),
        (route("GET", "/api/documents/{id}"), get(get_document)),
        (
            route("DELETE", "/api/documents/{id}"),
            delete(remove_document),
        ),
        (route("GET", "/api/documents/{id}/text"), get(document_text)),
        (route("POST", "/api/search"), post(search)),
        (route("GET", "/api/stats"), get(stats)),
    ]
}

/// The application over `state`.
pub fn router(state: AppState) -> Router {
    assemble(routes(), state)
}

/// The application of `routes` over `state`: the fallbacks, the body
/// limit and the request log every server has.
pub(crate) fn assemble<S>(routes: Vec<(Route, MethodRouter<S>)>, state: S) -> Router
where
    S: UploadLimit + Clone + 'static,
{
    let limit = state.max_upload_bytes();
    routes
        .into_iter()
        .fold(Router::new(), |router, (route, handler)| {
            router.route(route.path, handler)
        })
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(limit))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// Proof that the request carries the write token. As an extractor placed
/// before the body it refuses a write before the upload is read.
pub struct WriteAccess;

impl FromRequestParts<AppState> for WriteAccess {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ApiResult<Self> {
        authorize_write(state.token(), &parts.headers).map(|()| WriteAccess)
    }
}

/// Runs blocking database work off the async workers.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| ApiError::Internal(format!("a worker failed: {error}")))?
}

fn parse_id(text: &str) -> ApiResult<DocId> {
    text.parse()
        .map_err(|_| ApiError::BadRequest(format!("{text:?} is not a document id")))
}

async fn add_document(
    State(state): State<AppState>,
    _: WriteAccess,
    upload: Upload,
) -> ApiResult<(StatusCode, Json<DocumentOutput>)> {
    let added = blocking(move || state.add(&upload)).await?;
    Ok((StatusCode::CREATED, Json(added)))
}

async fn search(
    State(state): State<AppState>,
    headers: HeaderMap,
    upload: Upload,
) -> ApiResult<Json<SearchResult>> {
    let trusted = holds_token(&state, &headers);
    let mut result = blocking(move || state.search(&upload)).await?;
    if !trusted {
        for found in &mut result.matches {
            hide_server_path(&mut found.location);
        }
    }
    Ok(Json(result))
}

async fn get_document(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<DocumentOutput>> {
    let id = parse_id(&id)?;
    let trusted = holds_token(&state, &headers);
    let reader = state.clone();
    let mut output = blocking(move || reader.get(id)).await?;
    if !trusted {
        hide_server_path(&mut output.location);
        output.text_available &= state.has_kept_text(id);
    }
    Ok(Json(output))
}

async fn document_text(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let id = parse_id(&id)?;
    if !state.has_kept_text(id) {
        // Its text would be read from a file on the server's disk.
        authorize_write(state.token(), &headers)?;
    }
    let text = blocking(move || state.text(id)).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// Whether the request carries the write token.
fn holds_token(state: &AppState, headers: &HeaderMap) -> bool {
    authorize_write(state.token(), headers).is_ok()
}

/// Shows a location that is a path on the server as its file name only.
fn hide_server_path(location: &mut String) {
    if location.is_empty() || is_web_url(location) {
        return;
    }
    let name = std::path::Path::new(location.as_str())
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    *location = name;
}

async fn remove_document(
    State(state): State<AppState>,
    _: WriteAccess,
    Path(id): Path<String>,
) -> ApiResult<Json<DocumentOutput>> {
    let id = parse_id(&id)?;
    blocking(move || state.remove(id)).await.map(Json)
}

async fn stats(State(state): State<AppState>) -> ApiResult<Json<StatsOutput>> {
    blocking(move || state.stats()).await.map(Json)
}

async fn not_found(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError::NotFound(format!("no route for {method} {}", uri.path()))
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}
