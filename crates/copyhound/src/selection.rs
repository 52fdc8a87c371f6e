//! Command-line choice of k, w, the seed and the fingerprint selector.

use clap::{Args, ValueEnum};
use copyhound_fingerprint::{
    All, KGramHasher, KoalaParams, KoalaSelector, ModP, SafeModP, Selector, Sketch, SketchParams,
    Smallest, Winnowing,
};

/// The selectors a user can name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum SelectorName {
    /// Winnowing: the rightmost minimum of every window of w hashes.
    Winnow,
    /// Robust winnowing: ties keep the previous window's choice.
    #[default]
    RobustWinnow,
    /// Every hash that is 0 mod p (no guarantee).
    ModP,
    /// 0 mod p, plus every hash after w hashes with none selected.
    SafeModP,
    /// Every k-gram hash (full fingerprinting).
    All,
    /// The n smallest hashes (resemblance sketch).
    Smallest,
    /// Koala's fixed-size search fingerprint of N k-grams with rare
    /// prefixes (N = n × 10).
    Koala,
    /// Ganguly–Veda's two-pass sketch of at most 10 n items: a match of w
    /// k-grams is found with probability ≥ 0.95.
    Sketch,
}

/// k-gram, window and selector options shared by the commands that
/// fingerprint.
#[derive(Clone, Debug, Args)]
pub struct SelectionArgs {
    /// Fingerprint selector.
    #[arg(long, value_enum, default_value_t = SelectorName::default())]
    pub selector: SelectorName,
    /// k-gram length, in symbols (characters of text, tokens of code).
    /// Default: 15 for text, 10 for code.
    #[arg(short, long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub k: Option<u32>,
    /// Winnowing window, in k-grams: any shared run of w + k − 1 symbols
    /// is found. Default: 20 for text, 5 for code.
    #[arg(short, long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub w: Option<u32>,
    /// Secret key of the hash: the selection is unpredictable without it.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Modulus of `mod-p` and `safe-mod-p` [default: (w + 1) / 2 for
    /// mod-p, the density-optimal w / ln w for safe-mod-p].
    #[arg(short, long)]
    pub p: Option<u64>,
    /// Fingerprints kept by `smallest`; Koala's stored size (its search
    /// size is 10 n); the sketch's total size.
    #[arg(short, long, default_value_t = 100)]
    pub n: usize,
}

/// k and w resolved for one kind of document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub k: usize,
    pub w: usize,
}

impl SelectionArgs {
    /// k and w for a document that is code or not.
    pub fn resolve(&self, is_code: bool) -> Resolved {
        // Text: k = 15, w = 20 finds the short runs heavily rewritten copies
        // keep (any shared run of 34 letters), which ranks them; compare's
        // minimum passage length keeps its passage report clean. Code:
        // k = 10, w = 5 ranks every code set better than 15, 10; with rarity
        // weighting (compare's default) the short coincidences between
        // independent solutions it also finds weigh little
        // (docs/EVALUATION.md).
        let (k, w) = if is_code { (10, 5) } else { (15, 20) };
        Resolved {
            k: self.k.map_or(k, |k| k as usize),
            w: self.w.map_or(w, |w| w as usize),
        }
    }

    /// The keyed hasher for k-grams of `k` symbols.
    pub fn hasher(&self, resolved: Resolved) -> KGramHasher {
        KGramHasher::new(resolved.k, self.seed)
    }

    /// The chosen selector.
    pub fn selector(&self, resolved: Resolved) -> Box<dyn Selector> {
        let w = resolved.w;
        match self.selector {
            SelectorName::Winnow => Box::new(Winnowing::new(w)),
            SelectorName::RobustWinnow => Box::new(Winnowing::robust(w)),
            SelectorName::ModP => {
                Box::new(ModP::new(self.p.unwrap_or((w as u64).div_ceil(2)).max(1)))
            }
            SelectorName::SafeModP => Box::new(match self.p {
                Some(p) => SafeModP::new(p.max(1), w),
                None => SafeModP::optimal(w),
            }),
            SelectorName::All => Box::new(All),
            SelectorName::Smallest => Box::new(Smallest::new(self.n)),
            SelectorName::Koala => Box::new(KoalaSelector::new(KoalaParams {
                search_size: self.n.max(1) * 10,
                stored_size: self.n.max(1),
                seed: self.seed,
                ..KoalaParams::default()
            })),
            SelectorName::Sketch => Box::new(Sketch::with_total_size(
                self.n.max(1) * 10,
                SketchParams {
                    window: w,
                    seed: self.seed,
                    ..SketchParams::default()
                },
            )),
        }
    }
}
