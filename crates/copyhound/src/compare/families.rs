//! Language families: the units of a batch are compared one family at a
//! time, each with its own defaults, since symbols of different front-ends
//! (Python tokens, Java tokens, characters of text) never match.
//!
//! A file's family is its language, or `text` for plain text, HTML, PDF
//! and DOCX alike. A unit's family is that of most of its readable files
//! (ties: the first by name); its files of other families are skipped. A
//! family is compared when it has two units, at least one of them new.

use std::collections::BTreeMap;

use copyhound_index::Role;
use copyhound_normalize::{LoadError, LoadedDocument};

use super::Owner;
use super::units::PlannedFile;

/// The family of documents that are not code.
pub(super) const TEXT: &str = "text";

/// The symbol family of a loaded file.
pub(super) fn family_of(doc: &LoadedDocument) -> &'static str {
    doc.kind.language().map_or(TEXT, |language| language.name())
}

/// The family of each of `units` units: that of most of its loaded files
/// (ties: the first by name), or `None` when none of them loaded.
pub(super) fn unit_families(
    units: usize,
    jobs: &[(Owner, &PlannedFile)],
    loaded: &[Result<LoadedDocument, LoadError>],
) -> Vec<Option<&'static str>> {
    let mut counts: Vec<BTreeMap<&'static str, usize>> = vec![BTreeMap::new(); units];
    for ((owner, _), result) in jobs.iter().zip(loaded) {
        if let (Owner::Unit(i), Ok(doc)) = (owner, result) {
            *counts[*i].entry(family_of(doc)).or_default() += 1;
        }
    }
    counts
        .into_iter()
        .map(|counts| {
            let most = counts.values().copied().max()?;
            counts
                .into_iter()
                .find(|&(_, n)| n == most)
                .map(|(family, _)| family)
        })
        .collect()
}

/// How many units, and new units, a family has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct FamilyCount {
    pub units: usize,
    pub new: usize,
}

impl FamilyCount {
    /// Two units, at least one new: something to compare.
    pub fn is_comparable(self) -> bool {
        self.units >= 2 && self.new >= 1
    }
}

/// The units of each family, from each unit's role and family.
pub(super) fn family_counts<'a>(
    units: impl Iterator<Item = (Role, Option<&'a str>)>,
) -> BTreeMap<&'a str, FamilyCount> {
    let mut counts: BTreeMap<&str, FamilyCount> = BTreeMap::new();
    for (role, family) in units {
        if let Some(family) = family {
            let count = counts.entry(family).or_default();
            count.units += 1;
            count.new += usize::from(role == Role::New);
        }
    }
    counts
}

/// The families worth comparing, most units first (ties by name).
pub(super) fn comparable_families<'a>(counts: &BTreeMap<&'a str, FamilyCount>) -> Vec<&'a str> {
    let mut families: Vec<&str> = counts
        .iter()
        .filter(|(_, count)| count.is_comparable())
        .map(|(&family, _)| family)
        .collect();
    families.sort_by_key(|family| std::cmp::Reverse(counts[family].units));
    families
}

/// The families of a batch with nothing to compare, for the error.
pub(super) fn describe(counts: &BTreeMap<&str, FamilyCount>) -> String {
    counts
        .iter()
        .map(|(family, count)| format!("{family}: {} unit(s), {} new", count.units, count.new))
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparable_families_need_two_units_one_new_and_come_largest_first() {
        let units = [
            (Role::New, Some("java")),
            (Role::New, Some("python")),
            (Role::New, Some("java")),
            (Role::New, Some("c")),
            (Role::Old, Some("text")),
            (Role::Old, Some("text")),
            (Role::New, Some("python")),
            (Role::Old, Some("python")),
            (Role::New, None),
        ];
        let counts = family_counts(units.into_iter());
        assert_eq!(counts["python"], FamilyCount { units: 3, new: 2 });
        assert_eq!(counts.len(), 4);
        assert_eq!(comparable_families(&counts), ["python", "java"]);
    }
}
