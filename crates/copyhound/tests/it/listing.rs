//! `copyhound compare --max-pairs` and `--min-similarity`: which pairs are
//! listed when not all can be or should be, and what is said about the
//! rest.

use std::fs;
use std::path::Path;

use crate::support::{copyhound, temp_dir, write};

const WORDS: [&str; 24] = [
    "river", "engine", "bird", "bread", "valley", "piston", "star", "yeast", "plain", "crank",
    "ocean", "sugar", "soil", "steam", "nest", "gluten", "stone", "water", "field", "heat",
    "mountain", "sun", "coal", "flour",
];

/// `count` words chosen by a generator seeded with `seed`.
fn words(count: usize, seed: u64) -> String {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        out.push(WORDS[(state % WORDS.len() as u64) as usize]);
    }
    out.join(" ")
}

/// The `(a, b)` of each row of a CSV report.
fn csv_pairs(path: &Path) -> Vec<(String, String)> {
    let text = fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            (cells[0].into(), cells[1].into())
        })
        .collect()
}

#[test]
fn short_copies_are_listed_above_long_texts_sharing_a_template() {
    let dir = temp_dir();
    let batch = dir.path().join("batch");
    // Twenty long texts share a template of 300 words, each with 200 of
    // its own: 190 pairs sharing far more fingerprints than any copy (and
    // the few words make most other pairs share a little).
    let template = words(300, 1);
    for i in 0..20 {
        let text = format!("{template} {}", words(200, 100 + i));
        write(&batch, &format!("long{i:02}.txt"), text);
    }
    // Six short texts, each copied once.
    for i in 0..6 {
        let text = words(30, 1000 + i);
        for side in ["a", "b"] {
            write(&batch, &format!("short{i}{side}.txt"), &text);
        }
    }
    let csv = dir.path().join("pairs.csv");
    let output = copyhound()
        .args(["compare", "--max-pairs", "6", "--top", "0", "--csv"])
        .arg(&csv)
        .arg(&batch)
        .output()
        .unwrap();
    assert!(output.status.success());
    let expected: Vec<(String, String)> = (0..6)
        .map(|i| (format!("short{i}a.txt"), format!("short{i}b.txt")))
        .collect();
    assert_eq!(csv_pairs(&csv), expected);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("text: listed the 6 most similar pairs, down to 100.0%; ")
            && stderr.contains(" other pairs found are not listed (--max-pairs)"),
        "{stderr}"
    );
    assert!(!stderr.contains("warning"), "{stderr}");
}

/// `--min-similarity` (a fraction or a percentage) lists only the pairs at
/// or above it in the table, the JSON, the CSV and the HTML page, and the
/// summaries count the pairs below it; a value out of range is refused.
#[test]
fn min_similarity_lists_only_pairs_at_or_above_it_everywhere() {
    let dir = temp_dir();
    let batch = dir.path().join("batch");
    let shared = words(200, 7);
    // a and b: copies; c: half of it; d: its own words only.
    write(&batch, "a.txt", &shared);
    write(&batch, "b.txt", &shared);
    let half: Vec<&str> = shared.split(' ').take(100).collect();
    write(
        &batch,
        "c.txt",
        format!("{} {}", half.join(" "), words(100, 8)),
    );
    write(&batch, "d.txt", words(200, 9));
    // `--threshold` is the name MOSS and JPlag users look for.
    let run = |flag: &str, threshold: &str| {
        let (csv, json, html) = (
            dir.path().join("r.csv"),
            dir.path().join("r.json"),
            dir.path().join("r.html"),
        );
        let output = copyhound()
            .args(["compare", "-q", flag, threshold, "--csv"])
            .arg(&csv)
            .arg("--json")
            .arg(&json)
            .arg("--report")
            .arg(&html)
            .arg(&batch)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let report: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        (
            csv_pairs(&csv),
            report,
            stdout,
            fs::read_to_string(&html).unwrap(),
        )
    };
    let (all, report, _, _) = run("--min-similarity", "0");
    assert!(all.len() >= 3, "{all:?}");
    assert!(report["summary"].get("below_minimum").is_none());
    for (flag, threshold) in [
        ("--min-similarity", "0.9"),
        ("--min-similarity", "90%"),
        ("--threshold", "0.9"),
    ] {
        let (listed, report, table, page) = run(flag, threshold);
        assert_eq!(
            listed,
            [("a.txt".to_string(), "b.txt".to_string())],
            "{threshold}"
        );
        assert_eq!(report["pairs"].as_array().unwrap().len(), 1);
        let below = &report["summary"]["below_minimum"];
        assert_eq!(below["min_similarity"], 0.9);
        assert_eq!(below["pairs"].as_u64().unwrap() as usize, all.len() - 1);
        assert!(
            table.contains(&format!(
                "; {} pairs below the minimum similarity of 90.0% not listed.",
                all.len() - 1
            )),
            "{table}"
        );
        assert!(
            table.lines().filter(|l| l.contains(".txt")).count() == 1,
            "{table}"
        );
        assert!(
            page.contains("\"below_minimum\""),
            "the page says how many were below"
        );
    }
    for bad in ["1.5", "150%", "-0.1", "ninety"] {
        copyhound()
            .args(["compare", &format!("--min-similarity={bad}")])
            .arg(&batch)
            .assert()
            .failure()
            .stderr(predicates::str::contains(
                "expected a fraction from 0 to 1 (0.3) or a percentage (30%)",
            ));
    }
}
