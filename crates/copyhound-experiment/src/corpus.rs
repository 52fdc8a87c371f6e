//! The documents an experiment reads: paths (folders walked recursively)
//! loaded through the front-ends of `copyhound-normalize`.
//!
//! Files are taken in path order until a byte budget is spent, so a default
//! run on a large tree (a documentation package) stays short and is the
//! same every time; files that are not documents (images, binaries, text in
//! no known encoding, damaged PDFs) are skipped and counted, since a real
//! tree always holds some. A file that exists but cannot be read stops the
//! run with an error naming it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use copyhound_fingerprint::NormalizedDocument;
use copyhound_normalize::{DocumentKind, LoadError, LoadOptions, load_file};
use ignore::WalkBuilder;
use rayon::prelude::*;

use crate::ExperimentError;

/// How a corpus is read.
#[derive(Clone, Debug)]
pub struct CorpusOptions {
    /// The front-end settings.
    pub load: LoadOptions,
    /// Stop taking files once their sizes add up to this many bytes
    /// (the file that crosses the limit is still taken). `None`: every file.
    pub max_bytes: Option<u64>,
}

/// One loaded document.
#[derive(Clone, Debug)]
pub struct Document {
    /// The file.
    pub path: PathBuf,
    /// Size of the file in bytes.
    pub file_bytes: u64,
    /// What it was read as.
    pub kind: DocumentKind,
    /// The text its spans index into (the extracted text of HTML).
    pub text: String,
    /// Its symbols.
    pub doc: NormalizedDocument,
}

/// The documents of an experiment.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    /// The documents, in path order.
    pub documents: Vec<Document>,
    /// Files skipped as not being documents, with the reason.
    pub skipped: Vec<String>,
    /// Files left out because the byte budget was spent.
    pub over_budget: usize,
}

impl CorpusOptions {
    /// Files read with `load`, in path order until their sizes add up to
    /// `max_mib` MiB; every file when `None`.
    pub fn new(load: LoadOptions, max_mib: Option<u64>) -> Self {
        Self {
            load,
            max_bytes: max_mib.map(|mib| mib.saturating_mul(1 << 20)),
        }
    }
}

impl Corpus {
    /// The documents under `paths` (read as [`Corpus::load`] does) with at
    /// least `min_symbols` symbols, and at least one; fails if none is.
    pub fn load_at_least(
        paths: &[PathBuf],
        options: &CorpusOptions,
        min_symbols: usize,
    ) -> Result<Self, ExperimentError> {
        Self::load(paths, options)?.require(paths, min_symbols.max(1))
    }

    /// Loads every file under `paths` (folders recursively, in path order)
    /// within the byte budget.
    pub fn load(paths: &[PathBuf], options: &CorpusOptions) -> Result<Self, ExperimentError> {
        let mut files = Vec::new();
        for path in paths {
            files_under(path, &mut files)?;
        }
        let mut taken = 0;
        let mut spent = 0u64;
        for (_, size) in &files {
            if options.max_bytes.is_some_and(|limit| spent >= limit) {
                break;
            }
            spent += size;
            taken += 1;
        }
        let over_budget = files.len() - taken;
        files.truncate(taken);
        let loaded: Vec<Result<Document, LoadError>> = files
            .into_par_iter()
            .map(|(path, file_bytes)| {
                let loaded = load_file(&path, &options.load)?;
                Ok(Document {
                    path,
                    file_bytes,
                    kind: loaded.kind,
                    text: loaded.text,
                    doc: loaded.doc,
                })
            })
            .collect();
        let mut corpus = Corpus {
            over_budget,
            ..Corpus::default()
        };
        for result in loaded {
            match result {
                Ok(document) => corpus.documents.push(document),
                Err(
                    error @ (LoadError::Binary { .. }
                    | LoadError::Undecodable { .. }
                    | LoadError::TooLarge { .. }
                    | LoadError::Extract { .. }),
                ) => corpus.skipped.push(error.to_string()),
                Err(error) => return Err(error.into()),
            }
        }
        Ok(corpus)
    }

    /// Keeps only documents with at least `min_symbols` symbols; fails if
    /// none is left.
    pub fn require(
        mut self,
        paths: &[PathBuf],
        min_symbols: usize,
    ) -> Result<Self, ExperimentError> {
        self.documents.retain(|d| d.doc.len() >= min_symbols);
        if self.documents.is_empty() {
            return Err(ExperimentError::EmptyCorpus {
                paths: paths.iter().map(|p| p.display().to_string()).collect(),
                min_symbols,
            });
        }
        Ok(self)
    }

    /// Total size of the files read, in bytes.
    pub fn file_bytes(&self) -> u64 {
        self.documents.iter().map(|d| d.file_bytes).sum()
    }

    /// Total number of symbols.
    pub fn symbols(&self) -> u64 {
        self.documents.iter().map(|d| d.doc.len() as u64).sum()
    }

    /// One line saying what was read: documents, bytes, symbols, kinds and
    /// what was left out.
    pub fn describe(&self) -> String {
        let mut kinds: Vec<(&'static str, usize)> = Vec::new();
        for document in &self.documents {
            let name = document.kind.name();
            match kinds.iter_mut().find(|(k, _)| *k == name) {
                Some((_, count)) => *count += 1,
                None => kinds.push((name, 1)),
            }
        }
        kinds.sort_unstable();
        let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
        let mut line = format!(
            "Corpus: {} documents ({}), {} bytes of files, {} symbols",
            self.documents.len(),
            kinds.join(", "),
            self.file_bytes(),
            self.symbols()
        );
        if !self.skipped.is_empty() {
            let _ = write!(
                line,
                "; {} files skipped as not documents",
                self.skipped.len()
            );
        }
        if self.over_budget > 0 {
            let _ = write!(
                line,
                "; {} files left out by the size budget (--max-mib, or --full for all)",
                self.over_budget
            );
        }
        line
    }
}

/// Appends `path` (a file) or every file below it (a folder), in path
/// order, with their sizes.
fn files_under(path: &Path, out: &mut Vec<(PathBuf, u64)>) -> Result<(), ExperimentError> {
    let walk_error = |message: String| ExperimentError::Walk {
        path: path.to_owned(),
        message,
    };
    let metadata = std::fs::metadata(path).map_err(|e| walk_error(e.to_string()))?;
    if metadata.is_file() {
        out.push((path.to_owned(), metadata.len()));
        return Ok(());
    }
    let walker = WalkBuilder::new(path)
        .standard_filters(false)
        .sort_by_file_name(std::ffi::OsStr::cmp)
        .build();
    for entry in walker {
        let entry = entry.map_err(|e| walk_error(e.to_string()))?;
        if entry.file_type().is_some_and(|t| t.is_file()) {
            let size = entry
                .metadata()
                .map_err(|e| walk_error(e.to_string()))?
                .len();
            out.push((entry.into_path(), size));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, bytes: &[u8]) {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }

    #[test]
    fn folders_are_walked_in_order_and_binaries_skipped() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "b/second.txt",
            b"The second document, plain text.",
        );
        write(
            dir.path(),
            "a/first.html",
            b"<html><body><p>First page</p></body></html>",
        );
        write(
            dir.path(),
            "a/image.png",
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01",
        );
        let options = CorpusOptions {
            load: LoadOptions::default(),
            max_bytes: None,
        };
        let corpus = Corpus::load(&[dir.path().to_owned()], &options).unwrap();
        let names: Vec<String> = corpus
            .documents
            .iter()
            .map(|d| d.path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["first.html", "second.txt"]);
        assert_eq!(corpus.documents[0].kind, DocumentKind::Html);
        assert_eq!(corpus.documents[0].text.trim(), "First page");
        assert_eq!(corpus.skipped.len(), 1);
        assert!(
            corpus.skipped[0].contains("image.png"),
            "{:?}",
            corpus.skipped
        );
        assert!(corpus.describe().contains("1 files skipped"));
    }

    #[test]
    fn the_byte_budget_stops_taking_files() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["1.txt", "2.txt", "3.txt"] {
            write(dir.path(), name, &[b'a'; 100]);
        }
        let options = CorpusOptions {
            load: LoadOptions::default(),
            max_bytes: Some(150),
        };
        let corpus = Corpus::load(&[dir.path().to_owned()], &options).unwrap();
        assert_eq!((corpus.documents.len(), corpus.over_budget), (2, 1));
    }

    #[test]
    fn a_missing_path_is_an_error_naming_it() {
        let options = CorpusOptions {
            load: LoadOptions::default(),
            max_bytes: None,
        };
        let error = Corpus::load(&[PathBuf::from("/no/such/corpus")], &options).unwrap_err();
        assert!(error.to_string().contains("/no/such/corpus"), "{error}");
        let empty = Corpus::default()
            .require(&[PathBuf::from("x")], 10)
            .unwrap_err();
        assert!(
            empty.to_string().contains("at least 10 symbols under x"),
            "{empty}"
        );
    }
}
