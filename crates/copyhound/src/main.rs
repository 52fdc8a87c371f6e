//! The `copyhound` command line: document fingerprinting and copy detection.
//!
//! Each subcommand lives in its own module; this file only parses the
//! command line and dispatches.

mod compare;
mod db;
mod dedup;
mod experiment;
mod fingerprint;
mod front_end;
mod names;
mod progress;
mod selection;
#[cfg(feature = "serve")]
mod serve;
mod walk;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use copyhound_normalize::extract::isolated::serve_extraction;
use copyhound_pipeline::{Line, error_text};
use copyhound_report::terminal_safe;

/// Find copied passages in code and text: winnowing, Koala and Ganguly–Veda
/// fingerprints.
#[derive(Debug, Parser)]
#[command(name = "copyhound", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    // Boxed: its many options would make every other variant as large.
    Compare(Box<compare::CompareArgs>),
    Dedup(dedup::DedupArgs),
    /// Print the fingerprints of files.
    Fingerprint(fingerprint::FingerprintArgs),
    /// Reproduce the papers' measurements.
    #[command(subcommand)]
    Experiment(experiment::ExperimentCommand),
    #[command(
        subcommand,
        about = "Register and search documents in a persistent fingerprint database"
    )]
    Db(db::DbCommand),
    /// Serve a database over HTTP: JSON API, `OpenAPI` description, web page.
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
    /// Extract one PDF from standard input under CPU and memory limits: the
    /// child process every other command starts for each PDF.
    #[command(name = "__extract", hide = true)]
    Extract,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Compare(args) => compare::run(&args),
        Command::Dedup(args) => dedup::run(&args),
        Command::Fingerprint(args) => fingerprint::run(&args),
        Command::Experiment(command) => experiment::run(&command),
        Command::Db(command) => db::run(command),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(args),
        // One PDF from stdin, its text (framed) to stdout.
        Command::Extract => {
            serve_extraction(io::stdin().lock(), BufWriter::new(io::stdout().lock()))
                .context("extracting from standard input")
                .map(|()| ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        // A reader that stops early (`| head`) is not an error.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!(
                "copyhound: error: {}",
                terminal_safe(&error_text(error.as_ref()))
            );
            ExitCode::from(2)
        }
    }
}

/// Prints `message` on stderr as a warning, made safe for a terminal.
fn warn(message: &str) {
    eprintln!("copyhound: warning: {}", terminal_safe(message));
}

/// Prints lines a library formatted, as they come: output on stdout,
/// flushed so that each is seen at once; notes (unless quiet), warnings and
/// errors on stderr. The first failure to write stdout ends its output and
/// is kept for `finish`.
#[derive(Default)]
struct Printer {
    quiet: bool,
    failure: Option<io::Error>,
}

impl Printer {
    fn print(&mut self, line: Line) {
        match line {
            Line::Out(text) if self.failure.is_none() => {
                let mut out = io::stdout().lock();
                self.failure = writeln!(out, "{text}").and_then(|()| out.flush()).err();
            }
            Line::Note(text) if !self.quiet => eprintln!("copyhound: {}", terminal_safe(&text)),
            Line::Out(_) | Line::Note(_) => {}
            Line::Warning(text) => warn(&text),
            Line::Error(text) => eprintln!("copyhound: {}", terminal_safe(&text)),
        }
    }

    fn finish(self) -> io::Result<()> {
        self.failure.map_or(Ok(()), Err)
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .filter_map(|cause| cause.downcast_ref::<std::io::Error>())
        .any(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}
