//! `copyhound experiment`: the papers' measurements, reproduced. The
//! experiments live in `copyhound-experiment`; this module parses flags.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use copyhound_experiment::{
    Corpus, CorpusOptions, DensitySettings, GapsSettings, KoalaSettings, Report, SketchSettings,
    ZipfSettings, density, gaps, koala, sketch, zipf,
};
use copyhound_normalize::{LoadOptions, TextMode};
use copyhound_pipeline::FrontEndChoice;

use crate::front_end::{self, FrontEndArgs};
use crate::names::names;

/// Experiments.
#[derive(Debug, Subcommand)]
pub enum ExperimentCommand {
    /// Density of every selector on random and low-entropy text, next to the
    /// winnowing paper's figures (§3.1, §5.1; docs/EXPERIMENTS.md).
    Density(DensityArgs),
    /// Winnowing's Figure 3 and §5.1 on a corpus: density, longest run with
    /// no fingerprint, windows missed (docs/EXPERIMENTS.md).
    Gaps(GapsArgs),
    /// Winnowing's Figure 4 on a corpus: frequency by rank of hashes and
    /// fingerprints; `--svg` draws it (docs/EXPERIMENTS.md).
    Zipf(ZipfArgs),
    /// Heintze's Koala Tables 1–7 on planted relationships built from the
    /// corpus, and §5's consonants (docs/EXPERIMENTS.md).
    Koala(KoalaArgs),
    /// Ganguly–Veda: sketch size against winnowing, and detection of
    /// planted runs against δ and S (docs/EXPERIMENTS.md).
    Sketch(SketchArgs),
}

/// Arguments of `copyhound experiment density`.
#[derive(Debug, Args)]
pub struct DensityArgs {
    /// Size of the random text, in MiB (the paper used 8 MB).
    #[arg(long, default_value_t = 8)]
    size_mib: usize,
    #[command(flatten)]
    winnow: WinnowArgs,
}

/// Winnowing's k, w and seed, by default the paper's.
#[derive(Debug, Args)]
pub struct WinnowArgs {
    /// k-gram length (the paper: 50).
    #[arg(short, long, default_value_t = 50)]
    k: usize,
    /// Winnowing window (the paper: 100).
    #[arg(short, long, default_value_t = 100)]
    w: usize,
    /// Seed of the hash and of the generated inputs.
    #[arg(long, default_value_t = 2003)]
    seed: u64,
}

/// How much of a corpus to read, and where the tables go besides stdout.
#[derive(Debug, Args)]
pub struct BudgetArgs {
    /// Read files in path order until their sizes add up to this many MiB.
    #[arg(long, default_value_t = 8, value_name = "MIB")]
    max_mib: u64,
    /// Read every file and run the larger sweeps: no size budget.
    #[arg(long)]
    full: bool,
    /// Also write the tables as JSON to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

impl BudgetArgs {
    fn options(&self, load: LoadOptions) -> CorpusOptions {
        CorpusOptions::new(load, (!self.full).then_some(self.max_mib))
    }

    /// The documents of `paths` with at least `min_symbols` symbols.
    fn load(&self, paths: &[PathBuf], load: LoadOptions, min_symbols: usize) -> Result<Corpus> {
        Ok(Corpus::load_at_least(
            paths,
            &self.options(load),
            min_symbols,
        )?)
    }
}

/// The corpus of an experiment and how much of it to read.
#[derive(Debug, Args)]
pub struct CorpusArgs {
    /// Files and folders (walked recursively) of the corpus.
    #[arg(required = true, value_name = "PATHS")]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    budget: BudgetArgs,
}

/// A corpus read through the front-ends and winnowed, as Figures 3 and 4.
#[derive(Debug, Args)]
pub struct WinnowedCorpusArgs {
    #[command(flatten)]
    corpus: CorpusArgs,
    #[command(flatten)]
    front_end: FrontEndArgs,
    #[command(flatten)]
    winnow: WinnowArgs,
}

impl WinnowedCorpusArgs {
    /// The corpus's documents with at least one k-gram.
    fn load(&self) -> Result<Corpus> {
        let load = self.front_end.front_end()?.load_options().clone();
        let CorpusArgs { paths, budget } = &self.corpus;
        budget.load(paths, load, self.winnow.k)
    }
}

/// Arguments of `copyhound experiment gaps`.
#[derive(Debug, Args)]
pub struct GapsArgs {
    #[command(flatten)]
    winnowed: WinnowedCorpusArgs,
    /// Size of the random text measured beside the corpus, in MiB.
    #[arg(long, default_value_t = 1)]
    random_mib: usize,
}

/// Arguments of `copyhound experiment zipf`.
#[derive(Debug, Args)]
pub struct ZipfArgs {
    #[command(flatten)]
    winnowed: WinnowedCorpusArgs,
    /// Write the log-log plot (the paper's Figure 4) as SVG to this file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// How many of the most frequent k-grams to list.
    #[arg(long, default_value_t = 8)]
    top: usize,
}

/// Arguments of `copyhound experiment koala`.
#[derive(Debug, Args)]
pub struct KoalaArgs {
    #[command(flatten)]
    corpus: CorpusArgs,
    /// Front-end of the fingerprints (Heintze: consonants).
    #[arg(long, value_parser = names!(TextMode), default_value = TextMode::Consonants.name())]
    text_mode: TextMode,
    /// α, the k-gram length of the baseline (Heintze: 20 consonants).
    #[arg(long, default_value_t = 20)]
    alpha: usize,
    /// Corpus documents planted in each of the six relationships.
    #[arg(long, default_value_t = 10)]
    per_relation: usize,
    /// Generated unrelated documents added to the collection (words drawn
    /// by their frequency in the corpus).
    #[arg(long, default_value_t = 0, value_name = "N")]
    generate: usize,
    /// Words per generated document.
    #[arg(long, default_value_t = 3000)]
    generated_words: usize,
    /// Corpus documents given conversion noise in the §5 table.
    #[arg(long, default_value_t = 40)]
    noise_documents: usize,
    /// Seed of the database and of every random choice.
    #[arg(long, default_value_t = 1996)]
    seed: u64,
}

/// Arguments of `copyhound experiment sketch`.
#[derive(Debug, Args)]
pub struct SketchArgs {
    /// Files and folders whose documents add a row to the space table.
    #[arg(value_name = "PATHS")]
    paths: Vec<PathBuf>,
    // `--full` here also means inputs of 10 thousand to 10 million symbols
    // (instead of `--sizes`) and 1000 planted pairs per row.
    #[command(flatten)]
    budget: BudgetArgs,
    /// k-gram length.
    #[arg(short, long, default_value_t = 20)]
    k: usize,
    /// W, the guarantee window in k-grams.
    #[arg(short = 'W', long, default_value_t = 100)]
    window: usize,
    /// S of the one-total-size variant (§V) in the space table.
    #[arg(long, default_value_t = 1000)]
    total: usize,
    /// δ of the two-pass plan in the space table.
    #[arg(long, default_value_t = 0.05)]
    delta: f64,
    /// Planted pairs per row of the detection tables.
    #[arg(long, default_value_t = 200)]
    trials: usize,
    /// Sizes of the generated inputs of the space table, in symbols.
    #[arg(long, value_delimiter = ',', default_values_t = [10_000, 100_000, 1_000_000])]
    sizes: Vec<usize>,
    /// Seed of the hash, the sketch and the generated inputs.
    #[arg(long, default_value_t = 2003)]
    seed: u64,
}

/// Runs an experiment and prints its tables.
pub fn run(command: &ExperimentCommand) -> Result<ExitCode> {
    let (report, json) = match command {
        ExperimentCommand::Density(args) => {
            let WinnowArgs { k, w, seed } = args.winnow;
            let size_mib = args.size_mib;
            (
                density(&DensitySettings {
                    size_mib,
                    k,
                    w,
                    seed,
                }),
                &None,
            )
        }
        ExperimentCommand::Gaps(args) => {
            let WinnowArgs { k, w, seed } = args.winnowed.winnow;
            let random_symbols = args.random_mib << 20;
            let settings = GapsSettings {
                k,
                w,
                seed,
                random_symbols,
                ..GapsSettings::default()
            };
            (
                gaps(&args.winnowed.load()?, &settings),
                &args.winnowed.corpus.budget.json,
            )
        }
        ExperimentCommand::Zipf(args) => {
            let WinnowArgs { k, w, seed } = args.winnowed.winnow;
            let outcome = zipf(
                &args.winnowed.load()?,
                &ZipfSettings {
                    k,
                    w,
                    seed,
                    top: args.top,
                },
            );
            if let Some(path) = &args.svg {
                write(path, &outcome.plot.to_svg()?)?;
            }
            (outcome.report, &args.winnowed.corpus.budget.json)
        }
        ExperimentCommand::Koala(args) => (run_koala(args)?, &args.corpus.budget.json),
        ExperimentCommand::Sketch(args) => (run_sketch(args)?, &args.budget.json),
    };
    print!("{report}");
    if let Some(path) = json {
        write(path, &report.to_json())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_koala(args: &KoalaArgs) -> Result<Report> {
    let text = FrontEndChoice {
        lang: Some("text".into()),
        ..FrontEndChoice::default()
    };
    let CorpusArgs { paths, budget } = &args.corpus;
    let corpus = budget.load(paths, front_end::load_options(text)?, args.alpha)?;
    Ok(koala(
        &corpus,
        &KoalaSettings {
            mode: args.text_mode,
            alpha: args.alpha,
            seed: args.seed,
            per_relation: args.per_relation,
            generated: args.generate,
            generated_words: args.generated_words,
            noise_documents: args.noise_documents,
        },
    )?)
}

fn run_sketch(args: &SketchArgs) -> Result<Report> {
    let corpus = if args.paths.is_empty() {
        Corpus::default()
    } else {
        let load = front_end::load_options(FrontEndChoice::default())?;
        Corpus::load(&args.paths, &args.budget.options(load))?
    };
    let settings = SketchSettings {
        k: args.k,
        window: args.window,
        total: args.total,
        delta: args.delta,
        sizes: args.sizes.clone(),
        trials: args.trials,
        seed: args.seed,
        ..SketchSettings::default()
    };
    let full = args.budget.full;
    Ok(sketch(
        &corpus,
        &if full { settings.full() } else { settings },
    )?)
}

fn write(path: &Path, contents: &str) -> Result<()> {
    std::fs::write(path, contents).with_context(|| format!("{}: cannot write", path.display()))
}
