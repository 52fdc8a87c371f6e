//! Command-line choice of k, w, the seed and the fingerprint selector.

use clap::Args;
use clap::builder::RangedU64ValueParser;
use copyhound_pipeline::{Selection, SelectorName};

use crate::names::names;

/// k-gram, window and selector options of the commands that select
/// fingerprints.
#[derive(Clone, Debug, Args)]
pub struct SelectionArgs {
    /// Fingerprint selector.
    #[arg(long, value_parser = names!(SelectorName), default_value = SelectorName::default().name())]
    pub selector: SelectorName,
    #[command(flatten)]
    pub kgrams: KgramArgs,
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
            k: self.kgrams.k,
            w: self.kgrams.w,
            seed: self.kgrams.seed,
            p: self.p,
            n: self.n,
        }
    }
}

/// k, w and the seed, shared by every command that winnows.
#[derive(Clone, Debug, Args)]
pub struct KgramArgs {
    /// k-gram length, in symbols (tokens of code; characters, words or
    /// consonants of text). Default: 10 for code; 15 characters, 3 words or
    /// 10 consonants for text.
    #[arg(short, long, value_parser = RangedU64ValueParser::<usize>::new().range(1..=10_000))]
    pub k: Option<usize>,
    /// Winnowing window, in k-grams: any shared run of w + k − 1 symbols
    /// is found. Default: 3 for code (runs of 12 tokens); 6 for characters
    /// (20 letters), 5 for words (7 words), 6 for consonants (15).
    #[arg(short, long, value_parser = RangedU64ValueParser::<usize>::new().range(1..=100_000))]
    pub w: Option<usize>,
    /// Secret key of the hash: the selection is unpredictable without it.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}
