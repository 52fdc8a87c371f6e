//! Command-line choice of k, w, the seed and the fingerprint selector.

use clap::{Args, ValueEnum};
use copyhound_pipeline::{Selection, SelectorName};

/// The selectors a user can name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum SelectorArg {
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
    #[arg(long, value_enum, default_value_t = SelectorArg::default())]
    pub selector: SelectorArg,
    /// k-gram length, in symbols (tokens of code; characters, words or
    /// consonants of text). Default: 10 for code; 15 characters, 3 words or
    /// 10 consonants for text.
    #[arg(short, long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub k: Option<u32>,
    /// Winnowing window, in k-grams: any shared run of w + k − 1 symbols
    /// is found. Default: 3 for code (runs of 12 tokens); 6 for characters
    /// (20 letters), 5 for words (7 words), 6 for consonants (15).
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

impl SelectionArgs {
    /// The selection these options describe.
    pub fn selection(&self) -> Selection {
        Selection {
            selector: match self.selector {
                SelectorArg::Winnow => SelectorName::Winnow,
                SelectorArg::RobustWinnow => SelectorName::RobustWinnow,
                SelectorArg::ModP => SelectorName::ModP,
                SelectorArg::SafeModP => SelectorName::SafeModP,
                SelectorArg::All => SelectorName::All,
                SelectorArg::Smallest => SelectorName::Smallest,
                SelectorArg::Koala => SelectorName::Koala,
                SelectorArg::Sketch => SelectorName::Sketch,
            },
            k: self.k.map(|k| k as usize),
            w: self.w.map(|w| w as usize),
            seed: self.seed,
            p: self.p,
            n: self.n,
        }
    }
}
