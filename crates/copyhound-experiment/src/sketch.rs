//! `experiment sketch`: Ganguly and Veda's claims, measured.
//!
//! 1. **Space.** Winnowing keeps about 2m/(W+1) fingerprints on random
//!    text, but low-entropy text (plain winnowing) and a hash sequence
//!    crafted by someone who knows the key (both variants) push it toward
//!    m; the sketch stays within a bound fixed in advance (§II, §IV.E), and
//!    the one-total-size variant of §V within S whatever m is.
//! 2. **Detection.** A run of W k-grams shared by two documents shares a
//!    fingerprint with probability at least 1 − δ. Pairs of random
//!    documents with one planted shared run are sketched, for the paper's
//!    two-pass plan (s = ⌈(m/√W)·√ln(1/δ)⌉, §IV.E with constant 1) and for
//!    the total-size variant at the smallest S whose plan promises δ.

use std::collections::HashSet;

use copyhound_fingerprint::{
    Fingerprint, KGramHasher, Selector, Sketch, SketchBudget, SketchParams, Symbol, Winnowing,
};
use rayon::prelude::*;

use crate::generate::{Rng, decreasing_hashes, random_text, repeated};
use crate::measure::{fingerprints, select_hashes};
use crate::report::{Cell, Report, Table};
use crate::{Corpus, ExperimentError};

/// Settings of the sketch experiment.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct SketchSettings {
    /// k-gram length.
    #[cfg_attr(feature = "clap", arg(short, long, default_value_t = SketchSettings::default().k))]
    pub k: usize,
    /// W, the guarantee window in k-grams (and winnowing's window).
    #[cfg_attr(feature = "clap", arg(short = 'W', long, default_value_t = SketchSettings::default().window))]
    pub window: usize,
    /// S of the one-total-size variant (§V) in the space table.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = SketchSettings::default().total))]
    pub total: usize,
    /// δ of the two-pass plan in the space table.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = SketchSettings::default().delta))]
    pub delta: f64,
    /// Sizes of the generated inputs of the space table, in symbols.
    #[cfg_attr(feature = "clap", arg(long, value_delimiter = ',', default_values_t = SketchSettings::default().sizes))]
    pub sizes: Vec<usize>,
    /// The δ values of the detection table.
    #[cfg_attr(feature = "clap", arg(skip = SketchSettings::default().deltas))]
    pub deltas: Vec<f64>,
    /// The total sizes of the detection-by-S table.
    #[cfg_attr(feature = "clap", arg(skip = SketchSettings::default().totals))]
    pub totals: Vec<usize>,
    /// Planted pairs per row of the detection tables.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = SketchSettings::default().trials))]
    pub trials: usize,
    /// Length of each document of a planted pair, in symbols.
    #[cfg_attr(feature = "clap", arg(skip = SketchSettings::default().document_symbols))]
    pub document_symbols: usize,
    /// Seed of the hash, the sketch and the generated inputs.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = SketchSettings::default().seed))]
    pub seed: u64,
}

impl SketchSettings {
    /// The larger sweep: inputs of 10 thousand to 10 million symbols in
    /// the space table, and 1000 planted pairs per row.
    #[must_use]
    pub fn full(self) -> Self {
        Self {
            sizes: vec![10_000, 100_000, 1_000_000, 10_000_000],
            trials: 1000,
            ..self
        }
    }
}

impl Default for SketchSettings {
    fn default() -> Self {
        Self {
            k: 20,
            window: 100,
            total: 1000,
            delta: 0.05,
            sizes: vec![10_000, 100_000, 1_000_000],
            deltas: vec![0.5, 0.2, 0.1, 0.05, 0.01],
            totals: vec![50, 100, 200, 400, 800],
            trials: 200,
            document_symbols: 20_000,
            seed: 2003,
        }
    }
}

/// What the space table compares for one input.
struct Sizes {
    winnow: u64,
    robust: u64,
    two_pass: u64,
    two_pass_bound: u64,
    total: u64,
    total_bound: u64,
}

/// Runs the sketch experiment; `corpus` (possibly empty) adds a row of
/// real documents to the space table. A k or W of 0 counts as 1.
pub fn sketch(corpus: &Corpus, settings: &SketchSettings) -> Result<Report, ExperimentError> {
    let settings = &SketchSettings {
        k: settings.k.max(1),
        window: settings.window.max(1),
        ..settings.clone()
    };
    if !(settings.delta > 0.0 && settings.delta < 1.0) {
        return Err(ExperimentError::setting(
            "delta",
            format!("must be strictly between 0 and 1, not {}", settings.delta),
        ));
    }
    let mut report = Report::new("sketch");
    if !corpus.documents.is_empty() {
        report.preamble.push(corpus.describe());
    }
    report.preamble.push(format!(
        "k = {}, W = {} k-grams (winnowing's window; a run of W + k - 1 = {} symbols), seed = {}.",
        settings.k,
        settings.window,
        settings.window + settings.k - 1,
        settings.seed
    ));
    report.tables.push(space_table(corpus, settings));
    report.tables.push(detection_by_delta(settings));
    report.tables.push(detection_by_total(settings));
    Ok(report)
}

/// The paper's sample size for m k-grams: s = ⌈(m/√W)·√ln(1/δ)⌉.
fn paper_sample_size(kgrams: usize, window: usize, delta: f64) -> usize {
    ((kgrams as f64 / (window as f64).sqrt()) * (1.0 / delta).ln().sqrt()).ceil() as usize
}

fn two_pass(settings: &SketchSettings, delta: f64, kgrams: usize) -> Sketch {
    Sketch::new(SketchParams {
        window: settings.window,
        delta,
        budget: SketchBudget::SampleSize(paper_sample_size(kgrams, settings.window, delta).max(1)),
        seed: settings.seed,
        ..SketchParams::default()
    })
}

fn total_size(settings: &SketchSettings, total: usize) -> Sketch {
    Sketch::with_total_size(
        total,
        SketchParams {
            window: settings.window,
            seed: settings.seed,
            ..SketchParams::default()
        },
    )
}

/// Counts of every selector on one hash sequence (given as symbols, or as
/// bare hashes for the crafted input).
fn sizes_of(settings: &SketchSettings, hasher: &KGramHasher, input: &Input<'_>) -> Sizes {
    let kgrams = match input {
        Input::Symbols(symbols) => hasher.kgram_count(symbols.len()),
        Input::Hashes(hashes) => hashes.len(),
    };
    let run = |selector: &dyn Selector| -> u64 {
        match input {
            Input::Symbols(symbols) => fingerprints(selector, hasher, symbols).len() as u64,
            Input::Hashes(hashes) => select_hashes(selector, hashes).len() as u64,
        }
    };
    let paper = two_pass(settings, settings.delta, kgrams);
    let bounded = total_size(settings, settings.total);
    Sizes {
        winnow: run(&Winnowing::new(settings.window)),
        robust: run(&Winnowing::robust(settings.window)),
        two_pass: run(&paper),
        two_pass_bound: paper.max_items(kgrams) as u64,
        total: run(&bounded),
        total_bound: bounded.max_items(kgrams) as u64,
    }
}

enum Input<'a> {
    Symbols(&'a [Symbol]),
    Hashes(&'a [u64]),
}

fn space_table(corpus: &Corpus, settings: &SketchSettings) -> Table {
    let hasher = KGramHasher::new(settings.k, settings.seed);
    let mut table = Table::new(
        "Fingerprints per document: winnowing against the sketch (Ganguly–Veda §II, §IV.E, §V)",
        &[
            "input",
            "k-grams",
            "winnow",
            "robust-winnow",
            "two-pass sketch",
            "its bound",
            "total-S sketch",
            "its bound",
        ],
    );
    let mut rows: Vec<(String, usize, Sizes)> = Vec::new();
    for &len in &settings.sizes {
        let kgrams = hasher.kgram_count(len);
        let inputs: [(&str, Vec<Symbol>); 4] = [
            ("random text", random_text(len, settings.seed ^ len as u64)),
            ("\"000…\"", repeated("0", len)),
            ("\"abab…\"", repeated("ab", len)),
            ("period-37 text", (0..len as u32).map(|i| i % 37).collect()),
        ];
        for (name, symbols) in &inputs {
            let sizes = sizes_of(settings, &hasher, &Input::Symbols(symbols));
            rows.push(((*name).to_owned(), kgrams, sizes));
        }
        let crafted = decreasing_hashes(kgrams);
        let sizes = sizes_of(settings, &hasher, &Input::Hashes(&crafted));
        rows.push(("crafted: decreasing hashes".to_owned(), kgrams, sizes));
    }
    if !corpus.documents.is_empty() {
        let per_document: Vec<(usize, Sizes)> = corpus
            .documents
            .par_iter()
            .map(|d| {
                let symbols = d.doc.symbols.as_slice();
                (
                    hasher.kgram_count(symbols.len()),
                    sizes_of(settings, &hasher, &Input::Symbols(symbols)),
                )
            })
            .collect();
        let sum = |f: fn(&Sizes) -> u64| per_document.iter().map(|(_, s)| f(s)).sum::<u64>();
        let sizes = Sizes {
            winnow: sum(|s| s.winnow),
            robust: sum(|s| s.robust),
            two_pass: sum(|s| s.two_pass),
            two_pass_bound: sum(|s| s.two_pass_bound),
            total: sum(|s| s.total),
            total_bound: sum(|s| s.total_bound),
        };
        let kgrams = per_document.iter().map(|(m, _)| m).sum();
        rows.push((
            format!("corpus, {} documents (sums)", corpus.documents.len()),
            kgrams,
            sizes,
        ));
    }
    for (name, kgrams, s) in rows {
        table.push(vec![
            name.into(),
            kgrams.into(),
            s.winnow.into(),
            s.robust.into(),
            s.two_pass.into(),
            s.two_pass_bound.into(),
            s.total.into(),
            s.total_bound.into(),
        ]);
    }
    table.note(format!(
        "Two-pass: the paper's plan with s = ceil((m/sqrt W) * sqrt ln(1/delta)), delta = {}; its bound s + m/L + sum |partition|/k grows with m (O(m/sqrt W)). Total-S: §V's variant with S = {}.",
        settings.delta, settings.total
    ));
    table.note("Crafted: strictly decreasing hashes, as written by someone who knows the key; every window's minimum is new, so winnowing keeps every k-gram after the first window.");
    table
}

/// A planted pair: two random documents sharing one run of W k-grams
/// (W + k − 1 symbols) at random places; where the run's k-grams start.
struct PlantedPair {
    a: Vec<Symbol>,
    b: Vec<Symbol>,
    a_start: usize,
    b_start: usize,
}

fn planted_pair(settings: &SketchSettings, trial: usize) -> PlantedPair {
    let seed = settings.seed ^ (trial as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let run_len = settings.window + settings.k - 1;
    let len = settings.document_symbols.max(run_len);
    let mut a = random_text(len, seed ^ 1);
    let mut b = random_text(len, seed ^ 2);
    let run = random_text(run_len, seed ^ 3);
    let mut rng = Rng::new(seed);
    let a_start = rng.below(len - run_len + 1);
    let b_start = rng.below(len - run_len + 1);
    a[a_start..a_start + run_len].copy_from_slice(&run);
    b[b_start..b_start + run_len].copy_from_slice(&run);
    PlantedPair {
        a,
        b,
        a_start,
        b_start,
    }
}

/// Whether the two selections share a hash inside the planted run on both
/// sides.
fn detects(pair: &PlantedPair, a: &[Fingerprint], b: &[Fingerprint], window: usize) -> bool {
    let inside =
        |f: &Fingerprint, start: usize| (start..start + window).contains(&(f.pos as usize));
    let in_a: HashSet<u64> = a
        .iter()
        .filter(|f| inside(f, pair.a_start))
        .map(|f| f.hash)
        .collect();
    b.iter()
        .any(|f| inside(f, pair.b_start) && in_a.contains(&f.hash))
}

/// Over `settings.trials` planted pairs: the share detected and the mean
/// number of fingerprints per document.
fn detection_rate(settings: &SketchSettings, selector: &dyn Selector) -> (f64, f64) {
    let hasher = KGramHasher::new(settings.k, settings.seed);
    let (found, kept) = (0..settings.trials)
        .into_par_iter()
        .map(|trial| {
            let pair = planted_pair(settings, trial);
            let a = fingerprints(selector, &hasher, &pair.a);
            let b = fingerprints(selector, &hasher, &pair.b);
            (
                u64::from(detects(&pair, &a, &b, settings.window)),
                (a.len() + b.len()) as u64,
            )
        })
        .reduce(|| (0, 0), |x, y| (x.0 + y.0, x.1 + y.1));
    let trials = settings.trials.max(1) as f64;
    (found as f64 / trials, kept as f64 / (2.0 * trials))
}

/// The smallest total size whose plan for `kgrams` k-grams promises a miss
/// probability of at most `delta`.
fn smallest_total_for(settings: &SketchSettings, kgrams: usize, delta: f64) -> usize {
    let promises =
        |total: usize| total_size(settings, total).plan(kgrams).miss_probability() <= delta;
    let mut high = 8;
    while !promises(high) {
        high *= 2;
    }
    let mut low = high / 2;
    while high - low > 1 {
        let mid = low.midpoint(high);
        if promises(mid) {
            high = mid;
        } else {
            low = mid;
        }
    }
    high
}

fn detection_by_delta(settings: &SketchSettings) -> Table {
    let hasher = KGramHasher::new(settings.k, settings.seed);
    let kgrams = hasher.kgram_count(settings.document_symbols);
    let mut table = Table::new(
        format!(
            "Detection of a shared run of W k-grams against delta (Ganguly–Veda guarantee), {} planted pairs of {} symbols per row",
            settings.trials, settings.document_symbols
        ),
        &[
            "delta",
            "1 - delta",
            "s",
            "fingerprints",
            "detected",
            "S",
            "fingerprints",
            "planned miss",
            "detected",
        ],
    );
    for &delta in &settings.deltas {
        let paper = two_pass(settings, delta, kgrams);
        let (paper_rate, paper_kept) = detection_rate(settings, &paper);
        let total = smallest_total_for(settings, kgrams, delta);
        let bounded = total_size(settings, total);
        let (bounded_rate, bounded_kept) = detection_rate(settings, &bounded);
        table.push(vec![
            Cell::number(delta, 2),
            Cell::share(1.0 - delta, 1),
            paper_sample_size(kgrams, settings.window, delta).into(),
            Cell::number(paper_kept, 1),
            Cell::share(paper_rate, 1),
            total.into(),
            Cell::number(bounded_kept, 1),
            Cell::share(bounded.plan(kgrams).miss_probability(), 2),
            Cell::share(bounded_rate, 1),
        ]);
    }
    let (winnow_rate, winnow_kept) = detection_rate(settings, &Winnowing::robust(settings.window));
    table.note(format!(
        "Two-pass: s from §IV.E; total-S: the smallest S whose plan's miss bound is at most delta. Robust winnowing (w = W) detects {:.1} % with {winnow_kept:.1} fingerprints per document (its guarantee is deterministic).",
        100.0 * winnow_rate
    ));
    table
}

fn detection_by_total(settings: &SketchSettings) -> Table {
    let hasher = KGramHasher::new(settings.k, settings.seed);
    let kgrams = hasher.kgram_count(settings.document_symbols);
    let mut table = Table::new(
        "Detection against the total size S (Ganguly–Veda §V): what the plan promises and what happens",
        &["S", "fingerprints", "planned detection", "detected"],
    );
    for &total in &settings.totals {
        let bounded = total_size(settings, total);
        let (rate, kept) = detection_rate(settings, &bounded);
        table.push(vec![
            total.into(),
            Cell::number(kept, 1),
            Cell::share(1.0 - bounded.plan(kgrams).miss_probability(), 1),
            Cell::share(rate, 1),
        ]);
    }
    table.note("The planned detection is 1 - exp(-(p/2)·W/k), a lower bound: a detected share below it would refute the plan.");
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> SketchSettings {
        SketchSettings {
            sizes: vec![50_000],
            deltas: vec![0.2, 0.05],
            totals: vec![50, 400],
            trials: 40,
            document_symbols: 8_000,
            ..SketchSettings::default()
        }
    }

    #[test]
    fn on_crafted_input_winnowing_exceeds_the_bound_the_sketch_keeps() {
        let report = sketch(&Corpus::default(), &small()).unwrap();
        let table = report.table("Fingerprints per document").unwrap();
        let crafted = table.row("crafted: decreasing hashes").unwrap();
        let value = |i: usize| crafted[i].value().unwrap();
        // Winnowing keeps every k-gram but the first window's others; the
        // total-S sketch stays within S.
        assert!((value(2) - (value(1) - 99.0)).abs() < f64::EPSILON);
        assert!(
            value(3) > value(7),
            "robust winnowing above the sketch's bound"
        );
        assert!(value(6) <= value(7) && value(7) <= 1000.0);
        // And on every input each sketch is within its bound.
        for row in &table.rows {
            let v = |i: usize| row[i].value().unwrap();
            assert!(v(4) <= v(5) && v(6) <= v(7), "{row:?}");
        }
        // Plain winnowing on "abab…" keeps every other k-gram.
        let abab = table.row("\"abab…\"").unwrap();
        assert!(abab[2].value().unwrap() > 0.49 * abab[1].value().unwrap());
    }

    #[test]
    fn planted_runs_are_detected_at_least_as_often_as_promised() {
        let settings = small();
        let report = sketch(&Corpus::default(), &settings).unwrap();
        let by_delta = report.table("Detection of a shared run").unwrap();
        for row in &by_delta.rows {
            let promised = row[1].value().unwrap();
            // Binomial noise over 40 trials: allow three standard errors.
            let slack = 3.0 * (promised * (1.0 - promised) / 40.0).sqrt();
            assert!(row[4].value().unwrap() >= promised - slack, "{row:?}");
            assert!(row[8].value().unwrap() >= promised - slack, "{row:?}");
        }
        let by_total = report.table("Detection against the total size").unwrap();
        let small_total = by_total.rows[0][3].value().unwrap();
        let large_total = by_total.rows[1][3].value().unwrap();
        assert!(small_total <= large_total, "{by_total:?}");
    }

    #[test]
    fn a_planted_pair_is_detected_by_winnowing_and_not_by_nothing() {
        let settings = small();
        let pair = planted_pair(&settings, 3);
        let hasher = KGramHasher::new(settings.k, settings.seed);
        let winnowing = Winnowing::robust(settings.window);
        let a = fingerprints(&winnowing, &hasher, &pair.a);
        let b = fingerprints(&winnowing, &hasher, &pair.b);
        assert!(detects(&pair, &a, &b, settings.window));
        assert!(!detects(&pair, &a, &[], settings.window));
    }
}
