//! Why an experiment could not run: always the file or setting at fault.

use std::path::PathBuf;

use copyhound_normalize::LoadError;

/// An experiment's failure.
#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    /// A file of the corpus could not be loaded (the error names it).
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A path given as corpus could not be walked.
    #[error("{}: cannot read: {message}", path.display())]
    Walk {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The paths held no document with enough symbols.
    #[error("no document with at least {min_symbols} symbols under {}", paths.join(", "))]
    EmptyCorpus {
        /// The paths, as given.
        paths: Vec<String>,
        /// The fewest symbols a document needs.
        min_symbols: usize,
    },
    /// A setting is out of range.
    #[error("{name}: {problem}")]
    Setting {
        /// The option.
        name: &'static str,
        /// What is wrong with its value.
        problem: String,
    },
    /// The Koala database the experiment builds failed.
    #[error("the experiment's Koala database: {0}")]
    Database(#[from] copyhound_db::DbError),
    /// A temporary directory or an output file failed.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// Drawing a plot failed.
    #[error("drawing the plot: {0}")]
    Plot(String),
}

impl ExperimentError {
    /// A [`ExperimentError::Setting`] error.
    pub fn setting(name: &'static str, problem: impl Into<String>) -> Self {
        Self::Setting {
            name,
            problem: problem.into(),
        }
    }
}
