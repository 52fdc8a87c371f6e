//! The catalogue: redb tables for staged postings, the staged prints,
//! tombstones and the manifest, with their encodings (document records are
//! in [`crate::records`]).
//!
//! Every write of the database is one redb transaction over these tables,
//! so a document is either fully registered (record, staged stored subset,
//! print) or not at all, and a segment is either in the manifest (and its
//! postings out of the staging table) or not.

use redb::TableDefinition;

use crate::codec::{BitReader, BitWriter, get_varint, put_varint, rice_k_for_mean};

/// Database-wide values, by name (see the `META_*` keys).
pub(crate) const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
/// Document id → stored keys not yet in a segment ([`encode_keys`]).
pub(crate) const STAGED: TableDefinition<u32, &[u8]> = TableDefinition::new("staged");
/// Document id → the keys of the print ([`encode_keys`]) of a document
/// whose print is not yet in a cold print file (only with `keep_prints`).
pub(crate) const PRINTS: TableDefinition<u32, &[u8]> = TableDefinition::new("prints");
/// Document id → how many searches matched it (the audit of Koala §3.3),
/// as far as a searcher has written its counts back.
pub(crate) const SEARCHES: TableDefinition<u32, u64> = TableDefinition::new("search_counts");
/// Ids of removed documents whose postings some segment still holds.
pub(crate) const REMOVED: TableDefinition<u32, ()> = TableDefinition::new("removed");

/// Catalogue format version (u32 LE).
pub(crate) const META_FORMAT: &str = "format";
/// [`crate::Params`] in text form.
pub(crate) const META_PARAMS: &str = "params";
/// Current rotation epoch (u64 LE).
pub(crate) const META_EPOCH: &str = "epoch";
/// Next document id (u32 LE).
pub(crate) const META_NEXT_DOC: &str = "next_doc";
/// Number of documents in the staging table (u32 LE).
pub(crate) const META_STAGED_DOCS: &str = "staged_docs";
/// Bumped by every commit that changes what a search sees (u64 LE).
pub(crate) const META_CHANGE: &str = "change";
/// The [`Manifest`].
pub(crate) const META_MANIFEST: &str = "manifest";
/// Number of registered documents (u64 LE).
pub(crate) const META_DOCUMENTS: &str = "documents";
/// Bytes of the prints in the `prints` table (u64 LE), so that `stats`
/// need not read them.
pub(crate) const META_STAGED_PRINT_BYTES: &str = "staged_print_bytes";

/// The catalogue format this build reads and writes. Version 2 keeps the
/// records in blocks ([`crate::records`]) and counts documents in `meta`;
/// version 3 ranks stored subsets by key, keeps prints as keys and codes
/// records with varint flags and titles taken from their locations;
/// version 4 rotates in batches and keeps an unfinished rotation's state in
/// `meta` ([`RotationState`]), which a version-3 build would ignore and so
/// count stale postings; version 5 keys record blocks by their first id and
/// closes them by bytes, not by count.
pub(crate) const CATALOG_FORMAT: u32 = 5;
/// An unfinished rotation ([`RotationState`]); absent when none runs.
pub(crate) const META_ROTATION: &str = "rotation";

/// A rotation in progress: committed first, then advanced by one write
/// transaction per batch of documents, and removed when it is finished.
///
/// Documents below `cursor` have their new postings in the staging table
/// or in segments numbered `base` or more; their postings in the segments
/// numbered below `base` (written before the rotation started) are stale:
/// searches, `check` and the counts ignore them, and finishing the
/// rotation drops those segments whole. Documents from `end` on were added
/// under `epoch` and are not rotated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RotationState {
    /// The epoch the documents are rotated to (already the database's).
    pub(crate) epoch: u64,
    /// Documents with smaller ids are done.
    pub(crate) cursor: u64,
    /// The next document id when the rotation started.
    pub(crate) end: u64,
    /// The manifest's next file number when the rotation started.
    pub(crate) base: u64,
}

impl RotationState {
    /// Whether document `doc`'s postings in segment `segment` are stale.
    pub(crate) fn is_stale(&self, segment: u64, doc: DocId) -> bool {
        segment < self.base && u64::from(doc) < self.cursor
    }

    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16);
        for value in [self.epoch, self.cursor, self.end, self.base] {
            put_varint(&mut out, value);
        }
        out
    }

    pub(crate) fn decode(bytes: &[u8]) -> Option<Self> {
        let pos = &mut 0;
        let state = Self {
            epoch: get_varint(bytes, pos)?,
            cursor: get_varint(bytes, pos)?,
            end: get_varint(bytes, pos)?,
            base: get_varint(bytes, pos)?,
        };
        (*pos == bytes.len()).then_some(state)
    }
}

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

/// Stored keys (strictly increasing) as Rice-coded gaps: varint count, a
/// byte with the Rice parameter, then the bit stream. A hundred 27-bit keys
/// take about 280 bytes this way against 400 as varints, a kept print of a
/// thousand about 2.3 KB; the staging table holds up to `flush_docs` such
/// lists, and the catalogue file keeps that high-water mark.
pub(crate) fn encode_keys(keys: &[u64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(keys.len() * 3 + 4);
    put_varint(&mut out, keys.len() as u64);
    let span = keys.last().map_or(0, |&last| last + 1);
    let k = gap_rice_k(span, keys.len());
    out.push(k as u8);
    let mut bits = BitWriter::default();
    let mut previous = 0u64;
    for (i, &key) in keys.iter().enumerate() {
        debug_assert!(i == 0 || key > previous, "keys must be strictly increasing");
        // Gaps after the first are at least one: code gap - 1.
        let gap = if i == 0 { key } else { key - previous - 1 };
        bits.write_rice(gap, k);
        previous = key;
    }
    bits.take_bytes(&mut out);
    out
}

/// Reads [`encode_keys`]'s output.
pub(crate) fn decode_keys(bytes: &[u8]) -> Option<Vec<u64>> {
    let pos = &mut 0;
    let len = usize::try_from(get_varint(bytes, pos)?).ok()?;
    let k = u32::from(*bytes.get(*pos)?);
    *pos += 1;
    if k > 32 || len > (bytes.len() - *pos) * 8 {
        return None;
    }
    let mut reader = BitReader::new(&bytes[*pos..]);
    let mut out = Vec::with_capacity(len);
    let mut previous = 0u64;
    for i in 0..len {
        let gap = reader.read_rice(k)?;
        previous = if i == 0 {
            gap
        } else {
            previous.checked_add(gap)?.checked_add(1)?
        };
        out.push(previous);
    }
    (reader.remaining() < 8).then_some(out)
}

/// The Rice parameter for the gaps of `count` values spread over `0..span`.
fn gap_rice_k(span: u64, count: usize) -> u32 {
    rice_k_for_mean(span as f64 / count.max(1) as f64, 32)
}

/// One segment as the manifest lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SegmentEntry {
    /// The file is `<number>.seg`, number zero-padded to 12 digits.
    pub number: u64,
    /// Postings in it.
    pub postings: u64,
    /// File size.
    pub bytes: u64,
}

/// The set of live segments. Replaced as a whole, inside the same redb
/// transaction that stages or unstages the postings it accounts for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Manifest {
    /// Bumped whenever the segment list changes.
    pub generation: u64,
    /// The number the next segment file gets.
    pub next_number: u64,
    /// Live segments, oldest first.
    pub segments: Vec<SegmentEntry>,
    /// Cold print files (`<number>.prints`), oldest first; their
    /// `postings` field counts prints.
    pub print_files: Vec<SegmentEntry>,
}

impl Manifest {
    /// The stored form.
    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        put_varint(&mut out, self.generation);
        put_varint(&mut out, self.next_number);
        for list in [&self.segments, &self.print_files] {
            put_varint(&mut out, list.len() as u64);
            for entry in list {
                put_varint(&mut out, entry.number);
                put_varint(&mut out, entry.postings);
                put_varint(&mut out, entry.bytes);
            }
        }
        out
    }

    /// Reads the stored form; `None` if damaged.
    pub(crate) fn decode(bytes: &[u8]) -> Option<Self> {
        let pos = &mut 0;
        let generation = get_varint(bytes, pos)?;
        let next_number = get_varint(bytes, pos)?;
        let mut list = || {
            let count = get_varint(bytes, pos)?;
            let mut entries = Vec::new();
            for _ in 0..count {
                entries.push(SegmentEntry {
                    number: get_varint(bytes, pos)?,
                    postings: get_varint(bytes, pos)?,
                    bytes: get_varint(bytes, pos)?,
                });
            }
            Some(entries)
        };
        let segments = list()?;
        let print_files = list()?;
        (*pos == bytes.len()).then_some(Self {
            generation,
            next_number,
            segments,
            print_files,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn staged_keys_round_trip(keys in prop::collection::btree_set(0u64..1 << 40, 0..300)) {
            let keys: Vec<u64> = keys.into_iter().collect();
            prop_assert_eq!(decode_keys(&encode_keys(&keys)), Some(keys));
        }

        #[test]
        fn dense_staged_keys_round_trip(keys in prop::collection::btree_set(0u64..400, 0..300)) {
            let keys: Vec<u64> = keys.into_iter().collect();
            prop_assert_eq!(decode_keys(&encode_keys(&keys)), Some(keys));
        }

        #[test]
        fn rotation_states_round_trip_and_truncations_are_refused(
            epoch in any::<u64>(), cursor in any::<u64>(), end in any::<u64>(), base in any::<u64>(),
        ) {
            let state = RotationState { epoch, cursor, end, base };
            let bytes = state.encode();
            prop_assert_eq!(RotationState::decode(&bytes), Some(state));
            prop_assert_eq!(RotationState::decode(&bytes[..bytes.len() - 1]), None);
            let mut longer = bytes.clone();
            longer.push(0);
            prop_assert_eq!(RotationState::decode(&longer), None);
        }

    }

    #[test]
    fn a_print_of_a_thousand_keys_costs_under_two_and_a_half_kilobytes() {
        let mut state = 7u64;
        let keys: Vec<u64> = (0..1000)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                state >> 37
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let bytes = encode_keys(&keys).len();
        assert!((2200..2450).contains(&bytes), "{bytes} bytes");
    }

    #[test]
    fn manifests_round_trip() {
        let manifest = Manifest {
            generation: 4,
            next_number: 12,
            segments: vec![SegmentEntry {
                number: 3,
                postings: 1000,
                bytes: 4096,
            }],
            print_files: vec![SegmentEntry {
                number: 4,
                postings: 10,
                bytes: 70_000,
            }],
        };
        assert_eq!(Manifest::decode(&manifest.encode()), Some(manifest));
    }
}
