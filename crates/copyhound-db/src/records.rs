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

use std::ops::RangeInclusive;
use std::path::Path;

use redb::{ReadableTable, Table, TableDefinition};

use crate::catalog::{DocId, DocumentMeta, DocumentRecord};
use crate::codec::{get_varint, put_varint};
use crate::database::InCatalog;
use crate::error::{DbError, Result};

/// A block's first id → the block's records.
pub(crate) const RECORDS: TableDefinition<u32, &[u8]> = TableDefinition::new("records");

/// Most bytes of a block of more than one record. A redb leaf page (4,096
/// bytes) holds a 4-byte header and, per entry, the value's length (4
/// bytes), the key (4) and the value: a full block fills a leaf alone, and
/// a leaf holding it and the next block's first records splits between the
/// two. One byte more and the block alone would take a page of 8 KB.
pub(crate) const BLOCK_BYTES: usize = 4096 - 4 - 4 - 4;

/// Where appending closes a block: the slack up to [`BLOCK_BYTES`] lets a
/// rewrite grow a full block without splitting it (a rotation's new epoch
/// costs a block's first record two bytes, an unrotated document among
/// rotated ones three or four).
pub(crate) const BLOCK_FILL: usize = BLOCK_BYTES - 32;

/// Bits of the per-record flags (a varint): the field differs from the
/// previous record's (for the first record of a block: from empty or zero).
/// The fields that usually differ between neighbours come first, so that
/// the flags of a typical record fit in one byte.
struct Field;

impl Field {
    const LOCATION: u16 = 1;
    const SIZE: u16 = 1 << 1;
    const PRINT: u16 = 1 << 2;
    /// Unlike the others: set when the title is not the file name of the
    /// record's own location (the last `/`-separated part), which `db add`
    /// makes it by default; the title is then coded against the previous
    /// record's. Unset, the title is that file name and takes no bytes.
    const TITLE: u16 = 1 << 3;
    const STORED: u16 = 1 << 4;
    const ADDED: u16 = 1 << 5;
    /// The id is not the previous id plus one (or, for the first record,
    /// the block's first id): a varint step follows the flags.
    const ID_STEP: u16 = 1 << 6;
    const EMAIL: u16 = 1 << 7;
    const SELECTION: u16 = 1 << 8;
}

/// The fields of a record in the form the block codes them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Fields {
    location: Vec<u8>,
    title: Vec<u8>,
    email: Vec<u8>,
    numbers: [u64; 5],
}

impl Fields {
    fn of(record: &DocumentRecord) -> Self {
        Self {
            location: record.meta.location.as_bytes().to_vec(),
            title: record.meta.title.as_bytes().to_vec(),
            email: record.meta.email.as_bytes().to_vec(),
            numbers: [
                record.meta.size,
                record.added,
                record.selection,
                u64::from(record.stored),
                u64::from(record.print),
            ],
        }
    }
}

/// The title a record gets when [`Field::TITLE`] is unset.
fn file_name(location: &[u8]) -> &[u8] {
    location
        .iter()
        .rposition(|&b| b == b'/')
        .map_or(location, |slash| &location[slash + 1..])
}

const NUMBER_FLAGS: [u16; 5] = [
    Field::SIZE,
    Field::ADDED,
    Field::SELECTION,
    Field::STORED,
    Field::PRINT,
];

/// How number `i` of [`Fields::numbers`] is coded against the previous
/// record's `before`: the size as it is (sizes of neighbours are unrelated),
/// the others as the difference, zigzag-coded (a print's size is near the
/// search-set size N, a stored size near n, the time added near the
/// previous one's, so the difference takes one byte where the value takes
/// two to five).
fn number_change(i: usize, before: u64, now: u64) -> u64 {
    if i == 0 {
        return now;
    }
    let difference = now.wrapping_sub(before).cast_signed();
    ((difference << 1) ^ (difference >> 63)).cast_unsigned()
}

/// Reverses [`number_change`].
fn apply_number_change(i: usize, before: u64, change: u64) -> u64 {
    if i == 0 {
        return change;
    }
    let difference = (change >> 1).cast_signed() ^ -(change & 1).cast_signed();
    before.wrapping_add(difference.cast_unsigned())
}

/// Appends `value` coded against `previous`, as the bytes that replace a
/// run of `previous` between a shared prefix and a shared suffix: one
/// varint packs the suffix's length, whether the replaced run is not as
/// long as the new one, and the new run's length if under
/// [`MIDDLE_ESCAPE`]; then the replaced run's length (only if it differs),
/// the new run's excess length (only if escaped), and the new bytes.
/// Neighbouring paths and URLs differ in a short run near their end
/// (`…/taska.txt`, `…/taskb.txt`), which costs that varint and the new
/// bytes: the prefix, long, is never written.
fn put_string_change(out: &mut Vec<u8>, previous: &[u8], value: &[u8]) {
    let prefix = previous
        .iter()
        .zip(value)
        .take_while(|(a, b)| a == b)
        .count();
    let room = previous.len().min(value.len()) - prefix;
    let suffix = previous
        .iter()
        .rev()
        .zip(value.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    let middle = &value[prefix..value.len() - suffix];
    let replaced = previous.len() - prefix - suffix;
    let other_length = replaced != middle.len();
    let short = middle.len().min(MIDDLE_ESCAPE);
    let packed = (suffix * 2 + usize::from(other_length)) * (MIDDLE_ESCAPE + 1) + short;
    put_varint(out, packed as u64);
    if other_length {
        put_varint(out, replaced as u64);
    }
    if short == MIDDLE_ESCAPE {
        put_varint(out, (middle.len() - MIDDLE_ESCAPE) as u64);
    }
    out.extend_from_slice(middle);
}

/// A new run of this many bytes or more has its length in a varint of its
/// own (as the excess); a shorter one's length shares the suffix's varint,
/// which stays one byte for suffixes of up to seven bytes (`.html`).
const MIDDLE_ESCAPE: usize = 7;

/// Changes `value` in place into the string [`put_string_change`] coded
/// against it, read at `*pos`; `None` if damaged. A run replaced by one as
/// long, the usual change, copies just its bytes.
fn get_string_change(bytes: &[u8], pos: &mut usize, value: &mut Vec<u8>) -> Option<()> {
    let packed = usize::try_from(get_varint(bytes, pos)?).ok()?;
    let (rest, short) = (packed / (MIDDLE_ESCAPE + 1), packed % (MIDDLE_ESCAPE + 1));
    let (suffix, other_length) = (rest / 2, rest % 2 == 1);
    let replaced = if other_length {
        Some(usize::try_from(get_varint(bytes, pos)?).ok()?)
    } else {
        None
    };
    let mut middle = short;
    if middle == MIDDLE_ESCAPE {
        middle = middle.checked_add(usize::try_from(get_varint(bytes, pos)?).ok()?)?;
    }
    let replaced = replaced.unwrap_or(middle);
    let end = value.len().checked_sub(suffix)?;
    let prefix = end.checked_sub(replaced)?;
    let middle = bytes.get(*pos..pos.checked_add(middle)?)?;
    *pos += middle.len();
    if replaced == middle.len() {
        value[prefix..end].copy_from_slice(middle);
    } else {
        value.splice(prefix..end, middle.iter().copied());
    }
    Some(())
}

/// Appends the coding of `record` (`fields` being its [`Fields::of`])
/// against the previous record's `previous` fields, `next_id` being that
/// record's id plus one (for a block's first record: the block's key and
/// empty fields).
fn put_record(
    out: &mut Vec<u8>,
    previous: &Fields,
    next_id: DocId,
    record: &DocumentRecord,
    fields: &Fields,
) {
    let mut flags = 0u16;
    let step = record.id - next_id;
    if step != 0 {
        flags |= Field::ID_STEP;
    }
    if fields.location != previous.location {
        flags |= Field::LOCATION;
    }
    if fields.title != file_name(&fields.location) {
        flags |= Field::TITLE;
    }
    if fields.email != previous.email {
        flags |= Field::EMAIL;
    }
    for (i, (now, before)) in fields.numbers.iter().zip(previous.numbers).enumerate() {
        if *now != before {
            flags |= NUMBER_FLAGS[i];
        }
    }
    put_varint(out, u64::from(flags));
    if flags & Field::ID_STEP != 0 {
        put_varint(out, u64::from(step));
    }
    if flags & Field::LOCATION != 0 {
        put_string_change(out, &previous.location, &fields.location);
    }
    if flags & Field::TITLE != 0 {
        put_string_change(out, &previous.title, &fields.title);
    }
    if flags & Field::EMAIL != 0 {
        put_string_change(out, &previous.email, &fields.email);
    }
    for (i, (&now, before)) in fields.numbers.iter().zip(previous.numbers).enumerate() {
        if flags & NUMBER_FLAGS[i] != 0 {
            put_varint(out, number_change(i, before, now));
        }
    }
}

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
pub(crate) fn encode_blocks(records: &[DocumentRecord], limit: usize) -> Vec<(DocId, Vec<u8>)> {
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
pub(crate) fn decode_block(key: DocId, bytes: &[u8]) -> Option<Vec<DocumentRecord>> {
    let mut cursor = BlockCursor::new(key, bytes)?;
    let mut out = Vec::new();
    while cursor.advance()? {
        out.push(cursor.record()?);
    }
    Some(out)
}

/// What is wrong when the block keyed `key` does not decode, as both an
/// error and `check` word it.
pub(crate) fn damaged_block_problem(key: DocId) -> String {
    format!("the record block of documents from {key} on is damaged")
}

fn damaged_block(path: &Path, key: DocId) -> DbError {
    DbError::corrupt(path, damaged_block_problem(key))
}

/// A block's key and its bytes, as redb lends them.
type BlockEntry<'t> = (DocId, redb::AccessGuard<'t, &'static [u8]>);

/// The block that would hold `id`: the one with the greatest key not above
/// it.
fn block_holding<'t>(
    path: &Path,
    table: &'t impl ReadableTable<u32, &'static [u8]>,
    id: DocId,
) -> Result<Option<BlockEntry<'t>>> {
    match table.range(..=id).in_catalog(path)?.next_back() {
        Some(entry) => {
            let (key, bytes) = entry.in_catalog(path)?;
            Ok(Some((key.value(), bytes)))
        }
        None => Ok(None),
    }
}

/// The record of `id`, if it is registered.
pub(crate) fn read_record(
    path: &Path,
    table: &impl ReadableTable<u32, &'static [u8]>,
    id: DocId,
) -> Result<Option<DocumentRecord>> {
    let Some((key, bytes)) = block_holding(path, table, id)? else {
        return Ok(None);
    };
    let mut cursor =
        BlockCursor::new(key, bytes.value()).ok_or_else(|| damaged_block(path, key))?;
    cursor.seek(id).ok_or_else(|| damaged_block(path, key))?;
    while cursor.advance().ok_or_else(|| damaged_block(path, key))? {
        if cursor.id() == id {
            return cursor
                .record()
                .map(Some)
                .ok_or_else(|| damaged_block(path, key));
        }
        if cursor.id() > id {
            break;
        }
    }
    Ok(None)
}

/// Calls `visit` on every record with an id of at least `from`, in id order.
pub(crate) fn for_each_record(
    path: &Path,
    table: &impl ReadableTable<u32, &'static [u8]>,
    from: DocId,
    visit: impl FnMut(&BlockCursor) -> Result<()>,
) -> Result<()> {
    for_each_record_in(path, table, from..=DocId::MAX, visit)
}

/// The key of the first block that may hold ids from `id` on.
fn first_key(
    path: &Path,
    table: &impl ReadableTable<u32, &'static [u8]>,
    id: DocId,
) -> Result<DocId> {
    Ok(block_holding(path, table, id)?.map_or(id, |(key, _)| key))
}

/// Calls `visit` on every record with an id in `ids`, in id order.
pub(crate) fn for_each_record_in(
    path: &Path,
    table: &impl ReadableTable<u32, &'static [u8]>,
    ids: RangeInclusive<DocId>,
    mut visit: impl FnMut(&BlockCursor) -> Result<()>,
) -> Result<()> {
    let start = first_key(path, table, *ids.start())?;
    for entry in table.range(start..=*ids.end()).in_catalog(path)? {
        let (key, bytes) = entry.in_catalog(path)?;
        let key = key.value();
        let mut cursor =
            BlockCursor::new(key, bytes.value()).ok_or_else(|| damaged_block(path, key))?;
        while cursor.advance().ok_or_else(|| damaged_block(path, key))? {
            if ids.contains(&cursor.id()) {
                visit(&cursor)?;
            }
        }
    }
    Ok(())
}

/// A stored block, decoded.
struct StoredBlock {
    key: DocId,
    bytes: Vec<u8>,
    members: Vec<DocumentRecord>,
}

impl StoredBlock {
    fn read(path: &Path, key: DocId, bytes: &[u8]) -> Result<Self> {
        Ok(Self {
            key,
            bytes: bytes.to_vec(),
            members: decode_block(key, bytes).ok_or_else(|| damaged_block(path, key))?,
        })
    }

    /// Stores the members, changed, in place of the block: with records
    /// `appended`, in blocks closed at [`BLOCK_FILL`]; else as one block
    /// unless grown past [`BLOCK_BYTES`]; none if there is no member left.
    /// A block that comes out as it was is not written again.
    fn write(self, path: &Path, table: &mut Table<u32, &[u8]>, appended: bool) -> Result<()> {
        let mut blocks = encode_blocks(&self.members, BLOCK_BYTES);
        if appended || blocks.len() > 1 {
            blocks = encode_blocks(&self.members, BLOCK_FILL);
        }
        if blocks.first().is_none_or(|(key, _)| *key != self.key) {
            table.remove(self.key).in_catalog(path)?;
        }
        for (key, bytes) in blocks {
            if key != self.key || bytes != self.bytes {
                table.insert(key, bytes.as_slice()).in_catalog(path)?;
            }
        }
        Ok(())
    }
}

/// Adds `records` (ids increasing, none registered yet) to their blocks:
/// new ids, larger than any before, to the last block.
pub(crate) fn insert_records(
    path: &Path,
    table: &mut Table<u32, &[u8]>,
    records: Vec<DocumentRecord>,
) -> Result<()> {
    let mut records = records.into_iter().peekable();
    while let Some(head) = records.peek() {
        let id = head.id;
        let mut block = match block_holding(path, table, id)? {
            Some((key, bytes)) => StoredBlock::read(path, key, bytes.value())?,
            None => StoredBlock {
                key: id,
                bytes: Vec::new(),
                members: Vec::new(),
            },
        };
        let next_key = match id.checked_add(1) {
            Some(after) => match table.range(after..).in_catalog(path)?.next() {
                Some(entry) => Some(entry.in_catalog(path)?.0.value()),
                None => None,
            },
            None => None,
        };
        while let Some(next) = records.next_if(|r| next_key.is_none_or(|key| r.id < key)) {
            block.members.push(next);
        }
        block.members.sort_by_key(|r| r.id);
        block.members.dedup_by_key(|r| r.id);
        block.write(path, table, true)?;
    }
    Ok(())
}

/// Removes the record of `id`; returns it, or `None` if there was none.
pub(crate) fn remove_record(
    path: &Path,
    table: &mut Table<u32, &[u8]>,
    id: DocId,
) -> Result<Option<DocumentRecord>> {
    let Some((key, bytes)) = block_holding(path, table, id)? else {
        return Ok(None);
    };
    let mut block = StoredBlock::read(path, key, bytes.value())?;
    drop(bytes);
    let Some(at) = block.members.iter().position(|r| r.id == id) else {
        return Ok(None);
    };
    let record = block.members.remove(at);
    block.write(path, table, false)?;
    Ok(Some(record))
}

/// Rewrites the blocks of the ids in `first..=last` (all of them if the
/// bounds cover every block), applying `change` to every record there.
pub(crate) fn update_records(
    path: &Path,
    table: &mut Table<u32, &[u8]>,
    first: DocId,
    last: DocId,
    mut change: impl FnMut(&mut DocumentRecord),
) -> Result<()> {
    let mut blocks = Vec::new();
    for entry in table
        .range(first_key(path, table, first)?..=last)
        .in_catalog(path)?
    {
        let (key, bytes) = entry.in_catalog(path)?;
        blocks.push(StoredBlock::read(path, key.value(), bytes.value())?);
    }
    for mut block in blocks {
        for record in block
            .members
            .iter_mut()
            .filter(|r| (first..=last).contains(&r.id))
        {
            change(record);
        }
        block.write(path, table, false)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn record(id: DocId, title: &str, location: &str, stored: u32) -> DocumentRecord {
        DocumentRecord {
            id,
            meta: DocumentMeta {
                title: title.into(),
                location: location.into(),
                email: "owner@example.org".into(),
                size: 30_000,
            },
            added: 1_700_000_000,
            selection: 0,
            stored,
            print: 1000,
        }
    }

    /// The bytes of `records` as one block.
    fn one_block(records: &[DocumentRecord]) -> Vec<u8> {
        let mut blocks = encode_blocks(records, BLOCK_FILL);
        assert_eq!(blocks.len(), 1);
        blocks.pop().unwrap().1
    }

    /// A record's fields but its id: meta, added, selection, stored, print.
    type AnyFields = (DocumentMeta, u64, u64, u32, u32);

    fn any_fields() -> impl Strategy<Value = AnyFields> {
        let text = prop::sample::select(vec![
            "",
            "a",
            "doc 10",
            "doc 100",
            "Ünïcode",
            "https://example.org/x/10.pdf",
            "https://example.org/x/11.pdf",
            "11.pdf",
            "x/",
        ]);
        (
            (
                text.clone(),
                text.clone(),
                text,
                prop::sample::select(vec![0, 7, u64::MAX]),
            ),
            0u64..3,
            any::<u64>(),
            prop::sample::select(vec![0, 100, u32::MAX]),
            any::<u32>(),
        )
            .prop_map(
                |((title, location, email, size), added, selection, stored, print)| {
                    let meta = DocumentMeta {
                        title: title.into(),
                        location: location.into(),
                        email: email.into(),
                        size,
                    };
                    (meta, added, selection, stored, print)
                },
            )
    }

    /// Records with ids from `first`, skipping the empty slots.
    fn records_of(first: DocId, slots: Vec<Option<AnyFields>>) -> Vec<DocumentRecord> {
        slots
            .into_iter()
            .zip(first..)
            .filter_map(|(slot, id)| {
                let (meta, added, selection, stored, print) = slot?;
                Some(DocumentRecord {
                    id,
                    meta,
                    added,
                    selection,
                    stored,
                    print,
                })
            })
            .collect()
    }

    /// Decodes `blocks` one after the other; `None` if one is damaged.
    fn decode_all(blocks: &[(DocId, Vec<u8>)]) -> Option<Vec<DocumentRecord>> {
        let mut out = Vec::new();
        for (key, bytes) in blocks {
            out.extend(decode_block(*key, bytes)?);
        }
        Some(out)
    }

    proptest! {
        #[test]
        fn blocks_round_trip(
            first in 0u32..1000,
            slots in prop::collection::vec(prop::option::weighted(0.7, any_fields()), 0..64),
        ) {
            let records = records_of(first, slots);
            let blocks = encode_blocks(&records, BLOCK_FILL);
            prop_assert_eq!(decode_all(&blocks), Some(records.clone()));
            for (key, bytes) in &blocks {
                let whole = decode_block(*key, bytes);
                for cut in 0..bytes.len() {
                    // A truncated block never decodes as the whole.
                    prop_assert_ne!(decode_block(*key, &bytes[..cut]), whole.clone());
                }
            }
        }

        #[test]
        fn blocks_fill_a_leaf_and_keep_their_boundaries_when_records_are_appended(
            first in 0u32..1000,
            slots in prop::collection::vec(prop::option::weighted(0.9, any_fields()), 200..600),
            appended in 1usize..100,
        ) {
            let records = records_of(first, slots);
            let blocks = encode_blocks(&records, BLOCK_FILL);
            prop_assert_eq!(decode_all(&blocks), Some(records.clone()));
            for (at, (key, bytes)) in blocks.iter().enumerate() {
                let members = decode_block(*key, bytes).unwrap();
                // Keyed by its first id; within the limit unless alone.
                prop_assert_eq!(members[0].id, *key);
                prop_assert!(bytes.len() <= BLOCK_FILL || members.len() == 1);
                if let Some((_, next)) = blocks.get(at + 1) {
                    // Closed only when the next record did not fit.
                    let next_record = decode_block(blocks[at + 1].0, next).unwrap()[0].clone();
                    let mut grown = members.clone();
                    grown.push(next_record);
                    prop_assert!(encode_blocks(&grown, BLOCK_FILL).len() > 1);
                }
            }
            let kept = records.len().saturating_sub(appended);
            let before = encode_blocks(&records[..kept], BLOCK_FILL);
            if let Some((_, done)) = before.split_last() {
                prop_assert_eq!(done, &blocks[..done.len()]);
            }
        }
    }

    fn in_memory_catalogue() -> redb::Database {
        redb::Builder::new()
            .create_with_backend(redb::backends::InMemoryBackend::new())
            .unwrap()
    }

    fn numbered(id: DocId) -> DocumentRecord {
        record(
            id,
            &format!("document {id}"),
            &format!("https://example.org/{}/{id}.pdf", id / 50),
            100 + id % 3,
        )
    }

    /// Every block of `table`: keyed by its first record's id, within the
    /// limit, in order without overlapping; returns how many there are.
    fn assert_blocks_are_sound(table: &impl ReadableTable<u32, &'static [u8]>) -> usize {
        let mut last = None;
        let mut count = 0;
        for entry in table.iter().unwrap() {
            let (key, bytes) = entry.unwrap();
            let members = decode_block(key.value(), bytes.value()).unwrap();
            assert_eq!(members[0].id, key.value());
            assert!(bytes.value().len() <= BLOCK_BYTES);
            assert!(last < Some(key.value()));
            last = members.last().map(|r| r.id);
            count += 1;
        }
        count
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn the_table_reads_what_adds_removals_and_updates_left(
            batches in prop::collection::vec(1u32..300, 1..10),
            removals in prop::collection::vec(any::<prop::sample::Index>(), 0..40),
            grown in any::<prop::sample::Index>(),
            from in any::<prop::sample::Index>(),
        ) {
            let path = Path::new("catalog.redb");
            let catalogue = in_memory_catalogue();
            let txn = catalogue.begin_write().unwrap();
            let mut table = txn.open_table(RECORDS).unwrap();
            let mut model = std::collections::BTreeMap::new();
            let mut next = 0;
            for batch in batches {
                let records: Vec<DocumentRecord> = (next..next + batch).map(numbered).collect();
                next += batch;
                model.extend(records.iter().map(|r| (r.id, r.clone())));
                insert_records(path, &mut table, records).unwrap();
            }
            for removal in removals {
                let id = removal.index(next as usize) as DocId;
                prop_assert_eq!(remove_record(path, &mut table, id).unwrap(), model.remove(&id));
            }
            // Longer titles for a run of records grow their blocks past the
            // limit, which splits them.
            let first = grown.index(next as usize) as DocId;
            let longer = |r: &mut DocumentRecord| {
                r.meta.title = format!("a title much longer than before, for document {}", r.id);
            };
            update_records(path, &mut table, first, first + 300, longer).unwrap();
            model.range_mut(first..=first + 300).for_each(|(_, r)| longer(r));

            assert_blocks_are_sound(&table);
            for id in 0..=next {
                prop_assert_eq!(read_record(path, &table, id).unwrap(), model.get(&id).cloned());
            }
            let from = from.index(next as usize + 1) as DocId;
            let mut seen = Vec::new();
            for_each_record_in(path, &table, from..=from + 100, |cursor| {
                seen.push(cursor.record().unwrap());
                Ok(())
            })
            .unwrap();
            let expected: Vec<DocumentRecord> =
                model.range(from..=from + 100).map(|(_, r)| r.clone()).collect();
            prop_assert_eq!(seen, expected);
        }
    }

    #[test]
    fn full_blocks_fill_one_leaf_page_each() {
        let path = Path::new("catalog.redb");
        let catalogue = in_memory_catalogue();
        let txn = catalogue.begin_write().unwrap();
        {
            let mut table = txn.open_table(RECORDS).unwrap();
            for first in (0..5000).step_by(10) {
                insert_records(
                    path,
                    &mut table,
                    (first..first + 10).map(numbered).collect(),
                )
                .unwrap();
            }
        }
        txn.commit().unwrap();
        let txn = redb::ReadableDatabase::begin_read(&catalogue).unwrap();
        let table = txn.open_table(RECORDS).unwrap();
        let blocks = assert_blocks_are_sound(&table);
        let stats = redb::ReadableTableMetadata::stats(&table).unwrap();
        assert_eq!(stats.leaf_pages(), blocks as u64);
        // Unused: a few bytes per full block's page, the last block's page
        // and the branch pages. A block a byte too large for its page
        // would take 8 KB and leave more than 4 KB of it unused.
        let unused_per_page = stats.fragmented_bytes() / stats.leaf_pages();
        assert!(
            stats.fragmented_bytes() < 4096 * (1 + stats.branch_pages()) + 64 * stats.leaf_pages(),
            "{unused_per_page} bytes unused per leaf page"
        );
    }

    #[test]
    fn a_rotation_rewrites_full_blocks_without_splitting_them() {
        let path = Path::new("catalog.redb");
        let catalogue = in_memory_catalogue();
        let txn = catalogue.begin_write().unwrap();
        let mut table = txn.open_table(RECORDS).unwrap();
        insert_records(path, &mut table, (0..5000).map(numbered).collect()).unwrap();
        let before = assert_blocks_are_sound(&table);
        // A new epoch for all but a few documents (whose files were gone).
        update_records(path, &mut table, 0, 4999, |r| {
            if r.id % 100 != 7 {
                r.selection = 1;
            }
        })
        .unwrap();
        assert_eq!(assert_blocks_are_sound(&table), before);
        let mut unrotated = 0;
        for_each_record(path, &table, 0, |cursor| {
            unrotated += u32::from(cursor.record().unwrap().selection == 0);
            Ok(())
        })
        .unwrap();
        assert_eq!(unrotated, 50);
    }

    #[test]
    fn neighbours_cost_a_few_bytes_each() {
        let records: Vec<DocumentRecord> = (96..128)
            .map(|id| {
                record(
                    id,
                    &format!("synthetic document {id}"),
                    &format!("https://example.org/documents/{id}.pdf"),
                    100,
                )
            })
            .collect();
        let blocks = encode_blocks(&records, BLOCK_FILL);
        assert_eq!(blocks.len(), 1);
        let (key, bytes) = &blocks[0];
        // The first record in full (about 90 bytes), then about 10 per record.
        assert!(bytes.len() < 90 + 31 * 12, "{} bytes", bytes.len());
        assert_eq!(decode_block(*key, bytes), Some(records));
    }

    #[test]
    fn a_title_that_is_the_file_name_costs_nothing() {
        let records = |named: bool| -> Vec<DocumentRecord> {
            (0..32)
                .map(|id| {
                    let name = format!("g0pA_task{id:02}.txt");
                    let title = if named {
                        name.clone()
                    } else {
                        format!("{name} ")
                    };
                    record(id, &title, &format!("/data/set/files/{name}"), 100)
                })
                .collect()
        };
        let (named, other) = (records(true), records(false));
        let (named_bytes, other_bytes) = (one_block(&named), one_block(&other));
        // Flags, the location's change (a varint and one or two bytes) and
        // nothing else: size, stored and print do not change here.
        assert!(
            named_bytes.len() < 60 + 31 * 4,
            "{} bytes",
            named_bytes.len()
        );
        assert!(other_bytes.len() > named_bytes.len() + 31 * 2);
        assert_eq!(decode_block(0, &named_bytes), Some(named));
        assert_eq!(decode_block(0, &other_bytes), Some(other));
    }

    proptest! {
        #[test]
        fn string_changes_round_trip(
            previous in "[ab.]{0,12}",
            value in "[ab.]{0,12}",
            noise in prop::collection::vec(any::<u8>(), 0..3),
        ) {
            let mut bytes = Vec::new();
            put_string_change(&mut bytes, previous.as_bytes(), value.as_bytes());
            let coded = bytes.len();
            bytes.extend_from_slice(&noise);
            let (mut decoded, mut pos) = (previous.clone().into_bytes(), 0);
            prop_assert_eq!(get_string_change(&bytes, &mut pos, &mut decoded), Some(()));
            prop_assert_eq!(decoded, value.into_bytes());
            prop_assert_eq!(pos, coded);
        }
    }

    #[test]
    fn a_path_changed_in_one_character_costs_two_bytes() {
        let mut bytes = Vec::new();
        put_string_change(
            &mut bytes,
            b"https://example.org/a/long/folder/of/documents/taska.html",
            b"https://example.org/a/long/folder/of/documents/taskb.html",
        );
        assert_eq!(bytes, [(5 * 2) * 8 + 1, b'b']);
    }

    #[test]
    fn a_damaged_count_is_refused_without_sizing_anything_by_it() {
        let mut bytes = Vec::new();
        put_varint(&mut bytes, u64::MAX);
        bytes.extend_from_slice(&[0; 16]);
        assert_eq!(decode_block(0, &bytes), None);
    }

    #[test]
    fn strings_sharing_prefix_and_suffix_round_trip() {
        for (before, after) in [
            ("abcabc", "abc"),
            ("abc", "abcabc"),
            ("aaaa", "aa"),
            ("x.pdf", "xy.pdf"),
            ("", "é"),
            ("é", ""),
        ] {
            let records = [record(0, before, after, 1), record(1, after, before, 2)];
            assert_eq!(decode_block(0, &one_block(&records)).unwrap(), records);
        }
    }
}
