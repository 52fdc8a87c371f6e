//! A fingerprinting scheme: the keyed hasher and the selector, as one value.
//!
//! Documents are only comparable when fingerprinted alike, and the k of the
//! hasher also says how long a match is: whoever fingerprints documents,
//! masks base code or compares fingerprints takes the same [`Scheme`].

use std::fmt;
use std::sync::Arc;

use crate::{Fingerprint, KGramHasher, Selector, Symbol};

/// How a document's fingerprints are taken: every k-gram hashed with one
/// keyed hasher, some of the hashes kept by one selector.
///
/// Cheap to clone: the selector is shared.
#[derive(Clone)]
pub struct Scheme {
    hasher: KGramHasher,
    selector: Arc<dyn Selector>,
}

impl Scheme {
    /// The scheme of `hasher` and `selector`.
    pub fn new(hasher: KGramHasher, selector: impl Selector + 'static) -> Self {
        Self {
            hasher,
            selector: Arc::new(selector),
        }
    }

    /// The keyed k-gram hasher.
    pub fn hasher(&self) -> &KGramHasher {
        &self.hasher
    }

    /// The selector.
    pub fn selector(&self) -> &dyn Selector {
        &*self.selector
    }

    /// The k-gram length, in symbols.
    pub fn k(&self) -> usize {
        self.hasher.k()
    }

    /// Appends the fingerprints of `symbols` to `out`, in position order.
    pub fn fingerprint(&self, symbols: &[Symbol], out: &mut Vec<Fingerprint>) {
        self.selector.fingerprint(&self.hasher, symbols, out);
    }
}

impl fmt::Debug for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scheme")
            .field("hasher", &self.hasher)
            .field("selector", &self.selector.name())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::Scheme;
    use crate::{KGramHasher, Selector, Winnowing};

    #[test]
    fn a_scheme_fingerprints_as_its_hasher_and_selector_do() {
        let symbols: Vec<u32> = "the quick brown fox jumps over the lazy dog"
            .bytes()
            .map(u32::from)
            .collect();
        let hasher = KGramHasher::new(5, 7);
        let selector = Winnowing::robust(4);
        let mut expected = Vec::new();
        selector.fingerprint(&hasher, &symbols, &mut expected);
        let scheme = Scheme::new(hasher, selector);
        let mut taken = Vec::new();
        scheme.fingerprint(&symbols, &mut taken);
        assert_eq!(taken, expected);
        assert_eq!(scheme.k(), 5);
        assert_eq!(scheme.selector().name(), "robust-winnow");
        assert!(format!("{scheme:?}").contains("robust-winnow"));
    }
}
