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
        Self::starting_at(text, 0)
    }

    /// The clusters from byte `at` (a char boundary where no cluster
    /// continues) on.
    pub fn starting_at(text: &'a str, at: usize) -> Self {
        Self { text, at }
    }
}

impl<'a> Iterator for Clusters<'a> {
    type Item = Cluster<'a>;

    fn next(&mut self) -> Option<Cluster<'a>> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        let &first_byte = bytes.get(start)?;
        // An ASCII character followed by ASCII (or the end) is a cluster of
        // its own: ASCII never combines with what precedes it. This is the
        // common case and needs no decoding.
        let mut end = if first_byte < 0x80 {
            start + 1
        } else {
            let first = self.text[start..]
                .chars()
                .next()
                .expect("start is a char boundary");
            start + first.len_utf8()
        };
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

/// Slots of [`FoldCache`]: code points of one script are contiguous, so the
/// low bits of the code point spread a text's alphabet over distinct slots.
const FOLD_CACHE_SLOTS: usize = 512;

/// Folds kept in the cache; longer ones (rare: "ﷺ" expands to 18) are
/// recomputed each time.
const MAX_CACHED_FOLD: usize = 3;

/// A fold (NFKC, case folding and whatever a mode adds) of single-character
/// clusters, memoised: a text uses few distinct characters, and running the
/// normalisation iterators for each occurrence dominates the cost of
/// non-ASCII text.
pub(crate) struct FoldCache<F> {
    fold: F,
    slots: Box<[CachedFold]>,
    scratch: Vec<char>,
}

#[derive(Clone, Copy)]
struct CachedFold {
    /// The character folded; NUL marks an empty slot (NUL is ASCII and never
    /// reaches the cache).
    source: char,
    len: u8,
    folded: [char; MAX_CACHED_FOLD],
}

impl<F: Fn(&Cluster<'_>, &mut Vec<char>)> FoldCache<F> {
    /// A cache of `fold`, which appends the folded form of a cluster.
    pub fn new(fold: F) -> Self {
        let empty = CachedFold {
            source: '\0',
            len: 0,
            folded: ['\0'; MAX_CACHED_FOLD],
        };
        Self {
            fold,
            slots: vec![empty; FOLD_CACHE_SLOTS].into_boxed_slice(),
            scratch: Vec::new(),
        }
    }

    /// The folded form of a non-ASCII cluster.
    pub fn get(&mut self, cluster: &Cluster<'_>) -> &[char] {
        let mut chars = cluster.text.chars();
        let first = chars.next().expect("clusters are not empty");
        self.scratch.clear();
        if chars.next().is_some() || first.is_ascii() {
            (self.fold)(cluster, &mut self.scratch);
            return &self.scratch;
        }
        let slot = first as usize % FOLD_CACHE_SLOTS;
        if self.slots[slot].source != first {
            (self.fold)(cluster, &mut self.scratch);
            if self.scratch.len() > MAX_CACHED_FOLD {
                return &self.scratch;
            }
            let entry = &mut self.slots[slot];
            entry.source = first;
            entry.len = self.scratch.len() as u8;
            entry.folded[..self.scratch.len()].copy_from_slice(&self.scratch);
        }
        let entry = &self.slots[slot];
        &entry.folded[..usize::from(entry.len)]
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
    fn the_fold_cache_gives_what_folding_gives() {
        let text = "ÀàĀāΣσςßﬁ\u{fdfa}e\u{301}Àꝏ\u{1E9E}";
        let mut cache = FoldCache::new(|cluster: &Cluster<'_>, out: &mut Vec<char>| {
            out.extend(cluster.folded());
        });
        // Twice, so that the second pass reads from the cache.
        for _ in 0..2 {
            for cluster in Clusters::new(text) {
                let direct: Vec<char> = cluster.folded().collect();
                assert_eq!(cache.get(&cluster), direct.as_slice(), "{:?}", cluster.text);
            }
        }
    }

    #[test]
    fn marks_are_stripped_to_the_base_letter() {
        assert_eq!(strip_marks('é').collect::<String>(), "e");
        assert_eq!(strip_marks('ł').collect::<String>(), "ł");
    }
}
