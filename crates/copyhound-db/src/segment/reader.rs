//! Reading a segment through a memory map, checking each group of its
//! data the first time it is read.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use memmap2::Mmap;

use super::writer::Header;
use super::{
    FORMAT_VERSION, GROUP_BUCKETS, HEADER_LEN, MAGIC, MIN_BUCKET_BITS, OLDEST_FORMAT_VERSION,
    SegmentShape,
};
use crate::codec::BitReader;
use crate::error::{DbError, Result};

/// An open, memory-mapped segment file.
#[derive(Debug)]
pub struct Segment {
    path: PathBuf,
    map: Mmap,
    header: Header,
    /// One bit per group of buckets whose checksum has been verified; none
    /// for a format-2 segment, whose data was checked whole on open.
    checked: Option<Box<[AtomicU64]>>,
}

impl Segment {
    /// Maps the file at `path` and checks its header and directory (and,
    /// for a format-2 segment, its whole data).
    pub fn open(path: &Path) -> Result<Self> {
        let file = File::open(path).map_err(|e| DbError::io(path, e))?;
        let map = map_immutable(&file).map_err(|e| DbError::io(path, e))?;
        let header = parse_header(path, &map)?;
        let groups = header.shape.group_count().div_ceil(64) as usize;
        let segment = Self {
            path: path.to_owned(),
            map,
            header,
            checked: (header.group_crcs_len() > 0)
                .then(|| (0..groups).map(|_| AtomicU64::new(0)).collect()),
        };
        let directory = segment.directory_bytes();
        if crc32fast::hash(directory) != header.directory_crc {
            return Err(DbError::corrupt(path, "directory checksum mismatch"));
        }
        if segment.checked.is_none() {
            segment.check_data()?;
        }
        Ok(segment)
    }

    /// The file this segment was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Number of postings.
    pub fn postings(&self) -> u64 {
        self.header.postings
    }

    /// File size in bytes.
    pub fn bytes(&self) -> u64 {
        self.map.len() as u64
    }

    /// Bytes per in-group bucket offset in the directory (2 or 4).
    #[cfg(test)]
    pub(crate) fn offset_width(&self) -> u8 {
        self.header.offset_width
    }

    /// The layout recorded in the header.
    pub(crate) fn shape(&self) -> SegmentShape {
        self.header.shape
    }

    fn directory_bytes(&self) -> &[u8] {
        &self.map[HEADER_LEN + self.header.data_len as usize..]
    }

    fn data(&self) -> &[u8] {
        &self.map[HEADER_LEN..HEADER_LEN + self.header.data_len as usize]
    }

    /// The little-endian u32 at byte `at` of the directory.
    fn directory_u32(&self, at: usize) -> u32 {
        let directory = self.directory_bytes();
        u32::from_le_bytes(directory[at..at + 4].try_into().expect("4 bytes"))
    }

    /// Where group `group` starts in the data, in bytes (for the group
    /// after the last: the data's length).
    fn group_start(&self, group: u64) -> usize {
        self.directory_u32(group as usize * 4) as usize
    }

    /// Where the bucket offsets start in the directory.
    fn offsets_at(&self) -> usize {
        (self.header.shape.group_count() + 1) as usize * 4 + self.header.group_crcs_len() as usize
    }

    /// Checks the whole data against its checksum.
    fn check_data(&self) -> Result<()> {
        if crc32fast::hash(self.data()) == self.header.data_crc {
            Ok(())
        } else {
            Err(DbError::corrupt(&self.path, "data checksum mismatch"))
        }
    }

    /// Checks group `group` against its checksum, unless done before.
    fn check_group(&self, group: u64) -> Result<()> {
        let Some(checked) = &self.checked else {
            return Ok(());
        };
        let (word, bit) = (&checked[(group / 64) as usize], 1u64 << (group % 64));
        if word.load(Ordering::Relaxed) & bit != 0 {
            return Ok(());
        }
        let (start, end) = (self.group_start(group), self.group_start(group + 1));
        let crc_at = (self.header.shape.group_count() + 1) as usize * 4 + group as usize * 4;
        let bytes = self.data().get(start..end).ok_or_else(|| {
            DbError::corrupt(
                &self.path,
                format!("bucket group {group} points outside the data (bytes {start}..{end})"),
            )
        })?;
        if crc32fast::hash(bytes) != self.directory_u32(crc_at) {
            return Err(DbError::corrupt(
                &self.path,
                format!("checksum mismatch in bucket group {group} (data bytes {start}..{end})"),
            ));
        }
        word.fetch_or(bit, Ordering::Relaxed);
        Ok(())
    }

    /// The bit range of bucket `bucket` within the data: its group's start
    /// plus its offset inside the group, up to the next bucket's offset or,
    /// for a group's last bucket, the next group's start. Checks the group
    /// first, so that no damaged bit is ever decoded.
    fn bucket_range(&self, bucket: u64) -> Result<(usize, usize)> {
        let directory = self.directory_bytes();
        let offsets_at = self.offsets_at();
        let within = |b: u64| {
            let width = usize::from(self.header.offset_width);
            let at = offsets_at + b as usize * width;
            let mut word = [0u8; 4];
            word[..width].copy_from_slice(&directory[at..at + width]);
            u32::from_le_bytes(word) as usize
        };
        let group = bucket / GROUP_BUCKETS;
        self.check_group(group)?;
        let base = self.group_start(group) * 8;
        let start = base + within(bucket);
        let end = if (bucket + 1).is_multiple_of(GROUP_BUCKETS) {
            self.group_start(group + 1) * 8
        } else {
            base + within(bucket + 1)
        };
        if start > end || end > self.header.data_len as usize * 8 {
            return Err(DbError::corrupt(
                &self.path,
                format!("directory slot {bucket} points outside the data (bits {start}..{end})"),
            ));
        }
        Ok((start, end))
    }

    /// Calls `visit(residual, doc)` for every entry of `bucket`, in file order.
    ///
    /// Lookups spend nearly all their time here, so the common entry — one
    /// whose unary part, low gap bits and residual fit in one 57-bit window —
    /// is decoded from a single unaligned load. Loads may run past the
    /// bucket's last byte into the next bucket or the directory (which
    /// always follows the data), so no per-entry padding check is needed;
    /// only bits inside the bucket are used, and an entry that would end past
    /// it is corruption, as before.
    fn decode_bucket(&self, bucket: u64, visit: impl FnMut(u64, u32)) -> Result<()> {
        self.decode_range(bucket, self.bucket_range(bucket)?, visit)
    }

    /// [`Self::decode_bucket`] with the bucket's byte range already read.
    fn decode_range(
        &self,
        bucket: u64,
        (start_bit, end_bit): (usize, usize),
        mut visit: impl FnMut(u64, u32),
    ) -> Result<()> {
        let shape = self.header.shape;
        let tail = &self.map[HEADER_LEN..];
        let (k, residual_bits) = (shape.rice_k, shape.residual_bits);
        let low_mask = (1u64 << k) - 1;
        let residual_mask = (1u64 << residual_bits) - 1;
        let fixed = k + residual_bits;
        let min_bits = shape.min_entry_bits();
        let mut bit = start_bit;
        let mut doc = u64::from(shape.min_doc);
        let corrupt =
            || DbError::corrupt(&self.path, format!("undecodable entry in bucket {bucket}"));
        while end_bit - bit >= min_bits {
            let window = window_at(tail, bit);
            let zeros = window.trailing_zeros();
            let (gap, residual, next_bit) = if zeros + 1 + fixed <= 57 {
                let after = window >> (zeros + 1);
                let gap = (u64::from(zeros) << k) | (after & low_mask);
                let residual = (after >> k) & residual_mask;
                (gap, residual, bit + (zeros + 1 + fixed) as usize)
            } else {
                // A long unary run or wide fields: the checked reader.
                let mut reader = BitReader::new(&tail[bit / 8..end_bit.div_ceil(8)]);
                reader.skip(bit % 8).ok_or_else(corrupt)?;
                let gap = reader.read_rice(k).ok_or_else(corrupt)?;
                let residual = reader.read_bits(residual_bits).ok_or_else(corrupt)?;
                (gap, residual, end_bit.div_ceil(8) * 8 - reader.remaining())
            };
            if next_bit > end_bit {
                return Err(corrupt());
            }
            bit = next_bit;
            match doc.checked_add(gap) {
                Some(next) if next <= u64::from(shape.max_doc) => doc = next,
                _ => return Err(corrupt()),
            }
            visit(residual, doc as u32);
        }
        Ok(())
    }

    /// Appends to `docs` every document holding `key` (ascending ids).
    #[cfg(test)]
    pub(crate) fn lookup(&self, key: u64, docs: &mut Vec<u32>) -> Result<()> {
        let mut found = Vec::new();
        self.lookup_batch(&[key], &mut found)?;
        docs.extend(found.into_iter().map(|(_, doc)| doc));
        Ok(())
    }

    /// Appends `(i, doc)` to `found` for every document holding `keys[i]`.
    ///
    /// A lookup is two dependent cache misses (directory slot, then bucket)
    /// followed by a short decode, so one key at a time leaves the processor
    /// waiting on memory. The batch first reads every directory slot, then
    /// touches the first and last byte of every bucket — independent loads
    /// the processor overlaps — and only then decodes the buckets, from
    /// cache.
    pub(crate) fn lookup_batch(&self, keys: &[u64], found: &mut Vec<(u32, u32)>) -> Result<()> {
        let shape = self.header.shape;
        let mut ranges = Vec::with_capacity(keys.len());
        for &key in keys {
            ranges.push(self.bucket_range(shape.bucket_of(key))?);
        }
        let data = self.data();
        let mut touched = 0u8;
        for &(start, end) in &ranges {
            if start < end {
                touched ^= data[start / 8] ^ data[(end - 1) / 8];
            }
        }
        std::hint::black_box(touched);
        for (i, (&key, &range)) in keys.iter().zip(&ranges).enumerate() {
            let wanted = shape.residual_of(key);
            let bucket = shape.bucket_of(key);
            self.decode_range(bucket, range, |residual, doc| {
                if residual == wanted {
                    found.push((i as u32, doc));
                }
            })?;
        }
        Ok(())
    }

    /// Calls `visit(key, doc)` for every posting of the buckets that hold
    /// keys in `first_key..=last_key`; those bounds must fall on bucket
    /// boundaries of this segment (merges use 2^8 key ranges).
    pub(crate) fn for_each_in_keys(
        &self,
        first_key: u64,
        last_key: u64,
        mut visit: impl FnMut(u64, u32),
    ) -> Result<()> {
        let shape = self.header.shape;
        for bucket in shape.bucket_of(first_key)..=shape.bucket_of(last_key) {
            let base = bucket << shape.residual_bits;
            self.decode_bucket(bucket, |residual, doc| visit(base | residual, doc))?;
        }
        Ok(())
    }

    /// Reads every byte: checksums, then every entry, checking order and
    /// count. Returns the number of postings per document id seen, as
    /// `(doc, count)` sorted by id.
    pub fn verify(&self) -> Result<Vec<(u32, u32)>> {
        self.check_data()?;
        let shape = self.header.shape;
        let mut per_doc = std::collections::BTreeMap::<u32, u32>::new();
        let mut total = 0u64;
        for bucket in 0..shape.bucket_count() {
            let mut previous: Option<(u32, u64)> = None;
            let mut disorder = false;
            self.decode_bucket(bucket, |residual, doc| {
                disorder |= previous.is_some_and(|p| p >= (doc, residual));
                previous = Some((doc, residual));
                *per_doc.entry(doc).or_default() += 1;
                total += 1;
            })?;
            if disorder {
                return Err(DbError::corrupt(
                    &self.path,
                    format!("bucket {bucket} is not sorted"),
                ));
            }
        }
        if total != self.header.postings {
            return Err(DbError::corrupt(
                &self.path,
                format!(
                    "header says {} postings, the data holds {total}",
                    self.header.postings
                ),
            ));
        }
        Ok(per_doc.into_iter().collect())
    }
}

/// At least 57 bits of `bytes` from bit `bit` on, zero past the end.
#[inline]
fn window_at(bytes: &[u8], bit: usize) -> u64 {
    let byte = bit / 8;
    let word = if let Some(eight) = bytes.get(byte..byte + 8) {
        u64::from_le_bytes(eight.try_into().expect("8 bytes"))
    } else {
        let mut word = [0u8; 8];
        let available = bytes.len().saturating_sub(byte).min(8);
        word[..available].copy_from_slice(&bytes[byte..byte + available]);
        u64::from_le_bytes(word)
    };
    word >> (bit % 8)
}

/// Maps a segment file read-only.
#[allow(unsafe_code)]
fn map_immutable(file: &File) -> std::io::Result<Mmap> {
    // SAFETY: segment files are immutable once published: they are written
    // under a temporary name, synced, renamed into place and never opened
    // for writing again; obsolete ones are unlinked, which keeps existing
    // mappings valid. Only a process outside this crate that rewrites a
    // published file in place could change the mapped bytes.
    unsafe { Mmap::map(file) }
}

/// Decodes and validates the header against the file's length.
fn parse_header(path: &Path, bytes: &[u8]) -> Result<Header> {
    if bytes.len() < HEADER_LEN {
        return Err(DbError::corrupt(
            path,
            format!("{} bytes is too short for a segment header", bytes.len()),
        ));
    }
    if &bytes[0..8] != MAGIC {
        return Err(DbError::corrupt(
            path,
            "not a copyhound segment (bad magic)",
        ));
    }
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    if crc32fast::hash(&bytes[..60]) != u32_at(60) {
        return Err(DbError::corrupt(path, "header checksum mismatch"));
    }
    let version = u32_at(8);
    if !(OLDEST_FORMAT_VERSION..=FORMAT_VERSION).contains(&version) {
        return Err(DbError::UnsupportedVersion {
            path: path.to_owned(),
            found: version,
            supported: FORMAT_VERSION,
        });
    }
    let shape = SegmentShape {
        bucket_bits: u32::from(bytes[12]),
        residual_bits: u32::from(bytes[13]),
        rice_k: u32::from(bytes[14]),
        min_doc: u32_at(24),
        max_doc: u32_at(28),
    };
    let header = Header {
        version,
        shape,
        postings: u64_at(16),
        data_len: u64_at(32),
        data_crc: u32_at(40),
        directory_crc: u32_at(44),
        offset_width: bytes[15],
    };
    if !(MIN_BUCKET_BITS..=24).contains(&shape.bucket_bits)
        || shape.residual_bits > 40
        || shape.rice_k > 32
        || shape.min_doc > shape.max_doc
        || shape.min_entry_bits() < 8
        || !matches!(header.offset_width, 2 | 4)
    {
        return Err(DbError::corrupt(
            path,
            format!("impossible layout {shape:?}"),
        ));
    }
    let directory_len = header.directory_len();
    let expected = (HEADER_LEN as u64)
        .checked_add(header.data_len)
        .map(|n| n + directory_len);
    if expected != Some(bytes.len() as u64) {
        return Err(DbError::corrupt(
            path,
            format!(
                "file is {} bytes, the header describes {}",
                bytes.len(),
                expected.map_or_else(|| "an impossible size".to_owned(), |n| n.to_string())
            ),
        ));
    }
    Ok(header)
}
