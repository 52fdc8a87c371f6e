//! `check`: read every byte of a database and cross-check its parts.
//!
//! The catalogue's own B-tree checksums (redb), then every record, staged
//! posting list and print; every segment's header, checksums and entries;
//! and finally that each document has exactly as many postings (staged plus
//! in segments) as its record says it stored. Each problem names the file.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::catalog::{
    Catalog, Counter, DocId, DocumentRecord, Manifest, ReadTxn, RotationState,
    damaged_print_problem, damaged_staged_problem, id_past_next,
};
use crate::directory::{DataFile, Directory};
use crate::error::{DbError, Result};
use crate::kept_prints::read_print_file;
use crate::keys::decode_keys;
use crate::params::Mode;

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
    let directory = Directory::new(dir);
    let path = directory.catalog();
    if !path.is_file() {
        return Err(DbError::NotADatabase {
            path: dir.to_owned(),
        });
    }
    let mut report = CheckReport::default();
    let mut catalog = Catalog::open(path.clone())?;
    match catalog.check_integrity() {
        Ok(true) => {}
        Ok(false) => report.warnings.push(format!(
            "{}: the catalogue was repaired on open",
            path.display()
        )),
        Err(e) => report.problems.push(e.to_string()),
    }
    let params = match catalog.params() {
        Ok(params) => params,
        Err(e) => {
            report.problems.push(e.to_string());
            return Ok(report);
        }
    };
    let txn = catalog.read()?;
    let meta = txn.meta()?;
    let manifest = match meta.manifest() {
        Ok(m) => m,
        Err(e) => {
            report.problems.push(e.to_string());
            return Ok(report);
        }
    };
    let rotation = match meta.rotation() {
        Ok(rotation) => rotation,
        Err(e) => {
            report.problems.push(e.to_string());
            return Ok(report);
        }
    };
    let records = read_records(&path, &txn, &mut report)?;
    if let Some(rotation) = &rotation {
        check_rotation(&path, &txn, &manifest, rotation, &records, &mut report)?;
    }
    let mut postings_of = staged_postings(&path, &txn, &records, &mut report)?;
    if params.mode == Mode::Koala && params.keep_prints {
        check_prints(&path, &directory, &txn, &manifest, &records, &mut report)?;
    }
    let removed = txn.tombstones()?.ids()?;
    let complete = check_segments(
        &directory,
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
    for file in directory.unlisted(&manifest) {
        report.warnings.push(format!(
            "{}: not in the manifest (left by an interrupted write; removed by the next open or flush)",
            file.display()
        ));
    }
    Ok(report)
}

/// Reports an unfinished rotation, and checks its state against the
/// catalogue: its epoch is the database's, its bounds are in range, the
/// documents it has not reached are under an older epoch and those added
/// since under its own.
fn check_rotation(
    path: &Path,
    txn: &ReadTxn<'_>,
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
    let meta = txn.meta()?;
    let current = meta.get(Counter::Epoch)?;
    if current != epoch {
        problems.push(format!(
            "{place}: the rotation is to epoch {epoch}, the database is at {current}"
        ));
    }
    let next_doc = meta.get(Counter::NextDoc)?;
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
    txn: &ReadTxn<'_>,
    report: &mut CheckReport,
) -> Result<HashMap<DocId, DocumentRecord>> {
    let mut records = HashMap::new();
    let meta = txn.meta()?;
    let next_doc = meta.get(Counter::NextDoc)?;
    // Lookups take the block with the greatest key not above an id, so
    // blocks must not overlap.
    let mut last_id = None;
    txn.records()?.for_each_block(|key, block| match block {
        Ok(members) => {
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
        Err(problem) => report
            .problems
            .push(format!("{}: {problem}", path.display())),
    })?;
    let counted = meta.get(Counter::Documents)?;
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
    txn: &ReadTxn<'_>,
    records: &HashMap<DocId, DocumentRecord>,
    report: &mut CheckReport,
) -> Result<HashMap<DocId, u64>> {
    let mut postings_of = HashMap::new();
    txn.staged()?.for_each_encoded(|id, bytes| {
        match decode_keys(bytes) {
            Some(keys) => *postings_of.entry(id).or_default() += keys.len() as u64,
            None => report.problems.push(format!(
                "{}: {}",
                path.display(),
                damaged_staged_problem(id)
            )),
        }
        if !records.contains_key(&id) {
            report.problems.push(format!(
                "{}: staged postings of document {id}, which is not registered",
                path.display()
            ));
        }
        Ok(())
    })?;
    Ok(postings_of)
}

/// Decodes every kept print (cold files and staged), compares its size with
/// the record, and checks that each registered document has exactly one.
fn check_prints(
    path: &Path,
    directory: &Directory,
    txn: &ReadTxn<'_>,
    manifest: &Manifest,
    records: &HashMap<DocId, DocumentRecord>,
    report: &mut CheckReport,
) -> Result<()> {
    let mut prints_of: HashMap<DocId, u32> = HashMap::new();
    let mut examine = |place: &Path, id: DocId, bytes: &[u8], staged: bool| {
        let place = place.display();
        *prints_of.entry(id).or_default() += 1;
        match (decode_keys(bytes), records.get(&id)) {
            (None, _) => Some(format!("{place}: {}", damaged_print_problem(id))),
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
        let file = directory.file(DataFile::Prints(entry.number));
        let read = read_print_file(&file, |id, bytes| {
            problems.extend(examine(&file, id, bytes, false));
            Ok(())
        });
        if let Err(e) = read {
            problems.push(e.to_string());
        }
    }
    txn.prints()?.for_each_encoded(|id, bytes| {
        staged_bytes += bytes.len() as u64;
        problems.extend(examine(path, id, bytes, true));
        Ok(())
    })?;
    let counted = txn.meta()?.get(Counter::StagedPrintBytes)?;
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
                directory.path().display()
            )),
            n => problems.push(format!(
                "{}: document {id} has {n} kept prints",
                directory.path().display()
            )),
        }
    }
    report.problems.extend(problems);
    Ok(())
}

/// Reads every segment the manifest lists, adding its postings per
/// document to `postings_of`. Returns whether every segment could be read.
fn check_segments(
    directory: &Directory,
    manifest: &Manifest,
    rotation: Option<&RotationState>,
    records: &HashMap<DocId, DocumentRecord>,
    removed: &HashSet<DocId>,
    postings_of: &mut HashMap<DocId, u64>,
    report: &mut CheckReport,
) -> bool {
    let mut complete = true;
    for entry in &manifest.segments {
        let file = directory.file(DataFile::Segment(entry.number));
        let segment = directory.open_segment(entry.number);
        let per_doc = match segment.and_then(|s| s.verify().map(|d| (s.postings(), d))) {
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
