//! What a batch comparison says beside its report: how far down the
//! listing limit listed each family's pairs, the pairs it left out that
//! could be more similar than listed ones, and whether every input was
//! read (the exit status).

use copyhound_index::SCORED_PER_LISTED;
use copyhound_report::ProblemKind;

use crate::{FamilyComparison, Line, Outcome};

fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

impl FamilyComparison {
    /// Down to what similarity the listing limit listed pairs, and how many
    /// it left out; `None` when it left none out.
    pub fn listing_note(&self) -> Option<String> {
        let omitted = &self.comparison.omitted;
        omitted.lowest_listed.map(|lowest| {
            format!(
                "{}: listed the {} most similar pairs, down to {}; {} other pairs found are not listed (--max-pairs)",
                self.family.name(),
                self.comparison.pairs.len(),
                percent(lowest),
                omitted.unlisted,
            )
        })
    }

    /// Warnings of pairs left out that could be more similar than the
    /// least similar listed one.
    pub fn listing_warnings(&self) -> Vec<String> {
        let omitted = &self.comparison.omitted;
        let language = self.family.name();
        let mut warnings = Vec::new();
        if omitted.open > 0 {
            warnings.push(format!(
                "{language}: up to {} pairs that could be more similar than the last listed (up to {}) were not scored: {SCORED_PER_LISTED} candidates per listed pair are kept for scoring; a higher --max-pairs scores more",
                omitted.open,
                percent(omitted.open_bound),
            ));
        }
        if let Some(units) = omitted.counted_units.filter(|_| omitted.uncounted_open()) {
            warnings.push(format!(
                "{language}: pairs sharing only fingerprints found in more than {units} units were not looked for, to bound the work; such a pair could be up to {} similar",
                percent(omitted.uncounted_bound),
            ));
        }
        warnings
    }
}

impl Outcome {
    /// What `compare` says of each family's listing: how far down it
    /// listed, and the pairs it left out that could be more similar.
    pub fn listing_lines(&self) -> Vec<Line> {
        let mut lines = Vec::new();
        for family in &self.families {
            lines.extend(family.listing_note().map(Line::Note));
            lines.extend(family.listing_warnings().into_iter().map(Line::Warning));
        }
        lines
    }

    /// Whether some input could not be read (a file not read, decoded or
    /// extracted, a folder not listed); empty, too short and skipped input
    /// is only listed in the report.
    pub fn has_unreadable_input(&self) -> bool {
        self.problems
            .iter()
            .any(|p| p.kind == ProblemKind::Unreadable)
    }
}
