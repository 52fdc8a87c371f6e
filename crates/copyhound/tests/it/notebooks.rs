//! Jupyter notebooks: their code cells are compared through the front-end
//! of the kernel's language, each cell named by a comment line in the
//! text the outputs show, and positions given as a cell and a line within
//! it; a malformed notebook is a problem naming it. With
//! `--notebook-markdown` the markdown cells are compared too, as text of
//! their own; `fingerprint` places a notebook's k-grams by cell and line.

use std::fs;
use std::path::Path;

use crate::support::{browser, copyhound, rendered_dom, temp_dir, write};

/// A notebook of `cells` (`("code" | "markdown", source)`) with the
/// Python kernel, each cell with an output that must not be read.
fn notebook(cells: &[(&str, &str)]) -> String {
    let cells: Vec<serde_json::Value> = cells
        .iter()
        .map(|(kind, source)| {
            let lines: Vec<String> = source.split_inclusive('\n').map(String::from).collect();
            serde_json::json!({
                "cell_type": kind,
                "metadata": {},
                "source": lines,
                "outputs": [{"output_type": "stream", "text": ["shared output text\n"]}],
            })
        })
        .collect();
    serde_json::json!({
        "cells": cells,
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    })
    .to_string()
}

const LOAD: &str = "import csv\n\ndef load(path):\n    rows = []\n    with open(path) as handle:\n        for row in csv.reader(handle):\n            rows.append([float(x) for x in row[1:]])\n    return rows\n";
const STATS: &str = "def stats(rows):\n    means = []\n    for column in zip(*rows):\n        total = sum(column)\n        means.append(total / len(column))\n    spread = max(means) - min(means)\n    return means, spread\n";
const OTHER: &str = "class Stack:\n    def __init__(self):\n        self.items = {}\n        self.top = -1\n    def push(self, item):\n        self.top += 1\n        self.items[self.top] = item.strip().upper()\n    def size(self):\n        while self.top in self.items and not self.items[self.top]:\n            self.top -= 1\n        return self.top + 1\n";

fn compare_json(dir: &Path, input: &Path) -> (serde_json::Value, i32) {
    let json = dir.join("r.json");
    let output = copyhound()
        .args(["compare", "-q", "--json"])
        .arg(&json)
        .arg(input)
        .output()
        .unwrap();
    let report = serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    (report, output.status.code().unwrap())
}

/// Two notebooks sharing copied code cells (in another order, among other
/// cells) pair high; one of other code pairs near zero with both, though
/// its markdown and outputs are the same.
#[test]
fn notebooks_sharing_code_cells_pair_high_and_others_near_zero() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    let intro = ("markdown", "# Homework 3\nLoad the data and describe it.\n");
    write(
        &input,
        "alice.ipynb",
        notebook(&[intro, ("code", LOAD), ("code", STATS)]),
    );
    write(
        &input,
        "bob.ipynb",
        notebook(&[
            intro,
            ("code", "print('hi')\n"),
            ("code", STATS),
            ("code", LOAD),
        ]),
    );
    write(&input, "carol.ipynb", notebook(&[intro, ("code", OTHER)]));
    let (report, code) = compare_json(dir.path(), &input);
    assert_eq!(code, 0);
    assert_eq!(report["parameters"]["language"], "python");
    let pairs = report["pairs"].as_array().unwrap();
    let pair = |a: &str, b: &str| {
        pairs
            .iter()
            .find(|p| p["a"]["path"] == a && p["b"]["path"] == b)
            .map_or(0.0, |p| p["similarity"].as_f64().unwrap())
    };
    assert!(pair("alice.ipynb", "bob.ipynb") > 0.8, "{pairs:?}");
    assert!(pair("alice.ipynb", "carol.ipynb") < 0.1, "{pairs:?}");
    assert!(pair("bob.ipynb", "carol.ipynb") < 0.1, "{pairs:?}");
    // alice's cell 3 (STATS) starts on line 11 of her code: the line
    // after the comment naming the cell.
    let fragments = pairs[0]["fragments"].as_array().unwrap();
    let first_lines: Vec<u64> = fragments
        .iter()
        .map(|f| f["a"]["lines"][0].as_u64().unwrap())
        .collect();
    assert!(first_lines.contains(&11), "{first_lines:?}");
}

/// A notebook that is not JSON is a problem naming the file; the rest is
/// compared and the exit status says a file was not read.
#[test]
fn a_malformed_notebook_is_a_problem_naming_it() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    write(&input, "a.ipynb", notebook(&[("code", LOAD)]));
    write(&input, "b.ipynb", notebook(&[("code", LOAD)]));
    write(&input, "broken.ipynb", "{\"cells\": [");
    let (report, code) = compare_json(dir.path(), &input);
    let messages: Vec<&str> = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["message"].as_str().unwrap())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("broken.ipynb") && m.contains("malformed notebook: not JSON")),
        "{messages:?}"
    );
    assert_eq!(code, 1);
}

/// Three lines alice wrote in a function (lines 2 to 4 of her cell 3)
/// and bob copied to the top level of his cell 2 (also its lines 2 to 4):
/// what precedes and follows them differs on both sides, so the copied
/// passage is exactly these lines.
const COPIED: [&str; 3] = [
    "scores = {name: sum(marks) / len(marks) for name, marks in grades.items() if marks}\n",
    "ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]\n",
    "lines = [f\"{rank}. {name}: {score:.1f}\" for rank, (name, score) in enumerate(ranked, 1)]\n",
];

/// Positions in notebooks are cells and lines within them, in the JSON
/// and in the HTML pair view; the CSV (one row per pair, no positions)
/// pairs them as the JSON does.
#[test]
fn a_copied_passage_is_placed_by_its_cell_and_line() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    let indented = COPIED.map(|line| format!("    {line}")).concat();
    let alice = format!("def report(grades, limit):\n{indented}    return \"\\n\".join(lines)\n");
    let bob = format!("limit = 3\n{}print(*lines, sep=\"\\n\")\n", COPIED.concat());
    let intro = ("markdown", "# Grades\nRank the students.\n");
    write(
        &input,
        "alice.ipynb",
        notebook(&[intro, ("code", "grades = {}\n"), ("code", &alice)]),
    );
    write(&input, "bob.ipynb", notebook(&[intro, ("code", &bob)]));
    let csv = dir.path().join("r.csv");
    let report = dir.path().join("r.html");
    let (json, code) = {
        let json = dir.path().join("r.json");
        let output = copyhound()
            .args(["compare", "-q", "--report-pairs", "all", "--json"])
            .arg(&json)
            .arg("--csv")
            .arg(&csv)
            .arg("--report")
            .arg(&report)
            .arg(&input)
            .output()
            .unwrap();
        let json: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
        (json, output.status.code().unwrap())
    };
    assert_eq!(code, 0);
    let pair = &json["pairs"][0];
    assert_eq!(
        (&pair["a"]["path"], &pair["b"]["path"]),
        (&"alice.ipynb".into(), &"bob.ipynb".into())
    );
    let similarity = pair["similarity"].as_f64().unwrap();
    assert!(similarity > 0.6, "{pair}");
    let passages = pair["passages"].as_array().unwrap();
    assert_eq!(passages.len(), 1, "{passages:?}");
    let cells = |side: &str| &passages[0][side]["notebook"];
    assert_eq!(
        cells("a"),
        &serde_json::json!({"cells": [3, 3], "lines": [2, 4]})
    );
    assert_eq!(
        cells("b"),
        &serde_json::json!({"cells": [2, 2], "lines": [2, 4]})
    );
    // The lines of the text read, which names each cell on a line of its
    // own, stay beside them: alice's cell 3 starts on line 4 of it.
    assert_eq!(passages[0]["a"]["lines"], serde_json::json!([5, 7]));
    for fragment in pair["fragments"].as_array().unwrap() {
        assert_eq!(
            fragment["a"]["notebook"]["cells"],
            serde_json::json!([3, 3])
        );
    }

    let csv = fs::read_to_string(&csv).unwrap();
    let row = csv.lines().nth(1).unwrap();
    assert!(
        row.starts_with(&format!("alice.ipynb,bob.ipynb,{similarity:.6},")),
        "{row}"
    );

    let Some(browser) = browser() else {
        return;
    };
    let url = format!("file://{}#pair=1", report.display());
    let page = rendered_dom(&browser, &url, &dir.path().join("chromium-profile"));
    assert_first_passage_at(
        &page,
        [
            "alice.ipynb, cell 3, lines 2–4",
            "bob.ipynb, cell 2, lines 2–4",
        ],
    );
}

/// The first passage row of a rendered pair page names both `places`.
fn assert_first_passage_at(page: &str, places: [&str; 2]) {
    let row = &page[page
        .find("<tr data-passage=\"0\">")
        .expect("the passage is listed")..];
    let row = &row[..row.find("</tr>").unwrap()];
    for place in places {
        assert!(row.contains(place), "{place} is not in {row}");
    }
}

/// A paragraph alice wrote in her second cell and bob copied into his
/// third; carol wrote her own.
const COPIED_PROSE: &str = "The rainfall series drifts upward after the dam was built, so we compare each decade with the one before it.\nA rolling median smooths the spikes that single storms leave in the monthly totals.\nWhere the gauges disagree we trust the one nearest the river mouth.\n";
const OWN_PROSE: &str = "Stacks keep their items in a dictionary keyed by position.\nPushing upper-cases every string before storing it, which the tests expect.\n";

/// `compare` of `input` with `extra` options, writing the JSON and HTML
/// reports into `dir`: the JSON report and the exit status.
fn compare_with(dir: &Path, input: &Path, extra: &[&str]) -> (serde_json::Value, i32) {
    let json = dir.join("r.json");
    let output = copyhound()
        .args(["compare", "-q", "--report-pairs", "all", "--json"])
        .arg(&json)
        .arg("--report")
        .arg(dir.join("r.html"))
        .args(extra)
        .arg(input)
        .output()
        .unwrap();
    let report = serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    (report, output.status.code().unwrap())
}

/// The similarity of the pair of units `a` and `b` in `report`, 0 when it
/// is not listed.
fn similarity(report: &serde_json::Value, a: &str, b: &str) -> f64 {
    report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["a"]["path"] == a && p["b"]["path"] == b)
        .map_or(0.0, |p| p["similarity"].as_f64().unwrap())
}

/// With `--notebook-markdown` the markdown of each notebook is a text
/// unit of its own: a copied markdown cell pairs the notebooks' markdown,
/// placed by the cell's number as Jupyter counts cells, though their code
/// differs; unrelated prose scores near zero. Without it no markdown is
/// read.
#[test]
fn copied_markdown_cells_pair_only_with_the_flag() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    write(
        &input,
        "alice.ipynb",
        notebook(&[("code", LOAD), ("markdown", COPIED_PROSE), ("code", STATS)]),
    );
    write(
        &input,
        "bob.ipynb",
        notebook(&[
            ("markdown", "# My answer\n"),
            ("code", OTHER),
            ("markdown", COPIED_PROSE),
        ]),
    );
    write(
        &input,
        "carol.ipynb",
        notebook(&[
            ("markdown", OWN_PROSE),
            (
                "code",
                "def area(width, height):\n    if width <= 0 or height <= 0:\n        raise ValueError('sizes must be positive')\n    return width * height\n",
            ),
        ]),
    );
    let (plain, code) = compare_with(dir.path(), &input, &[]);
    assert_eq!(code, 0);
    let listed = |report: &serde_json::Value| -> Vec<String> {
        report["units"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["path"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(
        listed(&plain).iter().all(|unit| !unit.contains("markdown")),
        "{:?}",
        listed(&plain)
    );
    assert!(similarity(&plain, "alice.ipynb", "bob.ipynb") < 0.1);

    let (report, code) = compare_with(dir.path(), &input, &["--notebook-markdown"]);
    assert_eq!(code, 0, "{}", report["problems"]);
    assert_eq!(report["problems"], serde_json::json!([]));
    let (alice, bob, carol) = (
        "alice.ipynb (markdown)",
        "bob.ipynb (markdown)",
        "carol.ipynb (markdown)",
    );
    for unit in [alice, bob, carol] {
        assert!(listed(&report).iter().any(|u| u == unit), "{unit}");
    }
    // The code compares as without the flag.
    let code_pair = similarity(&report, "alice.ipynb", "bob.ipynb");
    assert!((code_pair - similarity(&plain, "alice.ipynb", "bob.ipynb")).abs() < 1e-12);
    assert!(similarity(&report, alice, bob) > 0.6, "{}", report["pairs"]);
    assert!(similarity(&report, alice, carol) < 0.1);
    assert!(similarity(&report, bob, carol) < 0.1);
    let pair = report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["a"]["path"] == alice && p["b"]["path"] == bob)
        .unwrap();
    let passages = pair["passages"].as_array().unwrap();
    assert_eq!(passages.len(), 1, "{passages:?}");
    assert_eq!(
        passages[0]["a"]["notebook"],
        serde_json::json!({"cells": [2, 2], "lines": [1, 3]})
    );
    assert_eq!(
        passages[0]["b"]["notebook"],
        serde_json::json!({"cells": [3, 3], "lines": [1, 3]})
    );

    let Some(browser) = browser() else {
        return;
    };
    let number = report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p == pair)
        .unwrap()
        + 1;
    let url = format!(
        "file://{}#pair={number}",
        dir.path().join("r.html").display()
    );
    let page = rendered_dom(&browser, &url, &dir.path().join("chromium-profile"));
    assert_first_passage_at(
        &page,
        [
            "alice.ipynb, cell 2, lines 1–3",
            "bob.ipynb, cell 3, lines 1–3",
        ],
    );
}

/// With `--notebook-markdown`, notebooks without markdown cells compare
/// as without it, with no problem.
#[test]
fn notebooks_without_markdown_are_fine_with_the_flag() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    write(
        &input,
        "a.ipynb",
        notebook(&[("code", LOAD), ("code", STATS)]),
    );
    write(
        &input,
        "b.ipynb",
        notebook(&[("code", STATS), ("code", LOAD)]),
    );
    let (plain, _) = compare_with(dir.path(), &input, &[]);
    let (report, code) = compare_with(dir.path(), &input, &["--notebook-markdown"]);
    assert_eq!(code, 0);
    assert_eq!(report["problems"], serde_json::json!([]));
    assert_eq!(report["units"], plain["units"]);
    assert_eq!(report["pairs"], plain["pairs"]);
}

/// A file named like a notebook's markdown unit keeps its name, and the
/// markdown unit is numbered: no two units of a report share a name.
#[test]
fn a_file_named_like_a_markdown_unit_does_not_share_its_name() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    write(
        &input,
        "a.ipynb",
        notebook(&[("markdown", COPIED_PROSE), ("code", LOAD)]),
    );
    write(&input, "a.ipynb (markdown)", COPIED_PROSE);
    let (report, code) = compare_with(dir.path(), &input, &["--notebook-markdown"]);
    assert_eq!(code, 0);
    let mut names: Vec<&str> = report["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|unit| unit["path"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["a.ipynb (markdown)", "a.ipynb (markdown)#2"]);
    assert!((similarity(&report, "a.ipynb (markdown)", "a.ipynb (markdown)#2") - 1.0).abs() < 1e-9);
}

/// `fingerprint` places each k-gram of a notebook by its cell and the
/// line within it, and lists the markdown's on request.
#[test]
fn fingerprint_places_notebook_kgrams_by_cell_and_line() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    let path = input.join("alice.ipynb");
    write(
        &input,
        "alice.ipynb",
        notebook(&[("markdown", COPIED_PROSE), ("code", LOAD), ("code", STATS)]),
    );
    let run = |extra: &[&str]| {
        let output = copyhound()
            .arg("fingerprint")
            .args(extra)
            .arg(&path)
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let text = run(&[]);
    let places: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|line| &line[line.rfind("  ").unwrap() + 2..])
        .collect();
    assert!(places.iter().all(|p| p.starts_with("cell ")), "{text}");
    // The code cells are cells 2 (LOAD, 8 lines) and 3 (STATS, 7 lines):
    // no k-gram starts outside them.
    for cell in ["cell 2 line", "cell 3 line"] {
        assert!(places.iter().any(|p| p.starts_with(cell)), "{text}");
    }
    for place in &places {
        let (cell, line) = place[5..].split_once(" line ").unwrap();
        let most = if cell == "2" { 8 } else { 7 };
        assert!(
            (1..=most).contains(&line.parse::<u32>().unwrap()),
            "{place}"
        );
    }
    assert!(!text.contains("(markdown)"), "{text}");

    let json = run(&["--format", "json", "--notebook-markdown"]);
    let files: Vec<serde_json::Value> = json
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(files.len(), 2, "{json}");
    assert_eq!(files[0]["kind"], "python");
    assert_eq!(files[0]["fingerprints"][0]["notebook"]["cell"], 2);
    assert!(
        files[1]["path"]
            .as_str()
            .unwrap()
            .ends_with("alice.ipynb (markdown)")
    );
    assert_eq!(files[1]["kind"], "text");
    for print in files[1]["fingerprints"].as_array().unwrap() {
        assert_eq!(print["notebook"]["cell"], 1, "{print}");
    }
}
