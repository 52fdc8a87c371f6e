//! The settings of a batch comparison, each checked once when it is made,
//! and what they come to for one family: its scheme, its comparison
//! options and the parameters its report states.

use std::path::PathBuf;

use copyhound_fingerprint::Scheme;
use copyhound_index::{CompareOptions, DEFAULT_MAX_PAIRS, MaxOccurrences};
use copyhound_report::{CodeParameters, Parameters};
use regex::Regex;

use crate::{Family, FrontEnd, FrontEndChoice, PipelineError, Selection};

/// How shared symbols count in the similarity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Weighting {
    /// By rarity in the batch (inverse document frequency): code many
    /// units share counts less.
    #[default]
    Rarity,
    /// Every symbol alike.
    Flat,
}

impl Weighting {
    /// Both weightings.
    pub const ALL: [Weighting; 2] = [Weighting::Rarity, Weighting::Flat];

    /// How it counts, in a line of a command's help.
    pub fn description(self) -> &'static str {
        match self {
            Self::Rarity => "By rarity in the batch (inverse document frequency)",
            Self::Flat => "Every symbol alike",
        }
    }

    /// `rarity` or `flat`, as reports name it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Rarity => "rarity",
            Self::Flat => "flat",
        }
    }
}

/// A regular expression over unit names: units with the same match (its
/// first capture group, if it has one) are by the same author or team and
/// are never paired.
#[derive(Clone, Debug)]
pub struct GroupPattern(Regex);

impl GroupPattern {
    /// The pattern `pattern`, which must be a regular expression.
    pub fn new(pattern: &str) -> Result<Self, PipelineError> {
        Regex::new(pattern)
            .map(Self)
            .map_err(PipelineError::InvalidGroup)
    }

    /// The group of the unit called `name`: the first capture group of the
    /// pattern's match, or the whole match; `None` when it does not match.
    pub fn group_of(&self, name: &str) -> Option<String> {
        let captures = self.0.captures(name)?;
        let key = captures.get(1).or_else(|| captures.get(0))?;
        Some(key.as_str().to_string())
    }
}

/// Everything a batch comparison needs besides its inputs.
#[derive(Clone, Debug)]
pub struct CompareSettings {
    /// How files are read.
    pub front_end: FrontEnd,
    /// Which fingerprints are taken.
    pub selection: Selection,
    /// Fingerprints in more units are ignored; in a batch of several
    /// languages, of the units of their language.
    pub max_occurrences: MaxOccurrences,
    /// Pairs sharing fewer distinct fingerprints are not listed.
    pub min_shared: usize,
    /// At most this many pairs of each language are listed: the most
    /// similar.
    pub max_pairs: usize,
    /// Shared runs shorter than this many symbols are neither reported nor
    /// scored; k is the floor.
    pub min_fragment: usize,
    /// How shared symbols count in the similarity.
    pub weighting: Weighting,
    /// Fragments with gaps of at most this many symbols between them are
    /// reported as one passage; `None` for 2k.
    pub merge_gap: Option<usize>,
    /// Fragments that follow each other on both sides with gaps of at most
    /// this many symbols count in the similarity as one stretch, gaps
    /// included; 0 counts only the fragments' own symbols.
    pub score_gap: u32,
    /// Passages matching fewer symbols are not reported; `None` for the
    /// family's default.
    pub min_passage: Option<usize>,
    /// Units of one group are never paired.
    pub group: Option<GroupPattern>,
    /// Pairs less similar than this, in `[0, 1]`, are listed in no output
    /// (the report's summary counts them); 0 lists every pair.
    pub min_similarity: f64,
}

impl Default for CompareSettings {
    /// The command line's defaults.
    fn default() -> Self {
        Self {
            front_end: FrontEnd::new(&FrontEndChoice::default())
                .expect("the default front-end names no language"),
            selection: Selection::default(),
            max_occurrences: MaxOccurrences::Unlimited,
            min_shared: 1,
            max_pairs: DEFAULT_MAX_PAIRS,
            min_fragment: 0,
            weighting: Weighting::Rarity,
            merge_gap: None,
            score_gap: 0,
            min_passage: None,
            group: None,
            min_similarity: 0.0,
        }
    }
}

/// The settings of one family: its defaults filled in.
#[derive(Clone, Debug)]
pub(crate) struct FamilySettings {
    pub family: Family,
    pub scheme: Scheme,
    pub window: usize,
    pub min_passage: usize,
    /// What one symbol is, as the report says it.
    pub symbol: &'static str,
}

impl CompareSettings {
    /// What these settings come to for `family`.
    pub(crate) fn for_family(&self, family: Family) -> FamilySettings {
        let defaults = self.front_end.defaults(family);
        let resolved = self.selection.resolve(defaults);
        FamilySettings {
            family,
            scheme: self.selection.scheme(resolved),
            window: resolved.w,
            min_passage: self.min_passage.unwrap_or(defaults.min_passage),
            symbol: self.front_end.symbol(family),
        }
    }

    /// The options of `family`'s comparison.
    pub(crate) fn compare_options(&self, family: &FamilySettings) -> CompareOptions {
        CompareOptions {
            max_occurrences: self.max_occurrences,
            min_shared: self.min_shared,
            max_pairs: self.max_pairs,
            min_fragment: self.min_fragment,
            rarity_weighting: self.weighting == Weighting::Rarity,
            score_gap: self.score_gap,
            min_similarity: self.min_similarity,
            ..CompareOptions::new(family.scheme.clone())
        }
    }

    /// The parameters the report of `family`'s comparison with `options`
    /// states; `base` are the base paths as given.
    pub(crate) fn parameters(
        &self,
        family: &FamilySettings,
        options: &CompareOptions,
        base: &[PathBuf],
    ) -> Parameters {
        let k = options.scheme.k();
        Parameters {
            language: Some(family.family.name().to_string()),
            k,
            window: family.window,
            seed: self.selection.seed,
            selector: options.scheme.selector().name().to_string(),
            max_occurrences: options.max_occurrences.to_string(),
            base: base.iter().map(|p| p.display().to_string()).collect(),
            min_shared: options.min_shared,
            max_pairs: options.max_pairs,
            min_fragment: options.shortest_fragment(),
            weighting: self.weighting.name().into(),
            merge_gap: self.merge_gap.unwrap_or(2 * k),
            min_passage: family.min_passage,
            symbol: Some(family.symbol.into()),
            languages: Vec::new(),
            code: matches!(family.family, Family::Code(_)).then(|| {
                let code = &self.front_end.load_options().code;
                CodeParameters {
                    level: code.level.name().into(),
                    drop_imports: code.drop_imports,
                    drop_dead_code: code.statements.drop_dead_code,
                    while_loops: code.statements.while_loops,
                    canonical_order: code.statements.canonical_order,
                }
            }),
            score_gap: self.score_gap,
        }
    }
}

/// A number of pairs of at least `MIN`, or `all` (`usize::MAX`), as a
/// user writes it; the error says what is expected.
pub fn parse_pair_count<const MIN: usize>(value: &str) -> Result<usize, String> {
    match value {
        "all" => Ok(usize::MAX),
        n => match n.parse() {
            Ok(n) if n >= MIN => Ok(n),
            _ if MIN == 0 => Err("expected a number of pairs, or `all`".into()),
            _ => Err(format!(
                "expected a number of pairs of at least {MIN}, or `all`"
            )),
        },
    }
}

/// A similarity as a user writes it, a fraction from 0 to 1 (`0.3`) or a
/// percentage (`30%`), as a fraction; the error says what is expected.
pub fn parse_similarity(value: &str) -> Result<f64, String> {
    let (number, scale) = match value.strip_suffix('%') {
        Some(number) => (number, 100.0),
        None => (value, 1.0),
    };
    match number.trim().parse::<f64>() {
        Ok(x) if (0.0..=scale).contains(&x) => Ok(x / scale),
        _ => Err("expected a fraction from 0 to 1 (0.3) or a percentage (30%)".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_the_first_capture_or_the_whole_match() {
        let team = GroupPattern::new(r"^(team\d+)/").unwrap();
        assert_eq!(team.group_of("team7/alice").as_deref(), Some("team7"));
        assert_eq!(team.group_of("solo/bob"), None);
        let whole = GroupPattern::new(r"team\d+").unwrap();
        assert_eq!(whole.group_of("x/team12/y").as_deref(), Some("team12"));
        let error = GroupPattern::new("(").unwrap_err();
        assert_eq!(error.to_string(), "invalid --group pattern");
    }
}
