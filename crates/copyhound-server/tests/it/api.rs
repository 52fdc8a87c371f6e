//! The JSON API: add, search, get, text, remove, stats; tokens, limits and
//! errors; the `OpenAPI` description against the router's routes.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use std::sync::Arc;

use copyhound_db::{Database, DocumentMeta, NewDocument, Params, RotationOptions};
use copyhound_pipeline::database::DocumentDatabase;
use copyhound_server::api::routes;
use copyhound_server::archive;
use copyhound_server::{ServerConfig, Token, router};
use serde_json::{Value, json};

use crate::support::{
    TOKEN, TestServer, add, bare_request, json_request, multipart, params, search, send, server,
    server_with, synthetic_text,
};

#[tokio::test]
async fn an_added_document_is_found_at_ratio_one_with_its_fragments() {
    let server = server();
    let app = &server.app;
    let other = add(app, "Other essay", &synthetic_text(1, 300)).await;
    let text = synthetic_text(2, 300);
    let id = add(app, "The essay", &text).await;
    assert_ne!(id, other);

    let (status, body) = search(app, &text).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let best = &body["matches"][0];
    assert_eq!(best["id"], id);
    assert_eq!(best["title"], "The essay");
    assert_eq!(best["ratio"], 1.0);
    assert_eq!(best["bucket"], ">50%");
    assert!(
        body["matches"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["id"] != other),
        "an unrelated document matched: {body}"
    );
    // The whole text is one shared passage.
    let fragments = best["fragments"].as_array().unwrap();
    assert_eq!(fragments.len(), 1, "{fragments:?}");
    let last_letter = text.trim_end_matches(|c: char| !c.is_alphanumeric()).len();
    assert_eq!(fragments[0]["query_bytes"], json!([0, last_letter]));
    assert_eq!(
        fragments[0]["registered_bytes"],
        fragments[0]["query_bytes"]
    );

    // A passage of it, pasted into new text, is found and located.
    let passage = &text[400..1400];
    let query = format!(
        "{}{passage}{}",
        synthetic_text(3, 40),
        synthetic_text(4, 40)
    );
    let (status, body) = send(
        app,
        json_request(
            "POST",
            "/api/search",
            &json!({"text": query, "include_text": true}),
            None,
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let best = &body["matches"][0];
    assert_eq!(best["id"], id);
    assert_eq!(body["query_text"], query.as_str());
    let fragment = &best["fragments"][0];
    let [start, end] = [0, 1].map(|i| fragment["registered_bytes"][i].as_u64().unwrap() as usize);
    let [query_start, query_end] =
        [0, 1].map(|i| fragment["query_bytes"][i].as_u64().unwrap() as usize);
    // The same symbols on both sides (punctuation between them may differ
    // where the fragment was extended past the pasted passage by chance).
    let letters = |s: &str| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
    };
    assert_eq!(
        letters(&text[start..end]),
        letters(&query[query_start..query_end])
    );
    assert!(
        start >= 380 && end <= 1420 && end - start > 900,
        "{fragment}"
    );
}

#[tokio::test]
async fn documents_can_be_read_and_removed() {
    let server = server();
    let app = &server.app;
    let text = synthetic_text(5, 200);
    let id = add(app, "Kept", &text).await;

    let (status, body) = send(
        app,
        bare_request("GET", &format!("/api/documents/{id}"), None),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["title"], "Kept");
    assert_eq!(body["text_available"], true);
    assert_eq!(body["searches_matched"], 0);
    let (status, body) = send(
        app,
        bare_request("GET", &format!("/api/documents/{id}/text"), None),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, Value::String(text.clone()));

    search(app, &text).await;
    let (_, body) = send(
        app,
        bare_request("GET", &format!("/api/documents/{id}"), None),
    )
    .await;
    assert_eq!(body["searches_matched"], 1);

    let (status, _) = send(
        app,
        bare_request("DELETE", &format!("/api/documents/{id}"), Some(TOKEN)),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = send(
        app,
        bare_request("GET", &format!("/api/documents/{id}"), None),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"]["code"], "not_found");
    let (status, body) = search(app, &text).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["matches"], json!([]));
    let (status, _) = send(
        app,
        bare_request("DELETE", &format!("/api/documents/{id}"), Some(TOKEN)),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, body) = send(app, bare_request("GET", "/api/stats", None)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["documents"], 0);
    assert_eq!(body["mode"], "koala");
    assert_eq!(body["read_only"], false);
}

#[tokio::test]
async fn stats_show_an_unfinished_rotation_until_it_is_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let params = Params {
        keep_prints: true,
        ..params()
    };
    let db = Arc::new(Database::create(&dir.path().join("db"), params).unwrap());
    let config = ServerConfig {
        token: Token::new(TOKEN),
        ..ServerConfig::default()
    };
    let app = &router(Arc::clone(&db), config).unwrap();
    for seed in 0..12 {
        add(
            app,
            &format!("essay {seed}"),
            &synthetic_text(40 + seed, 200),
        )
        .await;
    }
    let stats = || async { send(app, bare_request("GET", "/api/stats", None)).await.1 };
    assert_eq!(stats().await["unfinished_rotation"], Value::Null);

    let one_batch = RotationOptions {
        batch_docs: 4,
        max_batches: Some(1),
        ..RotationOptions::default()
    };
    db.rotate_with_options(&one_batch).unwrap();
    assert_eq!(
        stats().await["unfinished_rotation"],
        json!({"epoch": 1, "done_below": 4, "end": 12})
    );
    db.rotate().unwrap();
    let done = stats().await;
    assert_eq!(done["unfinished_rotation"], Value::Null, "{done}");
    assert_eq!(done["rotation"], 1, "{done}");
}

#[tokio::test]
async fn writes_need_the_token() {
    let server = server();
    let app = &server.app;
    let body = json!({"text": synthetic_text(6, 100)});
    let (status, error) = send(app, json_request("POST", "/api/documents", &body, None)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(error["error"]["code"], "unauthorized");
    let (status, error) = send(
        app,
        json_request("POST", "/api/documents", &body, Some("guess")),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(error["error"]["code"], "forbidden");
    let (status, _) = send(app, bare_request("DELETE", "/api/documents/0", None)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = send(
        app,
        bare_request("DELETE", "/api/documents/0", Some("guess")),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (_, stats) = send(app, bare_request("GET", "/api/stats", None)).await;
    assert_eq!(
        stats["documents"], 0,
        "a refused write registered something"
    );
}

#[tokio::test]
async fn a_server_without_token_is_read_only() {
    let server = server_with(ServerConfig::default());
    let app = &server.app;
    let body = json!({"text": synthetic_text(7, 100)});
    let (status, error) = send(
        app,
        json_request("POST", "/api/documents", &body, Some(TOKEN)),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("read-only")
    );
    let (status, _) = search(app, &synthetic_text(7, 100)).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn bodies_over_the_limit_get_413_as_json() {
    let server = server_with(ServerConfig {
        token: Token::new(TOKEN),
        max_upload_bytes: 4096,
        ..ServerConfig::default()
    });
    let app = &server.app;
    let big = json!({"text": synthetic_text(8, 2000)});
    for (uri, token) in [("/api/search", None), ("/api/documents", Some(TOKEN))] {
        let (status, error) = send(app, json_request("POST", uri, &big, token)).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{uri}: {error}");
        assert_eq!(error["error"]["code"], "too_large");
    }
    let (status, error) = send(
        app,
        multipart("/api/search", "big.txt", synthetic_text(8, 2000).as_bytes()),
    )
    .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{error}");
    assert_eq!(error["error"]["code"], "too_large");
    let (status, _) = search(app, &synthetic_text(8, 100)).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn bad_input_gets_a_json_error_naming_the_problem() {
    let server = server();
    let app = &server.app;
    let cases: Vec<(Request<Body>, StatusCode, &str)> = vec![
        (
            json_request("POST", "/api/search", &json!({"text": "  \n"}), None),
            StatusCode::BAD_REQUEST,
            "empty",
        ),
        (
            json_request("POST", "/api/search", &json!({"txt": "hello"}), None),
            StatusCode::BAD_REQUEST,
            "missing field `text`",
        ),
        (
            Request::post("/api/search")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from("{not json"))
                .unwrap(),
            StatusCode::BAD_REQUEST,
            "invalid JSON",
        ),
        (
            Request::post("/api/search")
                .header(header::CONTENT_TYPE, "text/plain")
                .body(Body::from("hello"))
                .unwrap(),
            StatusCode::BAD_REQUEST,
            "unsupported content type",
        ),
        (
            json_request("POST", "/api/search", &json!({"text": "too short"}), None),
            StatusCode::UNPROCESSABLE_ENTITY,
            "no fingerprint",
        ),
        (
            multipart(
                "/api/search",
                "photo.png",
                b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0",
            ),
            StatusCode::UNPROCESSABLE_ENTITY,
            "binary",
        ),
        (
            multipart("/api/search", "empty.txt", b""),
            StatusCode::BAD_REQUEST,
            "empty",
        ),
        (
            json_request(
                "POST",
                "/api/documents",
                &json!({"text": synthetic_text(9, 100), "url": "/etc/passwd"}),
                Some(TOKEN),
            ),
            StatusCode::BAD_REQUEST,
            "not an http",
        ),
        (
            bare_request("GET", "/api/documents/seven", None),
            StatusCode::BAD_REQUEST,
            "not a document id",
        ),
        (
            bare_request("GET", "/api/nothing", None),
            StatusCode::NOT_FOUND,
            "no route",
        ),
        (
            bare_request("PUT", "/api/stats", None),
            StatusCode::METHOD_NOT_ALLOWED,
            "not allowed",
        ),
    ];
    for (request, expected, words) in cases {
        let what = format!("{} {}", request.method(), request.uri());
        let (status, body) = send(app, request).await;
        assert_eq!(status, expected, "{what}: {body}");
        let message = body["error"]["message"]
            .as_str()
            .unwrap_or_else(|| panic!("{what}: {body}"));
        assert!(
            message.contains(words),
            "{what}: {message:?} does not say {words:?}"
        );
    }
}

#[tokio::test]
async fn uploaded_files_are_searched_like_pasted_text() {
    let server = server();
    let app = &server.app;
    let text = synthetic_text(10, 300);
    let html = format!("<html><head><title>x</title></head><body><p>{text}</p></body></html>");
    let (status, body) = send(
        app,
        multipart_with_token("/api/documents", "page.html", html.as_bytes()),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["title"], "page.html");
    let id = body["id"].clone();
    let (status, body) = send(app, multipart("/api/search", "copy.txt", text.as_bytes())).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["matches"][0]["id"], id);
    assert_eq!(body["query_name"], "copy.txt");
}

#[tokio::test]
async fn the_openapi_description_names_exactly_the_routes_of_both_servers() {
    let server = server();
    let (status, spec) = send(&server.app, bare_request("GET", "/api/openapi.json", None)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(spec["openapi"].as_str().unwrap().starts_with("3."));
    let paths = spec["paths"].as_object().unwrap();
    let mut described = Vec::new();
    for (path, item) in paths {
        for method in item
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| *k != "parameters")
        {
            described.push(format!("{} {path}", method.to_uppercase()));
        }
    }
    // Both servers' routes: over a text database and over a code archive.
    let mut routed: Vec<String> = routes()
        .iter()
        .map(|(route, _)| *route)
        .chain(archive::routes().iter().map(|(route, _)| *route))
        .map(|route| format!("{} {}", route.method, route.path))
        .collect();
    described.sort();
    routed.sort();
    routed.dedup();
    assert_eq!(described, routed);
    // Every `$ref` points at something that exists.
    let mut refs = Vec::new();
    collect_refs(&spec, &mut refs);
    for reference in refs {
        let pointer = reference.trim_start_matches('#');
        assert!(spec.pointer(pointer).is_some(), "dangling {reference}");
    }
}

#[tokio::test]
async fn the_page_is_served_self_contained() {
    let server = server();
    let (status, page) = send(&server.app, bare_request("GET", "/", None)).await;
    assert_eq!(status, StatusCode::OK);
    let page = page.as_str().unwrap();
    assert!(page.contains("/api/search"));
    assert!(
        !page.contains("http://") && !page.contains("https://cdn"),
        "the page loads something from elsewhere"
    );
}

fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("$ref", Value::String(target)) => out.push(target.clone()),
                    _ => collect_refs(value, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

fn multipart_with_token(uri: &str, file_name: &str, bytes: &[u8]) -> Request<Body> {
    let mut request = multipart(uri, file_name, bytes);
    request.headers_mut().insert(
        header::AUTHORIZATION,
        format!("Bearer {TOKEN}").parse().unwrap(),
    );
    request
}

/// A server whose database holds one document registered from a file on
/// the server's disk, as `copyhound db add` registers it: its id, and the
/// file's absolute path.
fn server_with_registered_file() -> (TestServer, u64, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("private").join("thesis.txt");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let text = synthetic_text(77, 300);
    std::fs::write(&file, &text).unwrap();
    let db = Database::create(&dir.path().join("db"), params()).unwrap();
    let db = DocumentDatabase::new(Arc::new(db)).unwrap();
    let loaded = db.load_bytes(&file, text.as_bytes()).unwrap();
    let print = db.prepare(loaded).print;
    let location = file.display().to_string();
    let meta = DocumentMeta {
        title: "thesis".into(),
        location: location.clone(),
        email: String::new(),
        size: text.len() as u64,
    };
    let id = db
        .database()
        .add(vec![NewDocument { meta, print }])
        .unwrap()[0];
    let config = ServerConfig {
        token: Token::new(TOKEN),
        texts_dir: Some(dir.path().join("texts")),
        ..ServerConfig::default()
    };
    let app = router(Arc::clone(db.database()), config).unwrap();
    (TestServer { app, _dir: dir }, id.into(), location)
}

#[tokio::test]
async fn files_registered_on_the_server_are_read_with_the_token_only() {
    let (server, id, location) = server_with_registered_file();
    let app = &server.app;
    let text_uri = format!("/api/documents/{id}/text");
    let (status, _) = send(app, bare_request("GET", &text_uri, None)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = send(app, bare_request("GET", &text_uri, Some("wrong"))).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = send(app, bare_request("GET", &text_uri, Some(TOKEN))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body.as_str().unwrap(), synthetic_text(77, 300));

    // Without the token the server's path shows as the file name alone.
    let uri = format!("/api/documents/{id}");
    let (_, anonymous) = send(app, bare_request("GET", &uri, None)).await;
    assert_eq!(anonymous["location"], "thesis.txt");
    assert_eq!(anonymous["text_available"], false);
    let (_, trusted) = send(app, bare_request("GET", &uri, Some(TOKEN))).await;
    assert_eq!(trusted["location"], location.as_str());
    let (status, found) = search(app, &synthetic_text(77, 300)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(found["matches"][0]["location"], "thesis.txt");
    assert!(!found.to_string().contains("private"), "{found}");
}
