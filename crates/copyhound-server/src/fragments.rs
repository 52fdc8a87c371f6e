//! Matching fragments of a query and one registered document, for the side
//! by side view.
//!
//! The database search says *which* documents share fingerprints; where the
//! shared text is needs both texts. When the registered document's text is
//! still readable (kept by the server, or the file it was added from), both
//! are winnowed and compared with `copyhound-index`, which extends matching
//! fingerprints into exact, maximal fragments.

use std::path::Path;

use copyhound_db::{Fingerprinter, SharedPassage};
use copyhound_normalize::{LoadOptions, LoadedDocument, load_file};

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
) -> Vec<SharedPassage> {
    fingerprinter.shared_passages(
        (&query.doc, &query.text),
        (&registered.doc, &registered.text),
    )
}
