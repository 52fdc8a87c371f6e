//! How many units each family of a batch has, and which families are
//! compared: those with two units, at least one of them new.

use std::collections::BTreeMap;

use copyhound_index::Role;

use crate::Family;

/// How many units, and new units, a family has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct FamilyCount {
    pub units: usize,
    pub new: usize,
}

impl FamilyCount {
    /// Two units, at least one new: something to compare.
    pub fn is_comparable(self) -> bool {
        self.units >= 2 && self.new >= 1
    }
}

/// The units of each family, by name, from each unit's role and family
/// (`None` for a unit none of whose files could be read).
pub(crate) fn family_counts(
    units: impl Iterator<Item = (Role, Option<Family>)>,
) -> BTreeMap<Family, FamilyCount> {
    let mut counts: BTreeMap<Family, FamilyCount> = BTreeMap::new();
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
pub(crate) fn comparable_families(counts: &BTreeMap<Family, FamilyCount>) -> Vec<Family> {
    let mut families: Vec<Family> = counts
        .iter()
        .filter(|(_, count)| count.is_comparable())
        .map(|(&family, _)| family)
        .collect();
    families.sort_by_key(|family| std::cmp::Reverse(counts[family].units));
    families
}

/// The families of a batch with nothing to compare, for the error.
pub(crate) fn describe(counts: &BTreeMap<Family, FamilyCount>) -> String {
    counts
        .iter()
        .map(|(family, count)| format!("{family}: {} unit(s), {} new", count.units, count.new))
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use copyhound_normalize::code::Language;

    #[test]
    fn comparable_families_need_two_units_one_new_and_come_largest_first() {
        let (java, python, c) = (
            Family::Code(Language::Java),
            Family::Code(Language::Python),
            Family::Code(Language::C),
        );
        let units = [
            (Role::New, Some(java)),
            (Role::New, Some(python)),
            (Role::New, Some(java)),
            (Role::New, Some(c)),
            (Role::Old, Some(Family::Text)),
            (Role::Old, Some(Family::Text)),
            (Role::New, Some(python)),
            (Role::Old, Some(python)),
            (Role::New, None),
        ];
        let counts = family_counts(units.into_iter());
        assert_eq!(counts[&python], FamilyCount { units: 3, new: 2 });
        assert_eq!(counts.len(), 4);
        assert_eq!(comparable_families(&counts), [python, java]);
        assert_eq!(
            describe(&counts),
            "c: 1 unit(s), 1 new; java: 2 unit(s), 2 new; python: 3 unit(s), 2 new; text: 2 unit(s), 0 new"
        );
    }
}
