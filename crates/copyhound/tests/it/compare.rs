//! `copyhound compare` end to end: each option on a small batch written to
//! a temporary directory, and the example batch under `examples/compare`.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use tempfile::TempDir;

use crate::support::{copyhound, examples, temp_dir, write};

const COMMON: &str = "Please write your name and student number at the top of every page, \
    and remember that late submissions lose ten percent of the marks for each day.";
const RIVERS: &str = "Rivers carve valleys over thousands of years, carrying sediment from \
    the mountains down to the plains where it settles into fertile soil for farming.";
const ENGINES: &str = "A steam engine turns the heat of burning coal into motion: water boils, \
    the pressure pushes a piston, and a crank converts that push into rotation.";
const BIRDS: &str = "Migrating birds navigate by the stars, the sun and the magnetic field of \
    the earth, and many return to the very same nest after flying across oceans.";
const BREAD: &str = "Bread rises because yeast feeds on sugar and releases carbon dioxide, \
    whose bubbles are trapped by the stretchy gluten network formed while kneading.";

/// Bytes no front-end reads as text.
const BINARY: [u8; 10] = [0, 159, 146, 150, 0, 0, 1, 2, 0, 0];

/// `copyhound compare -q`.
fn compare() -> Command {
    let mut command = copyhound();
    command.arg("compare").arg("-q");
    command
}

/// The `(a, b, similarity)` rows of a CSV report.
fn csv_rows(path: &Path) -> Vec<(String, String, f64)> {
    let text = fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("a,b,similarity,"));
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            (cells[0].into(), cells[1].into(), cells[2].parse().unwrap())
        })
        .collect()
}

/// A JSON report, parsed.
fn json_report(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// Runs compare with `args` and returns its JSON report.
fn compare_json(dir: &TempDir, args: &[&str]) -> serde_json::Value {
    let json = dir.path().join("report.json");
    compare()
        .args(args)
        .arg("--json")
        .arg(&json)
        .assert()
        .success();
    json_report(&json)
}

/// Runs compare with `args` on `paths` and returns the CSV rows.
fn compare_csv(dir: &TempDir, args: &[&str]) -> Vec<(String, String, f64)> {
    let csv = dir.path().join("out.csv");
    compare()
        .args(args)
        .arg("--csv")
        .arg(&csv)
        .assert()
        .success();
    csv_rows(&csv)
}

fn pair_set(rows: &[(String, String, f64)]) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = rows
        .iter()
        .map(|(a, b, _)| (a.clone(), b.clone()))
        .collect();
    pairs.sort();
    pairs
}

#[test]
fn renamed_and_reordered_copies_rank_first() {
    let out = temp_dir();
    let root = examples();
    let rows = compare_csv(
        &out,
        &[
            root.join("submissions").to_str().unwrap(),
            "--base",
            root.join("base").to_str().unwrap(),
        ],
    );
    let top: Vec<(String, String)> = rows[..2]
        .iter()
        .map(|(a, b, _)| (a.clone(), b.clone()))
        .collect();
    assert!(top.contains(&("anna".into(), "chloe".into())), "{rows:?}");
    assert!(top.contains(&("ben".into(), "emma".into())), "{rows:?}");
    assert!(rows[1].2 > 0.6, "{rows:?}");
    for (a, b, similarity) in &rows[2..] {
        assert!(
            *similarity < rows[1].2 / 2.0,
            "{a} and {b} wrote their own: {rows:?}"
        );
    }
}

#[test]
fn template_only_overlap_is_zero_with_base_code() {
    let out = temp_dir();
    let submissions = examples().join("submissions");
    let submissions = submissions.to_str().unwrap();
    // At the default k = 10 gina also shares 11–12-token idioms (a file
    // loop, a docstring line) with other students; runs of 15 are template.
    let without = compare_csv(&out, &[submissions, "--min-fragment", "15"]);
    assert!(without.iter().any(|(a, b, _)| a == "gina" || b == "gina"));
    let base = examples().join("base");
    let with = compare_csv(
        &out,
        &[
            submissions,
            "--min-fragment",
            "15",
            "--base",
            base.to_str().unwrap(),
        ],
    );
    assert!(
        with.iter().all(|(a, b, _)| a != "gina" && b != "gina"),
        "gina shares only the template: {with:?}"
    );
}

#[test]
fn an_earlier_submission_is_found() {
    let out = temp_dir();
    let root = examples();
    let rows = compare_csv(
        &out,
        &[
            root.join("submissions").to_str().unwrap(),
            "--old",
            root.join("previous").to_str().unwrap(),
            "--base",
            root.join("base").to_str().unwrap(),
        ],
    );
    let farid = rows
        .iter()
        .find(|(a, b, _)| a == "2024-ivan" && b == "farid");
    assert!(farid.is_some_and(|r| r.2 > 0.5), "{rows:?}");
}

#[test]
fn identical_units_score_exactly_one_hundred_percent() {
    let dir = temp_dir();
    let text = format!("{RIVERS}\n{ENGINES}\n");
    write(dir.path(), "a.txt", &text);
    write(dir.path(), "b.txt", &text);
    write(dir.path(), "c.txt", BIRDS);
    let rows = compare_csv(&dir, &[dir.path().to_str().unwrap(), "--exclude", "*.csv"]);
    assert_eq!(rows, vec![("a.txt".into(), "b.txt".into(), 1.0)]);
    compare()
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("100.0%"));
}

/// Three texts under `dir`/in that each start with the common paragraph.
/// Compared with `--selector all`, every k-gram is a fingerprint, so each
/// k-gram of the common text is one in all three units, whatever the
/// winnowing windows around it would choose.
fn three_texts_with_common(dir: &TempDir) -> PathBuf {
    let input = dir.path().join("in");
    for (name, own) in [("a.txt", RIVERS), ("b.txt", ENGINES), ("c.txt", BIRDS)] {
        write(&input, name, format!("{COMMON}\n{own}\n"));
    }
    input
}

#[test]
fn fingerprints_in_every_unit_are_ignored_with_max_occurrences() {
    let dir = temp_dir();
    let input = three_texts_with_common(&dir);
    let input = input.to_str().unwrap();
    let all = ["--selector", "all"];
    assert_eq!(compare_csv(&dir, &[&all[..], &[input]].concat()).len(), 3);
    assert!(compare_csv(&dir, &[&all[..], &[input, "-m", "2"]].concat()).is_empty());
    assert!(
        compare_csv(
            &dir,
            &[&all[..], &[input, "--max-occurrences", "0.67"]].concat()
        )
        .is_empty()
    );
    assert_eq!(
        compare_csv(&dir, &[&all[..], &[input, "-m", "100%"]].concat()).len(),
        3
    );
}

#[test]
fn text_every_unit_shares_weighs_little_unless_weighting_is_flat() {
    let dir = temp_dir();
    let input = three_texts_with_common(&dir);
    let input = input.to_str().unwrap();
    let all = ["--selector", "all"];
    let flat = compare_csv(&dir, &[&all[..], &[input, "--weighting", "flat"]].concat());
    let rarity = compare_csv(&dir, &[&all[..], &[input]].concat());
    assert_eq!(
        pair_set(&flat),
        pair_set(&rarity),
        "the same pairs share text"
    );
    for ((_, _, flat), (_, _, rare)) in flat.iter().zip(&rarity) {
        assert!(*flat > 0.2, "flat: the common paragraph counts ({flat})");
        assert!(
            *rare < flat / 5.0,
            "rarity: it barely counts ({rare} vs {flat})"
        );
    }
}

#[test]
fn runs_shorter_than_min_fragment_are_neither_reported_nor_scored() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    // The two share one 31-character phrase (26 letters and digits once
    // normalised) inside otherwise different text.
    let phrase = "the quick brown fox jumps over";
    write(&input, "a.txt", format!("{RIVERS} {phrase} {ENGINES}"));
    write(&input, "b.txt", format!("{BIRDS} {phrase} {COMMON}"));
    let input = input.to_str().unwrap();
    let run =
        |min: &str| compare_json(&dir, &[input, "-k", "15", "-w", "1", "--min-fragment", min]);
    let kept = run("20");
    assert_eq!(kept["parameters"]["min_fragment"], 20);
    assert_eq!(kept["pairs"].as_array().unwrap().len(), 1);
    for fragment in kept["pairs"][0]["fragments"].as_array().unwrap() {
        let bytes = fragment["a"]["bytes"].as_array().unwrap();
        let len = bytes[1].as_u64().unwrap() - bytes[0].as_u64().unwrap();
        assert!(len >= 20, "a fragment of {len} bytes");
    }
    let dropped = run("60");
    assert_eq!(dropped["parameters"]["min_fragment"], 60);
    assert!(dropped["pairs"].as_array().unwrap().is_empty());
    // Below k, k is the floor.
    assert_eq!(run("3")["parameters"]["min_fragment"], 15);
}

#[test]
fn fragments_split_by_a_small_change_are_one_passage() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    // One copied stretch with one word changed in the middle: two exact
    // fragments a few characters apart on both sides.
    let (before, after) = (
        "the quick brown fox jumps over",
        "the lazy dog by the river bank",
    );
    write(
        &input,
        "a.txt",
        format!("{RIVERS} {before} red {after} {ENGINES}"),
    );
    write(
        &input,
        "b.txt",
        format!("{BIRDS} {before} blue {after} {COMMON}"),
    );
    let input = input.to_str().unwrap();
    let run = |extra: &[&str]| {
        let base = [input, "-k", "15", "-w", "1", "--min-passage", "0"];
        compare_json(&dir, &[&base[..], extra].concat())["pairs"][0].clone()
    };
    let merged = run(&[]);
    assert_eq!(merged["fragments"].as_array().unwrap().len(), 2);
    let passages = merged["passages"].as_array().unwrap();
    assert_eq!(passages.len(), 1);
    assert_eq!(passages[0]["fragments"], serde_json::json!([0, 2]));
    assert_eq!(
        passages[0]["a"]["bytes"][0],
        merged["fragments"][0]["a"]["bytes"][0]
    );
    assert_eq!(
        passages[0]["b"]["bytes"][1],
        merged["fragments"][1]["b"]["bytes"][1]
    );
    let apart = run(&["--merge-gap", "0"]);
    assert_eq!(apart["passages"].as_array().unwrap().len(), 2);
    // Passages change the report, never the score.
    assert_eq!(apart["similarity"], merged["similarity"]);
}

#[test]
fn text_reports_only_passages_of_a_sentence_or_more_but_scores_every_run() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    // A copied sentence (over 100 letters) and, far from it, a shared
    // phrase of 35 letters: the text default (k = 15, w = 6) finds every
    // shared run of 20.
    let sentence = "winnowing selects the minimum hash of every window of \
                    consecutive k-gram hashes, so that any match long enough is always found \
                    by both documents";
    let phrase = "the quick brown fox jumps over the lazy dog";
    write(
        &input,
        "a.txt",
        format!("{sentence} {RIVERS} {phrase} {ENGINES}"),
    );
    write(
        &input,
        "b.txt",
        format!("{BIRDS} {sentence} {COMMON} {phrase}"),
    );
    let input = input.to_str().unwrap();
    let run = |extra: &[&str]| compare_json(&dir, &[&[input][..], extra].concat());
    let default = run(&[]);
    assert_eq!(default["parameters"]["k"], 15);
    assert_eq!(default["parameters"]["min_passage"], 100);
    let pair = &default["pairs"][0];
    assert_eq!(pair["fragments"].as_array().unwrap().len(), 2);
    let passages = pair["passages"].as_array().unwrap();
    assert_eq!(passages.len(), 1, "only the sentence: {passages:?}");
    assert!(passages[0]["matched_symbols"].as_u64().unwrap() >= 100);
    let every = run(&["--min-passage", "0"]);
    assert_eq!(every["pairs"][0]["passages"].as_array().unwrap().len(), 2);
    // What is reported never changes the score.
    assert_eq!(every["pairs"][0]["similarity"], pair["similarity"]);
}

/// Every option of the comparison reaches its settings: the report states
/// each, and what it is without the option.
#[test]
fn the_options_reach_the_reported_parameters() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    write(&input, "a.txt", format!("{RIVERS}\n{ENGINES}"));
    write(&input, "b.txt", format!("{RIVERS}\n{BIRDS}"));
    let input = input.to_str().unwrap();
    let parameters = |args: &[&str]| {
        let report = compare_json(&dir, &[&[input][..], args].concat());
        let mut parameters = report["parameters"].clone();
        parameters.as_object_mut().unwrap().remove("base");
        parameters
    };
    assert_eq!(
        parameters(&[]),
        serde_json::json!({
            "language": "text", "k": 15, "window": 6, "seed": 0,
            "selector": "robust-winnow", "max_occurrences": "unlimited",
            "min_shared": 1, "max_pairs": 100_000, "min_fragment": 15,
            "weighting": "rarity", "merge_gap": 30, "min_passage": 100,
            "symbol": "character", "score_gap": 0
        })
    );
    let chosen = [
        "--text-mode",
        "words",
        "-k",
        "4",
        "-w",
        "2",
        "--seed",
        "7",
        "--selector",
        "winnow",
        "-m",
        "3",
        "--min-shared",
        "2",
        "--max-pairs",
        "10",
        "--min-fragment",
        "5",
        "--weighting",
        "flat",
        "--merge-gap",
        "3",
        "--min-passage",
        "9",
        "--score-gap",
        "6",
    ];
    assert_eq!(
        parameters(&chosen),
        serde_json::json!({
            "language": "text", "k": 4, "window": 2, "seed": 7,
            "selector": "winnow", "max_occurrences": "3",
            "min_shared": 2, "max_pairs": 10, "min_fragment": 5,
            "weighting": "flat", "merge_gap": 3, "min_passage": 9,
            "symbol": "word", "score_gap": 6
        })
    );
}

/// The walking options reach the walk: what a unit is, and which files.
#[test]
fn the_walking_options_choose_the_units() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    write(&input, "team1/a.txt", RIVERS);
    write(&input, "team1/b.md", ENGINES);
    write(&input, "team2/c.txt", format!("{ENGINES}\n{RIVERS}"));
    write(&input, "team2/.gitignore", "*.log\n");
    write(&input, "team2/d.log", RIVERS);
    let input = input.to_str().unwrap();
    let units = |args: &[&str]| -> Vec<String> {
        let report = compare_json(&dir, &[&[input][..], args].concat());
        report["units"]
            .as_array()
            .unwrap()
            .iter()
            .map(|unit| unit["path"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(units(&[]), ["team1", "team2"]);
    assert_eq!(
        units(&["--unit", "file"]),
        ["team1/a.txt", "team1/b.md", "team2/c.txt"]
    );
    assert_eq!(
        units(&["--unit", "file", "--exclude", "*.md", "--no-ignore"]),
        ["team1/a.txt", "team2/c.txt", "team2/d.log"]
    );
    assert_eq!(
        units(&["--unit", "file", "--include", "*.txt"]),
        ["team1/a.txt", "team2/c.txt"]
    );
}

#[test]
fn old_submissions_are_never_paired_with_each_other() {
    let dir = temp_dir();
    let old = dir.path().join("old");
    let new = dir.path().join("new");
    write(&old, "x.txt", format!("{RIVERS}\n{BREAD}"));
    write(&old, "y.txt", format!("{RIVERS}\n{BREAD}"));
    write(&new, "z.txt", format!("{RIVERS}\n{ENGINES}"));
    let rows = compare_csv(
        &dir,
        &[new.to_str().unwrap(), "--old", old.to_str().unwrap()],
    );
    assert_eq!(
        pair_set(&rows),
        vec![
            ("x.txt".into(), "z.txt".into()),
            ("y.txt".into(), "z.txt".into())
        ]
    );
}

#[test]
fn units_of_one_group_are_never_paired() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    for name in ["alice_1.txt", "alice_2.txt", "bob.txt"] {
        write(&input, name, format!("{ENGINES}\n{BIRDS}"));
    }
    let rows = compare_csv(&dir, &[input.to_str().unwrap(), "--group", "^([a-z]+)_"]);
    assert_eq!(
        pair_set(&rows),
        vec![
            ("alice_1.txt".into(), "bob.txt".into()),
            ("alice_2.txt".into(), "bob.txt".into())
        ]
    );
}

#[test]
fn the_json_report_is_versioned_and_complete() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    write(&input, "a.txt", format!("{RIVERS}\n{ENGINES}\n"));
    write(&input, "b.txt", format!("{BIRDS}\n{ENGINES}\n"));
    let report = compare_json(&dir, &[input.to_str().unwrap()]);
    assert_eq!(report["schema_version"], 2);
    assert_eq!(report["parameters"]["language"], "text");
    assert_eq!(report["parameters"]["weighting"], "rarity");
    assert_eq!(report["units"].as_array().unwrap().len(), 2);
    let fragment = &report["pairs"][0]["fragments"][0];
    // The engines paragraph is line 2 of both files.
    assert_eq!(fragment["a"]["lines"], serde_json::json!([2, 2]));
    assert_eq!(fragment["b"]["lines"], serde_json::json!([2, 2]));
    let start = fragment["a"]["bytes"][0].as_u64().unwrap() as usize;
    let end = fragment["a"]["bytes"][1].as_u64().unwrap() as usize;
    assert!(ENGINES.contains(&format!("{RIVERS}\n{ENGINES}\n")[start..end]));
}

/// Runs compare, without `-q` unless given, on `input` with `args`,
/// writing JSON; returns the report and what was said on stderr.
fn compare_json_noting(dir: &TempDir, input: &Path, args: &[&str]) -> (serde_json::Value, String) {
    let json = dir.path().join("details.json");
    let output = Command::cargo_bin("copyhound")
        .unwrap()
        .arg("compare")
        .arg(input)
        .args(args)
        .arg("--json")
        .arg(&json)
        .assert()
        .success()
        .get_output()
        .clone();
    (
        json_report(&json),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// How many of a JSON report's pairs list their fragments and passages:
/// the first ones, each with both keys or neither.
fn detailed_pairs(report: &serde_json::Value) -> usize {
    let pairs = report["pairs"].as_array().unwrap();
    let has = |pair: &serde_json::Value| {
        let fragments = pair.get("fragments").is_some();
        assert_eq!(fragments, pair.get("passages").is_some(), "{pair}");
        assert!(pair["fragment_count"].as_u64().unwrap() > 0);
        fragments
    };
    let detailed = pairs.iter().take_while(|pair| has(pair)).count();
    assert!(pairs[detailed..].iter().all(|pair| !has(pair)));
    assert_eq!(report["summary"]["detailed_pairs"], detailed);
    detailed
}

/// Three texts in `dir/in`, each sharing a paragraph with each other one:
/// three pairs.
fn three_pairs(dir: &TempDir) -> PathBuf {
    let input = dir.path().join("in");
    write(&input, "a.txt", format!("{RIVERS}\n{ENGINES}\n"));
    write(&input, "b.txt", format!("{ENGINES}\n{BIRDS}\n"));
    write(&input, "c.txt", format!("{BIRDS}\n{RIVERS}\n"));
    input
}

#[test]
fn json_details_sets_how_many_pairs_list_their_fragments() {
    let dir = temp_dir();
    let input = three_pairs(&dir);
    let (all, note) = compare_json_noting(&dir, &input, &["--json-details", "all"]);
    assert_eq!(detailed_pairs(&all), 3);
    assert!(!note.contains("--json-details"), "{note}");

    let (top, note) = compare_json_noting(&dir, &input, &["--json-details", "1"]);
    assert_eq!(detailed_pairs(&top), 1);
    assert_eq!(top["pairs"][0], all["pairs"][0]);
    assert_eq!(
        top["pairs"][2]["fragment_count"],
        all["pairs"][2]["fragments"].as_array().unwrap().len()
    );
    assert_eq!(note.matches("--json-details").count(), 1, "once: {note}");
    assert!(
        note.contains("only the 1 most similar of 3 pairs"),
        "{note}"
    );
    assert!(note.contains("--json-details all"), "{note}");

    let (none, note) = compare_json_noting(&dir, &input, &["--json-details", "0"]);
    assert_eq!(detailed_pairs(&none), 0);
    assert!(note.contains("none of the 3 pairs"), "{note}");
    // The scores are the same whatever is detailed.
    let without = |report: &serde_json::Value| {
        let mut report = report.clone();
        for pair in report["pairs"].as_array_mut().unwrap() {
            let pair = pair.as_object_mut().unwrap();
            pair.remove("fragments");
            pair.remove("passages");
        }
        report["summary"]["detailed_pairs"] = 0.into();
        report
    };
    assert_eq!(without(&all), none);

    let (_, note) = compare_json_noting(&dir, &input, &["-q", "--json-details", "0"]);
    assert_eq!(note, "", "-q silences the note");
    for bad in ["-1", "some", ""] {
        compare()
            .arg(&input)
            .arg(format!("--json-details={bad}"))
            .arg("--json")
            .arg(dir.path().join("bad.json"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--json-details"));
    }
}

#[test]
fn json_details_are_of_the_thousand_most_similar_pairs_by_default() {
    // 46 units sharing one sentence: 1,035 pairs.
    let dir = temp_dir();
    let input = dir.path().join("in");
    let endings = [RIVERS, ENGINES, BIRDS, BREAD];
    for i in 0..46 {
        let ending = &endings[i % 4][..40 + i];
        write(
            &input,
            &format!("{i:02}.txt"),
            format!("{COMMON}\n{ending}\n"),
        );
    }
    let (report, note) = compare_json_noting(&dir, &input, &[]);
    assert_eq!(report["pairs"].as_array().unwrap().len(), 1035);
    assert_eq!(detailed_pairs(&report), 1000);
    assert!(
        note.contains("only the 1000 most similar of 1035 pairs"),
        "{note}"
    );
}

/// The JSON embedded in an HTML report page.
fn page_data(page: &Path) -> serde_json::Value {
    const OPEN: &str = r#"<script type="application/json" id="copyhound-data">"#;
    let page = fs::read_to_string(page).unwrap();
    let start = page.find(OPEN).unwrap() + OPEN.len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

#[test]
fn report_pairs_sets_how_many_pairs_the_page_embeds() {
    let dir = temp_dir();
    let input = three_pairs(&dir);
    let page = dir.path().join("report.html");
    let embedded = |pairs: &str| {
        compare()
            .arg(&input)
            .args(["--report-pairs", pairs, "--report"])
            .arg(&page)
            .assert()
            .success();
        let data = page_data(&page);
        assert_eq!(data["listed_pairs"], 3);
        data["pairs"]["a"].as_array().unwrap().len()
    };
    assert_eq!(embedded("1"), 1);
    assert_eq!(embedded("all"), 3);
    compare()
        .arg(&input)
        .args(["--report-pairs", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--report-pairs"));
}

#[test]
fn a_nonexistent_path_is_an_error() {
    compare()
        .arg("/no/such/dir")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "/no/such/dir: no such file or directory",
        ));
}

#[test]
fn an_empty_set_is_an_error() {
    let dir = temp_dir();
    compare()
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nothing to compare"));
}

#[test]
fn an_unreadable_file_is_reported_and_the_rest_compared() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    write(&input, "a.txt", RIVERS);
    write(&input, "b.txt", RIVERS);
    fs::write(input.join("c.txt"), BINARY).unwrap();
    let json = dir.path().join("report.json");
    compare()
        .arg(&input)
        .arg("--json")
        .arg(&json)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("c.txt").and(predicate::str::contains("binary")))
        .stdout(predicate::str::contains("a.txt"));
    let report = json_report(&json);
    assert!(
        report["problems"][0]["path"]
            .as_str()
            .unwrap()
            .ends_with("c.txt")
    );
}

const JAVA_COUNT: &str = "import java.util.*;

public class Count {
    static Map<String, Integer> count(List<String> words) {
        Map<String, Integer> counts = new HashMap<>();
        for (String word : words) {
            counts.put(word, counts.getOrDefault(word, 0) + 1);
        }
        return counts;
    }

    public static void main(String[] args) {
        Map<String, Integer> counts = count(Arrays.asList(args));
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(counts.entrySet());
        entries.sort((x, y) -> y.getValue() - x.getValue());
        for (int i = 0; i < Math.min(10, entries.size()); i++) {
            System.out.println(entries.get(i).getKey() + \" \" + entries.get(i).getValue());
        }
    }
}
";
const JAVA_SUM: &str = "public class Sum {
    public static void main(String[] args) {
        int total = 0;
        for (String arg : args) {
            total += Integer.parseInt(arg);
        }
        System.out.println(\"sum \" + total);
    }
}
";
const C_SQUARES: &str = "#include <stdio.h>\nint main(void) { for (int i = 0; i < 10; i++) printf(\"%d\\n\", i * i); return 0; }\n";

/// A Python submission of the example batch.
fn example_python(student: &str) -> String {
    fs::read_to_string(
        examples()
            .join("submissions")
            .join(student)
            .join("wordfreq.py"),
    )
    .unwrap()
}

#[test]
fn a_mixed_batch_is_compared_one_language_at_a_time() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    // anna and chloe copied each other in Python, ann and bo in Java (with
    // renamed identifiers); each language also has an unrelated unit, and
    // C has only one.
    write(&input, "anna.py", example_python("anna"));
    write(&input, "chloe.py", example_python("chloe"));
    write(&input, "hugo.py", example_python("hugo"));
    write(&input, "Ann.java", JAVA_COUNT);
    write(
        &input,
        "Bo.java",
        JAVA_COUNT
            .replace("counts", "tally")
            .replace("words", "tokens"),
    );
    write(&input, "Sum.java", JAVA_SUM);
    write(&input, "squares.c", C_SQUARES);
    let json = dir.path().join("report.json");
    let csv = dir.path().join("report.csv");
    compare()
        .arg(&input)
        .arg("--json")
        .arg(&json)
        .arg("--csv")
        .arg(&csv)
        .assert()
        .success()
        .stderr(
            predicate::str::contains("squares.c").and(predicate::str::contains(
                "no other c unit to compare it with",
            )),
        )
        // The terminal table says each pair's language.
        .stdout(
            predicate::str::is_match(r"(?m)^#\s+similarity.*\blanguage$")
                .unwrap()
                .and(predicate::str::is_match(r"(?m)anna\.py\s.*\bpython$").unwrap())
                .and(predicate::str::is_match(r"(?m)Ann\.java\s.*\bjava$").unwrap()),
        );

    let report = json_report(&json);
    let language: std::collections::HashMap<&str, &str> = report["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| (u["path"].as_str().unwrap(), u["language"].as_str().unwrap()))
        .collect();
    assert_eq!(language.len(), 6, "every unit but the lone C one");
    assert_eq!(language["anna.py"], "python");
    assert_eq!(language["Bo.java"], "java");
    assert_eq!(report["parameters"]["language"], serde_json::Value::Null);
    let languages: Vec<&str> = report["parameters"]["languages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["language"].as_str().unwrap())
        .collect();
    assert_eq!(languages, ["java", "python"]);

    let rows = csv_rows(&csv);
    for (a, b, _) in &rows {
        assert_eq!(language[a.as_str()], language[b.as_str()], "{a} and {b}");
    }
    let top_two = pair_set(&rows[..2]);
    assert_eq!(
        top_two,
        vec![
            ("Ann.java".into(), "Bo.java".into()),
            ("anna.py".into(), "chloe.py".into())
        ]
    );
    let text = fs::read_to_string(&csv).unwrap();
    let header = text.lines().next().unwrap();
    assert!(header.ends_with(",language,a_origin,b_origin"));
    // The most similar pair is the Java copy, identical up to names.
    assert!(text.lines().nth(1).unwrap().ends_with(",java,new,new"));

    // Without JSON or HTML the CSV is written straight from the languages'
    // comparisons, and the report lists only the pairs the table shows:
    // the same CSV and the same table as with the whole report.
    let run = |csv: &Path, json: Option<&Path>| {
        let mut command = compare();
        command.arg(&input).args(["--top", "3", "--csv"]).arg(csv);
        if let Some(json) = json {
            command.arg("--json").arg(json);
        }
        let output = command.assert().success().get_output().stdout.clone();
        (fs::read(csv).unwrap(), output)
    };
    let (whole_csv, whole_table) = run(&dir.path().join("whole.csv"), Some(&json));
    let (csv_only, table_only) = run(&dir.path().join("only.csv"), None);
    assert_eq!(
        String::from_utf8(csv_only).unwrap(),
        String::from_utf8(whole_csv).unwrap()
    );
    assert_eq!(
        String::from_utf8(table_only).unwrap(),
        String::from_utf8(whole_table).unwrap()
    );

    // --lang still reads every file as one language: one family, one
    // language in the report.
    compare()
        .arg(&input)
        .args(["--lang", "text", "--json"])
        .arg(&json)
        .assert()
        .success();
    let report = json_report(&json);
    assert_eq!(report["parameters"]["language"], "text");
    assert_eq!(report["units"].as_array().unwrap().len(), 7);
}

#[test]
fn languages_with_one_unit_each_are_nothing_to_compare() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    write(&input, "Sum.java", JAVA_SUM);
    write(&input, "squares.c", C_SQUARES);
    compare().arg(&input).assert().code(2).stderr(
        predicate::str::contains("nothing to compare")
            .and(predicate::str::contains(
                "c: 1 unit(s), 1 new; java: 1 unit(s), 1 new",
            ))
            .and(predicate::str::contains("--lang")),
    );
}
