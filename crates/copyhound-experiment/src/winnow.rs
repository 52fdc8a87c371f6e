//! The winnowing settings three experiments share (density, gaps, zipf),
//! by default the paper's: k = 50, w = 100, seed 2003.

use copyhound_fingerprint::KGramHasher;

/// k, w and the seed of a winnowing experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct WinnowSettings {
    /// k-gram length (the paper: 50).
    #[cfg_attr(feature = "clap", arg(short, long, default_value_t = Self::PAPER.k))]
    pub k: usize,
    /// Winnowing window, in k-grams (the paper: 100).
    #[cfg_attr(feature = "clap", arg(short, long, default_value_t = Self::PAPER.w))]
    pub w: usize,
    /// Seed of the hash and of the generated inputs.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = Self::PAPER.seed))]
    pub seed: u64,
}

impl WinnowSettings {
    /// The winnowing paper's settings (§5.1).
    pub const PAPER: Self = Self {
        k: 50,
        w: 100,
        seed: 2003,
    };

    /// The k-gram hasher and the window, each at least 1.
    pub(crate) fn hasher_and_window(&self) -> (KGramHasher, usize) {
        (KGramHasher::new(self.k.max(1), self.seed), self.w.max(1))
    }
}

impl Default for WinnowSettings {
    fn default() -> Self {
        Self::PAPER
    }
}
