//! `copyhound fingerprint` from Python: one text or code string through
//! any front-end and selector.

use std::path::Path;

use copyhound_fingerprint::{
    All, Fingerprint, KGramHasher, KoalaParams, KoalaSelector, ModP, SafeModP, Selector, Sketch,
    SketchParams, Smallest, Winnowing,
};
use copyhound_normalize::code::{CodeOptions, Language, Level};
use copyhound_normalize::{
    DocumentKind, KindChoice, LoadOptions, TextMode, TextOptions, load_bytes,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error;

/// The fingerprints of `text`, read as `lang` (`"text"`, a language name
/// such as `"python"`, or `None` to tell from `name`'s extension), each
/// `{"hash", "pos", "start", "end"}`: the unsigned hash, the symbol index
/// of its k-gram and the k-gram's byte range in `text`. k and w default to
/// the command line's for the kind of document.
#[pyfunction]
#[pyo3(signature = (text, *, lang=Some("text"), name="document", text_mode="chars", level="rename", drop_imports=false, selector="robust-winnow", k=None, w=None, seed=0, p=None, n=100))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments
pub fn fingerprint<'py>(
    py: Python<'py>,
    text: &str,
    lang: Option<&str>,
    name: &str,
    text_mode: &str,
    level: &str,
    drop_imports: bool,
    selector: &str,
    k: Option<usize>,
    w: Option<usize>,
    seed: u64,
    p: Option<u64>,
    n: usize,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let mode = TextMode::from_name(text_mode)
        .ok_or_else(|| error(format!("unknown text mode {text_mode:?}")))?;
    let kind = match lang {
        None => KindChoice::Auto,
        Some("text") => KindChoice::Text,
        Some(name) => KindChoice::Code(
            Language::from_name(name).ok_or_else(|| error(format!("unknown language {name:?}")))?,
        ),
    };
    let level = match level {
        "exact" => Level::Exact,
        "rename" => Level::Rename,
        "abstract" => Level::Abstract,
        "structure" => Level::Structure,
        other => return Err(error(format!("unknown level {other:?}"))),
    };
    let options = LoadOptions {
        kind,
        text: TextOptions::with_mode(mode),
        code: CodeOptions {
            level,
            drop_imports,
        },
        ..LoadOptions::default()
    };
    let loaded = py
        .detach(|| load_bytes(Path::new(name), text.as_bytes(), &options))
        .map_err(error)?;
    let (default_k, default_w) = match (loaded.kind, mode) {
        (DocumentKind::Code(_), _) => (10, 3),
        (_, TextMode::Chars) => (15, 6),
        (_, TextMode::Words) => (3, 5),
        (_, TextMode::Consonants) => (10, 6),
    };
    let (k, w) = (k.unwrap_or(default_k), w.unwrap_or(default_w));
    if k == 0 || w == 0 {
        return Err(error("k and w must be at least 1"));
    }
    let chosen = selector_named(selector, w, seed, p, n)?;
    let hasher = KGramHasher::new(k, seed);
    let mut prints: Vec<Fingerprint> = Vec::new();
    py.detach(|| chosen.fingerprint(&hasher, &loaded.doc.symbols, &mut prints));
    prints
        .iter()
        .map(|f| {
            let bytes = loaded.doc.byte_range(f.pos as usize, k);
            let dict = PyDict::new(py);
            dict.set_item("hash", f.hash)?;
            dict.set_item("pos", f.pos)?;
            dict.set_item("start", bytes.start)?;
            dict.set_item("end", bytes.end)?;
            Ok(dict)
        })
        .collect()
}

/// The selector the command line's `--selector` names.
fn selector_named(
    name: &str,
    w: usize,
    seed: u64,
    p: Option<u64>,
    n: usize,
) -> PyResult<Box<dyn Selector>> {
    let n = n.max(1);
    Ok(match name {
        "winnow" => Box::new(Winnowing::new(w)),
        "robust-winnow" => Box::new(Winnowing::robust(w)),
        "mod-p" => Box::new(ModP::new(p.unwrap_or((w as u64).div_ceil(2)).max(1))),
        "safe-mod-p" => Box::new(match p {
            Some(p) => SafeModP::new(p.max(1), w),
            None => SafeModP::optimal(w),
        }),
        "all" => Box::new(All),
        "smallest" => Box::new(Smallest::new(n)),
        "koala" => Box::new(KoalaSelector::new(KoalaParams {
            search_size: n * 10,
            stored_size: n,
            seed,
            ..KoalaParams::default()
        })),
        "sketch" => Box::new(Sketch::with_total_size(
            n * 10,
            SketchParams {
                window: w,
                seed,
                ..SketchParams::default()
            },
        )),
        other => {
            return Err(error(format!(
                "unknown selector {other:?}: expected winnow, robust-winnow, mod-p, safe-mod-p, all, smallest, koala or sketch"
            )));
        }
    })
}
