//! Merging segments into one, dropping the postings of removed documents.
//!
//! The inputs may have different bucket sizes, so their file orders differ.
//! The merge therefore walks the key space in 2^8 ranges (every segment has
//! at least 2^8 buckets, so a range is a run of whole buckets in each),
//! gathers the range's postings from every input, sorts them in the output's
//! order and streams them out. Memory is one range: 1/256 of the postings.

use std::fs::File;
use std::path::Path;

use super::writer::SegmentWriter;
use super::{MIN_BUCKET_BITS, Posting, Segment, SegmentShape, SegmentSummary};
use crate::error::Result;

/// Writes the union of `inputs`, without the postings of documents for which
/// `is_live` is false, as a new segment into `file`, new and empty, at
/// `path`.
pub(crate) fn merge_segments(
    inputs: &[&Segment],
    hash_bits: u32,
    is_live: impl Fn(u32) -> bool,
    path: &Path,
    file: File,
) -> Result<SegmentSummary> {
    let postings: u64 = inputs.iter().map(|s| s.postings()).sum();
    let min_doc = inputs.iter().map(|s| s.shape().min_doc).min().unwrap_or(0);
    let max_doc = inputs.iter().map(|s| s.shape().max_doc).max().unwrap_or(0);
    let shape = SegmentShape::plan(hash_bits, postings, min_doc, max_doc);
    let mut writer = SegmentWriter::new(path, file, shape)?;
    let range_bits = hash_bits - MIN_BUCKET_BITS;
    let mut gathered = Vec::new();
    for range in 0..1u64 << MIN_BUCKET_BITS {
        let first_key = range << range_bits;
        let last_key = first_key | ((1 << range_bits) - 1);
        gathered.clear();
        for input in inputs {
            input.for_each_in_keys(first_key, last_key, |key, doc| {
                if is_live(doc) {
                    gathered.push(Posting { key, doc });
                }
            })?;
        }
        gathered.sort_unstable_by_key(|p| shape.file_order(p));
        writer.push_sorted(&gathered)?;
    }
    writer.finish()
}
