//! Counts and sizes of a database, as `db stats --json` and
//! `GET /api/stats` both give them; and those of a code archive, as
//! `db stats` gives them.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::Path;

use copyhound_db::code_archive::Archive;
use copyhound_db::{Mode, Params, Stats};
use serde::Serialize;

use super::{DatabaseError, DocumentDatabase};
use crate::code_archive::is_archive;

/// Writes what `db stats` says of the database or code archive at `dir`:
/// as JSON, or as lines of text.
pub fn write_stats(dir: &Path, json: bool, out: &mut impl Write) -> Result<(), DatabaseError> {
    if is_archive(dir) {
        let stats = ArchiveStats::of(dir)?;
        return Ok(if json {
            write_json(&stats, out)
        } else {
            stats.write_text(out)
        }?);
    }
    let db = DocumentDatabase::open(dir)?;
    let stats = db.stats()?;
    Ok(if json {
        write_json(&stats, out)
    } else {
        stats.write_text(out, db.params())
    }?)
}

fn write_json(value: &impl Serialize, out: &mut impl Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}

/// Counts and sizes of a code archive.
#[derive(Clone, Debug, Serialize)]
pub struct ArchiveStats {
    /// Always `code archive`.
    pub kind: &'static str,
    /// The format version of its file.
    pub format: u32,
    /// Its settings, as `db init --code` stored them (`k`, `w`, `level`…).
    pub settings: BTreeMap<String, String>,
    /// Whether the files' texts are kept (else read again from their
    /// paths).
    pub keeps_texts: bool,
    /// Archived units.
    pub units: u64,
    /// Their files.
    pub files: u64,
    /// Units per language (`text` for prose).
    pub languages: BTreeMap<String, u64>,
    /// Bytes of the archive's file.
    pub bytes: u64,
    /// Bytes of the file per unit.
    pub bytes_per_unit: f64,
    /// Bytes of the stored fingerprint hashes.
    pub hash_bytes: u64,
    /// Bytes of the stored files (symbols, spans and texts, deflated).
    pub stored_file_bytes: u64,
}

impl ArchiveStats {
    /// The counts and sizes of the archive at `dir`.
    pub fn of(dir: &Path) -> Result<Self, DatabaseError> {
        let archive = Archive::open(dir)?;
        let stats = archive.stats()?;
        let settings = archive
            .settings()?
            .lines()
            .filter_map(|line| line.split_once('='))
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .collect();
        Ok(Self {
            kind: "code archive",
            format: stats.format,
            settings,
            keeps_texts: stats.keeps_texts,
            units: stats.units,
            files: stats.files,
            languages: stats.families,
            bytes: stats.file_bytes,
            bytes_per_unit: stats.file_bytes as f64 / stats.units.max(1) as f64,
            hash_bytes: stats.print_bytes,
            stored_file_bytes: stats.stored_file_bytes,
        })
    }

    /// The counts and sizes as `copyhound db stats` prints them.
    pub fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        let texts = if self.keeps_texts {
            "files kept compressed"
        } else {
            "files read again from where they were added"
        };
        writeln!(out, "code archive      format {}, {texts}", self.format)?;
        let settings: Vec<String> = self
            .settings
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        writeln!(out, "settings          {}", settings.join(" "))?;
        let languages: Vec<String> = self
            .languages
            .iter()
            .map(|(language, units)| format!("{language} {units}"))
            .collect();
        writeln!(
            out,
            "units             {} ({}) with {} files",
            self.units,
            languages.join(", "),
            self.files
        )?;
        writeln!(
            out,
            "storage           {} bytes ({:.0} per unit; hashes {} bytes, files {} bytes)",
            self.bytes, self.bytes_per_unit, self.hash_bytes, self.stored_file_bytes
        )
    }
}

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
