//! Counts and sizes of a database, as `db stats --json` and
//! `GET /api/stats` both give them.

use std::io::{self, Write};

use copyhound_db::{Mode, Params, Stats};
use serde::Serialize;

use super::{DatabaseError, DocumentDatabase};

/// Counts and sizes of a database.
#[derive(Clone, Debug, Serialize)]
pub struct DatabaseStats {
    /// `koala` or `winnow`.
    pub mode: &'static str,
    /// Rotation epoch.
    pub rotation: u64,
    /// Registered documents.
    pub documents: u64,
    /// Documents whose postings are still staged.
    pub staged_documents: u64,
    /// Removed documents a merge has yet to drop.
    pub removed_pending_merge: u64,
    /// Posting segments.
    pub segments: usize,
    /// Postings in segments.
    pub postings: u64,
    /// Bytes of segment files: what searches read.
    pub segment_bytes: u64,
    /// Bytes of the catalogue: records, staging and kept prints.
    pub catalog_bytes: u64,
    /// Bytes of kept prints.
    pub print_bytes: u64,
    /// Segment bytes per document.
    pub hot_bytes_per_document: f64,
    /// Catalogue bytes per document.
    pub catalog_bytes_per_document: f64,
    /// A rotation stopped before its end (the next `db rotate` resumes
    /// it), or null.
    pub unfinished_rotation: Option<RotationProgressStats>,
}

/// How far an unfinished rotation got.
#[derive(Clone, Debug, Serialize)]
pub struct RotationProgressStats {
    /// The epoch it rotates to.
    pub epoch: u64,
    /// Documents with smaller ids have their new selection.
    pub done_below: u64,
    /// The rotation covers the documents with smaller ids.
    pub end: u64,
}

impl DocumentDatabase {
    /// Counts and sizes.
    pub fn stats(&self) -> Result<DatabaseStats, DatabaseError> {
        Ok(DatabaseStats::from(self.db.stats()?))
    }
}

impl DatabaseStats {
    /// The counts and sizes as `copyhound db stats` prints them, with the
    /// fingerprint settings of `params`.
    pub fn write_text(&self, out: &mut impl Write, params: &Params) -> io::Result<()> {
        let s = self;
        writeln!(
            out,
            "mode              {} (rotation {})",
            s.mode, s.rotation
        )?;
        if params.mode == Mode::Koala {
            writeln!(
                out,
                "fingerprints      N = {} searched, n = {} stored, k = {}",
                params.search_size, params.stored_size, params.k
            )?;
        } else {
            writeln!(
                out,
                "fingerprints      winnowing w = {}, k = {}",
                params.window, params.k
            )?;
        }
        writeln!(
            out,
            "documents         {} ({} staged)",
            s.documents, s.staged_documents
        )?;
        writeln!(
            out,
            "segments          {} with {} postings",
            s.segments, s.postings
        )?;
        writeln!(
            out,
            "hot storage       {} bytes ({:.0} per document)",
            s.segment_bytes, s.hot_bytes_per_document
        )?;
        writeln!(
            out,
            "catalogue         {} bytes ({:.0} per document; kept prints {} bytes)",
            s.catalog_bytes, s.catalog_bytes_per_document, s.print_bytes
        )?;
        if let Some(r) = &s.unfinished_rotation {
            writeln!(
                out,
                "rotation          unfinished: to epoch {}, done below document {} of {}; \
                 `db rotate` resumes it",
                r.epoch, r.done_below, r.end
            )?;
        }
        Ok(())
    }
}

impl From<Stats> for DatabaseStats {
    fn from(s: Stats) -> Self {
        let per_document = |bytes: u64| bytes as f64 / s.documents.max(1) as f64;
        Self {
            mode: s.mode.name(),
            rotation: s.epoch,
            documents: s.documents,
            staged_documents: s.staged_documents,
            removed_pending_merge: s.removed_pending,
            segments: s.segments,
            postings: s.postings,
            segment_bytes: s.segment_bytes,
            catalog_bytes: s.catalog_bytes,
            print_bytes: s.print_bytes,
            hot_bytes_per_document: per_document(s.segment_bytes),
            catalog_bytes_per_document: per_document(s.catalog_bytes),
            unfinished_rotation: s.unfinished_rotation.map(|r| RotationProgressStats {
                epoch: r.epoch,
                done_below: r.done_below,
                end: r.end,
            }),
        }
    }
}
