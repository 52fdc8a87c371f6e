//! Search auditing (Koala §3.3).
//!
//! A plagiarist who wants to learn which substrings of a registered
//! document are fingerprinted can cut a copy into pieces and search each
//! one: the document then turns up in many searches in a short time. The
//! server counts, per registered document, the searches it matched — in
//! total and within a window that restarts when it has run out — and logs a warning when the window
//! count passes a threshold (once per window, not on every further search).
//!
//! The windows live in memory (they are about the last minutes). The
//! totals persist in the database when the audit has one
//! ([`Audit::persisted`]): counts gather in memory and are written in one
//! catalogue transaction every [`PERSIST_EVERY`] searches and when the
//! audit is dropped, so a crash loses at most one batch and a search costs
//! no write of its own.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use copyhound_db::{Database, DocId};

/// Searches between two writes of the gathered counts.
pub const PERSIST_EVERY: u32 = 64;

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
#[derive(Default)]
pub struct Audit {
    config: AuditConfig,
    counters: Mutex<Counters>,
    /// Where totals persist, if anywhere.
    database: Option<Arc<Database>>,
}

#[derive(Default)]
struct Counters {
    by_document: HashMap<DocId, Counter>,
    /// Counts not yet written to the database.
    pending: HashMap<DocId, u64>,
    /// Searches recorded since the last write.
    searches: u32,
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
            counters: Mutex::default(),
            database: None,
        }
    }

    /// Counters with `config` whose totals persist in `database`.
    pub fn persisted(config: AuditConfig, database: Arc<Database>) -> Self {
        Self {
            config,
            counters: Mutex::default(),
            database: Some(database),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Counters> {
        self.counters
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Writes the gathered counts to the database (if there is one). A
    /// failed write is logged and its counts kept for the next one.
    pub fn persist(&self) {
        let Some(database) = &self.database else {
            return;
        };
        let pending: Vec<(DocId, u64)> = {
            let mut counters = self.lock();
            counters.searches = 0;
            counters.pending.drain().collect()
        };
        if pending.is_empty() {
            return;
        }
        if let Err(error) = database.add_search_counts(&pending) {
            tracing::warn!("cannot write the search counters: {error}");
            let mut counters = self.lock();
            for (document, count) in pending {
                *counters.pending.entry(document).or_default() += count;
            }
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
        let mut guard = self.lock();
        let counters = &mut *guard;
        counters.searches += 1;
        for document in documents {
            *counters.pending.entry(document).or_default() += 1;
            let counter = counters.by_document.entry(document).or_insert(Counter {
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
        let due = counters.searches >= PERSIST_EVERY;
        drop(guard);
        if due {
            self.persist();
        }
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

    /// Searches that matched `document`: since it was registered when the
    /// totals persist, else since the server started.
    pub fn total(&self, document: DocId) -> u64 {
        let counters = self.lock();
        match &self.database {
            Some(database) => {
                let pending = counters.pending.get(&document).copied().unwrap_or(0);
                drop(counters);
                let stored = database.search_count(document).unwrap_or_else(|error| {
                    tracing::warn!("cannot read the search counters: {error}");
                    0
                });
                stored + pending
            }
            None => counters.by_document.get(&document).map_or(0, |c| c.total),
        }
    }

    /// Forgets a removed document (the database drops its persisted count
    /// with it).
    pub fn forget(&self, document: DocId) {
        let mut counters = self.lock();
        counters.by_document.remove(&document);
        counters.pending.remove(&document);
    }
}

impl Drop for Audit {
    fn drop(&mut self) {
        self.persist();
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
    fn totals_persist_in_batches_and_survive_a_restart() {
        use copyhound_db::{DocumentMeta, DocumentPrint, NewDocument, Params};
        let dir = tempfile::tempdir().unwrap();
        let database = Arc::new(Database::create(dir.path(), Params::default()).unwrap());
        let ids = database
            .add(
                (0..2)
                    .map(|i| NewDocument {
                        meta: DocumentMeta::default(),
                        print: DocumentPrint::from_hashes((0..200).map(|h| h * 7 + i).collect()),
                    })
                    .collect(),
            )
            .unwrap();
        let config = AuditConfig::default();
        let audit = Audit::persisted(config, Arc::clone(&database));
        let start = Instant::now();
        for _ in 0..PERSIST_EVERY + 10 {
            audit.record([ids[0]], start);
        }
        audit.record([ids[1]], start);
        // One batch written, the rest gathered; the total counts both.
        assert_eq!(
            database.search_count(ids[0]).unwrap(),
            u64::from(PERSIST_EVERY)
        );
        assert_eq!(audit.total(ids[0]), u64::from(PERSIST_EVERY) + 10);
        drop(audit);
        let restarted = Audit::persisted(config, Arc::clone(&database));
        assert_eq!(restarted.total(ids[0]), u64::from(PERSIST_EVERY) + 10);
        assert_eq!(restarted.total(ids[1]), 1);
        database.remove(ids[1]).unwrap();
        restarted.forget(ids[1]);
        assert_eq!(restarted.total(ids[1]), 0);
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
