//! `copyhound fingerprint`: the fingerprints of files, as text or JSON lines.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use copyhound_pipeline::{FrontEnd, ListingFormat, list_fingerprints};

use crate::Printer;
use crate::front_end::{FrontEndArgs, NotebookArgs};
use crate::names::names;
use crate::selection::SelectionArgs;

/// Arguments of `copyhound fingerprint`.
#[derive(Debug, Args)]
pub struct FingerprintArgs {
    /// Files to fingerprint.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    #[command(flatten)]
    selection: SelectionArgs,
    #[command(flatten)]
    front_end: FrontEndArgs,
    #[command(flatten)]
    notebooks: NotebookArgs,
    /// Output format.
    #[arg(long, value_parser = names!(ListingFormat), default_value = ListingFormat::default().name())]
    format: ListingFormat,
}

/// Fingerprints every file; a file that cannot be read is reported and
/// skipped, and the exit code is 1 if any was.
pub fn run(args: &FingerprintArgs) -> Result<ExitCode> {
    let front_end = FrontEnd::new(&args.notebooks.apply(args.front_end.choice()))?;
    let selection = args.selection.selection();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut printer = Printer::default();
    let read_all = list_fingerprints(
        &args.files,
        &front_end,
        &selection,
        args.format,
        &mut out,
        &mut |line| printer.print(line),
    )?;
    out.flush()?;
    Ok(ExitCode::from(u8::from(!read_all)))
}
