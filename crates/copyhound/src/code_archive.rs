//! The code archive on the command line: `db init --code` makes one, `db
//! add` on one registers units by compare's unit rules, and `compare
//! --against` / `--add-to` take their settings from it and add to it (the
//! work is `copyhound_pipeline::archive`'s).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use copyhound_normalize::TextMode;
use copyhound_normalize::code::Level;
use copyhound_pipeline::code_archive::{
    AddOutcome, ArchiveSettings, add_to_archive, archive_settings, create_archive,
};
use copyhound_pipeline::{FrontEndChoice, Inputs, PipelineError, Selection, UnitMode, WalkFilter};

use crate::front_end::isolated_extractor;

/// What `db init --code` is told.
pub struct CodeInit<'a> {
    pub dir: &'a Path,
    pub lang: Option<String>,
    pub level: Level,
    pub text_mode: TextMode,
    pub k: Option<usize>,
    pub w: Option<usize>,
    pub seed: u64,
    pub keep_texts: bool,
}

/// `db init --code`.
pub fn init(init: &CodeInit<'_>) -> Result<ExitCode> {
    let settings = ArchiveSettings {
        front_end: FrontEndChoice {
            lang: init.lang.clone(),
            level: init.level,
            text_mode: init.text_mode,
            ..FrontEndChoice::default()
        },
        selection: Selection {
            k: init.k,
            w: init.w,
            seed: init.seed,
            ..Selection::default()
        },
    };
    create_archive(init.dir, &settings, init.keep_texts)?;
    let texts = if init.keep_texts {
        "files kept compressed"
    } else {
        "files read again from where they were added"
    };
    println!("created {} (code archive, {texts})", init.dir.display());
    Ok(ExitCode::SUCCESS)
}

/// What the archive does not keep: the default size limits, PDFs extracted
/// in a child process.
fn limits() -> FrontEndChoice {
    FrontEndChoice {
        isolation: isolated_extractor(),
        ..FrontEndChoice::default()
    }
}

/// `db add` on an archive: registers the units of `paths`, one line per
/// unit on stdout; a changed unit is replaced only when `update`. Exit
/// status 1 when a file could not be read or a changed unit was left as it
/// was.
pub fn add(
    dir: &Path,
    paths: &[PathBuf],
    unit: UnitMode,
    filter: WalkFilter,
    update: bool,
) -> Result<ExitCode> {
    let outcome = register(dir, paths, unit, filter, update)?;
    let mut out = io::stdout().lock();
    for name in &outcome.added {
        writeln!(out, "added\t{name}")?;
    }
    for name in &outcome.updated {
        writeln!(out, "updated\t{name}")?;
    }
    for name in &outcome.unchanged {
        writeln!(
            out,
            "unchanged\t{name}\t(already archived with the same files: skipped)"
        )?;
    }
    for name in &outcome.changed {
        writeln!(
            out,
            "changed\t{name}\t(archived with other files: not updated; --update replaces it)"
        )?;
    }
    let failed = !outcome.changed.is_empty() || outcome.problems.iter().any(is_unreadable);
    Ok(ExitCode::from(u8::from(failed)))
}

/// Registers the units of `paths` in the archive at `dir`, warning on
/// stderr of the files left out.
pub fn register(
    dir: &Path,
    paths: &[PathBuf],
    unit: UnitMode,
    filter: WalkFilter,
    update: bool,
) -> Result<AddOutcome> {
    let inputs = Inputs {
        new: paths.to_vec(),
        unit,
        filter,
        ..Inputs::default()
    };
    let outcome = add_to_archive(dir, &inputs, &limits(), update, &())?;
    for problem in &outcome.problems {
        eprintln!("copyhound: warning: {}", problem.message);
    }
    Ok(outcome)
}

fn is_unreadable(problem: &copyhound_report::Problem) -> bool {
    problem.kind == copyhound_report::ProblemKind::Unreadable
}

/// The front-end and selection of a comparison against `archives`: theirs,
/// with `limits`' size limits and isolation; an error when they differ from
/// each other, or when `front_end` or `selection` (as the user chose them)
/// conflicts with them.
pub fn settings_of(
    archives: &[PathBuf],
    front_end: &FrontEndChoice,
    selection: &Selection,
) -> Result<ArchiveSettings, PipelineError> {
    let first = &archives[0];
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
