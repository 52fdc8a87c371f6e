//! The harness of the command-line tests: the built binary, run on files
//! written to a temporary folder.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::thread;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use tempfile::TempDir;

/// `copyhound` as built for these tests.
pub fn copyhound() -> Command {
    Command::cargo_bin("copyhound").expect("the copyhound binary is built")
}

/// Where the built binary is, for tests that start it as a child process
/// (to read its output as it comes, or to kill it).
pub fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("copyhound")
}

/// A temporary folder for a test's inputs and outputs, removed when the
/// test ends.
pub fn temp_dir() -> TempDir {
    TempDir::new().expect("a temporary folder")
}

/// Writes `contents` to `name` under `dir`, making the folders it needs;
/// returns its path.
pub fn write(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    fs::create_dir_all(path.parent().expect("a file in a folder")).expect("make the folders");
    fs::write(&path, contents).expect("write the file");
    path
}

/// `chromium` on the `PATH`, for a browser test: `None`, and the test
/// skips with a message, when it is not installed, unless
/// `COPYHOUND_REQUIRE_CHROMIUM=1` is set (CI), where that is a failure.
pub fn browser() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("chromium"))
            .find(|candidate| candidate.is_file())
    });
    if found.is_none() {
        assert!(
            std::env::var("COPYHOUND_REQUIRE_CHROMIUM").as_deref() != Ok("1"),
            "chromium is not installed but COPYHOUND_REQUIRE_CHROMIUM=1 (apt-get install chromium)"
        );
        eprintln!("skipped: chromium is not installed (apt-get install chromium to run this test)");
    }
    found
}

/// The DOM of `url` after its scripts ran, as headless Chromium prints it.
pub fn rendered_dom(browser: &Path, url: &str, profile: &Path) -> String {
    let mut child = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let mut stdout = child.stdout.take().unwrap();
    let reader = thread::spawn(move || {
        let mut dom = String::new();
        stdout.read_to_string(&mut dom).map(|_| dom)
    });
    // A hung browser must fail the test, not stall the suite.
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("chromium did not finish rendering {url}");
        }
        thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "chromium failed on {url}: {status}");
    reader.join().unwrap().expect("chromium's output is UTF-8")
}

/// The example batch of the README: `submissions`, `base`, `previous`.
pub fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/compare")
}
