//! Generated inputs: random text (the papers' calibration), the
//! low-entropy strings of winnowing §5.1, sensor-like data, and a hash
//! sequence crafted against winnowing.
//!
//! Everything is a function of its seed, so every run prints the same.

use copyhound_fingerprint::Symbol;

/// The alphabet of random text: lower-case letters and the space.
const LETTERS: &[u8; 27] = b"abcdefghijklmnopqrstuvwxyz ";

/// A small deterministic random stream (`SplitMix64`).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A stream started from `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        // The top bits times n: unbiased enough for n far below 2^32.
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `len` symbols of random text: letters and spaces, uniformly (winnowing
/// §5.1's "randomly generated text").
pub fn random_text(len: usize, seed: u64) -> Vec<Symbol> {
    let mut rng = Rng::new(seed);
    (0..len)
        .map(|_| Symbol::from(LETTERS[rng.below(LETTERS.len())]))
        .collect()
}

/// `pattern` repeated to `len` symbols: "000…", "abbaabba…".
pub fn repeated(pattern: &str, len: usize) -> Vec<Symbol> {
    pattern
        .bytes()
        .map(Symbol::from)
        .cycle()
        .take(len)
        .collect()
}

/// Sensor-like data (§5.1): "mostly strings of 0's with the occasional odd
/// character thrown in" — here one symbol in 200 is a random digit or sign.
pub fn sensor_data(len: usize, seed: u64) -> Vec<Symbol> {
    const ODD: &[u8] = b"123456789.-+e";
    let mut rng = Rng::new(seed);
    (0..len)
        .map(|_| {
            if rng.chance(1.0 / 200.0) {
                Symbol::from(ODD[rng.below(ODD.len())])
            } else {
                Symbol::from(b'0')
            }
        })
        .collect()
}

/// A hash sequence crafted against winnowing: strictly decreasing, so
/// every window's minimum is its newest hash and winnowing keeps every one
/// after the first window (Ganguly–Veda §II). It stands for a document written by someone who
/// knows the hash key.
pub fn decreasing_hashes(len: usize) -> Vec<u64> {
    (0..len as u64).rev().map(|i| i << 20).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generators_are_deterministic_and_sized() {
        assert_eq!(random_text(1000, 7), random_text(1000, 7));
        assert_ne!(random_text(1000, 7), random_text(1000, 8));
        assert_eq!(repeated("ab", 5), [97, 98, 97, 98, 97]);
        let sensor = sensor_data(100_000, 1);
        let zeros = sensor.iter().filter(|&&s| s == u32::from(b'0')).count();
        assert!((99_000..100_000).contains(&zeros), "{zeros}");
        let crafted = decreasing_hashes(10);
        assert!(crafted.windows(2).all(|p| p[0] > p[1]));
    }

    #[test]
    fn random_text_uses_every_letter_about_equally() {
        let text = random_text(270_000, 3);
        for &letter in LETTERS {
            let count = text.iter().filter(|&&s| s == Symbol::from(letter)).count();
            assert!(
                (9_400..10_600).contains(&count),
                "{}: {count}",
                letter as char
            );
        }
    }
}
