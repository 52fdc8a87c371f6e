//! `copyhound fingerprint`: the fingerprints of files, as text or JSON lines.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, ValueEnum};
use copyhound_fingerprint::Fingerprint;
use copyhound_pipeline::Family;
use copyhound_report::terminal_safe;
use copyhound_source::LineIndex;
use serde::Serialize;

use crate::front_end::FrontEndArgs;
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
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::default())]
    format: Format,
}

#[derive(Serialize)]
struct FileFingerprints<'a> {
    path: String,
    kind: &'a str,
    symbols: usize,
    k: usize,
    w: usize,
    selector: &'a str,
    fingerprints: Vec<FingerprintRecord>,
}

#[derive(Serialize)]
struct FingerprintRecord {
    hash: u64,
    pos: u32,
    /// Byte range of the k-gram: in the file when its text is a verbatim
    /// copy of the file (UTF-8), else in the decoded or extracted text.
    start: usize,
    end: usize,
    line: usize,
}

/// Fingerprints every file; a file that cannot be read is reported and
/// skipped, and the exit code is 1 if any was.
pub fn run(args: &FingerprintArgs) -> Result<ExitCode> {
    let front_end = args.front_end.front_end()?;
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
            eprintln!(
                "copyhound: warning: {}",
                terminal_safe(&format!("{}: {warning}", path.display()))
            );
        }
        let resolved = selection.resolve(front_end.defaults(Family::of(loaded.kind)));
        let scheme = selection.scheme(resolved);
        let mut fingerprints: Vec<Fingerprint> = Vec::new();
        scheme.fingerprint(&loaded.doc.symbols, &mut fingerprints);

        let shift = loaded.text_start_in_file.unwrap_or(0);
        let lines = LineIndex::new(loaded.text.as_bytes());
        let records = fingerprints
            .iter()
            .map(|f| {
                let bytes = loaded.doc.byte_range(f.pos as usize, resolved.k);
                FingerprintRecord {
                    hash: f.hash,
                    pos: f.pos,
                    start: bytes.start + shift,
                    end: bytes.end + shift,
                    line: lines.line_number(bytes.start) as usize,
                }
            })
            .collect();
        let file = FileFingerprints {
            path: path.display().to_string(),
            kind: loaded.kind.name(),
            symbols: loaded.doc.len(),
            k: resolved.k,
            w: resolved.w,
            selector: scheme.selector().name(),
            fingerprints: records,
        };
        match args.format {
            Format::Json => {
                serde_json::to_writer(&mut out, &file)?;
                writeln!(out)?;
            }
            Format::Text => write_text(&mut out, &file)?,
        }
    }
    out.flush()?;
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn write_text(out: &mut impl Write, file: &FileFingerprints<'_>) -> io::Result<()> {
    writeln!(
        out,
        "{}: {} {} symbols, {} fingerprints ({}, k={}, w={})",
        file.path,
        file.kind,
        file.symbols,
        file.fingerprints.len(),
        file.selector,
        file.k,
        file.w
    )?;
    for f in &file.fingerprints {
        writeln!(
            out,
            "  {:016x}  pos {:>8}  bytes {}..{}  line {}",
            f.hash, f.pos, f.start, f.end, f.line
        )?;
    }
    Ok(())
}
