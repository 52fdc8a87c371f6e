//! What `db stats` and `db check` say of an archive: its counts and sizes
//! ([`Archive::stats`]), and a read of every value it stores, cross-checked
//! table against table ([`check_archive`]), each problem naming the file
//! and the unit.

use std::collections::BTreeMap;
use std::path::Path;

use redb::{
    Database as Redb, ReadTransaction, ReadableDatabase, ReadableTable, ReadableTableMetadata,
};

use super::codec::{decode_files, decode_hashes, decode_record, decode_texts, file_count};
use super::{ARCHIVE_FILE, Archive, FILES, NAMES, PRINTS, TEXTS, UNITS};
use crate::{DbError, Result};

/// Counts and sizes of an archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveStats {
    /// The format version.
    pub format: u32,
    /// Whether the files' texts are kept (else read again from their
    /// paths).
    pub keeps_texts: bool,
    /// Archived units.
    pub units: u64,
    /// Their files.
    pub files: u64,
    /// Units per family (a language's name, or `text`).
    pub families: BTreeMap<String, u64>,
    /// Bytes of the archive's file on disk.
    pub file_bytes: u64,
    /// Bytes of the stored fingerprint hashes.
    pub print_bytes: u64,
    /// Bytes of the stored files (symbols, spans, line starts, texts;
    /// compressed).
    pub stored_file_bytes: u64,
}

impl Archive {
    /// Counts and sizes, read in one transaction (each unit's files are
    /// counted from the first bytes of its stored value, not decoded).
    pub fn stats(&self) -> Result<ArchiveStats> {
        let txn = self.db.begin_read().map_err(|e| self.error(e))?;
        let mut stats = ArchiveStats {
            format: self.format,
            keeps_texts: self.keep_texts,
            units: txn
                .open_table(UNITS)
                .map_err(|e| self.error(e))?
                .len()
                .map_err(|e| self.error(e))?,
            files: 0,
            families: BTreeMap::new(),
            file_bytes: std::fs::metadata(&self.file)
                .map_err(|e| DbError::io(&self.file, e))?
                .len(),
            print_bytes: 0,
            stored_file_bytes: 0,
        };
        let prints = txn.open_table(PRINTS).map_err(|e| self.error(e))?;
        for entry in prints.iter().map_err(|e| self.error(e))? {
            let (key, value) = entry.map_err(|e| self.error(e))?;
            *stats.families.entry(key.value().0.to_string()).or_default() += 1;
            stats.print_bytes += value.value().len() as u64;
        }
        let files = txn.open_table(FILES).map_err(|e| self.error(e))?;
        for entry in files.iter().map_err(|e| self.error(e))? {
            let (id, value) = entry.map_err(|e| self.error(e))?;
            let bytes = value.value();
            stats.stored_file_bytes += bytes.len() as u64;
            stats.files += file_count(bytes, self.codec())
                .ok_or_else(|| self.corrupt(format!("the files of unit {}", id.value())))?;
        }
        let texts = txn.open_table(TEXTS).map_err(|e| self.error(e))?;
        for entry in texts.iter().map_err(|e| self.error(e))? {
            let (_, value) = entry.map_err(|e| self.error(e))?;
            stats.stored_file_bytes += value.value().len() as u64;
        }
        Ok(stats)
    }
}

/// What [`check_archive`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArchiveCheck {
    /// Units read whole.
    pub units: u64,
    /// Their files.
    pub files: u64,
    /// Damage, each naming the file (and the unit): the archive is not
    /// sound.
    pub problems: Vec<String>,
    /// Harmless findings (a file redb repaired on open).
    pub warnings: Vec<String>,
}

/// Checks the archive in `dir`: redb's own page checksums, then every
/// unit's record, hashes, files and texts decoded, and the tables against
/// each other (a name for every unit and a unit for every name, hashes and
/// files for every unit, texts for every file of every unit when texts
/// are kept, and none for another unit, ids below the next one, each
/// family's unit count as the units' records give it).
/// An error means there is no archive there; damage is listed in the
/// report.
pub fn check_archive(dir: &Path) -> Result<ArchiveCheck> {
    let file = dir.join(ARCHIVE_FILE);
    if !file.is_file() {
        return Err(DbError::NotADatabase { path: dir.into() });
    }
    let mut report = ArchiveCheck::default();
    let mut db = match Redb::open(&file) {
        Ok(db) => db,
        Err(e) => {
            report.problems.push(DbError::catalog(&file, e).to_string());
            return Ok(report);
        }
    };
    match db.check_integrity() {
        Ok(true) => {}
        Ok(false) => report.warnings.push(format!(
            "{}: the archive was repaired on open",
            file.display()
        )),
        Err(e) => report.problems.push(DbError::catalog(&file, e).to_string()),
    }
    let archive = match Archive::from_redb(file.clone(), db) {
        Ok(archive) => archive,
        Err(e) => {
            report.problems.push(e.to_string());
            return Ok(report);
        }
    };
    if let Err(e) = archive.check_tables(&mut report) {
        report.problems.push(e.to_string());
    }
    Ok(report)
}

impl Archive {
    /// Reads every unit and cross-checks the tables into `report`; an
    /// error is a table that cannot be read at all.
    fn check_tables(&self, report: &mut ArchiveCheck) -> Result<()> {
        let txn = self.db.begin_read().map_err(|e| self.error(e))?;
        let next_id = self
            .meta("next_id")
            .ok()
            .and_then(|v| <[u8; 8]>::try_from(v.as_slice()).ok())
            .map(u64::from_le_bytes);
        if next_id.is_none() {
            report.problems.push(self.problem("no next unit id"));
        }
        let mut families = BTreeMap::new();
        let records = txn.open_table(UNITS).map_err(|e| self.error(e))?;
        for entry in records.iter().map_err(|e| self.error(e))? {
            let (id, record) = entry.map_err(|e| self.error(e))?;
            let id = id.value();
            match decode_record(record.value()) {
                Some(unit) => {
                    self.check_unit(&txn, id, &unit.name, &unit.family, report)?;
                    families.insert(id, unit.family);
                }
                None => report
                    .problems
                    .push(self.problem(format!("unit {id}: its record does not decode"))),
            }
            if next_id.is_some_and(|next| id >= next) {
                report.problems.push(self.problem(format!(
                    "unit {id}: at or past the next id {}",
                    next_id.unwrap_or_default()
                )));
            }
        }
        let names = txn.open_table(NAMES).map_err(|e| self.error(e))?;
        for entry in names.iter().map_err(|e| self.error(e))? {
            let (name, id) = entry.map_err(|e| self.error(e))?;
            if !families.contains_key(&id.value()) {
                report.problems.push(self.problem(format!(
                    "the name {} leads to unit {}, which has no record",
                    name.value(),
                    id.value()
                )));
            }
        }
        let prints = txn.open_table(PRINTS).map_err(|e| self.error(e))?;
        for entry in prints.iter().map_err(|e| self.error(e))? {
            let (key, _) = entry.map_err(|e| self.error(e))?;
            let (family, id) = key.value();
            if families.get(&id).map(String::as_str) != Some(family) {
                report.problems.push(self.problem(format!(
                    "hashes stored for unit {id} ({family}), which has no such record"
                )));
            }
        }
        if self.counts_families() {
            let kept = self.families()?;
            let mut recorded: BTreeMap<String, usize> = BTreeMap::new();
            for family in families.values() {
                *recorded.entry(family.clone()).or_default() += 1;
            }
            if kept != recorded {
                report.problems.push(self.problem(format!(
                    "the unit counts kept by family ({kept:?}) are not those of the units' records ({recorded:?})"
                )));
            }
        }
        for (table, what) in [(FILES, "files"), (TEXTS, "texts")] {
            let stored = txn.open_table(table).map_err(|e| self.error(e))?;
            for entry in stored.iter().map_err(|e| self.error(e))? {
                let (id, _) = entry.map_err(|e| self.error(e))?;
                if !families.contains_key(&id.value()) {
                    report.problems.push(self.problem(format!(
                        "{what} stored for unit {}, which has no record",
                        id.value()
                    )));
                }
            }
        }
        Ok(())
    }

    /// Checks the unit `id` called `name` of `family`: its name leads to
    /// it, its hashes and files decode, and so do the texts of its files
    /// when texts are kept (one for each file; none kept otherwise);
    /// counts it and its files.
    fn check_unit(
        &self,
        txn: &ReadTransaction,
        id: u64,
        name: &str,
        family: &str,
        report: &mut ArchiveCheck,
    ) -> Result<()> {
        let unit = |what: &str| self.problem(format!("unit {name} (id {id}): {what}"));
        let names = txn.open_table(NAMES).map_err(|e| self.error(e))?;
        let named = names
            .get(name)
            .map_err(|e| self.error(e))?
            .map(|v| v.value());
        if named != Some(id) {
            report.problems.push(unit("its name does not lead to it"));
        }
        let prints = txn.open_table(PRINTS).map_err(|e| self.error(e))?;
        let mut hashes = Vec::new();
        match prints.get((family, id)).map_err(|e| self.error(e))? {
            Some(value) if decode_hashes(value.value(), &mut hashes).is_some() => {}
            Some(_) => report.problems.push(unit("its hashes do not decode")),
            None => report.problems.push(unit("it has no hashes")),
        }
        let files = txn.open_table(FILES).map_err(|e| self.error(e))?;
        let decoded = files
            .get(id)
            .map_err(|e| self.error(e))?
            .map(|value| decode_files(value.value(), self.codec()));
        let files = match decoded {
            Some(Some(files)) => files.len(),
            Some(None) => {
                report.problems.push(unit("its files do not decode"));
                return Ok(());
            }
            None => {
                report.problems.push(unit("it has no files"));
                return Ok(());
            }
        };
        let texts = txn.open_table(TEXTS).map_err(|e| self.error(e))?;
        let texts = texts
            .get(id)
            .map_err(|e| self.error(e))?
            .map(|value| decode_texts(value.value(), self.codec()));
        match (texts, self.keep_texts) {
            (Some(Some(texts)), true)
                if texts.len() == files && texts.iter().all(Option::is_some) => {}
            (Some(Some(_)), true) => report
                .problems
                .push(unit("its texts are not one for each file")),
            (Some(None), _) => report.problems.push(unit("its texts do not decode")),
            (None, true) => report.problems.push(unit("it has no texts")),
            (Some(Some(_)), false) => report
                .problems
                .push(unit("it has texts, but the archive keeps none")),
            (None, false) => {}
        }
        report.units += 1;
        report.files += files as u64;
        Ok(())
    }

    /// A problem of this archive's file.
    fn problem(&self, what: impl std::fmt::Display) -> String {
        format!("{}: corrupt: {what}", self.file.display())
    }
}
