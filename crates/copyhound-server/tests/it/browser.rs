//! The web pages in headless Chromium: a page opened at `/?text=…` searches
//! that text and shows the matching document; over a code archive, one
//! opened at `/?name=…&code=…&show=1` uploads that code as a file, lists
//! the archived unit it copies and draws the pair side by side, passages
//! on the lines the API gives, a hostile file name shown as text.
//!
//! Skips (with a message) when no Chromium is installed, unless
//! `COPYHOUND_REQUIRE_CHROMIUM=1`.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use axum::Router;
use regex::Regex;

use crate::archive::{archive_server, check, renamed_sorter};
use crate::support::{add, server, synthetic_text};

/// Longest a Chromium run may take before it is killed.
const CHROMIUM_DEADLINE: Duration = Duration::from_secs(90);

fn chromium() -> Option<PathBuf> {
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .find_map(|name| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(name))
                .find(|candidate| candidate.is_file())
        })
    })
}

/// Runs Chromium on `url` and returns the DOM after the page's scripts ran.
fn dump_dom(chromium: &PathBuf, url: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--virtual-time-budget=8000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting chromium");
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stdout).unwrap_or_default());
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > CHROMIUM_DEADLINE {
            child.kill().ok();
            child.wait().ok();
            panic!("chromium did not finish within {CHROMIUM_DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    reader.join().unwrap()
}

/// Chromium, or `None` (the test skips) when it is not installed and not
/// required.
fn chromium_or_skip() -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        assert!(
            std::env::var("COPYHOUND_REQUIRE_CHROMIUM").as_deref() != Ok("1"),
            "COPYHOUND_REQUIRE_CHROMIUM=1 but no chromium on PATH"
        );
        eprintln!("skipped: no chromium on PATH (apt-get install chromium to run this test)");
    }
    found
}

/// `text` for a URL's query: every byte but letters and digits escaped.
fn encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The DOM of `app`'s page at `/{query}`, served on a loopback port, after
/// its scripts ran.
async fn page_dom(app: &Router, chromium: PathBuf, query: &str) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(copyhound_server::serve(
        listener,
        app.clone(),
        copyhound_server::Limits::default(),
        async {
            stopped.await.ok();
        },
    ));
    let url = format!("http://{address}/{query}");
    let dom = tokio::task::spawn_blocking(move || dump_dom(&chromium, &url))
        .await
        .unwrap();
    stop.send(()).ok();
    serving.await.unwrap().unwrap();
    dom
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_searches_a_shared_text_and_shows_the_match() {
    let Some(chromium) = chromium_or_skip() else {
        return;
    };
    let server = server();
    let text = synthetic_text(77, 200);
    add(&server.app, "Shared Title From The Browser Test", &text).await;
    add(&server.app, "Unrelated Document", &synthetic_text(78, 200)).await;
    let query = format!("?text={}", encoded(&text[..600]));
    let dom = page_dom(&server.app, chromium, &query).await;

    assert!(
        dom.contains("Shared Title From The Browser Test"),
        "the match is not on the page:\n{dom}"
    );
    assert!(dom.contains("class=\"match\""), "no match row:\n{dom}");
    assert!(
        !dom.contains("Unrelated Document"),
        "an unrelated document is listed"
    );
}

/// The line numbers the page marks as in passage 0 on side `side` (`a`,
/// the upload; `b`, the archived unit).
fn passage_lines(dom: &str, side: &str) -> Vec<u32> {
    let start = dom
        .find(&format!("id=\"side-{side}\""))
        .unwrap_or_else(|| panic!("no side {side}:\n{dom}"));
    let end = dom[start + 1..]
        .find("id=\"side-")
        .map_or(dom.len(), |next| start + 1 + next);
    let number =
        Regex::new(r#"<span class="ln in-passage f0" data-passage="0">(\d+)</span>"#).unwrap();
    number
        .captures_iter(&dom[start..end])
        .map(|found| found[1].parse().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_archive_page_uploads_code_and_draws_the_match_side_by_side() {
    let Some(chromium) = chromium_or_skip() else {
        return;
    };
    let server = archive_server();
    let copy = renamed_sorter();
    // A file name that would be markup if it were not written as text.
    let name = "<img src=x onerror=alert(1)>Ordering.java";
    let (_, answer) = check(&server.app, name, copy.as_bytes()).await;
    let passage = &answer["matches"][0]["passages"][0];
    let range = |side: &str| {
        let lines = &passage[side]["lines"];
        let [first, last] = [0, 1].map(|i| u32::try_from(lines[i].as_u64().unwrap()).unwrap());
        (first..=last).collect::<Vec<u32>>()
    };

    let query = format!("?name={}&code={}&show=1", encoded(name), encoded(&copy));
    let dom = page_dom(&server.app, chromium, &query).await;

    assert!(
        dom.contains("data-shown-match=\"1\""),
        "no match opened:\n{dom}"
    );
    assert!(
        dom.contains("class=\"match chosen\""),
        "no match listed:\n{dom}"
    );
    assert!(dom.contains(">Sorter.java<"), "{dom}");
    assert!(
        dom.contains("&lt;img src=x onerror=alert(1)&gt;Ordering.java"),
        "{dom}"
    );
    assert!(!dom.contains("<img"), "the file name became markup:\n{dom}");
    assert!(
        dom.contains("<mark class=\"f0"),
        "no passage marked:\n{dom}"
    );
    assert_eq!(passage_lines(&dom, "a"), range("query"), "{passage}");
    assert_eq!(passage_lines(&dom, "b"), range("archived"), "{passage}");
}
