//! The code archive of earlier batches (`copyhound db init --code`, `db add`,
//! `compare --against`): units stored once with their fingerprints and
//! files (`copyhound_db::code_archive`), read and fingerprinted with the
//! settings the archive was made with, as `compare` reads a batch.
//!
//! - [`ArchiveSettings`]: the front-end and selection an archive keeps;
//! - [`create_archive`], [`add_to_archive`]: making one and registering
//!   units by compare's unit rules, each unit once (an unchanged unit is
//!   skipped, a changed one replaced on request);
//! - `against`: what a batch compared against archives takes from them —
//!   the archived units that share a fingerprint with a new unit, read
//!   again from their kept bytes, and the fingerprint counts of all the
//!   others ([`copyhound_index::UnitsElsewhere`]), so that every pair
//!   scores as in a comparison of the batch and the whole archive;
//! - [`check_submission`]: one submission (a code file, or a zip read as
//!   one unit) checked against an archive by that same comparison, what
//!   the server's `POST /api/archive/search` answers.

mod add;
pub(crate) mod against;
mod settings;
mod submission;

use std::path::{Path, PathBuf};

use copyhound_db::code_archive::Archive;

pub use add::{AddOutcome, Stored, Storing, UNITS_PER_TRANSACTION, add_to_archive};
pub use settings::ArchiveSettings;
pub use submission::{
    ArchiveMatch, MatchedFile, SharedFragment, SharedPassage, Submission, SubmissionError,
    SubmissionRequest, SubmissionResult, check_submission,
};

use crate::{CompareSettings, FrontEnd, FrontEndChoice, PipelineError, Selection};

/// Creates an archive at `dir` that reads and fingerprints units with
/// `settings`, keeping their files' bytes when `keep_texts` (otherwise
/// they are read again from where they were added); returns what
/// `db init --code` says it made.
pub fn create_archive(
    dir: &Path,
    settings: &ArchiveSettings,
    keep_texts: bool,
) -> Result<String, PipelineError> {
    FrontEnd::new(&settings.front_end)?;
    Archive::create(dir, &settings.to_text(), keep_texts)?;
    let texts = if keep_texts {
        "files kept compressed"
    } else {
        "files read again from where they were added"
    };
    Ok(format!("created {} (code archive, {texts})", dir.display()))
}

/// The settings of the archive at `dir`; `limits` gives what the archive
/// does not keep (size and memory limits, isolation).
pub fn archive_settings(
    dir: &Path,
    limits: &FrontEndChoice,
) -> Result<ArchiveSettings, PipelineError> {
    ArchiveSettings::parse(&Archive::open(dir)?.settings()?, limits)
}

/// The front-end and selection of a comparison against `archives`: theirs,
/// with the size limits and isolation of `front_end`; an error when they
/// differ from each other, or when `front_end` or `selection` (as the user
/// chose them) conflicts with them. Against no archive, the user's own.
pub fn settings_against(
    archives: &[PathBuf],
    front_end: &FrontEndChoice,
    selection: &Selection,
) -> Result<ArchiveSettings, PipelineError> {
    let Some(first) = archives.first() else {
        return Ok(ArchiveSettings {
            front_end: front_end.clone(),
            selection: selection.clone(),
        });
    };
    let settings = archive_settings(first, front_end)?;
    for other in &archives[1..] {
        if archive_settings(other, front_end)? != settings {
            return Err(PipelineError::ArchivesDiffer {
                first: first.clone(),
                other: other.clone(),
            });
        }
    }
    let conflicts = settings.conflicts(front_end, selection);
    if !conflicts.is_empty() {
        return Err(PipelineError::ConflictsWithArchive {
            archive: first.clone(),
            conflicts,
        });
    }
    Ok(settings)
}

/// Whether `dir` holds an archive (rather than a text database).
pub fn is_archive(dir: &Path) -> bool {
    Archive::exists(dir)
}

/// An open archive and the comparison settings it reads units with.
pub(crate) struct OpenArchive {
    pub archive: Archive,
    pub settings: CompareSettings,
}

impl OpenArchive {
    /// The archive at `dir`; `limits` as in [`archive_settings`].
    pub(crate) fn open(dir: &Path, limits: &FrontEndChoice) -> Result<Self, PipelineError> {
        let archive = Archive::open(dir)?;
        let kept = ArchiveSettings::parse(&archive.settings()?, limits)?;
        let settings = CompareSettings {
            front_end: FrontEnd::new(&kept.front_end)?,
            selection: kept.selection,
            ..CompareSettings::default()
        };
        Ok(Self { archive, settings })
    }
}
