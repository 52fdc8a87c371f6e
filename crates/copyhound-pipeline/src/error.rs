//! Why a batch comparison could not run. The messages are written for the
//! person who ran it, and name the command-line option a setting came from.
//!
//! A file that cannot be read never stops a run: it is a problem of the
//! report ([`crate::Outcome::problems`]); these errors are about the batch
//! as a whole.

use std::path::PathBuf;

use copyhound_index::CompareError;
use copyhound_report::Problem;

use crate::Family;

/// Why a batch comparison could not run.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// An input path does not exist.
    #[error("{}: no such file or directory", .0.display())]
    NoSuchPath(PathBuf),
    /// An input directory could not be listed.
    #[error("{}: cannot list", root.display())]
    CannotList {
        /// The input path.
        root: PathBuf,
        /// What the walk met.
        source: ignore::Error,
    },
    /// An include or exclude glob does not parse.
    #[error("invalid {option} glob {glob:?}")]
    InvalidGlob {
        /// `--include` or `--exclude`.
        option: &'static str,
        /// The glob as given.
        glob: String,
        /// Why it does not parse.
        source: ignore::Error,
    },
    /// The include and exclude globs together cannot be used.
    #[error(transparent)]
    Filter(ignore::Error),
    /// `--lang` names no front-end.
    #[error("unknown language {name:?}; known: text, {known}")]
    UnknownLanguage {
        /// The name as given.
        name: String,
        /// The languages there are, comma-separated.
        known: String,
    },
    /// `--notebook-markdown` with `--lang text`.
    #[error(
        "--notebook-markdown compares notebooks' markdown cells beside their code; with --lang text the code cells are read as text"
    )]
    MarkdownWithoutCode,
    /// The `--group` pattern is not a regular expression.
    #[error("invalid --group pattern")]
    InvalidGroup(#[source] regex::Error),
    /// No file of the batch could be read.
    #[error("nothing to compare: no readable file in {paths}")]
    NoReadableFile {
        /// The new paths, comma-separated.
        paths: String,
        /// Why each file that was found could not be read, and what the
        /// walk could not list or did not follow.
        problems: Vec<Problem>,
    },
    /// No language has two units, one of them new.
    #[error(
        "nothing to compare in {paths} ({families}): each language is compared on its own and needs two units, at least one new (check the paths, --include/--exclude and .gitignore, or use --lang to read every file as one language)"
    )]
    NothingComparable {
        /// The new paths, comma-separated.
        paths: String,
        /// The units and new units of each language.
        families: String,
        /// The languages (or text) the batch's units were read as.
        found: Vec<Family>,
        /// Every problem of the batch: files that could not be read,
        /// units left out, what the walk could not list.
        problems: Vec<Problem>,
    },
    /// More than one report was to go to standard output.
    #[error("only one of --json, --csv and --report can write to standard output (-)")]
    ReportsOnStdout,
    /// A report or the table could not be written: where, and why.
    #[error("{context}")]
    WriteReport {
        /// The file or stream, and what failed.
        context: String,
        /// Why.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The comparison refused its settings.
    #[error(transparent)]
    Compare(#[from] CompareError),
    /// An archive or database could not be opened, read or written.
    #[error(transparent)]
    Database(#[from] copyhound_db::DbError),
    /// An archive's settings hold a line this build does not know.
    #[error(
        "the archive's settings hold {0:?}, which this build does not know; make a new archive with this build"
    )]
    ArchiveSettings(String),
    /// Archives compared against were made with different settings.
    #[error(
        "{first} and {other} were made with different settings; compare against archives made alike"
    )]
    ArchivesDiffer {
        /// The first archive.
        first: PathBuf,
        /// One made otherwise.
        other: PathBuf,
    },
    /// Settings chosen on the command line conflict with the archive's.
    #[error("{}: the archive's settings are used with --against; leave these out:\n  {}", archive.display(), conflicts.join("\n  "))]
    ConflictsWithArchive {
        /// The archive.
        archive: PathBuf,
        /// One line per conflicting option.
        conflicts: Vec<String>,
    },
    /// Base code cannot be masked in a comparison against an archive: the
    /// archive's counts include the base code's fingerprints.
    #[error(
        "--base cannot be used with --against: the archive counts every fingerprint of its units, base code included"
    )]
    BaseWithArchive,
    /// What an add stored could not be told (its output is closed); the
    /// units were stored.
    #[error("cannot report the units stored")]
    Output(#[source] std::io::Error),
}

impl PipelineError {
    /// A [`PipelineError::WriteReport`] error.
    pub fn write_report(
        context: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        Self::WriteReport {
            context: context.into(),
            source: Box::new(source),
        }
    }

    /// The problems of the batch (files that could not be read, units
    /// left out), when there was nothing to compare: worth showing with
    /// the error.
    pub fn problems(&self) -> &[Problem] {
        match self {
            Self::NoReadableFile { problems, .. } | Self::NothingComparable { problems, .. } => {
                problems
            }
            _ => &[],
        }
    }
}
