//! Deduplication from Python: [`Scheme`] and [`dedup`].

use std::path::PathBuf;

use arrow_array::RecordBatch;
use arrow_pyarrow::PyArrowType;
use copyhound_dedup::{Columns, DedupChoices, DedupOptions, PairMatch, SharedSpan};
use copyhound_normalize::TextMode;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error;

/// The settings of a deduplication run, checked; what it does to one
/// text, one pair of texts, or record batches of either.
#[pyclass(frozen, module = "copyhound._native")]
pub struct Scheme {
    inner: copyhound_dedup::Scheme,
}

#[pymethods]
impl Scheme {
    #[new]
    #[pyo3(signature = (text_mode="chars", *, k=None, w=None, index_window=None, min_shared_fingerprints=copyhound_dedup::DEFAULT_MIN_SHARED_FINGERPRINTS, seed=0, max_documents_per_hash=copyhound_dedup::DEFAULT_MAX_DOCUMENTS_PER_HASH, min_passage=None, merge_gap=None, min_similarity=copyhound_dedup::DEFAULT_MIN_SIMILARITY))]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments
    fn new(
        text_mode: &str,
        k: Option<usize>,
        w: Option<usize>,
        index_window: Option<usize>,
        min_shared_fingerprints: usize,
        seed: u64,
        max_documents_per_hash: usize,
        min_passage: Option<usize>,
        merge_gap: Option<usize>,
        min_similarity: f64,
    ) -> PyResult<Self> {
        let mode = TextMode::from_name(text_mode).ok_or_else(|| {
            error(format!(
                "unknown text mode {text_mode:?}: expected chars, words or consonants"
            ))
        })?;
        let options = DedupChoices {
            text_mode: mode,
            k,
            window: w,
            index_window,
            min_shared_fingerprints,
            seed,
            max_documents_per_hash,
            min_passage,
            merge_gap,
            min_similarity,
        }
        .options();
        Ok(Self {
            inner: copyhound_dedup::Scheme::new(options).map_err(error)?,
        })
    }

    /// The settings, as a dict.
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let o = self.inner.options();
        let dict = PyDict::new(py);
        dict.set_item("text_mode", o.text_mode.name())?;
        dict.set_item("k", o.k)?;
        dict.set_item("w", o.window)?;
        dict.set_item("index_window", o.index_window)?;
        dict.set_item("min_shared_fingerprints", o.min_shared_fingerprints)?;
        dict.set_item("seed", o.seed)?;
        dict.set_item("max_documents_per_hash", o.max_documents_per_hash)?;
        dict.set_item("min_passage", o.min_passage)?;
        dict.set_item("merge_gap", o.merge_gap)?;
        dict.set_item("min_similarity", o.min_similarity)?;
        Ok(dict)
    }

    /// The distinct candidate fingerprints of `text`, as signed 64-bit
    /// integers (the bits of the unsigned hash).
    fn candidate_hashes(&self, py: Python<'_>, text: &str) -> Vec<i64> {
        py.detach(|| {
            self.inner
                .candidate_hashes(text)
                .into_iter()
                .map(u64::cast_signed)
                .collect()
        })
    }

    /// What texts `a` and `b` share: similarity, each side's containment,
    /// fragments and passages with byte offsets into each text's UTF-8.
    fn compare<'py>(&self, py: Python<'py>, a: &str, b: &str) -> PyResult<Bound<'py, PyDict>> {
        let found = py.detach(|| self.inner.score(a, b));
        match_dict(py, &found)
    }

    /// The candidate fingerprints of a record batch of documents: `(id,
    /// hash)` rows, hash signed 64-bit.
    fn fingerprint_batch(
        &self,
        py: Python<'_>,
        batch: PyArrowType<RecordBatch>,
        id_column: &str,
        text_column: &str,
    ) -> PyResult<PyArrowType<RecordBatch>> {
        py.detach(|| {
            copyhound_dedup::arrow::fingerprint_batch(&self.inner, &batch.0, id_column, text_column)
        })
        .map(PyArrowType)
        .map_err(error)
    }

    /// The listed pairs of a record batch of pairs (`a`, `b`, `text_a`,
    /// `text_b`), with the columns of `pairs.parquet`.
    fn score_batch(
        &self,
        py: Python<'_>,
        batch: PyArrowType<RecordBatch>,
    ) -> PyResult<PyArrowType<RecordBatch>> {
        py.detach(|| copyhound_dedup::arrow::score_batch(&self.inner, &batch.0))
            .map(PyArrowType)
            .map_err(error)
    }
}

fn match_dict<'py>(py: Python<'py>, found: &PairMatch) -> PyResult<Bound<'py, PyDict>> {
    let spans = |spans: &[SharedSpan]| -> PyResult<Vec<Bound<'py, PyDict>>> {
        spans
            .iter()
            .map(|s| {
                let dict = PyDict::new(py);
                dict.set_item("a", (s.a.start, s.a.end))?;
                dict.set_item("b", (s.b.start, s.b.end))?;
                dict.set_item("matched_symbols", s.matched_symbols)?;
                Ok(dict)
            })
            .collect()
    };
    let dict = PyDict::new(py);
    dict.set_item("similarity", found.similarity)?;
    dict.set_item("containment", (found.containment[0], found.containment[1]))?;
    dict.set_item("fragments", spans(&found.fragments)?)?;
    dict.set_item("passages", spans(&found.passages)?)?;
    Ok(dict)
}

/// Runs `copyhound dedup` on `inputs` into `output`; returns its summary.
#[pyfunction]
#[pyo3(signature = (inputs, output, *, id_column="id", text_column="text", scheme=None))]
pub fn dedup<'py>(
    py: Python<'py>,
    inputs: Vec<PathBuf>,
    output: PathBuf,
    id_column: &str,
    text_column: &str,
    scheme: Option<&Scheme>,
) -> PyResult<Bound<'py, PyDict>> {
    let columns = Columns {
        id: id_column.to_owned(),
        text: text_column.to_owned(),
    };
    let default;
    let scheme = if let Some(scheme) = scheme {
        &scheme.inner
    } else {
        default = copyhound_dedup::Scheme::new(DedupOptions::default()).map_err(error)?;
        &default
    };
    let summary = py
        .detach(|| copyhound_dedup::dedup(&inputs, &columns, scheme, &output, &()))
        .map_err(error)?;
    let dict = PyDict::new(py);
    dict.set_item("documents", summary.documents)?;
    dict.set_item("dropped_hashes", summary.dropped_hashes)?;
    dict.set_item("sharing_pairs", summary.sharing_pairs)?;
    dict.set_item("candidate_pairs", summary.candidate_pairs)?;
    dict.set_item("listed_pairs", summary.listed_pairs)?;
    dict.set_item("clusters", summary.clusters)?;
    dict.set_item("removed", summary.removed)?;
    Ok(dict)
}
