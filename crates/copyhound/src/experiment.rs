//! `copyhound experiment`: the papers' measurements, reproduced.

use clap::{Args, Subcommand};
use copyhound_fingerprint::{
    All, Fingerprint, KGramHasher, KoalaParams, KoalaSelector, ModP, SafeModP, Selector, Sketch,
    SketchBudget, SketchParams, Smallest, Symbol, Winnowing,
};

/// Experiments.
#[derive(Debug, Subcommand)]
pub enum ExperimentCommand {
    /// Density of every selector on random and low-entropy text, next to the
    /// winnowing paper's figures (§3.1, §5.1).
    Density(DensityArgs),
}

/// Arguments of `copyhound experiment density`.
#[derive(Debug, Args)]
pub struct DensityArgs {
    /// Size of the random text, in MiB (the paper used 8 MB).
    #[arg(long, default_value_t = 8)]
    size_mib: usize,
    /// k-gram length.
    #[arg(short, long, default_value_t = 50)]
    k: usize,
    /// Window size.
    #[arg(short, long, default_value_t = 100)]
    w: usize,
    /// Seed of the hash and of the random text.
    #[arg(long, default_value_t = 2003)]
    seed: u64,
}

/// Runs an experiment and prints its table.
pub fn run(command: &ExperimentCommand) {
    match command {
        ExperimentCommand::Density(args) => density(args),
    }
}

/// Every selector the experiment measures, with the density the theory or
/// the paper gives for it on `text_len` symbols of random text.
fn selector_rows(hasher: &KGramHasher, w: usize, seed: u64, text_len: usize) -> Vec<Row> {
    let k = hasher.k();
    let wf = w as f64;
    let p_winnow = (w as u64).div_ceil(2).max(1);
    let safe = SafeModP::optimal(w);
    let safe_p = 1.0 / safe.p() as f64;
    let paper_setting = k == 50 && w == 100;
    // Ganguly–Veda size the sample for the document: s = (m/√W)·√ln(1/δ)
    // (§IV.E, constant 1, δ = 0.05); a much smaller s makes every k-gram
    // "window-frequent" and the sketch degenerates to full fingerprinting.
    let sketch_sample =
        (hasher.kgram_count(text_len) as f64 / wf.sqrt() * 20f64.ln().sqrt()).ceil() as usize;
    let rows = vec![
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
        Row {
            selector: Box::new(ModP::new(p_winnow)),
            label: format!("mod-p (p = {p_winnow})"),
            expected: Some(1.0 / p_winnow as f64),
            paper: None,
        },
    ];
    let mut rows = rows;
    if p_winnow == 50 {
        // Same as the paper's row above.
        rows.pop();
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
            expected: Some(1000.0 / hasher.kgram_count(text_len) as f64),
            paper: None,
        },
        Row {
            selector: Box::new(KoalaSelector::new(KoalaParams {
                seed,
                ..KoalaParams::default()
            })),
            label: "koala (N = 1000)".into(),
            expected: Some(1000.0 / hasher.kgram_count(text_len) as f64),
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

/// One row: a selector with the density the theory (or the paper) expects.
struct Row {
    selector: Box<dyn Selector>,
    label: String,
    expected: Option<f64>,
    paper: Option<f64>,
}

fn density(args: &DensityArgs) {
    let (k, w) = (args.k.max(1), args.w.max(1));
    let hasher = KGramHasher::new(k, args.seed);
    let text = random_text(args.size_mib << 20, args.seed);
    let rows = selector_rows(&hasher, w, args.seed, text.len());

    println!(
        "Selector density on {} MiB of random text (27 letters), k = {k}, w = {w}, seed = {}.",
        args.size_mib, args.seed
    );
    println!(
        "Guarantee t = w + k - 1 = {}; 'longest gap' is the most positions between consecutive fingerprints (winnowing: at most w).\n",
        w + k - 1
    );
    println!(
        "{:<24} {:>10} {:>10} {:>10} {:>10} {:>12}",
        "selector", "selected", "density", "expected", "paper", "longest gap"
    );
    for row in &rows {
        let fps = fingerprints(row.selector.as_ref(), &hasher, &text);
        let measured = fps.len() as f64 / hasher.kgram_count(text.len()) as f64;
        println!(
            "{:<24} {:>10} {:>10.6} {:>10} {:>10} {:>12}",
            row.label,
            fps.len(),
            measured,
            row.expected.map_or("-".into(), |e| format!("{e:.6}")),
            row.paper.map_or("-".into(), |p| format!("{p:.6}")),
            longest_gap(&fps, hasher.kgram_count(text.len())),
        );
    }

    print_low_entropy(&hasher, w);
}

/// §5.1: on low-entropy input plain winnowing selects far more than robust
/// winnowing, which breaks ties toward the previous pick.
fn print_low_entropy(hasher: &KGramHasher, w: usize) {
    let (k, wf) = (hasher.k(), w as f64);
    let low_entropy: [(&str, Vec<Symbol>); 2] = [
        ("\"000…\"", vec![Symbol::from(b'0'); 1 << 20]),
        (
            "\"abbaabba…\"",
            b"abba"
                .iter()
                .copied()
                .map(Symbol::from)
                .cycle()
                .take(1 << 20)
                .collect(),
        ),
    ];
    println!(
        "\nLow-entropy input (1 MiB), k = {k}, w = {w} (§5.1: robust winnowing selects about 1/w = {:.6}):\n",
        1.0 / wf
    );
    println!("{:<14} {:>14} {:>14}", "input", "winnow", "robust-winnow");
    for (name, symbols) in &low_entropy {
        let count = hasher.kgram_count(symbols.len()) as f64;
        let plain = fingerprints(&Winnowing::new(w), hasher, symbols).len() as f64 / count;
        let robust = fingerprints(&Winnowing::robust(w), hasher, symbols).len() as f64 / count;
        println!("{name:<14} {plain:>14.6} {robust:>14.6}");
    }
}

fn fingerprints(
    selector: &dyn Selector,
    hasher: &KGramHasher,
    symbols: &[Symbol],
) -> Vec<Fingerprint> {
    let mut out = Vec::new();
    selector.fingerprint(hasher, symbols, &mut out);
    out
}

/// The most consecutive k-gram positions with no fingerprint among them,
/// counting the document's ends.
fn longest_gap(fps: &[Fingerprint], kgrams: usize) -> usize {
    let mut previous = 0usize;
    let mut longest = 0;
    for f in fps {
        longest = longest.max(f.pos as usize - previous);
        previous = f.pos as usize + 1;
    }
    longest.max(kgrams - previous)
}

/// Random lower-case letters and spaces, one symbol per character.
fn random_text(len: usize, seed: u64) -> Vec<Symbol> {
    let mut state = seed;
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            Symbol::from(b"abcdefghijklmnopqrstuvwxyz "[((state >> 33) % 27) as usize])
        })
        .collect()
}
