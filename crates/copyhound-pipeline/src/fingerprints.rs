//! One file's fingerprints as `copyhound fingerprint` lists them: each
//! selected k-gram's hash, position, bytes and line, with the file's kind
//! and the k, w and selector its family's defaults and the user's
//! selection give. Serialised as one JSON object, or written as text.
//!
//! In a notebook a k-gram is placed by its cell and the line within it,
//! as Jupyter shows them; the markdown cells of a notebook, when the
//! front-end reads them, are listed as a file of their own,
//! `alice.ipynb (markdown)`.

use std::io::{self, Write};
use std::path::Path;

use copyhound_fingerprint::Fingerprint;
use copyhound_normalize::LoadedDocument;
use copyhound_source::CellLine;
use serde::Serialize;

use crate::{Family, FrontEnd, Selection};

/// A file's fingerprints.
#[derive(Clone, Debug, Serialize)]
pub struct FileFingerprints {
    /// The file, as given.
    pub path: String,
    /// Its kind: a language, or text.
    pub kind: &'static str,
    /// Symbols after normalisation.
    pub symbols: usize,
    /// The k-gram length used.
    pub k: usize,
    /// The window used.
    pub w: usize,
    /// The selector used.
    pub selector: &'static str,
    /// The selected fingerprints, in order.
    pub fingerprints: Vec<FingerprintRecord>,
}

/// One selected k-gram.
#[derive(Clone, Debug, Serialize)]
pub struct FingerprintRecord {
    /// Its hash.
    pub hash: u64,
    /// Its position, in symbols.
    pub pos: u32,
    /// Byte range of the k-gram: in the file when its text is a verbatim
    /// copy of the file (UTF-8), else in the decoded or extracted text.
    pub start: usize,
    /// End of that byte range.
    pub end: usize,
    /// The 1-based line it starts on.
    pub line: usize,
    /// In a notebook, the cell it starts in and the line within it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notebook: Option<NotebookLine>,
}

/// Where in a notebook a k-gram starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct NotebookLine {
    /// The cell's number, as Jupyter counts them.
    pub cell: u32,
    /// The 1-based line within the cell.
    pub line: u32,
}

impl From<CellLine> for NotebookLine {
    fn from(at: CellLine) -> Self {
        Self {
            cell: at.cell,
            line: at.line,
        }
    }
}

impl FileFingerprints {
    /// The fingerprints of `loaded` (read from `path` by `front_end`), and
    /// those of its markdown cells when it is a notebook whose markdown
    /// was read, with `selection` over each one's family's defaults.
    pub fn of_each(
        path: &Path,
        loaded: &LoadedDocument,
        front_end: &FrontEnd,
        selection: &Selection,
    ) -> Vec<Self> {
        let mut each = vec![Self::of(path, loaded, front_end, selection)];
        if let Some(markdown) = &loaded.markdown {
            let mut prose = Self::of(path, markdown, front_end, selection);
            prose.path.push_str(" (markdown)");
            each.push(prose);
        }
        each
    }

    /// The fingerprints of `loaded` (read from `path` by `front_end`), with
    /// `selection` over its family's defaults.
    pub fn of(
        path: &Path,
        loaded: &LoadedDocument,
        front_end: &FrontEnd,
        selection: &Selection,
    ) -> Self {
        let resolved = selection.resolve(front_end.defaults(Family::of(loaded.kind)));
        let scheme = selection.scheme(resolved);
        let mut fingerprints: Vec<Fingerprint> = Vec::new();
        scheme.fingerprint(&loaded.doc.symbols, &mut fingerprints);
        let shift = loaded.text_start_in_file.unwrap_or(0);
        let lines = loaded.line_index();
        let records = fingerprints
            .iter()
            .map(|f| {
                let bytes = loaded.doc.byte_range(f.pos as usize, resolved.k);
                FingerprintRecord {
                    hash: f.hash,
                    pos: f.pos,
                    start: bytes.start + shift,
                    end: bytes.end + shift,
                    line: lines.line_number(bytes.start) as usize,
                    notebook: lines.cell_range(bytes).map(|range| range.first.into()),
                }
            })
            .collect();
        Self {
            path: path.display().to_string(),
            kind: loaded.kind.name(),
            symbols: loaded.doc.len(),
            k: resolved.k,
            w: resolved.w,
            selector: scheme.selector().name(),
            fingerprints: records,
        }
    }

    /// A header line, then one line per fingerprint.
    pub fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(
            out,
            "{}: {} {} symbols, {} fingerprints ({}, k={}, w={})",
            self.path,
            self.kind,
            self.symbols,
            self.fingerprints.len(),
            self.selector,
            self.k,
            self.w
        )?;
        for f in &self.fingerprints {
            write!(
                out,
                "  {:016x}  pos {:>8}  bytes {}..{}  ",
                f.hash, f.pos, f.start, f.end
            )?;
            match f.notebook {
                Some(at) => writeln!(out, "cell {} line {}", at.cell, at.line)?,
                None => writeln!(out, "line {}", f.line)?,
            }
        }
        Ok(())
    }
}
