//! Command-line choice of front-end, for the commands that read documents.
//!
//! Every command extracts PDFs in a child process, `copyhound __extract`
//! ([`isolated_extractor`]), which limits its own CPU time and memory and is
//! killed at its deadline, so a hostile PDF costs one child, never a thread
//! of this process that cannot be stopped.

use clap::Args;
use copyhound_normalize::code::{DeadCode, Level, Loops, StatementOptions, StatementOrder};
use copyhound_normalize::extract::isolated::IsolatedExtractor;
use copyhound_normalize::{LoadOptions, TextMode};
use copyhound_pipeline::{FrontEnd, FrontEndChoice, PipelineError};

use crate::names::names;

/// Front-end options shared by the commands that read documents.
#[derive(Clone, Debug, Args)]
pub struct FrontEndArgs {
    /// Read every file as this language (`c`, `java`, `python`, …) or as
    /// `text`, instead of detecting it from the extension and first line.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// Normalisation level for code.
    #[arg(long, value_parser = names!(Level), default_value = Level::default().name())]
    pub level: Level,
    /// Normalisation of text.
    #[arg(long, value_parser = names!(TextMode), default_value = TextMode::default().name())]
    pub text_mode: TextMode,
    /// Drop import, include and package lines of code.
    #[arg(long)]
    pub drop_imports: bool,
    /// Whether dead statements inside functions count.
    #[arg(long, value_parser = names!(DeadCode), default_value = DeadCode::default().name())]
    pub dead_code: DeadCode,
    /// The order statements inside functions are compared in.
    #[arg(long, value_parser = names!(StatementOrder), default_value = StatementOrder::default().name())]
    pub statement_order: StatementOrder,
    /// How counted `for` loops inside functions are compared.
    #[arg(long, value_parser = names!(Loops), default_value = Loops::default().name())]
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
            statements: StatementOptions::new(self.dead_code, self.statement_order, self.loops),
            // Asked for by `NotebookArgs` where a command reads it.
            notebook_markdown: false,
            max_file_mib: self.max_file_mib,
            max_file_memory_mib: self.max_file_memory_mib,
            isolation: isolated_extractor(),
        }
    }
}

/// `choice`, with PDFs extracted in a child process.
pub fn isolated(choice: FrontEndChoice) -> FrontEndChoice {
    FrontEndChoice {
        isolation: isolated_extractor(),
        ..choice
    }
}

/// How a command with a front-end of its own (an experiment's) loads
/// files: as `choice` says, PDFs in a child process.
pub fn load_options(choice: FrontEndChoice) -> Result<LoadOptions, PipelineError> {
    Ok(FrontEnd::new(&isolated(choice))?.load_options().clone())
}

/// This executable run as `copyhound __extract`, when its path is known
/// (else PDFs are extracted in-process, on a thread with a timeout).
pub fn isolated_extractor() -> Option<IsolatedExtractor> {
    std::env::current_exe()
        .ok()
        .map(|program| IsolatedExtractor::new(program, &["__extract"]))
}
