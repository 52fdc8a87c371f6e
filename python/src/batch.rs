//! `copyhound compare` from Python: a batch comparison over paths through
//! `copyhound-pipeline`, the library the command line runs.

use std::path::PathBuf;

use copyhound_pipeline::{CompareSettings, Inputs};
use copyhound_report::Tool;
use pyo3::prelude::*;

use crate::error;

/// Compares the units under `new` with each other and with those under
/// `old`, leaving out what `base` holds, with the command line's default
/// settings; returns the report as JSON text (the `--json` report's
/// fields, pairs most similar first, without fragments).
#[pyfunction]
#[pyo3(signature = (new, *, old=Vec::new(), base=Vec::new()))]
pub fn compare_batch(
    py: Python<'_>,
    new: Vec<PathBuf>,
    old: Vec<PathBuf>,
    base: Vec<PathBuf>,
) -> PyResult<String> {
    let inputs = Inputs {
        new,
        old,
        base,
        ..Inputs::default()
    };
    py.detach(|| {
        let outcome = copyhound_pipeline::run(&inputs, &CompareSettings::default(), &())?;
        let tool = Tool {
            name: "copyhound".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        };
        serde_json::to_string(&outcome.report(&tool, None)).map_err(Into::into)
    })
    .map_err(|e: Box<dyn std::error::Error + Send + Sync>| error(e))
}
