//! `copyhound fingerprint` from Python: one text or code string through
//! any front-end and selector, with the pipeline's front-end and selection
//! (the command line's).

use std::path::Path;

use copyhound_fingerprint::Fingerprint;
use copyhound_normalize::code::{DeadCode, Level, Loops, StatementOptions, StatementOrder};
use copyhound_normalize::{TextMode, load_bytes};
use copyhound_pipeline::{Family, FrontEnd, FrontEndChoice, Selection, SelectorName};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error;

/// The fingerprints of `text`, read as `lang` (`"text"`, a language name
/// such as `"python"`, or `None` to tell from `name`'s extension and first
/// line), each `{"hash", "pos", "start", "end"}`: the unsigned hash, the
/// symbol index of its k-gram and the k-gram's byte range in `text`. k and
/// w default to the command line's for the kind of document.
#[pyfunction]
#[pyo3(signature = (text, *, lang=Some("text"), name="document", text_mode="chars", level="rename", drop_imports=false, dead_code="drop", statement_order="written", loops="while", selector="robust-winnow", k=None, w=None, seed=0, p=None, n=100))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments
pub fn fingerprint<'py>(
    py: Python<'py>,
    text: &str,
    lang: Option<&str>,
    name: &str,
    text_mode: &str,
    level: &str,
    drop_imports: bool,
    dead_code: &str,
    statement_order: &str,
    loops: &str,
    selector: &str,
    k: Option<usize>,
    w: Option<usize>,
    seed: u64,
    p: Option<u64>,
    n: usize,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let choice = FrontEndChoice {
        lang: lang.map(str::to_owned),
        level: named("level", level, &Level::ALL.map(|l| (l.name(), l)))?,
        text_mode: named(
            "text mode",
            text_mode,
            &TextMode::ALL.map(|m| (m.name(), m)),
        )?,
        drop_imports,
        statements: StatementOptions::new(
            named(
                "dead_code",
                dead_code,
                &DeadCode::ALL.map(|m| (m.name(), m)),
            )?,
            named(
                "statement_order",
                statement_order,
                &StatementOrder::ALL.map(|m| (m.name(), m)),
            )?,
            named("loops", loops, &Loops::ALL.map(|m| (m.name(), m)))?,
        ),
        ..FrontEndChoice::default()
    };
    let front_end = FrontEnd::new(&choice).map_err(error)?;
    if k == Some(0) || w == Some(0) {
        return Err(error("k and w must be at least 1"));
    }
    let selection = Selection {
        selector: named(
            "selector",
            selector,
            &SelectorName::ALL.map(|s| (s.name(), s)),
        )?,
        k,
        w,
        seed,
        p,
        n,
    };
    let (loaded, resolved, prints) = py
        .detach(|| {
            let loaded = load_bytes(Path::new(name), text.as_bytes(), front_end.load_options())?;
            let resolved = selection.resolve(front_end.defaults(Family::of(loaded.kind)));
            let mut prints: Vec<Fingerprint> = Vec::new();
            selection
                .scheme(resolved)
                .fingerprint(&loaded.doc.symbols, &mut prints);
            Ok::<_, copyhound_normalize::LoadError>((loaded, resolved, prints))
        })
        .map_err(error)?;
    prints
        .iter()
        .map(|f| {
            let bytes = loaded.doc.byte_range(f.pos as usize, resolved.k);
            let dict = PyDict::new(py);
            dict.set_item("hash", f.hash)?;
            dict.set_item("pos", f.pos)?;
            dict.set_item("start", bytes.start)?;
            dict.set_item("end", bytes.end)?;
            Ok(dict)
        })
        .collect()
}

/// The value `given` names among `known`; an unknown name is an error that
/// lists the known ones.
fn named<T: Copy>(what: &str, given: &str, known: &[(&str, T)]) -> PyResult<T> {
    known
        .iter()
        .find(|(name, _)| *name == given)
        .map(|&(_, value)| value)
        .ok_or_else(|| {
            let names: Vec<&str> = known.iter().map(|(name, _)| *name).collect();
            error(format!(
                "unknown {what} {given:?}: expected {}",
                names.join(", ")
            ))
        })
}
