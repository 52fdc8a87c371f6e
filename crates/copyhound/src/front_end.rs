//! Command-line choice of front-end, for the commands that read documents.

use clap::{Args, ValueEnum};
use copyhound_normalize::TextMode;
use copyhound_normalize::code::Level;
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
            max_file_mib: self.max_file_mib,
        })
    }
}
