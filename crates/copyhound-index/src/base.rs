//! Base code: the starter template every submission may legitimately
//! contain (MOSS's `-b`).
//!
//! Winnowing §5.2 fingerprints the template and discards matches of its
//! fingerprints. Excluding only the template's *selected* fingerprints is
//! fragile: where a student edits the template, the winnowing windows near
//! the edit pick other k-grams, which would then count as shared. So every
//! k-gram hash of the template is kept here (full fingerprinting), and in
//! each unit every symbol covered by a k-gram also found in the template
//! is masked: fingerprints there are dropped and fragments never extend
//! into it. Untouched parts of an edited template stay excluded.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use copyhound_fingerprint::{KGramHasher, NormalizedDocument, Scheme, Symbol};

use crate::bitset::BitSet;

/// Every k-gram hash of the base documents.
#[derive(Clone, Debug, Default)]
pub struct BaseCode {
    hashes: HashSet<u64, BuildHasherDefault<PassThrough>>,
}

impl BaseCode {
    /// No base code.
    pub fn none() -> Self {
        Self::default()
    }

    /// Every k-gram hash of `documents` under the hasher of `scheme`, the
    /// scheme of the comparison (whatever its selector keeps).
    pub fn new<'a>(
        scheme: &Scheme,
        documents: impl IntoIterator<Item = &'a NormalizedDocument>,
    ) -> Self {
        let mut hashes = HashSet::default();
        for document in documents {
            hashes.extend(scheme.hasher().hashes(&document.symbols));
        }
        Self { hashes }
    }

    /// Whether there is no base code.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// Number of distinct k-gram hashes.
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Whether `hash` is a k-gram of the base code.
    pub fn contains(&self, hash: u64) -> bool {
        self.hashes.contains(&hash)
    }

    /// The symbols of `symbols` covered by a k-gram of the base code, or
    /// `None` when there is no base code.
    pub(crate) fn mask(&self, hasher: &KGramHasher, symbols: &[Symbol]) -> Option<BitSet> {
        if self.is_empty() {
            return None;
        }
        let mut mask = BitSet::new(symbols.len());
        for (i, hash) in hasher.hashes(symbols).into_iter().enumerate() {
            if self.contains(hash) {
                mask.insert_range(i, i + hasher.k());
            }
        }
        Some(mask)
    }
}

/// The k-gram hashes are keyed and finalised, so they are already uniform:
/// hashing them again (`SipHash`) would only cost time.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[cfg(test)]
mod tests {
    use super::BaseCode;
    use copyhound_fingerprint::{All, KGramHasher, NormalizedDocument, Scheme};

    fn doc(symbols: &[u32]) -> NormalizedDocument {
        let mut d = NormalizedDocument::new();
        for (i, &s) in symbols.iter().enumerate() {
            d.push(s, i..i + 1);
        }
        d
    }

    #[test]
    fn template_kgrams_are_masked_even_around_edits() {
        let hasher = KGramHasher::new(3, 1);
        let scheme = Scheme::new(hasher.clone(), All);
        let base = BaseCode::new(&scheme, [&doc(&[1, 2, 3, 4, 5, 6, 7, 8])]);
        // The template with symbol 5 replaced and a new tail.
        let unit = [1, 2, 3, 4, 50, 6, 7, 8, 9, 9, 9];
        let mask = base.mask(&hasher, &unit).unwrap();
        let masked: Vec<usize> = (0..unit.len()).filter(|&i| mask.contains(i)).collect();
        assert_eq!(masked, vec![0, 1, 2, 3, 5, 6, 7]);
        assert!(BaseCode::none().mask(&hasher, &unit).is_none());
    }
}
