//! Record blocks: records of increasing ids coded one against the other
//! ([`super::fields`]), in runs of [`RUN_RECORDS`] behind a run table, in a
//! block that fills at most one redb leaf page ([`BLOCK_BYTES`]).

use super::fields::{
    Field, Fields, NUMBER_FLAGS, apply_number_change, file_name, get_string_change, put_record,
};
use super::{DocId, DocumentMeta, DocumentRecord};
use crate::codec::{get_varint, put_varint};

/// Most bytes of a block of more than one record. A redb leaf page (4,096
/// bytes) holds a 4-byte header and, per entry, the value's length (4
/// bytes), the key (4) and the value: a full block fills a leaf alone, and
/// a leaf holding it and the next block's first records splits between the
/// two. One byte more and the block alone would take a page of 8 KB.
pub(super) const BLOCK_BYTES: usize = 4096 - 4 - 4 - 4;

/// Where appending closes a block: the slack up to [`BLOCK_BYTES`] lets a
/// rewrite grow a full block without splitting it (a rotation's new epoch
/// costs a block's first record two bytes, an unrotated document among
/// rotated ones three or four).
pub(super) const BLOCK_FILL: usize = BLOCK_BYTES - 32;

/// The bytes of `value` as a varint.
fn varint_len(value: u64) -> usize {
    (64 - value.leading_zeros() as usize).div_ceil(7).max(1)
}

/// Records per run. A run is a stretch of a block whose first record is
/// coded against the block's first record instead of the one before, so
/// that a lookup decodes the block's first record and at most this many
/// (as many as a whole block of format 4) instead of up to a whole block
/// (several hundred records); the run table and the restarts cost about a
/// tenth of a byte per record.
const RUN_RECORDS: u64 = 64;

/// A block being coded.
struct BlockEncoder {
    key: DocId,
    /// Most bytes, unless the block holds one record.
    limit: usize,
    next_id: DocId,
    count: u64,
    /// The fields of the block's first record and of the last one.
    first: Fields,
    previous: Fields,
    /// The current run's first id and where it starts in `body`.
    run_id: DocId,
    run_start: usize,
    /// Per run after the first: the byte length of the run before it, and
    /// its first id's distance from the previous run's beyond
    /// [`RUN_RECORDS`].
    runs: Vec<u8>,
    body: Vec<u8>,
}

impl BlockEncoder {
    fn new(key: DocId, limit: usize) -> Self {
        Self {
            key,
            limit,
            next_id: key,
            count: 0,
            first: Fields::default(),
            previous: Fields::default(),
            run_id: key,
            run_start: 0,
            runs: Vec::new(),
            body: Vec::new(),
        }
    }

    /// Appends `record` if the block stays within its limit (or is
    /// empty); returns whether it did.
    fn push(&mut self, record: &DocumentRecord, coded: &mut Vec<u8>) -> bool {
        let fields = Fields::of(record);
        coded.clear();
        let starts_run = self.count > 0 && self.count.is_multiple_of(RUN_RECORDS);
        let mut run_entry = Vec::new();
        if starts_run {
            put_varint(&mut run_entry, (self.body.len() - self.run_start) as u64);
            put_varint(
                &mut run_entry,
                u64::from(record.id - self.run_id) - RUN_RECORDS,
            );
            put_record(coded, &self.first, record.id, record, &fields);
        } else {
            put_record(coded, &self.previous, self.next_id, record, &fields);
        }
        let size = varint_len(self.count + 1)
            + self.runs.len()
            + run_entry.len()
            + self.body.len()
            + coded.len();
        if self.count > 0 && size > self.limit {
            return false;
        }
        if starts_run {
            self.runs.extend_from_slice(&run_entry);
            self.run_id = record.id;
            self.run_start = self.body.len();
        }
        self.body.extend_from_slice(coded);
        if self.count == 0 {
            self.first.clone_from(&fields);
        }
        self.count += 1;
        self.next_id = record.id + 1;
        self.previous = fields;
        true
    }

    fn finish(self) -> (DocId, Vec<u8>) {
        let mut out = Vec::with_capacity(self.runs.len() + self.body.len() + 2);
        put_varint(&mut out, self.count);
        out.extend_from_slice(&self.runs);
        out.extend_from_slice(&self.body);
        (self.key, out)
    }
}

/// Codes `records` (ids increasing) into blocks of at most `limit` bytes
/// (a record that alone takes more gets a block of its own), each with its
/// key, its first id. The packing is greedy, so appending records leaves
/// every block but the last as it was.
pub(super) fn encode_blocks(records: &[DocumentRecord], limit: usize) -> Vec<(DocId, Vec<u8>)> {
    debug_assert!(records.windows(2).all(|w| w[0].id < w[1].id));
    let mut blocks = Vec::new();
    let Some(head) = records.first() else {
        return blocks;
    };
    let mut block = BlockEncoder::new(head.id, limit);
    let mut coded = Vec::new();
    for record in records {
        if !block.push(record, &mut coded) {
            blocks
                .push(std::mem::replace(&mut block, BlockEncoder::new(record.id, limit)).finish());
            block.push(record, &mut coded);
        }
    }
    blocks.push(block.finish());
    blocks
}

/// Where a run starts: its first id and its offset in the block.
#[derive(Clone, Copy)]
struct RunStart {
    id: DocId,
    pos: usize,
}

/// Reads a block record by record, changing its fields in place, so that
/// reading every stored size allocates nothing per record; [`Self::seek`]
/// skips to the run of an id.
pub(crate) struct BlockCursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    count: u64,
    /// Records read so far.
    index: u64,
    runs: Vec<RunStart>,
    next_id: DocId,
    id: DocId,
    /// The current record's fields, but its title while `title_is_name`:
    /// skipping a record then costs no copy of its title.
    fields: Fields,
    title_is_name: bool,
    /// The same of the block's first record, once read.
    first: Fields,
    first_title_is_name: bool,
}

impl<'a> BlockCursor<'a> {
    /// A cursor before the first record of the block keyed `key`; `None`
    /// if the count or the run table is unreadable.
    pub(crate) fn new(key: DocId, bytes: &'a [u8]) -> Option<Self> {
        let mut pos = 0;
        let count = get_varint(bytes, &mut pos)?;
        // Every record takes a byte at least: a larger count is damage, and
        // must not size the run table.
        if count > bytes.len() as u64 {
            return None;
        }
        let run_count = count.div_ceil(RUN_RECORDS);
        let mut lengths = Vec::with_capacity(usize::try_from(run_count).ok()?);
        let mut runs = vec![RunStart { id: key, pos: 0 }];
        for _ in 1..run_count {
            lengths.push(usize::try_from(get_varint(bytes, &mut pos)?).ok()?);
            let distance = get_varint(bytes, &mut pos)?.checked_add(RUN_RECORDS)?;
            let id = u64::from(runs.last()?.id).checked_add(distance)?;
            runs.push(RunStart {
                id: DocId::try_from(id).ok()?,
                pos: 0,
            });
        }
        let mut start = pos;
        for (run, length) in runs.iter_mut().zip(lengths.iter().chain([&0])) {
            run.pos = start;
            start = start.checked_add(*length)?;
        }
        if start > bytes.len() {
            return None;
        }
        Some(Self {
            bytes,
            pos,
            count,
            index: 0,
            runs,
            next_id: key,
            id: 0,
            fields: Fields::default(),
            title_is_name: false,
            first: Fields::default(),
            first_title_is_name: false,
        })
    }

    /// Moves to the next record: `Some(true)` if there is one, `Some(false)`
    /// at the end, `None` if the block is damaged.
    pub(crate) fn advance(&mut self) -> Option<bool> {
        if self.index == self.count {
            return (self.pos == self.bytes.len()).then_some(false);
        }
        if self.index > 0 && self.index.is_multiple_of(RUN_RECORDS) {
            let run = self.runs[usize::try_from(self.index / RUN_RECORDS).ok()?];
            if self.pos != run.pos {
                return None;
            }
            self.restart(run);
        }
        let previous_id = self.id;
        let flags = u16::try_from(get_varint(self.bytes, &mut self.pos)?).ok()?;
        if flags >> 9 != 0 {
            return None;
        }
        let step = if flags & Field::ID_STEP == 0 {
            0
        } else {
            u32::try_from(get_varint(self.bytes, &mut self.pos)?).ok()?
        };
        self.id = self.next_id.checked_add(step)?;
        if self.index > 0 && self.id <= previous_id {
            return None;
        }
        self.next_id = self.id.checked_add(1)?;
        let (bytes, pos, fields) = (self.bytes, &mut self.pos, &mut self.fields);
        if flags & Field::TITLE != 0 && self.title_is_name {
            // Coded against the previous title, which was its file name.
            fields.title.clear();
            fields.title.extend_from_slice(file_name(&fields.location));
        }
        if flags & Field::LOCATION != 0 {
            get_string_change(bytes, pos, &mut fields.location)?;
        }
        self.title_is_name = flags & Field::TITLE == 0;
        if !self.title_is_name {
            get_string_change(bytes, pos, &mut fields.title)?;
        }
        if flags & Field::EMAIL != 0 {
            get_string_change(bytes, pos, &mut fields.email)?;
        }
        for (i, value) in fields.numbers.iter_mut().enumerate() {
            if flags & NUMBER_FLAGS[i] != 0 {
                *value = apply_number_change(i, *value, get_varint(bytes, pos)?);
            }
        }
        if self.index == 0 {
            self.first.clone_from(&self.fields);
            self.first_title_is_name = self.title_is_name;
        }
        self.index += 1;
        Some(true)
    }

    /// Sets the state from which `run`'s first record is read: the block's
    /// first record, and the run's first id.
    fn restart(&mut self, run: RunStart) {
        self.fields.clone_from(&self.first);
        self.title_is_name = self.first_title_is_name;
        self.next_id = run.id;
    }

    /// Skips ahead to the run that holds `id` if it is in the block (past
    /// the block's first record, which every run is coded against), so
    /// that the next [`Self::advance`] calls reach it; `None` if the block
    /// is damaged.
    pub(crate) fn seek(&mut self, id: DocId) -> Option<()> {
        let run = self
            .runs
            .partition_point(|run| run.id <= id)
            .saturating_sub(1);
        let from = RUN_RECORDS * run as u64;
        if run == 0 || from <= self.index {
            return Some(());
        }
        if self.index == 0 && !self.advance()? {
            return None;
        }
        let start = self.runs[run];
        self.pos = start.pos;
        self.index = from;
        // Below the run's first id, as the last record before it was.
        self.id = start.id.checked_sub(1)?;
        Some(())
    }

    /// The current record's id.
    pub(crate) fn id(&self) -> DocId {
        self.id
    }

    /// The current record's stored size; `None` if out of range (damage).
    pub(crate) fn stored(&self) -> Option<u32> {
        u32::try_from(self.fields.numbers[3]).ok()
    }

    /// The current record; `None` if a field is not what it must be (damage).
    pub(crate) fn record(&self) -> Option<DocumentRecord> {
        let text = |bytes: &[u8]| String::from_utf8(bytes.to_vec()).ok();
        let [size, added, selection, stored, print] = self.fields.numbers;
        let title = if self.title_is_name {
            file_name(&self.fields.location)
        } else {
            &self.fields.title
        };
        Some(DocumentRecord {
            id: self.id,
            meta: DocumentMeta {
                title: text(title)?,
                location: text(&self.fields.location)?,
                email: text(&self.fields.email)?,
                size,
            },
            added,
            selection,
            stored: u32::try_from(stored).ok()?,
            print: u32::try_from(print).ok()?,
        })
    }
}

/// Decodes a whole block, keyed `key`; `None` if it is damaged.
pub(super) fn decode_block(key: DocId, bytes: &[u8]) -> Option<Vec<DocumentRecord>> {
    let mut cursor = BlockCursor::new(key, bytes)?;
    let mut out = Vec::new();
    while cursor.advance()? {
        out.push(cursor.record()?);
    }
    Some(out)
}

/// What is wrong when the block keyed `key` does not decode, as both an
/// error and `check` word it.
pub(super) fn damaged_block_problem(key: DocId) -> String {
    format!("the record block of documents from {key} on is damaged")
}
