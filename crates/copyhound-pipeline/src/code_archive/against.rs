//! What a batch compared against archives takes from them, one family at
//! a time: the archived units that share a fingerprint hash with a unit of
//! the batch (only they can pair with one), made from the symbols, spans
//! and line starts the archive keeps (or their files normalised again with
//! the batch's front-end, when it keeps no texts), and how many of the other
//! archived units hold each hash of those units, so that rarity weights
//! and the occurrence limit count the whole archive.
//!
//! The stored hashes are decoded twice at most: once for every unit, to
//! find which hashes of the batch it holds (and so the occurrence limit
//! and the units that can pair), on every thread; and once for the units
//! left out, to count them, if any are (at scale nearly every archived
//! unit shares a fingerprint with the batch). Texts are not read: the
//! archive keeps them apart, and an output fetches the text of the few
//! archived units it shows ([`Archives::text`]). Units are read a chunk at
//! a time.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use copyhound_db::DbError;
use copyhound_db::code_archive::{Archive, ArchivedUnit, PrintChunk, UnitId};
use copyhound_fingerprint::Scheme;
use copyhound_index::{Document, HashDirectory, MaxOccurrences, Role, Unit, UnitsElsewhere};
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
        batch_hashes.par_sort_unstable();
        batch_hashes.dedup();
        // About one hash to a run: every stored hash of the archive is
        // looked up, and most are not the batch's.
        let lookup = HashDirectory::new(batch_hashes, 1);
        let held = self.batch_hashes_held(family, &lookup)?;
        let pairing = pairing_hashes(units, &lookup, &held, max_occurrences);
        let mut pulled = Pulled {
            units: Vec::new(),
            roots: Vec::new(),
            kept_at: Vec::new(),
            elsewhere: UnitsElsewhere::default(),
            problems: Vec::new(),
        };
        let chosen: Vec<Vec<UnitId>> = held.iter().map(|h| h.pairing(&pairing)).collect();
        let archived: usize = held.iter().map(|h| h.units).sum();
        let to_pull: usize = chosen.iter().map(Vec::len).sum();
        // The units left out are counted by their hashes: all of them
        // when they are no more than the units pulled (at scale nearly
        // every archived unit shares some fingerprint with the batch, and
        // then none or few are left), else only the hashes the batch and
        // the pulled units hold, looked up.
        let mut wanted = (archived - to_pull > to_pull).then(|| lookup.hashes().to_vec());
        let mut kept_ids: Vec<Vec<UnitId>> = Vec::with_capacity(self.open.len());
        for (place, ((root, archive), ids)) in self.open.iter().zip(&chosen).enumerate() {
            let mut kept = Vec::with_capacity(ids.len());
            for chunk in ids.chunks(PULL_CHUNK) {
                // Decompressing a unit and fingerprinting it again are
                // spread over the threads.
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
                            if let Some(wanted) = &mut wanted {
                                wanted.extend_from_slice(&unit.hashes);
                            }
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
            kept_ids.push(kept);
        }
        pulled.elsewhere = self.left_out(family, &kept_ids, archived, wanted)?;
        Ok(pulled)
    }

    /// The archived units of `family` not among the units `kept` (by
    /// archive) of the `archived` there are, as counts: of every hash they
    /// hold, or, with `wanted`, of those of its hashes they hold.
    fn left_out(
        &self,
        family: Family,
        kept: &[Vec<UnitId>],
        archived: usize,
        wanted: Option<Vec<u64>>,
    ) -> Result<UnitsElsewhere, PipelineError> {
        let others = archived - kept.iter().map(Vec::len).sum::<usize>();
        if others == 0 {
            return Ok(UnitsElsewhere::default());
        }
        let Some(mut wanted) = wanted else {
            // Few: each one's hashes, counted by sorting them all.
            let mut hashes: Vec<u64> = Vec::new();
            self.each_left_out(family, kept, |chunk| {
                let found = decode_in_parallel(chunk, <[u64]>::to_vec)?;
                hashes.extend(found.into_iter().flatten());
                Ok(())
            })?;
            hashes.par_sort_unstable();
            let counts = hashes.chunk_by(|x, y| x == y);
            let counts = counts.map(|run| (run[0], run.len() as u32)).collect();
            return Ok(UnitsElsewhere::new(others, counts));
        };
        wanted.par_sort_unstable();
        wanted.dedup();
        // Every hash of every unit left out is looked up: a step or two
        // each, where a search of millions of hashes missed the cache at
        // each halving (most of the time one file checked against 100,000
        // archived units took).
        let wanted = HashDirectory::new(wanted, 1);
        let mut counts = vec![0u32; wanted.len()];
        self.each_left_out(family, kept, |chunk| {
            let found = decode_in_parallel(chunk, |hashes| {
                hashes
                    .iter()
                    .filter_map(|&hash| wanted.position(hash))
                    .collect::<Vec<usize>>()
            })?;
            found.iter().flatten().for_each(|&i| counts[i] += 1);
            Ok(())
        })?;
        let wanted = wanted.hashes().iter().copied();
        let counts = wanted.zip(counts).filter(|&(_, c)| c > 0);
        Ok(UnitsElsewhere::new(others, counts.collect()))
    }

    /// `each` chunk of the stored prints of the archived units of
    /// `family` not among `kept` (by archive).
    fn each_left_out(
        &self,
        family: Family,
        kept: &[Vec<UnitId>],
        mut each: impl FnMut(&PrintChunk) -> Result<(), DbError>,
    ) -> Result<(), PipelineError> {
        for ((_, archive), kept) in self.open.iter().zip(kept) {
            let skip = |id| kept.binary_search(&id).is_ok();
            archive.for_each_print_chunk(family.name(), skip, &mut each)?;
        }
        Ok(())
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
    /// For each archive, which hashes of the batch (places in `lookup`)
    /// each of its units of `family` holds: one pass over the stored
    /// hashes, decoded on every thread.
    fn batch_hashes_held(
        &self,
        family: Family,
        lookup: &HashDirectory,
    ) -> Result<Vec<HeldHashes>, PipelineError> {
        self.open
            .iter()
            .map(|(_, archive)| {
                let mut held = HeldHashes::default();
                archive.for_each_print_chunk(
                    family.name(),
                    |_| false,
                    |chunk| {
                        let found = decode_in_parallel(chunk, |hashes| {
                            hashes
                                .iter()
                                .filter_map(|&hash| lookup.position(hash))
                                .map(|place| place as u32)
                                .collect::<Vec<u32>>()
                        })?;
                        held.units += chunk.len();
                        for (i, places) in found.into_iter().enumerate() {
                            if !places.is_empty() {
                                held.ids.push(chunk.id(i));
                                held.places.extend(places);
                                held.ends.push(held.places.len());
                            }
                        }
                        Ok(())
                    },
                )?;
                Ok(held)
            })
            .collect()
    }
}

/// `each` applied to the hashes of every unit of `chunk`, on every thread.
fn decode_in_parallel<T: Send>(
    chunk: &PrintChunk,
    each: impl Fn(&[u64]) -> T + Sync,
) -> Result<Vec<T>, DbError> {
    (0..chunk.len())
        .into_par_iter()
        .map_init(Vec::new, |hashes, i| {
            chunk.hashes(i, hashes)?;
            Ok(each(hashes))
        })
        .collect()
}

/// The units of one archive that hold hashes of the batch, and which.
#[derive(Debug, Default)]
struct HeldHashes {
    /// How many units of the family the archive has, holding any or not.
    units: usize,
    /// The units holding any, in id order.
    ids: Vec<UnitId>,
    /// Where each unit's places end in `places`.
    ends: Vec<usize>,
    /// The places (in the batch's hashes) of the hashes each holds.
    places: Vec<u32>,
}

impl HeldHashes {
    /// The places each unit holds, with its id.
    fn each(&self) -> impl Iterator<Item = (UnitId, &[u32])> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        self.ids
            .iter()
            .zip(starts.zip(&self.ends))
            .map(|(&id, (start, &end))| (id, &self.places[start..end]))
    }

    /// The units holding a hash `pairing` marks, in id order: only they
    /// can pair with a unit of the batch.
    fn pairing(&self, pairing: &[bool]) -> Vec<UnitId> {
        self.each()
            .filter(|(_, places)| places.iter().any(|&p| pairing[p as usize]))
            .map(|(id, _)| id)
            .collect()
    }
}

/// Which hashes of the batch (by place in `lookup`) can pair units: all
/// of them, unless `max_occurrences` drops those that more units of the
/// batch and the archives hold than it allows.
fn pairing_hashes(
    units: &[Unit],
    lookup: &HashDirectory,
    held: &[HeldHashes],
    max_occurrences: MaxOccurrences,
) -> Vec<bool> {
    if max_occurrences == MaxOccurrences::Unlimited {
        return vec![true; lookup.len()];
    }
    let mut holders = vec![0usize; lookup.len()];
    for unit in units {
        let mut own: Vec<usize> = unit_hashes(unit)
            .filter_map(|hash| lookup.position(hash))
            .collect();
        own.sort_unstable();
        own.dedup();
        for i in own {
            holders[i] += 1;
        }
    }
    for held in held {
        held.places.iter().for_each(|&i| holders[i as usize] += 1);
    }
    let archived: usize = held.iter().map(|h| h.units).sum();
    let limit = max_occurrences.limit(units.len() + archived);
    holders.into_iter().map(|count| count <= limit).collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_units_holding_a_pairing_hash_pair() {
        let held = HeldHashes {
            units: 5,
            ids: vec![2, 3, 7],
            ends: vec![2, 2, 3],
            places: vec![0, 1, 2],
        };
        // Unit 3's list is empty: held hashes are listed only for units
        // holding any, but an empty one must still pair with nothing.
        assert_eq!(
            held.each().collect::<Vec<_>>(),
            [(2, &[0, 1][..]), (3, &[][..]), (7, &[2][..])]
        );
        assert_eq!(held.pairing(&[false, true, false]), [2]);
        assert_eq!(held.pairing(&[false, false, true]), [7]);
        assert_eq!(held.pairing(&[true, true, true]), [2, 7]);
    }
}
