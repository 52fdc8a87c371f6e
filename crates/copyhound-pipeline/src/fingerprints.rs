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

use crate::{Family, FrontEnd, Line, Selection};

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
    pub fn write_text(&self, out: &mut (impl Write + ?Sized)) -> io::Result<()> {
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

/// How `copyhound fingerprint` lists fingerprints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ListingFormat {
    /// A header per file, then one fingerprint per line.
    #[default]
    Text,
    /// One JSON object per file and line.
    Json,
}

impl ListingFormat {
    /// Both formats, in the order a command's help lists them.
    pub const ALL: [ListingFormat; 2] = [ListingFormat::Text, ListingFormat::Json];

    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ListingFormat::Text => "text",
            ListingFormat::Json => "json",
        }
    }

    /// What the format writes, in a command's help.
    pub fn description(self) -> &'static str {
        match self {
            ListingFormat::Text => "A header per file, then one fingerprint per line",
            ListingFormat::Json => "One JSON object per file and line",
        }
    }
}

/// Lists the fingerprints of each of `paths` on `out` in `format`, as
/// `copyhound fingerprint` does; a file that cannot be read is an error
/// line to `on` (its load warnings, warning lines) and the next file is
/// listed. Whether every file was read.
pub fn list_fingerprints(
    paths: &[impl AsRef<Path>],
    front_end: &FrontEnd,
    selection: &Selection,
    format: ListingFormat,
    out: &mut dyn Write,
    on: &mut dyn FnMut(Line),
) -> io::Result<bool> {
    let mut read_all = true;
    for path in paths {
        let path = path.as_ref();
        let loaded = match front_end.load(path) {
            Ok(loaded) => loaded,
            Err(error) => {
                on(Line::Error(error.to_string()));
                read_all = false;
                continue;
            }
        };
        for warning in &loaded.warnings {
            on(Line::Warning(format!("{}: {warning}", path.display())));
        }
        for file in FileFingerprints::of_each(path, &loaded, front_end, selection) {
            match format {
                ListingFormat::Json => {
                    serde_json::to_writer(&mut *out, &file)?;
                    writeln!(out)?;
                }
                ListingFormat::Text => file.write_text(out)?,
            }
        }
    }
    Ok(read_all)
}
