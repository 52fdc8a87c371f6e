//! Character folding shared by the text modes.
//!
//! Normalisation can merge neighbouring characters ("e" + U+0301 → "é"), so
//! the text is first cut into clusters — a character with every following
//! character that normalisation could combine with it — and each cluster is
//! folded on its own. That keeps folding local, so each symbol has an exact
//! source span, while giving the same result for composed and decomposed
//! spellings.

use caseless::Caseless;
use unicode_normalization::char::{canonical_combining_class, is_combining_mark};
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

/// A character and the combining characters that follow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cluster<'a> {
    /// Byte offset of the cluster in the text.
    pub start: usize,
    /// The cluster's source text.
    pub text: &'a str,
}

impl Cluster<'_> {
    /// The source bytes of the cluster.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.start + self.text.len()
    }

    /// The cluster's byte when it is a lone ASCII character, which folds to
    /// itself lower-cased and needs no Unicode tables.
    pub fn ascii(&self) -> Option<u8> {
        match self.text.as_bytes() {
            &[byte] => Some(byte),
            _ => None,
        }
    }

    /// The cluster in NFKC form, fully case-folded (Unicode `CaseFolding.txt`,
    /// full mappings: "ß" → "ss", "ς" → "σ"), and normalised again because
    /// folding can produce unnormalised sequences.
    pub fn folded(&self) -> impl Iterator<Item = char> + '_ {
        self.text.chars().nfkc().default_case_fold().nfkc()
    }
}

/// Iterator over the [`Cluster`]s of a text.
pub(crate) struct Clusters<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Clusters<'a> {
    pub fn new(text: &'a str) -> Self {
        Self { text, at: 0 }
    }
}

impl<'a> Iterator for Clusters<'a> {
    type Item = Cluster<'a>;

    fn next(&mut self) -> Option<Cluster<'a>> {
        let start = self.at;
        let rest = &self.text[start..];
        let first = rest.chars().next()?;
        let mut end = start + first.len_utf8();
        let bytes = self.text.as_bytes();
        // ASCII never combines with what precedes it: the common case stops here.
        while end < bytes.len() && bytes[end] >= 0x80 {
            let next = self.text[end..]
                .chars()
                .next()
                .expect("end is a char boundary");
            if !combines_with_previous(next) {
                break;
            }
            end += next.len_utf8();
        }
        self.at = end;
        Some(Cluster {
            start,
            text: &self.text[start..end],
        })
    }
}

/// Whether normalisation may reorder `c` with, or compose it into, the
/// character before it: non-zero combining class (reordering) or NFKC quick
/// check "Maybe" (composition, e.g. Hangul vowel jamo and some Indic vowel
/// signs, which are starters).
fn combines_with_previous(c: char) -> bool {
    canonical_combining_class(c) != 0 || is_nfkc_quick(std::iter::once(c)) == IsNormalized::Maybe
}

/// Whether a folded character carries content in the character and word
/// modes: letters, digits and combining marks. Whitespace, punctuation,
/// symbols and controls are dropped.
pub(crate) fn is_content(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// `c` without its diacritics: the non-mark part of its canonical
/// decomposition ("é" → "e", "ç" → "c"; "ł" and "ø" have none and stay).
pub(crate) fn strip_marks(c: char) -> impl Iterator<Item = char> {
    std::iter::once(c)
        .nfd()
        .filter(|&part| !is_combining_mark(part))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cluster_texts(text: &str) -> Vec<&str> {
        Clusters::new(text).map(|cluster| cluster.text).collect()
    }

    #[test]
    fn combining_marks_join_the_preceding_character() {
        assert_eq!(
            cluster_texts("ae\u{301}\u{327}b"),
            ["a", "e\u{301}\u{327}", "b"]
        );
    }

    #[test]
    fn hangul_jamo_form_one_cluster() {
        // ᄒ ᅡ ᆫ (leading, vowel, trailing jamo) compose to 한.
        assert_eq!(
            cluster_texts("\u{1112}\u{1161}\u{11AB}x"),
            ["\u{1112}\u{1161}\u{11AB}", "x"]
        );
    }

    #[test]
    fn a_leading_mark_is_its_own_cluster() {
        assert_eq!(cluster_texts("\u{301}a"), ["\u{301}", "a"]);
    }

    #[test]
    fn folding_composes_and_case_folds() {
        let folded = |text: &str| -> String {
            Clusters::new(text)
                .flat_map(|c| c.folded().collect::<Vec<_>>())
                .collect()
        };
        assert_eq!(folded("E\u{301}"), "é");
        assert_eq!(folded("ẞ"), "ss");
        assert_eq!(folded("ﬁ"), "fi");
        assert_eq!(folded("Ⅻ"), "xii");
        assert_eq!(folded("ς"), "σ");
    }

    #[test]
    fn marks_are_stripped_to_the_base_letter() {
        assert_eq!(strip_marks('é').collect::<String>(), "e");
        assert_eq!(strip_marks('ł').collect::<String>(), "ł");
    }
}
