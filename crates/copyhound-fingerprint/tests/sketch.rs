//! Ganguly and Veda's sketch: the deterministic space bound (also where
//! winnowing's selection grows with the document), the probabilistic
//! guarantee measured over many planted passages, and the output invariants.

use std::collections::HashSet;

use copyhound_fingerprint::{
    Fingerprint, KGramHasher, KGrams, Selector, Sketch, SketchBudget, SketchParams, Winnowing,
};
use proptest::prelude::*;

/// A deterministic stream of pseudo-random numbers for building documents.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn letters(&mut self, len: usize) -> Vec<u32> {
        (0..len)
            .map(|_| u32::from(b'a') + self.below(26) as u32)
            .collect()
    }
}

fn select(selector: &dyn Selector, hashes: &[u64]) -> Vec<Fingerprint> {
    let mut out = Vec::new();
    selector.select(&KGrams::from_hashes(hashes), &mut out);
    out
}

fn fingerprint(selector: &dyn Selector, hasher: &KGramHasher, symbols: &[u32]) -> Vec<Fingerprint> {
    let mut out = Vec::new();
    selector.fingerprint(hasher, symbols, &mut out);
    out
}

fn budget() -> impl Strategy<Value = SketchBudget> {
    prop_oneof![
        (0usize..3000).prop_map(SketchBudget::SampleSize),
        (0usize..3000).prop_map(SketchBudget::TotalSize),
    ]
}

proptest! {
    #[test]
    fn fingerprints_are_ordered_unique_in_range_and_within_the_bound(
        // Few distinct values make every structure busy.
        hashes in prop::collection::vec(prop_oneof![0u64..20, any::<u64>()], 0..4000),
        window in 1usize..300,
        delta in 0.001f64..0.5,
        budget in budget(),
        seed: u64,
    ) {
        let sketch = Sketch::new(SketchParams { window, delta, budget, seed, ..SketchParams::default() });
        let kept = select(&sketch, &hashes);
        prop_assert!(kept.len() <= sketch.max_items(hashes.len()), "{} > {:?}", kept.len(), sketch.plan(hashes.len()));
        prop_assert!(kept.windows(2).all(|p| p[0].pos < p[1].pos), "sorted, unique positions");
        for f in &kept {
            prop_assert_eq!(hashes[f.pos as usize], f.hash);
        }
        if let SketchBudget::TotalSize(total) = budget {
            prop_assert!(kept.len() <= total);
        }
        prop_assert_eq!(&kept, &select(&sketch, &hashes), "deterministic for a seed");
    }
}

#[test]
fn the_bound_holds_where_winnowing_grows_with_the_document() {
    let total = 1000;
    let sketch = Sketch::with_total_size(total, SketchParams::default());
    let paper = Sketch::new(SketchParams::default());
    let winnowing = Winnowing::robust(100);
    let hasher = KGramHasher::new(20, 4);
    let sizes = [10_000usize, 100_000, 400_000];
    for len in sizes {
        // Crafted: strictly decreasing hashes make every window's minimum
        // its newest hash, so winnowing keeps everything.
        let decreasing: Vec<u64> = (0..len as u64).rev().collect();
        // Low entropy: a period of 37 symbols gives 37 distinct k-grams,
        // and robust winnowing still moves on about every w − 36 positions.
        let periodic: Vec<u32> = (0..len as u32 + 19).map(|i| i % 37).collect();
        let random = Rng(len as u64).letters(len + 19);
        let cases = [
            (
                "decreasing hashes",
                select(&winnowing, &decreasing),
                select(&sketch, &decreasing),
                select(&paper, &decreasing),
            ),
            (
                "periodic text",
                fingerprint(&winnowing, &hasher, &periodic),
                fingerprint(&sketch, &hasher, &periodic),
                fingerprint(&paper, &hasher, &periodic),
            ),
            (
                "random text",
                fingerprint(&winnowing, &hasher, &random),
                fingerprint(&sketch, &hasher, &random),
                fingerprint(&paper, &hasher, &random),
            ),
        ];
        for (input, winnowed, bounded, paper_plan) in cases {
            eprintln!(
                "{input:>17}, m = {len:>6}: robust winnowing w=100 keeps {:>6}; sketch S={total} keeps {:>4}; \
                 paper plan keeps {:>6} of at most {:>6}",
                winnowed.len(),
                bounded.len(),
                paper_plan.len(),
                paper.max_items(len),
            );
            assert!(bounded.len() <= total);
            assert!(paper_plan.len() <= paper.max_items(len));
            if input != "random text" && len == sizes[2] {
                assert!(winnowed.len() > total, "winnowing grows past S on {input}");
            }
        }
    }
}

/// Two random documents with one planted passage of `window + k − 1`
/// symbols (random or periodic); the shared k-grams inside it, and where it
/// starts in each document.
struct PlantedPair {
    a: Vec<u32>,
    b: Vec<u32>,
    a_start: usize,
    b_start: usize,
    passage_kgrams: usize,
}

/// The shape of a planted passage.
#[derive(Clone, Copy, Debug)]
enum Passage {
    /// Random letters; every third trial a repetition of 1–4 letters.
    Mixed,
    /// A repetition of this many random letters: as many distinct k-grams,
    /// each repeated about W/period times.
    Periodic(usize),
}

fn planted_pair(
    rng: &mut Rng,
    len: usize,
    window: usize,
    k: usize,
    period: Option<usize>,
) -> PlantedPair {
    let passage_len = window + k - 1;
    let passage: Vec<u32> = match period {
        Some(period_len) => {
            let period = rng.letters(period_len);
            period.iter().copied().cycle().take(passage_len).collect()
        }
        None => rng.letters(passage_len),
    };
    let plant = |rng: &mut Rng| {
        let mut doc = rng.letters(len);
        let start = rng.below(len - passage_len);
        doc[start..start + passage_len].copy_from_slice(&passage);
        (doc, start)
    };
    let (a, a_start) = plant(rng);
    let (b, b_start) = plant(rng);
    PlantedPair {
        a,
        b,
        a_start,
        b_start,
        passage_kgrams: window,
    }
}

/// Whether some hash is kept by both sketches at a k-gram inside the
/// passage of each document.
fn detected(pair: &PlantedPair, a: &[Fingerprint], b: &[Fingerprint]) -> bool {
    let inside = |kept: &[Fingerprint], start: usize| -> HashSet<u64> {
        kept.iter()
            .filter(|f| (start..start + pair.passage_kgrams).contains(&(f.pos as usize)))
            .map(|f| f.hash)
            .collect()
    };
    !inside(a, pair.a_start).is_disjoint(&inside(b, pair.b_start))
}

/// Runs `trials` planted pairs and returns the share detected.
fn detection_rate(
    trials: u64,
    len: usize,
    k: usize,
    params: SketchParams,
    total: Option<usize>,
    passage: Passage,
) -> f64 {
    let mut found = 0;
    for trial in 0..trials {
        let mut rng = Rng(trial * 7919 + 1);
        let period = match passage {
            Passage::Mixed => (trial % 3 == 0).then(|| 1 + rng.below(4)),
            Passage::Periodic(period) => Some(period),
        };
        let pair = planted_pair(&mut rng, len, params.window, k, period);
        let params = SketchParams {
            seed: trial,
            ..params
        };
        let sketch = match total {
            Some(total) => Sketch::with_total_size(total, params),
            None => Sketch::new(params),
        };
        let hasher = KGramHasher::new(k, trial ^ 0xABCD);
        let a = fingerprint(&sketch, &hasher, &pair.a);
        let b = fingerprint(&sketch, &hasher, &pair.b);
        if detected(&pair, &a, &b) {
            found += 1;
        }
    }
    f64::from(found) / trials as f64
}

#[test]
fn shared_passages_of_w_k_grams_are_found_with_probability_one_minus_delta() {
    let (len, k, window) = (6000, 8, 64);
    let delta = 0.1;
    let params = SketchParams {
        window,
        delta,
        budget: SketchBudget::SampleSize(1024),
        ..SketchParams::default()
    };
    let plan = Sketch::new(params).plan(len - k + 1);
    assert!(
        plan.window_threshold.unwrap() >= 2,
        "a real sample, not full fingerprinting: {plan:?}"
    );
    let rate = detection_rate(300, len, k, params, None, Passage::Mixed);
    eprintln!(
        "paper plan {plan:?}: {:.1}% of planted passages found",
        100.0 * rate
    );
    assert!(rate >= 1.0 - delta, "found only {rate}");
}

#[test]
fn passages_repeating_k_grams_just_below_the_window_threshold_are_found() {
    // The worst case of the analysis: no k-gram of the passage is
    // window-frequent, and it has as few distinct k-grams as that allows,
    // so only the sample can find it. A large s gives k well above 2.
    let (len, k, window) = (6000, 8, 64);
    let delta = 0.1;
    let params = SketchParams {
        window,
        delta,
        budget: SketchBudget::SampleSize(4096),
        ..SketchParams::default()
    };
    let plan = Sketch::new(params).plan(len - k + 1);
    let threshold = plan.window_threshold.unwrap();
    assert!(threshold >= 4, "{plan:?}");
    // A period of P letters gives P distinct k-grams, each repeated about
    // W/P times: take the shortest period that stays below the threshold.
    let period = (2..window)
        .find(|p| window.div_ceil(*p) < threshold)
        .unwrap();
    let rate = detection_rate(300, len, k, params, None, Passage::Periodic(period));
    eprintln!(
        "window threshold {threshold}, period {period}: {:.1}% of planted passages found",
        100.0 * rate
    );
    assert!(rate >= 1.0 - delta, "found only {rate}");
}

#[test]
fn the_total_size_variant_finds_passages_as_its_plan_promises() {
    let (len, k, window) = (6000, 8, 64);
    // The worst case is a passage of few distinct k-grams, each repeated
    // just under the window-frequent threshold; promising 80% against it
    // takes S close to m.
    let total = 5000;
    let params = SketchParams {
        window,
        ..SketchParams::default()
    };
    let plan = Sketch::with_total_size(total, params).plan(len - k + 1);
    let promised = 1.0 - plan.miss_probability();
    let rate = detection_rate(300, len, k, params, Some(total), Passage::Mixed);
    eprintln!(
        "total plan {plan:?}: promises {:.1}%, found {:.1}% of planted passages",
        100.0 * promised,
        100.0 * rate
    );
    assert!(
        promised > 0.8,
        "S = {total} should promise a useful rate: {plan:?}"
    );
    assert!(rate >= promised, "found {rate}, promised {promised}");
}

#[test]
fn extreme_parameters_are_handled() {
    let hashes: Vec<u64> = (0..5000).map(|i| i % 97).collect();
    for budget in [
        SketchBudget::SampleSize(0),
        SketchBudget::SampleSize(usize::MAX),
        SketchBudget::TotalSize(0),
        SketchBudget::TotalSize(usize::MAX),
    ] {
        for window in [1, 4999, 5000, usize::MAX] {
            let sketch = Sketch::new(SketchParams {
                window,
                budget,
                ..SketchParams::default()
            });
            let kept = select(&sketch, &hashes);
            assert!(
                kept.len() <= sketch.max_items(hashes.len()),
                "{budget:?}, W = {window}"
            );
        }
    }
}
