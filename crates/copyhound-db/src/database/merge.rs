//! Merging segments, as the [merge policy](crate::merge_policy) plans, in
//! the foreground or on a background thread. A merge writes its output
//! outside any transaction, then swaps it in with one write transaction if
//! its inputs are still live.

use std::collections::HashSet;
use std::sync::{Arc, mpsc};

use super::Database;
use crate::catalog::{DocId, Manifest, SegmentEntry};
use crate::error::{DbError, Result};
use crate::merge_policy::MergePolicy;
use crate::segment::{Segment, merge_segments};

/// The handle of a background merge thread
/// ([`Database::merge_in_background`]).
pub struct BackgroundMerger {
    database: Arc<Database>,
    handle: Option<std::thread::JoinHandle<Result<()>>>,
}

impl BackgroundMerger {
    /// Stops the thread after its current merge and returns its outcome.
    pub fn finish(mut self) -> Result<()> {
        self.stop()
    }

    fn stop(&mut self) -> Result<()> {
        // Dropping the sender ends the thread's receive loop.
        self.database
            .merge_signal
            .lock()
            .expect("merge signal lock")
            .take();
        match self.handle.take() {
            Some(handle) => handle.join().expect("the merge thread panicked"),
            None => Ok(()),
        }
    }
}

impl Drop for BackgroundMerger {
    fn drop(&mut self) {
        // An error here was the merge thread's; the database stays sound.
        let _ = self.stop();
    }
}

impl Database {
    /// Merges now, or wakes the background merger if one runs.
    pub(crate) fn after_flush(&self) -> Result<()> {
        let signal = self.merge_signal.lock().expect("merge signal lock");
        match signal.as_ref() {
            // A merger that has stopped cannot be woken; merge here.
            Some(sender) if sender.send(()).is_ok() => Ok(()),
            _ => {
                drop(signal);
                self.merge().map(drop)
            }
        }
    }

    /// Starts a thread that runs [`Database::merge`] whenever a flush wrote
    /// a segment, so that writers never wait for merges. Merging stops when
    /// the returned handle is dropped or [finished](BackgroundMerger::finish).
    pub fn merge_in_background(self: &Arc<Self>) -> BackgroundMerger {
        let (sender, receiver) = mpsc::channel::<()>();
        let database = Arc::downgrade(self);
        let handle = std::thread::spawn(move || {
            while receiver.recv().is_ok() {
                // Signals that piled up during a merge need one more pass only.
                while receiver.try_recv().is_ok() {}
                let Some(database) = database.upgrade() else {
                    break;
                };
                database.merge()?;
            }
            Ok(())
        });
        *self.merge_signal.lock().expect("merge signal lock") = Some(sender);
        BackgroundMerger {
            database: Arc::clone(self),
            handle: Some(handle),
        }
    }

    /// Runs merges until no size tier holds `merge_factor` segments and at
    /// most `max_segments` are live. Returns the number of merges.
    pub fn merge(&self) -> Result<usize> {
        let policy = MergePolicy::of(&self.params);
        let mut merges = 0;
        loop {
            let (manifest, removed) = self.merge_snapshot()?;
            let Some(inputs) = policy.plan(&manifest.segments) else {
                break;
            };
            if !self.run_merge(&inputs, &removed)? {
                break;
            }
            merges += 1;
        }
        Ok(merges)
    }

    /// Merges every segment into one, dropping removed documents' postings.
    /// During an unfinished rotation, only the segments it wrote.
    pub fn compact(&self) -> Result<bool> {
        let (manifest, removed) = self.merge_snapshot()?;
        if manifest.segments.len() <= 1 && removed.is_empty() {
            return Ok(false);
        }
        self.run_merge(&manifest.segments, &removed)
    }

    /// The segments a merge may take, and the tombstones. During an
    /// unfinished rotation the segments from before it are left alone: its
    /// end drops them whole, and a merge would mix their stale postings
    /// into a segment numbered above the rotation's base.
    fn merge_snapshot(&self) -> Result<(Manifest, HashSet<DocId>)> {
        let txn = self.catalog.read()?;
        let meta = txn.meta()?;
        let mut manifest = meta.manifest()?;
        if let Some(rotation) = meta.rotation()? {
            manifest.segments.retain(|s| s.number >= rotation.base);
        }
        Ok((manifest, txn.tombstones()?.ids()?))
    }

    /// Merges `inputs` into one segment outside any transaction, then swaps
    /// it in if the inputs are all still live. Returns whether it did.
    fn run_merge(&self, inputs: &[SegmentEntry], removed: &HashSet<DocId>) -> Result<bool> {
        let mut open = Vec::with_capacity(inputs.len());
        for entry in inputs {
            match self.directory.open_segment(entry.number) {
                Ok(segment) => open.push(segment),
                // Another process merged them away meanwhile.
                Err(DbError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound =>
                {
                    return Ok(false);
                }
                Err(e) => return Err(e),
            }
        }
        // Deleted on every way out but its publication.
        let temp = self.directory.merge_temp()?;
        let refs: Vec<&Segment> = open.iter().collect();
        let summary = merge_segments(
            &refs,
            self.params.hash_bits,
            |doc| !removed.contains(&doc),
            temp.path(),
            temp.writer()?,
        )?;
        let txn = self.catalog.write()?;
        {
            let mut meta = txn.meta()?;
            let mut manifest = meta.manifest()?;
            let numbers: HashSet<u64> = inputs.iter().map(|s| s.number).collect();
            let still_live = manifest
                .segments
                .iter()
                .filter(|s| numbers.contains(&s.number))
                .count();
            // A rotation that started since the snapshot makes its
            // segments stale for some documents.
            let rotation = meta.rotation()?;
            let mixes_stale = rotation.is_some_and(|r| inputs.iter().any(|s| s.number < r.base));
            if still_live != inputs.len() || mixes_stale {
                return Ok(false);
            }
            let covers_all = manifest.segments.len() == inputs.len();
            manifest.segments.retain(|s| !numbers.contains(&s.number));
            if summary.postings > 0 {
                let entry = self.publish_segment(&mut manifest, temp, summary)?;
                manifest.segments.push(entry);
            }
            if covers_all {
                // Every posting of these tombstones is gone; newer tombstones
                // (removals after the snapshot) stay.
                txn.tombstones()?.clear(removed)?;
            }
            meta.publish_manifest(&mut manifest)?;
        }
        txn.commit()?;
        self.directory
            .remove_segments(inputs.iter().map(|s| s.number));
        Ok(true)
    }
}
