//! Document records, stored in blocks of increasing ids (removals leave
//! gaps) that each fill at most one redb leaf page ([`BLOCK_BYTES`]).
//!
//! A record alone is small (a title, a location, an e-mail and five
//! numbers) and redb spends about as much again per entry on its B-tree, so
//! one entry per document cost about twice its bytes. Ids are allocated in
//! increasing order, so neighbours in a block were usually added together
//! and share most of what they say: the same site, folder, owner, date,
//! stored size. A block therefore codes each record against the previous
//! one: a bitmask of the fields that differ, numbers as varints (most as
//! differences), and each differing string as the run of bytes that
//! replaces one of the previous value's. A title that is the file name
//! of the record's location (what `db add` gives by default) costs nothing.
//!
//! A block is keyed by its first id and closed when the next record would
//! take it over [`BLOCK_FILL`], a little under [`BLOCK_BYTES`]: a full
//! block then fills one leaf page alone, with room for a rewrite (a
//! rotation) to grow it. Blocks of a fixed count of records (64 in format 4) left leaves
//! about 62 to 80 % full, since redb splits an overflowing leaf in halves by
//! bytes and a half never grows again; and every block paid for its first
//! record in full (about 70 bytes for a path), now spread over a few
//! hundred records.
//!
//! A block is read in runs of [`RUN_RECORDS`]: the first record of each run
//! but the first is coded against the block's first record, and a table at
//! the front says where each run starts, so a lookup decodes at most the
//! block's first record and one run.
//!
//! Block value: varint record count; per run after the first, the varint
//! byte length of the run before it and the varint distance of its first id
//! from that run's first id, less [`RUN_RECORDS`]; then the records, each a
//! varint of [`Field`] flags, the varint id step if [`Field::ID_STEP`] is
//! set (from the block's key or the run's first id for a run's first
//! record, else from the previous id plus one), then the differing fields:
//! location, title, e-mail, size, added, selection, stored, print.
//!
//! [`fields`] codes one record against the one before, [`block`] packs
//! records into blocks and reads them back, and [`Records`] keeps the
//! blocks in their redb table.

mod block;
mod fields;
#[cfg(test)]
mod tests;

use std::ops::RangeInclusive;
use std::path::Path;

use redb::{ReadableTable, Table};

pub(crate) use block::BlockCursor;
use block::{BLOCK_BYTES, BLOCK_FILL, damaged_block_problem, decode_block, encode_blocks};

use super::InCatalog;
use crate::error::{DbError, Result};

/// A document id. Ids are allocated in increasing order and never reused.
pub type DocId = u32;

/// What the user tells about a document when registering it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DocumentMeta {
    /// A title.
    pub title: String,
    /// Where the document is: a path or a URL (Koala §3.3 keeps URLs so
    /// documents can be fetched again).
    pub location: String,
    /// A contact address, for stale locations.
    pub email: String,
    /// Size of the original file in bytes.
    pub size: u64,
}

/// One catalogue entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentRecord {
    /// The id.
    pub id: DocId,
    /// What the user told.
    pub meta: DocumentMeta,
    /// When it was added, in seconds since the Unix epoch.
    pub added: u64,
    /// The rotation epoch its stored subset was selected under.
    pub selection: u64,
    /// Size of its stored subset (distinct keys): the denominator of the
    /// Koala match ratio.
    pub stored: u32,
    /// Size of its print (search set).
    pub print: u32,
}

/// The records table: a block's first id → the block.
pub(crate) struct Records<'p, T> {
    path: &'p Path,
    table: T,
}

/// A block's key and its bytes, as redb lends them.
type BlockEntry<'t> = (DocId, redb::AccessGuard<'t, &'static [u8]>);

impl<'p, T> Records<'p, T> {
    pub(super) fn new(path: &'p Path, table: T) -> Self {
        Self { path, table }
    }

    fn damaged_block(&self, key: DocId) -> DbError {
        self.damaged(damaged_block_problem(key))
    }

    /// Damage found in the records, as an error naming the catalogue.
    pub(crate) fn damaged(&self, problem: String) -> DbError {
        DbError::corrupt(self.path, problem)
    }
}

/// What is wrong with a record whose id was never handed out.
pub(crate) fn id_past_next(id: DocId, next_doc: u64) -> String {
    format!("a record has document id {id}, past the next free id {next_doc}")
}

/// What is wrong with a record whose fields do not decode.
pub(crate) fn damaged_record_problem(id: DocId) -> String {
    format!("the record of document {id} is damaged")
}

impl<T: ReadableTable<u32, &'static [u8]>> Records<'_, T> {
    /// The block that would hold `id`: the one with the greatest key not
    /// above it.
    fn block_holding(&self, id: DocId) -> Result<Option<BlockEntry<'_>>> {
        match self.table.range(..=id).in_catalog(self.path)?.next_back() {
            Some(entry) => {
                let (key, bytes) = entry.in_catalog(self.path)?;
                Ok(Some((key.value(), bytes)))
            }
            None => Ok(None),
        }
    }

    /// The key of the first block that may hold ids from `id` on.
    fn first_key(&self, id: DocId) -> Result<DocId> {
        Ok(self.block_holding(id)?.map_or(id, |(key, _)| key))
    }

    /// The record of `id`, if it is registered.
    pub(crate) fn get(&self, id: DocId) -> Result<Option<DocumentRecord>> {
        let Some((key, bytes)) = self.block_holding(id)? else {
            return Ok(None);
        };
        let damaged = || self.damaged_block(key);
        let mut cursor = BlockCursor::new(key, bytes.value()).ok_or_else(damaged)?;
        cursor.seek(id).ok_or_else(damaged)?;
        while cursor.advance().ok_or_else(damaged)? {
            if cursor.id() == id {
                return cursor.record().map(Some).ok_or_else(damaged);
            }
            if cursor.id() > id {
                break;
            }
        }
        Ok(None)
    }

    /// Calls `visit` on every record with an id of at least `from`, in id
    /// order.
    pub(crate) fn for_each_from(
        &self,
        from: DocId,
        visit: impl FnMut(&BlockCursor) -> Result<()>,
    ) -> Result<()> {
        self.for_each_in(from..=DocId::MAX, visit)
    }

    /// Calls `visit` on every record with an id in `ids`, in id order.
    pub(crate) fn for_each_in(
        &self,
        ids: RangeInclusive<DocId>,
        mut visit: impl FnMut(&BlockCursor) -> Result<()>,
    ) -> Result<()> {
        let start = self.first_key(*ids.start())?;
        for entry in self.table.range(start..=*ids.end()).in_catalog(self.path)? {
            let (key, bytes) = entry.in_catalog(self.path)?;
            let key = key.value();
            let damaged = || self.damaged_block(key);
            let mut cursor = BlockCursor::new(key, bytes.value()).ok_or_else(damaged)?;
            while cursor.advance().ok_or_else(damaged)? {
                if ids.contains(&cursor.id()) {
                    visit(&cursor)?;
                }
            }
        }
        Ok(())
    }

    /// Calls `visit(key, records)` for every block in key order, with its
    /// records or, for a block that does not decode, what is wrong with it:
    /// `check` lists damage instead of stopping at it.
    pub(crate) fn for_each_block(
        &self,
        mut visit: impl FnMut(DocId, std::result::Result<Vec<DocumentRecord>, String>),
    ) -> Result<()> {
        for entry in self.table.iter().in_catalog(self.path)? {
            let (key, bytes) = entry.in_catalog(self.path)?;
            let key = key.value();
            visit(
                key,
                decode_block(key, bytes.value()).ok_or_else(|| damaged_block_problem(key)),
            );
        }
        Ok(())
    }
}

/// A stored block, decoded.
struct StoredBlock {
    key: DocId,
    bytes: Vec<u8>,
    members: Vec<DocumentRecord>,
}

impl Records<'_, Table<'_, u32, &'static [u8]>> {
    fn read_block(&self, key: DocId, bytes: &[u8]) -> Result<StoredBlock> {
        Ok(StoredBlock {
            key,
            bytes: bytes.to_vec(),
            members: decode_block(key, bytes).ok_or_else(|| self.damaged_block(key))?,
        })
    }

    /// Stores `block`'s members, changed, in place of the block: with
    /// records `appended`, in blocks closed at [`BLOCK_FILL`]; else as one
    /// block unless grown past [`BLOCK_BYTES`]; none if there is no member
    /// left. A block that comes out as it was is not written again.
    fn write_block(&mut self, block: &StoredBlock, appended: bool) -> Result<()> {
        let mut blocks = encode_blocks(&block.members, BLOCK_BYTES);
        if appended || blocks.len() > 1 {
            blocks = encode_blocks(&block.members, BLOCK_FILL);
        }
        if blocks.first().is_none_or(|(key, _)| *key != block.key) {
            self.table.remove(block.key).in_catalog(self.path)?;
        }
        for (key, bytes) in blocks {
            if key != block.key || bytes != block.bytes {
                self.table
                    .insert(key, bytes.as_slice())
                    .in_catalog(self.path)?;
            }
        }
        Ok(())
    }

    /// Adds `records` (ids increasing, none registered yet) to their
    /// blocks: new ids, larger than any before, to the last block.
    pub(crate) fn insert(&mut self, records: Vec<DocumentRecord>) -> Result<()> {
        let mut records = records.into_iter().peekable();
        while let Some(head) = records.peek() {
            let id = head.id;
            let mut block = match self.block_holding(id)? {
                Some((key, bytes)) => {
                    let bytes = bytes.value().to_vec();
                    self.read_block(key, &bytes)?
                }
                None => StoredBlock {
                    key: id,
                    bytes: Vec::new(),
                    members: Vec::new(),
                },
            };
            let next_key = match id.checked_add(1) {
                Some(after) => match self.table.range(after..).in_catalog(self.path)?.next() {
                    Some(entry) => Some(entry.in_catalog(self.path)?.0.value()),
                    None => None,
                },
                None => None,
            };
            while let Some(next) = records.next_if(|r| next_key.is_none_or(|key| r.id < key)) {
                block.members.push(next);
            }
            block.members.sort_by_key(|r| r.id);
            block.members.dedup_by_key(|r| r.id);
            self.write_block(&block, true)?;
        }
        Ok(())
    }

    /// Removes the record of `id`; returns it, or `None` if there was none.
    pub(crate) fn remove(&mut self, id: DocId) -> Result<Option<DocumentRecord>> {
        let Some((key, guard)) = self.block_holding(id)? else {
            return Ok(None);
        };
        let bytes = guard.value().to_vec();
        drop(guard);
        let mut block = self.read_block(key, &bytes)?;
        let Some(at) = block.members.iter().position(|r| r.id == id) else {
            return Ok(None);
        };
        let record = block.members.remove(at);
        self.write_block(&block, false)?;
        Ok(Some(record))
    }

    /// Rewrites the blocks of the ids in `first..=last` (all of them if the
    /// bounds cover every block), applying `change` to every record there.
    pub(crate) fn update(
        &mut self,
        first: DocId,
        last: DocId,
        mut change: impl FnMut(&mut DocumentRecord),
    ) -> Result<()> {
        let mut blocks = Vec::new();
        for entry in self
            .table
            .range(self.first_key(first)?..=last)
            .in_catalog(self.path)?
        {
            let (key, bytes) = entry.in_catalog(self.path)?;
            blocks.push(self.read_block(key.value(), bytes.value())?);
        }
        for mut block in blocks {
            for record in block
                .members
                .iter_mut()
                .filter(|r| (first..=last).contains(&r.id))
            {
                change(record);
            }
            self.write_block(&block, false)?;
        }
        Ok(())
    }
}
