//! `copyhound compare` on obfuscated copies: dead statements and counted
//! loops rewritten as `while` loops hide nothing by default, and the
//! options that turn the statement normalisation off or on reach it.

use std::fs;
use std::path::Path;

use crate::support::{copyhound, temp_dir, write};

const ORIGINAL: &str = "class Sum {
    static int sum(int[] values, int limit) {
        int total = 0;
        for (int i = 0; i < values.length; i++) {
            if (values[i] > limit) {
                total += values[i] * 2;
            } else {
                total -= values[i];
            }
        }
        System.out.println(total);
        return total;
    }
}
";

/// The original with an unused local, increments of it, and its `for`
/// loop written as the `while` loop it equals.
const OBFUSCATED: &str = "class Sum {
    static int sum(int[] values, int limit) {
        int total = 0;
        int unused = 7;
        int i = 0;
        while (i < values.length) {
            unused++;
            if (values[i] > limit) {
                total += values[i] * 2;
            } else {
                total -= values[i];
            }
            i++;
        }
        unused = unused * 3;
        System.out.println(total);
        return total;
    }
}
";

const UNRELATED: &str = "class Words {
    static String longest(String[] words) {
        String best = \"\";
        for (String word : words) {
            if (word.length() > best.length()) {
                best = word;
            }
        }
        return best.toUpperCase();
    }
}
";

/// The similarity of the original and its obfuscated copy with `args`.
fn copy_similarity(dir: &Path, args: &[&str]) -> f64 {
    let input = dir.join("in");
    write(&input, "original.java", ORIGINAL);
    write(&input, "obfuscated.java", OBFUSCATED);
    write(&input, "unrelated.java", UNRELATED);
    let csv = dir.join("out.csv");
    copyhound()
        .args(["compare", "-q"])
        .arg(&input)
        .args(args)
        .arg("--csv")
        .arg(&csv)
        .assert()
        .success();
    let text = fs::read_to_string(&csv).unwrap();
    text.lines()
        .skip(1)
        .map(|line| line.split(',').collect::<Vec<_>>())
        .find(|cells| {
            let pair = [cells[0], cells[1]];
            pair.contains(&"original.java") && pair.contains(&"obfuscated.java")
        })
        .map_or(0.0, |cells| cells[2].parse().unwrap())
}

#[test]
fn dead_code_and_rewritten_loops_hide_nothing_by_default() {
    let dir = temp_dir();
    let normalised = copy_similarity(dir.path(), &[]);
    assert!(
        (normalised - 1.0).abs() < 1e-9,
        "the copy reads as the original: {normalised}"
    );
    let as_written = copy_similarity(dir.path(), &["--dead-code", "keep", "--loops", "written"]);
    assert!(as_written < 0.9, "as written: {as_written}");
    let dead_kept = copy_similarity(dir.path(), &["--dead-code", "keep"]);
    let loops_written = copy_similarity(dir.path(), &["--loops", "written"]);
    assert!(dead_kept < normalised && loops_written < normalised);
    let reordered = copy_similarity(dir.path(), &["--statement-order", "canonical"]);
    assert!((reordered - 1.0).abs() < 1e-9, "{reordered}");
}

#[test]
fn score_gap_counts_the_gaps_between_fragments() {
    let dir = temp_dir();
    let flags = ["--dead-code", "keep", "--loops", "written"];
    let exact = copy_similarity(dir.path(), &flags);
    let joined = copy_similarity(dir.path(), &[&flags[..], &["--score-gap", "20"]].concat());
    assert!(joined > exact, "{joined} > {exact}");
}

/// The JSON report says how code was read, so a reader can tell which
/// statement passes a similarity was measured with.
#[test]
fn the_report_states_how_code_was_read() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    write(&input, "original.java", ORIGINAL);
    write(&input, "obfuscated.java", OBFUSCATED);
    let code_parameters = |args: &[&str]| {
        let json = dir.path().join("out.json");
        copyhound()
            .args(["compare", "-q"])
            .arg(&input)
            .args(args)
            .arg("--json")
            .arg(&json)
            .assert()
            .success();
        let report: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
        (
            report["parameters"]["code"].clone(),
            report["parameters"]["score_gap"].clone(),
        )
    };
    let (code, gap) = code_parameters(&[]);
    assert_eq!(
        code,
        serde_json::json!({"level": "rename", "drop_imports": false, "drop_dead_code": true,
            "while_loops": true, "canonical_order": false})
    );
    assert_eq!(gap, 0);
    let (code, gap) = code_parameters(&[
        "--dead-code",
        "keep",
        "--loops",
        "written",
        "--statement-order",
        "canonical",
        "--score-gap",
        "4",
    ]);
    assert_eq!(
        code,
        serde_json::json!({"level": "rename", "drop_imports": false, "drop_dead_code": false,
            "while_loops": false, "canonical_order": true})
    );
    assert_eq!(gap, 4);
}
