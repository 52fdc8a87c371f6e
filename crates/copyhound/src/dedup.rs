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
    /// Input files (.parquet, .jsonl, .ndjson, .jsonl.gz) or directories of
    /// them.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// The column (JSONL: field) holding each document's id, strings or
    /// integers, unique.
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
    /// Winnowing window of the candidate fingerprints: a shared run of k +
    /// N W - 1 symbols holds N shared fingerprints [default: the widest
    /// with k + N W - 1 at most the minimum passage: 28 characters].
    #[arg(long, value_name = "W", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    index_window: Option<u32>,
    /// Score a pair only when it shares at least N distinct candidate
    /// fingerprints.
    #[arg(long, value_name = "N", default_value_t = copyhound_dedup::DEFAULT_MIN_SHARED_FINGERPRINTS)]
    min_shared_fingerprints: usize,
    /// Drop candidate fingerprints in more than this many documents.
    #[arg(short = 'm', long, value_name = "N", default_value_t = copyhound_dedup::DEFAULT_MAX_DOCUMENTS_PER_HASH)]
    max_documents_per_hash: usize,
    /// List a pair when it shares a passage of at least this many symbols
    /// in fragments, whatever its similarity [default: 100 characters, 20
    /// words, 60 consonants].
    #[arg(long, value_name = "N")]
    min_passage: Option<usize>,
    /// Fragments at most this many symbols apart on both sides are one
    /// passage [default: 2 k].
    #[arg(long, value_name = "N")]
    merge_gap: Option<usize>,
    /// Pairs at least this similar are near-duplicates: they join one
    /// cluster, of which only the smallest id is kept.
    #[arg(long, value_name = "S", default_value_t = copyhound_dedup::DEFAULT_MIN_SIMILARITY)]
    min_similarity: f64,
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
            index_window: self.index_window.map(|w| w as usize),
            min_shared_fingerprints: self.min_shared_fingerprints,
            seed: self.kgrams.seed,
            max_documents_per_hash: self.max_documents_per_hash,
            min_passage: self.min_passage,
            merge_gap: self.merge_gap,
            min_similarity: self.min_similarity,
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
