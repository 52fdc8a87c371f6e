//! Command-line choice of k, w, the seed and the fingerprint selector.

use clap::Args;
use copyhound_pipeline::{Selection, SelectorName};

use crate::names::parser;

/// k-gram, window and selector options shared by the commands that
/// fingerprint.
#[derive(Clone, Debug, Args)]
pub struct SelectionArgs {
    /// Fingerprint selector.
    #[arg(long, value_parser = parser::<SelectorName>(), default_value = SelectorName::default().name())]
    pub selector: SelectorName,
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
            selector: self.selector,
            k: self.k.map(|k| k as usize),
            w: self.w.map(|w| w as usize),
            seed: self.seed,
            p: self.p,
            n: self.n,
        }
    }
}
