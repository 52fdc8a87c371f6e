//! Command-line choice of k, w, the seed and the fingerprint selector.

use clap::{Args, ValueEnum};

use crate::input::TextModeName;
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

/// What the symbols of a document are; each kind has its own default k
/// and w.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// Token classes of source code.
    Code,
    /// Text, normalised in this mode.
    Text(TextModeName),
}

impl SymbolKind {
    /// What one symbol is, as the report says it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Code => "token",
            Self::Text(TextModeName::Chars) => "character",
            Self::Text(TextModeName::Words) => "word",
            Self::Text(TextModeName::Consonants) => "consonant",
        }
    }

    /// The default k and w. Each is measured on the labelled data sets
    /// (docs/EVALUATION.md, "Defaults"):
    /// - code, k = 10, w = 3: any shared run of 12 tokens is found; every
    ///   code set ranks as well or better than with w = 5, and rarity
    ///   weighting keeps the short coincidences of independent solutions
    ///   light;
    /// - characters, k = 15, w = 6: the short runs (20 letters) heavily
    ///   rewritten text keeps rank it, and a window this small keeps the
    ///   ranking nearly the same under every hash key (w = 20 moved
    ///   clough-open's AP by 0.02 between keys); compare's minimum passage
    ///   length keeps its passage report clean;
    /// - words, k = 3, w = 5: 7 words, about the same span of text;
    /// - consonants, k = 10, w = 6: 15 consonants, about 25–30 characters
    ///   (Koala §5), chosen over w = 10 for the same key robustness.
    pub fn default_k_w(self) -> (usize, usize) {
        match self {
            Self::Code => (10, 3),
            Self::Text(TextModeName::Chars) => (15, 6),
            Self::Text(TextModeName::Words) => (3, 5),
            Self::Text(TextModeName::Consonants) => (10, 6),
        }
    }

    /// The shortest passage compare reports by default, in symbols: about
    /// 100 letters of text (a sentence) in any text mode, which on the PAN
    /// text set drops the stray phrases a small k also finds and keeps
    /// every copied passage (docs/EVALUATION.md); every passage of code.
    pub fn default_min_passage(self) -> usize {
        match self {
            Self::Code => 0,
            Self::Text(TextModeName::Chars) => 100,
            Self::Text(TextModeName::Words) => 20,
            Self::Text(TextModeName::Consonants) => 60,
        }
    }
}

/// k and w resolved for one kind of document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub k: usize,
    pub w: usize,
}

impl SelectionArgs {
    /// k and w for a document of this kind: the user's, else its default.
    pub fn resolve(&self, kind: SymbolKind) -> Resolved {
        let (k, w) = kind.default_k_w();
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
