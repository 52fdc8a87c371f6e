//! What a run keeps on disk instead of in memory: the texts (an
//! append-only file and each text's offset, read back a text at a time),
//! the candidate fingerprints split by hash prefix, and the candidate
//! pairs split by their first document.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use crate::DedupError;

/// Files each spill is split into; one is read into memory at a time per
/// thread.
pub(crate) const SPILL_PARTS: usize = 256;
/// Bytes buffered per spill file.
const SPILL_BUFFER: usize = 32 << 10;

/// The texts of a run, appended in document order.
pub(crate) struct TextStore {
    path: PathBuf,
    file: BufWriter<File>,
    /// Where each text ends; text `i` starts where `i - 1` ends.
    ends: Vec<u64>,
}

impl TextStore {
    pub(crate) fn create(path: PathBuf) -> Result<Self, DedupError> {
        // Read back once written: open for both.
        let file = File::options()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(DedupError::io(&path))?;
        Ok(Self {
            path,
            file: BufWriter::with_capacity(1 << 20, file),
            ends: Vec::new(),
        })
    }

    pub(crate) fn push(&mut self, text: &str) -> Result<(), DedupError> {
        self.file
            .write_all(text.as_bytes())
            .map_err(DedupError::io(&self.path))?;
        let end = self.ends.last().copied().unwrap_or(0) + text.len() as u64;
        self.ends.push(end);
        Ok(())
    }

    /// The finished store, to read texts from.
    pub(crate) fn finish(self) -> Result<Texts, DedupError> {
        let file = self.file.into_inner().map_err(|e| DedupError::Io {
            path: self.path.clone(),
            source: e.into_error(),
        })?;
        Ok(Texts {
            path: self.path,
            file,
            ends: self.ends,
        })
    }
}

/// The stored texts, read a text at a time (several threads at once).
pub(crate) struct Texts {
    path: PathBuf,
    file: File,
    ends: Vec<u64>,
}

impl Texts {
    /// Text `doc`.
    pub(crate) fn get(&self, doc: u32) -> Result<String, DedupError> {
        let doc = doc as usize;
        let start = if doc == 0 { 0 } else { self.ends[doc - 1] };
        let mut bytes = vec![0; (self.ends[doc] - start) as usize];
        self.file
            .read_exact_at(&mut bytes, start)
            .map_err(DedupError::io(&self.path))?;
        Ok(String::from_utf8(bytes).expect("stored from a str"))
    }
}

/// Fixed-size records split over [`SPILL_PARTS`] files by a key the caller
/// chooses.
pub(crate) struct Spill {
    paths: Vec<PathBuf>,
    files: Vec<BufWriter<File>>,
}

impl Spill {
    /// `SPILL_PARTS` empty files `{name}-{part}` in `dir`.
    pub(crate) fn create(dir: &Path, name: &str) -> Result<Self, DedupError> {
        let mut paths = Vec::with_capacity(SPILL_PARTS);
        let mut files = Vec::with_capacity(SPILL_PARTS);
        for part in 0..SPILL_PARTS {
            let path = dir.join(format!("{name}-{part:03}"));
            let file = File::create(&path).map_err(DedupError::io(&path))?;
            files.push(BufWriter::with_capacity(SPILL_BUFFER, file));
            paths.push(path);
        }
        Ok(Self { paths, files })
    }

    /// Appends `bytes` to part `part`.
    pub(crate) fn push(&mut self, part: usize, bytes: &[u8]) -> Result<(), DedupError> {
        self.files[part]
            .write_all(bytes)
            .map_err(DedupError::io(&self.paths[part]))
    }

    /// The written parts' paths.
    pub(crate) fn finish(self) -> Result<Vec<PathBuf>, DedupError> {
        for (mut file, path) in self.files.into_iter().zip(&self.paths) {
            file.flush().map_err(DedupError::io(path))?;
        }
        Ok(self.paths)
    }
}

/// Reads one spilled part whole and deletes it.
pub(crate) fn take_part(path: &Path) -> Result<Vec<u8>, DedupError> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(DedupError::io(path))?;
    std::fs::remove_file(path).map_err(DedupError::io(path))?;
    Ok(bytes)
}
