//! `copyhound fingerprint`: the fingerprints of files, as text or JSON lines.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, ValueEnum};
use copyhound_pipeline::{FileFingerprints, FrontEnd};
use copyhound_report::terminal_safe;

use crate::front_end::{FrontEndArgs, NotebookArgs};
use crate::selection::SelectionArgs;

/// Output formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A header per file, then one fingerprint per line.
    #[default]
    Text,
    /// One JSON object per file and line.
    Json,
}

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
    #[arg(long, value_enum, default_value_t = Format::default())]
    format: Format,
}

/// Fingerprints every file; a file that cannot be read is reported and
/// skipped, and the exit code is 1 if any was.
pub fn run(args: &FingerprintArgs) -> Result<ExitCode> {
    let front_end = FrontEnd::new(&args.notebooks.apply(args.front_end.choice()))?;
    let selection = args.selection.selection();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut failed = false;
    for path in &args.files {
        let loaded = match front_end.load(path) {
            Ok(loaded) => loaded,
            Err(error) => {
                eprintln!("copyhound: {}", terminal_safe(&error.to_string()));
                failed = true;
                continue;
            }
        };
        for warning in &loaded.warnings {
            crate::warn(&format!("{}: {warning}", path.display()));
        }
        for file in FileFingerprints::of_each(path, &loaded, &front_end, &selection) {
            match args.format {
                Format::Json => {
                    serde_json::to_writer(&mut out, &file)?;
                    writeln!(out)?;
                }
                Format::Text => file.write_text(&mut out)?,
            }
        }
    }
    out.flush()?;
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
