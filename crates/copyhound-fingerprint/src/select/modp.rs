//! The `0 mod p` selector and its safe variant (winnowing paper §3.1.1–3.1.2).

use super::{Fingerprint, KGrams, Selector};

/// Selects every hash that is `0 mod p`: density 1/p, but no guarantee — a
/// long run can pass with no hash selected (§3.1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModP {
    p: u64,
}

impl ModP {
    /// Keeps hashes divisible by `p`.
    ///
    /// # Panics
    /// If `p` is zero.
    pub fn new(p: u64) -> Self {
        assert!(p > 0, "p must be positive");
        Self { p }
    }

    /// The modulus p.
    pub fn p(&self) -> u64 {
        self.p
    }
}

impl Selector for ModP {
    fn name(&self) -> &'static str {
        "mod-p"
    }

    fn select(&self, kgrams: &KGrams<'_>, out: &mut Vec<Fingerprint>) {
        out.extend(
            kgrams
                .hashes
                .iter()
                .enumerate()
                .filter(|(_, h)| *h % self.p == 0)
                .map(|(i, &h)| Fingerprint::new(h, i)),
        );
    }
}

/// Safe `0 mod p` (§3.1.2): a hash is *Good* if it is `0 mod p`, *Bad* if it
/// and the w−1 hashes to its left are all not Good, *Ugly* otherwise; every
/// Good and Bad hash is selected. Local, so it has winnowing's guarantee
/// t = w + k − 1, at density about (1 + ln w)/w with the optimal p ≈ w / ln w.
///
/// The first w−1 hashes of a document lack w−1 left neighbours and so are
/// never Bad; that keeps the selector local (the guarantee only needs the
/// last hash of a Good-free shared window to be Bad in both documents).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SafeModP {
    p: u64,
    window: usize,
}

impl SafeModP {
    /// Safe `0 mod p` with guarantee window `window`.
    ///
    /// # Panics
    /// If `p` or `window` is zero.
    pub fn new(p: u64, window: usize) -> Self {
        assert!(p > 0 && window > 0, "p and w must be positive");
        Self { p, window }
    }

    /// Safe `0 mod p` with the density-optimal p = round(w / ln w) (§3.1.2).
    pub fn optimal(window: usize) -> Self {
        let p = if window < 3 {
            1
        } else {
            (window as f64 / (window as f64).ln()).round().max(1.0) as u64
        };
        Self::new(p, window)
    }

    /// The modulus p.
    pub fn p(&self) -> u64 {
        self.p
    }

    /// The guarantee window w.
    pub fn window(&self) -> usize {
        self.window
    }
}

impl Selector for SafeModP {
    fn name(&self) -> &'static str {
        "safe-mod-p"
    }

    /// A window with a hash `0 mod p` selects it in both documents; one
    /// without selects its last position in both, where the run of other
    /// hashes has reached `w`.
    fn window_guarantee(&self) -> Option<usize> {
        Some(self.window)
    }

    fn select(&self, kgrams: &KGrams<'_>, out: &mut Vec<Fingerprint>) {
        // Length of the run of not-Good hashes ending at the current one.
        let mut not_good_run = 0usize;
        for (i, &h) in kgrams.hashes.iter().enumerate() {
            if h % self.p == 0 {
                not_good_run = 0;
                out.push(Fingerprint::new(h, i));
            } else {
                not_good_run += 1;
                if not_good_run >= self.window {
                    out.push(Fingerprint::new(h, i));
                }
            }
        }
    }
}
