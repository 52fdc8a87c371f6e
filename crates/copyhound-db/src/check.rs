//! `check`: read every byte of a database and cross-check its parts.
//!
//! The catalogue's own B-tree checksums (redb), then every record, staged
//! posting list and print; every segment's header, checksums and entries;
//! and finally that each document has exactly as many postings (staged plus
//! in segments) as its record says it stored. Each problem names the file.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::Path;

use redb::{ReadableDatabase, ReadableTable};

use crate::catalog::{
    DocId, DocumentRecord, META, META_DOCUMENTS, META_EPOCH, META_NEXT_DOC,
    META_STAGED_PRINT_BYTES, Manifest, PRINTS, REMOVED, RotationState, STAGED, decode_keys,
};
use crate::database::{
    CATALOG_FILE, DataFile, InCatalog, id_past_next, meta_u64, read_manifest, read_params,
    read_rotation,
};
use crate::error::{DbError, Result};
use crate::kept_prints::read_print_file;
use crate::params::Mode;
use crate::records::{RECORDS, damaged_block_problem, decode_block};
use crate::segment::Segment;

/// What `check` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Registered documents.
    pub documents: u64,
    /// Segments read.
    pub segments: usize,
    /// Postings read from segments.
    pub postings: u64,
    /// Damage: the database is not sound.
    pub problems: Vec<String>,
    /// Harmless findings, such as files a crash left behind.
    pub warnings: Vec<String>,
}

impl CheckReport {
    /// Whether no problem was found.
    pub fn is_ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Checks the database in `dir`. An error means the check could not run
/// at all (no database, unreadable catalogue); damage it finds is listed in
/// the report.
pub fn check(dir: &Path) -> Result<CheckReport> {
    let path = dir.join(CATALOG_FILE);
    if !path.is_file() {
        return Err(DbError::NotADatabase {
            path: dir.to_owned(),
        });
    }
    let mut report = CheckReport::default();
    let mut catalog = redb::Builder::new()
        .set_concurrency_mode(redb::ConcurrencyMode::MultiWriter)
        .open(&path)
        .in_catalog(&path)?;
    match catalog.check_integrity() {
        Ok(true) => {}
        Ok(false) => report.warnings.push(format!(
            "{}: the catalogue was repaired on open",
            path.display()
        )),
        Err(e) => report.problems.push(DbError::catalog(&path, e).to_string()),
    }
    let params = match read_params(&path, &catalog) {
        Ok(params) => params,
        Err(e) => {
            report.problems.push(e.to_string());
            return Ok(report);
        }
    };
    let txn = catalog.begin_read().in_catalog(&path)?;
    let meta = txn.open_table(META).in_catalog(&path)?;
    let manifest = match read_manifest(&path, &meta) {
        Ok(m) => m,
        Err(e) => {
            report.problems.push(e.to_string());
            return Ok(report);
        }
    };
    let rotation = match read_rotation(&path, &meta) {
        Ok(rotation) => rotation,
        Err(e) => {
            report.problems.push(e.to_string());
            return Ok(report);
        }
    };
    let records = read_records(&path, &txn, &mut report)?;
    if let Some(rotation) = &rotation {
        check_rotation(&path, &meta, &manifest, rotation, &records, &mut report)?;
    }
    let mut postings_of = staged_postings(&path, &txn, &records, &mut report)?;
    if params.mode == Mode::Koala && params.keep_prints {
        check_prints(&path, dir, &txn, &manifest, &records, &mut report)?;
    }
    let mut removed = HashSet::new();
    for entry in txn
        .open_table(REMOVED)
        .in_catalog(&path)?
        .iter()
        .in_catalog(&path)?
    {
        removed.insert(entry.in_catalog(&path)?.0.value());
    }
    let complete = check_segments(
        dir,
        &manifest,
        rotation.as_ref(),
        &records,
        &removed,
        &mut postings_of,
        &mut report,
    );
    let mut ids: Vec<&DocId> = records.keys().collect();
    ids.sort_unstable();
    for id in ids {
        let stored = u64::from(records[id].stored);
        let found = postings_of.get(id).copied().unwrap_or(0);
        if found != stored && complete {
            report.problems.push(format!(
                "{}: document {id} stored {stored} keys, the postings hold {found}",
                dir.display()
            ));
        }
    }
    report.documents = records.len() as u64;
    warn_unlisted(dir, &manifest, &mut report);
    Ok(report)
}

/// Warns of segment, print and temporary files that the manifest does not
/// list.
fn warn_unlisted(dir: &Path, manifest: &Manifest, report: &mut CheckReport) {
    let listed: HashSet<String> = manifest
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
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if DataFile::of(&name).is_some() && !listed.contains(&name) {
                report.warnings.push(format!(
                    "{}: not in the manifest (left by an interrupted write; removed by the next flush)",
                    entry.path().display()
                ));
            }
        }
    }
}

/// Reports an unfinished rotation, and checks its state against the
/// catalogue: its epoch is the database's, its bounds are in range, the
/// documents it has not reached are under an older epoch and those added
/// since under its own.
fn check_rotation(
    path: &Path,
    meta: &redb::ReadOnlyTable<&'static str, &'static [u8]>,
    manifest: &Manifest,
    rotation: &RotationState,
    records: &HashMap<DocId, DocumentRecord>,
    report: &mut CheckReport,
) -> Result<()> {
    let RotationState {
        epoch,
        cursor,
        end,
        base,
    } = *rotation;
    let place = path.display();
    report.warnings.push(format!(
        "{place}: an unfinished rotation to epoch {epoch}, done up to document {cursor} of \
         {end}; the next `db rotate` resumes it"
    ));
    let problems = &mut report.problems;
    let current = meta_u64(path, meta, META_EPOCH)?;
    if current != epoch {
        problems.push(format!(
            "{place}: the rotation is to epoch {epoch}, the database is at {current}"
        ));
    }
    let next_doc = meta_u64(path, meta, META_NEXT_DOC)?;
    if cursor > end || end > next_doc {
        problems.push(format!(
            "{place}: the rotation's cursor {cursor} and end {end} are out of order \
             (next document {next_doc})"
        ));
    }
    if base > manifest.next_number {
        problems.push(format!(
            "{place}: the rotation's base file number {base} was never allocated (next {})",
            manifest.next_number
        ));
    }
    let mut selections: Vec<(DocId, u64)> =
        records.iter().map(|(&id, r)| (id, r.selection)).collect();
    selections.sort_unstable();
    for (id, selection) in selections {
        let id64 = u64::from(id);
        let wrong = if id64 >= end {
            selection != epoch
        } else {
            id64 >= cursor && selection >= epoch
        };
        if wrong {
            problems.push(format!(
                "{place}: document {id} is under epoch {selection}, which the rotation to \
                 {epoch} (done up to {cursor}, started at {end}) does not allow"
            ));
        }
    }
    Ok(())
}

/// Decodes every document record.
fn read_records(
    path: &Path,
    txn: &redb::ReadTransaction,
    report: &mut CheckReport,
) -> Result<HashMap<DocId, DocumentRecord>> {
    let mut records = HashMap::new();
    let meta = txn.open_table(META).in_catalog(path)?;
    let next_doc = meta_u64(path, &meta, META_NEXT_DOC)?;
    // Lookups take the block with the greatest key not above an id, so
    // blocks must not overlap.
    let mut last_id = None;
    for entry in txn
        .open_table(RECORDS)
        .in_catalog(path)?
        .iter()
        .in_catalog(path)?
    {
        let (key, bytes) = entry.in_catalog(path)?;
        let key = key.value();
        match decode_block(key, bytes.value()) {
            Some(members) => {
                if last_id.is_some_and(|last| last >= key) {
                    report.problems.push(format!(
                        "{}: the record block of documents from {key} on overlaps the one before",
                        path.display()
                    ));
                }
                if let Some(past) = members.iter().find(|r| u64::from(r.id) >= next_doc) {
                    report.problems.push(format!(
                        "{}: {}",
                        path.display(),
                        id_past_next(past.id, next_doc)
                    ));
                }
                last_id = members.last().map(|r| r.id).or(last_id);
                records.extend(members.into_iter().map(|r| (r.id, r)));
            }
            None => report.problems.push(format!(
                "{}: {}",
                path.display(),
                damaged_block_problem(key)
            )),
        }
    }
    let counted = meta_u64(path, &meta, META_DOCUMENTS)?;
    if counted != records.len() as u64 {
        report.problems.push(format!(
            "{}: the catalogue counts {counted} documents, its records are {}",
            path.display(),
            records.len()
        ));
    }
    Ok(records)
}

/// Decodes the staging table; returns the staged postings per document.
fn staged_postings(
    path: &Path,
    txn: &redb::ReadTransaction,
    records: &HashMap<DocId, DocumentRecord>,
    report: &mut CheckReport,
) -> Result<HashMap<DocId, u64>> {
    let mut postings_of = HashMap::new();
    for entry in txn
        .open_table(STAGED)
        .in_catalog(path)?
        .iter()
        .in_catalog(path)?
    {
        let (id, bytes) = entry.in_catalog(path)?;
        let id = id.value();
        match decode_keys(bytes.value()) {
            Some(keys) => *postings_of.entry(id).or_default() += keys.len() as u64,
            None => report.problems.push(format!(
                "{}: staged postings of document {id} are damaged",
                path.display()
            )),
        }
        if !records.contains_key(&id) {
            report.problems.push(format!(
                "{}: staged postings of document {id}, which is not registered",
                path.display()
            ));
        }
    }
    Ok(postings_of)
}

/// Decodes every kept print (cold files and staged), compares its size with
/// the record, and checks that each registered document has exactly one.
fn check_prints(
    path: &Path,
    dir: &Path,
    txn: &redb::ReadTransaction,
    manifest: &Manifest,
    records: &HashMap<DocId, DocumentRecord>,
    report: &mut CheckReport,
) -> Result<()> {
    let mut prints_of: HashMap<DocId, u32> = HashMap::new();
    let mut examine = |place: &Path, id: DocId, bytes: &[u8], staged: bool| {
        let place = place.display();
        *prints_of.entry(id).or_default() += 1;
        match (decode_keys(bytes), records.get(&id)) {
            (None, _) => Some(format!("{place}: the print of document {id} is damaged")),
            // A cold file keeps the prints of removed documents.
            (Some(_), None) if staged => Some(format!(
                "{place}: a print of document {id}, which is not registered"
            )),
            (Some(print), Some(record)) if print.len() != record.print as usize => Some(format!(
                "{place}: the print of document {id} has {} keys, its record says {}",
                print.len(),
                record.print
            )),
            _ => None,
        }
    };
    let mut problems = Vec::new();
    let mut staged_bytes = 0u64;
    for entry in &manifest.print_files {
        let file = dir.join(format!("{:012}.prints", entry.number));
        let read = read_print_file(&file, |id, bytes| {
            problems.extend(examine(&file, id, bytes, false));
            Ok(())
        });
        if let Err(e) = read {
            problems.push(e.to_string());
        }
    }
    for entry in txn
        .open_table(PRINTS)
        .in_catalog(path)?
        .iter()
        .in_catalog(path)?
    {
        let (id, bytes) = entry.in_catalog(path)?;
        staged_bytes += bytes.value().len() as u64;
        problems.extend(examine(path, id.value(), bytes.value(), true));
    }
    let counted = meta_u64(
        path,
        &txn.open_table(META).in_catalog(path)?,
        META_STAGED_PRINT_BYTES,
    )?;
    if counted != staged_bytes {
        problems.push(format!(
            "{}: the catalogue counts {counted} bytes of staged prints, they are {staged_bytes}",
            path.display()
        ));
    }
    let mut ids: Vec<&DocId> = records.keys().collect();
    ids.sort_unstable();
    for id in ids {
        match prints_of.get(id).copied().unwrap_or(0) {
            1 => {}
            0 => problems.push(format!(
                "{}: document {id} has no kept print",
                dir.display()
            )),
            n => problems.push(format!(
                "{}: document {id} has {n} kept prints",
                dir.display()
            )),
        }
    }
    report.problems.extend(problems);
    Ok(())
}

/// Reads every segment the manifest lists, adding its postings per
/// document to `postings_of`. Returns whether every segment could be read.
fn check_segments(
    dir: &Path,
    manifest: &Manifest,
    rotation: Option<&RotationState>,
    records: &HashMap<DocId, DocumentRecord>,
    removed: &HashSet<DocId>,
    postings_of: &mut HashMap<DocId, u64>,
    report: &mut CheckReport,
) -> bool {
    let mut complete = true;
    for entry in &manifest.segments {
        let file = dir.join(format!("{:012}.seg", entry.number));
        let per_doc = match Segment::open(&file).and_then(|s| s.verify().map(|d| (s.postings(), d)))
        {
            Ok((postings, per_doc)) => {
                if postings != entry.postings {
                    report.problems.push(format!(
                        "{}: holds {postings} postings, the manifest says {}",
                        file.display(),
                        entry.postings
                    ));
                }
                report.postings += postings;
                per_doc
            }
            Err(e) => {
                report.problems.push(e.to_string());
                complete = false;
                continue;
            }
        };
        report.segments += 1;
        for (doc, count) in per_doc {
            if rotation.is_some_and(|r| r.is_stale(entry.number, doc)) {
                continue;
            }
            if records.contains_key(&doc) {
                *postings_of.entry(doc).or_default() += u64::from(count);
            } else if !removed.contains(&doc) {
                report.problems.push(format!(
                    "{}: postings of document {doc}, which is neither registered nor removed",
                    file.display()
                ));
            }
        }
    }
    complete
}
