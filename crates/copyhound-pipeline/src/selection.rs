//! Which fingerprints are taken: the selector, k, w and the hash seed a
//! user chose, made into a [`Scheme`] for one family with its defaults
//! filling in what was not chosen.

use copyhound_fingerprint::{
    All, KGramHasher, KoalaParams, KoalaSelector, ModP, SafeModP, Scheme, Sketch, SketchParams,
    Smallest, Winnowing,
};

use crate::Defaults;

/// The selectors a user can name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
    /// Koala's fixed-size search fingerprint of N = 10 n k-grams with rare
    /// prefixes.
    Koala,
    /// Ganguly–Veda's two-pass sketch of at most 10 n items.
    Sketch,
}

impl SelectorName {
    /// Every selector.
    pub const ALL: [SelectorName; 8] = [
        SelectorName::Winnow,
        SelectorName::RobustWinnow,
        SelectorName::ModP,
        SelectorName::SafeModP,
        SelectorName::All,
        SelectorName::Smallest,
        SelectorName::Koala,
        SelectorName::Sketch,
    ];

    /// The selector's name on the command line and in settings.
    pub fn name(self) -> &'static str {
        match self {
            SelectorName::Winnow => "winnow",
            SelectorName::RobustWinnow => "robust-winnow",
            SelectorName::ModP => "mod-p",
            SelectorName::SafeModP => "safe-mod-p",
            SelectorName::All => "all",
            SelectorName::Smallest => "smallest",
            SelectorName::Koala => "koala",
            SelectorName::Sketch => "sketch",
        }
    }

    /// The selector named `name` ([`SelectorName::name`]), if any.
    pub fn from_name(name: &str) -> Option<SelectorName> {
        SelectorName::ALL.into_iter().find(|s| s.name() == name)
    }

    /// What the selector takes, in a line of a command's help.
    pub fn description(self) -> &'static str {
        match self {
            SelectorName::Winnow => "Winnowing: the rightmost minimum of every window of w hashes",
            SelectorName::RobustWinnow => {
                "Robust winnowing: ties keep the previous window's choice"
            }
            SelectorName::ModP => "Every hash that is 0 mod p (no guarantee)",
            SelectorName::SafeModP => "0 mod p, plus every hash after w hashes with none selected",
            SelectorName::All => "Every k-gram hash (full fingerprinting)",
            SelectorName::Smallest => "The n smallest hashes (resemblance sketch)",
            SelectorName::Koala => {
                "Koala's fixed-size search fingerprint of N k-grams with rare prefixes (N = n × 10)"
            }
            SelectorName::Sketch => {
                "Ganguly–Veda's two-pass sketch of at most 10 n items: a match of w k-grams is \
                 found with probability ≥ 0.95"
            }
        }
    }
}

/// The fingerprint selection a user chose; k and w fall back on each
/// family's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The selector.
    pub selector: SelectorName,
    /// k-gram length in symbols; `None` for the family's default.
    pub k: Option<usize>,
    /// Window in k-grams; `None` for the family's default.
    pub w: Option<usize>,
    /// Secret key of the hash.
    pub seed: u64,
    /// Modulus of `mod-p` and `safe-mod-p`; `None` for (w + 1) / 2 with
    /// mod-p and the density-optimal w / ln w with safe-mod-p.
    pub p: Option<u64>,
    /// Fingerprints kept by `smallest`; Koala's stored size; the sketch's
    /// total size over 10.
    pub n: usize,
}

impl Default for Selection {
    /// Robust winnowing with each family's k and w, seed 0, n = 100.
    fn default() -> Self {
        Self {
            selector: SelectorName::RobustWinnow,
            k: None,
            w: None,
            seed: 0,
            p: None,
            n: 100,
        }
    }
}

/// k and w settled for one family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// k-gram length in symbols.
    pub k: usize,
    /// Window in k-grams.
    pub w: usize,
}

impl Selection {
    /// k and w for a family with `defaults`: the user's, else its own.
    pub fn resolve(&self, defaults: Defaults) -> Resolved {
        Resolved {
            k: self.k.unwrap_or(defaults.k),
            w: self.w.unwrap_or(defaults.w),
        }
    }

    /// The chosen selector over k-grams of `resolved.k` symbols hashed
    /// with the seed.
    pub fn scheme(&self, resolved: Resolved) -> Scheme {
        let hasher = KGramHasher::new(resolved.k, self.seed);
        let w = resolved.w;
        match self.selector {
            SelectorName::Winnow => Scheme::new(hasher, Winnowing::new(w)),
            SelectorName::RobustWinnow => Scheme::new(hasher, Winnowing::robust(w)),
            SelectorName::ModP => Scheme::new(
                hasher,
                ModP::new(self.p.unwrap_or((w as u64).div_ceil(2)).max(1)),
            ),
            SelectorName::SafeModP => Scheme::new(
                hasher,
                match self.p {
                    Some(p) => SafeModP::new(p.max(1), w),
                    None => SafeModP::optimal(w),
                },
            ),
            SelectorName::All => Scheme::new(hasher, All),
            SelectorName::Smallest => Scheme::new(hasher, Smallest::new(self.n)),
            SelectorName::Koala => Scheme::new(
                hasher,
                KoalaSelector::new(KoalaParams {
                    search_size: self.n.max(1) * 10,
                    stored_size: self.n.max(1),
                    seed: self.seed,
                    ..KoalaParams::default()
                }),
            ),
            SelectorName::Sketch => Scheme::new(
                hasher,
                Sketch::with_total_size(
                    self.n.max(1) * 10,
                    SketchParams {
                        window: w,
                        seed: self.seed,
                        ..SketchParams::default()
                    },
                ),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_users_k_and_w_win_over_the_defaults() {
        let defaults = Defaults {
            k: 10,
            w: 3,
            min_passage: 0,
        };
        let chosen = Selection {
            w: Some(7),
            ..Selection::default()
        };
        assert_eq!(chosen.resolve(defaults), Resolved { k: 10, w: 7 });
        let scheme = chosen.scheme(chosen.resolve(defaults));
        assert_eq!(scheme.k(), 10);
        assert_eq!(scheme.selector().name(), "robust-winnow");
    }
}
