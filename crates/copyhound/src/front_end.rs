//! Command-line choice of front-end, for the commands that read documents.

use clap::{Args, ValueEnum};
use copyhound_normalize::TextMode;
use copyhound_normalize::code::{Level, StatementOptions};
use copyhound_pipeline::{FrontEnd, FrontEndChoice, PipelineError};

/// How code is normalised (see `copyhound_normalize::code::Level`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum LevelName {
    /// Drop whitespace and comments, keep every token.
    Exact,
    /// Also map every identifier to one symbol.
    #[default]
    Rename,
    /// Also map every literal to its kind.
    Abstract,
    /// Keep token classes only.
    Structure,
}

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

/// How text is normalised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum TextModeName {
    /// Letters and digits, case-folded; one symbol per character.
    #[default]
    Chars,
    /// One symbol per word.
    Words,
    /// Consonants only (Koala §5), for text from lossy conversions.
    Consonants,
}

/// Front-end options shared by the commands that read documents.
#[derive(Clone, Debug, Args)]
pub struct FrontEndArgs {
    /// Read every file as this language (`c`, `java`, `python`, …) or as
    /// `text`, instead of detecting it from the extension and first line.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// Normalisation level for code.
    #[arg(long, value_enum, default_value_t = LevelName::default())]
    pub level: LevelName,
    /// Normalisation of text.
    #[arg(long, value_enum, default_value_t = TextModeName::default())]
    pub text_mode: TextModeName,
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
}

impl FrontEndArgs {
    /// The front-end these options choose; an unknown language is an error.
    pub fn front_end(&self) -> Result<FrontEnd, PipelineError> {
        FrontEnd::new(&FrontEndChoice {
            lang: self.lang.clone(),
            level: match self.level {
                LevelName::Exact => Level::Exact,
                LevelName::Rename => Level::Rename,
                LevelName::Abstract => Level::Abstract,
                LevelName::Structure => Level::Structure,
            },
            text_mode: match self.text_mode {
                TextModeName::Chars => TextMode::Chars,
                TextModeName::Words => TextMode::Words,
                TextModeName::Consonants => TextMode::Consonants,
            },
            drop_imports: self.drop_imports,
            statements: StatementOptions {
                drop_dead_code: self.dead_code == DeadCode::Drop,
                canonical_order: self.statement_order == StatementOrder::Canonical,
                while_loops: self.loops == Loops::While,
            },
            max_file_mib: self.max_file_mib,
        })
    }
}
