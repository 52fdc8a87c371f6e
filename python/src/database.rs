//! A fingerprint database from Python, through the pipeline's database
//! layer (`copyhound_pipeline::database`, which `copyhound db` calls):
//! open, register texts, search with a text.

use std::path::{Path, PathBuf};

use copyhound_db::{DocumentMeta, SearchOptions};
use copyhound_pipeline::database::{DocumentDatabase, PreparedDocument, SearchRequest};
use pyo3::prelude::*;

use crate::error;

/// An open database directory (made by `copyhound db init`).
#[pyclass(frozen, module = "copyhound._native")]
pub struct Database {
    db: DocumentDatabase,
}

impl Database {
    /// `text`, named `name`, read with the database's front-end and
    /// fingerprinted with its parameters.
    fn prepare(&self, name: &str, text: &str) -> PyResult<PreparedDocument> {
        let loaded = self
            .db
            .load_bytes(Path::new(name), text.as_bytes())
            .map_err(error)?;
        Ok(self.db.prepare(loaded))
    }
}

#[pymethods]
impl Database {
    /// Opens the database at `path`.
    #[new]
    fn open(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let db = py.detach(|| DocumentDatabase::open(&path)).map_err(error)?;
        Ok(Self { db })
    }

    /// Registers `text`; returns its id. A text too short to give a
    /// fingerprint is refused.
    #[pyo3(signature = (text, *, title="", location="", email=""))]
    fn add(
        &self,
        py: Python<'_>,
        text: &str,
        title: &str,
        location: &str,
        email: &str,
    ) -> PyResult<u32> {
        py.detach(|| {
            let name = if title.is_empty() { "document" } else { title };
            let loaded = self
                .db
                .load_bytes(Path::new(name), text.as_bytes())
                .map_err(error)?;
            let prepared = self.db.prepare_printable(name, loaded).map_err(error)?;
            let meta = DocumentMeta {
                title: title.to_owned(),
                location: location.to_owned(),
                email: email.to_owned(),
                size: text.len() as u64,
            };
            let (record, _) = self.db.register(meta, &prepared).map_err(error)?;
            Ok(record.id)
        })
    }

    /// The registered documents `text` shares fingerprints with, best
    /// first, as JSON text: the fields of `copyhound db search --json`
    /// (passages for the best `fragments` matches whose text is at hand).
    #[pyo3(signature = (text, *, name="query", limit=20, min_hits=1, fragments=3))]
    fn search(
        &self,
        py: Python<'_>,
        text: &str,
        name: &str,
        limit: usize,
        min_hits: u32,
        fragments: usize,
    ) -> PyResult<String> {
        py.detach(|| {
            let query = self.prepare(name, text)?;
            let request = SearchRequest {
                options: SearchOptions { limit, min_hits },
                fragments,
                include_text: false,
            };
            let result = self.db.search(name, query, &request).map_err(error)?;
            serde_json::to_string(&result).map_err(error)
        })
    }
}
