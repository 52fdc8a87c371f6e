//! What `compare` does with hostile or unusual input: what it could not
//! read or check is listed in every output (also with `-q`), the walk
//! survives link loops and folders it cannot list, and the exit status
//! tells a script whether something could not be read.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

use crate::support::{copyhound, temp_dir, write};

const RIVERS: &str = "Rivers carve valleys over thousands of years, carrying sediment from \
    the mountains down to the plains where it settles into fertile soil for farming.";
const PYTHON: &str = "def mean(values):\n    total = 0\n    for value in values:\n        total += value\n    return total / len(values)\n";

/// `copyhound compare -q`.
fn compare() -> Command {
    let mut command = copyhound();
    command.arg("compare").arg("-q");
    command
}

fn json_report(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// The `(kind, message)` of each problem of a JSON report.
fn problems(report: &serde_json::Value) -> Vec<(String, String)> {
    report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let text = |field: &str| p[field].as_str().unwrap().to_string();
            (text("kind"), text("message"))
        })
        .collect()
}

/// A Java file of comments only gives no tokens, and a two-line Python
/// unit is too short to check: both are listed in the JSON, on the HTML
/// page and on stderr even with `-q`, and leave the exit status 0.
#[test]
fn a_unit_with_no_tokens_and_one_too_short_are_listed_everywhere() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    write(&input, "a.py", PYTHON);
    write(&input, "b.py", PYTHON);
    write(&input, "short.py", "x = 1\n");
    write(&input, "Empty.java", "// nothing yet\n");
    write(&input, "Other.java", "/* nothing either */\n");
    let (json, html) = (dir.path().join("r.json"), dir.path().join("r.html"));
    let assert = compare()
        .arg(&input)
        .arg("--json")
        .arg(&json)
        .arg("--report")
        .arg(&html)
        .assert()
        .code(0);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    let problems = problems(&json_report(&json));
    let kinds: Vec<&str> = problems.iter().map(|(kind, _)| kind.as_str()).collect();
    assert_eq!(kinds, ["empty", "empty", "too_short"], "{problems:?}");
    assert!(problems[0].1.contains("Empty.java"), "{problems:?}");
    assert!(
        problems[2]
            .1
            .contains("short.py: too short to check: 3 tokens"),
        "{problems:?}"
    );
    let page = fs::read_to_string(&html).unwrap();
    for (_, message) in &problems {
        assert!(stderr.contains(message.as_str()), "{stderr}");
        assert!(page.contains(message.as_str()), "{message}");
    }
}

/// Two links back to the folder: the walk ends, each real file is read
/// once, and each link is listed; with `--follow-links` too.
#[cfg(unix)]
#[test]
fn link_loops_end_with_each_file_compared_once() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    write(&input, "a.txt", RIVERS);
    write(&input, "b.txt", RIVERS);
    std::os::unix::fs::symlink(".", input.join("l1")).unwrap();
    std::os::unix::fs::symlink(".", input.join("l2")).unwrap();
    for follow in [&[][..], &["--follow-links"][..]] {
        let json = dir.path().join("r.json");
        compare()
            .arg(&input)
            .args(follow)
            .arg("--json")
            .arg(&json)
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(0);
        let report = json_report(&json);
        assert_eq!(report["units"].as_array().unwrap().len(), 2, "{follow:?}");
        let problems = problems(&report);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems.iter().all(|(kind, _)| kind == "skipped"));
    }
}

/// A folder no one can list (its path is longer than the system lets
/// anyone name; `chmod 000` would not stop root) is listed, the rest is
/// compared and reported, and the exit status is 1.
#[cfg(unix)]
#[test]
fn a_folder_that_cannot_be_listed_is_a_problem_and_the_rest_is_compared() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    write(&input, "a.txt", RIVERS);
    write(&input, "b.txt", RIVERS);
    let level = "d".repeat(200);
    fs::create_dir_all(input.join("deep")).unwrap();
    let made = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "for i in $(seq 24); do mkdir {level} && cd -P {level} || exit 1; done; echo text > deep.txt"
        ))
        .current_dir(input.join("deep"))
        .status()
        .unwrap();
    assert!(made.success());
    let json = dir.path().join("r.json");
    compare()
        .arg(&input)
        .args(["--unit", "file", "--json"])
        .arg(&json)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("a.txt"))
        .stderr(predicate::str::contains("cannot read"));
    let problems = problems(&json_report(&json));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].0, "unreadable");
}

/// 0: every input was read; 1: a file could not be read, and the rest
/// was compared; 2: nothing usable remained.
#[test]
fn the_exit_status_says_whether_something_could_not_be_read() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    write(&input, "a.txt", RIVERS);
    write(&input, "b.txt", RIVERS);
    write(&input, "empty.txt", "");
    compare().arg(&input).assert().code(0);
    write(&input, "c.txt", [0u8, 159, 146, 150, 0, 0, 1, 2, 0, 0]);
    compare()
        .arg(&input)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("a.txt"));
    let alone = dir.path().join("alone");
    write(&alone, "a.txt", RIVERS);
    write(&alone, "c.txt", [0u8, 159, 146, 150, 0, 0, 1, 2, 0, 0]);
    compare().arg(&alone).assert().code(2).stderr(
        predicate::str::contains("c.txt").and(predicate::str::contains("nothing to compare")),
    );
}

/// `--json -` and `--csv -` write the report to standard output, which
/// carries only it; the table goes to stderr.
#[test]
fn a_report_named_dash_goes_to_standard_output_alone() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    write(&input, "a.txt", RIVERS);
    write(&input, "b.txt", RIVERS);
    let output = compare()
        .current_dir(dir.path())
        .arg(&input)
        .args(["--json", "-"])
        .assert()
        .code(0)
        .stderr(predicate::str::contains("similarity"))
        .get_output()
        .stdout
        .clone();
    let report: serde_json::Value = serde_json::from_slice(&output).unwrap();
    assert_eq!(report["pairs"].as_array().unwrap().len(), 1);
    let output = compare()
        .current_dir(dir.path())
        .arg(&input)
        .args(["--csv", "-"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let csv = String::from_utf8(output).unwrap();
    assert!(csv.starts_with("a,b,similarity,"), "{csv}");
    assert_eq!(csv.lines().count(), 2, "{csv}");
    assert!(!dir.path().join("-").exists());
    compare()
        .arg(&input)
        .args(["--csv", "-", "--json", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("standard output"));
}
