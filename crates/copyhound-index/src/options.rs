//! The knobs of a comparison.

use std::fmt;
use std::str::FromStr;

use std::sync::Arc;

use copyhound_fingerprint::Scheme;

use crate::{CompareError, UnitsElsewhere};

/// How many units a fingerprint may appear in before it is ignored (the
/// `-m` of MOSS): code every submission shares — the assignment's
/// skeleton, common idioms — says nothing about copying between two of them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum MaxOccurrences {
    /// Keep every fingerprint.
    #[default]
    Unlimited,
    /// Ignore fingerprints present in more than this many units (at least 2).
    Count(usize),
    /// Ignore fingerprints present in more than this share of the units
    /// (in `(0, 1]`).
    Fraction(f64),
}

impl MaxOccurrences {
    /// The largest number of distinct units a kept fingerprint may be in,
    /// for a batch of `units` units.
    ///
    /// A fraction never yields less than 2: a limit of 1 would ignore every
    /// fingerprint two units share, and so every pair.
    pub fn limit(self, units: usize) -> usize {
        match self {
            Self::Unlimited => usize::MAX,
            Self::Count(n) => n,
            Self::Fraction(f) => ((f * units as f64).floor() as usize).max(2),
        }
    }

    /// Checks that the limit can keep any pair at all.
    pub fn validate(self) -> Result<Self, CompareError> {
        match self {
            Self::Count(n) if n < 2 => Err(CompareError::InvalidMaxOccurrences(format!(
                "{n}: a fingerprint must be allowed in at least 2 units to pair them"
            ))),
            Self::Fraction(f) if !(f > 0.0 && f <= 1.0) => Err(
                CompareError::InvalidMaxOccurrences(format!("{f}: a fraction must be in (0, 1]")),
            ),
            other => Ok(other),
        }
    }
}

impl FromStr for MaxOccurrences {
    type Err = CompareError;

    /// `10` is a count; `0.25` or `25%` a share of the units.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let invalid = || {
            CompareError::InvalidMaxOccurrences(format!(
                "`{s}`: expected a whole number of units (e.g. 10), a fraction (0.25) or a percentage (25%)"
            ))
        };
        let parsed = if let Some(percent) = s.strip_suffix('%') {
            Self::Fraction(percent.trim().parse::<f64>().map_err(|_| invalid())? / 100.0)
        } else if s.contains('.') {
            Self::Fraction(s.parse().map_err(|_| invalid())?)
        } else {
            Self::Count(s.parse().map_err(|_| invalid())?)
        };
        parsed.validate()
    }
}

impl fmt::Display for MaxOccurrences {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unlimited => f.write_str("unlimited"),
            Self::Count(n) => write!(f, "{n}"),
            Self::Fraction(x) => write!(f, "{}%", x * 100.0),
        }
    }
}

/// Default number of pairs listed: the most similar.
pub const DEFAULT_MAX_PAIRS: usize = 100_000;

/// Candidates kept for scoring per pair listed ([`CompareOptions::max_pairs`]).
pub const SCORED_PER_LISTED: usize = 4;

/// By default, at most this many more counting passes look for candidates
/// that the cap of the first ([`SCORED_PER_LISTED`] per listed pair) left
/// out and that could still be listed, each keeping a cap of them, best
/// bound first ([`CompareOptions::extra_passes`]). They run only when that
/// many caps can hold every such candidate, so that a batch where far more
/// could be listed (bounds far looser than the scores: a plain comparison
/// of 100,000 similar files) is not counted again for nothing. Twenty make
/// a batch of 300 checked against 1,000,000 archived files with `-m 1%`
/// exact (6.4 million candidates could still be listed, 16 caps). A later
/// pass keeps up to four caps at once, so fewer passes run than caps are
/// needed.
pub const EXTRA_PASSES: usize = 20;

/// Everything a comparison needs besides its input.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// The scheme the documents were fingerprinted with: its k is the
    /// shortest match a fragment may be, and base code is hashed with it.
    pub scheme: Scheme,
    /// The common-fingerprint filter.
    pub max_occurrences: MaxOccurrences,
    /// Pairs sharing fewer distinct fingerprints are not listed.
    pub min_shared: usize,
    /// At most this many pairs are listed: those full scoring would rank
    /// highest. Candidates are scored in order of an upper bound of their
    /// similarity until none left can beat the last listed pair; at most
    /// [`SCORED_PER_LISTED`] times this many are kept for scoring, which
    /// bounds memory and time whatever the number of units (the
    /// [`crate::Comparison`] says when that left pairs open).
    pub max_pairs: usize,
    /// The window of the guarantee of the selector the documents were
    /// fingerprinted with
    /// ([`copyhound_fingerprint::Selector::window_guarantee`]): with it, a
    /// pair's similarity is bounded before its fragments are found, and
    /// pairs that cannot be listed are not scored. `None`: candidates are
    /// still ranked, but every one kept is scored.
    pub window_guarantee: Option<usize>,
    /// Fragments shorter than this many symbols are neither reported nor
    /// scored (k is the floor: no fragment is shorter than its k-gram; see
    /// [`shortest_fragment`](Self::shortest_fragment)).
    pub min_fragment: usize,
    /// Weigh each symbol by how rare its fingerprints are in the batch, so
    /// code many units share counts less (see the `rarity` module).
    pub rarity_weighting: bool,
    /// Fragments that follow each other on both sides with gaps of at most
    /// this many symbols (the chains [`crate::merge_passages`] makes) count
    /// in the similarity as one stretch, gaps included: a copy cut into
    /// pieces by inserted or edited statements counts as the stretch it
    /// is. 0: only the fragments' own symbols count.
    pub score_gap: u32,
    /// At most this many extra counting passes ([`EXTRA_PASSES`] by
    /// default); 0: the listing is exact only when the first pass's cap
    /// held every candidate that could be listed.
    pub extra_passes: usize,
    /// Pairs less similar than this are not wanted (a fraction, 0 by
    /// default): a candidate whose bound is below it is neither scored nor
    /// counted as possibly missing, so a listing of the pairs at or above
    /// it can be exact where the whole listing could not. Pairs below it
    /// that were scored are still listed; the caller drops them.
    pub min_similarity: f64,
    /// Units not compared whose fingerprints still count, as if they were
    /// in the batch, in rarity weights and the max-occurrences limit (the
    /// rest of an archive); none by default.
    pub elsewhere: Arc<UnitsElsewhere>,
}

impl CompareOptions {
    /// Defaults: no occurrence limit, pairs sharing at least one
    /// fingerprint, at most [`DEFAULT_MAX_PAIRS`] pairs, the window
    /// guarantee of the scheme's selector, every fragment of at least k
    /// symbols, no rarity weighting, only fragments' own symbols in the
    /// similarity.
    pub fn new(scheme: Scheme) -> Self {
        Self {
            window_guarantee: scheme.selector().window_guarantee(),
            scheme,
            max_occurrences: MaxOccurrences::Unlimited,
            min_shared: 1,
            max_pairs: DEFAULT_MAX_PAIRS,
            min_fragment: 0,
            rarity_weighting: false,
            score_gap: 0,
            extra_passes: EXTRA_PASSES,
            min_similarity: 0.0,
            elsewhere: Arc::default(),
        }
    }

    /// The shortest fragment reported and scored, in symbols:
    /// [`min_fragment`](Self::min_fragment), and never less than k.
    pub fn shortest_fragment(&self) -> usize {
        self.min_fragment.max(self.scheme.k())
    }
}

#[cfg(test)]
mod tests {
    use super::MaxOccurrences;

    #[test]
    fn counts_fractions_and_percentages_parse() {
        assert_eq!(
            "10".parse::<MaxOccurrences>().unwrap(),
            MaxOccurrences::Count(10)
        );
        assert_eq!(
            "0.5".parse::<MaxOccurrences>().unwrap(),
            MaxOccurrences::Fraction(0.5)
        );
        assert_eq!(
            "25%".parse::<MaxOccurrences>().unwrap(),
            MaxOccurrences::Fraction(0.25)
        );
        assert!("1".parse::<MaxOccurrences>().is_err());
        assert!("1.5".parse::<MaxOccurrences>().is_err());
        assert!("many".parse::<MaxOccurrences>().is_err());
    }

    #[test]
    fn a_fraction_limit_scales_with_the_batch() {
        assert_eq!(MaxOccurrences::Fraction(0.5).limit(10), 5);
        assert_eq!(MaxOccurrences::Fraction(0.1).limit(5), 2);
        assert_eq!(MaxOccurrences::Count(3).limit(100), 3);
    }
}
