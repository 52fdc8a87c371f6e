//! The search view: an immutable snapshot of what a search reads — the
//! open segments, an index of the staged postings, every document's stored
//! size, the tombstones and an unfinished rotation's state — and the cache
//! that refreshes it when a commit (of this process or another) changed
//! what searches see.
//!
//! A refresh keeps what did not change: the segments still listed stay
//! open (a segment checks its bytes as they are first read, once per open
//! file, see [`crate::segment`]), the staged index grows by the documents
//! added since, and the stored sizes are read again only from the first
//! document a rotation changed.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, RwLock};

use crate::catalog::{
    Catalog, Counter, DocId, ReadTxn, RotationState, damaged_record_problem, id_past_next,
};
use crate::directory::Directory;
use crate::error::{DbError, Result};
use crate::segment::Segment;

/// What one search reads: a consistent snapshot of the postings.
#[derive(Default)]
pub(crate) struct View {
    /// The catalogue's change counter this view reflects.
    change: u64,
    /// The manifest generation of `segments`.
    generation: u64,
    /// The live segments, by number.
    pub(crate) segments: Vec<(u64, Arc<Segment>)>,
    /// Staged postings by key.
    pub(crate) staged: HashMap<u64, Vec<DocId>>,
    /// The highest staged id loaded into `staged`.
    staged_through: Option<DocId>,
    /// Stored size of every document by id (0: none or unknown), so that a
    /// search can rank hundreds of candidates without reading their records.
    pub(crate) stored_sizes: Arc<Vec<u32>>,
    /// The rotation epoch `stored_sizes` reflects.
    sizes_epoch: u64,
    /// The unfinished rotation, if any: which segment postings are stale.
    pub(crate) rotation: Option<RotationState>,
    /// Removed documents whose postings segments still hold.
    pub(crate) removed: HashSet<DocId>,
}

/// The current [`View`] of one database handle.
pub(crate) struct ViewCache {
    current: RwLock<Arc<View>>,
}

impl Default for ViewCache {
    fn default() -> Self {
        Self {
            // No change counter is `u64::MAX` for long: the first search loads.
            current: RwLock::new(Arc::new(View {
                change: u64::MAX,
                ..View::default()
            })),
        }
    }
}

impl ViewCache {
    /// The current snapshot, refreshed if a commit changed what searches
    /// see.
    pub(crate) fn get(&self, catalog: &Catalog, directory: &Directory) -> Result<Arc<View>> {
        let mut attempts = 0;
        loop {
            let txn = catalog.read()?;
            let change = txn.meta()?.get(Counter::Change)?;
            let current = Arc::clone(&self.current.read().expect("view lock"));
            if current.change == change {
                return Ok(current);
            }
            match load(&txn, directory, change, &current) {
                Ok(view) => {
                    let view = Arc::new(view);
                    *self.current.write().expect("view lock") = Arc::clone(&view);
                    return Ok(view);
                }
                // A merge in another process deleted a segment this snapshot
                // lists: a newer snapshot no longer lists it.
                Err(DbError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound && attempts < 8 =>
                {
                    attempts += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }
}

/// The view of `txn`'s snapshot, reusing what `current` has of it.
fn load(txn: &ReadTxn<'_>, directory: &Directory, change: u64, current: &View) -> Result<View> {
    let meta = txn.meta()?;
    let manifest = meta.manifest()?;
    let same_segments = manifest.generation == current.generation && current.change != u64::MAX;
    let segments = if same_segments {
        current.segments.clone()
    } else {
        let mut segments = Vec::with_capacity(manifest.segments.len());
        for entry in &manifest.segments {
            let reused = current.segments.iter().find(|(n, _)| *n == entry.number);
            let segment = match reused {
                Some((_, segment)) => Arc::clone(segment),
                None => Arc::new(directory.open_segment(entry.number)?),
            };
            segments.push((entry.number, segment));
        }
        segments
    };
    let (mut staged, mut staged_through, start) = if same_segments {
        (
            current.staged.clone(),
            current.staged_through,
            current.staged_through.map_or(0, |id| u64::from(id) + 1),
        )
    } else {
        (HashMap::new(), None, 0)
    };
    if let Ok(start) = DocId::try_from(start) {
        txn.staged()?.for_each(start, |id, keys| {
            for key in keys {
                staged.entry(key).or_insert_with(Vec::new).push(id);
            }
            staged_through = Some(id);
            Ok(())
        })?;
    }
    let epoch = meta.get(Counter::Epoch)?;
    let rotation = meta.rotation()?;
    let next_doc = meta.get(Counter::NextDoc)?;
    let stored_sizes = load_stored_sizes(txn, current, epoch, rotation, next_doc)?;
    Ok(View {
        change,
        generation: manifest.generation,
        segments,
        staged,
        staged_through,
        stored_sizes,
        sizes_epoch: epoch,
        rotation,
        removed: txn.tombstones()?.ids()?,
    })
}

/// The stored sizes: `current`'s extended by the documents added since,
/// and read again from the first document a rotation changed since. Every
/// id is below `next_doc`, the next id to hand out: the table is indexed
/// by id, so a damaged record's huge id must not size it.
fn load_stored_sizes(
    txn: &ReadTxn<'_>,
    current: &View,
    epoch: u64,
    rotation: Option<RotationState>,
    next_doc: u64,
) -> Result<Arc<Vec<u32>>> {
    let fresh = current.change == u64::MAX || current.sizes_epoch != epoch;
    let mut sizes = if fresh {
        Vec::new()
    } else {
        current.stored_sizes.to_vec()
    };
    let mut start = sizes.len();
    if !fresh && current.rotation != rotation {
        // A batch of the same rotation: only documents from its old cursor
        // on changed.
        let from = current.rotation.map_or(0, |r| r.cursor);
        start = start.min(usize::try_from(from).unwrap_or(usize::MAX));
    }
    let fresh = fresh || start < sizes.len();
    let records = txn.records()?;
    let start = DocId::try_from(start).unwrap_or(DocId::MAX);
    records.for_each_from(start, |cursor| {
        if u64::from(cursor.id()) >= next_doc {
            return Err(records.damaged(id_past_next(cursor.id(), next_doc)));
        }
        let at = cursor.id() as usize;
        if sizes.len() <= at {
            sizes.resize(at + 1, 0);
        }
        sizes[at] = cursor
            .stored()
            .ok_or_else(|| records.damaged(damaged_record_problem(cursor.id())))?;
        Ok(())
    })?;
    if !fresh && sizes.len() == current.stored_sizes.len() {
        return Ok(Arc::clone(&current.stored_sizes));
    }
    Ok(Arc::new(sizes))
}
