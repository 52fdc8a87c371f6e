//! Document records, stored in blocks of [`BLOCK_RECORDS`] consecutive ids.
//!
//! A record alone is small (a title, a location, an e-mail and five
//! numbers) and redb spends about as much again per entry on its B-tree, so
//! one entry per document cost about twice its bytes. Ids are allocated in
//! increasing order, so neighbours in a block were usually added together
//! and share most of what they say: the same site, folder, owner, date,
//! stored size. A block therefore codes each record against the previous
//! one: a bitmask of the fields that differ, numbers as varints, and each
//! differing string as the lengths of its prefix and suffix shared with the
//! previous value plus the bytes in between. A title that is the file name
//! of the record's location (what `db add` gives by default) costs nothing.
//!
//! Block value: varint record count; per record a varint of [`Field`]
//! flags, the varint id step if [`Field::ID_STEP`] is set (from the block's
//! first id for the first record, else from the previous id plus one), then
//! the differing fields: location, title, e-mail, size, added, selection,
//! stored, print.

use std::ops::RangeInclusive;
use std::path::Path;

use redb::{ReadableTable, Table, TableDefinition};

use crate::catalog::{DocId, DocumentMeta, DocumentRecord};
use crate::codec::{get_varint, put_varint};
use crate::database::InCatalog;
use crate::error::{DbError, Result};

/// Block number (first id / [`BLOCK_RECORDS`]) → the block's records.
pub(crate) const RECORDS: TableDefinition<u32, &[u8]> = TableDefinition::new("record_blocks");

/// Ids per block. Reading one record decodes up to this many (a couple of
/// microseconds); the first record of a block is coded in full (about 70
/// bytes for a path), which 64 spreads to about a byte per record. Larger
/// blocks pack worse into redb's 4 KB pages (128 saved nothing more).
pub(crate) const BLOCK_RECORDS: u32 = 64;

/// The block holding `id`.
pub(crate) fn block_of(id: DocId) -> u32 {
    id / BLOCK_RECORDS
}

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

/// Appends `value` coded against `previous`: shared prefix length, shared
/// suffix length (of what follows the prefix), then the middle bytes.
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
    put_varint(out, prefix as u64);
    // The suffix and a short middle's length share one varint.
    let short = middle.len().min(MIDDLE_ESCAPE);
    put_varint(out, (suffix * (MIDDLE_ESCAPE + 1) + short) as u64);
    if short == MIDDLE_ESCAPE {
        put_varint(out, (middle.len() - MIDDLE_ESCAPE) as u64);
    }
    out.extend_from_slice(middle);
}

/// A middle of this many bytes or more has its length in a varint of its
/// own (as the excess); a shorter one's length shares the suffix's varint.
const MIDDLE_ESCAPE: usize = 15;

/// Replaces `value` by the string [`put_string_change`] coded against it,
/// read at `*pos`; `None` if damaged.
fn get_string_change(
    bytes: &[u8],
    pos: &mut usize,
    value: &mut Vec<u8>,
    scratch: &mut Vec<u8>,
) -> Option<()> {
    let prefix = usize::try_from(get_varint(bytes, pos)?).ok()?;
    let packed = usize::try_from(get_varint(bytes, pos)?).ok()?;
    let (suffix, mut middle) = (packed / (MIDDLE_ESCAPE + 1), packed % (MIDDLE_ESCAPE + 1));
    if middle == MIDDLE_ESCAPE {
        middle = middle.checked_add(usize::try_from(get_varint(bytes, pos)?).ok()?)?;
    }
    if prefix.checked_add(suffix)? > value.len() {
        return None;
    }
    let middle = bytes.get(*pos..pos.checked_add(middle)?)?;
    *pos += middle.len();
    scratch.clear();
    scratch.extend_from_slice(&value[..prefix]);
    scratch.extend_from_slice(middle);
    scratch.extend_from_slice(&value[value.len() - suffix..]);
    std::mem::swap(value, scratch);
    Some(())
}

/// Encodes records of one block, sorted by id.
pub(crate) fn encode_block(records: &[DocumentRecord]) -> Vec<u8> {
    debug_assert!(records.windows(2).all(|w| w[0].id < w[1].id));
    debug_assert!(
        records
            .windows(2)
            .all(|w| block_of(w[0].id) == block_of(w[1].id))
    );
    let mut out = Vec::with_capacity(12 * records.len() + 1);
    put_varint(&mut out, records.len() as u64);
    let mut previous = Fields::default();
    let mut next_id = records
        .first()
        .map_or(0, |r| block_of(r.id) * BLOCK_RECORDS);
    for record in records {
        let fields = Fields::of(record);
        let mut flags = 0u16;
        let step = record.id - next_id;
        next_id = record.id + 1;
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
        put_varint(&mut out, u64::from(flags));
        if flags & Field::ID_STEP != 0 {
            put_varint(&mut out, u64::from(step));
        }
        if flags & Field::LOCATION != 0 {
            put_string_change(&mut out, &previous.location, &fields.location);
        }
        if flags & Field::TITLE != 0 {
            put_string_change(&mut out, &previous.title, &fields.title);
        }
        if flags & Field::EMAIL != 0 {
            put_string_change(&mut out, &previous.email, &fields.email);
        }
        for (i, &now) in fields.numbers.iter().enumerate() {
            if flags & NUMBER_FLAGS[i] != 0 {
                put_varint(&mut out, now);
            }
        }
        previous = fields;
    }
    out
}

/// Reads a block record by record, reusing its buffers, so that finding
/// one record or reading every stored size allocates nothing per record.
pub(crate) struct BlockCursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    left: u64,
    block: u32,
    next_id: DocId,
    id: DocId,
    fields: Fields,
    scratch: Vec<u8>,
}

impl<'a> BlockCursor<'a> {
    /// A cursor before the first record of block `block`; `None` if the
    /// count is unreadable.
    pub(crate) fn new(block: u32, bytes: &'a [u8]) -> Option<Self> {
        let mut pos = 0;
        let left = get_varint(bytes, &mut pos)?;
        Some(Self {
            bytes,
            pos,
            left,
            block,
            next_id: block.checked_mul(BLOCK_RECORDS)?,
            id: 0,
            fields: Fields::default(),
            scratch: Vec::new(),
        })
    }

    /// Moves to the next record: `Some(true)` if there is one, `Some(false)`
    /// at the end, `None` if the block is damaged.
    pub(crate) fn advance(&mut self) -> Option<bool> {
        if self.left == 0 {
            return (self.pos == self.bytes.len()).then_some(false);
        }
        self.left -= 1;
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
        if block_of(self.id) != self.block {
            return None;
        }
        self.next_id = self.id.checked_add(1)?;
        let (bytes, pos, scratch) = (self.bytes, &mut self.pos, &mut self.scratch);
        let fields = &mut self.fields;
        if flags & Field::LOCATION != 0 {
            get_string_change(bytes, pos, &mut fields.location, scratch)?;
        }
        if flags & Field::TITLE == 0 {
            fields.title.clear();
            fields.title.extend_from_slice(file_name(&fields.location));
        } else {
            get_string_change(bytes, pos, &mut fields.title, scratch)?;
        }
        if flags & Field::EMAIL != 0 {
            get_string_change(bytes, pos, &mut fields.email, scratch)?;
        }
        for (i, value) in self.fields.numbers.iter_mut().enumerate() {
            if flags & NUMBER_FLAGS[i] != 0 {
                *value = get_varint(bytes, pos)?;
            }
        }
        Some(true)
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
        let text = |bytes: &Vec<u8>| String::from_utf8(bytes.clone()).ok();
        let [size, added, selection, stored, print] = self.fields.numbers;
        Some(DocumentRecord {
            id: self.id,
            meta: DocumentMeta {
                title: text(&self.fields.title)?,
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

/// Decodes a whole block; `None` if it is damaged.
pub(crate) fn decode_block(block: u32, bytes: &[u8]) -> Option<Vec<DocumentRecord>> {
    let mut cursor = BlockCursor::new(block, bytes)?;
    let mut out = Vec::new();
    while cursor.advance()? {
        out.push(cursor.record()?);
    }
    Some(out)
}

/// What is wrong when block `block` does not decode, as both an error and
/// `check` word it.
pub(crate) fn damaged_block_problem(block: u32) -> String {
    format!(
        "the record block of documents {}..{} is damaged",
        u64::from(block) * u64::from(BLOCK_RECORDS),
        (u64::from(block) + 1) * u64::from(BLOCK_RECORDS)
    )
}

fn damaged_block(path: &Path, block: u32) -> DbError {
    DbError::corrupt(path, damaged_block_problem(block))
}

/// The record of `id`, if it is registered.
pub(crate) fn read_record(
    path: &Path,
    table: &impl ReadableTable<u32, &'static [u8]>,
    id: DocId,
) -> Result<Option<DocumentRecord>> {
    let block = block_of(id);
    let Some(bytes) = table.get(block).in_catalog(path)? else {
        return Ok(None);
    };
    let mut cursor =
        BlockCursor::new(block, bytes.value()).ok_or_else(|| damaged_block(path, block))?;
    while cursor.advance().ok_or_else(|| damaged_block(path, block))? {
        if cursor.id() == id {
            return cursor
                .record()
                .map(Some)
                .ok_or_else(|| damaged_block(path, block));
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

/// Calls `visit` on every record with an id in `ids`, in id order.
pub(crate) fn for_each_record_in(
    path: &Path,
    table: &impl ReadableTable<u32, &'static [u8]>,
    ids: RangeInclusive<DocId>,
    mut visit: impl FnMut(&BlockCursor) -> Result<()>,
) -> Result<()> {
    let blocks = block_of(*ids.start())..=block_of(*ids.end());
    for entry in table.range(blocks).in_catalog(path)? {
        let (block, bytes) = entry.in_catalog(path)?;
        let block = block.value();
        let mut cursor =
            BlockCursor::new(block, bytes.value()).ok_or_else(|| damaged_block(path, block))?;
        while cursor.advance().ok_or_else(|| damaged_block(path, block))? {
            if ids.contains(&cursor.id()) {
                visit(&cursor)?;
            }
        }
    }
    Ok(())
}

/// Adds `records` (ids increasing, none registered yet) to their blocks.
pub(crate) fn insert_records(
    path: &Path,
    table: &mut Table<u32, &[u8]>,
    records: Vec<DocumentRecord>,
) -> Result<()> {
    let mut records = records.into_iter().peekable();
    while let Some(first) = records.next() {
        let block = block_of(first.id);
        let mut members = match table.get(block).in_catalog(path)? {
            Some(bytes) => {
                decode_block(block, bytes.value()).ok_or_else(|| damaged_block(path, block))?
            }
            None => Vec::new(),
        };
        members.push(first);
        while let Some(next) = records.next_if(|r| block_of(r.id) == block) {
            members.push(next);
        }
        members.sort_by_key(|r| r.id);
        members.dedup_by_key(|r| r.id);
        table
            .insert(block, encode_block(&members).as_slice())
            .in_catalog(path)?;
    }
    Ok(())
}

/// Removes the record of `id`; returns it, or `None` if there was none.
pub(crate) fn remove_record(
    path: &Path,
    table: &mut Table<u32, &[u8]>,
    id: DocId,
) -> Result<Option<DocumentRecord>> {
    let block = block_of(id);
    let mut members = match table.get(block).in_catalog(path)? {
        Some(bytes) => {
            decode_block(block, bytes.value()).ok_or_else(|| damaged_block(path, block))?
        }
        None => return Ok(None),
    };
    let Some(at) = members.iter().position(|r| r.id == id) else {
        return Ok(None);
    };
    let record = members.remove(at);
    if members.is_empty() {
        table.remove(block).in_catalog(path)?;
    } else {
        table
            .insert(block, encode_block(&members).as_slice())
            .in_catalog(path)?;
    }
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
        .range(block_of(first)..=block_of(last))
        .in_catalog(path)?
    {
        let (block, bytes) = entry.in_catalog(path)?;
        let block = block.value();
        let members =
            decode_block(block, bytes.value()).ok_or_else(|| damaged_block(path, block))?;
        blocks.push((block, members));
    }
    for (block, mut members) in blocks {
        for record in members
            .iter_mut()
            .filter(|r| (first..=last).contains(&r.id))
        {
            change(record);
        }
        table
            .insert(block, encode_block(&members).as_slice())
            .in_catalog(path)?;
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

    fn any_fields() -> impl Strategy<Value = (DocumentMeta, u64, u64, u32, u32)> {
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

    proptest! {
        #[test]
        fn blocks_round_trip(
            block in 0u32..1000,
            slots in prop::collection::vec(
                prop::option::weighted(0.7, any_fields()),
                BLOCK_RECORDS as usize,
            ),
        ) {
            let records: Vec<DocumentRecord> = slots
                .into_iter()
                .enumerate()
                .filter_map(|(i, slot)| {
                    let (meta, added, selection, stored, print) = slot?;
                    Some(DocumentRecord {
                        id: block * BLOCK_RECORDS + i as u32,
                        meta,
                        added,
                        selection,
                        stored,
                        print,
                    })
                })
                .collect();
            let bytes = encode_block(&records);
            prop_assert_eq!(decode_block(block, &bytes), Some(records.clone()));
            for cut in 0..bytes.len() {
                // A truncated block never decodes as the whole.
                prop_assert_ne!(decode_block(block, &bytes[..cut]), Some(records.clone()));
            }
        }
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
        let bytes = encode_block(&records);
        // The first record in full (about 90 bytes), then about 10 per record.
        assert!(bytes.len() < 90 + 31 * 12, "{} bytes", bytes.len());
        assert_eq!(decode_block(block_of(96), &bytes), Some(records));
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
        let (named_bytes, other_bytes) = (encode_block(&named), encode_block(&other));
        // Flags, the location's change (three lengths and about two bytes)
        // and nothing else: size, stored and print do not change here.
        assert!(
            named_bytes.len() < 60 + 31 * 7,
            "{} bytes",
            named_bytes.len()
        );
        assert!(other_bytes.len() > named_bytes.len() + 31 * 3);
        assert_eq!(decode_block(0, &named_bytes), Some(named));
        assert_eq!(decode_block(0, &other_bytes), Some(other));
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
            assert_eq!(decode_block(0, &encode_block(&records)).unwrap(), records);
        }
    }
}
