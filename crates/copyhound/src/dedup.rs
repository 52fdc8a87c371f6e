//! `copyhound dedup`: near-duplicates and copied passages in a data set of
//! Parquet or JSONL rows, written as Parquet (`copyhound-dedup` does the
//! work; this parses flags, draws the progress bar and prints a summary).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use copyhound_dedup::{Columns, DedupChoices, DedupOptions, Scheme, dedup};
use copyhound_normalize::TextMode;

use crate::names::names;
use crate::progress::Bar;
use crate::selection::KgramArgs;

/// Find near-duplicate documents and copied passages in Parquet, JSONL or
/// JSONL.gz rows; write `OUT/pairs.parquet` and `OUT/clusters.parquet`.
#[derive(Debug, Args)]
pub struct DedupArgs {
    /// Input files (.parquet, .jsonl, .ndjson, .jsonl.gz) or directories.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// The column (JSONL: field) of each document's unique id.
    #[arg(long, default_value = "id", value_name = "ID")]
    id_column: String,
    /// The column (JSONL: field) holding each document's text.
    #[arg(long, default_value = "text", value_name = "TEXT")]
    text_column: String,
    /// The output directory (created if missing).
    #[arg(long, short, value_name = "OUT")]
    output: PathBuf,
    /// Normalisation of text.
    #[arg(long, value_parser = names!(TextMode), default_value = TextMode::default().name())]
    text_mode: TextMode,
    #[command(flatten)]
    kgrams: KgramArgs,
    #[command(flatten)]
    choices: DedupChoices,
    /// No progress bar and no summary.
    #[arg(short, long)]
    quiet: bool,
}

impl DedupArgs {
    fn options(&self) -> DedupOptions {
        DedupChoices {
            text_mode: self.text_mode,
            k: self.kgrams.k,
            window: self.kgrams.w,
            seed: self.kgrams.seed,
            ..self.choices.clone()
        }
        .options()
    }
}

pub fn run(args: &DedupArgs) -> Result<ExitCode> {
    let scheme = Scheme::new(args.options())?;
    let columns = Columns {
        id: args.id_column.clone(),
        text: args.text_column.clone(),
    };
    let bar = Bar::new(args.quiet);
    let summary = dedup(&args.inputs, &columns, &scheme, &args.output, &bar);
    bar.finish();
    let summary = summary?;
    if !args.quiet {
        eprintln!("{}", summary.describe(&scheme, &args.output));
    }
    Ok(ExitCode::SUCCESS)
}
