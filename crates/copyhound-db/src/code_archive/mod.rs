//! The code archive: every unit of earlier batches, kept so that a new
//! batch is compared with them without reading them all again.
//!
//! Where the Koala database keeps a fixed-size search set of hash keys per
//! document, the archive keeps what a batch comparison needs to score a
//! new unit against an archived one exactly as a comparison of both would:
//! each unit's distinct fingerprint hashes in full (64 bits, so that
//! counting the units that hold a hash is exact), by family, and its files
//! as the comparison reads them: each file's normalised symbols with their
//! spans and its line starts, so that a unit that can pair with a new one
//! is compared without being normalised again, and apart from them its
//! text (compressed; or only its path, to be read again), which only an
//! output that shows one of its passages reads. What the settings are
//! (front-end, selection) is the caller's: the archive keeps them as text.
//! One redb file, `archive.redb`; every change is one transaction.
//! FORMAT.md documents the bytes.

mod codec;
mod inspect;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use copyhound_fingerprint::NormalizedDocument;
use redb::{Database as Redb, ReadableDatabase, ReadableTable, TableDefinition};

use crate::{DbError, Result};
use codec::{
    Codec, decode_files, decode_hashes, decode_record, decode_texts, encode_files, encode_hashes,
    encode_record, encode_texts,
};
pub use inspect::{ArchiveCheck, ArchiveStats, check_archive};

/// The archive's file in its directory.
pub const ARCHIVE_FILE: &str = "archive.redb";

/// The format version this build writes (1 kept files' bytes and no
/// normalised symbols; 2 kept texts with the symbols and no line starts;
/// 3 deflated files and texts, which this build still reads and adds to).
const FORMAT: u32 = 4;

/// The oldest format version this build reads.
const OLDEST_READ: u32 = 3;

/// The first format version that compresses with zstd and keeps each
/// family's unit count.
const ZSTD_AND_FAMILIES: u32 = 4;

/// The memory redb may cache pages in. Its default, 1 GiB, filled up with
/// the pages of every print a comparison scans and every unit it pulls,
/// none of which it reads again: 420 MB at 100,000 units, more than
/// `compare --against` took beyond a plain comparison. Scanning and
/// adding need only the tree's inner pages cached.
const REDB_CACHE: usize = 64 << 20;

/// How the archive's redb file is opened and created.
fn redb_builder() -> redb::Builder {
    let mut builder = redb::Builder::new();
    builder.set_cache_size(REDB_CACHE);
    builder
}

const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
/// Unit name → id.
const NAMES: TableDefinition<&str, u64> = TableDefinition::new("names");
/// Id → the unit's record (name, family, root, content hash).
const UNITS: TableDefinition<u64, &[u8]> = TableDefinition::new("units");
/// (family, id) → the unit's distinct fingerprint hashes.
const PRINTS: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("prints");
/// Id → the unit's files: names, paths, normalised symbols and spans,
/// line starts.
const FILES: TableDefinition<u64, &[u8]> = TableDefinition::new("files");
/// Id → the texts of the unit's files (kept texts only).
const TEXTS: TableDefinition<u64, &[u8]> = TableDefinition::new("texts");
/// Family → how many units it has (format 4 on), so that a comparison
/// knows them without reading every print.
const FAMILIES: TableDefinition<&str, u64> = TableDefinition::new("families");

/// One file of an archived unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchivedFile {
    /// Its name in its unit.
    pub name: String,
    /// Where it was read from when it was added.
    pub path: PathBuf,
    /// Its symbols as the archive's front-end normalised them, with their
    /// spans in [`text`](Self::text).
    pub form: NormalizedDocument,
    /// Where each cell of a notebook starts in the text: its number and
    /// byte offset (none for other files).
    pub cells: Vec<(u32, u64)>,
    /// Where each line of the text after the first starts (byte offsets,
    /// ascending), so that lines are known without the text.
    pub line_starts: Vec<u32>,
    /// The text it was read as (what spans index into): given to
    /// [`Archive::put`], kept when the archive keeps texts, and read back
    /// apart, by [`Archive::text`] (a unit read back has none).
    pub text: Option<String>,
}

/// A unit as the archive keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchivedUnit {
    /// Its name: its path relative to the path it was added from.
    pub name: String,
    /// Its family (a language's name, or `text`).
    pub family: String,
    /// The path it was added from.
    pub root: String,
    /// A hash of its files' names and bytes, to tell a changed unit.
    pub content: u64,
    /// Its distinct fingerprint hashes, ascending.
    pub hashes: Vec<u64>,
    /// Its files.
    pub files: Vec<ArchivedFile>,
}

/// The identity of an archived unit, for [`Archive::units`].
pub type UnitId = u64;

/// Units of a [`PrintChunk`]: enough to spread their decoding over
/// threads, few enough that the chunk's bytes stay small.
pub const PRINT_CHUNK: usize = 4096;

/// The stored hashes of up to [`PRINT_CHUNK`] units, as the archive keeps
/// them (ascending gaps): read in one go, decoded one unit at a time by
/// [`hashes`](Self::hashes).
#[derive(Debug)]
pub struct PrintChunk {
    file: PathBuf,
    ids: Vec<UnitId>,
    /// Where each unit's bytes end in `bytes`.
    ends: Vec<usize>,
    bytes: Vec<u8>,
}

impl PrintChunk {
    /// How many units it holds.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The id of its `i`-th unit.
    pub fn id(&self, i: usize) -> UnitId {
        self.ids[i]
    }

    /// The distinct hashes of its `i`-th unit, ascending, into `into`
    /// (cleared first); an error naming the unit when its bytes are not
    /// hashes.
    pub fn hashes(&self, i: usize, into: &mut Vec<u64>) -> Result<()> {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        decode_hashes(&self.bytes[start..self.ends[i]], into).ok_or_else(|| {
            DbError::corrupt(&self.file, format!("the hashes of unit {}", self.ids[i]))
        })
    }

    fn clear(&mut self) {
        self.ids.clear();
        self.ends.clear();
        self.bytes.clear();
    }
}

/// An open archive.
#[derive(Debug)]
pub struct Archive {
    file: PathBuf,
    db: Redb,
    keep_texts: bool,
    /// Its format version, which says how its files and texts are
    /// compressed.
    format: u32,
}

impl Archive {
    /// Whether `dir` holds an archive.
    pub fn exists(dir: &Path) -> bool {
        dir.join(ARCHIVE_FILE).is_file()
    }

    /// Creates an archive in `dir` (made if missing) with `settings`, which
    /// keeps its units' bytes when `keep_texts`.
    pub fn create(dir: &Path, settings: &str, keep_texts: bool) -> Result<Self> {
        let file = dir.join(ARCHIVE_FILE);
        if file.exists() || dir.join(crate::CATALOG_FILE).exists() {
            return Err(DbError::AlreadyExists { path: dir.into() });
        }
        std::fs::create_dir_all(dir).map_err(|e| DbError::io(dir, e))?;
        let db = redb_builder()
            .create(&file)
            .map_err(|e| DbError::catalog(&file, e))?;
        let txn = db.begin_write().map_err(|e| DbError::catalog(&file, e))?;
        {
            let mut meta = txn
                .open_table(META)
                .map_err(|e| DbError::catalog(&file, e))?;
            let format = FORMAT.to_le_bytes();
            for (name, value) in [
                ("format", &format[..]),
                ("settings", settings.as_bytes()),
                ("keep_texts", &[u8::from(keep_texts)][..]),
                ("next_id", &0u64.to_le_bytes()[..]),
            ] {
                meta.insert(name, value)
                    .map_err(|e| DbError::catalog(&file, e))?;
            }
            txn.open_table(NAMES)
                .map_err(|e| DbError::catalog(&file, e))?;
            txn.open_table(UNITS)
                .map_err(|e| DbError::catalog(&file, e))?;
            txn.open_table(PRINTS)
                .map_err(|e| DbError::catalog(&file, e))?;
            txn.open_table(FILES)
                .map_err(|e| DbError::catalog(&file, e))?;
            txn.open_table(TEXTS)
                .map_err(|e| DbError::catalog(&file, e))?;
            txn.open_table(FAMILIES)
                .map_err(|e| DbError::catalog(&file, e))?;
        }
        txn.commit().map_err(|e| DbError::catalog(&file, e))?;
        Ok(Self {
            file,
            db,
            keep_texts,
            format: FORMAT,
        })
    }

    /// Opens the archive in `dir`.
    pub fn open(dir: &Path) -> Result<Self> {
        let file = dir.join(ARCHIVE_FILE);
        if !file.is_file() {
            return Err(DbError::NotADatabase { path: dir.into() });
        }
        let db = redb_builder()
            .open(&file)
            .map_err(|e| DbError::catalog(&file, e))?;
        Self::from_redb(file, db)
    }

    /// The archive of `db`, opened from `file`: its format checked.
    fn from_redb(file: PathBuf, db: Redb) -> Result<Self> {
        let mut archive = Self {
            file,
            db,
            keep_texts: false,
            format: FORMAT,
        };
        let format = archive.meta("format")?;
        let found = <[u8; 4]>::try_from(format.as_slice())
            .map(u32::from_le_bytes)
            .map_err(|_| archive.corrupt("the format version is not 4 bytes"))?;
        if !(OLDEST_READ..=FORMAT).contains(&found) {
            return Err(DbError::UnsupportedVersion {
                path: archive.file,
                found,
                supported: FORMAT,
            });
        }
        archive.format = found;
        archive.keep_texts = archive.meta("keep_texts")? == [1];
        Ok(archive)
    }

    /// The settings the archive was created with.
    pub fn settings(&self) -> Result<String> {
        String::from_utf8(self.meta("settings")?)
            .map_err(|_| self.corrupt("the settings are not UTF-8"))
    }

    /// Whether the archive keeps its units' bytes.
    pub fn keeps_texts(&self) -> bool {
        self.keep_texts
    }

    /// Its format version.
    pub fn format(&self) -> u32 {
        self.format
    }

    /// How its files and texts are compressed.
    fn codec(&self) -> Codec {
        if self.format >= ZSTD_AND_FAMILIES {
            Codec::Zstd
        } else {
            Codec::Deflate
        }
    }

    /// The content hash of the unit called `name`, if there is one.
    pub fn content_of(&self, name: &str) -> Result<Option<u64>> {
        let txn = self.db.begin_read().map_err(|e| self.error(e))?;
        let names = txn.open_table(NAMES).map_err(|e| self.error(e))?;
        let Some(id) = names.get(name).map_err(|e| self.error(e))? else {
            return Ok(None);
        };
        let units = txn.open_table(UNITS).map_err(|e| self.error(e))?;
        let record = units
            .get(id.value())
            .map_err(|e| self.error(e))?
            .ok_or_else(|| self.corrupt(format!("unit {name} has no record")))?;
        let record = decode_record(record.value())
            .ok_or_else(|| self.corrupt(format!("the record of unit {name}")))?;
        Ok(Some(record.content))
    }

    /// Stores `units` in one transaction; a unit of a name already there
    /// replaces it. The texts of their files are kept only if the archive
    /// keeps texts.
    pub fn put(&self, units: &[ArchivedUnit]) -> Result<()> {
        let txn = self.db.begin_write().map_err(|e| self.error(e))?;
        {
            let mut meta = txn.open_table(META).map_err(|e| self.error(e))?;
            let mut names = txn.open_table(NAMES).map_err(|e| self.error(e))?;
            let mut records = txn.open_table(UNITS).map_err(|e| self.error(e))?;
            let mut prints = txn.open_table(PRINTS).map_err(|e| self.error(e))?;
            let mut files = txn.open_table(FILES).map_err(|e| self.error(e))?;
            let mut texts = txn.open_table(TEXTS).map_err(|e| self.error(e))?;
            let next = meta
                .get("next_id")
                .map_err(|e| self.error(e))?
                .and_then(|v| <[u8; 8]>::try_from(v.value()).ok())
                .map(u64::from_le_bytes)
                .ok_or_else(|| self.corrupt("no next unit id"))?;
            let mut next_id = next;
            // Units added and taken away by family, written once at the
            // end; a format-3 archive keeps no counts.
            let mut counted: BTreeMap<String, i64> = BTreeMap::new();
            for unit in units {
                let old = names
                    .remove(unit.name.as_str())
                    .map_err(|e| self.error(e))?
                    .map(|id| id.value());
                if let Some(old) = old {
                    let record = records
                        .remove(old)
                        .map_err(|e| self.error(e))?
                        .and_then(|r| decode_record(r.value()))
                        .ok_or_else(|| self.corrupt(format!("the record of unit {}", unit.name)))?;
                    prints
                        .remove((record.family.as_str(), old))
                        .map_err(|e| self.error(e))?;
                    *counted.entry(record.family).or_default() -= 1;
                    files.remove(old).map_err(|e| self.error(e))?;
                    texts.remove(old).map_err(|e| self.error(e))?;
                }
                *counted.entry(unit.family.clone()).or_default() += 1;
                let id = next_id;
                next_id += 1;
                names
                    .insert(unit.name.as_str(), id)
                    .map_err(|e| self.error(e))?;
                records
                    .insert(id, encode_record(unit).as_slice())
                    .map_err(|e| self.error(e))?;
                prints
                    .insert(
                        (unit.family.as_str(), id),
                        encode_hashes(&unit.hashes).as_slice(),
                    )
                    .map_err(|e| self.error(e))?;
                files
                    .insert(id, encode_files(&unit.files, self.codec()).as_slice())
                    .map_err(|e| self.error(e))?;
                if self.keep_texts {
                    texts
                        .insert(id, encode_texts(&unit.files, self.codec()).as_slice())
                        .map_err(|e| self.error(e))?;
                }
            }
            meta.insert("next_id", &next_id.to_le_bytes()[..])
                .map_err(|e| self.error(e))?;
            if self.counts_families() {
                let mut families = txn.open_table(FAMILIES).map_err(|e| self.error(e))?;
                for (family, change) in counted {
                    let family = family.as_str();
                    let before = families.get(family).map_err(|e| self.error(e))?;
                    let before = before.map_or(0, |count| count.value());
                    let after = before.checked_add_signed(change).ok_or_else(|| {
                        self.corrupt(format!("the unit count of family {family}"))
                    })?;
                    if after == 0 {
                        families.remove(family).map_err(|e| self.error(e))?;
                    } else {
                        families.insert(family, after).map_err(|e| self.error(e))?;
                    }
                }
            }
        }
        txn.commit().map_err(|e| self.error(e))
    }

    /// Whether the archive keeps each family's unit count (format 4 on).
    pub(super) fn counts_families(&self) -> bool {
        self.format >= ZSTD_AND_FAMILIES
    }

    /// The number of units of each family: as kept, or in a format-3
    /// archive counted from the prints.
    pub fn families(&self) -> Result<BTreeMap<String, usize>> {
        if !self.counts_families() {
            return self.families_of_prints();
        }
        let txn = self.db.begin_read().map_err(|e| self.error(e))?;
        let families = txn.open_table(FAMILIES).map_err(|e| self.error(e))?;
        let mut counts = BTreeMap::new();
        for entry in families.iter().map_err(|e| self.error(e))? {
            let (family, units) = entry.map_err(|e| self.error(e))?;
            let units = usize::try_from(units.value())
                .map_err(|_| self.corrupt("a family's unit count"))?;
            counts.insert(family.value().to_string(), units);
        }
        Ok(counts)
    }

    /// The number of units of each family, counted from the prints (every
    /// unit has one): what [`Self::families`] keeps.
    pub(super) fn families_of_prints(&self) -> Result<BTreeMap<String, usize>> {
        let txn = self.db.begin_read().map_err(|e| self.error(e))?;
        let prints = txn.open_table(PRINTS).map_err(|e| self.error(e))?;
        let mut families: BTreeMap<String, usize> = BTreeMap::new();
        for entry in prints.iter().map_err(|e| self.error(e))? {
            let (key, _) = entry.map_err(|e| self.error(e))?;
            *families.entry(key.value().0.to_string()).or_default() += 1;
        }
        Ok(families)
    }

    /// Calls `each` with the stored hashes of the units of `family` but
    /// those `skip` names, in id order, a [`PrintChunk`] of up to
    /// [`PRINT_CHUNK`] units at a time, still encoded: the caller decodes
    /// them, on as many threads as it likes, and a skipped unit costs no
    /// decoding. Stops at the first error `each` returns.
    pub fn for_each_print_chunk(
        &self,
        family: &str,
        skip: impl Fn(UnitId) -> bool,
        each: impl FnMut(&PrintChunk) -> Result<()>,
    ) -> Result<()> {
        self.print_chunks(family, skip, PRINT_CHUNK, each)
    }

    /// [`Self::for_each_print_chunk`] in chunks of up to `size` units.
    fn print_chunks(
        &self,
        family: &str,
        skip: impl Fn(UnitId) -> bool,
        size: usize,
        mut each: impl FnMut(&PrintChunk) -> Result<()>,
    ) -> Result<()> {
        let txn = self.db.begin_read().map_err(|e| self.error(e))?;
        let prints = txn.open_table(PRINTS).map_err(|e| self.error(e))?;
        let mut chunk = PrintChunk {
            file: self.file.clone(),
            ids: Vec::new(),
            ends: Vec::new(),
            bytes: Vec::new(),
        };
        for entry in prints
            .range((family, 0)..=(family, u64::MAX))
            .map_err(|e| self.error(e))?
        {
            let (key, value) = entry.map_err(|e| self.error(e))?;
            let id = key.value().1;
            if skip(id) {
                continue;
            }
            chunk.ids.push(id);
            chunk.bytes.extend_from_slice(value.value());
            chunk.ends.push(chunk.bytes.len());
            if chunk.len() == size {
                each(&chunk)?;
                chunk.clear();
            }
        }
        if !chunk.is_empty() {
            each(&chunk)?;
        }
        Ok(())
    }

    /// The units `ids`, whole but for their texts ([`text`](Self::text)).
    pub fn units(&self, ids: &[UnitId]) -> Result<Vec<ArchivedUnit>> {
        let txn = self.db.begin_read().map_err(|e| self.error(e))?;
        let records = txn.open_table(UNITS).map_err(|e| self.error(e))?;
        let prints = txn.open_table(PRINTS).map_err(|e| self.error(e))?;
        let files = txn.open_table(FILES).map_err(|e| self.error(e))?;
        let missing = |id| self.corrupt(format!("unit {id} is incomplete"));
        ids.iter()
            .map(|&id| {
                let record = records
                    .get(id)
                    .map_err(|e| self.error(e))?
                    .ok_or_else(|| missing(id))?;
                let mut unit = decode_record(record.value()).ok_or_else(|| missing(id))?;
                let print = prints
                    .get((unit.family.as_str(), id))
                    .map_err(|e| self.error(e))?
                    .ok_or_else(|| missing(id))?;
                decode_hashes(print.value(), &mut unit.hashes).ok_or_else(|| missing(id))?;
                let stored = files
                    .get(id)
                    .map_err(|e| self.error(e))?
                    .ok_or_else(|| missing(id))?;
                unit.files =
                    decode_files(stored.value(), self.codec()).ok_or_else(|| missing(id))?;
                Ok(unit)
            })
            .collect()
    }

    /// The text of file `file` (its place in its unit) of the unit `id`;
    /// `None` when the archive keeps no texts or the unit has no such
    /// file.
    pub fn text(&self, id: UnitId, file: usize) -> Result<Option<String>> {
        if !self.keep_texts {
            return Ok(None);
        }
        let txn = self.db.begin_read().map_err(|e| self.error(e))?;
        let texts = txn.open_table(TEXTS).map_err(|e| self.error(e))?;
        let Some(stored) = texts.get(id).map_err(|e| self.error(e))? else {
            return Ok(None);
        };
        let mut texts = decode_texts(stored.value(), self.codec())
            .ok_or_else(|| self.corrupt(format!("the texts of unit {id}")))?;
        Ok(texts.get_mut(file).and_then(Option::take))
    }

    /// The file, for messages.
    pub fn file(&self) -> &Path {
        &self.file
    }

    fn meta(&self, name: &str) -> Result<Vec<u8>> {
        let txn = self.db.begin_read().map_err(|e| self.error(e))?;
        let meta = txn.open_table(META).map_err(|e| self.error(e))?;
        let value = meta.get(name).map_err(|e| self.error(e))?;
        value
            .map(|v| v.value().to_vec())
            .ok_or_else(|| self.corrupt(format!("no {name} in the meta table")))
    }

    fn error(&self, error: impl Into<redb::Error>) -> DbError {
        DbError::catalog(&self.file, error)
    }

    fn corrupt(&self, problem: impl Into<String>) -> DbError {
        DbError::corrupt(&self.file, problem)
    }
}

#[cfg(test)]
mod tests;
