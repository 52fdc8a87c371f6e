//! Command-line choice of front-end, for the commands that read documents.
//!
//! Every command extracts PDFs in a child process, `copyhound __extract`
//! ([`isolated_extractor`]), which limits its own CPU time and memory and is
//! killed at its deadline, so a hostile PDF costs one child, never a thread
//! of this process that cannot be stopped.

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use copyhound_normalize::code::{Level, StatementOptions};
use copyhound_normalize::extract::isolated::{IsolatedExtractor, serve_extraction as serve};
use copyhound_normalize::{LoadOptions, TextMode};
use copyhound_pipeline::{FrontEnd, FrontEndChoice, PipelineError};

use crate::names::parser;

/// Whether dead statements of code count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum DeadCode {
    /// Every statement counts.
    Keep,
    /// Statements that cannot change what their function does (locals
    /// nothing reads, assignments to them, loops and branches over them)
    /// are left out (Java, C, C++, C#, Python): inserted dead code hides
    /// nothing. The default: it ranks the labelled code sets as well or
    /// better, the AI-obfuscation set far better (docs/EVALUATION.md).
    #[default]
    Drop,
}

/// The order statements of code are compared in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum StatementOrder {
    /// As written. The default: the canonical order costs the labelled sets
    /// a little more than it gains (docs/EVALUATION.md).
    #[default]
    Written,
    /// Statements that do not depend on each other in one canonical order,
    /// so that swapping them changes nothing (Java, C, C++, C#, Python).
    Canonical,
}

/// How counted `for` loops of code are compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Loops {
    /// As written.
    Written,
    /// `for (init; cond; step) body` as the `while` loop it equals,
    /// `init; while (cond) { body step; }` (Java, C, C++, C#): rewriting one
    /// as the other hides nothing. The default: as good or better on every
    /// labelled code set averaged over hash keys (docs/EVALUATION.md).
    #[default]
    While,
}

/// Front-end options shared by the commands that read documents.
#[derive(Clone, Debug, Args)]
pub struct FrontEndArgs {
    /// Read every file as this language (`c`, `java`, `python`, …) or as
    /// `text`, instead of detecting it from the extension and first line.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// Normalisation level for code.
    #[arg(long, value_parser = parser::<Level>(), default_value = Level::default().name())]
    pub level: Level,
    /// Normalisation of text.
    #[arg(long, value_parser = parser::<TextMode>(), default_value = TextMode::default().name())]
    pub text_mode: TextMode,
    /// Drop import, include and package lines of code.
    #[arg(long)]
    pub drop_imports: bool,
    /// Whether dead statements inside functions count.
    #[arg(long, value_enum, default_value_t = DeadCode::default())]
    pub dead_code: DeadCode,
    /// The order statements inside functions are compared in.
    #[arg(long, value_enum, default_value_t = StatementOrder::default())]
    pub statement_order: StatementOrder,
    /// How counted `for` loops inside functions are compared.
    #[arg(long, value_enum, default_value_t = Loops::default())]
    pub loops: Loops,
    /// Refuse files larger than this many MiB.
    #[arg(long, default_value_t = 64, value_name = "MIB")]
    pub max_file_mib: u64,
    /// Refuse a file whose front-end would need more than this many MiB of
    /// memory (about 32 times its text for text, HTML, PDF and DOCX, 64 for
    /// Java, C and the table lexer, 320 for tree-sitter languages).
    #[arg(long, default_value_t = 2048, value_name = "MIB")]
    pub max_file_memory_mib: u64,
}

/// Whether notebooks' markdown cells are read, for the commands that
/// compare or fingerprint notebooks.
#[derive(Clone, Copy, Debug, Args)]
pub struct NotebookArgs {
    /// Read the markdown cells of Jupyter notebooks too, as text of their
    /// own (`NAME.ipynb (markdown)`), never mixed with the code cells.
    /// Off by default: a notebook's prose often repeats the assignment.
    #[arg(long)]
    pub notebook_markdown: bool,
}

impl NotebookArgs {
    /// `choice`, reading notebooks as these options say.
    pub fn apply(self, choice: FrontEndChoice) -> FrontEndChoice {
        FrontEndChoice {
            notebook_markdown: self.notebook_markdown,
            ..choice
        }
    }
}

impl FrontEndArgs {
    /// The front-end these options choose; an unknown language is an error.
    pub fn front_end(&self) -> Result<FrontEnd, PipelineError> {
        FrontEnd::new(&self.choice())
    }

    /// The choice these options make, unchecked.
    pub fn choice(&self) -> FrontEndChoice {
        FrontEndChoice {
            lang: self.lang.clone(),
            level: self.level,
            text_mode: self.text_mode,
            drop_imports: self.drop_imports,
            statements: StatementOptions {
                drop_dead_code: self.dead_code == DeadCode::Drop,
                canonical_order: self.statement_order == StatementOrder::Canonical,
                while_loops: self.loops == Loops::While,
            },
            // Asked for by `NotebookArgs` where a command reads it.
            notebook_markdown: false,
            max_file_mib: self.max_file_mib,
            max_file_memory_mib: self.max_file_memory_mib,
            isolation: isolated_extractor(),
        }
    }
}

/// The default front-end choice, PDFs extracted in a child process: the
/// size limits and isolation of what a code archive does not keep.
pub fn limits() -> FrontEndChoice {
    FrontEndChoice {
        isolation: isolated_extractor(),
        ..FrontEndChoice::default()
    }
}

/// How a command with a front-end of its own (the database's, an
/// experiment's) loads files: as `choice` says, PDFs in a child process.
pub fn load_options(choice: FrontEndChoice) -> Result<LoadOptions, PipelineError> {
    let front_end = FrontEnd::new(&FrontEndChoice {
        isolation: isolated_extractor(),
        ..choice
    })?;
    Ok(front_end.load_options().clone())
}

/// This executable run as `copyhound __extract`, when its path is known
/// (else PDFs are extracted in-process, on a thread with a timeout).
pub fn isolated_extractor() -> Option<IsolatedExtractor> {
    std::env::current_exe()
        .ok()
        .map(|program| IsolatedExtractor::new(program, &["__extract"]))
}

/// `copyhound __extract`: one PDF from stdin, its text (framed) to stdout.
pub fn serve_extraction() -> Result<ExitCode> {
    let stdout = std::io::stdout().lock();
    let mut out = BufWriter::new(stdout);
    serve(std::io::stdin().lock(), &mut out).context("extracting from standard input")?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
