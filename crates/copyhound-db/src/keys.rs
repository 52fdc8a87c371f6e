//! Keys, and how lists of them are stored.
//!
//! A key is the top `hash_bits` bits of a fingerprint hash: postings,
//! stored subsets and kept prints are all sets of keys. A sorted key list
//! (a document's staged stored keys, or its kept print) is stored as
//! Rice-coded gaps, which the staging table, the `prints` table and the
//! cold print files share.

use crate::codec::{BitReader, BitWriter, get_varint, put_varint, rice_k_for_mean};

/// The key of a hash: its top `hash_bits` bits.
pub(crate) fn key_of(hash: u64, hash_bits: u32) -> u64 {
    hash >> (64 - hash_bits)
}

/// Distinct keys of sorted hashes, sorted.
pub(crate) fn keys_of(hashes: &[u64], hash_bits: u32) -> Vec<u64> {
    let mut keys: Vec<u64> = hashes.iter().map(|&h| key_of(h, hash_bits)).collect();
    keys.dedup();
    keys
}

/// Keys (strictly increasing) as Rice-coded gaps: varint count, a byte with
/// the Rice parameter, then the bit stream. A hundred 27-bit keys take
/// about 280 bytes this way against 400 as varints, a kept print of a
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

/// Reads [`encode_keys`]'s output; `None` if it is damaged.
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn key_lists_round_trip(keys in prop::collection::btree_set(0u64..1 << 40, 0..300)) {
            let keys: Vec<u64> = keys.into_iter().collect();
            prop_assert_eq!(decode_keys(&encode_keys(&keys)), Some(keys));
        }

        #[test]
        fn dense_key_lists_round_trip(keys in prop::collection::btree_set(0u64..400, 0..300)) {
            let keys: Vec<u64> = keys.into_iter().collect();
            prop_assert_eq!(decode_keys(&encode_keys(&keys)), Some(keys));
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
    fn keys_are_the_top_bits_and_distinct() {
        let hashes = [1u64 << 40, (1 << 40) + 1, 3 << 62, u64::MAX];
        assert_eq!(keys_of(&hashes, 27), [8, 3 << 25, (1 << 27) - 1]);
    }
}
