//! Full fingerprinting and the n smallest hashes.

use super::{Fingerprint, KGrams, Selector};

/// Every k-gram hash: full fingerprinting, the reference measure of Koala
/// §3.1 and the most exact (and largest) selection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct All;

impl Selector for All {
    fn name(&self) -> &'static str {
        "all"
    }

    fn select(&self, kgrams: &KGrams<'_>, out: &mut Vec<Fingerprint>) {
        out.extend(
            kgrams
                .hashes
                .iter()
                .enumerate()
                .map(|(i, &h)| Fingerprint::new(h, i)),
        );
    }

    /// Every k-gram is selected: a window of one.
    fn window_guarantee(&self) -> Option<usize> {
        Some(1)
    }
}

/// The `n` smallest distinct hash values of a document (Broder's and
/// Heintze's resemblance sketch, winnowing paper §3.2), each at its first
/// position, reported in position order.
///
/// Two documents' sketches estimate resemblance: the share of the union's n
/// smallest values present in both. No match-length guarantee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Smallest {
    n: usize,
}

impl Smallest {
    /// Keeps at most `n` fingerprints per document.
    pub fn new(n: usize) -> Self {
        Self { n }
    }

    /// The sketch size n.
    pub fn n(&self) -> usize {
        self.n
    }
}

impl Selector for Smallest {
    fn name(&self) -> &'static str {
        "smallest"
    }

    fn select(&self, kgrams: &KGrams<'_>, out: &mut Vec<Fingerprint>) {
        let mut all: Vec<Fingerprint> = kgrams
            .hashes
            .iter()
            .enumerate()
            .map(|(i, &h)| Fingerprint::new(h, i))
            .collect();
        // Sorting by (hash, pos) puts each value's first position first.
        all.sort_unstable();
        all.dedup_by_key(|f| f.hash);
        all.truncate(self.n);
        all.sort_unstable_by_key(|f| f.pos);
        out.extend(all);
    }
}
