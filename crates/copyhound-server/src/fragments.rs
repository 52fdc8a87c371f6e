//! Matching fragments of a query and one registered document, for the side
//! by side view.
//!
//! The database search says *which* documents share fingerprints; where the
//! shared text is needs both texts. When the registered document's text is
//! still readable (kept by the server, or the file it was added from), both
//! are winnowed and compared with `copyhound-index`, which extends matching
//! fingerprints into exact, maximal fragments.

use std::path::Path;

use copyhound_db::Fingerprinter;
use copyhound_index::locate_shared_fragments;
use copyhound_normalize::{LoadOptions, LoadedDocument, load_file};
use serde::Serialize;

/// One passage found in both documents.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FragmentOutput {
    /// Byte range in the query's text.
    pub query_bytes: [usize; 2],
    /// Lines (1-based, inclusive) in the query's text.
    pub query_lines: [u32; 2],
    /// Byte range in the registered document's text.
    pub registered_bytes: [usize; 2],
    /// Lines in the registered document's text.
    pub registered_lines: [u32; 2],
    /// Symbols matched.
    pub symbols: u32,
}

/// Loads the registered text at `path`; `None` when it cannot be read.
pub fn load_registered(path: &Path, options: &LoadOptions) -> Option<LoadedDocument> {
    if !path.is_file() {
        return None;
    }
    load_file(path, options).ok()
}

/// The fragments `query` shares with `registered`, in query order.
pub fn fragments(
    fingerprinter: &Fingerprinter,
    query: &LoadedDocument,
    registered: &LoadedDocument,
) -> Vec<FragmentOutput> {
    locate_shared_fragments(
        (&query.doc, &query.text),
        (&registered.doc, &registered.text),
        fingerprinter.hasher(),
        &fingerprinter.winnowing(),
    )
    .into_iter()
    .map(|f| FragmentOutput {
        query_bytes: f.a_bytes,
        query_lines: f.a_lines,
        registered_bytes: f.b_bytes,
        registered_lines: f.b_lines,
        symbols: f.symbols,
    })
    .collect()
}
