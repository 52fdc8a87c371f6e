//! Records: coding round trips, block boundaries, and the table kept
//! sound by adds, removals and rewrites.

use std::path::Path;

use proptest::prelude::*;
use redb::ReadableTable;

use super::block::{BLOCK_BYTES, BLOCK_FILL, decode_block, encode_blocks};
use super::fields::{get_string_change, put_string_change};
use super::{DocId, DocumentMeta, DocumentRecord, Records};
use crate::catalog::RECORDS;
use crate::codec::put_varint;

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
        let mut table = Records::new(path, txn.open_table(RECORDS).unwrap());
        let mut model = std::collections::BTreeMap::new();
        let mut next = 0;
        for batch in batches {
            let records: Vec<DocumentRecord> = (next..next + batch).map(numbered).collect();
            next += batch;
            model.extend(records.iter().map(|r| (r.id, r.clone())));
            table.insert(records).unwrap();
        }
        for removal in removals {
            let id = removal.index(next as usize) as DocId;
            prop_assert_eq!(table.remove(id).unwrap(), model.remove(&id));
        }
        // Longer titles for a run of records grow their blocks past the
        // limit, which splits them.
        let first = grown.index(next as usize) as DocId;
        let longer = |r: &mut DocumentRecord| {
            r.meta.title = format!("a title much longer than before, for document {}", r.id);
        };
        table.update(first, first + 300, longer).unwrap();
        model.range_mut(first..=first + 300).for_each(|(_, r)| longer(r));

        assert_blocks_are_sound(&table.table);
        for id in 0..=next {
            prop_assert_eq!(table.get(id).unwrap(), model.get(&id).cloned());
        }
        let from = from.index(next as usize + 1) as DocId;
        let mut seen = Vec::new();
        table.for_each_in(from..=from + 100, |cursor| {
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
        let mut table = Records::new(path, txn.open_table(RECORDS).unwrap());
        for first in (0..5000).step_by(10) {
            table
                .insert((first..first + 10).map(numbered).collect())
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
    let mut table = Records::new(path, txn.open_table(RECORDS).unwrap());
    table.insert((0..5000).map(numbered).collect()).unwrap();
    let before = assert_blocks_are_sound(&table.table);
    // A new epoch for all but a few documents (whose files were gone).
    table
        .update(0, 4999, |r| {
            if r.id % 100 != 7 {
                r.selection = 1;
            }
        })
        .unwrap();
    assert_eq!(assert_blocks_are_sound(&table.table), before);
    let mut unrotated = 0;
    table
        .for_each_from(0, |cursor| {
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
