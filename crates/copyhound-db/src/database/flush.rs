//! Flushing: the staged postings move into a new segment and the staged
//! prints into a new cold print file, inside one write transaction.

use super::Database;
use crate::catalog::{Counter, DocId, Manifest, SegmentEntry, WriteTxn};
use crate::directory::{DataFile, TempFile, Unlisted};
use crate::error::Result;
use crate::kept_prints::write_print_file;
use crate::segment::{Posting, SegmentSummary, write_postings};

impl Database {
    /// Moves every staged posting into a new segment, and every staged
    /// print into a new cold print file. Returns whether there was anything
    /// to move.
    pub fn flush(&self) -> Result<bool> {
        let txn = self.catalog.write()?;
        if !self.flush_in(&txn)? {
            return Ok(false);
        }
        txn.commit()?;
        Ok(true)
    }

    /// Flushes and merges if `staged_docs`, the documents staged now,
    /// reach `flush_docs`. Writers call it before their transaction, so
    /// that once it commits nothing else can fail.
    pub(crate) fn flush_if_full(&self, staged_docs: u64) -> Result<()> {
        if staged_docs >= u64::from(self.params.flush_docs) {
            self.flush()?;
            self.after_flush()?;
        }
        Ok(())
    }

    /// [`Self::flush`] inside the write transaction `txn`, which commits it.
    pub(crate) fn flush_in(&self, txn: &WriteTxn<'_>) -> Result<bool> {
        let mut meta = txn.meta()?;
        let mut staged_prints = txn.prints()?;
        if meta.get(Counter::StagedDocs)? == 0 && staged_prints.is_empty()? {
            return Ok(false);
        }
        let mut staged = txn.staged()?;
        let mut postings = Vec::new();
        staged.for_each(0, |doc, keys| {
            postings.extend(keys.into_iter().map(|key| Posting { key, doc }));
            Ok(())
        })?;
        let mut manifest = meta.manifest()?;
        if !postings.is_empty() {
            let temp = self
                .directory
                .numbered_temp(DataFile::SegmentTemp(manifest.next_number))?;
            let summary = write_postings(
                temp.path(),
                temp.writer()?,
                self.params.hash_bits,
                &mut postings,
            )?;
            let entry = self.publish_segment(&mut manifest, temp, summary)?;
            manifest.segments.push(entry);
        }
        let mut prints = Vec::new();
        staged_prints.for_each_encoded(|id, bytes| {
            prints.push((id, bytes.to_vec()));
            Ok(())
        })?;
        if !prints.is_empty() {
            let entry = self.publish_prints(&mut manifest, &prints)?;
            manifest.print_files.push(entry);
            staged_prints.clear()?;
            meta.set(Counter::StagedPrintBytes, 0)?;
        }
        self.directory.remove_orphans(&manifest, Unlisted::All);
        staged.clear()?;
        meta.set(Counter::StagedDocs, 0)?;
        meta.publish_manifest(&mut manifest)?;
        Ok(true)
    }

    /// Renames `temp`, a finished segment, to the manifest's next number.
    /// Call inside the write transaction that will list it.
    pub(crate) fn publish_segment(
        &self,
        manifest: &mut Manifest,
        temp: TempFile,
        summary: SegmentSummary,
    ) -> Result<SegmentEntry> {
        let number = manifest.next_number;
        manifest.next_number += 1;
        self.directory.publish(temp, DataFile::Segment(number))?;
        Ok(SegmentEntry {
            number,
            postings: summary.postings,
            bytes: summary.bytes,
        })
    }

    /// Writes `prints` to a cold print file under the manifest's next
    /// number, like a flush's segment.
    fn publish_prints(
        &self,
        manifest: &mut Manifest,
        prints: &[(DocId, Vec<u8>)],
    ) -> Result<SegmentEntry> {
        let number = manifest.next_number;
        let temp = self.directory.numbered_temp(DataFile::PrintsTemp(number))?;
        let bytes = write_print_file(temp.path(), temp.writer()?, prints)?;
        manifest.next_number += 1;
        self.directory.publish(temp, DataFile::Prints(number))?;
        Ok(SegmentEntry {
            number,
            postings: prints.len() as u64,
            bytes,
        })
    }
}
