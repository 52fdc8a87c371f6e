//! The parameters of a database, fixed at `init` and stored in it.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use crate::error::{DbError, Result};

/// How documents are fingerprinted and matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Heintze's fixed-size fingerprints: a search set of N k-grams, of which
    /// n are stored; match ratio = hits / n. The default for documents.
    Koala,
    /// Winnowed fingerprints of variable size (one per window of `window`
    /// k-grams), all stored: a small part of a large document is found,
    /// which fixed-size fingerprints cannot do (Heintze §3.5).
    Winnow,
}

impl Mode {
    /// Both modes.
    pub const ALL: [Mode; 2] = [Mode::Koala, Mode::Winnow];

    /// What the mode's fingerprints are, in a line of a command's help.
    pub fn description(self) -> &'static str {
        match self {
            Self::Koala => "Fixed-size fingerprints: N = 1000 searched, n = 100 stored",
            Self::Winnow => {
                "Winnowed fingerprints of variable size: finds small parts of large documents"
            }
        }
    }

    /// The name used on the command line and in the stored parameters.
    pub fn name(self) -> &'static str {
        match self {
            Self::Koala => "koala",
            Self::Winnow => "winnow",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = DbError;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "koala" => Ok(Self::Koala),
            "winnow" => Ok(Self::Winnow),
            _ => Err(DbError::InvalidParameter {
                name: "mode",
                problem: format!("{s:?} is neither koala nor winnow"),
            }),
        }
    }
}

/// Every setting of a database. `Params::default()` is Heintze's baseline
/// (Koala mode); [`Params::winnow`] the winnowing baseline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Koala or winnowing.
    pub mode: Mode,
    /// The secret that keys the k-gram hash and every rank (Koala §3.3).
    pub seed: u64,
    /// k-gram length in symbols. Default 20: Heintze's 20 consonants
    /// (≈ 30–45 characters); with all letters kept, 20 symbols is about four
    /// words.
    pub k: u32,
    /// N, the Koala search fingerprint size. Default 1000.
    pub search_size: u32,
    /// n, the Koala stored fingerprint size. Default 100.
    pub stored_size: u32,
    /// Length of the prefix whose in-document frequency ranks k-grams
    /// (Koala §6.1). Default 5.
    pub prefix: u32,
    /// Winnowing window, in k-grams. Default 30.
    pub window: u32,
    /// Bytes at the start of a document whose k-grams are not selected, in
    /// Koala mode (§6.3, "the first 1000 characters"). Default 1000.
    /// Winnowing mode keeps them: it is meant to find small parts.
    pub prologue_bytes: u32,
    /// At search, a hash held by this many documents or more is common.
    /// Default 4 (Koala §6.2).
    pub common_docs: u32,
    /// At most this many common hashes are ignored per search, so that
    /// registering a document many times cannot hide it. Default 10.
    pub max_ignored: u32,
    /// Bits of each hash kept in the postings. Default 27, one fewer than
    /// Koala's 28: every bit costs 100 bits (12.5 bytes) per document, and
    /// 27 is what keeps a whole database directory under 300 bytes per
    /// document. The price, at a million documents (10^8 postings), is
    /// twice the chance collisions: a 1000-key search meets about 745 random
    /// one-hit documents instead of 370, a document with two chance hits
    /// (2 %) in about one search in four instead of one in fifteen, and
    /// about 7 of the query's keys plus 4 of a registered copy's own keys
    /// (instead of 0.6 and 0.65) held by 4 or more documents by chance and
    /// ignored as common. A verbatim copy still reads 1.0 (ignored keys
    /// leave the stored size too), but on about 96 of its 100 keys instead
    /// of 99. Three chance hits stay below one in ten thousand searches.
    /// Set 28 for Koala's rates.
    pub hash_bits: u32,
    /// Staged documents that trigger writing a segment. Default 4096.
    pub flush_docs: u32,
    /// Segments of one size tier (sizes within a factor 4) that trigger a
    /// merge. Default 4.
    pub merge_factor: u32,
    /// Most live segments before the smallest are merged regardless of
    /// tiers. Every search reads one bucket per segment, so this bounds its
    /// cost while segments accumulate between tier merges. Default 4.
    pub max_segments: u32,
    /// Whether Koala mode keeps each document's print (its search set) so
    /// that [`crate::Database::rotate`] can re-select stored subsets without
    /// the documents. Default false: a database then costs only its
    /// postings and records, and rotation reads every document again
    /// ([`crate::Database::rotate_from_documents`], Koala's way), keeping
    /// the old subset of any document that is gone or has changed. True
    /// adds the kept prints on disk (the keys of the search set, about
    /// 2.3 KB per document at N = 1000)
    /// and slows adding.
    pub keep_prints: bool,
    /// The front-end documents are normalised with, as its command-line name
    /// (`chars`, `words`, `consonants`). The database does not interpret it;
    /// it keeps it so that every add and search normalises alike.
    pub front_end: String,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            mode: Mode::Koala,
            seed: 0,
            k: 20,
            search_size: 1000,
            stored_size: 100,
            prefix: 5,
            window: 30,
            prologue_bytes: 1000,
            common_docs: 4,
            max_ignored: 10,
            hash_bits: 27,
            flush_docs: 4096,
            merge_factor: 4,
            max_segments: 4,
            keep_prints: false,
            front_end: "chars".to_owned(),
        }
    }
}

/// Names and accessors of the numeric parameters, for storage and display.
macro_rules! numeric_params {
    ($($name:ident: $help:literal),* $(,)?) => {
        impl Params {
            /// Every numeric parameter as `(name, what it is)`, in the order
            /// of [`Params::numeric`]: the options of `db init`.
            pub const NUMERIC: [(&'static str, &'static str); [$(stringify!($name)),*].len()] =
                [$((stringify!($name), $help)),*];

            /// Every numeric parameter as `(name, value)`, in a fixed order.
            pub fn numeric(&self) -> Vec<(&'static str, u64)> {
                vec![$((stringify!($name), u64::from(self.$name))),*]
            }

            /// Sets the parameter `name` (`mode`, `seed`, `front_end`, `keep_prints` or a numeric one) from its text.
            pub fn set(&mut self, name: &str, value: &str) -> Result<()> {
                match name {
                    "mode" => self.mode = value.parse()?,
                    "seed" => self.seed = parse_number("seed", value)?,
                    "front_end" => self.front_end = value.to_owned(),
                    "keep_prints" => {
                        self.keep_prints = value.parse().map_err(|_| DbError::InvalidParameter {
                            name: "keep_prints",
                            problem: format!("{value:?} is neither true nor false"),
                        })?;
                    }
                    $(stringify!($name) => {
                        self.$name = parse_number(stringify!($name), value)?;
                    })*
                    _ => {
                        return Err(DbError::InvalidParameter {
                            name: "parameter",
                            problem: format!("unknown parameter {name:?}"),
                        })
                    }
                }
                Ok(())
            }
        }
    };
}

numeric_params!(
    k: "k-gram length in symbols",
    search_size: "Koala search fingerprint size N",
    stored_size: "Koala stored fingerprint size n",
    prefix: "Length of the prefix whose frequency ranks k-grams",
    window: "Winnowing window in k-grams",
    prologue_bytes: "Leading bytes not fingerprinted, Koala mode",
    common_docs: "A hash in this many documents is common",
    max_ignored: "At most this many common hashes ignored per search",
    hash_bits: "Hash bits kept in the postings (28 halves chance hits, +12.5 bytes/document)",
    flush_docs: "Staged documents that trigger writing a segment",
    merge_factor: "Segments of one size that trigger a merge",
    max_segments: "Live segments before the smallest are merged",
);

fn parse_number<T: FromStr>(name: &'static str, value: &str) -> Result<T> {
    value.parse().map_err(|_| DbError::InvalidParameter {
        name,
        problem: format!("{value:?} is not a valid number"),
    })
}

impl Params {
    /// The winnowing baseline: every winnowed fingerprint stored.
    pub fn winnow() -> Self {
        Self {
            mode: Mode::Winnow,
            ..Self::default()
        }
    }

    /// Checks every value against its range.
    pub fn validate(&self) -> Result<()> {
        let check = |ok: bool, name: &'static str, problem: &str| {
            if ok {
                Ok(())
            } else {
                Err(DbError::InvalidParameter {
                    name,
                    problem: problem.to_owned(),
                })
            }
        };
        check(self.k >= 1, "k", "must be at least 1")?;
        check(self.search_size >= 1, "search_size", "must be at least 1")?;
        check(
            (1..=self.search_size).contains(&self.stored_size),
            "stored_size",
            "must be between 1 and search_size",
        )?;
        check(self.window >= 1, "window", "must be at least 1")?;
        check(self.common_docs >= 2, "common_docs", "must be at least 2")?;
        check(
            (16..=48).contains(&self.hash_bits),
            "hash_bits",
            "must be between 16 and 48",
        )?;
        check(self.flush_docs >= 1, "flush_docs", "must be at least 1")?;
        check(self.merge_factor >= 2, "merge_factor", "must be at least 2")?;
        check(self.max_segments >= 1, "max_segments", "must be at least 1")?;
        check(
            !self.front_end.is_empty() && !self.front_end.contains(['\n', '=']),
            "front_end",
            "must be a plain name",
        )
    }

    /// The stored form: one `name=value` line per parameter.
    pub(crate) fn encode(&self) -> String {
        let mut out = format!(
            "mode={}\nseed={}\nfront_end={}\nkeep_prints={}\n",
            self.mode, self.seed, self.front_end, self.keep_prints
        );
        for (name, value) in self.numeric() {
            writeln!(out, "{name}={value}").expect("writing to a String");
        }
        out
    }

    /// Reads [`Params::encode`]'s output; parameters it lacks keep their
    /// defaults (so that later versions can add some).
    pub(crate) fn decode(text: &str) -> Result<Self> {
        let mut params = Self::default();
        for line in text.lines().filter(|l| !l.is_empty()) {
            let (name, value) = line
                .split_once('=')
                .ok_or_else(|| DbError::InvalidParameter {
                    name: "parameter",
                    problem: format!("malformed line {line:?}"),
                })?;
            params.set(name, value)?;
        }
        params.validate()?;
        Ok(params)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_round_trip_through_their_stored_form() {
        let mut params = Params::winnow();
        params.seed = u64::MAX;
        params.hash_bits = 40;
        params.max_ignored = 3;
        params.front_end = "consonants".into();
        params.keep_prints = true;
        assert_eq!(Params::decode(&params.encode()).unwrap(), params);
    }

    #[test]
    fn out_of_range_values_are_refused_by_name() {
        let mut params = Params::default();
        params.set("stored_size", "2000").unwrap();
        let error = params.validate().unwrap_err().to_string();
        assert!(error.contains("stored_size"), "{error}");
        assert!(params.set("colour", "1").is_err());
        assert!(
            params
                .set("k", "twenty")
                .unwrap_err()
                .to_string()
                .contains('k')
        );
    }
}
