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
//! Either way one write transaction replaces every segment, the staging
//! table and the tombstones, and sets each rotated record's epoch.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::ops::RangeInclusive;

use redb::ReadableTable;

use crate::catalog::{
    DocId, DocumentRecord, META, META_EPOCH, META_MANIFEST, META_STAGED_DOCS, Manifest, PRINTS,
    REMOVED, STAGED, SegmentEntry,
};
use crate::database::{
    Database, InCatalog, bump_change, damaged_record, decode_staged, keys_of, meta_u64,
    put_meta_u64, read_manifest,
};
use crate::error::{DbError, Result};
use crate::params::Mode;
use crate::print::DocumentPrint;
use crate::records::{RECORDS, for_each_record, for_each_record_in, update_records};
use crate::segment::{Posting, Segment, write_postings};

/// Postings per segment written by a rotation before it starts another
/// (the merges then combine them).
const SEGMENT_POSTINGS: usize = 16 << 20;
/// Documents per round of [`Database::rotate_from_documents`]: their
/// current keys are gathered in one pass over every segment (about 6.5
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
    /// Documents whose stored subset was selected again.
    pub rotated: u64,
    /// Documents that keep the subset they had, in id order, and why.
    pub unrotated: Vec<Unrotated>,
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

/// Collects the new postings and writes them as segments of at most
/// [`SEGMENT_POSTINGS`].
struct SegmentSink<'a> {
    db: &'a Database,
    manifest: &'a mut Manifest,
    postings: Vec<Posting>,
    written: Vec<SegmentEntry>,
}

impl SegmentSink<'_> {
    fn push(&mut self, doc: DocId, keys: &[u64]) -> Result<()> {
        self.postings
            .extend(keys.iter().map(|&key| Posting { key, doc }));
        if self.postings.len() >= SEGMENT_POSTINGS {
            self.write()?;
        }
        Ok(())
    }

    fn write(&mut self) -> Result<()> {
        if self.postings.is_empty() {
            return Ok(());
        }
        let hash_bits = self.db.params.hash_bits;
        let postings = &mut self.postings;
        let entry = self.db.publish_segment(self.manifest, |tmp| {
            write_postings(tmp, hash_bits, postings)
        })?;
        self.written.push(entry);
        self.postings.clear();
        Ok(())
    }
}

/// The new stored sizes of the rotated documents, and the others.
type Selection = (HashMap<DocId, u32>, Vec<Unrotated>);

impl Database {
    /// Re-selects every stored subset from the kept prints under a new
    /// epoch (Koala §3.3), without reading any document, and rewrites the
    /// postings. Refuses with [`DbError::NoKeptPrints`] on a database
    /// without kept prints: use [`Self::rotate_from_documents`] there.
    pub fn rotate(&self) -> Result<RotationReport> {
        self.check_rotation_mode()?;
        if !self.keeps_prints() {
            return Err(DbError::NoKeptPrints {
                path: self.dir.clone(),
            });
        }
        self.rotate_with(|txn, listed, epoch, sink| {
            let path = &self.catalog_path;
            let mut registered = HashSet::new();
            for_each_record(
                path,
                &txn.open_table(RECORDS).in_catalog(path)?,
                0,
                |cursor| {
                    registered.insert(cursor.id());
                    Ok(())
                },
            )?;
            let staged_prints = txn.open_table(PRINTS).in_catalog(path)?;
            let mut stored = HashMap::with_capacity(registered.len());
            self.for_each_print(listed, &staged_prints, |id, print| {
                // Prints of removed documents stay in their files.
                if !registered.contains(&id) {
                    return Ok(());
                }
                let keys = self.stored_keys(&print, epoch);
                stored.insert(id, keys.len() as u32);
                sink.push(id, &keys)
            })?;
            Ok((stored, Vec::new()))
        })
    }

    /// Re-selects every stored subset under a new epoch from the documents
    /// themselves, as Koala does (§3.3): `refetch` computes the registered
    /// documents' prints again (reading their files or URLs), batch by
    /// batch, and each new subset
    /// is accepted only if that print holds every key the document stores
    /// now. Documents that cannot be refetched or have changed keep their
    /// current subset and are listed in the report. Needs no kept prints.
    pub fn rotate_from_documents(&self, refetch: &Refetch<'_>) -> Result<RotationReport> {
        self.check_rotation_mode()?;
        self.rotate_with(|txn, listed, epoch, sink| {
            let path = &self.catalog_path;
            let records = txn.open_table(RECORDS).in_catalog(path)?;
            let staged = txn.open_table(STAGED).in_catalog(path)?;
            let mut ids = Vec::new();
            for_each_record(path, &records, 0, |cursor| {
                ids.push(cursor.id());
                Ok(())
            })?;
            let segments = listed
                .segments
                .iter()
                .map(|entry| Segment::open(&self.segment_path(entry.number)))
                .collect::<Result<Vec<_>>>()?;
            let mut stored = HashMap::with_capacity(ids.len());
            let mut unrotated = Vec::new();
            for round in ids.chunks(ROUND_DOCS) {
                let range = round[0]..=round[round.len() - 1];
                let mut current = self.current_keys(&segments, &staged, range.clone())?;
                let mut batch = Vec::with_capacity(round.len());
                for_each_record_in(path, &records, range, |cursor| {
                    batch.push(
                        cursor
                            .record()
                            .ok_or_else(|| damaged_record(path, cursor.id()))?,
                    );
                    Ok(())
                })?;
                for fetch in batch.chunks(FETCH_DOCS) {
                    let mut prints = refetch(fetch).into_iter();
                    for record in fetch {
                        let now = current.get(&record.id).map_or(&[][..], Vec::as_slice);
                        let print = prints
                            .next()
                            .unwrap_or_else(|| Err("no print was computed".into()));
                        match self.reselect(now, print, epoch) {
                            Ok(keys) => {
                                stored.insert(record.id, keys.len() as u32);
                                sink.push(record.id, &keys)?;
                            }
                            Err(reason) => {
                                let keys = current.remove(&record.id).unwrap_or_default();
                                sink.push(record.id, &keys)?;
                                unrotated.push(Unrotated {
                                    record: record.clone(),
                                    reason,
                                });
                            }
                        }
                    }
                }
            }
            Ok((stored, unrotated))
        })
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

    /// The keys documents in `ids` store now, each list sorted: one pass
    /// over every segment, plus the staging table.
    fn current_keys(
        &self,
        segments: &[Segment],
        staged: &impl ReadableTable<u32, &'static [u8]>,
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
        let path = &self.catalog_path;
        for entry in staged.range(ids).in_catalog(path)? {
            let (id, bytes) = entry.in_catalog(path)?;
            let staged_keys = decode_staged(path, id.value(), bytes.value())?;
            keys.entry(id.value()).or_default().extend(staged_keys);
        }
        for list in keys.values_mut() {
            list.sort_unstable();
            list.dedup();
        }
        Ok(keys)
    }

    /// One rotation: `select(txn, manifest, epoch, sink)` pushes every
    /// registered document's new postings into `sink` and returns the
    /// rotated documents' stored sizes and the others; this replaces the
    /// segments, staging table and tombstones with the result and commits.
    fn rotate_with(
        &self,
        select: impl FnOnce(
            &redb::WriteTransaction,
            &Manifest,
            u64,
            &mut SegmentSink<'_>,
        ) -> Result<Selection>,
    ) -> Result<RotationReport> {
        let path = &self.catalog_path;
        let txn = self.catalog.begin_write().in_catalog(path)?;
        let (epoch, old, (stored, unrotated)) = {
            let epoch = {
                let meta = txn.open_table(META).in_catalog(path)?;
                meta_u64(path, &meta, META_EPOCH)? + 1
            };
            let listed = read_manifest(path, &txn.open_table(META).in_catalog(path)?)?;
            let mut manifest = listed.clone();
            let mut sink = SegmentSink {
                db: self,
                manifest: &mut manifest,
                postings: Vec::new(),
                written: Vec::new(),
            };
            let selection = select(&txn, &listed, epoch, &mut sink)?;
            sink.write()?;
            manifest.segments = sink.written;
            manifest.generation += 1;
            update_records(
                path,
                &mut txn.open_table(RECORDS).in_catalog(path)?,
                0,
                DocId::MAX,
                |record| {
                    if let Some(&size) = selection.0.get(&record.id) {
                        record.selection = epoch;
                        record.stored = size;
                    }
                },
            )?;
            let mut meta = txn.open_table(META).in_catalog(path)?;
            meta.insert(META_MANIFEST, manifest.encode().as_slice())
                .in_catalog(path)?;
            txn.open_table(STAGED)
                .in_catalog(path)?
                .retain(|_, _| false)
                .in_catalog(path)?;
            txn.open_table(REMOVED)
                .in_catalog(path)?
                .retain(|_, ()| false)
                .in_catalog(path)?;
            put_meta_u64(path, &mut meta, META_STAGED_DOCS, 0)?;
            put_meta_u64(path, &mut meta, META_EPOCH, epoch)?;
            bump_change(path, &mut meta)?;
            (epoch, listed.segments, selection)
        };
        txn.commit().in_catalog(path)?;
        for entry in old {
            let _ = fs::remove_file(self.segment_path(entry.number));
        }
        self.merge()?;
        Ok(RotationReport {
            epoch,
            rotated: stored.len() as u64,
            unrotated,
        })
    }
}
