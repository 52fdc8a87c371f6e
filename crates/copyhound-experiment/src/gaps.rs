//! `experiment gaps`: winnowing's Figure 3 and §5.1 on a real corpus —
//! density and the longest run with no fingerprint for winnowing, robust
//! winnowing, 0 mod p and safe 0 mod p; the share of windows 0 mod p
//! leaves empty at winnowing's density (§3.1.1, ≈ 13.5 %); safe 0 mod p's
//! density against (1 + ln w)/w (§3.1.2); and the low-entropy strings of
//! §5.1 ("000…", "abbaabba…", sensor-like data).
//!
//! Each document is hashed on its own (the paper's hash count, text bytes
//! minus 49, shows it hashed its 500,000 pages as one stream), so a run
//! with no fingerprint never crosses a document boundary, but a document
//! with none counts whole.

use copyhound_fingerprint::{KGramHasher, KGrams, ModP, SafeModP, Selector, Symbol, Winnowing};
use rayon::prelude::*;

use crate::Corpus;
use crate::generate::{random_text, repeated, sensor_data};
use crate::measure::Coverage;
use crate::report::{Cell, Report, Table};
use crate::winnow::WinnowSettings;

/// Settings of the gaps experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GapsSettings {
    /// k, w and the seed of the hash and of the generated inputs.
    pub winnow: WinnowSettings,
    /// Size of the random text measured beside the corpus, in symbols.
    pub random_symbols: usize,
    /// Size of each low-entropy input, in symbols.
    pub low_entropy_symbols: usize,
}

impl Default for GapsSettings {
    fn default() -> Self {
        Self {
            winnow: WinnowSettings::PAPER,
            random_symbols: 1 << 20,
            low_entropy_symbols: 1 << 20,
        }
    }
}

/// The four selectors of Figure 3 and §3.1.1–3.1.2, with what theory
/// expects of each on random input.
struct Contender {
    label: String,
    selector: Box<dyn Selector>,
    /// Expected density on random input.
    density: f64,
    /// Expected share of windows with no fingerprint on random input.
    missed: f64,
}

fn contenders(w: usize) -> Vec<Contender> {
    let wf = w as f64;
    // 0 mod p at winnowing's density: p = (w + 1)/2, 50 for w = 100 as in
    // the paper.
    let p = (w as u64).div_ceil(2).max(1);
    let safe = SafeModP::optimal(w);
    let safe_share = 1.0 / safe.p() as f64;
    vec![
        Contender {
            label: "winnow".into(),
            selector: Box::new(Winnowing::new(w)),
            density: 2.0 / (wf + 1.0),
            missed: 0.0,
        },
        Contender {
            label: "robust-winnow".into(),
            selector: Box::new(Winnowing::robust(w)),
            density: 2.0 / (wf + 1.0),
            missed: 0.0,
        },
        Contender {
            label: format!("mod-p (p = {p})"),
            selector: Box::new(ModP::new(p)),
            density: 1.0 / p as f64,
            missed: (1.0 - 1.0 / p as f64).powf(wf),
        },
        Contender {
            label: format!("safe-mod-p (p = {})", safe.p()),
            selector: Box::new(safe),
            // Good hashes plus Bad ones (§3.1.2, before the e^x
            // approximation).
            density: safe_share + (1.0 - safe_share).powf(wf),
            missed: 0.0,
        },
    ]
}

/// The coverage of each contender over `documents` (symbol sequences),
/// documents hashed in parallel.
fn measure<'a>(
    documents: impl IntoParallelIterator<Item = &'a [Symbol]>,
    hasher: &KGramHasher,
    contenders: &[Contender],
    w: usize,
) -> Vec<Coverage> {
    documents
        .into_par_iter()
        .map(|symbols| {
            let hashes = hasher.hashes(symbols);
            let kgrams = KGrams::new(symbols, &hashes, hasher.k());
            contenders
                .iter()
                .map(|c| {
                    let mut fps = Vec::new();
                    c.selector.select(&kgrams, &mut fps);
                    let mut coverage = Coverage::default();
                    coverage.add(&fps, hashes.len(), w);
                    coverage
                })
                .collect::<Vec<_>>()
        })
        .reduce(
            || vec![Coverage::default(); contenders.len()],
            |a, b| a.iter().zip(&b).map(|(x, y)| x.merge(y)).collect(),
        )
}

/// Runs the gaps experiment on `corpus`.
pub fn gaps(corpus: &Corpus, settings: &GapsSettings) -> Report {
    let (hasher, w) = settings.winnow.hasher_and_window();
    let (k, seed) = (hasher.k(), settings.winnow.seed);
    let contenders = contenders(w);
    let on_corpus = measure(
        corpus
            .documents
            .par_iter()
            .map(|d| d.doc.symbols.as_slice()),
        &hasher,
        &contenders,
        w,
    );
    let random = random_text(settings.random_symbols, seed);
    let on_random = measure([random.as_slice()], &hasher, &contenders, w);

    let mut report = Report::new("gaps");
    report.preamble.push(corpus.describe());
    report.preamble.push(format!(
        "k = {k}, w = {w} (guarantee t = w + k - 1 = {}), seed = {}; random text: {} symbols.",
        w + k - 1,
        seed,
        settings.random_symbols
    ));
    report.tables.push(figure_3(
        corpus,
        &contenders,
        &on_corpus,
        k == 50 && w == 100,
    ));
    report
        .tables
        .push(selectors_table(&contenders, &on_corpus, &on_random, w));
    report
        .tables
        .push(low_entropy(&hasher, &contenders, settings));
    report
}

/// Figure 3 laid out as in the paper: one quantity per row.
fn figure_3(
    corpus: &Corpus,
    contenders: &[Contender],
    coverage: &[Coverage],
    paper_setting: bool,
) -> Table {
    let mut table = Table::new(
        "Figure 3 (winnowing): the corpus",
        &["quantity", "measured", "paper (500,000 HTML pages)"],
    );
    let paper = |value: u64| {
        if paper_setting {
            Cell::Count(value)
        } else {
            Cell::Missing
        }
    };
    let paper_number = |value: f64| Cell::number_or_missing(paper_setting.then_some(value), 6);
    let (winnow, robust, modp, safe) = (&coverage[0], &coverage[1], &coverage[2], &coverage[3]);
    let rows: Vec<(String, Cell, Cell)> = vec![
        (
            "total bytes".into(),
            corpus.file_bytes().into(),
            paper(7_182_692_852),
        ),
        (
            "text symbols".into(),
            corpus.symbols().into(),
            paper(1_940_576_448),
        ),
        (
            "hashes computed".into(),
            winnow.kgrams.into(),
            paper(1_940_576_399),
        ),
        (
            "winnowing fingerprints".into(),
            winnow.fingerprints.into(),
            paper(38_530_846),
        ),
        (
            "measured density".into(),
            Cell::number(winnow.density(), 6),
            paper_number(0.019_855),
        ),
        (
            "expected density".into(),
            Cell::number(contenders[0].density, 6),
            paper_number(0.019_802),
        ),
        (
            "robust winnowing fingerprints".into(),
            robust.fingerprints.into(),
            Cell::Missing,
        ),
        (
            "measured density".into(),
            Cell::number(robust.density(), 6),
            paper_number(0.019_829),
        ),
        (
            format!("fingerprints for {}", contenders[2].label),
            modp.fingerprints.into(),
            paper(38_761_128),
        ),
        (
            "measured density".into(),
            Cell::number(modp.density(), 6),
            paper_number(0.019_974),
        ),
        (
            "expected density".into(),
            Cell::number(contenders[2].density, 6),
            paper_number(0.020_000),
        ),
        (
            "longest run with no fingerprint (k-grams)".into(),
            modp.longest_run.into(),
            paper(29_983),
        ),
        (
            format!("fingerprints for {}", contenders[3].label),
            safe.fingerprints.into(),
            Cell::Missing,
        ),
        (
            "measured density".into(),
            Cell::number(safe.density(), 6),
            Cell::Missing,
        ),
    ];
    for (quantity, measured, paper) in rows {
        table.push(vec![quantity.into(), measured, paper]);
    }
    table.note("The paper's rows are for k = 50, w = 100 and 0 mod 50; 'text symbols' are its 'text bytes' (non-whitespace, non-tag characters).");
    table
}

/// Every contender on the corpus and on random text: density, longest run
/// and share of windows with no fingerprint, against theory.
fn selectors_table(
    contenders: &[Contender],
    on_corpus: &[Coverage],
    on_random: &[Coverage],
    w: usize,
) -> Table {
    let mut table = Table::new(
        "Density, longest run and windows with no fingerprint (winnowing §3.1, §3.1.1–3.1.2, §5.1)",
        &[
            "selector",
            "density",
            "random text",
            "expected",
            "longest run",
            "on random",
            "windows missed",
            "on random",
            "expected",
        ],
    );
    for (i, c) in contenders.iter().enumerate() {
        table.push(vec![
            c.label.clone().into(),
            Cell::number(on_corpus[i].density(), 6),
            Cell::number(on_random[i].density(), 6),
            Cell::number(c.density, 6),
            on_corpus[i].longest_run.into(),
            on_random[i].longest_run.into(),
            Cell::share(on_corpus[i].missed_share(), 2),
            Cell::share(on_random[i].missed_share(), 2),
            Cell::share(c.missed, 2),
        ]);
    }
    let wf = w as f64;
    table.note(format!(
        "Windows missed: windows of w = {w} consecutive k-grams holding no fingerprint. §3.1.1 gives (1 - 2/(w+1))^w ~ e^-2 = {:.1} % for 0 mod p at winnowing's density; with p = {} exactly, (1 - 1/p)^w = {:.1} %.",
        100.0 * (1.0 - 2.0 / (wf + 1.0)).powf(wf),
        w.div_ceil(2),
        100.0 * contenders[2].missed
    ));
    table.note(format!(
        "Safe 0 mod p: (1 + ln w)/w = {:.6} at the optimal P0 = ln w / w (§3.1.2, through (1 - P)^w ~ e^-wP; 'expected' is the exact 1/p + (1 - 1/p)^w), against winnowing's 2/(w+1) = {:.6}.",
        (1.0 + wf.ln()) / wf,
        2.0 / (wf + 1.0)
    ));
    table
}

/// §5.1's low-entropy strings and sensor-like data next to random text.
fn low_entropy(hasher: &KGramHasher, contenders: &[Contender], settings: &GapsSettings) -> Table {
    let len = settings.low_entropy_symbols;
    let (w, seed) = (settings.winnow.w.max(1), settings.winnow.seed);
    let mut table = Table::new(
        format!("Low-entropy input (winnowing §5.1), {len} symbols each"),
        &[
            "input",
            "winnow",
            "robust-winnow",
            "mod-p",
            "mod-p longest run",
            "safe-mod-p",
        ],
    );
    let inputs = [
        ("\"000…\"", repeated("0", len)),
        ("\"abbaabba…\"", repeated("abba", len)),
        ("sensor-like (1 in 200 odd)", sensor_data(len, seed)),
        ("random text", random_text(len, seed ^ 1)),
    ];
    for (name, symbols) in &inputs {
        let coverage = measure([symbols.as_slice()], hasher, contenders, w);
        table.push(vec![
            (*name).into(),
            Cell::number(coverage[0].density(), 6),
            Cell::number(coverage[1].density(), 6),
            Cell::number(coverage[2].density(), 6),
            coverage[2].longest_run.into(),
            Cell::number(coverage[3].density(), 6),
        ]);
    }
    table.note(format!(
        "§5.1: plain winnowing selects nearly every hash of \"000…\", robust winnowing 1/w = {:.6}; 0 mod p selects all or nothing of a string with few distinct k-grams.",
        1.0 / w as f64
    ));
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Corpus, Document};
    use copyhound_fingerprint::{NormalizedDocument, Span};
    use copyhound_normalize::DocumentKind;

    fn random_corpus(documents: usize, len: usize) -> Corpus {
        Corpus {
            documents: (0..documents)
                .map(|i| {
                    let symbols = random_text(len, 100 + i as u64);
                    Document {
                        path: format!("random-{i}.txt").into(),
                        file_bytes: len as u64,
                        kind: DocumentKind::Text,
                        text: String::new(),
                        doc: NormalizedDocument {
                            spans: vec![Span::default(); symbols.len()],
                            symbols,
                        },
                    }
                })
                .collect(),
            ..Corpus::default()
        }
    }

    fn value(table: &Table, row: &str, column: usize) -> f64 {
        table.row(row).unwrap_or_else(|| panic!("no row {row}"))[column]
            .value()
            .unwrap()
    }

    #[test]
    fn densities_on_random_text_are_within_two_percent_of_theory() {
        let settings = GapsSettings {
            random_symbols: 1 << 20,
            low_entropy_symbols: 1 << 16,
            ..GapsSettings::default()
        };
        let report = gaps(&random_corpus(4, 1 << 18), &settings);
        let table = report.table("Density, longest run").unwrap();
        for row in [
            "winnow",
            "robust-winnow",
            "mod-p (p = 50)",
            "safe-mod-p (p = 22)",
        ] {
            let expected = value(table, row, 3);
            for column in [1, 2] {
                let measured = value(table, row, column);
                assert!(
                    (measured / expected - 1.0).abs() < 0.02,
                    "{row}, column {column}: {measured} against {expected}"
                );
            }
        }
        // Winnowing and safe 0 mod p never leave a window empty; 0 mod p at
        // the same density leaves about (1 - 1/50)^100 = 13.3 % of them.
        for row in ["winnow", "robust-winnow", "safe-mod-p (p = 22)"] {
            assert!(value(table, row, 4) < 100.0, "{row}: runs below w");
            assert!(value(table, row, 6).abs() < f64::EPSILON);
        }
        let missed = value(table, "mod-p (p = 50)", 7);
        assert!((missed - 0.1326).abs() < 0.01, "{missed}");
    }

    #[test]
    fn low_entropy_inputs_show_section_5_1() {
        let settings = GapsSettings {
            random_symbols: 1 << 12,
            low_entropy_symbols: 1 << 16,
            ..GapsSettings::default()
        };
        let report = gaps(&random_corpus(1, 1 << 12), &settings);
        let table = report.table("Low-entropy input").unwrap();
        let zeros = table.row("\"000…\"").unwrap();
        // Plain winnowing keeps nearly everything, robust winnowing 1/w.
        assert!(zeros[1].value().unwrap() > 0.99);
        assert!((zeros[2].value().unwrap() - 0.01).abs() < 0.0005);
        // One distinct k-gram: 0 mod p takes all of it or none.
        let modp = zeros[3].value().unwrap();
        assert!(!(f64::EPSILON..=0.99).contains(&modp), "{modp}");
        let sensor = table.row("sensor-like (1 in 200 odd)").unwrap();
        assert!(sensor[1].value().unwrap() > sensor[2].value().unwrap());
    }
}
