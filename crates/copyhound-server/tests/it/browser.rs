//! The web page in headless Chromium: a page opened at `/?text=…` searches
//! that text and shows the matching document.
//!
//! Skips (with a message) when no Chromium is installed, unless
//! `COPYHOUND_REQUIRE_CHROMIUM=1`.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_searches_a_shared_text_and_shows_the_match() {
    let Some(chromium) = chromium() else {
        assert!(
            std::env::var("COPYHOUND_REQUIRE_CHROMIUM").as_deref() != Ok("1"),
            "COPYHOUND_REQUIRE_CHROMIUM=1 but no chromium on PATH"
        );
        eprintln!("skipped: no chromium on PATH (apt-get install chromium to run this test)");
        return;
    };
    let server = server();
    let text = synthetic_text(77, 200);
    add(&server.app, "Shared Title From The Browser Test", &text).await;
    add(&server.app, "Unrelated Document", &synthetic_text(78, 200)).await;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(copyhound_server::serve(
        listener,
        server.app.clone(),
        copyhound_server::Limits::default(),
        async {
            stopped.await.ok();
        },
    ));

    let query: String = text[..600]
        .bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    let url = format!("http://{address}/?text={query}");
    let dom = tokio::task::spawn_blocking(move || dump_dom(&chromium, &url))
        .await
        .unwrap();
    stop.send(()).ok();
    serving.await.unwrap().unwrap();

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
