//! `copyhound._native`: the Python package's bindings over the library
//! crates. No logic lives here: each function converts its arguments,
//! calls the crate the command line calls, and converts the result.
//!
//! - [`Scheme`](scheme::Scheme): a deduplication scheme (`copyhound-dedup`): candidate
//!   fingerprints of a text, the score and passages of a pair of texts,
//!   and both over Arrow record batches (Spark's `mapInArrow`).
//! - [`dedup`](scheme::dedup): a whole `copyhound dedup` run.
//! - [`compare_batch`](batch::compare_batch): a batch comparison over paths
//!   (`copyhound compare`).
//! - [`fingerprint`](fingerprint::fingerprint): the fingerprints of one text or code string with
//!   any front-end and selector (`copyhound fingerprint`).
//! - [`Database`](database::Database): open a fingerprint database, add texts, search it.

// PyO3 converts each Python argument into an owned value.
#![allow(clippy::needless_pass_by_value)]

mod batch;
mod database;
mod fingerprint;
mod scheme;

use pyo3::prelude::*;

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<scheme::Scheme>()?;
    m.add_class::<database::Database>()?;
    m.add_function(wrap_pyfunction!(scheme::dedup, m)?)?;
    m.add_function(wrap_pyfunction!(fingerprint::fingerprint, m)?)?;
    m.add_function(wrap_pyfunction!(batch::compare_batch, m)?)?;
    m.add("CopyhoundError", m.py().get_type::<CopyhoundError>())?;
    Ok(())
}

pyo3::create_exception!(
    _native,
    CopyhoundError,
    pyo3::exceptions::PyValueError,
    "Bad input or a failed run; the message names the file and row."
);

/// A library error as a Python exception.
fn error(e: impl std::fmt::Display) -> PyErr {
    CopyhoundError::new_err(e.to_string())
}
