//! [`TextMode::Chars`](super::TextMode::Chars): one symbol per folded character.

use super::fold::{Cluster, Clusters, FoldCache, is_content};
use crate::NormalizedDocument;

/// One symbol (the code point) per letter, digit or combining mark of the
/// NFKC-normalised, case-folded text; whitespace, punctuation and symbols are
/// dropped.
///
/// ```
/// use copyhound_normalize::text::normalize_chars;
///
/// let doc = normalize_chars("Große Öl-Preise");
/// let folded: String = doc.symbols.iter().map(|&s| char::from_u32(s).unwrap()).collect();
/// assert_eq!(folded, "grosseölpreise");
/// assert_eq!(doc.spans[3].range(), 3..5); // "ß" is two bytes and two symbols
/// assert_eq!(doc.spans[4].range(), 3..5);
/// ```
pub fn normalize_chars(text: &str) -> NormalizedDocument {
    let mut doc = NormalizedDocument::new();
    doc.symbols.reserve(text.len());
    doc.spans.reserve(text.len());
    let mut folds = FoldCache::new(fold_content);
    for cluster in Clusters::new(text) {
        if let Some(byte) = cluster.ascii() {
            if byte.is_ascii_alphanumeric() {
                doc.push(u32::from(byte.to_ascii_lowercase()), cluster.range());
            }
            continue;
        }
        for &folded in folds.get(&cluster) {
            doc.push(u32::from(folded), cluster.range());
        }
    }
    doc
}

/// The folded letters, digits and marks of a cluster.
pub(crate) fn fold_content(cluster: &Cluster<'_>, out: &mut Vec<char>) {
    out.extend(cluster.folded().filter(|&c| is_content(c)));
}
