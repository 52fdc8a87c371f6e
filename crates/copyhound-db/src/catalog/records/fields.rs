//! How one record is coded against the record before it: a varint of
//! [`Field`] flags saying which fields differ, then the differing fields —
//! strings as the run of bytes that replaces one of the previous value's,
//! numbers as varints (most as zigzag-coded differences). A title that is
//! the file name of the record's own location costs nothing.

use super::DocumentRecord;
use crate::catalog::DocId;
use crate::codec::{get_varint, put_varint};

/// Bits of the per-record flags (a varint): the field differs from the
/// previous record's (for the first record of a block: from empty or zero).
/// The fields that usually differ between neighbours come first, so that
/// the flags of a typical record fit in one byte.
pub(super) struct Field;

impl Field {
    pub(super) const LOCATION: u16 = 1;
    pub(super) const SIZE: u16 = 1 << 1;
    pub(super) const PRINT: u16 = 1 << 2;
    /// Unlike the others: set when the title is not the file name of the
    /// record's own location (the last `/`-separated part), which `db add`
    /// makes it by default; the title is then coded against the previous
    /// record's. Unset, the title is that file name and takes no bytes.
    pub(super) const TITLE: u16 = 1 << 3;
    pub(super) const STORED: u16 = 1 << 4;
    pub(super) const ADDED: u16 = 1 << 5;
    /// The id is not the previous id plus one (or, for the first record,
    /// the block's first id): a varint step follows the flags.
    pub(super) const ID_STEP: u16 = 1 << 6;
    pub(super) const EMAIL: u16 = 1 << 7;
    pub(super) const SELECTION: u16 = 1 << 8;
}

/// The fields of a record in the form the block codes them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Fields {
    pub(super) location: Vec<u8>,
    pub(super) title: Vec<u8>,
    pub(super) email: Vec<u8>,
    /// Size, added, selection, stored, print.
    pub(super) numbers: [u64; 5],
}

impl Fields {
    pub(super) fn of(record: &DocumentRecord) -> Self {
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
pub(super) fn file_name(location: &[u8]) -> &[u8] {
    location
        .iter()
        .rposition(|&b| b == b'/')
        .map_or(location, |slash| &location[slash + 1..])
}

pub(super) const NUMBER_FLAGS: [u16; 5] = [
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
pub(super) fn apply_number_change(i: usize, before: u64, change: u64) -> u64 {
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
pub(super) fn put_string_change(out: &mut Vec<u8>, previous: &[u8], value: &[u8]) {
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
pub(super) fn get_string_change(bytes: &[u8], pos: &mut usize, value: &mut Vec<u8>) -> Option<()> {
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
pub(super) fn put_record(
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
