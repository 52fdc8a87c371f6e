//! The inverted index: fingerprint hash → postings (unit, document,
//! position), with base code and common fingerprints already removed.
//!
//! Built compactly: every fingerprint goes into one flat vector, which is
//! sorted by (hash, unit, document, position) and then split into a sorted
//! array of distinct hashes with offsets into the postings — two arrays,
//! no per-hash allocation. Hashes found in one unit only are dropped at
//! once: they can never pair two units.

use rayon::prelude::*;

use crate::{BaseCode, Unit};

/// Where one fingerprint occurs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Posting {
    /// Index of the unit in the compared batch.
    pub unit: u32,
    /// Index of the document in its unit.
    pub doc: u32,
    /// Symbol position of the k-gram in the document.
    pub pos: u32,
}

/// Counts of what the index kept and dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexStats {
    /// Fingerprints of all units.
    pub fingerprints: usize,
    /// Fingerprints dropped because their k-gram is in the base code.
    pub base_fingerprints: usize,
    /// Distinct hashes dropped for being in more units than allowed.
    pub common_hashes: usize,
    /// Fingerprints carrying those hashes.
    pub common_fingerprints: usize,
    /// Distinct hashes shared by at least two units and kept.
    pub shared_hashes: usize,
    /// Postings kept.
    pub postings: usize,
}

/// Hash → postings for the fingerprints that can pair units.
#[derive(Debug, Default)]
pub struct FingerprintIndex {
    /// Distinct kept hashes, ascending.
    hashes: Vec<u64>,
    /// Postings of `hashes[h]` are `postings[run_starts[h]..run_starts[h + 1]]`.
    run_starts: Vec<u32>,
    postings: Vec<Posting>,
    /// Distinct units of `hashes[h]`, ascending:
    /// `run_units[run_unit_starts[h]..run_unit_starts[h + 1]]`.
    run_unit_starts: Vec<u32>,
    run_units: Vec<u32>,
    /// Hash ids of unit `u`, ascending:
    /// `unit_hashes[unit_hash_starts[u]..unit_hash_starts[u + 1]]`.
    unit_hash_starts: Vec<u32>,
    unit_hashes: Vec<u32>,
    stats: IndexStats,
}

impl FingerprintIndex {
    /// Indexes the fingerprints of `units`, without those in `base` and
    /// without hashes found in more than `max_units` distinct units.
    pub fn build(units: &[Unit], base: &BaseCode, max_units: usize) -> Self {
        let mut stats = IndexStats::default();
        let mut entries: Vec<(u64, Posting)> = units
            .par_iter()
            .enumerate()
            .flat_map_iter(|(u, unit)| {
                unit.documents.iter().enumerate().flat_map(move |(d, doc)| {
                    doc.fingerprints.iter().map(move |f| {
                        let posting = Posting {
                            unit: u as u32,
                            doc: d as u32,
                            pos: f.pos,
                        };
                        (f.hash, posting)
                    })
                })
            })
            .collect();
        stats.fingerprints = entries.len();
        if !base.is_empty() {
            entries.retain(|(hash, _)| !base.contains(*hash));
            stats.base_fingerprints = stats.fingerprints - entries.len();
        }
        entries.par_sort_unstable();

        let mut index = Self {
            unit_hash_starts: vec![0; units.len() + 1],
            ..Self::default()
        };
        index.run_starts.push(0);
        index.run_unit_starts.push(0);
        let mut run_units = Vec::new();
        for run in entries.chunk_by(|x, y| x.0 == y.0) {
            run_units.clear();
            run_units.extend(run.iter().map(|(_, p)| p.unit));
            run_units.dedup();
            if run_units.len() < 2 {
                continue;
            }
            if run_units.len() > max_units {
                stats.common_hashes += 1;
                stats.common_fingerprints += run.len();
                continue;
            }
            index.hashes.push(run[0].0);
            index.postings.extend(run.iter().map(|(_, p)| *p));
            index.run_starts.push(index.postings.len() as u32);
            index.run_units.extend_from_slice(&run_units);
            index.run_unit_starts.push(index.run_units.len() as u32);
        }
        drop(entries);
        index.invert_runs();
        stats.shared_hashes = index.hashes.len();
        stats.postings = index.postings.len();
        index.stats = stats;
        index
    }

    /// Builds unit → hash ids from hash → units by a counting sort.
    fn invert_runs(&mut self) {
        let starts = &mut self.unit_hash_starts;
        for &u in &self.run_units {
            starts[u as usize + 1] += 1;
        }
        for u in 1..starts.len() {
            starts[u] += starts[u - 1];
        }
        let mut next: Vec<u32> = starts[..starts.len() - 1].to_vec();
        let mut unit_hashes = vec![0; self.run_units.len()];
        for h in 0..self.hashes.len() {
            for &u in self.units_of(h as u32) {
                let slot = &mut next[u as usize];
                unit_hashes[*slot as usize] = h as u32;
                *slot += 1;
            }
        }
        self.unit_hashes = unit_hashes;
    }

    /// What was kept and dropped.
    pub fn stats(&self) -> &IndexStats {
        &self.stats
    }

    /// Number of distinct kept hashes; hash ids are `0..hash_count()`.
    pub fn hash_count(&self) -> usize {
        self.hashes.len()
    }

    /// The hash value of hash id `h`.
    pub fn hash(&self, h: u32) -> u64 {
        self.hashes[h as usize]
    }

    /// The id of `hash`, if kept.
    pub fn find(&self, hash: u64) -> Option<u32> {
        self.hashes.binary_search(&hash).ok().map(|h| h as u32)
    }

    /// Every posting of hash id `h`, by (unit, document, position).
    pub fn postings(&self, h: u32) -> &[Posting] {
        let h = h as usize;
        &self.postings[self.run_starts[h] as usize..self.run_starts[h + 1] as usize]
    }

    /// The postings of hash id `h` in unit `unit`.
    pub fn unit_postings(&self, h: u32, unit: u32) -> &[Posting] {
        let all = self.postings(h);
        let from = all.partition_point(|p| p.unit < unit);
        let to = from + all[from..].partition_point(|p| p.unit == unit);
        &all[from..to]
    }

    /// The distinct units holding hash id `h`, ascending.
    pub fn units_of(&self, h: u32) -> &[u32] {
        let h = h as usize;
        &self.run_units[self.run_unit_starts[h] as usize..self.run_unit_starts[h + 1] as usize]
    }

    /// The kept hash ids of unit `unit`, ascending.
    pub fn hashes_of(&self, unit: u32) -> &[u32] {
        let u = unit as usize;
        &self.unit_hashes[self.unit_hash_starts[u] as usize..self.unit_hash_starts[u + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Document;
    use copyhound_fingerprint::{Fingerprint, NormalizedDocument};

    fn unit(name: &str, hashes: &[u64]) -> Unit {
        let fingerprints = hashes
            .iter()
            .enumerate()
            .map(|(i, &h)| Fingerprint::new(h, i))
            .collect();
        Unit::new(
            name,
            vec![Document::new(name, NormalizedDocument::new(), fingerprints)],
        )
    }

    #[test]
    fn only_hashes_shared_by_few_enough_units_are_kept() {
        let units = [
            unit("a", &[1, 2, 3, 3]),
            unit("b", &[3, 2, 9]),
            unit("c", &[2, 7]),
        ];
        let index = FingerprintIndex::build(&units, &BaseCode::none(), 2);
        // 2 is in three units (dropped), 1, 7, 9 in one (dropped), 3 in two.
        assert_eq!(index.hash_count(), 1);
        let h = index.find(3).unwrap();
        assert_eq!(index.units_of(h), &[0, 1]);
        assert_eq!(index.unit_postings(h, 0).len(), 2);
        assert_eq!(index.unit_postings(h, 1)[0].pos, 0);
        assert_eq!(index.hashes_of(0), &[h]);
        assert!(index.hashes_of(2).is_empty());
        assert_eq!(index.stats().common_hashes, 1);
        assert_eq!(index.stats().common_fingerprints, 3);
        assert_eq!(index.stats().fingerprints, 9);
    }
}
