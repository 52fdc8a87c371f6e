//! `copyhound experiment gaps|zipf|koala|sketch` from the outside, on small
//! generated corpora: exit status, the tables on stdout, the numbers in
//! `--json`, and the Figure 4 SVG rendered in headless Chromium.
//!
//! The Chromium test skips with a message when `chromium` is not
//! installed, unless `COPYHOUND_REQUIRE_CHROMIUM=1` is set (CI), where that
//! is a failure.

use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{browser, copyhound, temp_dir};

/// A deterministic stream for generated files.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

const WORDS: &[&str] = &[
    "the",
    "of",
    "and",
    "a",
    "to",
    "in",
    "document",
    "fingerprint",
    "hash",
    "window",
    "copy",
    "passage",
    "student",
    "paper",
    "search",
    "database",
    "selection",
    "rare",
    "common",
    "text",
    "report",
    "match",
    "length",
    "guarantee",
    "noise",
    "threshold",
    "winnowing",
    "sketch",
    "koala",
    "sample",
    "level",
    "frequency",
    "rank",
    "plateau",
    "prologue",
    "consonant",
    "conversion",
];

/// `words` words drawn from [`WORDS`], in sentences.
fn prose(rng: &mut Rng, words: usize) -> String {
    let mut out = String::new();
    for i in 0..words {
        out.push_str(WORDS[rng.below(WORDS.len())]);
        out.push_str(if i % 12 == 11 { ". " } else { " " });
    }
    out
}

/// Random lower-case letters and spaces.
fn random_letters(rng: &mut Rng, len: usize) -> String {
    (0..len)
        .map(|_| b"abcdefghijklmnopqrstuvwxyz "[rng.below(27)] as char)
        .collect()
}

fn run_json(args: &[&str], paths: &[&Path], dir: &Path) -> (String, Value) {
    let json = dir.join("tables.json");
    let output = copyhound()
        .arg("experiment")
        .args(args)
        .args(paths)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{args:?} failed: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    let tables: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (stdout, tables)
}

/// The table whose title starts with `prefix`.
fn table<'a>(tables: &'a Value, prefix: &str) -> &'a Value {
    tables["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["title"].as_str().unwrap().starts_with(prefix))
        .unwrap_or_else(|| panic!("no table {prefix}"))
}

/// The row whose first cell is `label`.
fn row<'a>(table: &'a Value, label: &str) -> &'a [Value] {
    table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r[0] == label)
        .unwrap_or_else(|| panic!("no row {label} in {}", table["title"]))
        .as_array()
        .unwrap()
}

fn number(cell: &Value) -> f64 {
    cell.as_f64()
        .unwrap_or_else(|| panic!("{cell} is not a number"))
}

#[test]
fn gaps_on_random_text_matches_theory_within_two_percent() {
    let dir = temp_dir();
    let corpus = dir.path().join("corpus");
    std::fs::create_dir_all(corpus.join("nested")).unwrap();
    let mut rng = Rng(5);
    for i in 0..4 {
        let folder = if i % 2 == 0 {
            &corpus
        } else {
            &corpus.join("nested")
        };
        std::fs::write(
            folder.join(format!("{i}.txt")),
            random_letters(&mut rng, 300_000),
        )
        .unwrap();
    }
    let (stdout, tables) = run_json(&["gaps", "--random-mib", "1"], &[&corpus], dir.path());
    assert!(
        stdout.contains("Figure 3 (winnowing): the corpus"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Corpus: 4 documents"),
        "folders are walked: {stdout}"
    );
    let selectors = table(&tables, "Density, longest run");
    for label in [
        "winnow",
        "robust-winnow",
        "mod-p (p = 50)",
        "safe-mod-p (p = 22)",
    ] {
        let cells = row(selectors, label);
        let expected = number(&cells[3]);
        for (column, what) in [(1, "corpus"), (2, "random text")] {
            let measured = number(&cells[column]);
            assert!(
                (measured / expected - 1.0).abs() < 0.02,
                "{label} on {what}: {measured} against {expected}"
            );
        }
    }
    // 0 mod p misses about 13 % of windows; winnowing none.
    assert!((number(&row(selectors, "mod-p (p = 50)")[6]) - 0.133).abs() < 0.02);
    assert!(number(&row(selectors, "winnow")[6]).abs() < f64::EPSILON);
}

#[test]
fn a_missing_corpus_is_an_error_naming_it() {
    copyhound()
        .args(["experiment", "gaps", "/no/such/corpus"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("/no/such/corpus"));
}

/// Thirty pages of prose, each with the same menu line and a few with the
/// same disclaimer, so that frequencies vary.
fn web_like_corpus(dir: &Path) -> PathBuf {
    let corpus = dir.join("pages");
    std::fs::create_dir_all(&corpus).unwrap();
    let mut rng = Rng(9);
    for i in 0..30 {
        let mut page = String::from("Home News Sport Weather English Spanish German French\n");
        page.push_str(&prose(&mut rng, 400));
        if i % 3 == 0 {
            page.push_str("\nThis page is provided as is without warranty of any kind.\n");
        }
        std::fs::write(corpus.join(format!("page-{i:02}.txt")), page).unwrap();
    }
    corpus
}

#[test]
fn zipf_prints_the_frequency_table_and_writes_the_figure() {
    let dir = temp_dir();
    let corpus = web_like_corpus(dir.path());
    let svg = dir.path().join("figure-4.svg");
    let output = copyhound()
        .args(["experiment", "zipf", "-k", "20", "-w", "10", "--svg"])
        .arg(&svg)
        .arg(&corpus)
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("Figure 4 (winnowing): frequency by rank"),
        "{stdout}"
    );
    // The menu line's k-grams occur on all 30 pages.
    let top = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("1 "))
        .unwrap();
    assert!(top.contains(" 30 "), "{top}");
    let drawing = std::fs::read_to_string(&svg).unwrap();
    assert!(drawing.starts_with("<svg"), "{}", &drawing[..80]);
    assert!(
        drawing.contains("fingerprints: fit, slope"),
        "the fitted line's legend"
    );
}

#[test]
fn koala_runs_every_table_on_a_small_collection() {
    let dir = temp_dir();
    let corpus = dir.path().join("texts");
    std::fs::create_dir_all(&corpus).unwrap();
    let mut rng = Rng(3);
    for i in 0..16 {
        std::fs::write(corpus.join(format!("{i:02}.txt")), prose(&mut rng, 700)).unwrap();
    }
    let (stdout, tables) = run_json(
        &[
            "koala",
            "--per-relation",
            "1",
            "--generate",
            "4",
            "--generated-words",
            "500",
            "--noise-documents",
            "3",
        ],
        &[&corpus],
        dir.path(),
    );
    for title in [
        "Table 1",
        "Table 2",
        "Table 3",
        "Table 4",
        "Table 5",
        "Table 6",
        "Table 7",
        "Koala §5",
    ] {
        assert!(stdout.contains(title), "{title} missing:\n{stdout}");
    }
    // 16 corpus texts, 4 generated, 6 planted: each finds itself.
    let measured = row(table(&tables, "Table 1"), "measured");
    assert!(number(&measured[7]) >= 26.0, "{measured:?}");
    let identical = row(table(&tables, "Planted relationships"), "identical");
    assert_eq!(identical[3], 1, "{identical:?}");
}

#[test]
fn sketch_stays_within_its_bound_where_winnowing_does_not() {
    let dir = temp_dir();
    let (stdout, tables) = run_json(
        &[
            "sketch", "--sizes", "20000", "--trials", "20", "--total", "500",
        ],
        &[],
        dir.path(),
    );
    assert!(stdout.contains("Detection of a shared run"), "{stdout}");
    let space = table(&tables, "Fingerprints per document");
    let crafted = row(space, "crafted: decreasing hashes");
    let (winnow, robust, sketch, bound) = (
        number(&crafted[2]),
        number(&crafted[3]),
        number(&crafted[6]),
        number(&crafted[7]),
    );
    assert!(winnow > bound && robust > bound, "{crafted:?}");
    assert!(sketch <= bound && bound <= 500.0, "{crafted:?}");
}

/// Renders `url` headless into a PNG screenshot of 900 × 640 pixels.
fn screenshot(browser: &Path, url: &str, png: &Path, profile: &Path) {
    let mut child = Process::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--window-size=900,640",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(url)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(90) {
            child.kill().ok();
            child.wait().ok();
            panic!("chromium did not finish rendering {url}");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "chromium failed on {url}: {status}");
}

/// The RGB pixels of a PNG file.
fn pixels(png: &Path) -> Vec<[u8; 3]> {
    let file = std::io::BufReader::new(std::fs::File::open(png).unwrap());
    let mut reader = png::Decoder::new(file).read_info().unwrap();
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut buffer).unwrap();
    let channels = frame.color_type.samples();
    assert_eq!(frame.bit_depth, png::BitDepth::Eight);
    buffer[..frame.buffer_size()]
        .chunks(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect()
}

#[test]
fn the_figure_renders_in_headless_chromium() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = temp_dir();
    let corpus = web_like_corpus(dir.path());
    let svg = dir.path().join("figure-4.svg");
    copyhound()
        .args(["experiment", "zipf", "-k", "20", "-w", "10", "--svg"])
        .arg(&svg)
        .arg(&corpus)
        .assert()
        .success();
    let png = dir.path().join("figure-4.png");
    screenshot(
        &browser,
        &format!("file://{}", svg.display()),
        &png,
        &dir.path().join("chromium-profile"),
    );
    let pixels = pixels(&png);
    assert_eq!(pixels.len(), 900 * 640, "the window size");
    let share = |test: &dyn Fn(&[u8; 3]) -> bool| {
        pixels.iter().filter(|p| test(p)).count() as f64 / pixels.len() as f64
    };
    // Axes, labels and points: a drawing, not a blank page.
    let inked = share(&|p| p.iter().any(|&c| c < 200));
    assert!(
        inked > 0.01,
        "only {:.3} % of the screenshot is drawn",
        inked * 100.0
    );
    // Both populations are drawn in their colours: blue (all hashes) and
    // orange (fingerprints).
    let blue = share(&|p| p[2] > p[0].saturating_add(80));
    let orange = share(&|p| p[0] > p[2].saturating_add(80));
    assert!(
        blue > 0.0005 && orange > 0.0005,
        "blue {blue}, orange {orange}"
    );
}
