//! Memory budgets: what loading one file may cost, and a gate that keeps
//! files loaded at once within a total.
//!
//! The peak memory of loading a file grows with its text, by a factor that
//! depends on the front-end: measured with `/usr/bin/time -v` on 1 and
//! 8 MiB inputs (`copyhound fingerprint`, peak resident set over input
//! bytes), the text front-ends take up to 26 times the text (HTML, PDF and
//! DOCX are text once extracted), the Java, C and table lexers up to 50,
//! and tree-sitter grammars up to 252 (one-line and deeply nested code:
//! every token is a node). Python, Go, JavaScript and TypeScript have
//! lexers of their own but hand a file with an error to their grammars, so
//! a hostile file can cost what the grammar costs: they are budgeted as
//! grammars.
//! [`memory_per_byte`] rounds these up, and the loader refuses a file
//! whose text times its factor is over
//! [`crate::LoadOptions::memory_budget`] before it runs the front-end, so
//! one file never needs more than the budget (plus the process's own few
//! megabytes).

use std::sync::{Condvar, Mutex};

use crate::DocumentKind;
use crate::code::may_use_grammar;

/// Default memory budget of one file: 2 GiB.
pub const DEFAULT_MEMORY_BUDGET: u64 = 2 << 30;

/// Peak bytes of memory per byte of text for the front-end of `kind`.
pub fn memory_per_byte(kind: DocumentKind) -> u64 {
    match kind {
        DocumentKind::Code(language) if may_use_grammar(language) => 320,
        DocumentKind::Code(_) => 64,
        DocumentKind::Text | DocumentKind::Html | DocumentKind::Pdf | DocumentKind::Docx => 32,
    }
}

/// Lets work proceed while the memory it reserves fits in a total.
///
/// A reservation larger than the total waits until nothing else is
/// reserved and then runs alone, so every file is loaded eventually.
#[derive(Debug)]
pub struct MemoryGate {
    total: u64,
    in_use: Mutex<u64>,
    released: Condvar,
}

/// Memory reserved at a [`MemoryGate`], given back when dropped.
#[derive(Debug)]
pub struct Reservation<'a> {
    gate: &'a MemoryGate,
    bytes: u64,
}

impl MemoryGate {
    /// A gate over `total` bytes.
    pub fn new(total: u64) -> Self {
        Self {
            total,
            in_use: Mutex::new(0),
            released: Condvar::new(),
        }
    }

    /// Waits until `bytes` fit (or nothing else is reserved), then
    /// reserves them.
    pub fn reserve(&self, bytes: u64) -> Reservation<'_> {
        let mut in_use = self
            .in_use
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        while *in_use > 0 && in_use.saturating_add(bytes) > self.total {
            in_use = self
                .released
                .wait(in_use)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        *in_use += bytes;
        Reservation { gate: self, bytes }
    }
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        let mut in_use = self
            .gate
            .in_use
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *in_use -= self.bytes;
        self.gate.released.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn reservations_together_stay_within_the_total() {
        let gate = MemoryGate::new(100);
        let in_use = AtomicU64::new(0);
        let peak = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for bytes in [60, 60, 30, 30, 150, 10] {
                let (gate, in_use, peak) = (&gate, &in_use, &peak);
                scope.spawn(move || {
                    let _reserved = gate.reserve(bytes);
                    let now = in_use.fetch_add(bytes, Ordering::SeqCst) + bytes;
                    peak.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    in_use.fetch_sub(bytes, Ordering::SeqCst);
                });
            }
        });
        // The 150 ran alone; everything else fit in 100.
        assert_eq!(peak.load(Ordering::SeqCst), 150);
        assert_eq!(*gate.in_use.lock().unwrap(), 0);
    }
}
