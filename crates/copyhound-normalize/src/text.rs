//! Text front-ends: characters with case folded and whitespace and
//! punctuation dropped.

use crate::NormalizedDocument;

/// One symbol per alphanumeric character, lower-cased; everything else
/// (whitespace, punctuation, symbols) is dropped.
pub fn normalize_chars(text: &str) -> NormalizedDocument {
    let mut doc = NormalizedDocument::new();
    for (at, c) in text.char_indices() {
        if !c.is_alphanumeric() {
            continue;
        }
        let end = at + c.len_utf8();
        for folded in c.to_lowercase() {
            doc.push(u32::from(folded), at..end);
        }
    }
    doc
}
