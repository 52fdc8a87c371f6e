//! Integer codes shared by the on-disk formats: LEB128 varints for records,
//! and a least-significant-bit-first bit stream with Rice codes for postings.
//!
//! Rice coding is the Golomb code with a power-of-two divisor: a value `v`
//! is written as `v >> k` in unary (zeros closed by a one) followed by the low
//! `k` bits. For the geometric gaps between sorted document ids it costs
//! within a few percent of their entropy and decodes with one
//! `trailing_zeros` per value.

/// Appends `value` as an unsigned LEB128 varint.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads a varint at `*pos`, advancing it; `None` if the bytes end first or
/// the value overflows 64 bits.
pub(crate) fn get_varint(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*pos)?;
        *pos += 1;
        let low = u64::from(byte & 0x7f);
        if shift == 63 && low > 1 {
            return None;
        }
        value |= low << shift;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

/// The Rice parameter for geometric values of mean `mean`: a Rice code
/// costs about 1 + k + mean / 2^k bits, smallest near 2^k = mean·ln 2, so
/// k = ⌊log2(mean·ln 2)⌋, clamped to `0..=max`.
pub(crate) fn rice_k_for_mean(mean: f64, max: u32) -> u32 {
    (mean * std::f64::consts::LN_2)
        .log2()
        .floor()
        .clamp(0.0, f64::from(max)) as u32
}

/// Writes bits least-significant first into bytes.
#[derive(Debug, Default)]
pub(crate) struct BitWriter {
    bytes: Vec<u8>,
    pending: u64,
    pending_bits: u32,
}

impl BitWriter {
    /// Appends the low `count` bits of `value` (`count` ≤ 57).
    pub(crate) fn write_bits(&mut self, value: u64, count: u32) {
        debug_assert!(count <= 57);
        debug_assert!(value >> count == 0);
        self.pending |= value << self.pending_bits;
        self.pending_bits += count;
        while self.pending_bits >= 8 {
            self.bytes.push(self.pending as u8);
            self.pending >>= 8;
            self.pending_bits -= 8;
        }
    }

    /// Appends `value` Rice-coded with parameter `k` (`k` ≤ 32).
    pub(crate) fn write_rice(&mut self, value: u64, k: u32) {
        let mut quotient = value >> k;
        while quotient >= 32 {
            self.write_bits(0, 32);
            quotient -= 32;
        }
        self.write_bits(1 << quotient, quotient as u32 + 1);
        if k > 0 {
            self.write_bits(value & ((1 << k) - 1), k);
        }
    }

    /// Bits written since the last [`Self::take_bytes`].
    pub(crate) fn bit_len(&self) -> u64 {
        self.bytes.len() as u64 * 8 + u64::from(self.pending_bits)
    }

    /// Pads to a byte boundary with zeros and hands out the bytes, leaving
    /// the writer empty for the next run.
    pub(crate) fn take_bytes(&mut self, into: &mut Vec<u8>) {
        if self.pending_bits > 0 {
            self.bytes.push(self.pending as u8);
        }
        self.pending = 0;
        self.pending_bits = 0;
        into.append(&mut self.bytes);
    }
}

/// Reads what [`BitWriter`] wrote. Every read is bounds-checked, so damaged
/// data yields `None`, never a panic.
#[derive(Debug)]
pub(crate) struct BitReader<'a> {
    bytes: &'a [u8],
    bit: usize,
}

impl<'a> BitReader<'a> {
    /// A reader at the first bit of `bytes`.
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, bit: 0 }
    }

    /// Skips `count` bits; `None` if fewer remain.
    pub(crate) fn skip(&mut self, count: usize) -> Option<()> {
        (count <= self.remaining()).then(|| self.bit += count)
    }

    /// Bits not yet read.
    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() * 8 - self.bit
    }

    /// The next (up to) 57 bits without consuming them, zero-padded past the end.
    #[inline]
    fn peek(&self) -> u64 {
        let byte = self.bit / 8;
        // The common case is one unaligned load; only the last bytes of a
        // run need padding.
        let word = if let Some(eight) = self.bytes.get(byte..byte + 8) {
            u64::from_le_bytes(eight.try_into().expect("8 bytes"))
        } else {
            let mut word = [0u8; 8];
            let available = self.bytes.len().saturating_sub(byte);
            word[..available].copy_from_slice(&self.bytes[byte..]);
            u64::from_le_bytes(word)
        };
        word >> (self.bit % 8)
    }

    /// Reads `count` bits (`count` ≤ 57).
    #[inline]
    pub(crate) fn read_bits(&mut self, count: u32) -> Option<u64> {
        if count as usize > self.remaining() {
            return None;
        }
        let value = if count == 0 {
            0
        } else {
            self.peek() & (u64::MAX >> (64 - count))
        };
        self.bit += count as usize;
        Some(value)
    }

    /// Reads a Rice-coded value with parameter `k`.
    #[inline]
    pub(crate) fn read_rice(&mut self, k: u32) -> Option<u64> {
        let mut quotient = 0u64;
        loop {
            if self.remaining() == 0 {
                return None;
            }
            let window = self.peek();
            // `peek` yields at least 57 meaningful bits (fewer at the end,
            // where the zero padding is caught by `remaining`).
            let zeros = window.trailing_zeros().min(56);
            if zeros < 56 {
                if zeros as usize >= self.remaining() {
                    return None;
                }
                self.bit += zeros as usize + 1;
                quotient += u64::from(zeros);
                break;
            }
            if 56 > self.remaining() {
                return None;
            }
            self.bit += 56;
            quotient += 56;
        }
        let low = self.read_bits(k)?;
        quotient.checked_mul(1 << k).map(|high| high | low)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn varints_round_trip(values in prop::collection::vec(any::<u64>(), 0..50)) {
            let mut out = Vec::new();
            for &v in &values {
                put_varint(&mut out, v);
            }
            let mut pos = 0;
            for &v in &values {
                prop_assert_eq!(get_varint(&out, &mut pos), Some(v));
            }
            prop_assert_eq!(pos, out.len());
        }

        #[test]
        fn rice_codes_round_trip(
            entries in prop::collection::vec((0u64..1 << 40, 0u64..1 << 20), 0..300),
            k in 0u32..=32,
            extra in 0u32..=20,
        ) {
            let mut writer = BitWriter::default();
            let value_mask = (1u64 << (k + 8)) - 1;
            for &(value, raw) in &entries {
                writer.write_rice(value & value_mask, k);
                writer.write_bits(raw & ((1 << extra) - 1), extra);
            }
            let mut bytes = Vec::new();
            writer.take_bytes(&mut bytes);
            let mut reader = BitReader::new(&bytes);
            for &(value, raw) in &entries {
                prop_assert_eq!(reader.read_rice(k), Some(value & value_mask));
                prop_assert_eq!(reader.read_bits(extra), Some(raw & ((1 << extra) - 1)));
            }
            prop_assert!(reader.remaining() < 8);
        }
    }

    #[test]
    fn truncated_input_is_an_error_not_a_panic() {
        let mut writer = BitWriter::default();
        writer.write_rice(1000, 2);
        let mut bytes = Vec::new();
        writer.take_bytes(&mut bytes);
        for cut in 0..bytes.len() {
            assert_eq!(
                BitReader::new(&bytes[..cut]).read_rice(2),
                None,
                "cut at {cut}"
            );
        }
        assert_eq!(get_varint(&[0x80, 0x80], &mut 0), None);
    }
}
