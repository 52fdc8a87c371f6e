//! `copyhound compare`: find the pairs of submissions that share code or
//! text, with the exact fragments they share.
//!
//! The arguments become the batch's inputs and its checked settings, and
//! `copyhound_pipeline::run` compares the batch, one language family at a
//! time, with a progress bar; the outcome is printed as a
//! table and written as JSON, CSV and a self-contained HTML page on
//! request.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use copyhound_index::{DEFAULT_MAX_PAIRS, MaxOccurrences};
use copyhound_pipeline::code_archive::{Storing, settings_against};
use copyhound_pipeline::{
    CompareSettings, FrontEnd, GroupPattern, Inputs, Outputs, PipelineError, UnitMode, Weighting,
    parse_pair_count, parse_similarity,
};
use copyhound_report::{DEFAULT_HTML_MAX_PAIRS, DEFAULT_JSON_DETAILED_PAIRS, Tool};

use crate::front_end::{FrontEndArgs, NotebookArgs};
use crate::names::names;
use crate::progress::Bar;
use crate::selection::SelectionArgs;
use crate::walk::WalkArgs;
use crate::{Printer, warn};

/// Arguments of `copyhound compare`.
#[derive(Debug, Args)]
#[command(
    about = "Find the pairs of submissions that share code or text",
    after_help = "Exit status: 0 when every input was read (empty, too short and skipped input is \
                  listed as a problem and leaves it 0); 1 when some file could not be read, decoded \
                  or extracted, or a folder could not be listed (the rest is compared and reported); \
                  2 when nothing usable remained or the command could not run."
)]
pub struct CompareArgs {
    /// Submissions: files or directories; a `.zip`, `.tar`, `.tar.gz` or
    /// `.tgz` is read as a folder. Units are named by their path relative to
    /// their PATH (README, "Inputs").
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Earlier submissions: compared with the new ones, never with each
    /// other. Repeatable.
    #[arg(long, value_name = "PATH")]
    old: Vec<PathBuf>,
    /// Starter code given to everyone: its k-grams never count as shared,
    /// even where a submission edited the template. Repeatable.
    #[arg(long, value_name = "PATH")]
    base: Vec<PathBuf>,
    /// A code archive (`db init --code`) of earlier submissions, compared
    /// with the new ones under its settings (README, "Commands"). Repeatable.
    #[arg(long, value_name = "ARCHIVE", conflicts_with = "base")]
    against: Vec<PathBuf>,
    /// After comparing, register the new submissions in this code archive
    /// (units already there with the same files are skipped).
    #[arg(long, value_name = "ARCHIVE")]
    add_to: Option<PathBuf>,
    /// What one unit of comparison is.
    #[arg(long, value_parser = names!(UnitMode), default_value = UnitMode::default().name())]
    unit: UnitMode,
    /// Only files matching this glob (e.g. `*.py`). Repeatable.
    #[arg(long, value_name = "GLOB")]
    include: Vec<String>,
    /// Never files matching this glob. Repeatable.
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
    #[command(flatten)]
    walk: WalkArgs,
    /// A regular expression over unit paths: units with the same match (or
    /// first capture group) are one author's and never paired.
    #[arg(long, value_name = "REGEX")]
    group: Option<String>,
    /// Ignore fingerprints in more than N units, or in more than a share
    /// (`0.2`, `20%`) of the units of their language.
    #[arg(short = 'm', long, value_name = "N|SHARE")]
    max_occurrences: Option<MaxOccurrences>,
    /// Pairs sharing fewer distinct fingerprints are not listed.
    #[arg(long, default_value_t = 1, value_name = "N")]
    min_shared: usize,
    /// Shared runs shorter than N symbols are neither reported nor counted
    /// (k is the floor and the default).
    #[arg(long, default_value_t = 0, value_name = "N")]
    min_fragment: usize,
    /// Report fragments in the same order on both sides, at most N symbols
    /// apart, as one passage (the similarity is unchanged). Default: 2k.
    #[arg(long, value_name = "N")]
    merge_gap: Option<usize>,
    /// Count fragments in the same order on both sides, at most N symbols
    /// apart, as one stretch in the similarity, gaps included; 0: only
    /// exactly matching symbols count.
    #[arg(long, default_value_t = 0, value_name = "N")]
    score_gap: u32,
    /// Report only passages of at least N symbols (shorter ones still
    /// count). Default: none for code; 100 characters, 20 words or 60
    /// consonants for text.
    #[arg(long, value_name = "N")]
    min_passage: Option<usize>,
    /// How shared symbols count in the similarity.
    #[arg(long, value_parser = names!(Weighting), default_value = Weighting::default().name())]
    weighting: Weighting,
    /// List at most this many pairs of each language, the most similar.
    #[arg(long, default_value_t = DEFAULT_MAX_PAIRS, value_name = "N")]
    max_pairs: usize,
    /// List only pairs at least this similar: `0.3` or `30%`.
    #[arg(long, visible_alias = "threshold", default_value = "0", value_name = "FRACTION|PERCENT", value_parser = parse_similarity)]
    min_similarity: f64,
    /// Rows of the table printed on stdout.
    #[arg(long, default_value_t = 20, value_name = "N")]
    top: usize,
    /// Write the report as JSON to FILE (`-`: stdout, and the table to
    /// stderr).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Pairs the JSON lists with their fragments and passages (the most
    /// similar; `0` for none, or `all`); the others have only scores.
    #[arg(long, default_value_t = DEFAULT_JSON_DETAILED_PAIRS, value_name = "N|all", value_parser = parse_pair_count::<0>)]
    json_details: usize,
    /// Write one row per pair as CSV to FILE (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Write a self-contained HTML report to FILE.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Pairs the HTML page embeds (the most similar), or `all`.
    #[arg(long, default_value_t = DEFAULT_HTML_MAX_PAIRS, value_name = "N|all", value_parser = parse_pair_count::<1>)]
    report_pairs: usize,
    /// No progress bar (warnings are still printed).
    #[arg(short, long)]
    quiet: bool,
    #[command(flatten)]
    selection: SelectionArgs,
    #[command(flatten)]
    front_end: FrontEndArgs,
    #[command(flatten)]
    notebooks: NotebookArgs,
}

impl CompareArgs {
    /// Where the reports go.
    fn outputs(&self) -> Outputs {
        Outputs {
            json: self.json.clone(),
            json_details: self.json_details,
            csv: self.csv.clone(),
            html: self.report.clone(),
            html_pairs: self.report_pairs,
            table_rows: self.top,
        }
    }

    /// The batch the paths and the walking options name.
    fn inputs(&self) -> Inputs {
        Inputs {
            new: self.paths.clone(),
            old: self.old.clone(),
            base: self.base.clone(),
            against: self.against.clone(),
            unit: self.unit,
            filter: self.walk.filter(&self.include, &self.exclude),
        }
    }

    /// The settings of the comparison, each checked: the group pattern
    /// first, then the front-end.
    fn settings(&self) -> Result<CompareSettings, PipelineError> {
        let group = self.group.as_deref().map(GroupPattern::new).transpose()?;
        let chosen = settings_against(
            &self.against,
            &self.notebooks.apply(self.front_end.choice()),
            &self.selection.selection(),
        )?;
        Ok(CompareSettings {
            front_end: FrontEnd::new(&chosen.front_end)?,
            selection: chosen.selection,
            max_occurrences: self.max_occurrences.unwrap_or_default(),
            min_shared: self.min_shared,
            max_pairs: self.max_pairs,
            min_fragment: self.min_fragment,
            weighting: self.weighting,
            merge_gap: self.merge_gap,
            score_gap: self.score_gap,
            min_passage: self.min_passage,
            group,
            min_similarity: self.min_similarity,
        })
    }
}

/// Runs `copyhound compare`.
pub fn run(args: &CompareArgs) -> Result<ExitCode> {
    let outputs = args.outputs();
    outputs.check()?;
    let settings = args.settings()?;
    let bar = Bar::new(args.quiet);
    let outcome = copyhound_pipeline::run(&args.inputs(), &settings, &bar);
    bar.finish();
    let mut outcome = outcome.inspect_err(|error| {
        for problem in error.problems() {
            warn(&problem.message);
        }
    })?;
    let mut printer = Printer {
        quiet: args.quiet,
        ..Printer::default()
    };
    for line in outcome.listing_lines() {
        printer.print(line);
    }
    let tool = Tool::copyhound();
    let written = outputs.write(
        &outcome,
        &tool,
        &mut io::stdout().lock(),
        &mut io::stderr().lock(),
        &mut |line| printer.print(line),
    )?;
    let status = ExitCode::from(u8::from(outcome.has_unreadable_input()));
    // The process ends next, and the OS takes its memory back at once:
    // freeing the units, the index and every pair's paths one allocation
    // at a time cost a small batch as much as writing its CSV.
    std::mem::forget(written);
    if let Some(archive) = &args.add_to {
        outcome.close_archives();
        let added = crate::db::register_units(
            archive,
            &args.paths,
            args.unit,
            args.inputs().filter,
            Storing::default(),
        )?;
        eprintln!("copyhound: {}: {}", archive.display(), added.summary());
    }
    std::mem::forget(outcome);
    Ok(status)
}
