//! What a run reports while it goes: its stages and steps, and what it
//! warns about as soon as it knows. The command line draws a progress bar
//! and prints the warnings; a library user may ignore them all (`()`).

use std::fmt;
use std::path::Path;

use copyhound_report::Problem;

/// The stages of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Reading and normalising files, one step per file; files are found
    /// while the stage runs ([`Progress::found`]).
    Load,
    /// Fingerprinting the files kept, one step per file.
    Hash,
    /// A stage of one family's comparison.
    Compare(copyhound_index::Stage),
}

impl Stage {
    /// What the stage does, in a word, as a progress bar shows it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Load => "loading",
            Self::Hash => "hashing",
            Self::Compare(copyhound_index::Stage::Prepare) => "preparing",
            Self::Compare(copyhound_index::Stage::Index) => "indexing",
            Self::Compare(copyhound_index::Stage::Candidates) => "pairing",
            Self::Compare(copyhound_index::Stage::Score) => "scoring",
        }
    }
}

/// Something a user should know that does not stop the run.
#[derive(Clone, Copy, Debug)]
pub enum Warning<'a> {
    /// A file was read, with a remark of its front-end (an empty file, a
    /// guessed encoding, replaced bytes…).
    Read {
        /// The file.
        path: &'a Path,
        /// The remark.
        message: &'a str,
    },
    /// A unit or file is left out of the comparison, or is too short to
    /// check; the report lists it too.
    LeftOut(&'a Problem),
    /// What `--unit auto` chose for a path whose layout was mixed, and how
    /// to choose otherwise.
    Layout(&'a str),
}

/// The warning in words, naming the file or unit.
impl fmt::Display for Warning<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Read { path, message } => write!(f, "{}: {message}", path.display()),
            Self::LeftOut(problem) => f.write_str(&problem.message),
            Self::Layout(message) => f.write_str(message),
        }
    }
}

/// Receives a run's progress; called from several threads.
pub trait Progress: Sync {
    /// A stage begins with `total` steps.
    fn start(&self, stage: Stage, total: u64);
    /// One more step to do in the current stage, whose total was not known
    /// at its start.
    fn found(&self);
    /// `steps` more steps of the current stage are done.
    fn advance(&self, steps: u64);
    /// A warning, as soon as it is known.
    fn warn(&self, warning: Warning<'_>);
}

/// Reports nothing.
impl Progress for () {
    fn start(&self, _: Stage, _: u64) {}
    fn found(&self) {}
    fn advance(&self, _: u64) {}
    fn warn(&self, _: Warning<'_>) {}
}

/// The stages of a family's comparison, passed on as [`Stage::Compare`].
pub(crate) struct CompareProgress<'a>(pub &'a dyn Progress);

impl copyhound_index::Progress for CompareProgress<'_> {
    fn start(&self, stage: copyhound_index::Stage, total: u64) {
        self.0.start(Stage::Compare(stage), total);
    }

    fn advance(&self, steps: u64) {
        self.0.advance(steps);
    }
}
