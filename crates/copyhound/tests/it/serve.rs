//! `copyhound serve`: refuses what is not a database before listening,
//! answers a search with the JSON `db search --json` prints, and over a
//! code archive checks a file as `compare --against` does.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use predicates::str::contains;
use serde_json::{Value, json};

use crate::code_archive::students;
use crate::db::{db, search_json, write_documents};
use crate::support::{binary, copyhound, temp_dir};

#[test]
fn serve_refuses_a_folder_that_is_not_a_database() {
    let dir = temp_dir();
    copyhound()
        .args(["serve", "--listen", "127.0.0.1:0"])
        .arg(dir.path())
        .env_remove("COPYHOUND_TOKEN")
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(contains("no database here"))
        .stderr(contains("read-only"));
}

#[test]
fn serve_refuses_an_occurrence_limit_over_a_text_database() {
    let dir = temp_dir();
    db(&["init"], dir.path()).success();
    copyhound()
        .args(["serve", "--listen", "127.0.0.1:0", "-m", "1%"])
        .arg(dir.path())
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .failure()
        .stderr(contains("--max-occurrences applies to a code archive"));
}

#[test]
fn serve_refuses_an_empty_token_file() {
    let dir = temp_dir();
    let token = dir.path().join("token");
    std::fs::write(&token, "\n").unwrap();
    copyhound()
        .args(["serve", "--listen", "127.0.0.1:0", "--token-file"])
        .arg(&token)
        .arg(dir.path())
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(contains("is empty"));
}

#[test]
fn the_server_and_the_command_line_answer_a_search_alike() {
    let work = temp_dir();
    let database = work.path().join("db");
    let docs = write_documents(&work.path().join("docs"), 11, 3, 1500);
    db(&["init", "--seed", "7"], &database).success();
    db(
        &["add", work.path().join("docs").to_str().unwrap()],
        &database,
    )
    .success();
    let from_cli = search_json(&database, &docs[1]);

    let server = Server::start(&database);
    let text = std::fs::read_to_string(&docs[1]).unwrap();
    let from_server = server.post_json("/api/search", &json!({ "text": text }));

    assert_eq!(key_paths(&from_cli), key_paths(&from_server));
    assert!(key_paths(&from_cli).contains(&"matches[].fragments[].query_lines".to_owned()));
    // Everything but the name the query was read under is the same, and
    // locations: a caller without the token sees only the file name of a
    // path on the server's disk.
    let without_name = |mut answer: Value| {
        answer.as_object_mut().unwrap().remove("query_name");
        for found in answer["matches"].as_array_mut().unwrap() {
            let location = found["location"].as_str().unwrap();
            let file_name = Path::new(location).file_name().unwrap();
            found["location"] = json!(file_name.to_str().unwrap());
        }
        answer
    };
    assert_eq!(without_name(from_cli), without_name(from_server));
}

#[test]
fn a_search_of_one_file_prints_exactly_the_servers_answer() {
    let work = temp_dir();
    let database = work.path().join("db");
    let docs = write_documents(&work.path().join("docs"), 12, 3, 1500);
    db(&["init", "--seed", "7"], &database).success();
    db(
        &["add", work.path().join("docs").to_str().unwrap()],
        &database,
    )
    .success();
    // The server names a pasted query `pasted.txt`: so is the file the
    // command line searches, from its folder. With the token, the server
    // shows registered paths as the command line does.
    std::fs::copy(&docs[1], work.path().join("pasted.txt")).unwrap();
    let output = copyhound()
        .current_dir(work.path())
        .args(["db", "search"])
        .arg(&database)
        .args(["pasted.txt", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let from_cli: Value = serde_json::from_slice(&output).unwrap();

    let server = Server::start_with_token(&database, Some("s3cret"));
    let text = std::fs::read_to_string(&docs[1]).unwrap();
    let from_server = server.post_json("/api/search", &json!({ "text": text }));

    assert_eq!(from_cli, from_server);
    assert_eq!(from_cli["matches"][0]["id"], 1);
}

#[test]
fn serve_over_a_code_archive_checks_a_file_as_compare_against_does() {
    let dir = temp_dir();
    let old = students(&dir.path().join("old"), &["anna", "ben", "dmitri", "hugo"]);
    let archive = dir.path().join("archive");
    db(&["init", "--code"], &archive).success();
    db(&["add", old.to_str().unwrap(), "--unit", "dir"], &archive).success();
    let file = students(&dir.path().join("new"), &["chloe"]).join("chloe/wordfreq.py");
    let report = dir.path().join("report.json");
    copyhound()
        .arg("compare")
        .arg(&file)
        .args(["-q", "--json"])
        .arg(&report)
        .arg("--against")
        .arg(&archive)
        .assert()
        .success();
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();

    let server = Server::start(&archive);
    let answer = server.post_file(
        "/api/archive/search",
        "wordfreq.py",
        &std::fs::read(&file).unwrap(),
    );
    assert_eq!(answer["language"], "python");
    let best = &answer["matches"][0];
    assert_eq!(best["unit"], "anna");
    let pair = &report["pairs"][0];
    assert!(
        pair["a"]["path"] == "anna" || pair["b"]["path"] == "anna",
        "{pair}"
    );
    assert_eq!(best["similarity"], pair["similarity"]);
    assert_eq!(
        answer["matches"].as_array().unwrap().len(),
        report["pairs"].as_array().unwrap().len()
    );
    drop(server);

    // With an occurrence limit, as `compare --against -m` with it.
    copyhound()
        .arg("compare")
        .arg(&file)
        .args(["-q", "-m", "2", "--json"])
        .arg(dir.path().join("limited.json"))
        .arg("--against")
        .arg(&archive)
        .assert()
        .success();
    let limited = std::fs::read_to_string(dir.path().join("limited.json")).unwrap();
    let limited: Value = serde_json::from_str(&limited).unwrap();
    let server = Server::start_with(&archive, None, &["-m", "2"]);
    let answer = server.post_file(
        "/api/archive/search",
        "wordfreq.py",
        &std::fs::read(&file).unwrap(),
    );
    let similarities = |values: &Value, key: &str| -> Vec<Value> {
        let list = values[key].as_array().unwrap();
        list.iter().map(|item| item["similarity"].clone()).collect()
    };
    assert_eq!(
        similarities(&answer, "matches"),
        similarities(&limited, "pairs")
    );
    assert_ne!(
        similarities(&limited, "pairs"),
        similarities(&report, "pairs")
    );
}

/// Every key path of `value`, array elements written `[]`, sorted.
fn key_paths(value: &Value) -> Vec<String> {
    fn walk(value: &Value, prefix: &str, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    let path = if prefix.is_empty() {
                        key.clone()
                    } else {
                        format!("{prefix}.{key}")
                    };
                    out.push(path.clone());
                    walk(child, &path, out);
                }
            }
            Value::Array(items) => {
                for item in items {
                    walk(item, &format!("{prefix}[]"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, "", &mut out);
    out.sort();
    out.dedup();
    out
}

/// `copyhound serve` on a free local port, read-only.
struct Server {
    child: Child,
    port: u16,
    token: Option<String>,
}

impl Server {
    fn start(database: &std::path::Path) -> Self {
        Self::start_with(database, None, &[])
    }

    /// With `token`, every request carries it.
    fn start_with_token(database: &std::path::Path, token: Option<&str>) -> Self {
        Self::start_with(database, token, &[])
    }

    /// With `token` and `serve`'s further `options`.
    fn start_with(database: &std::path::Path, token: Option<&str>, options: &[&str]) -> Self {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut command = Command::new(binary());
        command
            .args(["serve", "--no-texts", "--listen"])
            .arg(format!("127.0.0.1:{port}"))
            .args(options)
            .arg(database)
            .env_remove("COPYHOUND_TOKEN")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Some(token) = token {
            command.env("COPYHOUND_TOKEN", token);
        }
        let child = command.spawn().unwrap();
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the server did not listen"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Self {
            child,
            port,
            token: token.map(str::to_owned),
        }
    }

    /// POSTs `body` as JSON to `path`; the answer's body, parsed.
    fn post_json(&self, path: &str, body: &Value) -> Value {
        self.post(path, "application/json", body.to_string().as_bytes())
    }

    /// POSTs a multipart form whose `file` is `bytes`, named `name`, to
    /// `path`; the answer's body, parsed.
    fn post_file(&self, path: &str, name: &str, bytes: &[u8]) -> Value {
        let boundary = "copyhound-cli-test";
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(bytes);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let content_type = format!("multipart/form-data; boundary={boundary}");
        self.post(path, &content_type, &body)
    }

    /// POSTs `body` of `content_type` to `path`; the answer's body, parsed.
    fn post(&self, path: &str, content_type: &str, body: &[u8]) -> Value {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        let authorization = self.token.as_ref().map_or_else(String::new, |token| {
            format!("Authorization: Bearer {token}\r\n")
        });
        write!(
            stream,
            "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {content_type}\r\n\
             {authorization}Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .unwrap();
        stream.write_all(body).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        serde_json::from_str(body).unwrap()
    }
}

/// Stopped even when an assertion fails.
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
