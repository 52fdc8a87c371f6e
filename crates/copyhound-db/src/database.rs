//! The database: a directory with the catalogue (`catalog.redb`) and, beside
//! it, the posting segments (`<number>.seg`) and cold print files
//! (`<number>.prints`).
//!
//! Writes are redb transactions; a segment file is written and synced under
//! a temporary name, renamed into place and the directory synced *inside*
//! the write transaction that lists it in the manifest, so a crash leaves
//! either the old manifest (and an orphan file that the next flush deletes)
//! or the new one. Searches read an immutable [`View`]: the open segments,
//! an in-memory index of the staged postings and the tombstones, refreshed
//! when a commit (of this process or another) changed them.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock, mpsc};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redb::{ReadableDatabase, ReadableTable, ReadableTableMetadata, Table, TableDefinition};

use crate::catalog::{
    CATALOG_FORMAT, DocId, DocumentMeta, DocumentRecord, META, META_CHANGE, META_DOCUMENTS,
    META_EPOCH, META_FORMAT, META_MANIFEST, META_NEXT_DOC, META_PARAMS, META_ROTATION,
    META_STAGED_DOCS, META_STAGED_PRINT_BYTES, Manifest, PRINTS, REMOVED, RotationState, SEARCHES,
    STAGED, SegmentEntry, decode_keys, encode_keys,
};
use crate::error::{DbError, Result};
use crate::fingerprinter::{DocumentPrint, Fingerprinter};
use crate::kept_prints::{read_print_file, write_print_file};
use crate::params::{Mode, Params};
use crate::records::{RECORDS, for_each_record, insert_records, read_record, remove_record};
use crate::segment::{Posting, Segment, merge_segments, write_postings};

/// The catalogue file inside a database directory.
pub const CATALOG_FILE: &str = "catalog.redb";
/// Segments with fewer postings than this share the lowest size tier, so
/// that the uneven flushes of a small database (a `db add` of 300 files, then
/// one of 4,096…) still merge: merging them costs little, and every segment
/// adds a directory and a partly filled last bucket group to the disk.
const MERGE_FLOOR_POSTINGS: u64 = 1 << 20;
/// A temporary file older than this is left over from a crash.
const STALE_TEMPORARY: Duration = Duration::from_secs(600);

/// A document to register: what the user tells, and its print.
#[derive(Clone, Debug)]
pub struct NewDocument {
    /// Title, location, contact, size.
    pub meta: DocumentMeta,
    /// The search set, from [`Fingerprinter::print`].
    pub print: DocumentPrint,
}

/// The handle of a background merge thread
/// ([`Database::merge_in_background`]).
pub struct BackgroundMerger {
    database: Arc<Database>,
    handle: Option<std::thread::JoinHandle<Result<()>>>,
}

impl BackgroundMerger {
    /// Stops the thread after its current merge and returns its outcome.
    pub fn finish(mut self) -> Result<()> {
        self.stop()
    }

    fn stop(&mut self) -> Result<()> {
        // Dropping the sender ends the thread's receive loop.
        self.database
            .merge_signal
            .lock()
            .expect("merge signal lock")
            .take();
        match self.handle.take() {
            Some(handle) => handle.join().expect("the merge thread panicked"),
            None => Ok(()),
        }
    }
}

impl Drop for BackgroundMerger {
    fn drop(&mut self) {
        // An error here was the merge thread's; the database stays sound.
        let _ = self.stop();
    }
}

/// A document ready for the write transaction.
struct Prepared {
    meta: DocumentMeta,
    /// The keys of its print, sorted.
    print_keys: Vec<u64>,
    /// Its stored keys under the epoch it was prepared for.
    keys: Vec<u64>,
    /// The encoded print, kept in Koala mode.
    print: Option<Vec<u8>>,
}

/// An open database. All methods take `&self`: one handle serves concurrent
/// searches and writes (writes are serialised by the catalogue), and other
/// processes may open the same database at the same time.
pub struct Database {
    pub(crate) dir: PathBuf,
    pub(crate) catalog_path: PathBuf,
    pub(crate) catalog: redb::Database,
    pub(crate) params: Params,
    pub(crate) fingerprinter: Fingerprinter,
    view: RwLock<Arc<View>>,
    /// Wakes the background merger, when one runs; otherwise writers merge
    /// in the foreground.
    merge_signal: Mutex<Option<mpsc::Sender<()>>>,
}

/// What one search reads: a consistent snapshot of the postings.
#[derive(Default)]
pub(crate) struct View {
    /// The catalogue's change counter this view reflects.
    change: u64,
    /// The manifest generation of `segments`.
    generation: u64,
    pub(crate) segments: Vec<(u64, Arc<Segment>)>,
    /// Staged postings by key.
    pub(crate) staged: HashMap<u64, Vec<DocId>>,
    /// The highest staged id loaded into `staged`.
    staged_through: Option<DocId>,
    /// Stored size of every document by id (0: none or unknown), so that a
    /// search can rank hundreds of candidates without reading their records.
    pub(crate) stored_sizes: Arc<Vec<u32>>,
    /// The rotation epoch `stored_sizes` reflects.
    sizes_epoch: u64,
    /// The unfinished rotation, if any: which segment postings are stale.
    pub(crate) rotation: Option<RotationState>,
    /// Removed documents whose postings segments still hold.
    pub(crate) removed: HashSet<DocId>,
}

/// Maps redb errors to [`DbError::Catalog`] naming the catalogue file.
pub(crate) trait InCatalog<T> {
    /// The error, with the catalogue's path.
    fn in_catalog(self, path: &Path) -> Result<T>;
}

impl<T, E: Into<redb::Error>> InCatalog<T> for std::result::Result<T, E> {
    fn in_catalog(self, path: &Path) -> Result<T> {
        self.map_err(|e| DbError::catalog(path, e))
    }
}

/// Reads a numeric meta value (absent counts as zero).
pub(crate) fn meta_u64(
    path: &Path,
    meta: &impl ReadableTable<&'static str, &'static [u8]>,
    key: &str,
) -> Result<u64> {
    match meta.get(key).in_catalog(path)? {
        None => Ok(0),
        Some(value) => value
            .value()
            .try_into()
            .map(u64::from_le_bytes)
            .map_err(|_| DbError::corrupt(path, format!("meta value {key:?} is not 8 bytes"))),
    }
}

pub(crate) fn put_meta_u64(
    path: &Path,
    meta: &mut Table<&str, &[u8]>,
    key: &str,
    value: u64,
) -> Result<()> {
    meta.insert(key, value.to_le_bytes().as_slice())
        .in_catalog(path)
        .map(drop)
}

/// Reads the manifest.
pub(crate) fn read_manifest(
    path: &Path,
    meta: &impl ReadableTable<&'static str, &'static [u8]>,
) -> Result<Manifest> {
    match meta.get(META_MANIFEST).in_catalog(path)? {
        None => Ok(Manifest::default()),
        Some(bytes) => Manifest::decode(bytes.value())
            .ok_or_else(|| DbError::corrupt(path, "the manifest is damaged")),
    }
}

/// Reads the state of an unfinished rotation, if one is.
pub(crate) fn read_rotation(
    path: &Path,
    meta: &impl ReadableTable<&'static str, &'static [u8]>,
) -> Result<Option<RotationState>> {
    match meta.get(META_ROTATION).in_catalog(path)? {
        None => Ok(None),
        Some(bytes) => RotationState::decode(bytes.value())
            .map(Some)
            .ok_or_else(|| DbError::corrupt(path, "the rotation state is damaged")),
    }
}

/// The key of a hash: its top `hash_bits` bits.
pub(crate) fn key_of(hash: u64, hash_bits: u32) -> u64 {
    hash >> (64 - hash_bits)
}

/// Distinct keys of sorted hashes, sorted.
pub(crate) fn keys_of(hashes: &[u64], hash_bits: u32) -> Vec<u64> {
    let mut keys: Vec<u64> = hashes.iter().map(|&h| key_of(h, hash_bits)).collect();
    keys.dedup();
    keys
}

/// A file the database writes beside its catalogue, by its name; the
/// catalogue and any other file in the directory are none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DataFile {
    /// `<number>.seg` or `<number>.prints` (12 digits): the manifest lists
    /// it, or a crash left it.
    Listed,
    /// Such a name plus `.tmp`, or `merge-<pid>-<n>.tmp`: being written, or
    /// left by a crash.
    Temporary,
}

impl DataFile {
    pub(crate) fn of(name: &str) -> Option<Self> {
        let numbered = |stem: &str| stem.len() == 12 && stem.bytes().all(|b| b.is_ascii_digit());
        let final_name = |name: &str| {
            name.strip_suffix(".seg")
                .or_else(|| name.strip_suffix(".prints"))
                .is_some_and(numbered)
        };
        if final_name(name) {
            Some(Self::Listed)
        } else if name
            .strip_suffix(".tmp")
            .is_some_and(|stem| final_name(stem) || stem.starts_with("merge-"))
        {
            Some(Self::Temporary)
        } else {
            None
        }
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Makes a rename or creation in `dir` durable.
pub(crate) fn sync_dir(dir: &Path) -> Result<()> {
    fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| DbError::io(dir, e))
}

impl Database {
    /// Creates a database in `dir` (created if missing) with `params`.
    pub fn create(dir: &Path, params: Params) -> Result<Self> {
        params.validate()?;
        let catalog_path = dir.join(CATALOG_FILE);
        if catalog_path.exists() {
            return Err(DbError::AlreadyExists {
                path: dir.to_owned(),
            });
        }
        fs::create_dir_all(dir).map_err(|e| DbError::io(dir, e))?;
        let catalog = redb::Builder::new()
            .set_concurrency_mode(redb::ConcurrencyMode::MultiWriter)
            .create(&catalog_path)
            .in_catalog(&catalog_path)?;
        let txn = catalog.begin_write().in_catalog(&catalog_path)?;
        {
            let mut meta = txn.open_table(META).in_catalog(&catalog_path)?;
            meta.insert(META_FORMAT, CATALOG_FORMAT.to_le_bytes().as_slice())
                .in_catalog(&catalog_path)?;
            meta.insert(META_PARAMS, params.encode().as_bytes())
                .in_catalog(&catalog_path)?;
            meta.insert(META_MANIFEST, Manifest::default().encode().as_slice())
                .in_catalog(&catalog_path)?;
            for key in [
                META_EPOCH,
                META_NEXT_DOC,
                META_STAGED_DOCS,
                META_CHANGE,
                META_DOCUMENTS,
                META_STAGED_PRINT_BYTES,
            ] {
                put_meta_u64(&catalog_path, &mut meta, key, 0)?;
            }
            txn.open_table(RECORDS).in_catalog(&catalog_path)?;
            txn.open_table(STAGED).in_catalog(&catalog_path)?;
            txn.open_table(PRINTS).in_catalog(&catalog_path)?;
            txn.open_table(REMOVED).in_catalog(&catalog_path)?;
            txn.open_table(SEARCHES).in_catalog(&catalog_path)?;
        }
        txn.commit().in_catalog(&catalog_path)?;
        sync_dir(dir)?;
        Ok(Self::assemble(dir, catalog_path, catalog, params))
    }

    /// Opens the database in `dir`.
    pub fn open(dir: &Path) -> Result<Self> {
        let catalog_path = dir.join(CATALOG_FILE);
        if !catalog_path.is_file() {
            return Err(DbError::NotADatabase {
                path: dir.to_owned(),
            });
        }
        let catalog = redb::Builder::new()
            .set_concurrency_mode(redb::ConcurrencyMode::MultiWriter)
            .open(&catalog_path)
            .in_catalog(&catalog_path)?;
        let params = read_params(&catalog_path, &catalog)?;
        Ok(Self::assemble(dir, catalog_path, catalog, params))
    }

    fn assemble(
        dir: &Path,
        catalog_path: PathBuf,
        catalog: redb::Database,
        params: Params,
    ) -> Self {
        Self {
            dir: dir.to_owned(),
            catalog_path,
            catalog,
            fingerprinter: Fingerprinter::new(&params),
            params,
            merge_signal: Mutex::new(None),
            view: RwLock::new(Arc::new(View {
                change: u64::MAX,
                ..View::default()
            })),
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
        &self.dir
    }

    pub(crate) fn segment_path(&self, number: u64) -> PathBuf {
        self.dir.join(format!("{number:012}.seg"))
    }

    pub(crate) fn prints_path(&self, number: u64) -> PathBuf {
        self.dir.join(format!("{number:012}.prints"))
    }

    /// Registers `docs` in one transaction: when this returns they are
    /// durable and searchable. Returns their ids, in order. May then write a
    /// segment and merge segments.
    pub fn add(&self, docs: Vec<NewDocument>) -> Result<Vec<DocId>> {
        let path = &self.catalog_path;
        let added = unix_now();
        // Selecting and encoding run before the write transaction, on every
        // core, under the epoch seen now; a rotation committed meanwhile
        // (rare) means selecting again under the new one.
        let seen_epoch = {
            let txn = self.catalog.begin_read().in_catalog(path)?;
            meta_u64(path, &txn.open_table(META).in_catalog(path)?, META_EPOCH)?
        };
        let mut prepared = self.prepare(docs, seen_epoch);
        let mut ids = Vec::with_capacity(prepared.len());
        let txn = self.catalog.begin_write().in_catalog(path)?;
        let staged_docs;
        {
            let mut meta = txn.open_table(META).in_catalog(path)?;
            let mut staged = txn.open_table(STAGED).in_catalog(path)?;
            let mut prints = txn.open_table(PRINTS).in_catalog(path)?;
            let mut records = Vec::with_capacity(prepared.len());
            let mut print_bytes = meta_u64(path, &meta, META_STAGED_PRINT_BYTES)?;
            let epoch = meta_u64(path, &meta, META_EPOCH)?;
            if epoch != seen_epoch {
                for doc in &mut prepared {
                    doc.keys = self.stored_keys(&doc.print_keys, epoch);
                }
            }
            let mut next = meta_u64(path, &meta, META_NEXT_DOC)?;
            for doc in prepared {
                let id = DocId::try_from(next).map_err(|_| DbError::InvalidParameter {
                    name: "documents",
                    problem: "the database holds 2^32 document ids".into(),
                })?;
                next += 1;
                records.push(DocumentRecord {
                    id,
                    meta: doc.meta,
                    added,
                    selection: epoch,
                    stored: doc.keys.len() as u32,
                    print: doc.print_keys.len() as u32,
                });
                staged
                    .insert(id, encode_keys(&doc.keys).as_slice())
                    .in_catalog(path)?;
                if let Some(print) = doc.print {
                    print_bytes += print.len() as u64;
                    prints.insert(id, print.as_slice()).in_catalog(path)?;
                }
                ids.push(id);
            }
            insert_records(
                path,
                &mut txn.open_table(RECORDS).in_catalog(path)?,
                records,
            )?;
            staged_docs = meta_u64(path, &meta, META_STAGED_DOCS)? + ids.len() as u64;
            let documents = meta_u64(path, &meta, META_DOCUMENTS)? + ids.len() as u64;
            put_meta_u64(path, &mut meta, META_DOCUMENTS, documents)?;
            put_meta_u64(path, &mut meta, META_STAGED_PRINT_BYTES, print_bytes)?;
            put_meta_u64(path, &mut meta, META_NEXT_DOC, next)?;
            put_meta_u64(path, &mut meta, META_STAGED_DOCS, staged_docs)?;
            bump_change(path, &mut meta)?;
        }
        txn.commit().in_catalog(path)?;
        self.flush_if_full(staged_docs)?;
        Ok(ids)
    }

    /// After a commit that left `staged_docs` documents staged: flushes
    /// and merges if that reaches `flush_docs`.
    pub(crate) fn flush_if_full(&self, staged_docs: u64) -> Result<()> {
        if staged_docs >= u64::from(self.params.flush_docs) {
            self.flush()?;
            self.after_flush()?;
        }
        Ok(())
    }

    /// Merges now, or wakes the background merger if one runs.
    fn after_flush(&self) -> Result<()> {
        let signal = self.merge_signal.lock().expect("merge signal lock");
        match signal.as_ref() {
            // A merger that has stopped cannot be woken; merge here.
            Some(sender) if sender.send(()).is_ok() => Ok(()),
            _ => {
                drop(signal);
                self.merge().map(drop)
            }
        }
    }

    /// Starts a thread that runs [`Database::merge`] whenever a flush wrote
    /// a segment, so that writers never wait for merges. Merging stops when
    /// the returned handle is dropped or [finished](BackgroundMerger::finish).
    pub fn merge_in_background(self: &Arc<Self>) -> BackgroundMerger {
        let (sender, receiver) = mpsc::channel::<()>();
        let database = Arc::downgrade(self);
        let handle = std::thread::spawn(move || {
            while receiver.recv().is_ok() {
                // Signals that piled up during a merge need one more pass only.
                while receiver.try_recv().is_ok() {}
                let Some(database) = database.upgrade() else {
                    break;
                };
                database.merge()?;
            }
            Ok(())
        });
        *self.merge_signal.lock().expect("merge signal lock") = Some(sender);
        BackgroundMerger {
            database: Arc::clone(self),
            handle: Some(handle),
        }
    }

    /// Whether prints are kept for rotation.
    pub(crate) fn keeps_prints(&self) -> bool {
        self.params.mode == Mode::Koala && self.params.keep_prints
    }

    /// The stored keys under `epoch` of a print given by its keys.
    pub(crate) fn stored_keys(&self, print_keys: &[u64], epoch: u64) -> Vec<u64> {
        self.fingerprinter.stored_keys(print_keys, epoch)
    }

    /// Selects the stored keys and encodes the kept print of each document,
    /// in parallel for large batches.
    fn prepare(&self, docs: Vec<NewDocument>, epoch: u64) -> Vec<Prepared> {
        let one = |doc: NewDocument| {
            let print_keys = keys_of(&doc.print.hashes, self.params.hash_bits);
            Prepared {
                keys: self.stored_keys(&print_keys, epoch),
                print: self.keeps_prints().then(|| encode_keys(&print_keys)),
                print_keys,
                meta: doc.meta,
            }
        };
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        if threads == 1 || docs.len() < 64 {
            return docs.into_iter().map(one).collect();
        }
        let mut chunks: Vec<Vec<NewDocument>> = Vec::new();
        let chunk_len = docs.len().div_ceil(threads);
        let mut docs = docs.into_iter();
        loop {
            let chunk: Vec<NewDocument> = docs.by_ref().take(chunk_len).collect();
            if chunk.is_empty() {
                break;
            }
            chunks.push(chunk);
        }
        std::thread::scope(|scope| {
            let workers: Vec<_> = chunks
                .into_iter()
                .map(|chunk| scope.spawn(move || chunk.into_iter().map(one).collect::<Vec<_>>()))
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().expect("a preparing thread panicked"))
                .collect()
        })
    }

    /// The record of document `id`, if it is registered.
    pub fn document(&self, id: DocId) -> Result<Option<DocumentRecord>> {
        let path = &self.catalog_path;
        let txn = self.catalog.begin_read().in_catalog(path)?;
        let records = txn.open_table(RECORDS).in_catalog(path)?;
        read_record(path, &records, id)
    }

    /// Every record, in id order.
    pub fn documents(&self) -> Result<Vec<DocumentRecord>> {
        let path = &self.catalog_path;
        let txn = self.catalog.begin_read().in_catalog(path)?;
        let records = txn.open_table(RECORDS).in_catalog(path)?;
        let mut out = Vec::new();
        for_each_record(path, &records, 0, |cursor| {
            out.push(
                cursor
                    .record()
                    .ok_or_else(|| damaged_record(path, cursor.id()))?,
            );
            Ok(())
        })?;
        Ok(out)
    }

    /// Unregisters document `id`; returns its record, or `None` if there was
    /// none. Its postings leave the segments at the next merge that covers
    /// them; searches skip them from now on.
    pub fn remove(&self, id: DocId) -> Result<Option<DocumentRecord>> {
        let path = &self.catalog_path;
        let txn = self.catalog.begin_write().in_catalog(path)?;
        let record;
        {
            let mut records = txn.open_table(RECORDS).in_catalog(path)?;
            let Some(removed) = remove_record(path, &mut records, id)? else {
                return Ok(None);
            };
            record = removed;
            let mut meta = txn.open_table(META).in_catalog(path)?;
            let documents = meta_u64(path, &meta, META_DOCUMENTS)?;
            put_meta_u64(path, &mut meta, META_DOCUMENTS, documents.saturating_sub(1))?;
            let mut staged = txn.open_table(STAGED).in_catalog(path)?;
            if staged.remove(id).in_catalog(path)?.is_some() {
                let count = meta_u64(path, &meta, META_STAGED_DOCS)?;
                put_meta_u64(path, &mut meta, META_STAGED_DOCS, count.saturating_sub(1))?;
            }
            // Even a staged document gets a tombstone: searches' in-memory
            // views may still hold its postings and stored size.
            txn.open_table(REMOVED)
                .in_catalog(path)?
                .insert(id, ())
                .in_catalog(path)?;
            txn.open_table(SEARCHES)
                .in_catalog(path)?
                .remove(id)
                .in_catalog(path)?;
            let print_len = txn
                .open_table(PRINTS)
                .in_catalog(path)?
                .remove(id)
                .in_catalog(path)?
                .map_or(0, |print| print.value().len() as u64);
            let print_bytes = meta_u64(path, &meta, META_STAGED_PRINT_BYTES)?;
            put_meta_u64(
                path,
                &mut meta,
                META_STAGED_PRINT_BYTES,
                print_bytes.saturating_sub(print_len),
            )?;
            bump_change(path, &mut meta)?;
        }
        txn.commit().in_catalog(path)?;
        Ok(Some(record))
    }

    /// Adds matched-search counts `(document, searches)` to the persisted
    /// audit counters, in one transaction: a searcher batches its counts
    /// and writes them now and then, so a crash loses at most one batch.
    /// Counts of documents no longer registered are dropped.
    pub fn add_search_counts(&self, counts: &[(DocId, u64)]) -> Result<()> {
        let path = &self.catalog_path;
        let txn = self.catalog.begin_write().in_catalog(path)?;
        {
            let records = txn.open_table(RECORDS).in_catalog(path)?;
            let mut searches = txn.open_table(SEARCHES).in_catalog(path)?;
            for &(id, count) in counts {
                if read_record(path, &records, id)?.is_none() {
                    continue;
                }
                let before = searches.get(id).in_catalog(path)?.map_or(0, |v| v.value());
                searches
                    .insert(id, before.saturating_add(count))
                    .in_catalog(path)?;
            }
        }
        txn.commit().in_catalog(path)
    }

    /// The persisted count of searches that matched document `id`.
    pub fn search_count(&self, id: DocId) -> Result<u64> {
        let path = &self.catalog_path;
        let txn = self.catalog.begin_read().in_catalog(path)?;
        let searches = match txn.open_table(SEARCHES) {
            Ok(table) => table,
            // Nothing counted yet in a database from before the table.
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(0),
            Err(e) => return Err(DbError::catalog(path, e)),
        };
        Ok(searches.get(id).in_catalog(path)?.map_or(0, |v| v.value()))
    }

    /// Gives the catalogue file's free pages back to the file system. The
    /// file keeps the high-water mark of the staging table (up to
    /// `flush_docs` documents' keys, and their prints when kept) and of
    /// copy-on-write pages; after a bulk load and a [`Self::flush`] most of
    /// it is free. Returns whether the file shrank. Does nothing, and
    /// returns false, while another handle (in any process) has a
    /// transaction open.
    pub fn compact_catalog(&mut self) -> Result<bool> {
        match self.catalog.compact() {
            Ok(shrank) => Ok(shrank),
            Err(
                redb::CompactionError::TransactionInProgress
                | redb::CompactionError::EphemeralSavepointExists
                | redb::CompactionError::PersistentSavepointExists,
            ) => Ok(false),
            Err(e) => Err(DbError::catalog(&self.catalog_path, e)),
        }
    }

    /// Moves every staged posting into a new segment, and every staged
    /// print into a new cold print file. Returns whether there was anything
    /// to move.
    pub fn flush(&self) -> Result<bool> {
        let path = &self.catalog_path;
        let txn = self.catalog.begin_write().in_catalog(path)?;
        if !self.flush_in(&txn)? {
            return Ok(false);
        }
        txn.commit().in_catalog(path)?;
        Ok(true)
    }

    /// [`Self::flush`] inside the write transaction `txn`, which commits it.
    pub(crate) fn flush_in(&self, txn: &redb::WriteTransaction) -> Result<bool> {
        let path = &self.catalog_path;
        {
            let mut meta = txn.open_table(META).in_catalog(path)?;
            let mut staged_prints = txn.open_table(PRINTS).in_catalog(path)?;
            if meta_u64(path, &meta, META_STAGED_DOCS)? == 0
                && staged_prints.is_empty().in_catalog(path)?
            {
                return Ok(false);
            }
            let mut staged = txn.open_table(STAGED).in_catalog(path)?;
            let mut postings = Vec::new();
            for entry in staged.iter().in_catalog(path)? {
                let (id, bytes) = entry.in_catalog(path)?;
                let keys = decode_staged(path, id.value(), bytes.value())?;
                postings.extend(keys.into_iter().map(|key| Posting {
                    key,
                    doc: id.value(),
                }));
            }
            let mut manifest = read_manifest(path, &meta)?;
            if !postings.is_empty() {
                let entry = self.publish_segment(&mut manifest, |tmp| {
                    write_postings(tmp, self.params.hash_bits, &mut postings)
                })?;
                manifest.segments.push(entry);
            }
            let mut prints = Vec::new();
            for entry in staged_prints.iter().in_catalog(path)? {
                let (id, bytes) = entry.in_catalog(path)?;
                prints.push((id.value(), bytes.value().to_vec()));
            }
            if !prints.is_empty() {
                let entry = self.publish_prints(&mut manifest, &prints)?;
                manifest.print_files.push(entry);
                staged_prints.retain(|_, _| false).in_catalog(path)?;
                put_meta_u64(path, &mut meta, META_STAGED_PRINT_BYTES, 0)?;
            }
            self.remove_orphans(&manifest);
            staged.retain(|_, _| false).in_catalog(path)?;
            put_meta_u64(path, &mut meta, META_STAGED_DOCS, 0)?;
            publish_manifest(path, &mut meta, &mut manifest)?;
        }
        Ok(true)
    }

    /// Writes a segment with `write` under a temporary name, renames it to
    /// the manifest's next number and syncs the directory. Call inside the
    /// write transaction that will list it.
    pub(crate) fn publish_segment(
        &self,
        manifest: &mut Manifest,
        write: impl FnOnce(&Path) -> Result<crate::segment::SegmentSummary>,
    ) -> Result<SegmentEntry> {
        let number = manifest.next_number;
        manifest.next_number += 1;
        let path = self.segment_path(number);
        let tmp = path.with_extension("seg.tmp");
        // A leftover from a crash at this very number cannot be live.
        let _ = fs::remove_file(&tmp);
        let summary = write(&tmp)?;
        fs::rename(&tmp, &path).map_err(|e| DbError::io(&tmp, e))?;
        sync_dir(&self.dir)?;
        Ok(SegmentEntry {
            number,
            postings: summary.postings,
            bytes: summary.bytes,
        })
    }

    /// Writes `prints` to a cold print file under the manifest's next
    /// number, like [`Self::publish_segment`].
    fn publish_prints(
        &self,
        manifest: &mut Manifest,
        prints: &[(DocId, Vec<u8>)],
    ) -> Result<SegmentEntry> {
        let number = manifest.next_number;
        manifest.next_number += 1;
        let path = self.prints_path(number);
        let tmp = path.with_extension("prints.tmp");
        let _ = fs::remove_file(&tmp);
        let bytes = write_print_file(&tmp, prints)?;
        fs::rename(&tmp, &path).map_err(|e| DbError::io(&tmp, e))?;
        sync_dir(&self.dir)?;
        Ok(SegmentEntry {
            number,
            postings: prints.len() as u64,
            bytes,
        })
    }

    /// Calls `visit(id, print keys)` for every kept print: the cold files',
    /// then the staged ones. Prints of removed documents are included.
    pub(crate) fn for_each_print(
        &self,
        manifest: &Manifest,
        staged: &impl ReadableTable<u32, &'static [u8]>,
        mut visit: impl FnMut(DocId, Vec<u64>) -> Result<()>,
    ) -> Result<()> {
        for entry in &manifest.print_files {
            let file = self.prints_path(entry.number);
            read_print_file(&file, |id, bytes| {
                let print = decode_keys(bytes).ok_or_else(|| {
                    DbError::corrupt(&file, format!("the print of document {id} is damaged"))
                })?;
                visit(id, print)
            })?;
        }
        let path = &self.catalog_path;
        for entry in staged.iter().in_catalog(path)? {
            let (id, bytes) = entry.in_catalog(path)?;
            let id = id.value();
            let print = decode_keys(bytes.value()).ok_or_else(|| {
                DbError::corrupt(path, format!("the print of document {id} is damaged"))
            })?;
            visit(id, print)?;
        }
        Ok(())
    }

    /// Deletes segment files the manifest does not list and stale temporary
    /// files. Call inside a write transaction: files are only renamed into
    /// place inside one, so an unlisted `.seg` is garbage. Failures are
    /// harmless (the next call retries), so they are ignored.
    fn remove_orphans(&self, manifest: &Manifest) {
        let live: HashSet<String> = manifest
            .segments
            .iter()
            .map(|s| format!("{:012}.seg", s.number))
            .chain(
                manifest
                    .print_files
                    .iter()
                    .map(|p| format!("{:012}.prints", p.number)),
            )
            .collect();
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let stale = || {
                entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age > STALE_TEMPORARY)
            };
            let orphan = match DataFile::of(&name) {
                Some(DataFile::Listed) => !live.contains(&name),
                Some(DataFile::Temporary) => stale(),
                None => false,
            };
            if orphan {
                let _ = fs::remove_file(entry.path());
            }
        }
    }

    /// Runs merges until no size tier holds `merge_factor` segments and at
    /// most `max_segments` are live. Returns the number of merges.
    pub fn merge(&self) -> Result<usize> {
        let mut merges = 0;
        while let Some((inputs, removed)) = self.plan_merge()? {
            if self.run_merge(&inputs, &removed)? {
                merges += 1;
            } else {
                break;
            }
        }
        Ok(merges)
    }

    /// Merges every segment into one, dropping removed documents' postings.
    /// During an unfinished rotation, only the segments it wrote.
    pub fn compact(&self) -> Result<bool> {
        let (manifest, removed) = self.merge_snapshot()?;
        if manifest.segments.len() <= 1 && removed.is_empty() {
            return Ok(false);
        }
        self.run_merge(&manifest.segments, &removed)
    }

    /// The segments a merge may take, and the tombstones. During an
    /// unfinished rotation the segments from before it are left alone: its
    /// end drops them whole, and a merge would mix their stale postings
    /// into a segment numbered above the rotation's base.
    fn merge_snapshot(&self) -> Result<(Manifest, HashSet<DocId>)> {
        let path = &self.catalog_path;
        let txn = self.catalog.begin_read().in_catalog(path)?;
        let meta = txn.open_table(META).in_catalog(path)?;
        let mut manifest = read_manifest(path, &meta)?;
        if let Some(rotation) = read_rotation(path, &meta)? {
            manifest.segments.retain(|s| s.number >= rotation.base);
        }
        let removed = read_removed(path, &txn)?;
        Ok((manifest, removed))
    }

    /// What to merge next: the segments of the first size tier (sizes
    /// within a factor 4, all under [`MERGE_FLOOR_POSTINGS`] in one tier)
    /// that holds `merge_factor` of them, or else, when
    /// more than `max_segments` are live, the smallest ones (enough to get
    /// back to the cap), with the tombstones at that moment.
    fn plan_merge(&self) -> Result<Option<(Vec<SegmentEntry>, HashSet<DocId>)>> {
        let (manifest, removed) = self.merge_snapshot()?;
        let tier = |s: &SegmentEntry| s.postings.max(MERGE_FLOOR_POSTINGS).ilog2() / 2;
        let mut tiers: HashMap<u32, Vec<SegmentEntry>> = HashMap::new();
        for segment in &manifest.segments {
            tiers.entry(tier(segment)).or_default().push(*segment);
        }
        let mut full: Vec<(u32, Vec<SegmentEntry>)> = tiers
            .into_iter()
            .filter(|(_, members)| members.len() >= self.params.merge_factor as usize)
            .collect();
        full.sort_by_key(|(tier, _)| *tier);
        if let Some((_, members)) = full.into_iter().next() {
            return Ok(Some((members, removed)));
        }
        let cap = self.params.max_segments as usize;
        if manifest.segments.len() <= cap.max(1) {
            return Ok(None);
        }
        let mut by_size = manifest.segments;
        by_size.sort_by_key(|s| (s.postings, s.number));
        by_size.truncate(by_size.len() - cap + 1);
        Ok(Some((by_size, removed)))
    }

    /// Merges `inputs` into one segment outside any transaction, then swaps
    /// it in if the inputs are all still live. Returns whether it did.
    fn run_merge(&self, inputs: &[SegmentEntry], removed: &HashSet<DocId>) -> Result<bool> {
        let mut open = Vec::with_capacity(inputs.len());
        for entry in inputs {
            match Segment::open(&self.segment_path(entry.number)) {
                Ok(segment) => open.push(segment),
                // Another process merged them away meanwhile.
                Err(DbError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound =>
                {
                    return Ok(false);
                }
                Err(e) => return Err(e),
            }
        }
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let tmp = self
            .dir
            .join(format!("merge-{}-{nanos}.tmp", std::process::id()));
        let refs: Vec<&Segment> = open.iter().collect();
        let summary = merge_segments(
            &refs,
            self.params.hash_bits,
            |doc| !removed.contains(&doc),
            &tmp,
        );
        let summary = match summary {
            Ok(summary) => summary,
            Err(e) => {
                let _ = fs::remove_file(&tmp);
                return Err(e);
            }
        };
        let path = &self.catalog_path;
        let txn = self.catalog.begin_write().in_catalog(path)?;
        {
            let mut meta = txn.open_table(META).in_catalog(path)?;
            let mut manifest = read_manifest(path, &meta)?;
            let numbers: HashSet<u64> = inputs.iter().map(|s| s.number).collect();
            let still_live = manifest
                .segments
                .iter()
                .filter(|s| numbers.contains(&s.number))
                .count();
            // A rotation that started since the snapshot makes its
            // segments stale for some documents.
            let rotation = read_rotation(path, &meta)?;
            let mixes_stale = rotation.is_some_and(|r| inputs.iter().any(|s| s.number < r.base));
            if still_live != inputs.len() || mixes_stale {
                let _ = fs::remove_file(&tmp);
                return Ok(false);
            }
            let covers_all = manifest.segments.len() == inputs.len();
            manifest.segments.retain(|s| !numbers.contains(&s.number));
            if summary.postings > 0 {
                let entry = self.publish_segment(&mut manifest, |target| {
                    fs::rename(&tmp, target).map_err(|e| DbError::io(&tmp, e))?;
                    Ok(summary)
                })?;
                manifest.segments.push(entry);
            } else {
                let _ = fs::remove_file(&tmp);
            }
            if covers_all {
                // Every posting of these tombstones is gone; newer tombstones
                // (removals after the snapshot) stay.
                let mut tombstones = txn.open_table(REMOVED).in_catalog(path)?;
                tombstones
                    .retain(|id, ()| !removed.contains(&id))
                    .in_catalog(path)?;
            }
            publish_manifest(path, &mut meta, &mut manifest)?;
        }
        txn.commit().in_catalog(path)?;
        for entry in inputs {
            let _ = fs::remove_file(self.segment_path(entry.number));
        }
        Ok(true)
    }

    /// The current snapshot for searching, refreshed if a commit changed
    /// what searches see.
    pub(crate) fn view(&self) -> Result<Arc<View>> {
        let path = &self.catalog_path;
        let mut attempts = 0;
        loop {
            let txn = self.catalog.begin_read().in_catalog(path)?;
            let meta = txn.open_table(META).in_catalog(path)?;
            let change = meta_u64(path, &meta, META_CHANGE)?;
            let current = Arc::clone(&self.view.read().expect("view lock"));
            if current.change == change {
                return Ok(current);
            }
            match self.load_view(&txn, &meta, change, &current) {
                Ok(view) => {
                    let view = Arc::new(view);
                    *self.view.write().expect("view lock") = Arc::clone(&view);
                    return Ok(view);
                }
                // A merge in another process deleted a segment this snapshot
                // lists: a newer snapshot no longer lists it.
                Err(DbError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound && attempts < 8 =>
                {
                    attempts += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }

    fn load_view(
        &self,
        txn: &redb::ReadTransaction,
        meta: &redb::ReadOnlyTable<&'static str, &'static [u8]>,
        change: u64,
        current: &View,
    ) -> Result<View> {
        let path = &self.catalog_path;
        let manifest = read_manifest(path, meta)?;
        let same_segments = manifest.generation == current.generation && current.change != u64::MAX;
        let segments = if same_segments {
            current.segments.clone()
        } else {
            let mut segments = Vec::with_capacity(manifest.segments.len());
            for entry in &manifest.segments {
                let reused = current.segments.iter().find(|(n, _)| *n == entry.number);
                let segment = match reused {
                    Some((_, segment)) => Arc::clone(segment),
                    None => Arc::new(Segment::open(&self.segment_path(entry.number))?),
                };
                segments.push((entry.number, segment));
            }
            segments
        };
        let (mut staged, start) = if same_segments {
            (
                current.staged.clone(),
                current.staged_through.map_or(0, |id| u64::from(id) + 1),
            )
        } else {
            (HashMap::new(), 0)
        };
        let mut staged_through = if same_segments {
            current.staged_through
        } else {
            None
        };
        let table = txn.open_table(STAGED).in_catalog(path)?;
        if let Ok(start) = DocId::try_from(start) {
            for entry in table.range(start..).in_catalog(path)? {
                let (id, bytes) = entry.in_catalog(path)?;
                let keys = decode_staged(path, id.value(), bytes.value())?;
                for key in keys {
                    staged.entry(key).or_insert_with(Vec::new).push(id.value());
                }
                staged_through = Some(id.value());
            }
        }
        let epoch = meta_u64(path, meta, META_EPOCH)?;
        let rotation = read_rotation(path, meta)?;
        let next_doc = meta_u64(path, meta, META_NEXT_DOC)?;
        let stored_sizes = self.load_stored_sizes(txn, current, epoch, rotation, next_doc)?;
        Ok(View {
            change,
            generation: manifest.generation,
            segments,
            staged,
            staged_through,
            stored_sizes,
            sizes_epoch: epoch,
            rotation,
            removed: read_removed(path, txn)?,
        })
    }
}

impl Database {
    /// The stored sizes: `current`'s extended by the documents added since,
    /// and read again from the first document a rotation changed since.
    /// Every id is below `next_doc`, the next id to hand out: the table is
    /// indexed by id, so a damaged record's huge id must not size it.
    fn load_stored_sizes(
        &self,
        txn: &redb::ReadTransaction,
        current: &View,
        epoch: u64,
        rotation: Option<RotationState>,
        next_doc: u64,
    ) -> Result<Arc<Vec<u32>>> {
        let path = &self.catalog_path;
        let fresh = current.change == u64::MAX || current.sizes_epoch != epoch;
        let mut sizes = if fresh {
            Vec::new()
        } else {
            current.stored_sizes.to_vec()
        };
        let mut start = sizes.len();
        if !fresh && current.rotation != rotation {
            // A batch of the same rotation: only documents from its old
            // cursor on changed.
            let from = current.rotation.map_or(0, |r| r.cursor);
            start = start.min(usize::try_from(from).unwrap_or(usize::MAX));
        }
        let fresh = fresh || start < sizes.len();
        let records = txn.open_table(RECORDS).in_catalog(path)?;
        let start = DocId::try_from(start).unwrap_or(DocId::MAX);
        for_each_record(path, &records, start, |cursor| {
            if u64::from(cursor.id()) >= next_doc {
                return Err(DbError::corrupt(path, id_past_next(cursor.id(), next_doc)));
            }
            let at = cursor.id() as usize;
            if sizes.len() <= at {
                sizes.resize(at + 1, 0);
            }
            sizes[at] = cursor
                .stored()
                .ok_or_else(|| damaged_record(path, cursor.id()))?;
            Ok(())
        })?;
        if !fresh && sizes.len() == current.stored_sizes.len() {
            return Ok(Arc::clone(&current.stored_sizes));
        }
        Ok(Arc::new(sizes))
    }
}

/// Stores `manifest` as a new generation, which makes searchers load it
/// again, and counts the change.
pub(crate) fn publish_manifest(
    path: &Path,
    meta: &mut Table<&str, &[u8]>,
    manifest: &mut Manifest,
) -> Result<()> {
    manifest.generation += 1;
    meta.insert(META_MANIFEST, manifest.encode().as_slice())
        .in_catalog(path)?;
    bump_change(path, meta)
}

pub(crate) fn bump_change(path: &Path, meta: &mut Table<&str, &[u8]>) -> Result<()> {
    let change = meta_u64(path, meta, META_CHANGE)?;
    put_meta_u64(path, meta, META_CHANGE, change.wrapping_add(1))
}

/// The stored keys staged for document `id`.
pub(crate) fn decode_staged(path: &Path, id: DocId, bytes: &[u8]) -> Result<Vec<u64>> {
    decode_keys(bytes).ok_or_else(|| {
        DbError::corrupt(
            path,
            format!("staged postings of document {id} are damaged"),
        )
    })
}

/// What is wrong with a record whose id was never handed out.
pub(crate) fn id_past_next(id: DocId, next_doc: u64) -> String {
    format!("a record has document id {id}, past the next free id {next_doc}")
}

pub(crate) fn damaged_record(path: &Path, id: DocId) -> DbError {
    DbError::corrupt(path, format!("the record of document {id} is damaged"))
}

fn read_removed(path: &Path, txn: &redb::ReadTransaction) -> Result<HashSet<DocId>> {
    let table = txn.open_table(REMOVED).in_catalog(path)?;
    let mut removed = HashSet::new();
    for entry in table.iter().in_catalog(path)? {
        removed.insert(entry.in_catalog(path)?.0.value());
    }
    Ok(removed)
}

/// Reads and checks the format version and the parameters.
pub(crate) fn read_params(path: &Path, catalog: &redb::Database) -> Result<Params> {
    let txn = catalog.begin_read().in_catalog(path)?;
    let meta = txn.open_table(META).in_catalog(path)?;
    let format = meta
        .get(META_FORMAT)
        .in_catalog(path)?
        .and_then(|v| v.value().try_into().ok().map(u32::from_le_bytes))
        .ok_or_else(|| DbError::corrupt(path, "no format version"))?;
    if format != CATALOG_FORMAT {
        return Err(DbError::UnsupportedVersion {
            path: path.to_owned(),
            found: format,
            supported: CATALOG_FORMAT,
        });
    }
    let text = meta
        .get(META_PARAMS)
        .in_catalog(path)?
        .ok_or_else(|| DbError::corrupt(path, "no parameters"))?;
    let text = std::str::from_utf8(text.value())
        .map_err(|_| DbError::corrupt(path, "parameters are not UTF-8"))?;
    Params::decode(text).map_err(|e| DbError::corrupt(path, format!("parameters: {e}")))
}

/// Number of entries in `table`.
pub(crate) fn count_table<K: redb::Key + 'static, V: redb::Value + 'static>(
    path: &Path,
    txn: &redb::ReadTransaction,
    table: TableDefinition<K, V>,
) -> Result<u64> {
    txn.open_table(table)
        .in_catalog(path)?
        .len()
        .in_catalog(path)
}
