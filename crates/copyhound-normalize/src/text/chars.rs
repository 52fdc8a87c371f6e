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
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        // An ASCII byte not followed by a non-ASCII one (which could be a
        // combining mark) is a cluster of its own, exactly as `Clusters`
        // would cut it: most of a Latin text goes through this loop alone.
        let byte = bytes[at];
        if byte < 0x80 && bytes.get(at + 1).is_none_or(|&next| next < 0x80) {
            push_ascii(&mut doc, byte, at..at + 1);
            at += 1;
            continue;
        }
        let cluster = Clusters::starting_at(text, at)
            .next()
            .expect("a cluster starts at every char boundary before the end");
        at = cluster.range().end;
        push_cluster(&mut doc, &mut folds, &cluster);
    }
    doc
}

/// Appends the symbols of one cluster: a lone ASCII character directly,
/// anything else through the fold cache.
#[inline]
fn push_cluster<F: Fn(&Cluster<'_>, &mut Vec<char>)>(
    doc: &mut NormalizedDocument,
    folds: &mut FoldCache<F>,
    cluster: &Cluster<'_>,
) {
    if let Some(byte) = cluster.ascii() {
        push_ascii(doc, byte, cluster.range());
        return;
    }
    for &folded in folds.get(cluster) {
        doc.push(u32::from(folded), cluster.range());
    }
}

/// Appends an ASCII character lower-cased if it is a letter or digit.
#[inline]
fn push_ascii(doc: &mut NormalizedDocument, byte: u8, range: std::ops::Range<usize>) {
    if byte.is_ascii_alphanumeric() {
        doc.push(u32::from(byte.to_ascii_lowercase()), range);
    }
}

/// The folded letters, digits and marks of a cluster.
pub(crate) fn fold_content(cluster: &Cluster<'_>, out: &mut Vec<char>) {
    out.extend(cluster.folded().filter(|&c| is_content(c)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The former loop: every cluster from the iterator.
    fn by_clusters(text: &str) -> NormalizedDocument {
        let mut doc = NormalizedDocument::new();
        let mut folds = FoldCache::new(fold_content);
        for cluster in Clusters::new(text) {
            push_cluster(&mut doc, &mut folds, &cluster);
        }
        doc
    }

    proptest! {
        #[test]
        fn the_ascii_fast_path_cuts_clusters_as_the_iterator_does(
            pieces in prop::collection::vec(
                prop::sample::select(vec![
                    "a", "Z", "9", " ", ".", "e\u{301}", "\u{301}", "ß", "Straße", "ﬁ",
                    "ｓ", "é", "İ", "\u{0345}", "한", "\u{1100}\u{1161}", "x\u{20dd}", "\n",
                ]),
                0..60,
            ),
        ) {
            let text: String = pieces.concat();
            let fast = normalize_chars(&text);
            let reference = by_clusters(&text);
            prop_assert_eq!(fast.symbols, reference.symbols);
            prop_assert_eq!(fast.spans, reference.spans);
        }
    }
}
