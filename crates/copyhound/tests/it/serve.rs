//! `copyhound serve`: refuses what is not a database before listening.

use predicates::str::contains;

use crate::support::{copyhound, temp_dir};

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
