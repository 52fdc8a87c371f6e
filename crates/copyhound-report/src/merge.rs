//! One report from the reports of a batch's languages.
//!
//! A batch of Python, Java and C submissions is compared one language at
//! a time, each with its own k-gram length and window; [`Report::merge`]
//! joins their reports so the user gets one list of pairs, one page and
//! one file, with each unit's language said and no pair across languages.

use std::cmp::Ordering;

use crate::model::{LanguageParameters, PairReport, Report, Summary, Unlisted};

impl Report {
    /// The reports of the languages of one batch as one report: units one
    /// language after another (ids renumbered), pairs by similarity,
    /// totals added up, problems kept. The parameters are those of the
    /// part with most units, with `language` unset and each part's own in
    /// `languages`. One part is returned as it is; `None` when there are
    /// none.
    pub fn merge(parts: Vec<Report>) -> Option<Report> {
        if parts.len() <= 1 {
            return parts.into_iter().next();
        }
        let languages: Vec<LanguageParameters> = parts
            .iter()
            .map(|part| LanguageParameters {
                language: part.parameters.language.clone().unwrap_or_default(),
                units: part.units.len(),
                k: part.parameters.k,
                window: part.parameters.window,
                min_fragment: part.parameters.min_fragment,
                merge_gap: part.parameters.merge_gap,
                min_passage: part.parameters.min_passage,
                symbol: part.parameters.symbol.clone(),
            })
            .collect();
        let main = parts
            .iter()
            .enumerate()
            .max_by_key(|(i, part)| (part.units.len(), std::cmp::Reverse(*i)))
            .map_or(0, |(i, _)| i);
        let mut parameters = parts[main].parameters.clone();
        parameters.language = None;
        parameters.languages = languages;
        // The largest part may be text; any code part says how code was read.
        if parameters.code.is_none() {
            parameters.code = parts.iter().find_map(|part| part.parameters.code.clone());
        }
        let mut merged = Report {
            schema_version: parts[0].schema_version,
            tool: parts[0].tool.clone(),
            parameters,
            summary: total(parts.iter().map(|part| &part.summary)),
            units: Vec::new(),
            pairs: Vec::new(),
            problems: Vec::new(),
        };
        for part in parts {
            let offset = merged.units.len();
            merged.units.extend(part.units.into_iter().map(|mut unit| {
                unit.id += offset;
                unit
            }));
            merged.pairs.extend(part.pairs.into_iter().map(|mut pair| {
                pair.a.unit += offset;
                pair.b.unit += offset;
                pair
            }));
            merged.problems.extend(part.problems);
        }
        // Stable: pairs of equal similarity keep their part's order.
        merged.pairs.sort_by(most_similar_first);
        Some(merged)
    }
}

fn most_similar_first(x: &PairReport, y: &PairReport) -> Ordering {
    y.similarity.total_cmp(&x.similarity)
}

/// The totals of several comparisons: counts add up; the limit on units
/// per fingerprint is the largest, or none if any part had none; of the
/// unlisted pairs, the least similar listed one is the lowest of any part,
/// and every part's possibly missing pairs are kept.
fn total<'a>(summaries: impl Iterator<Item = &'a Summary>) -> Summary {
    let mut sum = Summary::default();
    let mut limits = Some(Vec::new());
    for s in summaries {
        sum.units += s.units;
        sum.documents += s.documents;
        sum.fingerprints += s.fingerprints;
        sum.base_fingerprints += s.base_fingerprints;
        sum.common_fingerprints += s.common_fingerprints;
        sum.candidate_pairs += s.candidate_pairs;
        sum.scored_pairs += s.scored_pairs;
        sum.matching_pairs += s.matching_pairs;
        sum.reported_pairs += s.reported_pairs;
        sum.detailed_pairs += s.detailed_pairs;
        if let Some(part) = &s.unlisted {
            let unlisted = sum.unlisted.get_or_insert_with(Unlisted::default);
            unlisted.pairs += part.pairs;
            unlisted.lowest_listed_similarity = match (
                unlisted.lowest_listed_similarity,
                part.lowest_listed_similarity,
            ) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            };
            unlisted
                .possibly_missing
                .extend(part.possibly_missing.iter().cloned());
        }
        match (s.max_units_per_fingerprint, limits.as_mut()) {
            (Some(limit), Some(limits)) => limits.push(limit),
            _ => limits = None,
        }
    }
    sum.max_units_per_fingerprint = limits.and_then(|limits| limits.into_iter().max());
    sum
}
