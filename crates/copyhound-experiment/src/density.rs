//! `experiment density`: every selector's density on random text next to
//! theory and the winnowing paper's 8 MB run (§5.1), and plain against
//! robust winnowing on low-entropy text.

use copyhound_fingerprint::{
    All, KGramHasher, KoalaParams, KoalaSelector, ModP, SafeModP, Selector, Sketch, SketchBudget,
    SketchParams, Smallest, Winnowing,
};

use crate::generate::{random_text, repeated};
use crate::measure::{Coverage, fingerprints};
use crate::report::{Cell, Report, Table};
use crate::winnow::WinnowSettings;

/// Settings of the density experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct DensitySettings {
    /// Size of the random text, in MiB (the paper used 8 MB).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = DensitySettings::default().size_mib))]
    pub size_mib: usize,
    /// k, w and the seed of the hash and of the random text.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub winnow: WinnowSettings,
}

impl Default for DensitySettings {
    fn default() -> Self {
        Self {
            size_mib: 8,
            winnow: WinnowSettings::PAPER,
        }
    }
}

/// One row: a selector with the density the theory (or the paper) expects.
struct Row {
    selector: Box<dyn Selector>,
    label: String,
    expected: Option<f64>,
    paper: Option<f64>,
}

/// Every selector the experiment measures, with the density the theory or
/// the paper gives for it on `text_len` symbols of random text.
fn selector_rows(hasher: &KGramHasher, w: usize, seed: u64, text_len: usize) -> Vec<Row> {
    let k = hasher.k();
    let wf = w as f64;
    let kgrams = hasher.kgram_count(text_len) as f64;
    let p_winnow = (w as u64).div_ceil(2).max(1);
    let safe = SafeModP::optimal(w);
    let safe_p = 1.0 / safe.p() as f64;
    let paper_setting = k == 50 && w == 100;
    // Ganguly–Veda size the sample for the document: s = (m/√W)·√ln(1/δ)
    // (§IV.E, constant 1, δ = 0.05); a much smaller s makes every k-gram
    // "window-frequent" and the sketch degenerates to full fingerprinting.
    let sketch_sample = (kgrams / wf.sqrt() * 20f64.ln().sqrt()).ceil() as usize;
    let mut rows = vec![
        Row {
            selector: Box::new(Winnowing::new(w)),
            label: "winnow".into(),
            expected: Some(2.0 / (wf + 1.0)),
            paper: paper_setting.then_some(0.019_902),
        },
        Row {
            selector: Box::new(Winnowing::robust(w)),
            label: "robust-winnow".into(),
            expected: Some(2.0 / (wf + 1.0)),
            paper: None,
        },
        Row {
            selector: Box::new(ModP::new(50)),
            label: "mod-p (p = 50)".into(),
            expected: Some(1.0 / 50.0),
            paper: paper_setting.then_some(0.020_005),
        },
    ];
    if p_winnow != 50 {
        rows.push(Row {
            selector: Box::new(ModP::new(p_winnow)),
            label: format!("mod-p (p = {p_winnow})"),
            expected: Some(1.0 / p_winnow as f64),
            paper: None,
        });
    }
    rows.extend([
        Row {
            selector: Box::new(safe),
            label: format!("safe-mod-p (p = {})", safe.p()),
            expected: Some(safe_p + (1.0 - safe_p).powf(wf)),
            paper: None,
        },
        Row {
            selector: Box::new(All),
            label: "all".into(),
            expected: Some(1.0),
            paper: None,
        },
        Row {
            selector: Box::new(Smallest::new(1000)),
            label: "smallest (n = 1000)".into(),
            expected: Some(1000.0 / kgrams),
            paper: None,
        },
        Row {
            selector: Box::new(KoalaSelector::new(KoalaParams {
                seed,
                ..KoalaParams::default()
            })),
            label: "koala (N = 1000)".into(),
            expected: Some(1000.0 / kgrams),
            paper: None,
        },
        Row {
            selector: Box::new(Sketch::new(SketchParams {
                window: w,
                budget: SketchBudget::SampleSize(sketch_sample),
                seed,
                ..SketchParams::default()
            })),
            label: format!("sketch (s = {sketch_sample})"),
            expected: None,
            paper: None,
        },
    ]);
    rows
}

/// Runs the density experiment.
pub fn density(settings: &DensitySettings) -> Report {
    let (hasher, w) = settings.winnow.hasher_and_window();
    let (k, seed) = (hasher.k(), settings.winnow.seed);
    let text = random_text(settings.size_mib << 20, seed);
    let kgrams = hasher.kgram_count(text.len());
    let mut report = Report::new("density");
    report.preamble.push(format!(
        "Selector density on {} MiB of random text (27 symbols), k = {k}, w = {w}, seed = {}.",
        settings.size_mib, seed
    ));
    let mut table = Table::new(
        "Density on random text (winnowing §3.1, §5.1)",
        &[
            "selector",
            "selected",
            "density",
            "expected",
            "paper",
            "longest gap",
        ],
    );
    for row in selector_rows(&hasher, w, seed, text.len()) {
        let fps = fingerprints(row.selector.as_ref(), &hasher, &text);
        let mut coverage = Coverage::default();
        coverage.add(&fps, kgrams, w);
        table.push(vec![
            row.label.into(),
            fps.len().into(),
            Cell::number(coverage.density(), 6),
            Cell::number_or_missing(row.expected, 6),
            Cell::number_or_missing(row.paper, 6),
            coverage.longest_run.into(),
        ]);
    }
    table.note(format!(
        "Guarantee t = w + k - 1 = {}; 'longest gap' is the most consecutive k-grams with no fingerprint (winnowing: below w).",
        w + k - 1
    ));
    report.tables.push(table);
    report.tables.push(low_entropy(&hasher, w));
    report
}

/// §5.1: on low-entropy input plain winnowing selects far more than robust
/// winnowing, which breaks ties toward the previous pick.
fn low_entropy(hasher: &KGramHasher, w: usize) -> Table {
    let mut table = Table::new(
        format!(
            "Low-entropy input (1 MiB), k = {}, w = {w} (§5.1: robust winnowing selects about 1/w = {:.6})",
            hasher.k(),
            1.0 / w as f64
        ),
        &["input", "winnow", "robust-winnow"],
    );
    for (name, pattern) in [("\"000…\"", "0"), ("\"abbaabba…\"", "abba")] {
        let symbols = repeated(pattern, 1 << 20);
        let count = hasher.kgram_count(symbols.len()) as f64;
        let plain = fingerprints(&Winnowing::new(w), hasher, &symbols).len() as f64 / count;
        let robust = fingerprints(&Winnowing::robust(w), hasher, &symbols).len() as f64 / count;
        table.push(vec![
            name.into(),
            Cell::number(plain, 6),
            Cell::number(robust, 6),
        ]);
    }
    table
}
