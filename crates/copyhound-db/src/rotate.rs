//! Rotation (Koala §3.3): every stored subset is selected again under a new
//! epoch of the secret rank, so that whoever learnt which k-grams a
//! document stores cannot keep steering around them.
//!
//! A new subset is the n keys of smallest rank, under the new epoch, among
//! the keys of the document's print. The print comes from one of two
//! places:
//!
//! - the kept prints ([`crate::Params::keep_prints`]): [`Database::rotate`]
//!   reads no document, at the price of the kept prints on disk;
//! - the documents themselves, Koala's way (it keeps each document's URL and
//!   a contact address so that it can fetch it again):
//!   [`Database::rotate_from_documents`] asks the caller for each
//!   document's print afresh and accepts it only if it holds every key the
//!   document stores now, which proves it is the same text. A document that
//!   cannot be fetched, or has changed, keeps its current subset and is
//!   reported with the reason.
//!
//! Either way the rotation is incremental (Koala: "update the stored
//! fingerprints of a few documents at a time"): one write transaction
//! commits the new epoch and a [`RotationState`], then one write
//! transaction per batch of documents (in id order) stages their new keys,
//! sets their records and advances the cursor. Until the end, a rotated
//! document's postings in the segments from before the rotation are stale
//! and ignored (see [`RotationState`]), so every document is found at
//! 100 % throughout. A rotation killed half-way is resumed, under the same
//! epoch, by the next one; the last step drops the old segments whole.

use std::collections::{HashMap, HashSet};
use std::ops::RangeInclusive;

use crate::catalog::{
    Counter, DocId, DocumentRecord, RotationState, damaged_record_problem, id_range,
};
use crate::database::Database;
use crate::error::{DbError, Result};
use crate::fingerprinter::DocumentPrint;
use crate::kept_prints::for_each_print;
use crate::keys::keys_of;
use crate::params::Mode;
use crate::segment::Segment;

/// Documents per write transaction of a rotation, by default: small enough
/// that a commit takes a moment and a crash loses little, large enough
/// that the per-commit costs (a sync, the records' blocks, searchers
/// reloading their staged index) stay small.
pub const DEFAULT_ROTATION_BATCH: usize = 4096;
/// Documents per round of [`Database::rotate_from_documents`]: their
/// current keys are gathered in one pass over the old segments (about 6.5
/// million postings, 52 MB, at n = 100), then their documents are read.
const ROUND_DOCS: usize = 1 << 16;
/// Documents whose prints are asked for at once (about 8 MB of prints at
/// N = 1000): enough to keep every core busy reading them.
const FETCH_DOCS: usize = 1024;

/// What a rotation did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RotationReport {
    /// The new epoch.
    pub epoch: u64,
    /// Documents whose stored subset was selected again by this call.
    pub rotated: u64,
    /// Documents that keep the subset they had, in id order, and why (of
    /// this call: an interrupted call's list is not kept).
    pub unrotated: Vec<Unrotated>,
    /// Whether this call went on with an unfinished rotation.
    pub resumed: bool,
    /// Whether the rotation is finished; if not, the next call resumes it.
    pub finished: bool,
}

/// A document a rotation could not select again: it keeps its current
/// stored subset (and so stays found), under its old epoch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unrotated {
    /// Its record (title, location, e-mail), unchanged.
    pub record: DocumentRecord,
    /// Why: it could not be read, its size changed, or its text no longer
    /// holds the keys it stores.
    pub reason: String,
}

/// Computes registered documents' prints afresh from their sources (the
/// files or URLs their records name), exactly as they were computed when
/// they were added, or says why it cannot: one result per record, in
/// order. It gets the documents in batches, so that it can read them in
/// parallel.
pub type Refetch<'a> =
    dyn Fn(&[DocumentRecord]) -> Vec<std::result::Result<DocumentPrint, String>> + 'a;

/// How to run a rotation.
#[derive(Clone, Copy)]
pub struct RotationOptions<'a> {
    /// Documents per write transaction (at least 1).
    pub batch_docs: usize,
    /// Stop after this many committed batches, leaving the rotation
    /// unfinished for the next call to resume (a large database can so be
    /// rotated a slice at a time).
    pub max_batches: Option<usize>,
    /// Called after each committed batch with the documents done so far
    /// (the cursor) and the end of the rotation's id range.
    pub progress: Option<&'a dyn Fn(u64, u64)>,
}

impl Default for RotationOptions<'_> {
    fn default() -> Self {
        Self {
            batch_docs: DEFAULT_ROTATION_BATCH,
            max_batches: None,
            progress: None,
        }
    }
}

/// One document's outcome, waiting for its batch to commit.
struct Selected {
    id: DocId,
    /// Its new stored keys, or its current ones when `kept` says why not.
    keys: Vec<u64>,
    kept: Option<Unrotated>,
}

/// A rotation being run: the batch being filled, and what is committed.
struct Run<'a> {
    db: &'a Database,
    options: RotationOptions<'a>,
    state: RotationState,
    pending: Vec<Selected>,
    batches: usize,
    stopped: bool,
    report: RotationReport,
}

impl Run<'_> {
    /// Adds a document's outcome, first committing the batch before it if
    /// that is full. Returns false once the run has stopped.
    fn push(&mut self, selected: Selected) -> Result<bool> {
        if self.pending.len() >= self.options.batch_docs.max(1) {
            self.commit(u64::from(selected.id))?;
        }
        if self.stopped {
            return Ok(false);
        }
        self.pending.push(selected);
        Ok(true)
    }

    /// Commits the pending documents as the batch of every id below `to`.
    fn commit(&mut self, to: u64) -> Result<()> {
        if self.stopped {
            return Ok(());
        }
        if self
            .options
            .max_batches
            .is_some_and(|max| self.batches >= max)
        {
            self.stopped = true;
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        self.report.rotated += self
            .db
            .commit_rotation_batch(&mut self.state, to, &pending)?;
        self.report
            .unrotated
            .extend(pending.into_iter().filter_map(|s| s.kept));
        self.batches += 1;
        if let Some(progress) = self.options.progress {
            progress(self.state.cursor, self.state.end);
        }
        Ok(())
    }

    /// Commits the last batch and, unless stopped, ends the rotation.
    fn finish(mut self) -> Result<RotationReport> {
        self.commit(self.state.end)?;
        if !self.stopped {
            self.db.finish_rotation(self.state)?;
            self.report.finished = true;
        }
        Ok(self.report)
    }
}

impl Database {
    /// Re-selects every stored subset from the kept prints under a new
    /// epoch (Koala §3.3), without reading any document, and rewrites the
    /// postings. Refuses with [`DbError::NoKeptPrints`] on a database
    /// without kept prints: use [`Self::rotate_from_documents`] there.
    pub fn rotate(&self) -> Result<RotationReport> {
        self.rotate_with_options(&RotationOptions::default())
    }

    /// [`Self::rotate`] in batches as `options` says; resumes an
    /// unfinished rotation.
    pub fn rotate_with_options(&self, options: &RotationOptions<'_>) -> Result<RotationReport> {
        self.check_rotation_mode()?;
        if !self.keeps_prints() {
            return Err(DbError::NoKeptPrints {
                path: self.dir().to_owned(),
            });
        }
        let mut run = self.start_rotation(options)?;
        let RotationState {
            epoch, cursor, end, ..
        } = run.state;
        if cursor < end {
            let txn = self.catalog.read()?;
            let listed = txn.meta()?.manifest()?;
            let mut registered = HashSet::new();
            txn.records()?
                .for_each_in(id_range(cursor, end), |record| {
                    registered.insert(record.id());
                    Ok(())
                })?;
            let mut last = None;
            // The prints come in id order, so each batch is complete when
            // the next one starts.
            for_each_print(&self.directory, &listed, &txn, |id, print| {
                // Prints of removed documents stay in their files.
                if run.stopped || !registered.contains(&id) {
                    return Ok(());
                }
                if last.is_some_and(|last| id <= last) {
                    return Err(DbError::corrupt(
                        self.dir(),
                        format!("the kept print of document {id} is out of id order"),
                    ));
                }
                last = Some(id);
                let keys = self.stored_keys(&print, epoch);
                run.push(Selected {
                    id,
                    keys,
                    kept: None,
                })
                .map(drop)
            })?;
        }
        run.finish()
    }

    /// Re-selects every stored subset under a new epoch from the documents
    /// themselves, as Koala does (§3.3): `refetch` computes the registered
    /// documents' prints again (reading their files or URLs), batch by
    /// batch, and each new subset
    /// is accepted only if that print holds every key the document stores
    /// now. Documents that cannot be refetched or have changed keep their
    /// current subset and are listed in the report. Needs no kept prints.
    pub fn rotate_from_documents(&self, refetch: &Refetch<'_>) -> Result<RotationReport> {
        self.rotate_from_documents_with_options(refetch, &RotationOptions::default())
    }

    /// [`Self::rotate_from_documents`] in batches as `options` says;
    /// resumes an unfinished rotation.
    pub fn rotate_from_documents_with_options(
        &self,
        refetch: &Refetch<'_>,
        options: &RotationOptions<'_>,
    ) -> Result<RotationReport> {
        self.check_rotation_mode()?;
        let mut run = self.start_rotation(options)?;
        let RotationState {
            epoch, end, base, ..
        } = run.state;
        let mut next = run.state.cursor;
        'rounds: while next < end {
            let round = id_range(next, end.min(next + ROUND_DOCS as u64));
            next = u64::from(*round.end()) + 1;
            let txn = self.catalog.read()?;
            let listed = txn.meta()?.manifest()?;
            // Documents not rotated yet have all their postings in the
            // segments from before the rotation.
            let segments = listed
                .segments
                .iter()
                .filter(|entry| entry.number < base)
                .map(|entry| self.directory.open_segment(entry.number))
                .collect::<Result<Vec<_>>>()?;
            let mut current = self.current_keys(&segments, round.clone())?;
            let mut batch = Vec::new();
            let records = txn.records()?;
            records.for_each_in(round, |cursor| {
                batch.push(
                    cursor
                        .record()
                        .ok_or_else(|| records.damaged(damaged_record_problem(cursor.id())))?,
                );
                Ok(())
            })?;
            drop(records);
            drop(txn);
            for fetch in batch.chunks(FETCH_DOCS.min(options.batch_docs.max(1))) {
                let mut prints = refetch(fetch).into_iter();
                for record in fetch {
                    let now = current.remove(&record.id).unwrap_or_default();
                    let print = prints
                        .next()
                        .unwrap_or_else(|| Err("no print was computed".into()));
                    let selected = match self.reselect(&now, print, epoch) {
                        Ok(keys) => Selected {
                            id: record.id,
                            keys,
                            kept: None,
                        },
                        Err(reason) => Selected {
                            id: record.id,
                            keys: now,
                            kept: Some(Unrotated {
                                record: record.clone(),
                                reason,
                            }),
                        },
                    };
                    if !run.push(selected)? {
                        break 'rounds;
                    }
                }
            }
        }
        run.finish()
    }

    fn check_rotation_mode(&self) -> Result<()> {
        if self.params.mode == Mode::Koala {
            Ok(())
        } else {
            Err(DbError::WrongMode {
                operation: "rotate",
                mode: self.params.mode.name(),
            })
        }
    }

    /// The stored keys under `epoch` from a document's print fetched again,
    /// if that print holds all of `now`, the keys it stores now.
    fn reselect(
        &self,
        now: &[u64],
        print: std::result::Result<DocumentPrint, String>,
        epoch: u64,
    ) -> std::result::Result<Vec<u64>, String> {
        let keys = keys_of(&print?.hashes, self.params.hash_bits);
        let missing = now
            .iter()
            .filter(|key| keys.binary_search(key).is_err())
            .count();
        if missing > 0 {
            return Err(format!(
                "its text has changed: {missing} of the {} keys it stores are not in it now",
                now.len()
            ));
        }
        Ok(self.stored_keys(&keys, epoch))
    }

    /// The keys documents in `ids` hold in `segments`, each list sorted:
    /// one pass over every segment.
    fn current_keys(
        &self,
        segments: &[Segment],
        ids: RangeInclusive<DocId>,
    ) -> Result<HashMap<DocId, Vec<u64>>> {
        let mut keys: HashMap<DocId, Vec<u64>> = HashMap::new();
        let last_key = (1u64 << self.params.hash_bits) - 1;
        for segment in segments {
            let shape = segment.shape();
            if shape.max_doc < *ids.start() || shape.min_doc > *ids.end() {
                continue;
            }
            segment.for_each_in_keys(0, last_key, |key, doc| {
                if ids.contains(&doc) {
                    keys.entry(doc).or_default().push(key);
                }
            })?;
        }
        for list in keys.values_mut() {
            list.sort_unstable();
            list.dedup();
        }
        Ok(keys)
    }

    /// Resumes the unfinished rotation, or starts one: flushes the staging
    /// table (so that every posting from before is in a segment below the
    /// base), bumps the epoch and commits the state, in one transaction.
    fn start_rotation<'a>(&'a self, options: &RotationOptions<'a>) -> Result<Run<'a>> {
        let txn = self.catalog.write()?;
        let existing = txn.meta()?.rotation()?;
        let (state, resumed) = if let Some(state) = existing {
            txn.abort()?;
            (state, true)
        } else {
            self.flush_in(&txn)?;
            let state = {
                let mut meta = txn.meta()?;
                let state = RotationState {
                    epoch: meta.get(Counter::Epoch)? + 1,
                    cursor: 0,
                    end: meta.get(Counter::NextDoc)?,
                    base: meta.manifest()?.next_number,
                };
                meta.set_rotation(Some(&state))?;
                meta.set(Counter::Epoch, state.epoch)?;
                meta.bump_change()?;
                state
            };
            txn.commit()?;
            (state, false)
        };
        Ok(Run {
            db: self,
            options: *options,
            state,
            pending: Vec::new(),
            batches: 0,
            stopped: false,
            report: RotationReport {
                epoch: state.epoch,
                rotated: 0,
                unrotated: Vec::new(),
                resumed,
                finished: false,
            },
        })
    }

    /// Commits one batch: the documents with ids from the cursor to below
    /// `to` get `selected`'s keys staged (and, if rotated, their records'
    /// epoch and stored size), and the cursor moves to `to`. Returns how
    /// many were rotated. First flushes if the staging table is full.
    fn commit_rotation_batch(
        &self,
        state: &mut RotationState,
        to: u64,
        selected: &[Selected],
    ) -> Result<u64> {
        self.flush_if_full(self.catalog.read()?.meta()?.get(Counter::StagedDocs)?)?;
        let txn = self.catalog.write()?;
        let mut rotated = 0;
        {
            let mut meta = txn.meta()?;
            if meta.rotation()? != Some(*state) {
                return Err(DbError::RotationConflict {
                    path: self.dir().to_owned(),
                });
            }
            let by_id: HashMap<DocId, &Selected> = selected.iter().map(|s| (s.id, s)).collect();
            // Documents removed since they were selected have no record.
            let mut registered = Vec::with_capacity(selected.len());
            let mut unselected = None;
            if state.cursor < to {
                let range = id_range(state.cursor, to);
                txn.records()?
                    .update(*range.start(), *range.end(), |record| {
                        let Some(chosen) = by_id.get(&record.id) else {
                            unselected.get_or_insert(record.id);
                            return;
                        };
                        registered.push(*chosen);
                        if chosen.kept.is_none() {
                            record.selection = state.epoch;
                            record.stored = chosen.keys.len() as u32;
                            rotated += 1;
                        }
                    })?;
            }
            if let Some(id) = unselected {
                return Err(DbError::corrupt(
                    self.catalog.path(),
                    format!("document {id} has no kept print to rotate from"),
                ));
            }
            let mut staged = txn.staged()?;
            let mut count = meta.get(Counter::StagedDocs)?;
            for chosen in registered {
                if !staged.insert(chosen.id, &chosen.keys)? {
                    count += 1;
                }
            }
            state.cursor = to;
            meta.set_rotation(Some(state))?;
            meta.set(Counter::StagedDocs, count)?;
            // Searchers index the staging table incrementally by id; a new
            // generation makes them read it again.
            let mut manifest = meta.manifest()?;
            meta.publish_manifest(&mut manifest)?;
        }
        txn.commit()?;
        Ok(rotated)
    }

    /// Ends a rotation whose cursor reached its end: drops the segments
    /// from before it (every posting there is stale or removed) and the
    /// state in one transaction, then flushes and compacts.
    fn finish_rotation(&self, state: RotationState) -> Result<()> {
        let txn = self.catalog.write()?;
        let old: Vec<_> = {
            let mut meta = txn.meta()?;
            if meta.rotation()? != Some(state) {
                return Err(DbError::RotationConflict {
                    path: self.dir().to_owned(),
                });
            }
            let mut manifest = meta.manifest()?;
            let (old, new) = manifest
                .segments
                .iter()
                .partition(|entry| entry.number < state.base);
            manifest.segments = new;
            meta.set_rotation(None)?;
            meta.publish_manifest(&mut manifest)?;
            old
        };
        txn.commit()?;
        self.directory
            .remove_segments(old.iter().map(|entry| entry.number));
        self.flush()?;
        self.compact()?;
        Ok(())
    }
}
