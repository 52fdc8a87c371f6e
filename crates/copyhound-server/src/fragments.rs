//! Matching fragments of a query and one registered document, for the side
//! by side view.
//!
//! The database search says *which* documents share fingerprints; where the
//! shared text is needs both texts. When the registered document's text is
//! still readable (kept by the server, or the file it was added from), both
//! are winnowed and compared with `copyhound-index`, which extends matching
//! fingerprints into exact, maximal fragments.

use std::path::Path;

use copyhound_db::Params;
use copyhound_fingerprint::{KGramHasher, Winnowing};
use copyhound_index::{LineIndex, shared_fragments};
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
    params: &Params,
    query: &LoadedDocument,
    registered: &LoadedDocument,
) -> Vec<FragmentOutput> {
    let hasher = KGramHasher::new(params.k as usize, params.seed);
    let selector = Winnowing::robust(params.window as usize);
    let shared = shared_fragments(&query.doc, &registered.doc, &hasher, &selector);
    let query_lines = LineIndex::new(query.text.as_bytes());
    let registered_lines = LineIndex::new(registered.text.as_bytes());
    let mut out: Vec<FragmentOutput> = shared
        .iter()
        .map(|f| {
            let q = query.doc.byte_range(f.a.start as usize, f.a.len() as usize);
            let r = registered
                .doc
                .byte_range(f.b.start as usize, f.b.len() as usize);
            FragmentOutput {
                query_bytes: [q.start, q.end],
                query_lines: [
                    query_lines.line_of(q.start as u32) + 1,
                    query_lines.line_of(q.end.saturating_sub(1) as u32) + 1,
                ],
                registered_bytes: [r.start, r.end],
                registered_lines: [
                    registered_lines.line_of(r.start as u32) + 1,
                    registered_lines.line_of(r.end.saturating_sub(1) as u32) + 1,
                ],
                symbols: f.len(),
            }
        })
        .collect();
    out.sort_by_key(|f| f.query_bytes);
    out
}
