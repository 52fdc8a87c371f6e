//! `copyhound experiment`: the papers' measurements, reproduced. The
//! experiments and their settings (options, help and defaults) live in
//! `copyhound-experiment`; this module adds the corpus and runs them.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use copyhound_experiment::{
    Corpus, CorpusOptions, DensitySettings, GapsSettings, KoalaSettings, Report, SketchSettings,
    WinnowSettings, ZipfSettings, density, gaps, koala, sketch, zipf,
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
    Density(DensitySettings),
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
        let options = self.options(load);
        Ok(Corpus::load_at_least(paths, &options, min_symbols)?)
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

/// A corpus read through the front-ends, to be winnowed as in Figures 3
/// and 4.
#[derive(Debug, Args)]
pub struct WinnowedCorpusArgs {
    #[command(flatten)]
    corpus: CorpusArgs,
    #[command(flatten)]
    front_end: FrontEndArgs,
}

impl WinnowedCorpusArgs {
    /// The corpus's documents with at least one k-gram.
    fn load(&self, winnow: WinnowSettings) -> Result<Corpus> {
        let load = self.front_end.front_end()?.load_options().clone();
        let CorpusArgs { paths, budget } = &self.corpus;
        budget.load(paths, load, winnow.k)
    }
}

/// Arguments of `copyhound experiment gaps`.
#[derive(Debug, Args)]
pub struct GapsArgs {
    #[command(flatten)]
    corpus: WinnowedCorpusArgs,
    #[command(flatten)]
    winnow: WinnowSettings,
    /// Size of the random text measured beside the corpus, in MiB.
    #[arg(long, default_value_t = 1)]
    random_mib: usize,
}

/// Arguments of `copyhound experiment zipf`.
#[derive(Debug, Args)]
pub struct ZipfArgs {
    #[command(flatten)]
    corpus: WinnowedCorpusArgs,
    #[command(flatten)]
    settings: ZipfSettings,
    /// Write the log-log plot (the paper's Figure 4) as SVG to this file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

/// Arguments of `copyhound experiment koala`.
#[derive(Debug, Args)]
pub struct KoalaArgs {
    #[command(flatten)]
    corpus: CorpusArgs,
    /// Front-end of the fingerprints (Heintze: consonants).
    #[arg(long, value_parser = names!(TextMode), default_value = TextMode::Consonants.name())]
    text_mode: TextMode,
    #[command(flatten)]
    settings: KoalaSettings,
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
    #[command(flatten)]
    settings: SketchSettings,
}

/// Runs an experiment and prints its tables.
pub fn run(command: &ExperimentCommand) -> Result<ExitCode> {
    let (report, json) = match command {
        ExperimentCommand::Density(settings) => (density(settings), &None),
        ExperimentCommand::Gaps(args) => {
            let settings = GapsSettings {
                winnow: args.winnow,
                random_symbols: args.random_mib << 20,
                ..GapsSettings::default()
            };
            let corpus = args.corpus.load(args.winnow)?;
            (gaps(&corpus, &settings), &args.corpus.corpus.budget.json)
        }
        ExperimentCommand::Zipf(args) => {
            let outcome = zipf(&args.corpus.load(args.settings.winnow)?, &args.settings);
            if let Some(path) = &args.svg {
                write(path, &outcome.plot.to_svg()?)?;
            }
            (outcome.report, &args.corpus.corpus.budget.json)
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
    let settings = KoalaSettings {
        mode: args.text_mode,
        ..args.settings.clone()
    };
    let corpus = budget.load(paths, front_end::load_options(text)?, settings.alpha)?;
    Ok(koala(&corpus, &settings)?)
}

fn run_sketch(args: &SketchArgs) -> Result<Report> {
    let corpus = if args.paths.is_empty() {
        Corpus::default()
    } else {
        let load = front_end::load_options(FrontEndChoice::default())?;
        Corpus::load(&args.paths, &args.budget.options(load))?
    };
    let settings = args.settings.clone();
    Ok(sketch(
        &corpus,
        &if args.budget.full {
            settings.full()
        } else {
            settings
        },
    )?)
}

fn write(path: &Path, contents: &str) -> Result<()> {
    std::fs::write(path, contents).with_context(|| format!("{}: cannot write", path.display()))
}
