//! From a [`Comparison`] of units to a [`Report`].
//!
//! A comparison keeps only the scores of its pairs; their fragments and
//! passages are found again on demand ([`PairDetails`]). A report is built
//! either complete ([`Report::build`]) or with the scores only
//! ([`Report::build_without_details`]), which is what the CSV and the
//! table need: the JSON writer then finds the details of the most similar
//! pairs as it writes each, and [`Report::fill_details`] those of the
//! pairs the HTML page embeds, so memory stays bounded however many pairs
//! were scored.

use copyhound_index::{
    Comparison, Document, Fragment, Omitted, PairScore, Role, SymbolRange, Unit, UnitSummary,
    merge_passages,
};
use rayon::prelude::*;

use crate::model::{
    DocumentReport, FragmentReport, Location, MissingPairs, MissingReason, PairReport, PairSide,
    Parameters, PassageReport, Problem, Report, SCHEMA_VERSION, Summary, Tool, UnitOrigin,
    UnitReport, UnitRole, Unlisted,
};

/// What a report is made from.
#[derive(Clone, Copy, Debug)]
pub struct ReportInput<'a> {
    /// The program writing the report.
    pub tool: &'a Tool,
    /// The settings of the comparison.
    pub parameters: &'a Parameters,
    /// The compared units; their names are their paths relative to their
    /// input path.
    pub units: &'a [Unit],
    /// The input path each unit came from (same order as `units`).
    pub roots: &'a [String],
    /// Where each unit came from (same order as `units`); `None`: as its
    /// role says.
    pub origins: Option<&'a [UnitOrigin]>,
    /// The result.
    pub comparison: &'a Comparison,
    /// Input that could not be compared.
    pub problems: &'a [Problem],
    /// List only this many pairs (the most similar); `None` for all.
    pub pair_limit: Option<usize>,
}

impl Report {
    /// The complete report of a comparison: every listed pair with its
    /// fragments and passages.
    ///
    /// # Panics
    /// If `roots` and `units` differ in length or the comparison was not
    /// made from these units.
    pub fn build(input: ReportInput<'_>) -> Self {
        let mut report = Self::build_without_details(input);
        report.fill_details(&PairDetails::new(&input), usize::MAX);
        report
    }

    /// Fills in the fragments and passages of the `count` most similar
    /// pairs (all of them if there are fewer) from `details`, those of the
    /// comparisons the report was built from, and counts the pairs that
    /// have details in [`Summary::detailed_pairs`].
    ///
    /// # Panics
    /// If a pair is not one of the comparisons' units.
    pub fn fill_details(&mut self, details: &PairDetails<'_>, count: usize) {
        let count = count.min(self.pairs.len());
        details.fill(&mut self.pairs[..count]);
        self.summary.detailed_pairs = self.pairs.iter().filter(|p| p.has_details()).count();
    }

    /// The report of a comparison with every listed pair's scores and
    /// fragment count but no fragments or passages: see [`PairDetails`].
    ///
    /// # Panics
    /// As [`Report::build`].
    pub fn build_without_details(input: ReportInput<'_>) -> Self {
        let ReportInput {
            tool,
            parameters,
            units,
            roots,
            origins,
            comparison,
            problems,
            pair_limit,
        } = input;
        assert_eq!(units.len(), roots.len(), "one root per unit");
        assert_eq!(
            units.len(),
            comparison.units.len(),
            "the comparison of these units"
        );
        let listed = pair_limit.unwrap_or(usize::MAX).min(comparison.pairs.len());
        let pairs: Vec<PairReport> = comparison.pairs[..listed]
            .par_iter()
            .map(|pair| pair_summary(units, &comparison.units, pair))
            .collect();
        let index = &comparison.index;
        Self {
            schema_version: SCHEMA_VERSION,
            tool: tool.clone(),
            parameters: parameters.clone(),
            summary: Summary {
                units: units.len(),
                documents: units.iter().map(|u| u.documents.len()).sum(),
                fingerprints: index.fingerprints,
                base_fingerprints: index.base_fingerprints,
                common_fingerprints: index.common_hashes,
                max_units_per_fingerprint: (comparison.max_units_per_fingerprint != usize::MAX)
                    .then_some(comparison.max_units_per_fingerprint),
                candidate_pairs: comparison.candidate_pairs,
                scored_pairs: comparison.scored_pairs,
                matching_pairs: comparison.matching_pairs,
                unlisted: unlisted(&comparison.omitted),
                below_minimum: None,
                reported_pairs: pairs.len(),
                detailed_pairs: 0,
            },
            units: units
                .iter()
                .zip(roots)
                .zip(&comparison.units)
                .enumerate()
                .map(|(id, ((unit, root), summary))| {
                    let role = UnitRole::from(unit.role);
                    UnitReport {
                        id,
                        path: unit.name.clone(),
                        root: root.clone(),
                        language: parameters.language.clone(),
                        role,
                        origin: origins.map_or(UnitOrigin::of_role(role), |o| o[id]),
                        group: unit.group.clone(),
                        symbols: summary.symbols,
                        compared_symbols: summary.compared_symbols,
                        base_symbols: summary.base_symbols,
                        documents: unit
                            .documents
                            .iter()
                            .map(|d| DocumentReport {
                                path: d.name.clone(),
                                symbols: d.len(),
                                fingerprints: d.fingerprint_count(),
                            })
                            .collect(),
                    }
                })
                .collect(),
            pairs,
            problems: problems.to_vec(),
        }
    }
}

impl From<Role> for UnitRole {
    fn from(role: Role) -> Self {
        match role {
            Role::New => Self::New,
            Role::Old => Self::Old,
        }
    }
}

/// Finds the fragments and passages of a report's pairs again, from the
/// comparisons and units the report was built from.
#[derive(Clone, Debug)]
pub struct PairDetails<'a> {
    /// One per comparison, in the order [`Report::merge`] numbers their
    /// units.
    parts: Vec<DetailPart<'a>>,
}

/// The details of the pairs of one comparison, whose units are numbered
/// from `offset` in the report.
#[derive(Clone, Copy, Debug)]
struct DetailPart<'a> {
    offset: usize,
    units: &'a [Unit],
    comparison: &'a Comparison,
    parameters: &'a Parameters,
}

/// Pairs detailed at once by [`PairDetails::fill_chunks`]: enough to keep
/// every core busy, few enough that their fragments take little memory.
const DETAIL_CHUNK: usize = 256;

impl<'a> PairDetails<'a> {
    /// The details of the pairs of a report built from `input`.
    pub fn new(input: &ReportInput<'a>) -> Self {
        Self {
            parts: vec![DetailPart {
                offset: 0,
                units: input.units,
                comparison: input.comparison,
                parameters: input.parameters,
            }],
        }
    }

    /// The details of the report [`Report::merge`] makes of the reports
    /// these details belong to, given in the same order.
    pub fn merge(parts: impl IntoIterator<Item = Self>) -> Self {
        let mut merged = Vec::new();
        let mut offset = 0;
        for details in parts {
            let units: usize = details.parts.iter().map(|p| p.units.len()).sum();
            merged.extend(details.parts.into_iter().map(|part| DetailPart {
                offset: part.offset + offset,
                ..part
            }));
            offset += units;
        }
        Self { parts: merged }
    }

    /// Fills in the fragments and passages of `pairs`, in parallel.
    ///
    /// # Panics
    /// If a pair is not one of the comparison's units.
    pub(crate) fn fill(&self, pairs: &mut [PairReport]) {
        pairs.par_iter_mut().for_each(|pair| self.fill_one(pair));
    }

    /// Calls `each` on the pairs of `pairs`, in order, a chunk at a time,
    /// as copies with their details filled in; those of a chunk are found
    /// in parallel, and only one chunk's fragments are in memory at once.
    ///
    /// # Errors
    /// The first error `each` returns, after which no more pairs are
    /// detailed.
    pub(crate) fn fill_chunks<E>(
        &self,
        pairs: &[PairReport],
        mut each: impl FnMut(&[PairReport]) -> Result<(), E>,
    ) -> Result<(), E> {
        for chunk in pairs.chunks(DETAIL_CHUNK) {
            let mut detailed = chunk.to_vec();
            self.fill(&mut detailed);
            each(&detailed)?;
        }
        Ok(())
    }

    /// Fills in one pair, found in the comparison its units belong to.
    fn fill_one(&self, pair: &mut PairReport) {
        let part = self
            .parts
            .iter()
            .find(|part| (part.offset..part.offset + part.units.len()).contains(&pair.a.unit))
            .expect("a pair of the report's units");
        let (a, b) = (pair.a.unit - part.offset, pair.b.unit - part.offset);
        let fragments = part.comparison.fragments(part.units, a, b);
        debug_assert_eq!(fragments.len(), pair.fragment_count, "the scored fragments");
        let (unit_a, unit_b) = (&part.units[a], &part.units[b]);
        pair.passages = Some(passage_reports(unit_a, unit_b, &fragments, part.parameters));
        pair.fragments = Some(
            fragments
                .iter()
                .map(|f| FragmentReport {
                    symbols: f.len(),
                    a: location(unit_a, f.a),
                    b: location(unit_b, f.b),
                })
                .collect(),
        );
    }
}

/// A pair's scores, without its fragments and passages.
fn pair_summary(units: &[Unit], summaries: &[UnitSummary], pair: &PairScore) -> PairReport {
    let side = |id: usize, coverage: &copyhound_index::SideCoverage| PairSide {
        unit: id,
        path: units[id].name.clone(),
        coverage: coverage.symbol_share(),
        line_coverage: coverage.line_share(),
        covered_symbols: coverage.covered_symbols as usize,
        covered_lines: coverage.covered_lines.map(|n| n as usize),
    };
    PairReport {
        similarity: pair.similarity,
        a: side(pair.a, &pair.coverage_a(summaries)),
        b: side(pair.b, &pair.coverage_b(summaries)),
        shared_fingerprints: pair.shared_fingerprints as usize,
        longest_fragment: pair.longest_fragment as usize,
        total_overlap: pair.total_overlap as usize,
        fragment_count: pair.fragment_count as usize,
        fragments: None,
        passages: None,
    }
}

/// The pair's passages that match at least `min_passage` symbols. The
/// shorter ones are the stray phrases any two texts on one topic share:
/// their fragments count in the similarity (that ranks heavily rewritten
/// copies), but a passage report of them would be mostly false alarms.
fn passage_reports(
    unit_a: &Unit,
    unit_b: &Unit,
    fragments: &[Fragment],
    parameters: &Parameters,
) -> Vec<PassageReport> {
    let max_gap = u32::try_from(parameters.merge_gap).unwrap_or(u32::MAX);
    merge_passages(fragments, max_gap)
        .into_iter()
        .map(|p| PassageReport {
            fragments: [p.fragments.start, p.fragments.end],
            matched_symbols: fragments[p.fragments].iter().map(Fragment::len).sum(),
            a: location(unit_a, p.a),
            b: location(unit_b, p.b),
        })
        .filter(|p| p.matched_symbols as usize >= parameters.min_passage)
        .collect()
}

fn location(unit: &Unit, range: SymbolRange) -> Location {
    let document: &Document = &unit.documents[range.doc as usize];
    let bytes = document.byte_range(range.symbols());
    Location {
        document: range.doc as usize,
        path: document.name.clone(),
        symbols: [range.start, range.end],
        notebook: document
            .lines
            .as_ref()
            .and_then(|lines| lines.cell_range(bytes.clone()))
            .map(Into::into),
        bytes: [bytes.start, bytes.end],
        lines: document.line_range(range.symbols()).map(Into::into),
    }
}

/// What the summary says of the pairs a comparison did not list: nothing
/// when the limit was not reached and nothing could be missing.
fn unlisted(omitted: &Omitted) -> Option<Unlisted> {
    let mut possibly_missing = Vec::new();
    if omitted.open > 0 {
        possibly_missing.push(MissingPairs {
            reason: MissingReason::ScoringLimit,
            pairs: Some(omitted.open),
            up_to_similarity: omitted.open_bound,
        });
    }
    if omitted.uncounted_open() {
        possibly_missing.push(MissingPairs {
            reason: MissingReason::WorkBudget,
            pairs: None,
            up_to_similarity: omitted.uncounted_bound,
        });
    }
    (omitted.lowest_listed.is_some() || !possibly_missing.is_empty()).then_some(Unlisted {
        pairs: omitted.unlisted,
        lowest_listed_similarity: omitted.lowest_listed,
        possibly_missing,
    })
}
