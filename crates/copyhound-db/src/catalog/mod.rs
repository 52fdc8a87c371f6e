//! The catalogue (`catalog.redb`): a redb database with the document
//! records, the staging area of new postings and prints, the tombstones,
//! the search counts and the meta values (format, parameters, counters,
//! the manifest, an unfinished rotation's state).
//!
//! Every write of the database is one transaction here, so a document is
//! either fully registered (record, staged stored keys, print) or not at
//! all, and a segment is either in the manifest (and its postings out of
//! the staging table) or not.
//!
//! The module is typed: the rest of the crate opens a [`ReadTxn`] or a
//! [`WriteTxn`] and reads or changes the tables through wrappers that know
//! their encodings ([`Meta`], [`Records`], [`KeyLists`], [`Tombstones`],
//! [`SearchCounts`]). Every error names the catalogue file; no redb type
//! or error leaves this module.

mod manifest;
mod records;

use std::collections::HashSet;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use redb::{ReadOnlyTable, ReadableDatabase, ReadableTable, Table, TableDefinition};

pub(crate) use manifest::{Manifest, RotationState, SegmentEntry};
pub use records::{DocId, DocumentMeta, DocumentRecord};
pub(crate) use records::{Records, damaged_record_problem, id_past_next};

use crate::error::{DbError, Result};
use crate::keys::{decode_keys, encode_keys};
use crate::params::Params;

/// The catalogue format this build reads and writes. Version 2 keeps the
/// records in blocks and counts documents in `meta`; version 3 ranks
/// stored subsets by key, keeps prints as keys and codes records with
/// varint flags and titles taken from their locations; version 4 rotates
/// in batches and keeps an unfinished rotation's state in `meta`
/// ([`RotationState`]), which a version-3 build would ignore and so count
/// stale postings; version 5 keys record blocks by their first id and
/// closes them by bytes, not by count.
const CATALOG_FORMAT: u32 = 5;

/// Database-wide values, by name.
const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
/// A block's first id → the block's records ([`records`]).
const RECORDS: TableDefinition<u32, &[u8]> = TableDefinition::new("records");
/// Document id → stored keys not yet in a segment ([`encode_keys`]).
const STAGED: TableDefinition<u32, &[u8]> = TableDefinition::new("staged");
/// Document id → the keys of the print ([`encode_keys`]) of a document
/// whose print is not yet in a cold print file (only with `keep_prints`).
const PRINTS: TableDefinition<u32, &[u8]> = TableDefinition::new("prints");
/// Ids of removed documents whose postings some segment still holds.
const REMOVED: TableDefinition<u32, ()> = TableDefinition::new("removed");
/// Document id → how many searches matched it (the audit of Koala §3.3),
/// as far as a searcher has written its counts back.
const SEARCHES: TableDefinition<u32, u64> = TableDefinition::new("search_counts");

/// Catalogue format version (u32 LE).
const META_FORMAT: &str = "format";
/// [`Params`] in text form.
const META_PARAMS: &str = "params";
/// The [`Manifest`].
const META_MANIFEST: &str = "manifest";
/// An unfinished rotation ([`RotationState`]); absent when none runs.
const META_ROTATION: &str = "rotation";

/// A numeric meta value (u64 LE; absent reads as zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Counter {
    /// The rotation epoch new stored subsets are selected under.
    Epoch,
    /// The next document id to hand out.
    NextDoc,
    /// Documents in the staging table.
    StagedDocs,
    /// Bumped by every commit that changes what a search sees.
    Change,
    /// Registered documents.
    Documents,
    /// Bytes of the prints in the `prints` table, so that `stats` need not
    /// read them.
    StagedPrintBytes,
}

impl Counter {
    const ALL: [Self; 6] = [
        Self::Epoch,
        Self::NextDoc,
        Self::StagedDocs,
        Self::Change,
        Self::Documents,
        Self::StagedPrintBytes,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::Epoch => "epoch",
            Self::NextDoc => "next_doc",
            Self::StagedDocs => "staged_docs",
            Self::Change => "change",
            Self::Documents => "documents",
            Self::StagedPrintBytes => "staged_print_bytes",
        }
    }
}

/// Maps redb errors to [`DbError::Catalog`] naming the catalogue file.
trait InCatalog<T> {
    fn in_catalog(self, path: &Path) -> Result<T>;
}

impl<T, E: Into<redb::Error>> InCatalog<T> for std::result::Result<T, E> {
    fn in_catalog(self, path: &Path) -> Result<T> {
        self.map_err(|e| DbError::catalog(path, e))
    }
}

/// The open catalogue file.
pub(crate) struct Catalog {
    path: PathBuf,
    db: redb::Database,
}

fn builder() -> redb::Builder {
    let mut builder = redb::Builder::new();
    // Other processes may open the same database at the same time.
    builder.set_concurrency_mode(redb::ConcurrencyMode::MultiWriter);
    builder
}

impl Catalog {
    /// Creates the catalogue file at `path`, which must not exist, for a
    /// database with `params`: empty tables, zero counters, an empty
    /// manifest.
    pub(crate) fn create(path: PathBuf, params: &Params) -> Result<Self> {
        let db = builder().create(&path).in_catalog(&path)?;
        let catalog = Self { path, db };
        let path = catalog.path.as_path();
        let txn = catalog.db.begin_write().in_catalog(path)?;
        {
            let mut meta = txn.open_table(META).in_catalog(path)?;
            meta.insert(META_FORMAT, CATALOG_FORMAT.to_le_bytes().as_slice())
                .in_catalog(path)?;
            meta.insert(META_PARAMS, params.encode().as_bytes())
                .in_catalog(path)?;
            meta.insert(META_MANIFEST, Manifest::default().encode().as_slice())
                .in_catalog(path)?;
            for counter in Counter::ALL {
                meta.insert(counter.name(), 0u64.to_le_bytes().as_slice())
                    .in_catalog(path)?;
            }
            txn.open_table(RECORDS).in_catalog(path)?;
            txn.open_table(STAGED).in_catalog(path)?;
            txn.open_table(PRINTS).in_catalog(path)?;
            txn.open_table(REMOVED).in_catalog(path)?;
            txn.open_table(SEARCHES).in_catalog(path)?;
        }
        txn.commit().in_catalog(path)?;
        Ok(catalog)
    }

    /// Opens the catalogue file at `path`. Its format and parameters are
    /// read by [`Self::params`].
    pub(crate) fn open(path: PathBuf) -> Result<Self> {
        let db = builder().open(&path).in_catalog(&path)?;
        Ok(Self { path, db })
    }

    /// The catalogue file.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The database's parameters, after checking the format version.
    pub(crate) fn params(&self) -> Result<Params> {
        self.read()?.meta()?.params()
    }

    /// redb's check of its own pages and checksums: `Ok(false)` if it
    /// repaired the file. No transaction may be open.
    pub(crate) fn check_integrity(&mut self) -> Result<bool> {
        self.db.check_integrity().in_catalog(&self.path)
    }

    /// Gives the file's free pages back to the file system; returns
    /// whether it shrank. Does nothing, and returns false, while another
    /// handle (in any process) has a transaction open.
    pub(crate) fn compact(&mut self) -> Result<bool> {
        match self.db.compact() {
            Ok(shrank) => Ok(shrank),
            Err(
                redb::CompactionError::TransactionInProgress
                | redb::CompactionError::EphemeralSavepointExists
                | redb::CompactionError::PersistentSavepointExists,
            ) => Ok(false),
            Err(e) => Err(DbError::catalog(&self.path, e)),
        }
    }

    /// A read transaction: a consistent snapshot.
    pub(crate) fn read(&self) -> Result<ReadTxn<'_>> {
        Ok(ReadTxn {
            path: &self.path,
            txn: self.db.begin_read().in_catalog(&self.path)?,
        })
    }

    /// A write transaction; writers (in any process) take turns.
    pub(crate) fn write(&self) -> Result<WriteTxn<'_>> {
        Ok(WriteTxn {
            path: &self.path,
            txn: self.db.begin_write().in_catalog(&self.path)?,
        })
    }
}

/// A read transaction of the catalogue.
pub(crate) struct ReadTxn<'c> {
    path: &'c Path,
    txn: redb::ReadTransaction,
}

type ReadMeta = ReadOnlyTable<&'static str, &'static [u8]>;
type ReadBytes = ReadOnlyTable<u32, &'static [u8]>;

impl ReadTxn<'_> {
    /// The meta values.
    pub(crate) fn meta(&self) -> Result<Meta<'_, ReadMeta>> {
        Ok(Meta {
            path: self.path,
            table: self.txn.open_table(META).in_catalog(self.path)?,
        })
    }

    /// The document records.
    pub(crate) fn records(&self) -> Result<Records<'_, ReadBytes>> {
        Ok(Records::new(
            self.path,
            self.txn.open_table(RECORDS).in_catalog(self.path)?,
        ))
    }

    /// The stored keys not yet in a segment.
    pub(crate) fn staged(&self) -> Result<KeyLists<'_, ReadBytes>> {
        KeyLists::open(self.path, self.txn.open_table(STAGED), ListKind::Staged)
    }

    /// The kept prints not yet in a print file.
    pub(crate) fn prints(&self) -> Result<KeyLists<'_, ReadBytes>> {
        KeyLists::open(self.path, self.txn.open_table(PRINTS), ListKind::Prints)
    }

    /// The removed documents whose postings some segment still holds.
    pub(crate) fn tombstones(&self) -> Result<Tombstones<'_, ReadOnlyTable<u32, ()>>> {
        Ok(Tombstones {
            path: self.path,
            table: self.txn.open_table(REMOVED).in_catalog(self.path)?,
        })
    }

    /// The persisted count of searches that matched document `id`.
    pub(crate) fn search_count(&self, id: DocId) -> Result<u64> {
        let searches = match self.txn.open_table(SEARCHES) {
            Ok(table) => table,
            // Nothing counted yet in a database from before the table.
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(0),
            Err(e) => return Err(DbError::catalog(self.path, e)),
        };
        Ok(searches
            .get(id)
            .in_catalog(self.path)?
            .map_or(0, |v| v.value()))
    }
}

/// A write transaction of the catalogue: nothing of it is seen, by this
/// process or another, before [`Self::commit`]; dropped, it is aborted.
pub(crate) struct WriteTxn<'c> {
    path: &'c Path,
    txn: redb::WriteTransaction,
}

type WriteMeta<'t> = Table<'t, &'static str, &'static [u8]>;
type WriteBytes<'t> = Table<'t, u32, &'static [u8]>;

impl WriteTxn<'_> {
    /// The meta values.
    pub(crate) fn meta(&self) -> Result<Meta<'_, WriteMeta<'_>>> {
        Ok(Meta {
            path: self.path,
            table: self.txn.open_table(META).in_catalog(self.path)?,
        })
    }

    /// The document records.
    pub(crate) fn records(&self) -> Result<Records<'_, WriteBytes<'_>>> {
        Ok(Records::new(
            self.path,
            self.txn.open_table(RECORDS).in_catalog(self.path)?,
        ))
    }

    /// The stored keys not yet in a segment.
    pub(crate) fn staged(&self) -> Result<KeyLists<'_, WriteBytes<'_>>> {
        KeyLists::open(self.path, self.txn.open_table(STAGED), ListKind::Staged)
    }

    /// The kept prints not yet in a print file.
    pub(crate) fn prints(&self) -> Result<KeyLists<'_, WriteBytes<'_>>> {
        KeyLists::open(self.path, self.txn.open_table(PRINTS), ListKind::Prints)
    }

    /// The removed documents whose postings some segment still holds.
    pub(crate) fn tombstones(&self) -> Result<Tombstones<'_, Table<'_, u32, ()>>> {
        Ok(Tombstones {
            path: self.path,
            table: self.txn.open_table(REMOVED).in_catalog(self.path)?,
        })
    }

    /// The search counts.
    pub(crate) fn search_counts(&self) -> Result<SearchCounts<'_>> {
        Ok(SearchCounts {
            path: self.path,
            table: self.txn.open_table(SEARCHES).in_catalog(self.path)?,
        })
    }

    /// Makes the transaction durable (redb syncs before returning) and
    /// visible.
    pub(crate) fn commit(self) -> Result<()> {
        self.txn.commit().in_catalog(self.path)
    }

    /// Drops the transaction's changes.
    pub(crate) fn abort(self) -> Result<()> {
        self.txn.abort().in_catalog(self.path)
    }
}

/// The meta table: counters, the manifest, the rotation state, the format
/// and the parameters.
pub(crate) struct Meta<'p, T> {
    path: &'p Path,
    table: T,
}

impl<T: ReadableTable<&'static str, &'static [u8]>> Meta<'_, T> {
    /// A counter's value.
    pub(crate) fn get(&self, counter: Counter) -> Result<u64> {
        let key = counter.name();
        match self.table.get(key).in_catalog(self.path)? {
            None => Ok(0),
            Some(value) => value
                .value()
                .try_into()
                .map(u64::from_le_bytes)
                .map_err(|_| {
                    DbError::corrupt(self.path, format!("meta value {key:?} is not 8 bytes"))
                }),
        }
    }

    /// The manifest.
    pub(crate) fn manifest(&self) -> Result<Manifest> {
        match self.table.get(META_MANIFEST).in_catalog(self.path)? {
            None => Ok(Manifest::default()),
            Some(bytes) => Manifest::decode(bytes.value())
                .ok_or_else(|| DbError::corrupt(self.path, "the manifest is damaged")),
        }
    }

    /// The state of an unfinished rotation, if one is.
    pub(crate) fn rotation(&self) -> Result<Option<RotationState>> {
        match self.table.get(META_ROTATION).in_catalog(self.path)? {
            None => Ok(None),
            Some(bytes) => RotationState::decode(bytes.value())
                .map(Some)
                .ok_or_else(|| DbError::corrupt(self.path, "the rotation state is damaged")),
        }
    }

    /// The parameters, after checking that this build reads the format.
    pub(crate) fn params(&self) -> Result<Params> {
        let path = self.path;
        let format = self
            .table
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
        let text = self
            .table
            .get(META_PARAMS)
            .in_catalog(path)?
            .ok_or_else(|| DbError::corrupt(path, "no parameters"))?;
        let text = std::str::from_utf8(text.value())
            .map_err(|_| DbError::corrupt(path, "parameters are not UTF-8"))?;
        Params::decode(text).map_err(|e| DbError::corrupt(path, format!("parameters: {e}")))
    }
}

impl Meta<'_, WriteMeta<'_>> {
    /// Sets a counter.
    pub(crate) fn set(&mut self, counter: Counter, value: u64) -> Result<()> {
        self.table
            .insert(counter.name(), value.to_le_bytes().as_slice())
            .in_catalog(self.path)
            .map(drop)
    }

    /// Counts a change of what searches see, so that they load it.
    pub(crate) fn bump_change(&mut self) -> Result<()> {
        let change = self.get(Counter::Change)?;
        self.set(Counter::Change, change.wrapping_add(1))
    }

    /// Stores `manifest` as a new generation, which makes searchers load
    /// it again, and counts the change.
    pub(crate) fn publish_manifest(&mut self, manifest: &mut Manifest) -> Result<()> {
        manifest.generation += 1;
        self.table
            .insert(META_MANIFEST, manifest.encode().as_slice())
            .in_catalog(self.path)?;
        self.bump_change()
    }

    /// Stores the state of the unfinished rotation, or removes it.
    pub(crate) fn set_rotation(&mut self, state: Option<&RotationState>) -> Result<()> {
        match state {
            Some(state) => self
                .table
                .insert(META_ROTATION, state.encode().as_slice())
                .map(drop),
            None => self.table.remove(META_ROTATION).map(drop),
        }
        .in_catalog(self.path)
    }
}

/// What a [`KeyLists`] table holds, for its error messages.
#[derive(Clone, Copy)]
enum ListKind {
    Staged,
    Prints,
}

/// A table of sorted key lists by document id ([`encode_keys`]): the
/// staged stored keys, or the staged kept prints.
pub(crate) struct KeyLists<'p, T> {
    path: &'p Path,
    table: T,
    kind: ListKind,
}

impl<'p, T> KeyLists<'p, T> {
    fn open<E: Into<redb::Error>>(
        path: &'p Path,
        table: std::result::Result<T, E>,
        kind: ListKind,
    ) -> Result<Self> {
        Ok(Self {
            path,
            table: table.in_catalog(path)?,
            kind,
        })
    }

    /// The error for the damaged list of document `id`.
    fn damaged(&self, id: DocId) -> DbError {
        DbError::corrupt(self.path, damaged_list_problem(self.kind, id))
    }
}

/// What is wrong when a key list does not decode, as errors and `check`
/// word it.
fn damaged_list_problem(kind: ListKind, id: DocId) -> String {
    match kind {
        ListKind::Staged => format!("staged postings of document {id} are damaged"),
        ListKind::Prints => format!("the print of document {id} is damaged"),
    }
}

/// What is wrong when the staged postings of `id` do not decode.
pub(crate) fn damaged_staged_problem(id: DocId) -> String {
    damaged_list_problem(ListKind::Staged, id)
}

/// What is wrong when the kept print of `id` does not decode.
pub(crate) fn damaged_print_problem(id: DocId) -> String {
    damaged_list_problem(ListKind::Prints, id)
}

impl<T: ReadableTable<u32, &'static [u8]>> KeyLists<'_, T> {
    /// Calls `visit(id, keys)` for every list of a document with an id of
    /// at least `from`, in id order.
    pub(crate) fn for_each(
        &self,
        from: DocId,
        mut visit: impl FnMut(DocId, Vec<u64>) -> Result<()>,
    ) -> Result<()> {
        for entry in self.table.range(from..).in_catalog(self.path)? {
            let (id, bytes) = entry.in_catalog(self.path)?;
            let id = id.value();
            let keys = decode_keys(bytes.value()).ok_or_else(|| self.damaged(id))?;
            visit(id, keys)?;
        }
        Ok(())
    }

    /// Calls `visit(id, encoded list)` for every list, in id order, without
    /// decoding them.
    pub(crate) fn for_each_encoded(
        &self,
        mut visit: impl FnMut(DocId, &[u8]) -> Result<()>,
    ) -> Result<()> {
        for entry in self.table.iter().in_catalog(self.path)? {
            let (id, bytes) = entry.in_catalog(self.path)?;
            visit(id.value(), bytes.value())?;
        }
        Ok(())
    }

    /// Number of lists.
    pub(crate) fn len(&self) -> Result<u64> {
        self.table.len().in_catalog(self.path)
    }

    /// Whether there is none.
    pub(crate) fn is_empty(&self) -> Result<bool> {
        self.table.is_empty().in_catalog(self.path)
    }
}

impl KeyLists<'_, WriteBytes<'_>> {
    /// Stores the keys of document `id`; returns whether it had a list.
    pub(crate) fn insert(&mut self, id: DocId, keys: &[u64]) -> Result<bool> {
        self.insert_encoded(id, &encode_keys(keys))
    }

    /// Stores a list already encoded; returns whether `id` had one.
    pub(crate) fn insert_encoded(&mut self, id: DocId, encoded: &[u8]) -> Result<bool> {
        Ok(self
            .table
            .insert(id, encoded)
            .in_catalog(self.path)?
            .is_some())
    }

    /// Removes the list of `id`; returns its encoded length if it had one.
    pub(crate) fn remove(&mut self, id: DocId) -> Result<Option<usize>> {
        Ok(self
            .table
            .remove(id)
            .in_catalog(self.path)?
            .map(|list| list.value().len()))
    }

    /// Removes every list.
    pub(crate) fn clear(&mut self) -> Result<()> {
        self.table.retain(|_, _| false).in_catalog(self.path)
    }
}

/// The ids of removed documents whose postings some segment still holds.
pub(crate) struct Tombstones<'p, T> {
    path: &'p Path,
    table: T,
}

impl<T: ReadableTable<u32, ()>> Tombstones<'_, T> {
    /// Every id.
    pub(crate) fn ids(&self) -> Result<HashSet<DocId>> {
        let mut removed = HashSet::new();
        for entry in self.table.iter().in_catalog(self.path)? {
            removed.insert(entry.in_catalog(self.path)?.0.value());
        }
        Ok(removed)
    }

    /// Number of ids.
    pub(crate) fn len(&self) -> Result<u64> {
        self.table.len().in_catalog(self.path)
    }
}

impl Tombstones<'_, Table<'_, u32, ()>> {
    /// Adds `id`.
    pub(crate) fn insert(&mut self, id: DocId) -> Result<()> {
        self.table.insert(id, ()).in_catalog(self.path).map(drop)
    }

    /// Drops the ids in `cleared`: no segment holds their postings now.
    pub(crate) fn clear(&mut self, cleared: &HashSet<DocId>) -> Result<()> {
        self.table
            .retain(|id, ()| !cleared.contains(&id))
            .in_catalog(self.path)
    }
}

/// Document id → searches that matched it.
pub(crate) struct SearchCounts<'t> {
    path: &'t Path,
    table: Table<'t, u32, u64>,
}

impl SearchCounts<'_> {
    /// Adds `count` to the count of `id`.
    pub(crate) fn add(&mut self, id: DocId, count: u64) -> Result<()> {
        let before = self
            .table
            .get(id)
            .in_catalog(self.path)?
            .map_or(0, |v| v.value());
        self.table
            .insert(id, before.saturating_add(count))
            .in_catalog(self.path)
            .map(drop)
    }

    /// Drops the count of `id`.
    pub(crate) fn remove(&mut self, id: DocId) -> Result<()> {
        self.table.remove(id).in_catalog(self.path).map(drop)
    }
}

/// The ids `from..to` (`from < to <= 2^32`) as an inclusive range.
pub(crate) fn id_range(from: u64, to: u64) -> RangeInclusive<DocId> {
    let id = |n: u64| DocId::try_from(n).unwrap_or(DocId::MAX);
    id(from)..=id(to - 1)
}
