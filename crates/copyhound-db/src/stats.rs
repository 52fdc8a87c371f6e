//! `stats`: sizes and counts, split into hot (searched) and cold (kept for
//! rotation) storage.

use std::fs;

use redb::ReadableDatabase;

use crate::catalog::{META, META_DOCUMENTS, META_EPOCH, META_STAGED_PRINT_BYTES, REMOVED, STAGED};
use crate::database::{
    CATALOG_FILE, Database, InCatalog, count_table, meta_u64, read_manifest, read_rotation,
};
use crate::error::Result;
use crate::params::Mode;

/// Counts and sizes of a database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    /// The mode.
    pub mode: Mode,
    /// The rotation epoch of new stored subsets.
    pub epoch: u64,
    /// Registered documents.
    pub documents: u64,
    /// Documents whose postings are still in the staging table.
    pub staged_documents: u64,
    /// Removed documents whose postings a merge has yet to drop.
    pub removed_pending: u64,
    /// Live segments.
    pub segments: usize,
    /// Postings in segments.
    pub postings: u64,
    /// Bytes of segment files: the hot storage searches read.
    pub segment_bytes: u64,
    /// Bytes of the catalogue file (records, staged postings and prints).
    pub catalog_bytes: u64,
    /// Bytes of the kept prints (cold print files and staged prints): the
    /// cold storage that rotation reads.
    pub print_bytes: u64,
    /// A rotation that was stopped or killed before its end; the next
    /// `rotate` resumes it.
    pub unfinished_rotation: Option<RotationProgress>,
}

/// How far an unfinished rotation got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RotationProgress {
    /// The epoch it rotates to (already the database's `epoch`).
    pub epoch: u64,
    /// Documents with smaller ids have their new selection.
    pub done_below: u64,
    /// The rotation covers the documents with smaller ids (those added
    /// since are selected under the new epoch already).
    pub end: u64,
}

impl Database {
    /// Counts and sizes.
    pub fn stats(&self) -> Result<Stats> {
        let path = &self.catalog_path;
        let txn = self.catalog.begin_read().in_catalog(path)?;
        let meta = txn.open_table(META).in_catalog(path)?;
        let manifest = read_manifest(path, &meta)?;
        // Counted in the catalogue, not summed over the prints: `stats` reads
        // no table beyond `meta` and the tables' lengths.
        let print_bytes = manifest.print_files.iter().map(|p| p.bytes).sum::<u64>()
            + meta_u64(path, &meta, META_STAGED_PRINT_BYTES)?;
        let catalog = self.dir.join(CATALOG_FILE);
        let unfinished_rotation = read_rotation(path, &meta)?.map(|r| RotationProgress {
            epoch: r.epoch,
            done_below: r.cursor,
            end: r.end,
        });
        Ok(Stats {
            mode: self.params.mode,
            epoch: meta_u64(path, &meta, META_EPOCH)?,
            documents: meta_u64(path, &meta, META_DOCUMENTS)?,
            staged_documents: count_table(path, &txn, STAGED)?,
            removed_pending: count_table(path, &txn, REMOVED)?,
            segments: manifest.segments.len(),
            postings: manifest.segments.iter().map(|s| s.postings).sum(),
            segment_bytes: manifest.segments.iter().map(|s| s.bytes).sum(),
            catalog_bytes: fs::metadata(&catalog).map_or(0, |m| m.len()),
            print_bytes,
            unfinished_rotation,
        })
    }
}
