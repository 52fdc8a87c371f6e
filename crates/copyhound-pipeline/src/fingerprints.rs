//! One file's fingerprints as `copyhound fingerprint` lists them: each
//! selected k-gram's hash, position, bytes and line, with the file's kind
//! and the k, w and selector its family's defaults and the user's
//! selection give. Serialised as one JSON object, or written as text.

use std::io::{self, Write};
use std::path::Path;

use copyhound_fingerprint::Fingerprint;
use copyhound_normalize::LoadedDocument;
use copyhound_source::LineIndex;
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
}

impl FileFingerprints {
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
        let lines = LineIndex::new(loaded.text.as_bytes());
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
            writeln!(
                out,
                "  {:016x}  pos {:>8}  bytes {}..{}  line {}",
                f.hash, f.pos, f.start, f.end, f.line
            )?;
        }
        Ok(())
    }
}
