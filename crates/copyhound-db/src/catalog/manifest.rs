//! The manifest (which segment and print files are live) and the state of
//! an unfinished rotation: two meta values with their encodings.

use crate::catalog::DocId;
use crate::codec::{get_varint, put_varint};

/// One file as the manifest lists it: a segment, or a cold print file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SegmentEntry {
    /// The file's number (its name is made by [`crate::directory`]).
    pub number: u64,
    /// Postings in it (for a print file: prints).
    pub postings: u64,
    /// File size.
    pub bytes: u64,
}

/// The set of live segments and print files. Replaced as a whole, inside
/// the same redb transaction that stages or unstages what it accounts for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Manifest {
    /// Bumped whenever the lists change.
    pub generation: u64,
    /// The number the next file gets.
    pub next_number: u64,
    /// Live segments, oldest first.
    pub segments: Vec<SegmentEntry>,
    /// Cold print files, oldest first.
    pub print_files: Vec<SegmentEntry>,
}

impl Manifest {
    /// The stored form: varints generation, next number, then each list as
    /// a count and per file its number, postings and size.
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

    /// The stored form: varints epoch, cursor, end, base.
    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16);
        for value in [self.epoch, self.cursor, self.end, self.base] {
            put_varint(&mut out, value);
        }
        out
    }

    /// Reads the stored form; `None` if damaged.
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
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
