//! Which segments to merge next: a pure function of the live segments'
//! sizes and the database's parameters, apart from the merging itself.
//!
//! Segments are grouped in size tiers (postings within a factor 4; every
//! segment under [`MERGE_FLOOR_POSTINGS`] in the lowest tier). The first
//! tier, smallest first, that holds `merge_factor` segments is merged;
//! else, when more than `max_segments` are live, the smallest ones, enough
//! to get back to the cap. A search costs about one bucket decode per key
//! per segment, which the cap bounds; tiers keep the total work of merging
//! logarithmic in the number of postings.

use std::collections::BTreeMap;

use crate::catalog::SegmentEntry;
use crate::params::Params;

/// Segments with fewer postings than this share the lowest size tier, so
/// that the uneven flushes of a small database (a `db add` of 300 files, then
/// one of 4,096…) still merge: merging them costs little, and every segment
/// adds a directory and a partly filled last bucket group to the disk.
pub(crate) const MERGE_FLOOR_POSTINGS: u64 = 1 << 20;

/// The merge policy of one database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MergePolicy {
    /// Segments of one tier that are merged together.
    pub(crate) merge_factor: usize,
    /// Live segments above which the smallest are merged.
    pub(crate) max_segments: usize,
}

impl MergePolicy {
    /// The policy `params` set.
    pub(crate) fn of(params: &Params) -> Self {
        Self {
            merge_factor: params.merge_factor as usize,
            max_segments: params.max_segments as usize,
        }
    }

    /// The size tier of a segment.
    fn tier(segment: &SegmentEntry) -> u32 {
        segment.postings.max(MERGE_FLOOR_POSTINGS).ilog2() / 2
    }

    /// The segments to merge next among `segments` (in manifest order), in
    /// that order; `None` when nothing needs merging.
    pub(crate) fn plan(&self, segments: &[SegmentEntry]) -> Option<Vec<SegmentEntry>> {
        let mut tiers: BTreeMap<u32, Vec<SegmentEntry>> = BTreeMap::new();
        for segment in segments {
            tiers.entry(Self::tier(segment)).or_default().push(*segment);
        }
        if let Some(full) = tiers
            .into_values()
            .find(|members| members.len() >= self.merge_factor)
        {
            return Some(full);
        }
        let cap = self.max_segments.max(1);
        if segments.len() <= cap {
            return None;
        }
        let mut by_size = segments.to_vec();
        by_size.sort_by_key(|s| (s.postings, s.number));
        by_size.truncate(segments.len() - cap + 1);
        Some(by_size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const POLICY: MergePolicy = MergePolicy {
        merge_factor: 3,
        max_segments: 4,
    };

    fn segments(sizes: &[u64]) -> Vec<SegmentEntry> {
        sizes
            .iter()
            .enumerate()
            .map(|(number, &postings)| SegmentEntry {
                number: number as u64,
                postings,
                bytes: postings * 3,
            })
            .collect()
    }

    fn numbers(plan: Option<Vec<SegmentEntry>>) -> Option<Vec<u64>> {
        plan.map(|inputs| inputs.iter().map(|s| s.number).collect())
    }

    #[test]
    fn small_segments_share_the_floor_tier_however_uneven() {
        let live = segments(&[1_000, 40_000, 1_000_000]);
        assert_eq!(numbers(POLICY.plan(&live)), Some(vec![0, 1, 2]));
        assert_eq!(numbers(POLICY.plan(&live[..2])), None);
    }

    #[test]
    fn the_smallest_full_tier_is_merged_first() {
        let mega = 1 << 20;
        // Two full tiers: 4 M (numbers 0, 2, 4) and 16 M (1, 3, 5).
        let live = segments(&[
            4 * mega,
            16 * mega,
            5 * mega,
            17 * mega,
            6 * mega,
            18 * mega,
        ]);
        assert_eq!(numbers(POLICY.plan(&live)), Some(vec![0, 2, 4]));
    }

    #[test]
    fn over_the_cap_the_smallest_are_merged_back_to_it() {
        let mega = 1 << 20;
        // Five tiers apart: no tier fills, but five segments exceed four.
        let live = segments(&[1024 * mega, 4 * mega, 256 * mega, 16 * mega, 64 * mega]);
        assert_eq!(numbers(POLICY.plan(&live)), Some(vec![1, 3]));
        assert_eq!(numbers(POLICY.plan(&live[..4])), None);
    }

    #[test]
    fn nothing_to_merge_in_an_empty_or_single_database() {
        assert_eq!(POLICY.plan(&[]), None);
        assert_eq!(POLICY.plan(&segments(&[5])), None);
        let no_cap = MergePolicy {
            merge_factor: 100,
            max_segments: 0,
        };
        assert_eq!(numbers(no_cap.plan(&segments(&[5, 6]))), Some(vec![0, 1]));
    }

    proptest! {
        /// Applying plans until none is left ends, with no tier holding
        /// `merge_factor` segments and at most `max_segments` live, and
        /// every posting kept.
        #[test]
        fn merging_by_plan_converges_within_the_bounds(
            sizes in prop::collection::vec(1u64..1 << 26, 0..40),
            merge_factor in 2usize..6,
            max_segments in 1usize..8,
        ) {
            let policy = MergePolicy { merge_factor, max_segments };
            let mut live = segments(&sizes);
            let total: u64 = sizes.iter().sum();
            let mut next = live.len() as u64;
            let mut merges = 0;
            while let Some(inputs) = policy.plan(&live) {
                prop_assert!(inputs.len() >= 2, "{inputs:?}");
                let merged: u64 = inputs.iter().map(|s| s.postings).sum();
                live.retain(|s| !inputs.contains(s));
                live.push(SegmentEntry { number: next, postings: merged, bytes: 0 });
                next += 1;
                merges += 1;
                prop_assert!(merges <= sizes.len());
            }
            prop_assert!(live.len() <= max_segments);
            prop_assert_eq!(live.iter().map(|s| s.postings).sum::<u64>(), total);
            let mut tiers = BTreeMap::<u32, usize>::new();
            for segment in &live {
                *tiers.entry(MergePolicy::tier(segment)).or_default() += 1;
            }
            prop_assert!(tiers.values().all(|&n| n < merge_factor), "{tiers:?}");
        }
    }
}
