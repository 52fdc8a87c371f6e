//! `copyhound fingerprint` and `copyhound experiment` from the outside.

use predicates::prelude::*;
use serde_json::Value;

use crate::support::{copyhound, temp_dir, write};

const PROSE: &str =
    "A do run run run, a do run run.\nThe winnowing guarantee: every shared run is found!\n";

#[test]
fn json_lines_map_every_fingerprint_back_to_its_bytes() {
    let dir = temp_dir();
    let a = write(dir.path(), "a.txt", PROSE.as_bytes());
    let b = write(dir.path(), "b.txt", b"Another file, another line.\n");
    let output = copyhound()
        .args(["fingerprint", "--format", "json", "-k", "5", "-w", "4"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "one JSON object per file and line");
    let first: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(first["path"], a.display().to_string());
    let normalised: String = PROSE.chars().filter(|c| c.is_alphanumeric()).collect();
    assert_eq!(first["symbols"], normalised.len());
    let fingerprints = first["fingerprints"].as_array().unwrap();
    assert!(!fingerprints.is_empty());
    let mut previous_pos = None;
    for f in fingerprints {
        let (start, end) = (
            f["start"].as_u64().unwrap() as usize,
            f["end"].as_u64().unwrap() as usize,
        );
        let pos = f["pos"].as_u64().unwrap();
        // The byte range holds exactly the k-gram: k letters, starting and
        // ending on one.
        let kgram: String = PROSE[start..end]
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect();
        assert_eq!(
            kgram.len(),
            5,
            "bytes {start}..{end} = {:?}",
            &PROSE[start..end]
        );
        assert_eq!(
            kgram.to_lowercase(),
            normalised.to_lowercase()[pos as usize..pos as usize + 5]
        );
        assert!(previous_pos < Some(pos), "positions increase");
        previous_pos = Some(pos);
        // Every window of w = 4 k-grams holds a fingerprint.
    }
    let positions: Vec<u64> = fingerprints
        .iter()
        .map(|f| f["pos"].as_u64().unwrap())
        .collect();
    assert!(positions.windows(2).all(|p| p[1] - p[0] <= 4));
    assert!(positions[0] < 4);
}

#[test]
fn the_text_listing_is_stable() {
    let dir = temp_dir();
    let a = write(dir.path(), "adorun.txt", b"adorunrunrunadorunrun\n");
    let output = copyhound()
        .current_dir(dir.path())
        .args(["fingerprint", "-k", "5", "-w", "4", "adorun.txt"])
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(a.exists());
    insta::assert_snapshot!(String::from_utf8(output.stdout).unwrap());
}

#[test]
fn full_fingerprinting_keeps_every_kgram() {
    let dir = temp_dir();
    let a = write(dir.path(), "a.txt", PROSE.as_bytes());
    let output = copyhound()
        .args([
            "fingerprint",
            "--format",
            "json",
            "--selector",
            "all",
            "-k",
            "7",
        ])
        .arg(&a)
        .output()
        .unwrap();
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    let symbols = value["symbols"].as_u64().unwrap();
    assert_eq!(
        value["fingerprints"].as_array().unwrap().len() as u64,
        symbols - 7 + 1
    );
}

#[test]
fn every_selector_runs() {
    let dir = temp_dir();
    let text = (0..400)
        .map(|i| format!("sentence number {i} of a longer text. "))
        .collect::<Vec<_>>()
        .concat();
    let a = write(dir.path(), "a.txt", text.as_bytes());
    for selector in [
        "winnow",
        "robust-winnow",
        "mod-p",
        "safe-mod-p",
        "all",
        "smallest",
        "koala",
        "sketch",
    ] {
        let output = copyhound()
            .args(["fingerprint", "--format", "json", "--selector", selector])
            .arg(&a)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{selector}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let value: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert!(
            !value["fingerprints"].as_array().unwrap().is_empty(),
            "{selector} selected nothing"
        );
    }
}

#[test]
fn a_bad_file_is_named_and_the_others_still_run() {
    let dir = temp_dir();
    let good = write(dir.path(), "good.txt", PROSE.as_bytes());
    let binary = write(
        dir.path(),
        "blob.bin",
        [0u8, 159, 146, 150, 0, 1, 2, 3, 0, 0, 7],
    );
    let missing = dir.path().join("missing.txt");
    copyhound()
        .args(["fingerprint"])
        .arg(&missing)
        .arg(&binary)
        .arg(&good)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("good.txt"))
        .stderr(predicate::str::contains("missing.txt"))
        .stderr(predicate::str::contains("blob.bin"));
}

#[test]
fn an_unknown_language_is_refused_with_the_known_ones() {
    let dir = temp_dir();
    let good = write(dir.path(), "good.txt", PROSE.as_bytes());
    copyhound()
        .args(["fingerprint", "--lang", "klingon"])
        .arg(&good)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("unknown language \"klingon\"")
                .and(predicate::str::contains("python")),
        );
}

#[test]
fn the_density_experiment_prints_the_papers_figures() {
    let output = copyhound()
        .args(["experiment", "density", "--size-mib", "1"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let density = |label: &str| -> f64 {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no row {label}:\n{stdout}"));
        line[label.len()..]
            .split_whitespace()
            .nth(1)
            .unwrap()
            .parse()
            .unwrap()
    };
    let expected = 2.0 / 101.0;
    assert!(
        (density("winnow ") - expected).abs() / expected < 0.05,
        "{stdout}"
    );
    assert!(
        (density("robust-winnow ") - expected).abs() / expected < 0.05,
        "{stdout}"
    );
    assert!(stdout.contains("0.019902"), "the paper's figure is shown");
    let zeros = stdout.lines().find(|l| l.starts_with("\"000")).unwrap();
    let cols: Vec<f64> = zeros
        .split_whitespace()
        .skip(1)
        .map(|c| c.parse().unwrap())
        .collect();
    assert!(cols[0] > 0.99 && cols[1] < 0.011, "{zeros}");
}
