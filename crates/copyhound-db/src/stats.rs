//! `stats`: sizes and counts, split into hot (searched) and cold (kept for
//! rotation) storage.

use std::fs;

use crate::catalog::Counter;
use crate::database::Database;
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
        let txn = self.catalog.read()?;
        let meta = txn.meta()?;
        let manifest = meta.manifest()?;
        // Counted in the catalogue, not summed over the prints: `stats` reads
        // no table beyond `meta` and the tables' lengths.
        let print_bytes = manifest.print_files.iter().map(|p| p.bytes).sum::<u64>()
            + meta.get(Counter::StagedPrintBytes)?;
        let unfinished_rotation = meta.rotation()?.map(|r| RotationProgress {
            epoch: r.epoch,
            done_below: r.cursor,
            end: r.end,
        });
        Ok(Stats {
            mode: self.params.mode,
            epoch: meta.get(Counter::Epoch)?,
            documents: meta.get(Counter::Documents)?,
            staged_documents: txn.staged()?.len()?,
            removed_pending: txn.tombstones()?.len()?,
            segments: manifest.segments.len(),
            postings: manifest.segments.iter().map(|s| s.postings).sum(),
            segment_bytes: manifest.segments.iter().map(|s| s.bytes).sum(),
            catalog_bytes: fs::metadata(self.catalog.path()).map_or(0, |m| m.len()),
            print_bytes,
            unfinished_rotation,
        })
    }
}
