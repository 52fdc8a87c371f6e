//! From a [`Comparison`] of units to a [`Report`].

use copyhound_index::{
    Comparison, Document, Fragment, PairScore, Role, SymbolRange, Unit, merge_passages,
};

use crate::model::{
    DocumentReport, FragmentReport, Location, PairReport, PairSide, Parameters, PassageReport,
    Problem, Report, SCHEMA_VERSION, Summary, Tool, UnitReport, UnitRole,
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
    /// The result.
    pub comparison: &'a Comparison,
    /// Input that could not be compared.
    pub problems: &'a [Problem],
    /// List only this many pairs (the most similar); `None` for all.
    pub pair_limit: Option<usize>,
}

impl Report {
    /// The report of a comparison.
    ///
    /// # Panics
    /// If `roots` and `units` differ in length or the comparison was not
    /// made from these units.
    pub fn build(input: ReportInput<'_>) -> Self {
        let ReportInput {
            tool,
            parameters,
            units,
            roots,
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
            .iter()
            .map(|pair| pair_report(units, pair, parameters))
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
                matching_pairs: comparison.pairs.len(),
                reported_pairs: pairs.len(),
            },
            units: units
                .iter()
                .zip(roots)
                .zip(&comparison.units)
                .enumerate()
                .map(|(id, ((unit, root), summary))| UnitReport {
                    id,
                    path: unit.name.clone(),
                    root: root.clone(),
                    language: parameters.language.clone(),
                    role: match unit.role {
                        Role::New => UnitRole::New,
                        Role::Old => UnitRole::Old,
                    },
                    group: unit.group.clone(),
                    symbols: summary.symbols,
                    compared_symbols: summary.compared_symbols,
                    base_symbols: summary.base_symbols,
                    documents: unit
                        .documents
                        .iter()
                        .map(|d| DocumentReport {
                            path: d.name.clone(),
                            symbols: d.normalized.len(),
                            fingerprints: d.fingerprints.len(),
                        })
                        .collect(),
                })
                .collect(),
            pairs,
            problems: problems.to_vec(),
        }
    }
}

fn pair_report(units: &[Unit], pair: &PairScore, parameters: &Parameters) -> PairReport {
    let (unit_a, unit_b) = (&units[pair.a], &units[pair.b]);
    let side = |id: usize, unit: &Unit, coverage: &copyhound_index::SideCoverage| PairSide {
        unit: id,
        path: unit.name.clone(),
        coverage: coverage.symbol_share(),
        line_coverage: coverage.line_share(),
        covered_symbols: coverage.covered_symbols,
        covered_lines: coverage.covered_lines,
    };
    PairReport {
        similarity: pair.similarity,
        a: side(pair.a, unit_a, &pair.coverage_a),
        b: side(pair.b, unit_b, &pair.coverage_b),
        shared_fingerprints: pair.shared_fingerprints,
        longest_fragment: pair.longest_fragment,
        total_overlap: pair.total_overlap,
        fragments: pair
            .fragments
            .iter()
            .map(|f| FragmentReport {
                symbols: f.len(),
                a: location(unit_a, f.a),
                b: location(unit_b, f.b),
            })
            .collect(),
        passages: passage_reports(unit_a, unit_b, &pair.fragments, parameters),
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
        bytes: [bytes.start, bytes.end],
        lines: document
            .line_range(range.symbols())
            .map(|(first, last)| [first, last]),
    }
}
