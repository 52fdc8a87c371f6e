//! The façade: [`Database`] wires the catalogue ([`crate::catalog`]), the
//! directory of segment and print files ([`crate::directory`]), the merge
//! policy ([`crate::merge_policy`]) and the search view ([`crate::view`]).
//! Its writes live beside this file — registering documents (`add`),
//! moving staged postings into a segment (`flush`), merging segments
//! (`merge`) — and in the crate's `rotate` module; searching in `search`,
//! counting in `stats`.
//!
//! Writes are catalogue transactions. A segment file is written and synced
//! under a temporary name, renamed into place and the directory synced
//! *inside* the write transaction that lists it in the manifest, so a crash
//! leaves either the old manifest (and a file no manifest lists, which a
//! later open or flush deletes) or the new one.

mod add;
mod flush;
mod merge;

use std::fs;
use std::path::Path;
use std::sync::{Arc, Mutex, mpsc};

pub use add::NewDocument;
pub use merge::BackgroundMerger;

use crate::catalog::{Catalog, Counter, DocId, DocumentRecord, damaged_record_problem};
use crate::directory::{Directory, Unlisted};
use crate::error::{DbError, Result};
use crate::fingerprinter::Fingerprinter;
use crate::params::{Mode, Params};
use crate::view::{View, ViewCache};

/// An open database. All methods take `&self`: one handle serves concurrent
/// searches and writes (writes are serialised by the catalogue), and other
/// processes may open the same database at the same time.
pub struct Database {
    // The crate's `search`, `rotate` and `stats` modules implement parts of
    // the façade and reach its parts directly.
    pub(crate) directory: Directory,
    pub(crate) catalog: Catalog,
    pub(crate) params: Params,
    pub(crate) fingerprinter: Fingerprinter,
    views: ViewCache,
    /// Wakes the background merger, when one runs; otherwise writers merge
    /// in the foreground.
    merge_signal: Mutex<Option<mpsc::Sender<()>>>,
}

impl Database {
    /// Creates a database in `dir` (created if missing) with `params`.
    pub fn create(dir: &Path, params: Params) -> Result<Self> {
        params.validate()?;
        let directory = Directory::new(dir);
        let catalog_path = directory.catalog();
        if catalog_path.exists() {
            return Err(DbError::AlreadyExists {
                path: dir.to_owned(),
            });
        }
        fs::create_dir_all(dir).map_err(|e| DbError::io(dir, e))?;
        let catalog = Catalog::create(catalog_path, &params)?;
        directory.sync()?;
        Ok(Self::assemble(directory, catalog, params))
    }

    /// Opens the database in `dir`.
    pub fn open(dir: &Path) -> Result<Self> {
        let directory = Directory::new(dir);
        let catalog_path = directory.catalog();
        if !catalog_path.is_file() {
            return Err(DbError::NotADatabase {
                path: dir.to_owned(),
            });
        }
        let catalog = Catalog::open(catalog_path)?;
        let params = catalog.params()?;
        // What a write that failed or was killed left behind.
        let manifest = catalog.read()?.meta()?.manifest()?;
        directory.remove_orphans(&manifest, Unlisted::Below(manifest.next_number));
        Ok(Self::assemble(directory, catalog, params))
    }

    fn assemble(directory: Directory, catalog: Catalog, params: Params) -> Self {
        Self {
            directory,
            catalog,
            fingerprinter: Fingerprinter::new(&params),
            params,
            views: ViewCache::default(),
            merge_signal: Mutex::new(None),
        }
    }

    /// The parameters fixed at creation.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The fingerprinter for this database's parameters: use it to compute
    /// the prints of documents to add or search.
    pub fn fingerprinter(&self) -> &Fingerprinter {
        &self.fingerprinter
    }

    /// The database directory.
    pub fn dir(&self) -> &Path {
        self.directory.path()
    }

    /// Whether prints are kept for rotation.
    pub(crate) fn keeps_prints(&self) -> bool {
        self.params.mode == Mode::Koala && self.params.keep_prints
    }

    /// The stored keys under `epoch` of a print given by its keys.
    pub(crate) fn stored_keys(&self, print_keys: &[u64], epoch: u64) -> Vec<u64> {
        self.fingerprinter.stored_keys(print_keys, epoch)
    }

    /// The current snapshot for searching.
    pub(crate) fn view(&self) -> Result<Arc<View>> {
        self.views.get(&self.catalog, &self.directory)
    }

    /// The record of document `id`, if it is registered.
    pub fn document(&self, id: DocId) -> Result<Option<DocumentRecord>> {
        self.catalog.read()?.records()?.get(id)
    }

    /// Every record, in id order.
    pub fn documents(&self) -> Result<Vec<DocumentRecord>> {
        let txn = self.catalog.read()?;
        let records = txn.records()?;
        let mut out = Vec::new();
        records.for_each_from(0, |cursor| {
            out.push(
                cursor
                    .record()
                    .ok_or_else(|| records.damaged(damaged_record_problem(cursor.id())))?,
            );
            Ok(())
        })?;
        Ok(out)
    }

    /// Unregisters document `id`; returns its record, or `None` if there was
    /// none. Its postings leave the segments at the next merge that covers
    /// them; searches skip them from now on.
    pub fn remove(&self, id: DocId) -> Result<Option<DocumentRecord>> {
        let txn = self.catalog.write()?;
        let record;
        {
            let Some(removed) = txn.records()?.remove(id)? else {
                return Ok(None);
            };
            record = removed;
            let mut meta = txn.meta()?;
            let documents = meta.get(Counter::Documents)?;
            meta.set(Counter::Documents, documents.saturating_sub(1))?;
            if txn.staged()?.remove(id)?.is_some() {
                let count = meta.get(Counter::StagedDocs)?;
                meta.set(Counter::StagedDocs, count.saturating_sub(1))?;
            }
            // Even a staged document gets a tombstone: searches' in-memory
            // views may still hold its postings and stored size.
            txn.tombstones()?.insert(id)?;
            txn.search_counts()?.remove(id)?;
            let print_len = txn.prints()?.remove(id)?.unwrap_or(0) as u64;
            let print_bytes = meta.get(Counter::StagedPrintBytes)?;
            meta.set(
                Counter::StagedPrintBytes,
                print_bytes.saturating_sub(print_len),
            )?;
            meta.bump_change()?;
        }
        txn.commit()?;
        Ok(Some(record))
    }

    /// Adds matched-search counts `(document, searches)` to the persisted
    /// audit counters, in one transaction: a searcher batches its counts
    /// and writes them now and then, so a crash loses at most one batch.
    /// Counts of documents no longer registered are dropped.
    pub fn add_search_counts(&self, counts: &[(DocId, u64)]) -> Result<()> {
        let txn = self.catalog.write()?;
        {
            let records = txn.records()?;
            let mut searches = txn.search_counts()?;
            for &(id, count) in counts {
                if records.get(id)?.is_some() {
                    searches.add(id, count)?;
                }
            }
        }
        txn.commit()
    }

    /// The persisted count of searches that matched document `id`.
    pub fn search_count(&self, id: DocId) -> Result<u64> {
        self.catalog.read()?.search_count(id)
    }

    /// Gives the catalogue file's free pages back to the file system. The
    /// file keeps the high-water mark of the staging table (up to
    /// `flush_docs` documents' keys, and their prints when kept) and of
    /// copy-on-write pages; after a bulk load and a [`Self::flush`] most of
    /// it is free. Returns whether the file shrank. Does nothing, and
    /// returns false, while another handle (in any process) has a
    /// transaction open.
    pub fn compact_catalog(&mut self) -> Result<bool> {
        self.catalog.compact()
    }
}
