//! Shared helpers: a small database, the router over it, requests and
//! documents of synthetic text.

use std::sync::Arc;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use copyhound_db::{Database, Params};
use copyhound_server::{Limits, ServerConfig, Token, router};
use serde_json::Value;
use tempfile::TempDir;
use tower::ServiceExt;

/// The write token of the test servers.
pub const TOKEN: &str = "test-token-7f3a";

/// A server over a fresh database.
pub struct TestServer {
    pub app: Router,
    /// Holds the database; deleted when the test ends.
    pub _dir: TempDir,
}

/// Koala parameters without the prologue (test documents are short), and
/// flushes every few documents so that segments are written and merged
/// while tests run.
pub fn params() -> Params {
    let mut params = Params {
        seed: 0x5eed_cafe,
        prologue_bytes: 0,
        ..Params::default()
    };
    params.set("flush_docs", "8").unwrap();
    params
}

pub fn server_with(config: ServerConfig) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(&dir.path().join("db"), params()).unwrap();
    let config = ServerConfig {
        texts_dir: Some(dir.path().join("texts")),
        ..config
    };
    let app = router(Arc::new(db), config).unwrap();
    TestServer { app, _dir: dir }
}

/// A server with the write token, admitting more work at once than the
/// tests send (the limits have their own tests).
pub fn server() -> TestServer {
    server_with(ServerConfig {
        token: Token::new(TOKEN),
        limits: Limits {
            max_concurrent: 64,
            ..Limits::default()
        },
        ..ServerConfig::default()
    })
}

/// Sends `request`; returns the status and the body as JSON (`Value::Null`
/// for an empty body, a string for a non-JSON one).
pub async fn send(app: &Router, request: Request<Body>) -> (StatusCode, Value) {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.to_str().unwrap().starts_with("application/json"));
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let body = if bytes.is_empty() {
        Value::Null
    } else if json {
        serde_json::from_slice(&bytes).unwrap()
    } else {
        Value::String(String::from_utf8_lossy(&bytes).into_owned())
    };
    (status, body)
}

/// A JSON request, with the write token when `token` is given.
pub fn json_request(method: &str, uri: &str, body: &Value, token: Option<&str>) -> Request<Body> {
    let mut builder = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json");
    if let Some(token) = token {
        builder = builder.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    builder.body(Body::from(body.to_string())).unwrap()
}

/// A request without body.
pub fn bare_request(method: &str, uri: &str, token: Option<&str>) -> Request<Body> {
    let mut builder = Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        builder = builder.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    builder.body(Body::empty()).unwrap()
}

/// Registers `text` under `title`; returns the new id.
pub async fn add(app: &Router, title: &str, text: &str) -> u64 {
    let (status, body) = send(
        app,
        json_request(
            "POST",
            "/api/documents",
            &serde_json::json!({"text": text, "title": title}),
            Some(TOKEN),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["id"].as_u64().unwrap()
}

/// Searches `text`.
pub async fn search(app: &Router, text: &str) -> (StatusCode, Value) {
    send(
        app,
        json_request(
            "POST",
            "/api/search",
            &serde_json::json!({"text": text}),
            None,
        ),
    )
    .await
}

/// Prose-like text of made-up words, different for every `seed`: about
/// `words` words from a vocabulary of thousands, so that documents share no
/// long passage by chance.
pub fn synthetic_text(seed: u64, words: usize) -> String {
    const SYLLABLES: [&str; 24] = [
        "ka", "lo", "mi", "tur", "sen", "va", "pe", "dro", "ni", "gal", "fo", "ru", "bes", "ti",
        "mon", "sha", "el", "quor", "ap", "yu", "zin", "hal", "co", "wex",
    ];
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut text = String::new();
    for i in 0..words {
        let syllables = 2 + next() % 3;
        for _ in 0..syllables {
            text.push_str(SYLLABLES[(next() % SYLLABLES.len() as u64) as usize]);
        }
        text.push(if i % 12 == 11 { '.' } else { ' ' });
        if i % 12 == 11 {
            text.push(if i % 48 == 47 { '\n' } else { ' ' });
        }
    }
    text
}

const BOUNDARY: &str = "copyhound-test-boundary";

/// A multipart form with a `file` field, then `fields` (name, value).
pub fn multipart_with(
    uri: &str,
    file_name: &str,
    bytes: &[u8],
    fields: &[(&str, &str)],
) -> Request<Body> {
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file_name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    for (name, value) in fields {
        body.extend_from_slice(
            format!(
                "\r\n--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}"
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    Request::post(uri)
        .header(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(Body::from(body))
        .unwrap()
}

/// A multipart form with only a `file` field.
pub fn multipart(uri: &str, file_name: &str, bytes: &[u8]) -> Request<Body> {
    multipart_with(uri, file_name, bytes, &[])
}
