//! The harness of the command-line tests: the built binary, run on files
//! written to a temporary folder.

use std::fs;
use std::path::{Path, PathBuf};

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

/// `chromium` on the `PATH`, if any: the browser tests skip without it.
pub fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("chromium"))
        .find(|candidate| candidate.is_file())
}

/// The example batch of the README: `submissions`, `base`, `previous`.
pub fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/compare")
}
