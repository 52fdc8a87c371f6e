//! The report model: everything a comparison found, in a form that
//! serialises to versioned JSON and feeds the CSV, table and HTML views.
//!
//! Every number is traceable: a pair's fragments carry symbol, byte and
//! line ranges on both sides, and the parameters that produced them are
//! recorded next to them.

use serde::{Deserialize, Serialize};

/// The version of the JSON schema. Bump it on any change a reader could
/// notice (a renamed or removed field, a changed meaning); adding an
/// optional field is not such a change.
///
/// Version 2 lists the fragments and passages of only some pairs (the
/// most similar, [`Summary::detailed_pairs`] of them): a pair without
/// details has no `fragments` and no `passages` key, and every pair says
/// how many fragments it has in `fragment_count`. Version 1 had both keys
/// in every pair and no `fragment_count`; [`read_json`](crate::read_json)
/// still reads it.
pub const SCHEMA_VERSION: u32 = 2;

/// A whole comparison report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// [`SCHEMA_VERSION`] at the time of writing.
    pub schema_version: u32,
    /// The program that wrote the report.
    pub tool: Tool,
    /// The settings of the comparison.
    pub parameters: Parameters,
    /// Totals of the run.
    pub summary: Summary,
    /// Every unit compared, indexed by [`UnitReport::id`].
    pub units: Vec<UnitReport>,
    /// The reported pairs, most similar first.
    pub pairs: Vec<PairReport>,
    /// Input that could not be compared (unreadable files, unknown
    /// languages…); the rest of the run went on without it.
    pub problems: Vec<Problem>,
}

impl Report {
    /// The language of `pair`, when known: that of its units, since only
    /// units of one language are paired.
    pub fn pair_language(&self, pair: &PairReport) -> Option<&str> {
        self.units.get(pair.a.unit)?.language.as_deref()
    }
}

/// The program that wrote a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tool {
    /// Program name.
    pub name: String,
    /// Program version.
    pub version: String,
}

impl Tool {
    /// copyhound at this build's version (the workspace's one version), as
    /// the command line and the server name themselves in reports.
    pub fn copyhound() -> Self {
        Self {
            name: "copyhound".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }
}

/// The settings a comparison ran with. A batch of several languages is
/// compared one language at a time: then `language` is `None`, the
/// language-dependent settings here are those of the language with most
/// units, and `languages` has each language's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parameters {
    /// Front-end used (`python`, `text`…), or `None` when chosen per file.
    pub language: Option<String>,
    /// k-gram length in symbols.
    pub k: usize,
    /// Winnowing window in k-grams.
    pub window: usize,
    /// Hash seed.
    pub seed: u64,
    /// Fingerprint selector.
    pub selector: String,
    /// The max-occurrence setting as given (`unlimited`, `10`, `25%`).
    pub max_occurrences: String,
    /// Base (template) files whose code was excluded.
    pub base: Vec<String>,
    /// Pairs sharing fewer fingerprints were not scored.
    pub min_shared: usize,
    /// Cap on scored pairs.
    pub max_pairs: usize,
    /// Shorter shared runs, in symbols, were neither reported nor scored.
    #[serde(default)]
    pub min_fragment: usize,
    /// How shared symbols counted in the similarity (`flat`, `rarity`).
    #[serde(default)]
    pub weighting: String,
    /// Fragments following each other on both sides with gaps of at most
    /// this many symbols were reported as one passage.
    #[serde(default)]
    pub merge_gap: usize,
    /// Passages matching fewer symbols were not reported (their fragments
    /// still are, and still count in the similarity): 0 reports every one.
    #[serde(default)]
    pub min_passage: usize,
    /// What one symbol is (`token`, `character`, `word`, `consonant`): the
    /// unit of every count in symbols, such as a pair's longest fragment;
    /// `None` when not known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// In a batch of several languages, the settings of each, most units
    /// first; empty when the batch had one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<LanguageParameters>,
    /// How code was read, when the batch had code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<CodeParameters>,
    /// Fragments following each other on both sides with gaps of at most
    /// this many symbols counted in the similarity as one stretch, gaps
    /// included; 0 counted only the fragments' own symbols.
    #[serde(default)]
    pub score_gap: u32,
}

/// How the code of a batch was read: what the symbols keep of each token,
/// and how statements were normalised before fingerprinting.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "a record of independent switches of the command line, each read on its own"
)]
pub struct CodeParameters {
    /// `exact`, `rename`, `abstract` or `structure`.
    pub level: String,
    /// Import, include and using lines were left out.
    pub drop_imports: bool,
    /// Statements that cannot change what a function does were left out.
    pub drop_dead_code: bool,
    /// Counted loops were read as `while` loops.
    pub while_loops: bool,
    /// Independent statements were put in one canonical order.
    pub canonical_order: bool,
}

/// The settings that depend on the language, for one language of a batch.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LanguageParameters {
    /// `text` or the language of the code.
    pub language: String,
    /// Units of this language.
    pub units: usize,
    /// k-gram length in symbols.
    pub k: usize,
    /// Winnowing window in k-grams.
    pub window: usize,
    /// Shorter shared runs, in symbols, were neither reported nor scored.
    pub min_fragment: usize,
    /// The largest gap, in symbols, inside a passage.
    pub merge_gap: usize,
    /// Passages matching fewer symbols were not reported.
    #[serde(default)]
    pub min_passage: usize,
    /// What one symbol is, as [`Parameters::symbol`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
}

/// Totals of a comparison.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Units compared.
    pub units: usize,
    /// Documents (files) compared.
    pub documents: usize,
    /// Fingerprints of all units.
    pub fingerprints: usize,
    /// Fingerprints dropped as base code.
    pub base_fingerprints: usize,
    /// Distinct fingerprints dropped for being in too many units.
    pub common_fingerprints: usize,
    /// The most units a kept fingerprint could be in (`None`: no limit).
    pub max_units_per_fingerprint: Option<usize>,
    /// Pairs found sharing fingerprints: candidates.
    pub candidate_pairs: usize,
    /// Candidates whose fragments were found and scored (the others could
    /// not be listed, or are counted in [`Self::unlisted`]).
    pub scored_pairs: usize,
    /// Scored pairs with at least one fragment, listed or not.
    pub matching_pairs: usize,
    /// When the listing limit ([`Parameters::max_pairs`] pairs of each
    /// language) left pairs out: how many, down to what similarity, and
    /// whether any of them could be more similar than the listed ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unlisted: Option<Unlisted>,
    /// Pairs less similar than the minimum similarity asked for, not
    /// listed anywhere; `None` when no minimum was asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub below_minimum: Option<BelowMinimum>,
    /// Pairs listed in this report (the top ones when limited).
    pub reported_pairs: usize,
    /// Pairs listed with their fragments and passages: the most similar
    /// ones when not all are.
    pub detailed_pairs: usize,
}

/// The pairs left out for being less similar than asked for.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BelowMinimum {
    /// The minimum similarity, in `[0, 1]`.
    pub min_similarity: f64,
    /// Pairs found and scored whose similarity is below it (of those the
    /// listing limit kept). A candidate whose similarity bound is below it
    /// is not scored, so not counted: a batch whose candidates all fit in
    /// the listing counts every one.
    pub pairs: usize,
}

/// The pairs a comparison found and did not list.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Unlisted {
    /// Pairs found sharing fingerprints and not listed: less similar than
    /// the listed ones, without a fragment, or possibly missing.
    pub pairs: usize,
    /// The similarity of the least similar listed pair (of the language
    /// where it is lowest), when the limit was reached.
    pub lowest_listed_similarity: Option<f64>,
    /// Pairs that could be more similar than the least similar listed one
    /// and are not listed; empty when the listed pairs are exactly those
    /// scoring every pair would rank highest.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub possibly_missing: Vec<MissingPairs>,
}

/// Pairs that may be missing from a listing, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MissingPairs {
    /// Why they were not scored.
    pub reason: MissingReason,
    /// At most this many such pairs; `None` when they were never counted.
    pub pairs: Option<usize>,
    /// None of them is more similar than this.
    pub up_to_similarity: f64,
}

/// Why pairs may be missing from a listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissingReason {
    /// At most a few times the listing limit of candidates are kept for
    /// scoring (raise `--max-pairs` to keep more).
    ScoringLimit,
    /// Fingerprints held by very many units were not counted when pairing
    /// (a pair sharing only those was never found), to bound the work on
    /// large batches.
    WorkBudget,
}

/// Whether a unit is a current or an earlier submission.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitRole {
    /// Current submission.
    New,
    /// Earlier submission (`--old`), never paired with another old one.
    Old,
}

/// Where a unit came from. [`UnitRole`] says whom a unit is paired with;
/// the origin says what it is, for the reader: an earlier submission and
/// a document from an archive are both only paired with new units, but a
/// grader treats them differently. The index knows only whom to pair (its
/// two roles); where a unit came from is the report's to say, so an input
/// with archive documents gives their origin to the report, not a third
/// role to the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitOrigin {
    /// A current submission.
    New,
    /// An earlier submission (`--old`).
    Old,
    /// A document from an archive of earlier work, such as a fingerprint
    /// database; its role is [`UnitRole::Old`].
    Archive,
}

impl UnitOrigin {
    /// The origin of a unit of this role when nothing else is known: the
    /// comparison's input says only new or old.
    pub fn of_role(role: UnitRole) -> Self {
        match role {
            UnitRole::New => Self::New,
            UnitRole::Old => Self::Old,
        }
    }

    /// The origin as the JSON and CSV reports write it.
    pub fn name(self) -> &'static str {
        match self {
            Self::New => "new",
            Self::Old => "old",
            Self::Archive => "archive",
        }
    }
}

/// One compared unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitReport {
    /// Index in [`Report::units`], used by pairs.
    pub id: usize,
    /// The unit's name: its path relative to the input path it came from,
    /// prefixed by the end of that input path when units of several input
    /// paths would otherwise share it (`insert/subm0`, `refactor/subm0`).
    pub path: String,
    /// The input path given on the command line.
    pub root: String,
    /// `text` or the language of the code, when known; only units of one
    /// language are paired.
    #[serde(default)]
    pub language: Option<String>,
    /// New or old.
    pub role: UnitRole,
    /// New, old or from an archive. Reports written before it existed
    /// are read with the origin of their role.
    pub origin: UnitOrigin,
    /// The unit's group (author, team), if any.
    pub group: Option<String>,
    /// All symbols.
    pub symbols: usize,
    /// Symbols that count in scores (outside base code, in documents long
    /// enough to hold a k-gram).
    pub compared_symbols: usize,
    /// Symbols covered by base code.
    pub base_symbols: usize,
    /// The unit's files.
    pub documents: Vec<DocumentReport>,
}

/// One file of a unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentReport {
    /// Path relative to the unit's root input path.
    pub path: String,
    /// Symbols after normalisation.
    pub symbols: usize,
    /// Fingerprints selected.
    pub fingerprints: usize,
}

/// A scored pair of units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairReport {
    /// The symmetric score pairs are ranked by, in `[0, 1]`:
    /// `2·overlap / (compared symbols of a + of b)`.
    pub similarity: f64,
    /// The first unit (its path sorts first).
    pub a: PairSide,
    /// The second unit.
    pub b: PairSide,
    /// Distinct fingerprints the units share.
    pub shared_fingerprints: usize,
    /// Symbols in the longest fragment.
    pub longest_fragment: usize,
    /// Symbols in all fragments.
    pub total_overlap: usize,
    /// Number of fragments, whether or not they are listed.
    pub fragment_count: usize,
    /// The fragments, by position in `a`, when the pair has its details:
    /// `None` (no `fragments` key in JSON) in a report built without
    /// details ([`Report::build_without_details`]) until
    /// [`Report::fill_details`](crate::Report::fill_details) fills them
    /// in, and for the pairs a JSON report lists without details. Always
    /// `Some` together with `passages`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fragments: Option<Vec<FragmentReport>>,
    /// The fragments grouped into passages, when the pair has its
    /// details: chains that follow each other on both sides with small
    /// gaps (noise cuts one copied stretch into several exact fragments),
    /// by position in `a`; only those matching at least
    /// [`Parameters::min_passage`] symbols.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passages: Option<Vec<PassageReport>>,
}

impl PairReport {
    /// Whether the pair's fragments and passages are listed.
    pub fn has_details(&self) -> bool {
        self.fragments.is_some()
    }

    /// The listed fragments: none when the pair has no details.
    pub fn listed_fragments(&self) -> &[FragmentReport] {
        self.fragments.as_deref().unwrap_or_default()
    }

    /// The listed passages: none when the pair has no details.
    pub fn listed_passages(&self) -> &[PassageReport] {
        self.passages.as_deref().unwrap_or_default()
    }

    /// Drops the pair's fragments and passages.
    pub fn remove_details(&mut self) {
        self.fragments = None;
        self.passages = None;
    }
}

/// One unit of a pair and how much of it the pair's fragments cover.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairSide {
    /// The unit's id.
    pub unit: usize,
    /// The unit's path.
    pub path: String,
    /// Share of its compared symbols inside fragments, in `[0, 1]`.
    pub coverage: f64,
    /// Share of its compared lines touched by fragments, when known.
    pub line_coverage: Option<f64>,
    /// Symbols inside fragments.
    pub covered_symbols: usize,
    /// Lines touched by fragments, when known.
    pub covered_lines: Option<usize>,
}

/// An exact match between the two units of a pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FragmentReport {
    /// Symbols on each side.
    pub symbols: u32,
    /// Where it lies in unit `a`.
    pub a: Location,
    /// Where it lies in unit `b`.
    pub b: Location,
}

/// Consecutive fragments that together make one copied stretch. Its
/// ranges run from its first fragment's start to its last one's end, gaps
/// included; only the fragments' symbols are exact matches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassageReport {
    /// Its fragments: `[first, last + 1)` in [`PairReport::fragments`].
    pub fragments: [usize; 2],
    /// Matching symbols (the sum of its fragments).
    pub matched_symbols: u32,
    /// Where it lies in unit `a`.
    pub a: Location,
    /// Where it lies in unit `b`.
    pub b: Location,
}

/// A stretch of one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// Index of the file in its unit's `documents`.
    pub document: usize,
    /// The file's path.
    pub path: String,
    /// Symbol range `[start, end)` in the normalised document.
    pub symbols: [u32; 2],
    /// Byte range `[start, end)` in the file.
    pub bytes: [usize; 2],
    /// First and last line, 1-based and inclusive, when known.
    pub lines: Option<[u32; 2]>,
    /// In a notebook, the cells of the first and last line and those
    /// lines counted within their cells; `None` (no key in JSON) in other
    /// files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notebook: Option<CellLocation>,
}

/// Where a stretch of a notebook is, in its cells. A notebook's text (what
/// [`Location::lines`] and [`Location::bytes`] count in) is its cells read
/// one after another, each after a comment line that names it (`# %% cell
/// 3`); here its first line is line 1 of its cell, and that comment line
/// is line 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellLocation {
    /// The cells of the first and last line, 1-based as Jupyter numbers
    /// the notebook's cells (those not compared count too).
    pub cells: [u32; 2],
    /// The first line within the first cell and the last line within the
    /// last cell, 1-based and inclusive.
    pub lines: [u32; 2],
}

impl From<copyhound_source::CellRange> for CellLocation {
    fn from(range: copyhound_source::CellRange) -> Self {
        Self {
            cells: [range.first.cell, range.last.cell],
            lines: [range.first.line, range.last.line],
        }
    }
}

/// Input that was not compared, or not as a whole.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// The file, unit or directory.
    pub path: String,
    /// What went wrong, starting with the path.
    pub message: String,
    /// What kind of problem it is. Reports written before it existed are
    /// read as `unreadable`.
    #[serde(default)]
    pub kind: ProblemKind,
}

/// What kind of problem a [`Problem`] is: whether some input could not be
/// read at all, or was read and left out or found too small to check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// A file that could not be read, decoded or extracted, a directory
    /// that could not be listed, an archive entry refused.
    #[default]
    Unreadable,
    /// Read, but left out: another language than its unit, no other unit
    /// of its language, a symbolic link not followed.
    Skipped,
    /// A file that is empty or gives no symbols.
    Empty,
    /// A unit with fewer symbols than the shortest shared run that is
    /// sure to be found (w + k − 1), or with no fingerprint: a copy of it
    /// may go unseen.
    TooShort,
}

impl ProblemKind {
    /// The kind as the JSON report writes it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Unreadable => "unreadable",
            Self::Skipped => "skipped",
            Self::Empty => "empty",
            Self::TooShort => "too_short",
        }
    }
}
