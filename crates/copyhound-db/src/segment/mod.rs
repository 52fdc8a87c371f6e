//! Posting segments: immutable files mapping hash keys to document ids.
//!
//! A segment holds postings `(key, doc)`, where the key is the top
//! `hash_bits` bits of a fingerprint hash. Keys are split into a *bucket*
//! (the top `bucket_bits`) and a *residual* (the rest). The file is
//!
//! ```text
//! header (64 bytes) │ data: one byte-aligned bit run per group of 16 buckets │ directory
//! ```
//!
//! The directory is two-level: a u32 byte offset per group of
//! `GROUP_BUCKETS` (16) buckets, then per bucket its bit offset inside its
//! group, in 16 bits (32 if some group is larger than 2^16 bits). That is
//! 2.25 bytes per bucket instead of a u32 each plus the padding of a
//! byte-aligned bucket: about 5 bytes per document less at a million.
//! Between the two levels, a CRC-32 per group (format 3).
//!
//! Reads verify: a segment's header and directory are checked when it is
//! opened, and each group of its data the first time a lookup (or a
//! merge) reads it, once per open file: a flipped bit makes the reads that
//! meet it fail with [`crate::DbError::Corrupt`] naming the file, never
//! changes what they return, and costs a search nothing once its groups
//! are checked. A one-shot search checks only the groups it reads (about
//! 2 KB per key), not the whole file. Format 2 segments, which have only
//! the CRC of the whole data, are checked whole when opened.
//!
//! Within a bucket the entries are sorted by document id and then residual;
//! each is the gap from the previous id, Rice-coded, followed by the raw
//! residual bits. Sorting by id inside a bucket is what makes the ids cheap:
//! a bucket of m entries drawn from D documents has gaps of about D/m, so an
//! id costs about log2(D/m) + 1.5 bits instead of log2(D). A lookup reads one
//! directory slot and decodes one bucket (about [`TARGET_BUCKET_POSTINGS`]
//! entries). FORMAT.md at the crate root gives the byte layout.

mod merge;
mod reader;
mod writer;

pub(crate) use merge::merge_segments;
pub use reader::Segment;
pub(crate) use writer::write_postings;

use crate::codec::rice_k_for_mean;

/// First bytes of every segment file.
pub(crate) const MAGIC: &[u8; 8] = b"CHDBSEG\0";
/// The segment format this build writes. Version 3 adds a CRC-32 per
/// group of buckets to the directory; version 2 bit-packed the buckets in
/// byte-aligned groups under a two-level directory (version 1 had
/// byte-aligned buckets under u32 offsets).
pub(crate) const FORMAT_VERSION: u32 = 3;
/// The oldest segment format this build reads: version 2, whose data is
/// checked whole when the file is opened.
pub(crate) const OLDEST_FORMAT_VERSION: u32 = 2;
/// Buckets per group: the unit of the directory's first level.
pub(crate) const GROUP_BUCKETS: u64 = 16;
/// Size of the fixed header.
pub(crate) const HEADER_LEN: usize = 64;
/// Fewest bucket bits. Merges gather postings in 2^8 key ranges, which must
/// cover whole buckets of every input.
pub(crate) const MIN_BUCKET_BITS: u32 = 8;
/// Most bucket bits: a 64 MiB directory.
const MAX_BUCKET_BITS: u32 = 24;
/// Postings per bucket the planner aims at (within a factor √2 either way):
/// few enough that decoding the
/// buckets of a 1000-hash query costs well under a millisecond, many enough
/// that the directory stays a few bytes per document.
pub const TARGET_BUCKET_POSTINGS: u64 = 48;

/// One posting: a hash key (the top `hash_bits` of a fingerprint hash) in a
/// document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Posting {
    /// The key, `hash >> (64 - hash_bits)`.
    pub key: u64,
    /// The document id.
    pub doc: u32,
}

/// How a segment's postings are laid out: decided once per segment from its
/// size, recorded in its header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SegmentShape {
    /// Bits of the key that pick the bucket.
    pub bucket_bits: u32,
    /// Bits of the key stored in each entry.
    pub residual_bits: u32,
    /// Rice parameter of the id gaps.
    pub rice_k: u32,
    /// Smallest document id in the segment (the base of the first gap).
    pub min_doc: u32,
    /// Largest document id in the segment.
    pub max_doc: u32,
}

impl SegmentShape {
    /// The layout for about `postings` postings of ids in `min_doc..=max_doc`.
    pub(crate) fn plan(hash_bits: u32, postings: u64, min_doc: u32, max_doc: u32) -> Self {
        // The power of two nearest the wanted bucket count (in log scale),
        // so buckets hold 34 to 68 postings. Rounding up instead (24 to 48)
        // spent up to twice the directory bytes (5 bytes per document) on
        // segments just above a power of two, as flushes of 4096 documents
        // are; the price is up to 1.4 times the entries decoded per lookup.
        let buckets_wanted = (postings as f64 / TARGET_BUCKET_POSTINGS as f64).max(1.0);
        let bucket_bits = (buckets_wanted.log2().round() as u32)
            .clamp(MIN_BUCKET_BITS, MAX_BUCKET_BITS.min(hash_bits));
        let residual_bits = hash_bits - bucket_bits;
        let per_bucket = (postings as f64 / f64::from(1u32 << bucket_bits)).max(1.0);
        let mean_gap = f64::from(max_doc - min_doc + 1) / per_bucket;
        // The estimate rounds down; take the next k if its cost
        // (1 + k + μ / 2^k bits for mean gap μ) is lower.
        let cost = |k: u32| 1.0 + f64::from(k) + mean_gap / f64::from(k).exp2();
        let base = rice_k_for_mean(mean_gap, 31);
        let mut rice_k = if cost(base + 1) < cost(base) {
            base + 1
        } else {
            base
        };
        // An entry must be longer than the padding at the end of a bucket
        // (at most 7 bits), so that padding is never read as an entry.
        rice_k = rice_k.max(7u32.saturating_sub(residual_bits));
        Self {
            bucket_bits,
            residual_bits,
            rice_k,
            min_doc,
            max_doc,
        }
    }

    /// The shortest possible entry, in bits.
    pub(crate) fn min_entry_bits(self) -> usize {
        (1 + self.rice_k + self.residual_bits) as usize
    }

    /// Number of buckets.
    pub(crate) fn bucket_count(self) -> u64 {
        1 << self.bucket_bits
    }

    /// Number of bucket groups.
    pub(crate) fn group_count(self) -> u64 {
        self.bucket_count() / GROUP_BUCKETS
    }

    /// The bucket of a key.
    pub(crate) fn bucket_of(self, key: u64) -> u64 {
        key >> self.residual_bits
    }

    /// The residual of a key.
    pub(crate) fn residual_of(self, key: u64) -> u64 {
        key & ((1 << self.residual_bits) - 1)
    }

    /// The order of postings in the file: bucket, then id, then residual.
    pub(crate) fn file_order(self, posting: &Posting) -> u128 {
        (u128::from(self.bucket_of(posting.key)) << 72)
            | (u128::from(posting.doc) << 40)
            | u128::from(self.residual_of(posting.key))
    }
}

/// What a finished segment holds, as recorded in the manifest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentSummary {
    /// Number of postings.
    pub postings: u64,
    /// Smallest document id.
    pub min_doc: u32,
    /// Largest document id.
    pub max_doc: u32,
    /// File size in bytes.
    pub bytes: u64,
}

#[cfg(test)]
mod tests;
