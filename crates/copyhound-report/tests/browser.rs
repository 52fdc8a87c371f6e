//! The HTML page in a real browser: reports made here, written by
//! `write_html`, opened in headless Chromium, and the DOM its script
//! renders checked — the histogram's counts are whole, a click on a graph
//! node lists exactly that unit's pairs, `#pair=N` opens pair N, a review
//! mark and note survive a reload and are exported, earlier submissions
//! are marked, the report's problems are shown, and pairs left unlisted
//! are said.
//!
//! Where a check needs the page to be used (a click, a mark), a script is
//! added to the page that does it and writes what it saw into the
//! document, which Chromium then prints. A reload is a second browser
//! opening the page with the first one's profile.
//!
//! Skips with a message when `chromium` is not installed, unless
//! `COPYHOUND_REQUIRE_CHROMIUM=1` is set (CI), where that is a failure.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use std::{env, fs, thread};

use copyhound_report::{
    HtmlOptions, MissingPairs, MissingReason, PairReport, PairSide, Parameters, Problem,
    ProblemKind, Report, SCHEMA_VERSION, Summary, Tool, UnitOrigin, UnitReport, UnitRole, Unlisted,
    write_html,
};
use serde_json::Value;
use tempfile::TempDir;

/// `chromium` on the `PATH`, if any; `None` (the test skips) only when
/// it is not required.
fn chromium() -> Option<PathBuf> {
    let found = env::var_os("PATH").and_then(|path| {
        env::split_paths(&path)
            .map(|dir| dir.join("chromium"))
            .find(|candidate| candidate.is_file())
    });
    if found.is_none() {
        assert!(
            env::var("COPYHOUND_REQUIRE_CHROMIUM").as_deref() != Ok("1"),
            "chromium is not installed but COPYHOUND_REQUIRE_CHROMIUM=1 (apt-get install chromium)"
        );
        eprintln!("skipped: chromium is not installed (apt-get install chromium to run this test)");
    }
    found
}

/// The DOM of `page` (a file in `dir`, its URL ending in `suffix`: a
/// query or a fragment) after its scripts ran, as headless Chromium
/// prints it.
fn rendered_dom(browser: &Path, dir: &Path, page: &str, suffix: &str) -> String {
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=10000",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg("--dump-dom")
        .arg(format!("file://{}{suffix}", dir.join(page).display()))
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
            panic!("chromium did not finish rendering {page}");
        }
        thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "chromium failed on {page}: {status}");
    reader.join().unwrap().expect("chromium's output is UTF-8")
}

/// `report` written as `name` in `dir`, with `script` (if any) run after
/// the page's own.
fn write_page(dir: &Path, name: &str, report: &Report, script: Option<&str>) {
    let mut page = Vec::new();
    write_html(report, |_, _| None, &HtmlOptions::default(), &mut page).unwrap();
    let mut page = String::from_utf8(page).unwrap();
    if let Some(script) = script {
        let end = page.rfind("</body>").unwrap();
        page.insert_str(end, &format!("<script>{script}</script>\n"));
    }
    fs::write(dir.join(name), page).unwrap();
}

/// What the added script wrote into `<pre id="test-result">`, as JSON.
fn test_result(dom: &str) -> Value {
    let start = dom
        .find("<pre id=\"test-result\">")
        .unwrap_or_else(|| panic!("the test script wrote no result:\n{dom}"))
        + "<pre id=\"test-result\">".len();
    let end = start + dom[start..].find("</pre>").unwrap();
    let json = dom[start..end]
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

/// Helpers for the added scripts: `until` waits for a condition, `done`
/// writes the result.
const SCRIPT_HELPERS: &str = r#"
const until = (ready) => new Promise((resolve) => {
  const poll = () => (ready() ? resolve() : setTimeout(poll, 20));
  poll();
});
const done = (result) => {
  const pre = document.createElement("pre");
  pre.id = "test-result";
  pre.textContent = JSON.stringify(result);
  document.body.append(pre);
};
const click = (node) => node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
"#;

fn unit(id: usize, path: &str, origin: UnitOrigin) -> UnitReport {
    UnitReport {
        id,
        path: path.into(),
        root: "class".into(),
        language: Some("python".into()),
        role: if origin == UnitOrigin::New {
            UnitRole::New
        } else {
            UnitRole::Old
        },
        origin,
        group: None,
        symbols: 100,
        compared_symbols: 100,
        base_symbols: 0,
        documents: Vec::new(),
    }
}

fn pair(units: &[UnitReport], a: usize, b: usize, similarity: f64) -> PairReport {
    let side = |u: usize| PairSide {
        unit: u,
        path: units[u].path.clone(),
        coverage: similarity,
        line_coverage: None,
        covered_symbols: 0,
        covered_lines: None,
    };
    PairReport {
        similarity,
        a: side(a),
        b: side(b),
        shared_fingerprints: 3,
        longest_fragment: 12,
        total_overlap: 12,
        fragment_count: 0,
        fragments: Some(Vec::new()),
        passages: Some(Vec::new()),
    }
}

/// A report of `units` and `pairs` (most similar first), with `problems`.
fn report(units: Vec<UnitReport>, pairs: Vec<PairReport>, problems: Vec<Problem>) -> Report {
    let count = pairs.len();
    Report {
        schema_version: SCHEMA_VERSION,
        tool: Tool {
            name: "copyhound".into(),
            version: "test".into(),
        },
        parameters: Parameters {
            language: Some("python".into()),
            k: 10,
            window: 3,
            min_fragment: 10,
            symbol: Some("token".into()),
            ..Parameters::default()
        },
        summary: Summary {
            units: units.len(),
            documents: units.len(),
            candidate_pairs: count,
            scored_pairs: count,
            matching_pairs: count,
            reported_pairs: count,
            detailed_pairs: count,
            ..Summary::default()
        },
        units,
        pairs,
        problems,
    }
}

/// Units whose names hold each other (`1-1` is in `1-10` and `1-19`),
/// `1-19` an earlier submission; `1-1` is in the pairs ranked 1 and 3.
fn similar_names() -> Report {
    let units = vec![
        unit(0, "1-1", UnitOrigin::New),
        unit(1, "1-10", UnitOrigin::New),
        unit(2, "1-19", UnitOrigin::Old),
        unit(3, "2-1", UnitOrigin::New),
    ];
    let pairs = vec![
        pair(&units, 0, 3, 0.9),
        pair(&units, 1, 2, 0.8),
        pair(&units, 0, 1, 0.7),
        pair(&units, 2, 3, 0.6),
    ];
    report(units, pairs, Vec::new())
}

#[test]
fn histogram_counts_are_whole() {
    let Some(browser) = chromium() else { return };
    let dir = TempDir::new().unwrap();
    // 12,863 pairs under 5 % (the count that lost its first digit), a few
    // copies above 50 %.
    let units: Vec<UnitReport> = (0..170)
        .map(|u| unit(u, &format!("s{u:03}.py"), UnitOrigin::New))
        .collect();
    let mut pairs: Vec<PairReport> = (0..170)
        .flat_map(|a| (a + 1..170).map(move |b| (a, b)))
        .take(12_863)
        .map(|(a, b)| pair(&units, a, b, 0.01))
        .collect();
    pairs.splice(0..0, (0..3).map(|k| pair(&units, k, k + 100, 0.9)));
    // Every label of the chart, with where it lies in the chart's own
    // coordinates: a label cut by the chart's edge loses its first digits.
    let script = format!(
        "{SCRIPT_HELPERS}
        (async () => {{
          await until(() => document.querySelector('#histogram text'));
          const chart = document.getElementById('histogram').viewBox.baseVal;
          done([...document.querySelectorAll('#histogram text')].map((label) => {{
            const box = label.getBBox();
            return {{ text: label.textContent,
              inside: box.x >= 0 && box.y >= 0 && box.x + box.width <= chart.width && box.y + box.height <= chart.height }};
          }}));
        }})();"
    );
    write_page(
        dir.path(),
        "many.html",
        &report(units, pairs, Vec::new()),
        Some(&script),
    );
    let dom = rendered_dom(&browser, dir.path(), "many.html", "");
    let labels = test_result(&dom);
    let labels = labels.as_array().unwrap();
    for label in labels {
        assert_eq!(label["inside"], true, "a label is cut: {labels:?}");
    }
    let texts: Vec<&str> = labels.iter().map(|l| l["text"].as_str().unwrap()).collect();
    // The largest count, written whole; on the default log scale the
    // three copies get a bar of their own with its count.
    for expected in ["12,863", "3", "100", "0%", "100%"] {
        assert!(texts.contains(&expected), "{expected} in {texts:?}");
    }
    let histogram = &dom[dom.find("<svg id=\"histogram\"").unwrap()..];
    assert!(
        histogram.contains("<title>0–5%: 12,863 pairs</title>"),
        "{histogram}"
    );
    assert!(dom.contains("12,866 pairs share at least one exact run of 10 tokens or more"));
    assert!(dom.contains("3 at or above 50% similarity."));
    assert!(dom.contains("Longest (tokens)"));
}

#[test]
fn a_graph_node_lists_exactly_its_units_pairs() {
    let Some(browser) = chromium() else { return };
    let dir = TempDir::new().unwrap();
    let script = format!(
        "{SCRIPT_HELPERS}
        (async () => {{
          await until(() => document.querySelector('#graph [data-unit]'));
          click(document.querySelector('#graph .node[data-unit=\"0\"]'));
          const rows = [...document.querySelectorAll('#pairs tbody tr[data-pair]')];
          done({{
            ranks: rows.map((row) => row.dataset.pair),
            names: rows.map((row) => [...row.querySelectorAll('.unit-name')].map((n) => n.textContent)),
            chip: document.getElementById('unit-filter').hidden ? null : document.getElementById('unit-filter-name').textContent,
            origins: [...document.querySelectorAll('#pairs .origin')].map((n) => n.textContent),
            shapes: [...document.querySelectorAll('#graph .node')].map((n) => n.tagName + ':' + n.dataset.unit),
          }});
        }})();"
    );
    write_page(dir.path(), "names.html", &similar_names(), Some(&script));
    let result = test_result(&rendered_dom(&browser, dir.path(), "names.html", ""));
    assert_eq!(result["ranks"], serde_json::json!(["1", "3"]), "{result}");
    assert_eq!(
        result["names"],
        serde_json::json!([["1-1", "2-1"], ["1-1", "1-10"]])
    );
    assert_eq!(result["chip"], "pairs of 1-1");
    assert_eq!(
        result["origins"],
        serde_json::json!([]),
        "no old unit shown"
    );
    // The earlier submission is a square, the others circles.
    let shapes = result["shapes"].as_array().unwrap();
    assert!(shapes.contains(&Value::from("rect:2")), "{result}");
    assert!(shapes.contains(&Value::from("circle:0")), "{result}");
}

#[test]
fn the_pair_in_the_address_is_the_pair_of_that_rank() {
    let Some(browser) = chromium() else { return };
    let dir = TempDir::new().unwrap();
    write_page(dir.path(), "names.html", &similar_names(), None);
    let dom = rendered_dom(&browser, dir.path(), "names.html", "#pair=2");
    assert!(
        dom.contains("data-shown-pair=\"2\""),
        "pair 2 opened:\n{dom}"
    );
    let heading = &dom[dom.find("<h2>Pair ").expect("a pair heading")..];
    let heading = &heading[..heading.find("</h2>").unwrap()];
    assert!(
        heading.starts_with("<h2>Pair 2: ")
            && heading.contains(">1-10</span>")
            && heading.contains(">1-19</span>"),
        "{heading}"
    );
    // 1-19 is an earlier submission: marked in the heading and on its side.
    assert!(heading.contains("class=\"origin origin-old\""), "{heading}");
    assert!(dom.contains("an earlier submission (--old)"));
    let list = rendered_dom(&browser, dir.path(), "names.html", "");
    let second = &list[list.find("<tr data-pair=\"2\"").expect("row 2")..];
    let second = &second[..second.find("</tr>").unwrap()];
    assert!(second.contains("href=\"#pair=2\""), "{second}");
    assert!(second.contains(">old</span>"), "{second}");
}

#[test]
fn a_review_survives_a_reload_and_is_exported() {
    let Some(browser) = chromium() else { return };
    let dir = TempDir::new().unwrap();
    // One browser marks pair 3 confirmed with a note; a second one, with
    // the same profile, opens the page again, reads the list, filters it
    // and exports.
    let script = format!(
        "{SCRIPT_HELPERS}
        (async () => {{
          if (location.search === '?mark') {{
            location.hash = '#pair=3';
            await until(() => document.body.dataset.shownPair === '3');
            click(document.querySelector('.mark-button[data-state=\"confirmed\"]'));
            const note = document.getElementById('review-note');
            note.value = 'same bug, \"same\" names';
            note.dispatchEvent(new Event('input'));
            done({{ marked: true }});
            return;
          }}
          const badge = (rank) => document.querySelector(`#pairs tr[data-pair=\"${{rank}}\"] .review-cell`).textContent;
          const before = [1, 2, 3, 4].map(badge);
          const filter = document.getElementById('review-filter');
          filter.value = 'confirmed';
          filter.dispatchEvent(new Event('change'));
          const confirmed = [...document.querySelectorAll('#pairs tr[data-pair]')].map((row) => row.dataset.pair);
          click(document.getElementById('export'));
          const csv = await (await fetch(document.getElementById('export-link').href)).text();
          location.hash = '#pair=3';
          await until(() => document.body.dataset.shownPair === '3');
          done({{
            before, confirmed, csv,
            pressed: document.querySelector('.mark-button[aria-pressed=\"true\"]').dataset.state,
            note: document.getElementById('review-note').value,
          }});
        }})();"
    );
    write_page(dir.path(), "review.html", &similar_names(), Some(&script));
    let marked = test_result(&rendered_dom(&browser, dir.path(), "review.html", "?mark"));
    assert_eq!(marked["marked"], true);
    let result = test_result(&rendered_dom(&browser, dir.path(), "review.html", ""));
    assert_eq!(
        result["before"],
        serde_json::json!(["", "", "● confirmed ✎", ""]),
        "{result}"
    );
    assert_eq!(result["confirmed"], serde_json::json!(["3"]));
    assert_eq!(result["pressed"], "confirmed");
    assert_eq!(result["note"], "same bug, \"same\" names");
    let csv = result["csv"].as_str().unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "rank,a,b,a_origin,b_origin,similarity,review,note,marked_at"
    );
    assert_eq!(lines.len(), 2, "{csv}");
    assert!(
        lines[1]
            .starts_with("3,1-1,1-10,new,new,0.700000,confirmed,\"same bug, \"\"same\"\" names\","),
        "{csv}"
    );
}

#[test]
fn problems_are_shown_at_the_top() {
    let Some(browser) = chromium() else { return };
    let dir = TempDir::new().unwrap();
    let mut with_problems = similar_names();
    with_problems.problems = vec![
        Problem {
            kind: ProblemKind::Unreadable,
            path: "class/scan.pdf".into(),
            message: "class/scan.pdf: skipped: no text could be extracted".into(),
        },
        Problem {
            kind: ProblemKind::Empty,
            path: "class/empty.py".into(),
            message: "class/empty.py: skipped: empty".into(),
        },
    ];
    write_page(dir.path(), "problems.html", &with_problems, None);
    write_page(dir.path(), "clean.html", &similar_names(), None);
    let dom = rendered_dom(&browser, dir.path(), "problems.html", "");
    let section = &dom[dom.find("<section id=\"problems\"").unwrap()..];
    let section = &section[..section.find("</section>").unwrap()];
    assert!(!section.contains("hidden"), "{section}");
    assert!(section.contains("2 problems:"), "{section}");
    // Each problem shows its kind.
    assert!(section.contains(
        "<li><span class=\"problem-kind unreadable\">unreadable</span> class/scan.pdf: skipped: no text could be extracted</li>"
    ), "{section}");
    assert!(section.contains(
        "<li><span class=\"problem-kind empty\">empty</span> class/empty.py: skipped: empty</li>"
    ), "{section}");
    let clean = rendered_dom(&browser, dir.path(), "clean.html", "");
    assert!(clean.contains("<section id=\"problems\" class=\"problems\" hidden=\"\">"));
}

/// A listing cut at the limit says down to what similarity it lists, and
/// how similar the pairs that may be missing could be.
#[test]
fn pairs_left_unlisted_are_said_at_the_top() {
    let Some(browser) = chromium() else { return };
    let dir = TempDir::new().unwrap();
    let mut cut = similar_names();
    cut.summary.unlisted = Some(Unlisted {
        pairs: 1234,
        lowest_listed_similarity: Some(0.25),
        possibly_missing: vec![
            MissingPairs {
                reason: MissingReason::ScoringLimit,
                pairs: Some(7),
                up_to_similarity: 0.4,
            },
            MissingPairs {
                reason: MissingReason::WorkBudget,
                pairs: None,
                up_to_similarity: 0.125,
            },
        ],
    });
    write_page(dir.path(), "cut.html", &cut, None);
    write_page(dir.path(), "whole.html", &similar_names(), None);
    let dom = rendered_dom(&browser, dir.path(), "cut.html", "");
    let capped = &dom[dom.find("id=\"capped\"").unwrap()..];
    let capped = &capped[..capped.find("</").unwrap()];
    assert!(
        capped.contains("Only the most similar pairs are listed, down to 25.0%; 1,234 other pairs found are not listed"),
        "{capped}"
    );
    assert!(capped.contains("Up to 7 pairs that could be up to 40.0% similar were not scored"));
    assert!(capped.contains("such a pair could be up to 12.5% similar"));
    let whole = rendered_dom(&browser, dir.path(), "whole.html", "");
    let capped = &whole[whole.find("id=\"capped\"").unwrap()..];
    assert!(!capped[..capped.find("</").unwrap()].contains("listed"));
}

#[test]
fn graph_labels_stay_inside_the_chart_and_apart() {
    let Some(browser) = chromium() else { return };
    let dir = TempDir::new().unwrap();
    // 30 units with long names, in rings of linked pairs above 50 %.
    let units: Vec<UnitReport> = (0..30)
        .map(|u| {
            unit(
                u,
                &format!("section-b/student-{u:02}/solution.py"),
                UnitOrigin::New,
            )
        })
        .collect();
    let mut pairs: Vec<PairReport> = (0..30)
        .map(|u| pair(&units, u, (u + 1) % 30, 0.95 - 0.01 * u as f64))
        .chain(
            (0..30)
                .step_by(3)
                .map(|u| pair(&units, u, (u + 7) % 30, 0.6)),
        )
        .collect();
    pairs.sort_by(|x, y| y.similarity.total_cmp(&x.similarity));
    let script = format!(
        "{SCRIPT_HELPERS}
        (async () => {{
          await until(() => document.querySelector('#graph .node-label'));
          const box = (label) => {{ const b = label.getBBox(); return [b.x, b.y, b.width, b.height]; }};
          done({{
            shown: [...document.querySelectorAll('#graph .node-label:not(.on-hover)')].map(box),
            on_hover: [...document.querySelectorAll('#graph .node-label.on-hover')].map(box),
          }});
        }})();"
    );
    write_page(
        dir.path(),
        "ring.html",
        &report(units, pairs, Vec::new()),
        Some(&script),
    );
    let result = test_result(&rendered_dom(&browser, dir.path(), "ring.html", ""));
    let boxes = |key: &str| -> Vec<[f64; 4]> {
        result[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| std::array::from_fn(|i| b[i].as_f64().unwrap()))
            .collect()
    };
    let (shown, on_hover) = (boxes("shown"), boxes("on_hover"));
    assert_eq!(shown.len() + on_hover.len(), 30, "{result}");
    assert!(shown.len() >= 10, "most labels fit: {result}");
    for [x, y, w, h] in shown.iter().chain(&on_hover) {
        assert!(
            *x >= 0.0 && *y >= 0.0 && x + w <= 420.0 && y + h <= 300.0,
            "a label leaves the chart: {result}"
        );
    }
    for (i, a) in shown.iter().enumerate() {
        for b in &shown[i + 1..] {
            let apart = a[0] + a[2] <= b[0] + 0.5
                || b[0] + b[2] <= a[0] + 0.5
                || a[1] + a[3] <= b[1] + 0.5
                || b[1] + b[3] <= a[1] + 0.5;
            assert!(apart, "labels {a:?} and {b:?} overlap");
        }
    }
}
