//! [`TextMode::Words`](super::TextMode::Words): one symbol per word.

use unicode_segmentation::UnicodeSegmentation;

use super::chars::fold_content;
use super::fold::{Clusters, FoldCache};
use crate::{NormalizedDocument, Symbol};

/// The word-hash key used unless one is configured.
pub const DEFAULT_WORD_KEY: u64 = 0x636f_7079_686f_756e;

/// One symbol per word: the words are the Unicode (UAX #29) word segments
/// that contain a letter or digit; each is folded like
/// [`normalize_chars`](super::normalize_chars) (so "Don't" and "dont" are the
/// same word) and hashed with [`word_symbol`]. The span is the whole word.
///
/// ```
/// use copyhound_normalize::text::{DEFAULT_WORD_KEY, normalize_words, word_symbol};
///
/// let doc = normalize_words("The CAT, the cat.", DEFAULT_WORD_KEY);
/// assert_eq!(doc.len(), 4);
/// assert_eq!(doc.symbols[1], word_symbol("cat", DEFAULT_WORD_KEY));
/// assert_eq!(doc.symbols[1], doc.symbols[3]);
/// assert_eq!(doc.spans[1].range(), 4..7);
/// ```
pub fn normalize_words(text: &str, key: u64) -> NormalizedDocument {
    let mut doc = NormalizedDocument::new();
    let mut folded = String::new();
    let mut folds = FoldCache::new(fold_content);
    for (start, word) in text.unicode_word_indices() {
        folded.clear();
        for cluster in Clusters::new(word) {
            if let Some(byte) = cluster.ascii() {
                if byte.is_ascii_alphanumeric() {
                    folded.push(char::from(byte.to_ascii_lowercase()));
                }
            } else {
                folded.extend(folds.get(&cluster));
            }
        }
        if !folded.is_empty() {
            doc.push(word_symbol(&folded, key), start..start + word.len());
        }
    }
    doc
}

/// The symbol of an already folded word: a keyed 64-bit hash of its UTF-8
/// bytes, cut to the high 32 bits.
///
/// The function is fixed here (not `std`'s hasher, whose algorithm may change
/// between Rust releases) so that stored fingerprints stay valid. 32 bits are
/// plenty: two words of a vocabulary of 50,000 share a symbol with
/// probability about 1/3, and such a collision only merges two words.
pub fn word_symbol(folded_word: &str, key: u64) -> Symbol {
    let bytes = folded_word.as_bytes();
    let mut state = key ^ (bytes.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        state = mix(state ^ u64::from_le_bytes(word));
    }
    (mix(state) >> 32) as Symbol
}

/// The `SplitMix64` finaliser: a bijection whose every output bit depends on
/// every input bit.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_changes_the_symbols() {
        assert_ne!(word_symbol("copy", 1), word_symbol("copy", 2));
    }

    #[test]
    fn words_of_one_chunk_and_padding_differ() {
        // The length is mixed in, so zero padding cannot make words collide.
        assert_ne!(word_symbol("a", 7), word_symbol("a\0", 7));
    }

    #[test]
    fn word_symbols_are_stable() {
        // Stored fingerprints depend on these values never changing.
        assert_eq!(word_symbol("copyhound", DEFAULT_WORD_KEY), 1_404_609_523);
    }
}
