//! What a batch compared against archives takes from them, one family at
//! a time: the archived units that share a fingerprint hash with a unit of
//! the batch (only they can pair with one), made from the symbols, spans
//! and line starts the archive keeps (or their files normalised again with
//! the batch's front-end, when it keeps no texts), and how many of the other
//! archived units hold each hash of those units, so that rarity weights
//! and the occurrence limit count the whole archive.
//!
//! Texts are not read: the archive keeps them apart, and an output fetches
//! the text of the few archived units it shows ([`Archives::text`]).
//! Units are read a chunk at a time.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use copyhound_db::code_archive::{Archive, ArchivedUnit, UnitId};
use copyhound_fingerprint::Scheme;
use copyhound_index::{Document, MaxOccurrences, Role, Unit, UnitsElsewhere};
use copyhound_normalize::{LoadedDocument, load_bytes};
use copyhound_report::{Problem, ProblemKind};
use copyhound_source::{CellStart, LineIndex};
use rayon::prelude::*;

use super::add::file_bytes;
use crate::archive::ArchiveLimits;
use crate::{Family, FrontEnd, PipelineError};

/// The archives a batch is compared against.
#[derive(Debug, Default)]
pub(crate) struct Archives {
    open: Vec<(String, Archive)>,
}

/// Where an archived unit is kept: the place of its archive among those
/// given, and its id there.
pub(crate) type KeptAt = (usize, UnitId);

/// How many archived units are read (and their texts held) at once.
const PULL_CHUNK: usize = 1024;

/// How many of them one thread decodes in one read transaction.
const DECODE_PIECE: usize = 32;

/// What one family takes from the archives.
pub(crate) struct Pulled {
    /// The archived units that can pair with the batch, as old units.
    pub units: Vec<Unit>,
    /// The archive each came from, as given.
    pub roots: Vec<String>,
    /// Where each is kept, for [`Archives::text`].
    pub kept_at: Vec<KeptAt>,
    /// The other archived units of the family.
    pub elsewhere: UnitsElsewhere,
    /// Archived units that could not be read again.
    pub problems: Vec<Problem>,
}

impl Archives {
    /// The archives at `dirs`.
    pub(crate) fn open(dirs: &[PathBuf]) -> Result<Self, PipelineError> {
        let open = dirs
            .iter()
            .map(|dir| Ok((dir.display().to_string(), Archive::open(dir)?)))
            .collect::<Result<_, PipelineError>>()?;
        Ok(Self { open })
    }

    /// How many archived units each family has.
    pub(crate) fn family_counts(&self) -> Result<BTreeMap<Family, usize>, PipelineError> {
        let mut counts = BTreeMap::new();
        for (_, archive) in &self.open {
            for (name, units) in archive.families()? {
                if let Some(family) = Family::from_name(&name) {
                    *counts.entry(family).or_default() += units;
                }
            }
        }
        Ok(counts)
    }

    /// What `family` takes from the archives for a batch of `units`,
    /// archived units read with `front_end` and fingerprinted with
    /// `scheme`, fingerprints held by more units than `max_occurrences`
    /// allows pairing none.
    pub(crate) fn pull(
        &self,
        family: Family,
        units: &[Unit],
        (front_end, scheme): (&FrontEnd, &Scheme),
        max_occurrences: MaxOccurrences,
    ) -> Result<Pulled, PipelineError> {
        let mut batch_hashes: Vec<u64> = units.iter().flat_map(unit_hashes).collect();
        batch_hashes.sort_unstable();
        batch_hashes.dedup();
        let pairing = self.pairing(family, units, &batch_hashes, max_occurrences)?;
        let shares = |hashes: &[u64]| hashes.iter().any(|h| pairing.binary_search(h).is_ok());
        let mut pulled = Pulled {
            units: Vec::new(),
            roots: Vec::new(),
            kept_at: Vec::new(),
            elsewhere: UnitsElsewhere::default(),
            problems: Vec::new(),
        };
        let mut chosen: Vec<Vec<UnitId>> = Vec::with_capacity(self.open.len());
        let mut wanted = batch_hashes.clone();
        for (place, (root, archive)) in self.open.iter().enumerate() {
            let mut ids = Vec::new();
            archive.for_each_print(family.name(), |id, hashes| {
                if shares(hashes) {
                    ids.push(id);
                }
            })?;
            let mut kept = Vec::with_capacity(ids.len());
            for chunk in ids.chunks(PULL_CHUNK) {
                // Decoding (inflating) a unit costs as much as making it
                // again: both are spread over the threads.
                let pieces = chunk
                    .par_chunks(DECODE_PIECE)
                    .map(|piece| {
                        let mut stored = archive.units(piece)?;
                        let kept = archive.keeps_texts();
                        let read: Vec<Result<Reread, Problem>> = stored
                            .iter_mut()
                            .map(|unit| read_again(unit, kept, family, front_end, scheme))
                            .collect();
                        Ok(stored.into_iter().zip(read))
                    })
                    .collect::<Result<Vec<_>, PipelineError>>()?;
                for ((unit, read), &id) in pieces.into_iter().flatten().zip(chunk) {
                    match read {
                        Ok(Reread {
                            unit: compared,
                            problem,
                        }) => {
                            wanted.extend_from_slice(&unit.hashes);
                            pulled.units.push(compared);
                            pulled.roots.push(root.clone());
                            pulled.kept_at.push((place, id));
                            pulled.problems.extend(problem);
                            kept.push(id);
                        }
                        // Not compared, but still counted with the others.
                        Err(problem) => pulled.problems.push(problem),
                    }
                }
            }
            chosen.push(kept);
        }
        wanted.sort_unstable();
        wanted.dedup();
        let mut counts = vec![0u32; wanted.len()];
        let mut others = 0;
        for ((_, archive), kept) in self.open.iter().zip(&chosen) {
            archive.for_each_print(family.name(), |id, hashes| {
                if kept.binary_search(&id).is_ok() {
                    return;
                }
                others += 1;
                for hash in hashes {
                    if let Ok(i) = wanted.binary_search(hash) {
                        counts[i] += 1;
                    }
                }
            })?;
        }
        let counts = wanted.into_iter().zip(counts).filter(|&(_, c)| c > 0);
        pulled.elsewhere = UnitsElsewhere::new(others, counts.collect());
        Ok(pulled)
    }

    /// The text of document `document` of the archived unit `kept_at`,
    /// which its spans index into: as the archive keeps it (apart from its
    /// symbols: only an output that shows it reads it), or, when it keeps
    /// no texts, its file read again with `front_end`. `None` when neither
    /// can be read any more.
    pub(crate) fn text(
        &self,
        (place, id): KeptAt,
        document: usize,
        front_end: &FrontEnd,
    ) -> Option<String> {
        let (_, archive) = self.open.get(place)?;
        if archive.keeps_texts() {
            return archive.text(id, document).ok().flatten();
        }
        let unit = archive.units(&[id]).ok()?.pop()?;
        load_again(&unit.files.get(document)?.path, front_end)
            .ok()
            .map(|loaded| loaded.text)
    }
}

impl Archives {
    /// The hashes of `batch_hashes` (those of `units`, ascending) that can
    /// pair units: all of them, unless `max_occurrences` drops those that
    /// more units of the batch and the archives hold than it allows. Only
    /// an archived unit holding one of these can pair with a unit of the
    /// batch in a comparison of both.
    fn pairing(
        &self,
        family: Family,
        units: &[Unit],
        batch_hashes: &[u64],
        max_occurrences: MaxOccurrences,
    ) -> Result<Vec<u64>, PipelineError> {
        if max_occurrences == MaxOccurrences::Unlimited {
            return Ok(batch_hashes.to_vec());
        }
        let slot = |hash: &u64| batch_hashes.binary_search(hash).ok();
        let mut holders = vec![0usize; batch_hashes.len()];
        for unit in units {
            let mut own: Vec<u64> = unit_hashes(unit).collect();
            own.sort_unstable();
            own.dedup();
            own.iter().filter_map(slot).for_each(|i| holders[i] += 1);
        }
        let mut archived = 0;
        for (_, archive) in &self.open {
            archive.for_each_print(family.name(), |_, hashes| {
                archived += 1;
                hashes.iter().filter_map(slot).for_each(|i| holders[i] += 1);
            })?;
        }
        let limit = max_occurrences.limit(units.len() + archived);
        Ok(batch_hashes
            .iter()
            .zip(&holders)
            .filter(|&(_, &count)| count <= limit)
            .map(|(&hash, _)| hash)
            .collect())
    }
}

/// The fingerprint hashes of `unit`, repeated as often as they occur.
fn unit_hashes(unit: &Unit) -> impl Iterator<Item = u64> + '_ {
    unit.documents
        .iter()
        .flat_map(|d| d.fingerprints().iter().map(|f| f.hash))
}

/// The archived file at `path` read again from where it was added, with
/// `front_end`; what went wrong, said.
fn load_again(path: &Path, front_end: &FrontEnd) -> Result<LoadedDocument, String> {
    let bytes = file_bytes(path, &ArchiveLimits::default())
        .ok_or_else(|| format!("{}: cannot be read any more", path.display()))?;
    load_bytes(path, &bytes, front_end.load_options()).map_err(|e| e.to_string())
}

/// An archived unit read again.
struct Reread {
    unit: Unit,
    /// Said when its fingerprints are not those it was stored with (the
    /// archive was made by a build that normalises otherwise).
    problem: Option<Problem>,
}

/// `unit` as an old unit, fingerprinted: from the symbols, spans and line
/// starts the archive keeps when it keeps texts (`texts_kept`), or its
/// files read and normalised again when it keeps none (so that spans and
/// the text read again agree).
fn read_again(
    unit: &mut ArchivedUnit,
    texts_kept: bool,
    family: Family,
    front_end: &FrontEnd,
    scheme: &Scheme,
) -> Result<Reread, Problem> {
    let problem = |message: String| Problem {
        path: unit.name.clone(),
        message: format!("{} (archived): {message}", unit.name),
        kind: ProblemKind::Unreadable,
    };
    let mut documents = Vec::with_capacity(unit.files.len());
    for file in &mut unit.files {
        let (form, lines) = if texts_kept {
            let cells: Vec<CellStart> = file
                .cells
                .iter()
                .map(|&(number, offset)| CellStart {
                    number,
                    offset: usize::try_from(offset).unwrap_or(usize::MAX),
                })
                .collect();
            let lines = LineIndex::from_later_starts(std::mem::take(&mut file.line_starts))
                .with_cells(&cells);
            (std::mem::take(&mut file.form), lines)
        } else {
            let loaded = load_again(&file.path, front_end).map_err(problem)?;
            if Family::of(loaded.kind) != family {
                return Err(problem(format!(
                    "{} is read as {} now",
                    file.name, loaded.kind
                )));
            }
            let lines = loaded.line_index();
            (loaded.doc, lines)
        };
        documents.push(Document::fingerprinted(file.name.clone(), form, scheme).with_lines(lines));
    }
    let mut hashes: Vec<u64> = documents
        .iter()
        .flat_map(|d| d.fingerprints().iter().map(|f| f.hash))
        .collect();
    hashes.sort_unstable();
    hashes.dedup();
    let problem = (hashes != unit.hashes).then(|| Problem {
        path: unit.name.clone(),
        message: format!(
            "{} (archived): its fingerprints differ from those stored (archived by another build?); its scores may differ from a comparison of both",
            unit.name
        ),
        kind: ProblemKind::Skipped,
    });
    Ok(Reread {
        unit: Unit::new(unit.name.clone(), documents).with_role(Role::Old),
        problem,
    })
}
