//! The server over a code archive: `POST /api/archive/search` finds a
//! renamed copy of an archived Java file, reads a zip as one unit, scores
//! as `compare --against` does, and refuses what it cannot check with a
//! JSON error; checks run one at a time on one archive.

use std::io::Write;
use std::path::PathBuf;

use axum::Router;
use axum::http::StatusCode;
use copyhound_pipeline::code_archive::{ArchiveSettings, Storing, add_to_archive, create_archive};
use copyhound_pipeline::{CompareSettings, FrontEndChoice, Inputs, Selection, UnitMode, run};
use copyhound_report::Tool;
use copyhound_server::{ServerConfig, archive};
use serde_json::Value;
use tempfile::TempDir;

use crate::support::{bare_request, json_request, multipart, multipart_with, send};

/// An archived Java program: the one the tests copy.
pub const SORTER: &str = r"import java.util.ArrayList;
import java.util.List;

public class Sorter {
    private final List<Integer> values = new ArrayList<>();

    public void add(int value) {
        values.add(value);
    }

    public List<Integer> sorted() {
        List<Integer> copy = new ArrayList<>(values);
        for (int i = 1; i < copy.size(); i++) {
            int current = copy.get(i);
            int j = i - 1;
            while (j >= 0 && copy.get(j) > current) {
                copy.set(j + 1, copy.get(j));
                j--;
            }
            copy.set(j + 1, current);
        }
        return copy;
    }

    public int median() {
        List<Integer> ordered = sorted();
        int middle = ordered.size() / 2;
        if (ordered.size() % 2 == 0) {
            return (ordered.get(middle - 1) + ordered.get(middle)) / 2;
        }
        return ordered.get(middle);
    }
}
";

/// Other archived programs, which share no code with [`SORTER`].
const OTHERS: [(&str, &str); 2] = [
    (
        "Primes.java",
        r"public class Primes {
    static boolean isPrime(long n) {
        if (n < 2) return false;
        for (long d = 2; d * d <= n; d++) {
            if (n % d == 0) return false;
        }
        return true;
    }

    public static void main(String[] args) {
        long limit = Long.parseLong(args[0]);
        StringBuilder out = new StringBuilder();
        for (long n = 2; n < limit; n++) {
            if (isPrime(n)) out.append(n).append('\n');
        }
        System.out.print(out);
    }
}
",
    ),
    (
        "wordcount.py",
        "import sys\n\ncounts = {}\nfor line in sys.stdin:\n    for word in line.split():\n        counts[word.lower()] = counts.get(word.lower(), 0) + 1\nfor word, n in sorted(counts.items(), key=lambda kv: -kv[1]):\n    print(word, n)\n",
    ),
];

/// The identifiers a copier renames in [`SORTER`], and their new names.
const RENAMINGS: [(&str, &str); 6] = [
    ("Sorter", "Ordering"),
    ("values", "items"),
    ("copy", "result"),
    ("current", "key"),
    ("median", "middleValue"),
    ("ordered", "arranged"),
];

/// [`SORTER`] with its identifiers renamed: what a copier hands in.
pub fn renamed_sorter() -> String {
    RENAMINGS
        .iter()
        .fold(SORTER.to_owned(), |text, (from, to)| text.replace(from, to))
}

/// `text` of the copy with the renamings undone.
fn unrenamed(text: &str) -> String {
    RENAMINGS
        .iter()
        .fold(text.to_owned(), |text, (from, to)| text.replace(to, from))
}

/// A server over a code archive of [`SORTER`] and the others.
pub struct ArchiveServer {
    pub app: Router,
    pub archive: PathBuf,
    /// Holds the archive; deleted when the test ends.
    pub dir: TempDir,
}

pub fn archive_server() -> ArchiveServer {
    let dir = tempfile::tempdir().unwrap();
    let sources = dir.path().join("sources");
    std::fs::create_dir(&sources).unwrap();
    std::fs::write(sources.join("Sorter.java"), SORTER).unwrap();
    for (name, text) in OTHERS {
        std::fs::write(sources.join(name), text).unwrap();
    }
    let archive = dir.path().join("archive");
    let settings = ArchiveSettings {
        front_end: FrontEndChoice::default(),
        selection: Selection::default(),
    };
    create_archive(&archive, &settings, true).unwrap();
    let inputs = Inputs {
        new: vec![sources],
        unit: UnitMode::File,
        ..Inputs::default()
    };
    let added = add_to_archive(
        &archive,
        &inputs,
        &FrontEndChoice::default(),
        Storing::default(),
        &(),
    )
    .unwrap();
    assert_eq!(added.added.len(), 3, "{added:?}");
    let app = archive::router(&archive, &ServerConfig::default()).unwrap();
    ArchiveServer { app, archive, dir }
}

const SEARCH: &str = "/api/archive/search";

/// Checks `bytes` as `name`, with the texts.
pub async fn check(app: &Router, name: &str, bytes: &[u8]) -> (StatusCode, Value) {
    send(
        app,
        multipart_with(SEARCH, name, bytes, &[("include_text", "true")]),
    )
    .await
}

/// The lines `[first, last]` of `text`.
fn lines(text: &str, range: &Value) -> Vec<String> {
    let [first, last] = [0, 1].map(|i| range[i].as_u64().unwrap() as usize);
    text.lines()
        .skip(first - 1)
        .take(last + 1 - first)
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn a_renamed_copy_of_an_archived_java_file_is_found_with_its_passages() {
    let server = archive_server();
    let copy = renamed_sorter();
    let (status, body) = check(&server.app, "Ordering.java", copy.as_bytes()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["name"], "Ordering.java");
    assert_eq!(body["language"], "java");
    assert_eq!(body["archived_units"], 2);
    assert_eq!(body["files"][0]["text"], copy.as_str());
    let matches = body["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 1, "only the original shares code: {body}");
    let best = &matches[0];
    assert_eq!(best["unit"], "Sorter.java");
    assert!(best["similarity"].as_f64().unwrap() > 0.9, "{best}");
    assert_eq!(best["files"][0]["name"], "Sorter.java");
    assert_eq!(best["files"][0]["text"], SORTER);

    // Each passage is on the same lines on both sides (the renamings keep
    // them), and its lines there are the same code, up to the renamings.
    let passages = best["passages"].as_array().unwrap();
    assert!(!passages.is_empty());
    for passage in passages {
        assert_eq!(passage["query"]["lines"], passage["archived"]["lines"]);
        let ours = lines(&copy, &passage["query"]["lines"]);
        let theirs = lines(SORTER, &passage["archived"]["lines"]);
        assert_eq!(unrenamed(&ours.join("\n")), theirs.join("\n"), "{passage}");
    }

    // The similarity is the one `compare FILE --against ARCHIVE` gives.
    let file = server.dir.path().join("Ordering.java");
    std::fs::write(&file, &copy).unwrap();
    let inputs = Inputs {
        new: vec![file],
        against: vec![server.archive.clone()],
        ..Inputs::default()
    };
    let outcome = run(&inputs, &CompareSettings::default(), &()).unwrap();
    let tool = Tool {
        name: "copyhound".into(),
        version: "test".into(),
    };
    let report = outcome.report(&tool, None);
    assert_eq!(
        report.pairs[0].similarity.to_bits(),
        best["similarity"].as_f64().unwrap().to_bits()
    );
}

#[tokio::test]
async fn a_zip_of_a_submission_is_one_unit() {
    let server = archive_server();
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for (name, text) in [
        ("src/Ordering.java", renamed_sorter()),
        ("test/Notes.java", "class Notes { int x = 1; }\n".to_owned()),
    ] {
        zip.start_file(name, options).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    let bytes = zip.finish().unwrap().into_inner();
    // Two folders: `compare alice.zip` would make each a unit.
    let (status, body) = check(&server.app, "alice.zip", &bytes).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["name"], "alice.zip");
    let names: Vec<&str> = body["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["alice.zip/src/Ordering.java", "alice.zip/test/Notes.java"]
    );
    let passage = &body["matches"][0]["passages"][0];
    assert_eq!(body["matches"][0]["unit"], "Sorter.java");
    assert_eq!(passage["query"]["path"], "alice.zip/src/Ordering.java");
}

#[tokio::test]
async fn what_cannot_be_checked_gets_a_json_error_naming_it() {
    let server = archive_server();
    let app = &server.app;
    let error = |body: &Value| {
        let message = body["error"]["message"].as_str().unwrap().to_owned();
        assert!(!message.contains("copyhound-submission-"), "{message}");
        (body["error"]["code"].as_str().unwrap().to_owned(), message)
    };

    let (status, body) = check(app, "Empty.java", b"\n  \n").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        error(&body),
        ("bad_request".into(), "Empty.java: the file is empty".into())
    );

    let (status, body) = check(app, "Main.java", b"\x00\x01binary\x00\xfe\xff\x00\x00").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (code, message) = error(&body);
    assert_eq!(code, "unprocessable_document");
    assert_eq!(
        message,
        "Main.java: cannot be read: looks binary (NUL byte at offset 0); not text, code, HTML, PDF or DOCX"
    );

    let (status, body) = check(app, "bob.zip", b"PK\x03\x04 not a zip after all").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (code, message) = error(&body);
    assert_eq!(code, "unprocessable_document");
    assert!(
        message.starts_with("bob.zip: cannot be read: ") && message.matches("bob.zip").count() == 1,
        "{message}"
    );

    let (status, body) = check(
        app,
        "notes.xyz",
        b"Plain words in a file of no known language.\n",
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (code, message) = error(&body);
    assert_eq!(code, "no_unit_of_its_language");
    assert!(
        message.starts_with("notes.xyz: read as text, and the archive holds no text unit ("),
        "{message}"
    );

    // The text database's routes are not served over an archive.
    let (status, body) = send(
        app,
        json_request(
            "POST",
            "/api/search",
            &serde_json::json!({"text": "x"}),
            None,
        ),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"]["code"], "not_found");
    let (status, _) = send(app, bare_request("GET", SEARCH, None)).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn checks_at_once_all_answer() {
    let server = archive_server();
    let copy = renamed_sorter();
    let checks = (0..4).map(|_| {
        let app = server.app.clone();
        let request = multipart(SEARCH, "Ordering.java", copy.as_bytes());
        async move { send(&app, request).await }
    });
    for (status, body) in futures_join_all(checks).await {
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["matches"][0]["unit"], "Sorter.java");
    }
}

/// Runs `futures` at once on the runtime; their outputs in order.
async fn futures_join_all<T: Send + 'static>(
    futures: impl Iterator<Item = impl std::future::Future<Output = T> + Send + 'static>,
) -> Vec<T> {
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut outputs = Vec::with_capacity(handles.len());
    for handle in handles {
        outputs.push(handle.await.unwrap());
    }
    outputs
}

#[tokio::test]
async fn the_page_over_an_archive_uploads_code_with_the_reports_drawing() {
    let server = archive_server();
    let (status, page) = send(&server.app, bare_request("GET", "/", None)).await;
    assert_eq!(status, StatusCode::OK);
    let page = page.as_str().unwrap();
    assert!(page.contains(SEARCH));
    assert!(page.contains("function renderText(") && page.contains(".sides {"));
    assert!(!page.contains("{{"), "a placeholder left in the page");
    // Nothing is loaded from elsewhere (the report's script names the SVG
    // namespace, an address it never fetches).
    assert!(!page.contains("<script src") && !page.contains("<link") && !page.contains("url("));
}
