//! [`TextMode::Consonants`](super::TextMode::Consonants): Koala's alphabet.

use super::fold::{Cluster, Clusters, FoldCache, strip_marks};
use crate::NormalizedDocument;

/// One symbol per consonant (Heintze 1996, §5): the text is folded like
/// [`normalize_chars`](super::normalize_chars), accented letters are reduced
/// to their base letter ("ç" → "c"), and only letters that are not vowels are
/// kept. Digits, punctuation and spacing are dropped.
///
/// Vowels are those of the Latin, Greek and Cyrillic alphabets ("y" counts as
/// a consonant, as in Koala's "non-vowel characters"). Letters of scripts
/// without such vowels, such as CJK ideographs, are all kept.
///
/// ```
/// use copyhound_normalize::text::normalize_consonants;
///
/// let doc = normalize_consonants("Façade, 1999!");
/// let kept: String = doc.symbols.iter().map(|&s| char::from_u32(s).unwrap()).collect();
/// assert_eq!(kept, "fcd");
/// assert_eq!(doc.spans[1].range(), 2..4); // the "ç"
/// ```
pub fn normalize_consonants(text: &str) -> NormalizedDocument {
    let mut doc = NormalizedDocument::new();
    doc.symbols.reserve(text.len() / 2);
    doc.spans.reserve(text.len() / 2);
    let mut folds = FoldCache::new(fold_consonants);
    for cluster in Clusters::new(text) {
        if let Some(byte) = cluster.ascii() {
            let lower = byte.to_ascii_lowercase();
            if lower.is_ascii_lowercase() && !is_vowel(char::from(lower)) {
                doc.push(u32::from(lower), cluster.range());
            }
            continue;
        }
        for &consonant in folds.get(&cluster) {
            doc.push(u32::from(consonant), cluster.range());
        }
    }
    doc
}

/// The consonants of a cluster: folded, unaccented, vowels dropped.
fn fold_consonants(cluster: &Cluster<'_>, out: &mut Vec<char>) {
    out.extend(
        cluster
            .folded()
            .flat_map(strip_marks)
            .filter(|&base| base.is_alphabetic() && !is_vowel(base)),
    );
}

/// Whether a folded, unaccented letter is a vowel.
fn is_vowel(c: char) -> bool {
    matches!(
        c,
        // Latin, with the ligatures and the dotless i that have no decomposition.
        'a' | 'e' | 'i' | 'o' | 'u' | 'æ' | 'œ' | 'ø' | 'ı'
        // Greek.
        | 'α' | 'ε' | 'η' | 'ι' | 'ο' | 'υ' | 'ω'
        // Cyrillic.
        | 'а' | 'е' | 'ё' | 'и' | 'о' | 'у' | 'ы' | 'э' | 'ю' | 'я' | 'і' | 'ї' | 'є'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn consonants(text: &str) -> String {
        normalize_consonants(text)
            .symbols
            .iter()
            .map(|&s| char::from_u32(s).unwrap())
            .collect()
    }

    #[test]
    fn keeps_only_consonants_lower_cased() {
        assert_eq!(
            consonants("Scalable Document Fingerprinting"),
            "sclbldcmntfngrprntng"
        );
    }

    #[test]
    fn y_is_kept_digits_are_dropped() {
        assert_eq!(consonants("Tyre 42"), "tyr");
    }

    #[test]
    fn diacritics_fold_to_the_base_letter() {
        assert_eq!(consonants("Dvořák ŠĆŽ"), consonants("Dvorak SCZ"));
        // Decomposed spelling gives the same result.
        assert_eq!(consonants("Dvor\u{30C}a\u{301}k"), "dvrk");
    }

    #[test]
    fn case_folding_expands_sharp_s() {
        assert_eq!(consonants("STRASSE"), consonants("straße"));
    }

    #[test]
    fn greek_and_cyrillic_vowels_are_dropped() {
        assert_eq!(consonants("λόγος"), "λγσ");
        assert_eq!(consonants("Москва"), "мскв");
    }
}
