//! Units counted but not compared: the rest of an archive a batch is
//! checked against.
//!
//! A batch checked against an archive compares the new units with the few
//! archived units that share a fingerprint with one of them, yet must score
//! every pair as a comparison of the whole union would: a fingerprint's
//! rarity weight and the max-occurrences limit depend on how many units of
//! the union hold it and on how many units the union has. The archived
//! units left out of the comparison come in as these counts only.

/// The fingerprint counts of units that count towards rarity and
/// max-occurrences but are not compared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitsElsewhere {
    units: usize,
    /// Hashes, ascending, each with the number of these units holding it.
    counts: Vec<(u64, u32)>,
}

impl UnitsElsewhere {
    /// `units` units, whose hashes are `counts` (each with the number of
    /// those units holding it, any order; hashes none of the compared
    /// units hold need not be given).
    pub fn new(units: usize, mut counts: Vec<(u64, u32)>) -> Self {
        counts.sort_unstable();
        counts.dedup_by(|next, kept| {
            let same = next.0 == kept.0;
            if same {
                kept.1 += next.1;
            }
            same
        });
        Self { units, counts }
    }

    /// How many units there are.
    pub fn units(&self) -> usize {
        self.units
    }

    /// How many of them hold `hash`.
    pub fn count(&self, hash: u64) -> u32 {
        self.counts
            .binary_search_by_key(&hash, |&(h, _)| h)
            .map_or(0, |i| self.counts[i].1)
    }
}

#[cfg(test)]
mod tests {
    use super::UnitsElsewhere;

    #[test]
    fn counts_of_one_hash_add_up() {
        let elsewhere = UnitsElsewhere::new(5, vec![(9, 1), (3, 2), (9, 2)]);
        assert_eq!(elsewhere.count(9), 3);
        assert_eq!(elsewhere.count(3), 2);
        assert_eq!(elsewhere.count(4), 0);
        assert_eq!(elsewhere.units(), 5);
    }
}
