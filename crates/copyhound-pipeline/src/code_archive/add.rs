//! Registering units in an archive: the walk, the unit rules and the
//! front-end of `compare`, each unit fingerprinted with its family's scheme
//! under the archive's settings and stored with its files' normalised
//! symbols and texts.

use std::io::{self, Write};
use std::path::Path;

use copyhound_db::code_archive::{ArchivedFile, ArchivedUnit};
use copyhound_report::{Problem, ProblemKind};
use rayon::prelude::*;

use super::OpenArchive;
use crate::archive::{ArchiveLimits, read_entry};
use crate::load::{LoadedUnit, Texts, load_in_slices};
use crate::progress::Progress;
use crate::{CompareSettings, Family, FrontEndChoice, Inputs, PipelineError};

/// Units stored per transaction, by default.
pub const UNITS_PER_TRANSACTION: usize = 256;

/// Units loaded at once: enough to keep every thread busy, few enough
/// that what they hold (texts, symbols) stays small.
const UNITS_PER_SLICE: usize = 4096;

/// A unit one transaction stored: its name, and whether it replaced an
/// archived unit of that name (`update`) rather than being new.
pub type Stored = (String, bool);

/// What is told the units of each transaction once they are durable.
pub type OnCommit<'a> = &'a mut dyn FnMut(&[Stored]) -> io::Result<()>;

/// How [`add_to_archive`] stores units, and whom it tells.
pub struct Storing<'a> {
    /// A unit archived with other files is replaced (without it, it is
    /// reported and left as it was).
    pub update: bool,
    /// Units per transaction: a killed `db add` loses at most the
    /// transaction it was writing.
    pub batch: usize,
    /// Told the units each transaction stored, once they are durable.
    pub committed: Option<OnCommit<'a>>,
}

impl Default for Storing<'_> {
    /// New units only, [`UNITS_PER_TRANSACTION`] at a time, told no one.
    fn default() -> Self {
        Self {
            update: false,
            batch: UNITS_PER_TRANSACTION,
            committed: None,
        }
    }
}

/// What [`add_to_archive`] did with each unit, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AddOutcome {
    /// Units new to the archive, stored.
    pub added: Vec<String>,
    /// Units whose files changed, stored again (`update`).
    pub updated: Vec<String>,
    /// Units already there with the same files, left as they were.
    pub unchanged: Vec<String>,
    /// Units already there with other files, left as they were (no
    /// `update`).
    pub changed: Vec<String>,
    /// Files and units that could not be stored, and why.
    pub problems: Vec<Problem>,
}

impl AddOutcome {
    /// Whether a file could not be read or a changed unit was left as it
    /// was.
    pub fn failed(&self) -> bool {
        !self.changed.is_empty()
            || self
                .problems
                .iter()
                .any(|p| p.kind == ProblemKind::Unreadable)
    }

    /// One line per unit one transaction stored, as `db add` prints them
    /// as it goes: `added` or `updated`, a tab, its name.
    pub fn write_stored(units: &[Stored], out: &mut impl Write) -> io::Result<()> {
        for (name, replaced) in units {
            let what = if *replaced { "updated" } else { "added" };
            writeln!(out, "{what}\t{name}")?;
        }
        out.flush()
    }

    /// One line per unit left as it was, as `db add` prints them at its
    /// end: `unchanged` or `changed`, a tab, its name, and why.
    pub fn write_skipped(&self, out: &mut impl Write) -> io::Result<()> {
        for name in &self.unchanged {
            writeln!(
                out,
                "unchanged\t{name}\t(already archived with the same files: skipped)"
            )?;
        }
        for name in &self.changed {
            writeln!(
                out,
                "changed\t{name}\t(archived with other files: not updated; --update replaces it)"
            )?;
        }
        Ok(())
    }

    /// The counts, as `compare --add-to` says them.
    pub fn summary(&self) -> String {
        format!(
            "added {} units ({} already there unchanged, {} there with other files left as they were)",
            self.added.len(),
            self.unchanged.len(),
            self.changed.len()
        )
    }
}

/// Registers the units `inputs` names (its new paths; each unit named by
/// its path relative to the path it came from) in the archive at `dir`,
/// read with the archive's settings; `limits` gives what the archive does
/// not keep (file size and memory limits, isolation). A unit already there
/// with the same files is left alone; with other files it is replaced only
/// when `storing.update`. Units are stored `storing.batch` to a
/// transaction, each told to `storing.committed` once durable.
pub fn add_to_archive(
    dir: &Path,
    inputs: &Inputs,
    limits: &FrontEndChoice,
    mut storing: Storing<'_>,
    progress: &dyn Progress,
) -> Result<AddOutcome, PipelineError> {
    let OpenArchive { archive, settings } = OpenArchive::open(dir, limits)?;
    let mut outcome = AddOutcome::default();
    let limits = &inputs.filter.archives;
    let mut pending = Vec::new();
    let mut stored: Vec<Stored> = Vec::new();
    let mut commit = |pending: &mut Vec<ArchivedUnit>, stored: &mut Vec<Stored>| {
        archive.put(&std::mem::take(pending))?;
        if let Some(committed) = storing.committed.as_mut() {
            committed(stored).map_err(PipelineError::Output)?;
        }
        stored.clear();
        Ok::<(), PipelineError>(())
    };
    // A slice of units at a time, each made and stored before the next is
    // loaded: memory holds a slice and a transaction's units, however many
    // units are added.
    let walk_problems = load_in_slices(
        inputs,
        &settings.front_end,
        Texts::Kept,
        UNITS_PER_SLICE,
        progress,
        |units| {
            let made: Vec<(Option<ArchivedUnit>, Vec<Problem>)> = units
                .into_par_iter()
                .map(|unit| archived_unit(unit, &settings, limits))
                .collect();
            for (unit, problems) in made {
                outcome.problems.extend(problems);
                let Some(unit) = unit else {
                    continue;
                };
                let name = unit.name.clone();
                let replaced = match archive.content_of(&unit.name)? {
                    None => false,
                    Some(content) if content == unit.content => {
                        outcome.unchanged.push(name);
                        continue;
                    }
                    Some(_) if storing.update => true,
                    Some(_) => {
                        outcome.changed.push(name);
                        continue;
                    }
                };
                if replaced {
                    outcome.updated.push(name.clone());
                } else {
                    outcome.added.push(name.clone());
                }
                pending.push(unit);
                stored.push((name, replaced));
                if pending.len() >= storing.batch.max(1) {
                    commit(&mut pending, &mut stored)?;
                }
            }
            Ok(())
        },
    )?;
    if !pending.is_empty() {
        commit(&mut pending, &mut stored)?;
    }
    // The walk's problems first, as a comparison lists them.
    outcome.problems.splice(0..0, walk_problems);
    Ok(outcome)
}

/// `unit` as the archive keeps it, as `compare` would compare it: the
/// files of its family (their symbols, spans and texts; their bytes read
/// again for the content hash), and its distinct
/// fingerprint hashes under `settings`; and the problems of the files left
/// out. `None` when none of its files could be read.
fn archived_unit(
    unit: LoadedUnit,
    settings: &CompareSettings,
    limits: &ArchiveLimits,
) -> (Option<ArchivedUnit>, Vec<Problem>) {
    let mut problems = Vec::new();
    let Some(family) = unit.family else {
        let path = unit.path().display().to_string();
        problems.extend(unit.files.into_iter().filter_map(|f| {
            let error = f.loaded.err()?;
            Some(Problem {
                path: f.file.path.display().to_string(),
                message: error.to_string(),
                kind: ProblemKind::Unreadable,
            })
        }));
        if problems.is_empty() {
            problems.push(Problem {
                message: format!("{path}: skipped: none of its files could be read"),
                path,
                kind: ProblemKind::Unreadable,
            });
        }
        return (None, problems);
    };
    let scheme = settings.for_family(family).scheme;
    let mut content = ContentHash::default();
    let mut hashes = Vec::new();
    let mut fingerprints = Vec::new();
    let mut files = Vec::new();
    for file in unit.files {
        let path = file.file.path.display().to_string();
        let loaded = match file.loaded {
            Ok(loaded) if Family::of(loaded.kind) == family => loaded,
            Ok(loaded) => {
                problems.push(Problem {
                    message: format!(
                        "{path}: skipped: read as {}, but most files of {} are {family}",
                        loaded.kind, unit.name
                    ),
                    path,
                    kind: ProblemKind::Skipped,
                });
                continue;
            }
            Err(error) => {
                problems.push(Problem {
                    path,
                    message: error.to_string(),
                    kind: ProblemKind::Unreadable,
                });
                continue;
            }
        };
        let Some(bytes) = file_bytes(&file.file.path, limits) else {
            problems.push(Problem {
                message: format!("{path}: cannot be read again to be archived"),
                path,
                kind: ProblemKind::Unreadable,
            });
            continue;
        };
        let line_starts = loaded.line_index().later_starts().to_vec();
        // Fingerprinted straight from the loaded symbols: the archive keeps
        // the plain form, so packing spans into a `Document` only to unpack
        // them would be wasted work.
        fingerprints.clear();
        scheme.fingerprint(&loaded.doc.symbols, &mut fingerprints);
        hashes.extend(fingerprints.iter().map(|f| f.hash));
        content.write(file.file.name.as_bytes());
        content.write_u64(bytes.len() as u64);
        content.write(&bytes);
        let stored_path = std::fs::canonicalize(&file.file.path).unwrap_or(file.file.path);
        files.push(ArchivedFile {
            name: file.file.name,
            path: stored_path,
            form: loaded.doc,
            cells: loaded
                .cells
                .iter()
                .map(|cell| (cell.number, cell.offset as u64))
                .collect(),
            line_starts,
            text: Some(loaded.text),
        });
    }
    hashes.sort_unstable();
    hashes.dedup();
    let unit = ArchivedUnit {
        name: unit.name,
        family: family.name().to_string(),
        root: unit.root,
        content: content.0,
        hashes,
        files,
    };
    (Some(unit), problems)
}

/// The bytes of the file at `path`, on disk or in a zip or tar archive
/// among its ancestors (read within `limits`).
pub(super) fn file_bytes(path: &Path, limits: &ArchiveLimits) -> Option<Vec<u8>> {
    if path.is_file() {
        std::fs::read(path).ok()
    } else {
        read_entry(path, limits)
    }
}

/// FNV-1a over a unit's file names and bytes: stable across builds and
/// platforms (the archive keeps it), and a changed file changes it.
struct ContentHash(u64);

impl Default for ContentHash {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl ContentHash {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.write(&value.to_le_bytes());
    }
}
