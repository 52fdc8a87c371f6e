//! A deduplication run on one machine, stage by stage, each spilling to
//! disk what the next reads a part at a time:
//!
//! 1. *Read and fingerprint*: rows are read in batches; each batch's
//!    candidate fingerprints are taken on every core; texts go to the
//!    [`TextStore`], `(hash, document)` records to 256 files by hash
//!    prefix.
//! 2. *Sharing pairs*: each prefix file is read, sorted by hash; a hash
//!    in more than `max_documents_per_hash` documents is dropped, every
//!    pair of the documents of any other hash shares it. Each pair, with
//!    how many hashes of the file it shares, goes to one of 256 files by
//!    the rank (id order) of its first document.
//! 3. *Score*: each pair file, in order, is sorted and the counts of a
//!    pair summed: the pairs sharing at least `min_shared_fingerprints`
//!    distinct hashes are the candidates, scored on every core by
//!    [`Scheme::score`]; the listed ones are written to `pairs.parquet`,
//!    in `(a, b)` order.
//! 4. *Clusters*: the pairs at or above the minimum similarity are joined
//!    into connected components (union–find); each document's cluster is
//!    the smallest id in its component, and that document is the one kept.
//!
//! Memory: the ids and about 40 bytes per document, one batch of rows, and
//! per thread one prefix file of fingerprints (12 bytes each) or one file
//! of sharing pairs (12 bytes each) with the passages of its candidates;
//! never the texts, never all fingerprints.
//!
//! Outputs are written to a temporary directory inside the output
//! directory and renamed into place only once both are complete, so a run
//! that fails leaves nothing half-written there.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::ids::{Ids, Origins};
use crate::input::{Columns, Format, Row, input_files, parquet_row_count, read_rows};
use crate::output::{PairRow, PairsWriter, write_clusters};
use crate::store::{SPILL_PARTS, Spill, TextStore, Texts, take_part};
use crate::{DedupError, Scheme};

/// The output file of listed pairs.
pub const PAIRS_FILE: &str = "pairs.parquet";
/// The output file of clusters.
pub const CLUSTERS_FILE: &str = "clusters.parquet";

/// The stages of a run, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Reading and fingerprinting, one step per document.
    Read,
    /// Pairs sharing a fingerprint, one step per prefix file.
    Candidates,
    /// Scoring, one step per pair and prefix file it shares fingerprints
    /// in (pairs sharing too few are done when counted).
    Score,
    /// Writing clusters (one step).
    Clusters,
}

impl Stage {
    /// What the stage does, in a word, as a progress bar shows it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Read => "reading",
            Self::Candidates => "pairing",
            Self::Score => "scoring",
            Self::Clusters => "clustering",
        }
    }
}

/// Receives progress; called from several threads.
pub trait Progress: Sync {
    /// A stage begins, with `total` steps if they are known.
    fn start(&self, stage: Stage, total: Option<u64>);
    /// `steps` more steps of the current stage are done.
    fn advance(&self, steps: u64);
}

/// Reports nothing.
impl Progress for () {
    fn start(&self, _: Stage, _: Option<u64>) {}
    fn advance(&self, _: u64) {}
}

/// What a run found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Documents read.
    pub documents: u64,
    /// Distinct candidate fingerprints dropped for being in too many
    /// documents.
    pub dropped_hashes: u64,
    /// Distinct pairs sharing at least one kept fingerprint.
    pub sharing_pairs: u64,
    /// Distinct candidate pairs (sharing at least
    /// `min_shared_fingerprints`), all scored.
    pub candidate_pairs: u64,
    /// Pairs listed in `pairs.parquet`.
    pub listed_pairs: u64,
    /// Clusters of more than one document.
    pub clusters: u64,
    /// Documents not kept (in a cluster, and not its smallest id).
    pub removed: u64,
}

impl Summary {
    /// What `copyhound dedup` says when it is done: the counts of the run
    /// `scheme` made, then the two files written into `out`.
    pub fn describe(&self, scheme: &Scheme, out: &Path) -> String {
        format!(
            "{} documents, {} pairs sharing a fingerprint, {} candidate pairs scored, {} pairs listed, {} clusters of near-duplicates ({} documents not kept); {} fingerprints in more than {} documents dropped\nwrote {} and {}",
            self.documents,
            self.sharing_pairs,
            self.candidate_pairs,
            self.listed_pairs,
            self.clusters,
            self.removed,
            self.dropped_hashes,
            scheme.options().max_documents_per_hash,
            out.join(PAIRS_FILE).display(),
            out.join(CLUSTERS_FILE).display()
        )
    }
}

/// Reads the documents of `inputs` (files, or directories of them) and
/// writes `pairs.parquet` and `clusters.parquet` into `out` (created if
/// missing).
pub fn dedup(
    inputs: &[PathBuf],
    columns: &Columns,
    scheme: &Scheme,
    out: &Path,
    progress: &dyn Progress,
) -> Result<Summary, DedupError> {
    let files = input_files(inputs)?;
    let created = !out.exists();
    std::fs::create_dir_all(out).map_err(DedupError::io(out))?;
    let result = run_in(&files, columns, scheme, out, progress);
    if result.is_err() && created {
        // Only succeeds while it is empty: nothing of the caller's goes.
        let _ = std::fs::remove_dir(out);
    }
    result
}

fn run_in(
    files: &[(PathBuf, Format)],
    columns: &Columns,
    scheme: &Scheme,
    out: &Path,
    progress: &dyn Progress,
) -> Result<Summary, DedupError> {
    let work = tempfile::Builder::new()
        .prefix(".copyhound-dedup-")
        .tempdir_in(out)
        .map_err(DedupError::io(out))?;
    let read = read_and_fingerprint(files, columns, scheme, work.path(), progress)?;
    let by_rank = read.ids.by_rank(&read.origins)?;
    drop(read.origins);
    let mut summary = Summary {
        documents: by_rank.len() as u64,
        ..Summary::default()
    };
    let pair_parts = sharing_pairs(
        read.prints,
        &by_rank,
        scheme.options().max_documents_per_hash,
        work.path(),
        &mut summary,
        progress,
    )?;
    let pairs_path = work.path().join(PAIRS_FILE);
    let mut writer = PairsWriter::create(&pairs_path, &read.ids)?;
    let root_rank = score_pairs(
        &pair_parts,
        scheme,
        &read.texts,
        &read.ids,
        &by_rank,
        &mut writer,
        &mut summary,
        progress,
    )?;
    writer.finish()?;
    progress.start(Stage::Clusters, Some(1));
    let clusters_path = work.path().join(CLUSTERS_FILE);
    write_clusters(&clusters_path, &read.ids, &by_rank, &root_rank)?;
    let roots = root_rank
        .iter()
        .enumerate()
        .filter(|&(rank, &root)| rank == root as usize)
        .count() as u64;
    summary.removed = summary.documents - roots;
    summary.clusters = count_clusters(&root_rank);
    progress.advance(1);
    for (from, name) in [(pairs_path, PAIRS_FILE), (clusters_path, CLUSTERS_FILE)] {
        let to = out.join(name);
        std::fs::rename(&from, &to).map_err(DedupError::io(&to))?;
    }
    Ok(summary)
}

/// What the first stage leaves for the others.
struct ReadDocuments {
    ids: Ids,
    origins: Origins,
    texts: Texts,
    prints: Vec<PathBuf>,
}

fn read_and_fingerprint(
    files: &[(PathBuf, Format)],
    columns: &Columns,
    scheme: &Scheme,
    work: &Path,
    progress: &dyn Progress,
) -> Result<ReadDocuments, DedupError> {
    let all_parquet = files.iter().all(|(_, f)| *f == Format::Parquet);
    let total = all_parquet
        .then(|| files.iter().map(|(p, _)| parquet_row_count(p)).sum())
        .flatten();
    progress.start(Stage::Read, total);
    let mut texts = TextStore::create(work.join("texts"))?;
    let mut prints = Spill::create(work, "prints")?;
    let mut ids: Option<Ids> = None;
    let mut origins = Origins::default();
    for (file, (path, format)) in files.iter().enumerate() {
        origins.files.push(path.clone());
        let mut sink = |rows: Vec<Row>| -> Result<(), DedupError> {
            let hashes: Vec<Vec<u64>> = rows
                .par_iter()
                .map(|row| scheme.candidate_hashes(&row.text))
                .collect();
            for (row, hashes) in rows.into_iter().zip(hashes) {
                let ids = ids.get_or_insert_with(|| Ids::like(&row.id));
                let doc = u32::try_from(ids.len())
                    .ok()
                    .filter(|&d| d < u32::MAX)
                    .ok_or_else(|| {
                        DedupError::input(
                            path,
                            row.place,
                            "more documents than a run can take (2^32 - 1)",
                        )
                    })?;
                ids.push(row.id)
                    .map_err(|message| DedupError::input(path, row.place, message))?;
                origins.places.push((file as u32, row.place));
                texts.push(&row.text)?;
                for hash in hashes {
                    let mut record = [0u8; 12];
                    record[..8].copy_from_slice(&hash.to_le_bytes());
                    record[8..].copy_from_slice(&doc.to_le_bytes());
                    prints.push(prefix_part(hash), &record)?;
                }
                progress.advance(1);
            }
            Ok(())
        };
        read_rows(path, *format, columns, &mut sink)?;
    }
    Ok(ReadDocuments {
        ids: ids.expect("every input file holds a row"),
        origins,
        texts: texts.finish()?,
        prints: prints.finish()?,
    })
}

/// The spill part of a hash: its top 8 bits.
fn prefix_part(hash: u64) -> usize {
    (hash >> (64 - SPILL_PARTS.trailing_zeros())) as usize
}

/// Stage 2: the pairs sharing hashes in every prefix file, as packed
/// rank pairs and how many hashes they share there, in files by first
/// rank.
fn sharing_pairs(
    prints: Vec<PathBuf>,
    by_rank: &[u32],
    max_documents: usize,
    work: &Path,
    summary: &mut Summary,
    progress: &dyn Progress,
) -> Result<Vec<PathBuf>, DedupError> {
    progress.start(Stage::Candidates, Some(prints.len() as u64));
    let mut rank_of = vec![0u32; by_rank.len()];
    for (rank, &doc) in by_rank.iter().enumerate() {
        rank_of[doc as usize] = rank as u32;
    }
    let documents = by_rank.len() as u64;
    let pairs = Mutex::new(Spill::create(work, "pairs")?);
    let dropped = AtomicU64::new(0);
    prints.into_par_iter().try_for_each(|path| {
        let bytes = take_part(&path)?;
        let mut records: Vec<(u64, u32)> = bytes
            .chunks_exact(12)
            .map(|r| {
                let hash = u64::from_le_bytes(r[..8].try_into().expect("8 bytes"));
                let doc = u32::from_le_bytes(r[8..].try_into().expect("4 bytes"));
                (hash, rank_of[doc as usize])
            })
            .collect();
        drop(bytes);
        records.sort_unstable();
        let mut found = Vec::new();
        for run in records.chunk_by(|x, y| x.0 == y.0) {
            if run.len() > max_documents {
                dropped.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            for (i, &(_, a)) in run.iter().enumerate() {
                found.extend(run[i + 1..].iter().map(|&(_, b)| pack(a, b)));
            }
        }
        drop(records);
        found.sort_unstable();
        let mut pairs = pairs.lock().expect("no panic while holding it");
        for run in found.chunk_by(|x, y| x == y) {
            let pair = run[0];
            let part = ((pair >> 32) * SPILL_PARTS as u64 / documents) as usize;
            let shared = u32::try_from(run.len()).expect("fewer hashes than 2^32 in a part");
            let mut record = [0u8; 12];
            record[..8].copy_from_slice(&pair.to_le_bytes());
            record[8..].copy_from_slice(&shared.to_le_bytes());
            pairs.push(part, &record)?;
        }
        progress.advance(1);
        Ok::<(), DedupError>(())
    })?;
    summary.dropped_hashes = dropped.into_inner();
    pairs
        .into_inner()
        .expect("no panic while holding it")
        .finish()
}

/// A pair of ranks `a < b` as one integer that orders as `(a, b)`.
fn pack(a: u32, b: u32) -> u64 {
    u64::from(a) << 32 | u64::from(b)
}

/// Stage 3: scores every candidate pair, writes the listed ones, and joins
/// those similar enough; returns each rank's cluster root (the smallest
/// rank of its component).
#[allow(clippy::too_many_arguments)] // the run's state, handed through once
fn score_pairs(
    parts: &[PathBuf],
    scheme: &Scheme,
    texts: &Texts,
    ids: &Ids,
    by_rank: &[u32],
    writer: &mut PairsWriter,
    summary: &mut Summary,
    progress: &dyn Progress,
) -> Result<Vec<u32>, DedupError> {
    let total: u64 = parts
        .iter()
        .map(|p| std::fs::metadata(p).map_or(0, |m| m.len() / 12))
        .sum();
    progress.start(Stage::Score, Some(total));
    let mut components = Components::new(by_rank.len());
    let min_similarity = scheme.options().min_similarity;
    let min_shared = scheme.options().min_shared_fingerprints;
    for path in parts {
        let bytes = take_part(path)?;
        let mut counted: Vec<(u64, u32)> = bytes
            .chunks_exact(12)
            .map(|r| {
                let pair = u64::from_le_bytes(r[..8].try_into().expect("8 bytes"));
                let shared = u32::from_le_bytes(r[8..].try_into().expect("4 bytes"));
                (pair, shared)
            })
            .collect();
        drop(bytes);
        counted.sort_unstable();
        let mut sharing = 0;
        let pairs: Vec<u64> = counted
            .chunk_by(|x, y| x.0 == y.0)
            .filter_map(|run| {
                sharing += 1;
                let shared: usize = run.iter().map(|&(_, n)| n as usize).sum();
                (shared >= min_shared).then_some(run[0].0)
            })
            .collect();
        progress.advance(counted.len() as u64 - pairs.len() as u64);
        drop(counted);
        summary.sharing_pairs += sharing;
        summary.candidate_pairs += pairs.len() as u64;
        let scored: Vec<Option<PairRow>> = pairs
            .par_iter()
            .map(|&pair| {
                let (a, b) = (
                    by_rank[(pair >> 32) as usize],
                    by_rank[pair as u32 as usize],
                );
                let found = scheme.score(&texts.get(a)?, &texts.get(b)?);
                progress.advance(1);
                Ok(found.is_listed().then_some(PairRow { a, b, found }))
            })
            .collect::<Result<_, DedupError>>()?;
        let mut rows = Vec::new();
        for (&pair, row) in pairs.iter().zip(scored) {
            let Some(row) = row else { continue };
            if row.found.similarity >= min_similarity {
                components.join((pair >> 32) as u32, pair as u32);
            }
            rows.push(row);
        }
        summary.listed_pairs += rows.len() as u64;
        writer.write(ids, &rows)?;
    }
    Ok(components.roots())
}

/// Connected components of ranks, each rooted at its smallest rank
/// (union–find with path halving).
struct Components {
    parent: Vec<u32>,
}

impl Components {
    fn new(n: usize) -> Self {
        Self {
            parent: (0..n as u32).collect(),
        }
    }

    fn root(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grandparent = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grandparent;
            x = grandparent;
        }
        x
    }

    fn join(&mut self, x: u32, y: u32) {
        let (x, y) = (self.root(x), self.root(y));
        // The smaller rank stays the root, so a root is its component's
        // smallest id.
        let (small, large) = (x.min(y), x.max(y));
        self.parent[large as usize] = small;
    }

    fn roots(mut self) -> Vec<u32> {
        (0..self.parent.len() as u32)
            .map(|x| self.root(x))
            .collect()
    }
}

/// Components of more than one rank.
fn count_clusters(root_rank: &[u32]) -> u64 {
    let mut size = vec![0u32; root_rank.len()];
    for &root in root_rank {
        size[root as usize] += 1;
    }
    size.iter().filter(|&&n| n > 1).count() as u64
}
