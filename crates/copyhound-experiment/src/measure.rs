//! What the experiments count on a selection: fingerprints, the longest
//! run of k-grams with none, and the windows of w k-grams with none.

use copyhound_fingerprint::{Fingerprint, KGramHasher, KGrams, Selector, Symbol};

/// The fingerprints `selector` picks from `symbols`.
pub fn fingerprints(
    selector: &dyn Selector,
    hasher: &KGramHasher,
    symbols: &[Symbol],
) -> Vec<Fingerprint> {
    let mut out = Vec::new();
    selector.fingerprint(hasher, symbols, &mut out);
    out
}

/// The fingerprints `selector` picks from a bare hash sequence.
pub fn select_hashes(selector: &dyn Selector, hashes: &[u64]) -> Vec<Fingerprint> {
    let mut out = Vec::new();
    selector.select(&KGrams::from_hashes(hashes), &mut out);
    out
}

/// Counts over the selections of many documents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Fingerprints selected.
    pub fingerprints: u64,
    /// k-grams (hashes computed).
    pub kgrams: u64,
    /// The most consecutive k-grams of one document with no fingerprint
    /// among them, counting from and to the document's ends.
    pub longest_run: u64,
    /// Windows of w consecutive k-grams (whole windows only).
    pub windows: u64,
    /// Of those, windows holding no fingerprint: the guarantee failed
    /// there (winnowing §3.1.1).
    pub missed_windows: u64,
}

impl Coverage {
    /// Adds one document of `kgrams` k-grams whose selection is `fps` (in
    /// position order), for windows of `window` k-grams.
    pub fn add(&mut self, fps: &[Fingerprint], kgrams: usize, window: usize) {
        self.fingerprints += fps.len() as u64;
        self.kgrams += kgrams as u64;
        self.windows += (kgrams + 1).saturating_sub(window) as u64;
        let mut run_start = 0usize;
        for f in fps {
            self.close_run(f.pos as usize - run_start, window);
            run_start = f.pos as usize + 1;
        }
        self.close_run(kgrams.saturating_sub(run_start), window);
    }

    /// Counts a run of `run` k-grams with no fingerprint.
    fn close_run(&mut self, run: usize, window: usize) {
        self.longest_run = self.longest_run.max(run as u64);
        // A run of r unselected k-grams holds r - w + 1 whole windows.
        self.missed_windows += (run + 1).saturating_sub(window) as u64;
    }

    /// The counts of two sets of documents together.
    #[must_use]
    pub fn merge(&self, other: &Self) -> Self {
        Self {
            fingerprints: self.fingerprints + other.fingerprints,
            kgrams: self.kgrams + other.kgrams,
            longest_run: self.longest_run.max(other.longest_run),
            windows: self.windows + other.windows,
            missed_windows: self.missed_windows + other.missed_windows,
        }
    }

    /// Fingerprints per k-gram.
    pub fn density(&self) -> f64 {
        self.fingerprints as f64 / self.kgrams.max(1) as f64
    }

    /// Share of whole windows with no fingerprint.
    pub fn missed_share(&self) -> f64 {
        self.missed_windows as f64 / self.windows.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn at(positions: &[u32]) -> Vec<Fingerprint> {
        positions
            .iter()
            .map(|&pos| Fingerprint { hash: 0, pos })
            .collect()
    }

    #[test]
    fn runs_count_the_document_ends() {
        let mut coverage = Coverage::default();
        coverage.add(&at(&[3, 4, 9]), 12, 3);
        // Runs: 0..3 (3), 5..9 (4), 10..12 (2).
        assert_eq!(coverage.longest_run, 4);
        assert_eq!(coverage.windows, 10);
        // Windows of 3 inside the runs: 1 + 2 + 0.
        assert_eq!(coverage.missed_windows, 3);
        let mut empty = Coverage::default();
        empty.add(&[], 7, 3);
        assert_eq!(
            (empty.longest_run, empty.missed_windows, empty.windows),
            (7, 5, 5)
        );
    }

    proptest! {
        /// The run arithmetic equals checking every window.
        #[test]
        fn missed_windows_equal_a_window_by_window_check(
            selected in prop::collection::btree_set(0u32..200, 0..40),
            kgrams in 0usize..200,
            window in 1usize..30,
        ) {
            let positions: Vec<u32> = selected.into_iter().filter(|&p| (p as usize) < kgrams).collect();
            let mut coverage = Coverage::default();
            coverage.add(&at(&positions), kgrams, window);
            let missed = (0..(kgrams + 1).saturating_sub(window))
                .filter(|&start| !positions.iter().any(|&p| (start..start + window).contains(&(p as usize))))
                .count() as u64;
            prop_assert_eq!(coverage.missed_windows, missed);
        }
    }
}
