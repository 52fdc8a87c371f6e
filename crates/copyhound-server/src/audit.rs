//! Search auditing (Koala §3.3).
//!
//! A plagiarist who wants to learn which substrings of a registered
//! document are fingerprinted can cut a copy into pieces and search each
//! one: the document then turns up in many searches in a short time. The
//! server counts, per registered document, the searches it matched — in
//! total and within a window that restarts when it has run out — and logs a warning when the window
//! count passes a threshold (once per window, not on every further search).
//!
//! The counters live in memory: they restart with the server.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use copyhound_db::DocId;

/// When a document counts as searched unusually often.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuditConfig {
    /// More than this many matching searches within `window` is unusual.
    pub threshold: u32,
    /// The window.
    pub window: Duration,
}

impl Default for AuditConfig {
    fn default() -> Self {
        Self {
            threshold: 50,
            window: Duration::from_secs(600),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Counter {
    total: u64,
    window_start: Instant,
    in_window: u32,
    warned: bool,
}

/// Per-document search counters.
#[derive(Debug, Default)]
pub struct Audit {
    config: AuditConfig,
    counters: Mutex<HashMap<DocId, Counter>>,
}

/// What recording one search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alarm {
    /// The document.
    pub document: DocId,
    /// Its matching searches within the current window.
    pub in_window: u32,
}

impl Audit {
    /// Counters with `config`.
    pub fn new(config: AuditConfig) -> Self {
        Self {
            config,
            counters: Mutex::new(HashMap::new()),
        }
    }

    /// The thresholds.
    pub fn config(&self) -> AuditConfig {
        self.config
    }

    /// Records one search that matched `documents` at time `now`, logs a
    /// warning for each document that just passed the threshold and returns
    /// those.
    pub fn record(&self, documents: impl IntoIterator<Item = DocId>, now: Instant) -> Vec<Alarm> {
        let mut alarms = Vec::new();
        let mut counters = self
            .counters
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for document in documents {
            let counter = counters.entry(document).or_insert(Counter {
                total: 0,
                window_start: now,
                in_window: 0,
                warned: false,
            });
            if now.duration_since(counter.window_start) > self.config.window {
                counter.window_start = now;
                counter.in_window = 0;
                counter.warned = false;
            }
            counter.total += 1;
            counter.in_window += 1;
            if counter.in_window > self.config.threshold && !counter.warned {
                counter.warned = true;
                alarms.push(Alarm {
                    document,
                    in_window: counter.in_window,
                });
            }
        }
        drop(counters);
        for alarm in &alarms {
            tracing::warn!(
                document = alarm.document,
                searches = alarm.in_window,
                window_secs = self.config.window.as_secs(),
                "document {} matched {} searches within {} s: someone may be probing its fingerprint",
                alarm.document,
                alarm.in_window,
                self.config.window.as_secs()
            );
        }
        alarms
    }

    /// Searches that matched `document` since the server started.
    pub fn total(&self, document: DocId) -> u64 {
        self.counters
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&document)
            .map_or(0, |c| c.total)
    }

    /// Forgets a removed document.
    pub fn forget(&self, document: DocId) {
        self.counters
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&document);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn audit() -> Audit {
        Audit::new(AuditConfig {
            threshold: 3,
            window: Duration::from_secs(60),
        })
    }

    #[test]
    fn warns_once_when_a_document_passes_the_threshold_within_the_window() {
        let audit = audit();
        let start = Instant::now();
        for i in 0..3 {
            assert!(
                audit
                    .record([7, 8], start + Duration::from_secs(i))
                    .is_empty()
            );
        }
        let alarms = audit.record([7], start + Duration::from_secs(3));
        assert_eq!(
            alarms,
            [Alarm {
                document: 7,
                in_window: 4
            }]
        );
        assert!(audit.record([7], start + Duration::from_secs(4)).is_empty());
        assert_eq!(audit.total(7), 5);
        assert_eq!(audit.total(8), 3);
        assert_eq!(audit.total(9), 0);
    }

    #[test]
    fn searches_spread_over_windows_do_not_warn() {
        let audit = audit();
        let start = Instant::now();
        for i in 0..12 {
            let at = start + Duration::from_secs(25 * i);
            assert!(audit.record([1], at).is_empty(), "search {i}");
        }
        assert_eq!(audit.total(1), 12);
        audit.forget(1);
        assert_eq!(audit.total(1), 0);
    }
}
