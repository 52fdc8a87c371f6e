//! A fingerprint database (`copyhound-db`) from Python: open, add texts,
//! search with a text.

use std::path::PathBuf;

use copyhound_db::{DocumentMeta, NewDocument, SearchOptions};
use copyhound_normalize::text::normalize_text;
use copyhound_normalize::{NormalizedDocument, TextMode, TextOptions};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error;

/// An open database directory (made by `copyhound db init`).
#[pyclass(frozen, module = "copyhound._native")]
pub struct Database {
    db: copyhound_db::Database,
    text: TextOptions,
}

impl Database {
    /// `text` as the database's front-end reads it.
    fn normalize(&self, text: &str) -> NormalizedDocument {
        normalize_text(text, &self.text)
    }
}

#[pymethods]
impl Database {
    /// Opens the database at `path`.
    #[new]
    fn open(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let db = py
            .detach(|| copyhound_db::Database::open(&path))
            .map_err(error)?;
        let front_end = &db.params().front_end;
        let mode = TextMode::from_name(front_end).ok_or_else(|| {
            error(format!(
                "the database uses an unknown front-end {front_end:?}"
            ))
        })?;
        Ok(Self {
            db,
            text: TextOptions::with_mode(mode),
        })
    }

    /// Registers `text`; returns its id.
    #[pyo3(signature = (text, *, title="", location=""))]
    fn add(&self, py: Python<'_>, text: &str, title: &str, location: &str) -> PyResult<u32> {
        py.detach(|| {
            let print = self.db.fingerprinter().print(&self.normalize(text));
            let meta = DocumentMeta {
                title: title.to_owned(),
                location: location.to_owned(),
                size: text.len() as u64,
                ..DocumentMeta::default()
            };
            self.db.add(vec![NewDocument { meta, print }])
        })
        .map_err(error)
        .map(|ids| ids[0])
    }

    /// The registered documents `text` shares fingerprints with, best
    /// first: `{"id", "title", "location", "hits", "ratio",
    /// "query_ratio"}` each.
    #[pyo3(signature = (text, *, limit=20, min_hits=1))]
    fn search<'py>(
        &self,
        py: Python<'py>,
        text: &str,
        limit: usize,
        min_hits: u32,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let report = py
            .detach(|| {
                let print = self.db.fingerprinter().print(&self.normalize(text));
                self.db.search(&print, &SearchOptions { limit, min_hits })
            })
            .map_err(error)?;
        report
            .matches
            .iter()
            .map(|m| {
                let dict = PyDict::new(py);
                dict.set_item("id", m.document.id)?;
                dict.set_item("title", &m.document.meta.title)?;
                dict.set_item("location", &m.document.meta.location)?;
                dict.set_item("hits", m.hits)?;
                dict.set_item("ratio", m.ratio)?;
                dict.set_item("query_ratio", m.query_ratio)?;
                Ok(dict)
            })
            .collect()
    }
}
