//! Writing a segment: buckets in increasing order, streamed to a file a
//! group at a time, the directory and the header last, then an fsync.

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::{
    FORMAT_VERSION, GROUP_BUCKETS, HEADER_LEN, MAGIC, Posting, SegmentShape, SegmentSummary,
};
use crate::codec::BitWriter;
use crate::error::{DbError, Result};

/// Writes `postings` (any order, duplicates allowed) as a new segment into
/// `file`, new and empty, at `path`. The file is synced before returning.
pub(crate) fn write_postings(
    path: &Path,
    file: File,
    hash_bits: u32,
    postings: &mut [Posting],
) -> Result<SegmentSummary> {
    let min_doc = postings.iter().map(|p| p.doc).min().unwrap_or(0);
    let max_doc = postings.iter().map(|p| p.doc).max().unwrap_or(0);
    let shape = SegmentShape::plan(hash_bits, postings.len() as u64, min_doc, max_doc);
    postings.sort_unstable_by_key(|p| shape.file_order(p));
    let mut writer = SegmentWriter::new(path, file, shape)?;
    writer.push_sorted(postings)?;
    writer.finish()
}

/// A segment being written. Postings arrive bucket by bucket, in file order.
pub(crate) struct SegmentWriter {
    path: PathBuf,
    file: BufWriter<File>,
    shape: SegmentShape,
    /// `groups[g]` is where group `g` starts in the data area, in bytes.
    groups: Vec<u32>,
    /// `within[b]` is where bucket `b` starts inside its group, in bits.
    within: Vec<u32>,
    /// The CRC-32 of each group written so far.
    group_crcs: Vec<u32>,
    /// Buckets below this one have their directory slots set.
    next_bucket: u64,
    data_len: u64,
    data_crc: crc32fast::Hasher,
    postings: u64,
    bits: BitWriter,
    run: Vec<u8>,
}

impl SegmentWriter {
    /// Starts writing `file`, new and empty, at `path`: reserves the
    /// header.
    pub(crate) fn new(path: &Path, file: File, shape: SegmentShape) -> Result<Self> {
        let mut file = BufWriter::with_capacity(1 << 20, file);
        file.write_all(&[0; HEADER_LEN])
            .map_err(|e| DbError::io(path, e))?;
        Ok(Self {
            path: path.to_owned(),
            file,
            shape,
            groups: vec![0; shape.group_count() as usize + 1],
            within: vec![0; shape.bucket_count() as usize],
            group_crcs: Vec::with_capacity(shape.group_count() as usize),
            next_bucket: 0,
            data_len: 0,
            data_crc: crc32fast::Hasher::new(),
            postings: 0,
            bits: BitWriter::default(),
            run: Vec::new(),
        })
    }

    /// Appends postings sorted in file order ([`SegmentShape::file_order`]);
    /// exact duplicates are dropped. Successive calls continue the order.
    pub(crate) fn push_sorted(&mut self, postings: &[Posting]) -> Result<()> {
        let shape = self.shape;
        let mut start = 0;
        while start < postings.len() {
            let bucket = shape.bucket_of(postings[start].key);
            let end = start
                + postings[start..]
                    .iter()
                    .position(|p| shape.bucket_of(p.key) != bucket)
                    .unwrap_or(postings.len() - start);
            self.push_bucket(bucket, &postings[start..end])?;
            start = end;
        }
        Ok(())
    }

    /// Sets the directory slots of the buckets up to `bucket` (exclusive):
    /// the ones skipped are empty. A bucket that starts a group first closes
    /// the previous group.
    fn advance_to(&mut self, bucket: u64) -> Result<()> {
        for b in self.next_bucket..bucket {
            if b.is_multiple_of(GROUP_BUCKETS) {
                if b > 0 {
                    self.close_group()?;
                }
                self.groups[(b / GROUP_BUCKETS) as usize] = self.offset()?;
            }
            self.within[b as usize] =
                u32::try_from(self.bits.bit_len()).map_err(|_| DbError::SegmentTooLarge {
                    path: self.path.clone(),
                })?;
        }
        self.next_bucket = self.next_bucket.max(bucket);
        Ok(())
    }

    /// Pads the current group to a byte and writes it out.
    fn close_group(&mut self) -> Result<()> {
        self.run.clear();
        self.bits.take_bytes(&mut self.run);
        self.data_crc.update(&self.run);
        self.group_crcs.push(crc32fast::hash(&self.run));
        self.data_len += self.run.len() as u64;
        self.file
            .write_all(&self.run)
            .map_err(|e| DbError::io(&self.path, e))
    }

    /// Writes one bucket; `bucket` must be above every bucket written so far.
    fn push_bucket(&mut self, bucket: u64, entries: &[Posting]) -> Result<()> {
        assert!(
            bucket >= self.next_bucket,
            "buckets arrive in increasing order"
        );
        self.advance_to(bucket + 1)?;
        let shape = self.shape;
        let mut previous: Option<Posting> = None;
        let mut previous_doc = shape.min_doc;
        for &posting in entries {
            if previous == Some(posting) {
                continue;
            }
            debug_assert!(posting.doc >= previous_doc);
            self.bits
                .write_rice(u64::from(posting.doc - previous_doc), shape.rice_k);
            self.bits
                .write_bits(shape.residual_of(posting.key), shape.residual_bits);
            previous_doc = posting.doc;
            previous = Some(posting);
            self.postings += 1;
        }
        Ok(())
    }

    /// The current end of the data area as a directory offset.
    fn offset(&self) -> Result<u32> {
        u32::try_from(self.data_len).map_err(|_| DbError::SegmentTooLarge {
            path: self.path.clone(),
        })
    }

    /// Writes the directory and the header and syncs the file.
    pub(crate) fn finish(mut self) -> Result<SegmentSummary> {
        self.advance_to(self.shape.bucket_count())?;
        self.close_group()?;
        let groups = self.groups.len();
        self.groups[groups - 1] = self.offset()?;
        let io = |e| DbError::io(&self.path, e);
        let wide = self.within.iter().any(|&w| w > u32::from(u16::MAX));
        let width = if wide { 4 } else { 2 };
        debug_assert_eq!(self.group_crcs.len(), groups - 1);
        let mut directory_bytes =
            Vec::with_capacity((groups * 2 - 1) * 4 + self.within.len() * width);
        for &group in &self.groups {
            directory_bytes.extend_from_slice(&group.to_le_bytes());
        }
        for &crc in &self.group_crcs {
            directory_bytes.extend_from_slice(&crc.to_le_bytes());
        }
        for &within in &self.within {
            if wide {
                directory_bytes.extend_from_slice(&within.to_le_bytes());
            } else {
                directory_bytes.extend_from_slice(&(within as u16).to_le_bytes());
            }
        }
        self.file.write_all(&directory_bytes).map_err(io)?;
        let header = Header {
            version: FORMAT_VERSION,
            shape: self.shape,
            postings: self.postings,
            data_len: self.data_len,
            data_crc: self.data_crc.clone().finalize(),
            directory_crc: crc32fast::hash(&directory_bytes),
            offset_width: width as u8,
        };
        self.file.seek(SeekFrom::Start(0)).map_err(io)?;
        self.file.write_all(&header.encode()).map_err(io)?;
        let file = self
            .file
            .into_inner()
            .map_err(|e| DbError::io(&self.path, e.into_error()))?;
        file.sync_all().map_err(|e| DbError::io(&self.path, e))?;
        let bytes = HEADER_LEN as u64 + self.data_len + directory_bytes.len() as u64;
        Ok(SegmentSummary {
            postings: self.postings,
            min_doc: self.shape.min_doc,
            max_doc: self.shape.max_doc,
            bytes,
        })
    }
}

/// The fixed header of a segment file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    /// The format version: 3, or 2 (read, no longer written).
    pub version: u32,
    pub shape: SegmentShape,
    pub postings: u64,
    pub data_len: u64,
    pub data_crc: u32,
    pub directory_crc: u32,
    /// Bytes per in-group bucket offset: 2, or 4 if a group is too large.
    pub offset_width: u8,
}

impl Header {
    /// Bytes of the directory: a u32 per group plus one, a CRC-32 per
    /// group (from format 3 on), then an offset of `offset_width` bytes per
    /// bucket.
    pub(crate) fn directory_len(&self) -> u64 {
        (self.shape.group_count() + 1) * 4
            + self.group_crcs_len()
            + self.shape.bucket_count() * u64::from(self.offset_width)
    }

    /// Bytes of the group checksums in the directory.
    pub(crate) fn group_crcs_len(&self) -> u64 {
        if self.version >= 3 {
            self.shape.group_count() * 4
        } else {
            0
        }
    }

    /// The 64 header bytes: fields little-endian, a CRC-32 of the first 60
    /// bytes at the end.
    pub(crate) fn encode(&self) -> [u8; HEADER_LEN] {
        let mut bytes = [0u8; HEADER_LEN];
        bytes[0..8].copy_from_slice(MAGIC);
        bytes[8..12].copy_from_slice(&self.version.to_le_bytes());
        bytes[12] = self.shape.bucket_bits as u8;
        bytes[13] = self.shape.residual_bits as u8;
        bytes[14] = self.shape.rice_k as u8;
        bytes[15] = self.offset_width;
        bytes[16..24].copy_from_slice(&self.postings.to_le_bytes());
        bytes[24..28].copy_from_slice(&self.shape.min_doc.to_le_bytes());
        bytes[28..32].copy_from_slice(&self.shape.max_doc.to_le_bytes());
        bytes[32..40].copy_from_slice(&self.data_len.to_le_bytes());
        bytes[40..44].copy_from_slice(&self.data_crc.to_le_bytes());
        bytes[44..48].copy_from_slice(&self.directory_crc.to_le_bytes());
        let crc = crc32fast::hash(&bytes[..60]);
        bytes[60..64].copy_from_slice(&crc.to_le_bytes());
        bytes
    }
}
