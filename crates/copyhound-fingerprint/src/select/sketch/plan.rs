//! The sizes of the three structures for one document, and the space bound
//! they add up to.

/// How the sketch's parameters translate into sizes for a document of a
/// given number of k-grams.
///
/// Every structure is capped by construction, so [`SketchPlan::max_items`]
/// bounds the number of fingerprints deterministically — whatever the
/// document holds and however the count-sketch errs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SketchPlan {
    /// m, the number of k-grams of the document.
    pub kgrams: usize,
    /// W, the window in k-grams; partitions are 2W long and overlap by W.
    pub window: usize,
    /// s, the capacity of the distinct sample.
    pub sample_size: usize,
    /// L: k-grams whose estimated frequency reaches it are globally frequent.
    /// `None` when the plan has no room for them.
    pub global_threshold: Option<usize>,
    /// At most this many globally frequent k-grams are kept (those with the
    /// highest estimates): ⌊m / L⌋, the most that can truly reach L.
    pub global_capacity: usize,
    /// k = W / t: a k-gram occurring this often inside one partition is
    /// window-frequent there. `None` when the plan has no room for them.
    pub window_threshold: Option<usize>,
    /// At most this many window-frequent entries: Σ over partitions of
    /// ⌊partition length / k⌋, as each one needs k occurrences.
    pub window_capacity: usize,
}

impl SketchPlan {
    /// The deterministic bound on the number of fingerprints:
    /// `s + ⌊m/L⌋ + Σ ⌊|partition| / k⌋`.
    pub fn max_items(&self) -> usize {
        self.sample_size
            .saturating_add(self.global_capacity)
            .saturating_add(self.window_capacity)
    }

    /// The sampling rate the plan reckons with, min(1, s/m).
    pub fn sampling_rate(&self) -> f64 {
        if self.kgrams <= self.sample_size {
            1.0
        } else {
            self.sample_size as f64 / self.kgrams as f64
        }
    }

    /// The planned bound on the probability that a run of W k-grams shared
    /// with a document of a similar plan shares no fingerprint.
    ///
    /// If some k-gram occurs k times in the run, both documents keep it as
    /// window-frequent. Otherwise the run holds at least W/k distinct
    /// k-grams; each is sampled by both documents when its level reaches
    /// both final levels. Dropping whole levels leaves the sample at least
    /// half full, so that happens with probability at least p/2, and the
    /// miss probability is at most (1 − p/2)^(W/k) ≤ exp(−(p/2)·W/k).
    /// With the paper's k = W/t, t = (2/p)·ln(1/δ), that is δ.
    ///
    /// A document that fits its sample (m ≤ s) keeps every k-gram, so its
    /// bound is 0.
    pub fn miss_probability(&self) -> f64 {
        if self.kgrams <= self.sample_size {
            return 0.0;
        }
        match self.window_threshold {
            Some(1) => 0.0,
            Some(k) => {
                let distinct = self.window as f64 / k as f64;
                (-(self.sampling_rate() / 2.0) * distinct).exp().min(1.0)
            }
            // A run may repeat one k-gram, which is sampled at rate p.
            None => 1.0 - self.sampling_rate() / 2.0,
        }
    }

    /// The plan of the paper (§IV.D): sample size `s` given, then
    /// `L = 7s / (16·ln(1/δ))` and `k = W/t` with `t = (2/p)·ln(1/δ)`,
    /// `p = min(1, s/m)`.
    pub(super) fn for_sample_size(
        kgrams: usize,
        window: usize,
        delta: f64,
        sample_size: usize,
    ) -> Self {
        let log = (1.0 / delta).ln();
        let partial = Self {
            kgrams,
            window,
            sample_size,
            global_threshold: None,
            global_capacity: 0,
            window_threshold: None,
            window_capacity: 0,
        };
        let t = 2.0 * log / partial.sampling_rate();
        // The epsilon keeps an exact quotient from rounding down.
        let window_threshold = ((window as f64 / t + 1e-9).floor() as usize).max(1);
        let global_threshold = ((7.0 * sample_size as f64 / (16.0 * log)).ceil() as usize).max(2);
        Self {
            global_threshold: Some(global_threshold),
            global_capacity: kgrams / global_threshold,
            window_threshold: Some(window_threshold),
            window_capacity: window_capacity(kgrams, window, window_threshold),
            ..partial
        }
    }

    /// The paper's future-work variant (§V): one total size S, split here.
    ///
    /// An eighth goes to globally frequent k-grams (L = ⌈m / (S/8)⌉, so
    /// their cap fits). The miss bound depends on the product of the sample
    /// size and the window-frequent budget (p·W/k ∝ s·F), so the rest is
    /// split evenly between them, and k is the smallest threshold whose cap
    /// fits F. The total never exceeds S; how strong the guarantee is then
    /// depends on m, and [`SketchPlan::miss_probability`] says. A document
    /// of at most S k-grams gets all of S as sample, which then keeps every
    /// k-gram at its own positions.
    pub(super) fn for_total_size(kgrams: usize, window: usize, total: usize) -> Self {
        if kgrams <= total {
            return Self {
                kgrams,
                window,
                sample_size: total,
                global_threshold: None,
                global_capacity: 0,
                window_threshold: None,
                window_capacity: 0,
            };
        }
        let global_budget = total / 8;
        let rest = total - global_budget;
        let sample_size = rest.div_ceil(2);
        let window_budget = rest - sample_size;
        let global_threshold = (global_budget > 0).then(|| kgrams.div_ceil(global_budget).max(2));
        let covered: usize = partition_lengths(kgrams, window).sum();
        let window_threshold = (window_budget > 0).then(|| covered.div_ceil(window_budget).max(1));
        Self {
            kgrams,
            window,
            sample_size,
            global_threshold,
            global_capacity: global_threshold.map_or(0, |l| kgrams / l),
            window_threshold,
            window_capacity: window_threshold.map_or(0, |k| window_capacity(kgrams, window, k)),
        }
    }
}

/// Lengths of the partitions `[jW, jW + 2W)` of `kgrams` k-grams.
///
/// Partition j covers blocks j and j+1 of W k-grams, for every block but the
/// last, so every run of W k-grams lies inside one partition; a document of
/// at most two blocks is one partition.
pub(super) fn partition_lengths(kgrams: usize, window: usize) -> impl Iterator<Item = usize> {
    let blocks = kgrams.div_ceil(window);
    let partitions = blocks.saturating_sub(1).max(1);
    (0..partitions).map(move |j| (j + 2).saturating_mul(window).min(kgrams) - j * window)
}

fn window_capacity(kgrams: usize, window: usize, threshold: usize) -> usize {
    partition_lengths(kgrams, window)
        .map(|len| len / threshold)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_cover_every_window() {
        for kgrams in [1, 5, 10, 11, 19, 20, 21, 35, 100] {
            let window = 5;
            let lengths: Vec<usize> = partition_lengths(kgrams, window).collect();
            let ranges: Vec<(usize, usize)> = lengths
                .iter()
                .enumerate()
                .map(|(j, len)| (j * window, j * window + len))
                .collect();
            assert_eq!(ranges.last().unwrap().1, kgrams, "m = {kgrams}");
            for start in 0..=kgrams.saturating_sub(window) {
                let end = (start + window).min(kgrams);
                assert!(
                    ranges.iter().any(|&(a, b)| a <= start && end <= b),
                    "m = {kgrams}: window {start}..{end} in no partition of {ranges:?}"
                );
            }
        }
    }

    #[test]
    fn the_paper_plan_follows_its_formulas() {
        // m = 10 000, W = 100, δ = e^-2, s = 2000: p = 0.2, t = 20, k = 5,
        // L = ⌈7·2000 / 32⌉ = 438.
        let plan = SketchPlan::for_sample_size(10_000, 100, (-2.0f64).exp(), 2000);
        assert_eq!(plan.window_threshold, Some(5));
        assert_eq!(plan.global_threshold, Some(438));
        assert_eq!(plan.global_capacity, 22);
        // 99 partitions of 200 k-grams.
        assert_eq!(plan.window_capacity, 99 * 40);
        let ragged = SketchPlan::for_sample_size(10_050, 100, (-2.0f64).exp(), 2000);
        // 100 partitions: 99 of 200 k-grams and one of 150.
        // p = 2000/10050, so k = ⌊100·2000 / (4·10050)⌋ = 4.
        assert_eq!(ragged.window_threshold, Some(4));
        assert_eq!(ragged.window_capacity, 99 * 50 + 150 / 4);
        assert!((plan.miss_probability() - (-2.0f64).exp()).abs() < 1e-9);
    }

    #[test]
    fn the_total_plan_fits_its_total() {
        for total in [0, 1, 7, 8, 100, 1000, 5000] {
            for kgrams in [0, 1, 50, 999, 10_000, 1_000_000] {
                let plan = SketchPlan::for_total_size(kgrams, 64, total);
                assert!(
                    plan.max_items() <= total,
                    "S = {total}, m = {kgrams}: {plan:?}"
                );
            }
        }
    }

    #[test]
    fn a_document_within_the_total_is_all_sample() {
        let plan = SketchPlan::for_total_size(900, 64, 1000);
        assert_eq!((plan.sample_size, plan.max_items()), (1000, 1000));
        assert!(plan.miss_probability().abs() < f64::EPSILON);
    }

    #[test]
    fn a_bigger_total_gives_a_smaller_miss_bound() {
        let small = SketchPlan::for_total_size(100_000, 100, 2_000);
        let large = SketchPlan::for_total_size(100_000, 100, 20_000);
        assert!(large.miss_probability() < small.miss_probability());
    }
}
