//! Segment round trips, merges and corruption detection.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;

use super::*;
use crate::error::Result;

const HASH_BITS: u32 = 28;

/// Writes `postings` as a new segment at `path`.
fn write(path: &std::path::Path, postings: &mut [Posting]) -> Result<SegmentSummary> {
    write_postings(
        path,
        std::fs::File::create_new(path).unwrap(),
        HASH_BITS,
        postings,
    )
}

fn index_of(postings: &[Posting]) -> BTreeMap<u64, BTreeSet<u32>> {
    let mut index = BTreeMap::<u64, BTreeSet<u32>>::new();
    for p in postings {
        index.entry(p.key).or_default().insert(p.doc);
    }
    index
}

fn lookup(segment: &Segment, key: u64) -> Vec<u32> {
    let mut docs = Vec::new();
    segment.lookup(key, &mut docs).unwrap();
    docs
}

/// `count` postings whose keys step by a prime over the key space, spread
/// over ids `0..docs`.
fn strided_postings(count: u64, docs: u32) -> Vec<Posting> {
    (0..count)
        .map(|i| Posting {
            key: i * 7919 % (1 << HASH_BITS),
            doc: i as u32 % docs,
        })
        .collect()
}

fn postings_strategy() -> impl Strategy<Value = Vec<Posting>> {
    // Few distinct keys and ids, so that shared keys and repeats are common.
    prop::collection::vec(
        (0u64..2000, 0u32..500).prop_map(|(k, doc)| Posting {
            key: k.wrapping_mul(0x9E37_79B9) & ((1 << HASH_BITS) - 1),
            doc: doc * 3 + 7,
        }),
        0..3000,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn every_posting_is_found_and_nothing_else(mut postings in postings_strategy()) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.seg");
        let expected = index_of(&postings);
        let summary = write(&path, &mut postings).unwrap();
        let segment = Segment::open(&path).unwrap();
        let distinct: usize = expected.values().map(BTreeSet::len).sum();
        prop_assert_eq!(segment.postings(), distinct as u64);
        prop_assert_eq!(summary.bytes, segment.bytes());
        for (&key, docs) in &expected {
            prop_assert_eq!(lookup(&segment, key), docs.iter().copied().collect::<Vec<_>>());
            prop_assert!(lookup(&segment, key ^ 1).iter().all(|d| expected.get(&(key ^ 1)).is_some_and(|s| s.contains(d))));
        }
        let per_doc = segment.verify().unwrap();
        prop_assert_eq!(per_doc.iter().map(|&(_, n)| u64::from(n)).sum::<u64>(), distinct as u64);
    }

    #[test]
    fn a_merge_is_the_union_without_removed_documents(
        mut a in postings_strategy(),
        mut b in postings_strategy(),
        removed in prop::collection::btree_set(0u32..1600, 0..100),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let mut expected = a.clone();
        expected.extend_from_slice(&b);
        expected.retain(|p| !removed.contains(&p.doc));
        let expected = index_of(&expected);
        write(&dir.path().join("a.seg"), &mut a).unwrap();
        write(&dir.path().join("b.seg"), &mut b).unwrap();
        let a = Segment::open(&dir.path().join("a.seg")).unwrap();
        let b = Segment::open(&dir.path().join("b.seg")).unwrap();
        let out = dir.path().join("c.seg");
        merge_segments(&[&a, &b], HASH_BITS, |doc| !removed.contains(&doc), &out, std::fs::File::create_new(&out).unwrap()).unwrap();
        let merged = Segment::open(&out).unwrap();
        merged.verify().unwrap();
        for (&key, docs) in &expected {
            prop_assert_eq!(lookup(&merged, key), docs.iter().copied().collect::<Vec<_>>());
        }
        let total: usize = expected.values().map(BTreeSet::len).sum();
        prop_assert_eq!(merged.postings(), total as u64);
    }
}

#[test]
fn large_segments_pick_finer_buckets_and_fit_the_budget() {
    // 20,000 documents of 100 random keys each: the layout the database uses.
    let docs = 20_000u32;
    let mut state = 1u64;
    let mut postings = Vec::new();
    for doc in 0..docs {
        for _ in 0..100 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            postings.push(Posting {
                key: state >> (64 - HASH_BITS),
                doc,
            });
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.seg");
    let summary = write(&path, &mut postings).unwrap();
    let segment = Segment::open(&path).unwrap();
    assert!(segment.shape().bucket_bits > MIN_BUCKET_BITS);
    let per_doc = summary.bytes as f64 / f64::from(docs);
    // 100 entries of ~(log2(gap) + 1.5 + residual) bits; far below Koala's 400.
    assert!(per_doc < 300.0, "{per_doc} bytes per document");
    segment.verify().unwrap();
}

#[test]
fn damage_is_reported_with_the_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seg-1.seg");
    let mut postings = strided_postings(5000, 97);
    write(&path, &mut postings).unwrap();
    let pristine = std::fs::read(&path).unwrap();

    let mut flipped = pristine.clone();
    flipped[HEADER_LEN + 10] ^= 0x10;
    std::fs::write(&path, &flipped).unwrap();
    let error = Segment::open(&path)
        .unwrap()
        .verify()
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("seg-1.seg") && error.contains("data checksum"),
        "{error}"
    );

    std::fs::write(&path, &pristine[..pristine.len() - 3]).unwrap();
    let error = Segment::open(&path).unwrap_err().to_string();
    assert!(
        error.contains("seg-1.seg") && error.contains("bytes"),
        "{error}"
    );

    let mut header = pristine.clone();
    header[20] ^= 1;
    std::fs::write(&path, &header).unwrap();
    let error = Segment::open(&path).unwrap_err().to_string();
    assert!(error.contains("header checksum"), "{error}");
}

#[test]
fn a_segment_of_an_older_format_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.seg");
    let mut postings = strided_postings(500, 31);
    write(&path, &mut postings).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    // Version 1 (byte-aligned buckets, u32 offsets), with a valid header CRC.
    bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
    let crc = crc32fast::hash(&bytes[..60]);
    bytes[60..64].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let error = Segment::open(&path).unwrap_err();
    assert!(
        matches!(
            error,
            crate::DbError::UnsupportedVersion {
                found: 1,
                supported: FORMAT_VERSION,
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().contains("old.seg"), "{error}");
}

#[test]
fn groups_too_large_for_16_bit_offsets_use_32_bit_ones() {
    // One key held by 20,000 documents: its bucket alone exceeds 2^16 bits.
    let mut postings: Vec<Posting> = (0..20_000)
        .map(|doc| Posting { key: 12_345, doc })
        .chain((0..3000).map(|i| Posting {
            key: (i * 104_729) % (1 << HASH_BITS),
            doc: i as u32,
        }))
        .collect();
    let expected = index_of(&postings);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wide.seg");
    write(&path, &mut postings).unwrap();
    let segment = Segment::open(&path).unwrap();
    assert_eq!(segment.offset_width(), 4);
    for (&key, docs) in &expected {
        assert_eq!(
            lookup(&segment, key),
            docs.iter().copied().collect::<Vec<_>>()
        );
    }
    segment.verify().unwrap();
}

/// The same segment in format 2: no group checksums in the directory.
fn as_format_2(bytes: &[u8]) -> Vec<u8> {
    let segment_groups = |bytes: &[u8]| (1usize << bytes[12]) / GROUP_BUCKETS as usize;
    let data_len = u64::from_le_bytes(bytes[32..40].try_into().unwrap()) as usize;
    let directory_at = HEADER_LEN + data_len;
    let crcs_at = directory_at + (segment_groups(bytes) + 1) * 4;
    let mut old = bytes[..crcs_at].to_vec();
    old.extend_from_slice(&bytes[crcs_at + segment_groups(bytes) * 4..]);
    old[8..12].copy_from_slice(&2u32.to_le_bytes());
    let directory_crc = crc32fast::hash(&old[directory_at..]);
    old[44..48].copy_from_slice(&directory_crc.to_le_bytes());
    let header_crc = crc32fast::hash(&old[..60]);
    old[60..64].copy_from_slice(&header_crc.to_le_bytes());
    old
}

/// Every lookup of `keys` in the segment at `path`: the documents, or the
/// error's message.
fn lookups(path: &std::path::Path, keys: &[u64]) -> Result<Vec<Result<Vec<u32>, String>>, String> {
    let segment = Segment::open(path).map_err(|e| e.to_string())?;
    Ok(keys
        .iter()
        .map(|&key| {
            let mut docs = Vec::new();
            segment
                .lookup(key, &mut docs)
                .map(|()| docs)
                .map_err(|e| e.to_string())
        })
        .collect())
}

#[test]
fn a_flipped_bit_fails_the_lookups_that_read_it_and_changes_no_answer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rot.seg");
    let mut postings = strided_postings(3000, 211);
    let expected = index_of(&postings);
    write(&path, &mut postings).unwrap();
    let keys: Vec<u64> = expected.keys().copied().collect();
    let clean: Vec<Vec<u32>> = keys
        .iter()
        .map(|key| expected[key].iter().copied().collect())
        .collect();
    let pristine = std::fs::read(&path).unwrap();
    let data_end = HEADER_LEN + u64::from_le_bytes(pristine[32..40].try_into().unwrap()) as usize;
    // Every 97th bit of the file: header, data and directory.
    for bit in (0..pristine.len() * 8).step_by(97) {
        let mut damaged = pristine.clone();
        damaged[bit / 8] ^= 1 << (bit % 8);
        std::fs::write(&path, &damaged).unwrap();
        let named = |message: &str| {
            message.contains("rot.seg")
                && (message.contains("corrupt") || message.contains("checksum"))
        };
        match lookups(&path, &keys) {
            Err(message) => assert!(named(&message), "bit {bit}: {message}"),
            Ok(answers) => {
                let mut failed = 0;
                for (answer, clean) in answers.iter().zip(&clean) {
                    match answer {
                        Ok(docs) => assert_eq!(docs, clean, "bit {bit} changed an answer"),
                        Err(message) => {
                            assert!(named(message), "bit {bit}: {message}");
                            failed += 1;
                        }
                    }
                }
                // Only the data is checked lazily, and every data byte
                // belongs to a group some key is in.
                assert!(
                    failed > 0 && (HEADER_LEN..data_end).contains(&(bit / 8)),
                    "bit {bit} went unnoticed"
                );
            }
        }
    }
}

#[test]
fn format_2_is_read_and_its_data_checked_whole_on_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v2.seg");
    let mut postings = strided_postings(3000, 211);
    let expected = index_of(&postings);
    write(&path, &mut postings).unwrap();
    let old = as_format_2(&std::fs::read(&path).unwrap());
    std::fs::write(&path, &old).unwrap();
    let segment = Segment::open(&path).unwrap();
    for (&key, docs) in &expected {
        assert_eq!(
            lookup(&segment, key),
            docs.iter().copied().collect::<Vec<_>>()
        );
    }
    assert_eq!(segment.verify().unwrap().len(), 211);
    let mut damaged = old;
    damaged[HEADER_LEN + 100] ^= 4;
    std::fs::write(&path, &damaged).unwrap();
    let error = Segment::open(&path).unwrap_err().to_string();
    assert!(
        error.contains("v2.seg") && error.contains("data checksum mismatch"),
        "{error}"
    );
}

#[test]
fn group_checksums_cost_four_bytes_per_sixteen_buckets() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("size.seg");
    let mut postings = strided_postings(20_000, 997);
    let summary = write(&path, &mut postings).unwrap();
    let segment = Segment::open(&path).unwrap();
    let groups = segment.shape().group_count();
    let old = as_format_2(&std::fs::read(&path).unwrap());
    assert_eq!(summary.bytes, old.len() as u64 + groups * 4);
}
