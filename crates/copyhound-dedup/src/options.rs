//! The settings of a deduplication run, checked once when a [`Scheme`] is
//! made from them.
//!
//! [`Scheme`]: crate::Scheme

use copyhound_normalize::TextMode;

use crate::DedupError;

/// What a deduplication run finds and how.
#[derive(Clone, Debug, PartialEq)]
pub struct DedupOptions {
    /// How text becomes symbols (`chars` by default).
    pub text_mode: TextMode,
    /// k-gram length, in symbols.
    pub k: usize,
    /// Robust-winnowing window of the pair scores: the fragments of a pair
    /// are those `compare` finds with the same k and window.
    pub window: usize,
    /// Robust-winnowing window of the candidate fingerprints: a run of
    /// `k + n * index_window - 1` symbols two documents share holds at
    /// least `n` fingerprints both select. Larger than `window`, so the
    /// index is a few times smaller than a comparison's.
    pub index_window: usize,
    /// Two documents are a candidate pair, and scored, only when they
    /// share at least this many distinct candidate fingerprints: one
    /// shared common phrase pairs nothing.
    pub min_shared_fingerprints: usize,
    /// Secret key of the k-gram hash.
    pub seed: u64,
    /// A candidate fingerprint found in more documents than this is
    /// dropped: it pairs nothing (MOSS's `-m`).
    pub max_documents_per_hash: usize,
    /// A pair is listed when it shares a passage of at least this many
    /// symbols (in fragments), whatever its similarity.
    pub min_passage: usize,
    /// Fragments at most this many symbols apart on both sides are one
    /// passage.
    pub merge_gap: usize,
    /// Pairs at least this similar join one cluster of near-duplicates.
    pub min_similarity: f64,
}

/// A caller's settings before defaults: each `None` is left to the text
/// mode's default, the candidate window to [`DedupOptions::index_window_for`]
/// and the merge gap to 2 k — what the command line and the Python
/// package both turn into [`DedupOptions`] ([`Self::options`]).
///
/// With the feature `clap`, these are the options of `copyhound dedup`,
/// except the text mode, k, the window and the seed, which the command
/// shares with the others and sets itself.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct DedupChoices {
    /// How text becomes symbols.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub text_mode: TextMode,
    /// k-gram length, in symbols.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub k: Option<usize>,
    /// Robust-winnowing window of the pair scores.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub window: Option<usize>,
    /// Winnowing window of the candidate fingerprints [default: the widest
    /// that puts N of them in every passage of minimum length].
    #[cfg_attr(feature = "clap", arg(long, value_name = "W", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000)))]
    pub index_window: Option<usize>,
    /// Score a pair only when it shares at least N distinct candidate
    /// fingerprints.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", default_value_t = crate::DEFAULT_MIN_SHARED_FINGERPRINTS))]
    pub min_shared_fingerprints: usize,
    /// Secret key of the k-gram hash.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub seed: u64,
    /// Drop candidate fingerprints in more than this many documents.
    #[cfg_attr(feature = "clap", arg(short = 'm', long, value_name = "N", default_value_t = crate::DEFAULT_MAX_DOCUMENTS_PER_HASH))]
    pub max_documents_per_hash: usize,
    /// List a pair sharing a passage of this many symbols, whatever its
    /// similarity [default: 100 characters, 20 words, 60 consonants].
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub min_passage: Option<usize>,
    /// Fragments at most this many symbols apart on both sides are one
    /// passage [default: 2 k].
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub merge_gap: Option<usize>,
    /// Pairs at least this similar are near-duplicates: one cluster, of
    /// which the smallest id is kept.
    #[cfg_attr(feature = "clap", arg(long, value_name = "S", default_value_t = crate::DEFAULT_MIN_SIMILARITY))]
    pub min_similarity: f64,
}

impl DedupChoices {
    /// The settings these choices make, defaults filled in.
    pub fn options(&self) -> DedupOptions {
        let defaults = DedupOptions::for_mode(self.text_mode);
        let k = self.k.unwrap_or(defaults.k);
        let min_passage = self.min_passage.unwrap_or(defaults.min_passage);
        DedupOptions {
            k,
            window: self.window.unwrap_or(defaults.window),
            index_window: self.index_window.unwrap_or_else(|| {
                DedupOptions::index_window_for(k, min_passage, self.min_shared_fingerprints)
            }),
            min_shared_fingerprints: self.min_shared_fingerprints,
            seed: self.seed,
            max_documents_per_hash: self.max_documents_per_hash,
            min_passage,
            merge_gap: self.merge_gap.unwrap_or(2 * k),
            min_similarity: self.min_similarity,
            ..defaults
        }
    }
}

impl DedupOptions {
    /// The defaults for `mode`.
    ///
    /// k, the scoring window and the minimum passage are `compare`'s for
    /// text (measured on the labelled text sets, docs/EVALUATION.md): a
    /// pair's similarity is the one `compare --weighting flat` gives. The
    /// candidate window is the widest that still makes any shared run of
    /// the minimum passage's length hold [`DEFAULT_MIN_SHARED_FINGERPRINTS`]
    /// shared candidate fingerprints ([`Self::index_window_for`]).
    pub fn for_mode(mode: TextMode) -> Self {
        let (k, window, min_passage) = match mode {
            TextMode::Chars => (15, 6, 100),
            TextMode::Words => (3, 5, 20),
            TextMode::Consonants => (10, 6, 60),
        };
        Self {
            text_mode: mode,
            k,
            window,
            index_window: Self::index_window_for(k, min_passage, DEFAULT_MIN_SHARED_FINGERPRINTS),
            min_shared_fingerprints: DEFAULT_MIN_SHARED_FINGERPRINTS,
            seed: 0,
            max_documents_per_hash: DEFAULT_MAX_DOCUMENTS_PER_HASH,
            min_passage,
            merge_gap: 2 * k,
            min_similarity: DEFAULT_MIN_SIMILARITY,
        }
    }

    /// The widest candidate window with `k + min_shared * index_window -
    /// 1` at most `min_passage` (at least 1): winnowing selects the
    /// smallest hash of every window of `index_window` k-grams, so a run
    /// of `min_passage` symbols two documents share holds `min_shared`
    /// disjoint windows, each giving a fingerprint both documents select.
    pub fn index_window_for(k: usize, min_passage: usize, min_shared: usize) -> usize {
        ((min_passage + 1).saturating_sub(k) / min_shared.max(1)).max(1)
    }

    /// Checks every setting.
    pub fn validate(&self) -> Result<(), DedupError> {
        let bad = |message: String| Err(DedupError::Setting(message));
        if self.k == 0 || self.window == 0 || self.index_window == 0 {
            return bad(format!(
                "k ({}), the window ({}) and the index window ({}) must be at least 1",
                self.k, self.window, self.index_window
            ));
        }
        if self.min_shared_fingerprints == 0 {
            return bad("the fingerprints a candidate pair shares must be at least 1".to_owned());
        }
        if self.max_documents_per_hash < 2 {
            return bad(format!(
                "the most documents a fingerprint may be in ({}) must be at least 2 to pair any",
                self.max_documents_per_hash
            ));
        }
        if !(0.0..=1.0).contains(&self.min_similarity) {
            return bad(format!(
                "the minimum similarity ({}) must be in [0, 1]",
                self.min_similarity
            ));
        }
        if u32::try_from(self.merge_gap).is_err() {
            return bad(format!("the merge gap ({}) is too large", self.merge_gap));
        }
        Ok(())
    }
}

impl Default for DedupOptions {
    fn default() -> Self {
        Self::for_mode(TextMode::Chars)
    }
}

/// The default of [`DedupOptions::max_documents_per_hash`].
pub const DEFAULT_MAX_DOCUMENTS_PER_HASH: usize = 100;

/// The default of [`DedupOptions::min_shared_fingerprints`].
pub const DEFAULT_MIN_SHARED_FINGERPRINTS: usize = 3;

/// The default of [`DedupOptions::min_similarity`].
pub const DEFAULT_MIN_SIMILARITY: f64 = 0.8;
